// A task that is setting up (its repository's setup commands run in its pane before the agent
// starts): a "Setting up…" badge where the state badge goes (board card, task page header), and
// the step it is at (card).
import type { BoardCardData } from "../lib/types";

type Setup = NonNullable<BoardCardData["setup"]>;

export function SetupBadge({ size = "sm" }: { size?: "sm" | "md" }) {
  return (
    <span
      data-testid="state-badge"
      data-state="setting_up"
      className={`inline-flex shrink-0 items-center gap-1.5 whitespace-nowrap rounded-full border border-attention/40 bg-attention-muted font-medium text-attention ${size === "sm" ? "px-1.5 py-0 text-[11px] leading-[18px]" : "px-2 py-0.5 text-xs"}`}
    >
      <span aria-hidden className="h-1.5 w-1.5 animate-pulse rounded-full bg-attention" />
      Setting up…
    </span>
  );
}

/** "setup 2/3: npm ci" */
function setupWords(s: Setup): string {
  return `setup ${s.step}/${s.total}${s.command ? `: ${s.command}` : ""}`;
}

export function SetupLine({ setup, id }: { setup: Setup; id: string }) {
  return (
    <div
      id={id}
      data-testid="card-setup"
      className="mt-1.5 truncate font-mono text-[11px] text-fg-muted"
      title={setupWords(setup)}
    >
      {setupWords(setup)}
    </div>
  );
}
