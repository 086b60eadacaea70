// Waiting for a task's agent to become ready for its prompt, on two clocks:
// - the agent's own start-up time (`timeoutMs`) runs only while no human is needed;
// - while the pane waits at a start-up dialog (blocked, reason startup_dialog) that clock is
//   paused and the dialog's own clock (`dialogTimeoutMs`, default the same length) runs from the
//   moment the dialog appeared; answering the dialog stops it.
// Ready means idle or done AND, for panes whose screen is read, no dialog on the screen right
// now (confirmReady), so a prompt is never typed into a dialog. The outcome says why it gave
// up and carries what the screen showed then (the evidence of a failed start).
import type { EventJournal } from "../events/journal";
import type { PaneDialog, PaneState } from "../panes/lifecycle";
import type { PaneManager } from "../panes/manager";

export interface ReadyWaitDeps {
  panes: Pick<PaneManager, "state" | "read">;
  journal: Pick<EventJournal, "subscribe">;
  /** false when a start-up dialog shows on the screen (see core/agents/screen-watch.ts) */
  confirmReady?: (paneId: string) => Promise<boolean>;
}

export type ReadyOutcome =
  | { ready: true }
  | {
      ready: false;
      reason: "exited" | "aborted" | "timeout";
      lifecycle: string;
      /** the dialog the pane waited at when the time ran out */
      dialog: Pick<PaneDialog, "kind" | "title" | "text"> | null;
      /** how long it waited at that dialog */
      waitedAtDialogMs: number;
      /** the rendered screen at that moment (timeouts only) */
      screen: string | null;
    };

export function waitForReady(
  deps: ReadyWaitDeps,
  paneId: string,
  opts: { timeoutMs: number; dialogTimeoutMs?: number; signal: AbortSignal },
): Promise<ReadyOutcome> {
  const dialogTimeoutMs = opts.dialogTimeoutMs ?? opts.timeoutMs;
  return new Promise((resolve) => {
    let done = false;
    let timer: NodeJS.Timeout | null = null;
    /** agent time used so far, not counting time at dialogs */
    let agentUsed = 0;
    let agentSince: number | null = Date.now();
    let dialogSince: number | null = null;
    let confirming = false;
    let recheck = false;

    const atDialog = (s: PaneState | null) => Boolean(s && s.lifecycle === "blocked" && s.dialog);

    const finish = (v: ReadyOutcome) => {
      if (done) return;
      done = true;
      if (timer) clearTimeout(timer);
      unsubscribe();
      opts.signal.removeEventListener("abort", onAbort);
      resolve(v);
    };
    const fail = (reason: "exited" | "aborted" | "timeout", s: PaneState | null, screen: string | null = null) =>
      finish({
        ready: false,
        reason,
        lifecycle: s?.lifecycle ?? "exited",
        dialog: s?.dialog ? { kind: s.dialog.kind, title: s.dialog.title, text: s.dialog.text } : null,
        waitedAtDialogMs: dialogSince === null ? 0 : Date.now() - dialogSince,
        screen,
      });

    const timeout = async () => {
      if (done) return;
      const s = deps.panes.state(paneId);
      const screen = await deps.panes.read(paneId, { mode: "screen" }).then(
        (r) => r.text.replace(/\s+$/, ""),
        () => null,
      );
      fail("timeout", s, screen);
    };

    const arm = () => {
      if (timer) clearTimeout(timer);
      const now = Date.now();
      const left =
        dialogSince !== null
          ? dialogSince + dialogTimeoutMs - now
          : opts.timeoutMs - agentUsed - (agentSince === null ? 0 : now - agentSince);
      timer = setTimeout(() => void timeout(), Math.max(0, left));
    };

    const check = () => {
      if (done) return;
      const s = deps.panes.state(paneId);
      if (!s || s.lifecycle === "exited") return fail("exited", s);
      const now = Date.now();
      if (atDialog(s)) {
        if (dialogSince === null) {
          dialogSince = s.dialog!.since;
          if (agentSince !== null) agentUsed += now - agentSince;
          agentSince = null;
          arm();
        }
        return;
      }
      if (dialogSince !== null) {
        dialogSince = null;
        agentSince = now;
        arm();
      }
      if (s.lifecycle === "idle" || s.lifecycle === "done") void confirm();
    };

    const confirm = async () => {
      if (confirming) return void (recheck = true);
      confirming = true;
      try {
        do {
          recheck = false;
          const clear = deps.confirmReady ? await deps.confirmReady(paneId) : true;
          if (done) return;
          const s = deps.panes.state(paneId);
          if (clear && s && (s.lifecycle === "idle" || s.lifecycle === "done")) return finish({ ready: true });
        } while (recheck);
      } finally {
        confirming = false;
      }
      check(); // a dialog was found: it is now the pane's state
    };

    const unsubscribe = deps.journal.subscribe(() => check(), { paneId, type: "pane.lifecycle" });
    const onAbort = () => fail("aborted", deps.panes.state(paneId));
    opts.signal.addEventListener("abort", onAbort, { once: true });
    arm();
    check();
  });
}
