// The task state machine: a pure reducer (task, event) -> {state, evidence, effects}.
// States follow the A2A task lifecycle plus the board's backlog:
//   backlog -> pending -> working <-> input_required -> completed | failed | canceled | rejected
// completed, failed, canceled and rejected are terminal for the round: nothing changes them.
// Rounds: `next_round` (a review requested changes) takes a completed or input_required task
// back to pending as a NEW round; the old round's record stays as it was. In a later round a
// prompt that cannot be delivered (refused, not ready in time) leaves the task input_required
// with evidence instead of failing it, since the reviewed work is still there to continue.
// Disposition: a task is finished once, by `merged` (only a completed task: TASK_NOT_COMPLETED
// otherwise) or `discarded` (any task; one still running becomes canceled first). A finished
// task takes no other finish (CONFLICT) and no further round.
// Setup (the repository's setup commands, run in the task's pane before its agent) keeps the task
// pending: its progress is the evidence (stage "setup"), cleared when it is done; a failed setup
// fails the task (reason setup_failed) and no agent starts.
// A worker's question (`asked`) moves a running task to input_required with the question as
// evidence; the answer is a prompt like any follow-up, so the pane going busy moves it back.
// An event that does not apply to the current state is a no-op (`changed: false`), except
// the ones a caller asked for explicitly (report, cancel, start, next_round, merged,
// discarded, resume), which are CONFLICT errors.
// `resume` (a failed or canceled task's agent session continued in a fresh pane) is the one way
// out of a terminal state: like next_round it opens a NEW round, so the ended round's record
// stays as it was.
import { taskState } from "../../wire/tasks";
import { YardError } from "../errors";

/** The task states, as the wire names them (server/wire/tasks.ts): one list. */
export const TASK_STATES = taskState.options;
export type TaskState = (typeof TASK_STATES)[number];
export const TERMINAL_STATES: readonly TaskState[] = ["completed", "failed", "canceled", "rejected"];
export const isTerminal = (s: string): boolean => (TERMINAL_STATES as readonly string[]).includes(s);
/** Non-terminal states that count against the concurrency cap. */
export const ACTIVE_STATES: readonly TaskState[] = ["pending", "working", "input_required"];

export type ReportStatus = "completed" | "failed" | "rejected";

export type Disposition = "merged" | "discarded";

export type TaskEvent =
  | { type: "start" }
  | { type: "merged" }
  | { type: "discarded" }
  | { type: "next_round" }
  | { type: "submitted" }
  | { type: "submit_refused"; code: string; message: string; details?: unknown; round?: number }
  | { type: "submit_unconfirmed"; stallMs: number }
  | {
      type: "ready_timeout";
      timeoutMs: number;
      lifecycle: string;
      round?: number;
      dialog?: { kind: string; title: string; text: string } | null;
      screen?: string | null;
      waitedAtDialogMs?: number;
    }
  | { type: "pane_working" }
  /** The turn ended; `failure` when it ended on an error (StopFailure, an API error on screen). */
  | { type: "pane_done"; lastMessage?: string | null; failure?: { error: string | null } | null }
  | { type: "resume"; sessionId: string }
  | { type: "pane_exit"; exitCode: number | null; signal: number | null; lastLifecycle: string }
  /** The pane's process was lost with the pane host (it died): no exit code, no final screen. */
  | { type: "pane_lost"; reason: string; lastLifecycle: string }
  | { type: "report"; status: ReportStatus }
  /** The worker asked its orchestrator a question (`yard task ask`); the answer comes as a prompt. */
  | { type: "asked"; messageId: string; question: string }
  /** The planner submitted a plan version: the task waits for its review. */
  | { type: "plan_submitted"; planId: string; version: number }
  | { type: "cancel" }
  | { type: "restart"; lastLifecycle: string | null }
  /** The worktree's setup commands run before the agent (core/tasks/setup.ts): how far they got, done, or failed. */
  | { type: "setup_progress"; step: number; total: number; command: string | null }
  | { type: "setup_done" }
  | {
      type: "setup_failed";
      step: number;
      total: number;
      command: string | null;
      exitCode: number | null;
      signal: number | null;
      tail: string;
    };

export type Evidence = Record<string, unknown>;

export interface Transition {
  state: TaskState;
  changed: boolean;
  /** Why the task is where it is now (failed, input_required); null clears it. */
  evidence: Evidence | null | undefined;
  /** The round ends here (terminal state). */
  endsRound: boolean;
  /** A new round starts here: the old round's record is left as it was. */
  startsRound: boolean;
  /** The task is finished here (recorded once). */
  disposition?: Disposition;
}

const stay = (state: TaskState): Transition => ({
  state,
  changed: false,
  evidence: undefined,
  endsRound: false,
  startsRound: false,
});
const go = (state: TaskState, evidence: Evidence | null): Transition => ({
  state,
  changed: true,
  evidence,
  endsRound: isTerminal(state),
  startsRound: false,
});
/** A prompt that could not be delivered: the first round fails, a later one waits for the user. */
const undelivered = (round: number | undefined, evidence: Evidence): Transition =>
  (round ?? 1) > 1 ? go("input_required", { ...evidence, round }) : go("failed", evidence);

