// Driving a task's agent and following its pane: the background runner of each round (wait until
// the agent is ready, submit the round's prompt through the gate) and the pane lifecycle
// transitions the pane manager reports (turn ended, working again, exited, lost). What happens
// lands in the task's state through the reducer (engine-state.ts `apply`).
import { queueSync } from "./on-runner";
import { YardError } from "../errors";
import type { PaneInfo } from "../panes/manager";
import { apply, type EngineState } from "./engine-state";
import { waitForReady } from "./ready-wait";
import { awaitSetup, setupExited } from "./setup";
import type { TaskEvent } from "./state";

export const DEFAULT_READY_TIMEOUT_MS = 30_000;

/**
 * Server-side, survives the caller leaving: wait until the agent is ready, then submit the
 * round's prompt (the contract, or review feedback) through the gate. What goes wrong lands in
 * the task's state through the reducer, with evidence.
 */
export function runInBackground(
  eng: EngineState,
  taskId: string,
  paneId: string,
  prompt: string,
  opts: { readyTimeoutMs?: number; stallMs?: number; dialogTimeoutMs?: number; round: number; setup?: boolean },
): void {
  const { deps } = eng;
  eng.runners.get(taskId)?.ac.abort();
  const ac = new AbortController();
  const runner = { ac, paneId };
  eng.runners.set(taskId, runner);
  const readyTimeoutMs = opts.readyTimeoutMs ?? deps.readyTimeoutMs ?? DEFAULT_READY_TIMEOUT_MS;
  const { stallMs, round } = opts;
  void (async () => {
    // The repository's setup runs first in the pane; the agent (and its ready clock) starts after it.
    if (opts.setup && !(await awaitSetup(eng, taskId, ac.signal))) return;
    const ready = await waitForReady(
      { panes: deps.panes, journal: deps.journal, confirmReady: deps.confirmReady },
      paneId,
      {
        timeoutMs: readyTimeoutMs,
        dialogTimeoutMs: opts.dialogTimeoutMs ?? deps.dialogTimeoutMs,
        signal: ac.signal,
      },
    );
    if (ac.signal.aborted || (!ready.ready && ready.reason === "aborted")) return;
    if (!ready.ready && ready.reason === "exited") {
      // Usually the pane's own exit event fails the task; this covers an exit before the task recorded its pane.
      const info = await deps.panes.get(paneId);
      await apply(eng, taskId, {
        type: "pane_exit",
        exitCode: info.exitCode,
        signal: info.signal,
        lastLifecycle: (await lastLifecycleBeforeExit(eng, paneId)) ?? "starting",
      });
      return;
    }
    if (!ready.ready) {
      await apply(eng, taskId, {
        type: "ready_timeout",
        timeoutMs: readyTimeoutMs,
        lifecycle: ready.lifecycle,
        round,
        dialog: ready.dialog,
        screen: ready.screen,
        waitedAtDialogMs: ready.waitedAtDialogMs,
      });
      return;
    }
    try {
      await deps.panes.submitForTask(paneId, prompt, { stallMs, signal: ac.signal });
      await apply(eng, taskId, { type: "submitted" });
    } catch (e) {
      if (ac.signal.aborted) return;
      const err = e instanceof YardError ? e : new YardError("INTERNAL", (e as Error).message);
      if (err.code === "SUBMIT_STALLED")
        await apply(eng, taskId, {
          type: "submit_unconfirmed",
          stallMs: Number(err.details?.stallMs ?? stallMs ?? 5000),
        });
      else if (err.code !== "PANE_EXITED")
        await apply(eng, taskId, {
          type: "submit_refused",
          code: err.code,
          message: err.message,
          details: err.details ?? null,
          round,
        });
    }
  })()
    .catch(() => {})
    .finally(() => {
      if (eng.runners.get(taskId) === runner) eng.runners.delete(taskId);
    });
}

/** The pane manager reports every lifecycle transition of a task's pane here (`lost`: its host died). */
export function onPaneTransition(
  eng: EngineState,
  info: PaneInfo,
  to: string,
  from: string,
  lastMessage: string | undefined,
  lost?: string,
  lastStop?: { failed: boolean; error?: string } | null,
): void {
  if (!info.taskId || eng.closing) return;
  const taskId = info.taskId;
  // An exit while the setup commands ran is the setup failing (setup.ts): no agent ever started.
  if (to === "exited" && setupExited(eng, info)) {
    if (eng.runners.get(taskId)?.paneId === info.id) eng.runners.get(taskId)!.ac.abort();
    return;
  }
  const event = taskEventOf(info, to, from, lastMessage, lost, lastStop);
  if (!event) return;
  // A runner's turn ended: its work comes back before the task moves on (on-runner.ts).
  if (info.runner && (to === "done" || (to === "exited" && !lost))) queueSync(eng, taskId);
  // Queued on the task's chain now, where the pane changed: a request that came after this
  // transition (the worker's `yard task ask` right after its prompt) must be applied after it,
  // or it would undo the request (input_required back to working with the question open).
  void apply(eng, taskId, event, { forPane: info.id }).catch(() => {});
  const runner = eng.runners.get(taskId);
  if (to === "exited" && runner?.paneId === info.id) runner.ac.abort();
}

/** The task event a pane's transition to `to` is, if any. */
function taskEventOf(
  info: PaneInfo,
  to: string,
  from: string,
  lastMessage: string | undefined,
  lost: string | undefined,
  lastStop: { failed: boolean; error?: string } | null | undefined,
): TaskEvent | null {
  switch (to) {
    case "done":
      return {
        type: "pane_done",
        lastMessage: lastMessage ?? null,
        failure: lastStop?.failed ? { error: lastStop.error ?? null } : null,
      };
    case "working":
    case "blocked":
      return { type: "pane_working" };
    case "exited":
      return lost
        ? { type: "pane_lost", reason: lost, lastLifecycle: from }
        : { type: "pane_exit", exitCode: info.exitCode, signal: info.signal, lastLifecycle: from };
    default:
      return null;
  }
}

/** A pane stopped by the previous shutdown (or gone before its task saw it): what it was doing before it exited. */
export async function lastLifecycleBeforeExit(eng: EngineState, paneId: string): Promise<string | null> {
  const events = await eng.deps.journal.list({ paneId, type: "pane.lifecycle" });
  const last = events.at(-1)?.payload as { from?: string; to?: string } | undefined;
  return last?.to === "exited" ? (last.from ?? null) : (last?.to ?? null);
}
