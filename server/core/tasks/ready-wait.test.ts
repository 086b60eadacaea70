// The ready wait against a fake pane driven by the real lifecycle reducer: ready, timeouts, the
// paused clock at a start-up dialog, the dialog's own clock, and a dialog found on confirmation.
import { describe, expect, it } from "vitest";
import { initialPaneState, type PaneEvent, type PaneState, reduce } from "../panes/lifecycle";
import { waitForReady, type ReadyWaitDeps } from "./ready-wait";

function fakePane() {
  let state: PaneState | null = reduce(initialPaneState(), { type: "spawned", at: Date.now() }).state;
  const listeners = new Set<() => void>();
  const deps: ReadyWaitDeps = {
    panes: {
      state: () => state,
      read: async () => ({
        text: "the screen\n",
        cursor: 0,
        start: 0,
        dropped: null,
        lifecycle: state?.lifecycle ?? "exited",
      }),
    },
    journal: {
      subscribe: (fn: () => void) => {
        listeners.add(fn);
        return () => listeners.delete(fn);
      },
    } as unknown as ReadyWaitDeps["journal"],
  };
  return {
    deps,
    apply(e: PaneEvent) {
      state = reduce(state!, e).state;
      for (const l of listeners) l();
    },
    gone() {
      state = null;
      for (const l of listeners) l();
    },
  };
}

const dialog = { kind: "trust", title: "trust?", text: "Is this a project you trust?" };
const hook = (name: string): PaneEvent => ({ type: "hook", name, payload: { hook_event_name: name }, at: Date.now() });
const signal = () => new AbortController().signal;

describe("waitForReady", () => {
  it("is ready when the agent goes idle", async () => {
    const p = fakePane();
    const w = waitForReady(p.deps, "p1", { timeoutMs: 5000, signal: signal() });
    setTimeout(() => p.apply(hook("SessionStart")), 20);
    expect(await w).toEqual({ ready: true });
  });

  it("gives up after the timeout with the lifecycle and the screen", async () => {
    const p = fakePane();
    const started = Date.now();
    const r = await waitForReady(p.deps, "p1", { timeoutMs: 150, signal: signal() });
    expect(Date.now() - started).toBeGreaterThanOrEqual(150);
    expect(r).toEqual({
      ready: false,
      reason: "timeout",
      lifecycle: "starting",
      dialog: null,
      waitedAtDialogMs: 0,
      screen: "the screen",
    });
  });

  it("pauses the agent's clock while a start-up dialog waits for a human", async () => {
    const p = fakePane();
    const started = Date.now();
    const w = waitForReady(p.deps, "p1", { timeoutMs: 200, dialogTimeoutMs: 5000, signal: signal() });
    setTimeout(() => p.apply({ type: "dialog", dialog, at: Date.now() }), 50);
    setTimeout(() => p.apply({ type: "dialog_cleared", at: Date.now() }), 450); // the human took longer than the agent's budget
    setTimeout(() => p.apply(hook("SessionStart")), 500);
    expect(await w).toEqual({ ready: true });
    expect(Date.now() - started).toBeGreaterThan(200);
  });

  it("a dialog nobody answers fails after the dialog's own timeout, with the dialog", async () => {
    const p = fakePane();
    setTimeout(() => p.apply({ type: "dialog", dialog, at: Date.now() }), 20);
    const r = await waitForReady(p.deps, "p1", { timeoutMs: 5000, dialogTimeoutMs: 150, signal: signal() });
    expect(r).toMatchObject({ ready: false, reason: "timeout", lifecycle: "blocked", dialog });
    // About the dialog's 150 ms budget, far from the 5 s ready budget. Node timers can fire a
    // millisecond or two early when measured with Date.now(), so the bound allows 10 ms of slack.
    expect((r as { waitedAtDialogMs: number }).waitedAtDialogMs).toBeGreaterThanOrEqual(140);
    expect((r as { waitedAtDialogMs: number }).waitedAtDialogMs).toBeLessThan(5000);
  });

  it("keeps waiting when the screen shows a dialog at the moment the agent says it is ready", async () => {
    const p = fakePane();
    let confirmations = 0;
    p.deps.confirmReady = async () => {
      confirmations++;
      if (confirmations === 1) {
        p.apply({ type: "dialog", dialog, at: Date.now() }); // what the screen watcher does
        return false;
      }
      return true;
    };
    p.apply(hook("SessionStart"));
    const w = waitForReady(p.deps, "p1", { timeoutMs: 5000, signal: signal() });
    await new Promise((r) => setTimeout(r, 50));
    p.apply({ type: "dialog_cleared", at: Date.now() }); // back to idle (it came up after ready)
    expect(await w).toEqual({ ready: true });
    expect(confirmations).toBe(2);
  });

  it("says so when the pane exits or the wait is aborted", async () => {
    const p = fakePane();
    setTimeout(() => p.apply({ type: "exit", exitCode: 1, at: Date.now() }), 20);
    expect(await waitForReady(p.deps, "p1", { timeoutMs: 5000, signal: signal() })).toMatchObject({
      ready: false,
      reason: "exited",
    });
    const q = fakePane();
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 20);
    expect(await waitForReady(q.deps, "p1", { timeoutMs: 5000, signal: ac.signal })).toMatchObject({
      ready: false,
      reason: "aborted",
    });
  });
});