/** States a task can be resumed from (in a new round, with the agent's recorded session). */
const RESUMABLE_STATES: readonly TaskState[] = ["failed", "canceled"];

export function transition(state: TaskState, event: TaskEvent, disposition: Disposition | null = null): Transition {
  if (event.type === "merged" || event.type === "discarded" || event.type === "next_round" || event.type === "resume") {
    if (disposition) throw new YardError("CONFLICT", `The task is already ${disposition}`, { disposition });
  }
  if (event.type === "merged") {
    if (state !== "completed")
      throw new YardError("TASK_NOT_COMPLETED", `Only a completed task can be merged; this one is ${state}`, { state });
    return { ...stay(state), changed: true, disposition: "merged" };
  }
  if (event.type === "discarded") {
    return isTerminal(state)
      ? { ...stay(state), changed: true, disposition: "discarded" }
      : { ...go("canceled", null), disposition: "discarded" };
  }
  if (event.type === "resume") {
    if (!RESUMABLE_STATES.includes(state))
      throw new YardError("CONFLICT", `Only a failed or canceled task can be resumed; this one is ${state}`, { state });
    return { ...go("pending", null), endsRound: false, startsRound: true };
  }
  if (event.type === "next_round") {
    if (state === "completed" || state === "input_required") return { ...go("pending", null), startsRound: true };
    throw new YardError(
      "CONFLICT",
      `Only a completed or input_required task can start another round; this one is ${state}`,
      { state },
    );
  }
  if (event.type === "start") {
    if (state === "backlog") return go("pending", null);
    throw new YardError("CONFLICT", `Only a backlog task can be started; this one is ${state}`, { state });
  }
  if (isTerminal(state)) {
    if (event.type === "report")
      throw new YardError("CONFLICT", `The task is already ${state}; its round's result cannot change`, { state });
    if (event.type === "cancel") throw new YardError("CONFLICT", `The task is already ${state}`, { state });
    if (event.type === "asked")
      throw new YardError("CONFLICT", `The task is already ${state}; ask in a new round`, { state });
    if (event.type === "plan_submitted")
      throw new YardError("CONFLICT", `The task is already ${state}; it takes no more plans`, { state });
    return stay(state);
  }
  switch (event.type) {
    case "submitted":
      return state === "pending" ? go("working", null) : stay(state);
    case "submit_refused":
      return state === "pending"
        ? undelivered(event.round, {
            stage: "submit_refused",
            code: event.code,
            message: event.message,
            details: event.details ?? null,
          })
        : stay(state);
    case "submit_unconfirmed":
      return state === "pending"
        ? go("input_required", { stage: "submit_unconfirmed", stallMs: event.stallMs })
        : stay(state);
    case "ready_timeout": {
      if (state !== "pending") return stay(state);
      const ev: Evidence = { stage: "ready_timeout", timeoutMs: event.timeoutMs, lifecycle: event.lifecycle };
      if (event.dialog)
        Object.assign(ev, {
          reason: "startup_dialog",
          dialog: event.dialog,
          waitedAtDialogMs: event.waitedAtDialogMs ?? null,
        });
      if (event.screen) ev.screen = event.screen;
      return undelivered(event.round, ev);
    }
    case "pane_working":
      return state === "input_required" ? go("working", null) : stay(state);
    case "pane_done":
      if (state !== "working") return stay(state);
      if (event.failure)
        return go("input_required", {
          reason: "turn_failed",
          error: event.failure.error ?? null,
          last_message: event.lastMessage ?? null,
        });
      return go("input_required", { reason: "turn_ended_without_report", last_message: event.lastMessage ?? null });
    case "pane_exit":
      return go("failed", {
        reason: "pane_exited",
        exitCode: event.exitCode,
        signal: event.signal,
        lastLifecycle: event.lastLifecycle,
      });
    case "pane_lost":
      return go("failed", { reason: event.reason, lastLifecycle: event.lastLifecycle });
    case "report":
      if (state === "backlog") throw new YardError("CONFLICT", "The task has not started", { state });
      return go(event.status, null);
    case "plan_submitted":
      if (state === "backlog") throw new YardError("CONFLICT", "The task has not started", { state });
      return go("input_required", { reason: "plan_review", planId: event.planId, version: event.version });
    case "asked":
      if (state === "backlog") throw new YardError("CONFLICT", "The task has not started", { state });
      return go("input_required", { reason: "question", messageId: event.messageId, question: event.question });
    case "cancel":
      return go("canceled", null);
    case "setup_progress":
      return state === "pending"
        ? {
            ...stay(state),
            changed: true,
            evidence: { stage: "setup", step: event.step, total: event.total, command: event.command },
          }
        : stay(state);
    case "setup_done":
      return state === "pending" ? { ...stay(state), changed: true, evidence: null } : stay(state);
    case "setup_failed": {
      if (state !== "pending") return stay(state);
      const { type: _, ...evidence } = event;
      return go("failed", { reason: "setup_failed", ...evidence });
    }
    case "restart":
      return state === "pending"
        ? go("failed", { stage: "restart", reason: "server_restart" })
        : state === "backlog"
          ? stay(state)
          : go("failed", { reason: "server_restart", lastLifecycle: event.lastLifecycle });
  }
}
