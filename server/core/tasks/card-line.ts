// The one line a task's card (and `yard task get`) shows about what needs attention or what is
// going on, derived from the task's state and evidence and its live pane: the start-up dialog the
// agent waits at, a permission prompt, an API error that ended a turn, a retrying agent, why a
// start failed. Pure; null when there is nothing to say beyond the state.
import type { Evidence } from "./state";

export interface CardLineInput {
  state: string;
  evidence: Evidence | null;
  pane: {
    lifecycle: string;
    blockedReason: string | null;
    dialog: { title: string } | null;
    note: { kind: string; text: string } | null;
  } | null;
}

const str = (v: unknown): string | null => (typeof v === "string" && v.trim() ? v.trim() : null);
const oneLine = (s: string, max = 200) => {
  const line = s.replace(/\s+/g, " ").trim();
  return line.length <= max ? line : `${line.slice(0, max - 1)}…`;
};

const TERMINAL = new Set(["completed", "failed", "canceled", "rejected"]);

export function cardLine({ state, evidence, pane }: CardLineInput): string | null {
  // A finished task is about how it ended, even while its agent is being stopped.
  const live = pane && pane.lifecycle !== "exited" && !TERMINAL.has(state) ? pane : null;
  if (live?.blockedReason === "startup_dialog" && live.dialog) return oneLine(`Waiting for you: ${live.dialog.title}`);
  if (live?.lifecycle === "blocked") return "Waiting for you: the agent asks for permission";
  if (state === "input_required" && evidence?.reason === "turn_failed") {
    const msg = str(evidence.last_message) ?? str(evidence.error) ?? "the model API failed";
    return oneLine(`Turn failed: ${msg}`);
  }
  if (state === "input_required" && evidence?.reason === "turn_ended_without_report")
    return "The turn ended without a report: send a follow-up";
  if (state === "input_required" && evidence?.stage === "submit_unconfirmed")
    return "The prompt may not have reached the agent: check its terminal";
  if (live?.note?.kind === "retrying") return oneLine(`Working (retrying): ${live.note.text}`);
  if (state === "pending" && evidence?.stage === "setup") return oneLine(`Setting up… ${setupStep(evidence)}`);
  if (state === "failed" && evidence) {
    if (evidence.stage === "ready_timeout" && evidence.reason === "startup_dialog") {
      const d = evidence.dialog as { title?: unknown } | undefined;
      return oneLine(`Failed: nobody answered ${str(d?.title) ?? "the agent's start-up dialog"}`);
    }
    if (evidence.stage === "ready_timeout") return "Failed: the agent never became ready";
    if (evidence.reason === "pane_exited")
      return `Failed: the agent exited (code ${String(evidence.exitCode ?? evidence.signal ?? "?")})`;
    if (evidence.reason === "server_restart" || evidence.stage === "restart")
      return "Failed: the server restarted while it ran (yard task resume continues it)";
    if (evidence.reason === "setup_failed")
      return oneLine(
        `Failed: ${setupStep(evidence)} exited with ${String(evidence.exitCode ?? evidence.signal ?? "?")}; no agent started`,
      );
    if (evidence.stage === "submit_refused")
      return oneLine(`Failed: the prompt was refused (${String(evidence.code ?? "?")})`);
  }
  return null;
}

/** A pending task's setup progress (its evidence while the repository's setup commands run), or null. */
export function setupOf(
  state: string,
  evidence: Evidence | null,
): { step: number; total: number; command: string | null } | null {
  if (state !== "pending" || evidence?.stage !== "setup") return null;
  const n = (v: unknown) => (typeof v === "number" ? v : 0);
  return { step: n(evidence.step), total: n(evidence.total), command: str(evidence.command) };
}

/** "setup 2/3: npm ci", from a setup's evidence. */
function setupStep(e: Evidence): string {
  const command = str(e.command);
  return `setup ${String(e.step ?? "?")}/${String(e.total ?? "?")}${command ? `: ${command}` : ""}`;
}
