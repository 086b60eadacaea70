// The task state machine: a pure reducer (task, event) -> {state, evidence, effects}.
// States follow the A2A task lifecycle plus the board's backlog:
//   backlog -> pending -> working <-> input_required -> completed | failed | canceled | rejected
// completed, failed, canceled and rejected are terminal for the round: nothing changes them.
// An event that does not apply to the current state is a no-op (`changed: false`), except
// the ones a caller asked for explicitly (report, cancel, resume), which are CONFLICT errors.
// `resume` is the one way out of a terminal state: it belongs to a NEW round (the caller opens
// it first), so the ended round's record stays as it was.
import { YardError } from "../errors";

export const TASK_STATES = ["backlog", "pending", "working", "input_required", "completed", "failed", "canceled", "rejected"] as const;
export type TaskState = (typeof TASK_STATES)[number];
export const TERMINAL_STATES: readonly TaskState[] = ["completed", "failed", "canceled", "rejected"];
export const isTerminal = (s: string): boolean => (TERMINAL_STATES as readonly string[]).includes(s);
/** Non-terminal states that count against the concurrency cap. */
export const ACTIVE_STATES: readonly TaskState[] = ["pending", "working", "input_required"];

export type ReportStatus = "completed" | "failed" | "rejected";

export type TaskEvent =
  | { type: "submitted" }
  | { type: "submit_refused"; code: string; message: string; details?: unknown }
  | { type: "submit_unconfirmed"; stallMs: number }
  | { type: "ready_timeout"; timeoutMs: number; lifecycle: string; dialog?: { kind: string; title: string; text: string } | null; screen?: string | null; waitedAtDialogMs?: number }
  | { type: "pane_working" }
  /** The turn ended; `failure` when it ended on an error (StopFailure, an API error on screen). */
  | { type: "pane_done"; lastMessage?: string | null; failure?: { error: string | null } | null }
  | { type: "resume"; sessionId: string }
  | { type: "pane_exit"; exitCode: number | null; signal: number | null; lastLifecycle: string }
  | { type: "report"; status: ReportStatus }
  | { type: "cancel" }
  | { type: "restart"; lastLifecycle: string | null };

export type Evidence = Record<string, unknown>;

export interface Transition {
  state: TaskState;
  changed: boolean;
  /** Why the task is where it is now (failed, input_required); null clears it. */
  evidence: Evidence | null | undefined;
  /** The round ends here (terminal state). */
  endsRound: boolean;
}

const stay = (state: TaskState): Transition => ({ state, changed: false, evidence: undefined, endsRound: false });
const go = (state: TaskState, evidence: Evidence | null): Transition => ({ state, changed: true, evidence, endsRound: isTerminal(state) });

/** States a task can be resumed from (in a new round, with the agent's recorded session). */
export const RESUMABLE_STATES: readonly TaskState[] = ["failed", "canceled"];

export function transition(state: TaskState, event: TaskEvent): Transition {
  if (event.type === "resume") {
    if (!RESUMABLE_STATES.includes(state)) throw new YardError("CONFLICT", `Only a failed or canceled task can be resumed; this one is ${state}`, { state });
    return { state: "pending", changed: true, evidence: null, endsRound: false };
  }
  if (isTerminal(state)) {
    if (event.type === "report") throw new YardError("CONFLICT", `The task is already ${state}; its round's result cannot change`, { state });
    if (event.type === "cancel") throw new YardError("CONFLICT", `The task is already ${state}`, { state });
    return stay(state);
  }
  switch (event.type) {
    case "submitted":
      return state === "pending" ? go("working", null) : stay(state);
    case "submit_refused":
      return state === "pending" ? go("failed", { stage: "submit_refused", code: event.code, message: event.message, details: event.details ?? null }) : stay(state);
    case "submit_unconfirmed":
      return state === "pending" ? go("input_required", { stage: "submit_unconfirmed", stallMs: event.stallMs }) : stay(state);
    case "ready_timeout": {
      if (state !== "pending") return stay(state);
      const ev: Evidence = { stage: "ready_timeout", timeoutMs: event.timeoutMs, lifecycle: event.lifecycle };
      if (event.dialog) Object.assign(ev, { reason: "startup_dialog", dialog: event.dialog, waitedAtDialogMs: event.waitedAtDialogMs ?? null });
      if (event.screen) ev.screen = event.screen;
      return go("failed", ev);
    }
    case "pane_working":
      return state === "input_required" ? go("working", null) : stay(state);
    case "pane_done":
      if (state !== "working") return stay(state);
      if (event.failure) return go("input_required", { reason: "turn_failed", error: event.failure.error ?? null, last_message: event.lastMessage ?? null });
      return go("input_required", { reason: "turn_ended_without_report", last_message: event.lastMessage ?? null });
    case "pane_exit":
      return go("failed", { reason: "pane_exited", exitCode: event.exitCode, signal: event.signal, lastLifecycle: event.lastLifecycle });
    case "report":
      if (state === "backlog") throw new YardError("CONFLICT", "The task has not started", { state });
      return go(event.status, null);
    case "cancel":
      return go("canceled", null);
    case "restart":
      return state === "pending"
        ? go("failed", { stage: "restart", reason: "server_restart" })
        : state === "backlog"
          ? stay(state)
          : go("failed", { reason: "server_restart", lastLifecycle: event.lastLifecycle });
  }
}
