// The ready wait against a fake pane driven by the real lifecycle reducer: ready, timeouts, the
// paused clock at a start-up dialog, the dialog's own clock, and a dialog found on confirmation.
// On fake timers: every duration below is exact, and the file takes no wall time.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
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

/** A promise's outcome once it settles (undefined while pending). */
function watch<T>(p: Promise<T>): { value: T | undefined } {
  const box: { value: T | undefined } = { value: undefined };
  void p.then((v) => (box.value = v));
  return box;
}

describe("waitForReady", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("is ready when the agent goes idle", async () => {
    const p = fakePane();
    const w = watch(waitForReady(p.deps, "p1", { timeoutMs: 5000, signal: signal() }));
    await vi.advanceTimersByTimeAsync(20);
    expect(w.value).toBeUndefined();
    p.apply(hook("SessionStart"));
    await vi.advanceTimersByTimeAsync(0);
    expect(w.value).toEqual({ ready: true });
  });

  it("gives up exactly at the timeout with the lifecycle and the screen", async () => {
    const p = fakePane();
    const w = watch(waitForReady(p.deps, "p1", { timeoutMs: 150, signal: signal() }));
    await vi.advanceTimersByTimeAsync(149);
    expect(w.value).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(w.value).toEqual({
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
    const w = watch(waitForReady(p.deps, "p1", { timeoutMs: 200, dialogTimeoutMs: 5000, signal: signal() }));
    await vi.advanceTimersByTimeAsync(50); // 50 of the agent's 200 ms used
    p.apply({ type: "dialog", dialog, at: Date.now() });
    await vi.advanceTimersByTimeAsync(400); // the human takes longer than the agent's whole budget
    expect(w.value).toBeUndefined();
    p.apply({ type: "dialog_cleared", at: Date.now() });
    await vi.advanceTimersByTimeAsync(149); // the agent's clock runs again: 199 of 200 ms used
    expect(w.value).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(w.value).toMatchObject({ ready: false, reason: "timeout", lifecycle: "starting", dialog: null });
  });

  it("is ready after the dialog is answered, within the agent's remaining time", async () => {
    const p = fakePane();
    const w = watch(waitForReady(p.deps, "p1", { timeoutMs: 200, dialogTimeoutMs: 5000, signal: signal() }));
    await vi.advanceTimersByTimeAsync(50);
    p.apply({ type: "dialog", dialog, at: Date.now() });
    await vi.advanceTimersByTimeAsync(400);
    p.apply({ type: "dialog_cleared", at: Date.now() });
    await vi.advanceTimersByTimeAsync(50);
    p.apply(hook("SessionStart"));
    await vi.advanceTimersByTimeAsync(0);
    expect(w.value).toEqual({ ready: true });
  });

  it("a dialog nobody answers fails after the dialog's own timeout, with the dialog", async () => {
    const p = fakePane();
    const w = watch(waitForReady(p.deps, "p1", { timeoutMs: 5000, dialogTimeoutMs: 150, signal: signal() }));
    await vi.advanceTimersByTimeAsync(20);
    p.apply({ type: "dialog", dialog, at: Date.now() });
    await vi.advanceTimersByTimeAsync(149);
    expect(w.value).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(w.value).toMatchObject({
      ready: false,
      reason: "timeout",
      lifecycle: "blocked",
      dialog,
      waitedAtDialogMs: 150,
    });
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
    const w = watch(waitForReady(p.deps, "p1", { timeoutMs: 5000, signal: signal() }));
    await vi.advanceTimersByTimeAsync(50);
    expect(w.value).toBeUndefined();
    expect(confirmations).toBe(1);
    p.apply({ type: "dialog_cleared", at: Date.now() }); // back to idle (it came up after ready)
    await vi.advanceTimersByTimeAsync(0);
    expect(w.value).toEqual({ ready: true });
    expect(confirmations).toBe(2);
  });

  it("says so when the pane exits or the wait is aborted", async () => {
    const p = fakePane();
    const exited = watch(waitForReady(p.deps, "p1", { timeoutMs: 5000, signal: signal() }));
    p.apply({ type: "exit", exitCode: 1, at: Date.now() });
    await vi.advanceTimersByTimeAsync(0);
    expect(exited.value).toMatchObject({ ready: false, reason: "exited" });
    const q = fakePane();
    const ac = new AbortController();
    const aborted = watch(waitForReady(q.deps, "p1", { timeoutMs: 5000, signal: ac.signal }));
    ac.abort();
    await vi.advanceTimersByTimeAsync(0);
    expect(aborted.value).toMatchObject({ ready: false, reason: "aborted" });
  });
});
