// The task page's "Latest result" section: the round's report (status, summary, changed files, the
// subtasks a decomposed plan became, artifacts, evidence) and why the task is where it is.
import Link from "next/link";
import type { Task } from "../../lib/types";
import { StateBadge } from "../ui";
import { Section, TitledList } from "./Section";

export function Result({ task: t }: { task: Task }) {
  const r = t.result;
  // A decomposed plan's result: the subtasks it became ({key, id, title}).
  const raw = (r?.evidence as { subtasks?: unknown } | null | undefined)?.subtasks;
  const subtasks = Array.isArray(raw)
    ? (raw as Array<{ id?: unknown; title?: unknown }>).filter(
        (s): s is { id: string; title: string } => typeof s.id === "string" && typeof s.title === "string",
      )
    : [];
  const artifacts = r ? r.artifacts.filter((a) => !subtasks.some((s) => s.id === a)) : [];
  return (
    <Section title="Latest result" id="sec-result">
      {!r ? (
        <p className="text-xs text-fg-muted">
          {t.evidence ? "No report; see the evidence below." : "No report yet for this round."}
        </p>
      ) : (
        <div className="flex flex-col gap-2 text-sm" data-testid="task-result">
          <div className="flex items-center gap-2">
            <StateBadge state={r.status} size="sm" />
          </div>
          <p className="whitespace-pre-wrap">{r.summary}</p>
          {r.changedFiles.length > 0 && <TitledList title="Changed files" items={r.changedFiles} />}
          {subtasks.length > 0 && (
            <div>
              <div className="text-xs font-semibold">Subtasks</div>
              <ul aria-label="Subtasks" className="mt-0.5 list-inside list-disc text-xs">
                {subtasks.map((s) => (
                  <li key={s.id}>
                    <Link href={`/tasks/${s.id}`} className="text-accent hover:underline">
                      {s.title}
                    </Link>
                  </li>
                ))}
              </ul>
            </div>
          )}
          {artifacts.length > 0 && <TitledList title="Artifacts" items={artifacts} />}
          {r.evidence && <Evidence value={r.evidence} />}
        </div>
      )}
      {t.evidence && <Evidence value={t.evidence as Record<string, unknown>} title="Why it is here" />}
    </Section>
  );
}

function Evidence({ value, title = "Evidence" }: { value: Record<string, unknown>; title?: string }) {
  return (
    <details className="mt-1 text-xs">
      <summary className="cursor-pointer font-semibold">{title}</summary>
      <pre className="mt-1 max-h-48 overflow-auto rounded border border-line bg-canvas-subtle p-2 font-mono text-[11px]">
        {JSON.stringify(value, null, 2)}
      </pre>
    </details>
  );
}
