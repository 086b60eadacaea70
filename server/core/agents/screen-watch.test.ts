// The screen watcher against a fake pane (the real lifecycle reducer, screens captured from the
// real CLIs): start-up dialogs reported and cleared, Codex ready only once its full input box
// settles (never its splash), a new failed-turn line ending a Codex turn, retrying notes.
// On fake timers: the watcher's debounce and settle times are exact, and the file takes no wall time.
import { readFileSync } from "node:fs";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { PaneListener } from "../panes/manager";
import { initialPaneState, type PaneEvent, type PaneState, reduce } from "../panes/lifecycle";
import { READY_SETTLE_MS, ScreenWatcher } from "./screen-watch";

const screen = (f: string) => readFileSync(new URL(`./fixtures/screens/${f}`, import.meta.url), "utf8");

function fakePanes() {
  let state: PaneState = reduce(initialPaneState(), { type: "spawned", at: Date.now() }).state;
  let text = "";
  const listeners = new Set<PaneListener>();
  const causes: string[] = [];
  const counter = { reads: 0 };
  const apply = (e: PaneEvent) => {
    const r = reduce(state, e);
    const moved = r.state.lifecycle !== state.lifecycle;
    state = r.state;
    for (const eff of r.effects) if (eff.kind === "transition") causes.push(eff.cause);
    if (moved) for (const l of listeners) l.lifecycle?.({ lifecycle: state.lifecycle } as never);
  };
  const panes = {
    attach: async (_id: string, l: PaneListener) => {
      listeners.add(l);
      return { snapshot: { data: "", cols: 120, rows: 32 }, pane: {} as never, detach: () => listeners.delete(l) };
    },
    read: async () => {
      // A watcher that re-reads in a loop fails here instead of spinning the test forever.
      if (++counter.reads > 1000) throw new Error("read in a loop");
      return { text, cursor: 0, start: 0, dropped: null, lifecycle: state.lifecycle };
    },
    observe: (_id: string, o: PaneEvent) => apply(o),
    state: () => state,
  };
  return {
    panes: panes as unknown as ConstructorParameters<typeof ScreenWatcher>[0]["panes"],
    show(s: string) {
      text = s;
      for (const l of listeners) l.output?.("x");
    },
    hook(name: string) {
      apply({ type: "hook", name, payload: { hook_event_name: name }, at: Date.now() });
    },
    get state() {
      return state;
    },
    causes,
    counter,
  };
}

/** Advances the fake clock in 10 ms steps until `probe` holds (at most `ms`). */
const until = async (probe: () => boolean, ms = 3000) => {
  for (let waited = 0; !probe(); waited += 10) {
    if (waited >= ms) throw new Error(`not within ${ms} ms`);
    await vi.advanceTimersByTimeAsync(10);
  }
};
const elapse = (ms: number) => vi.advanceTimersByTimeAsync(ms);

function watcher(p: ReturnType<typeof fakePanes>, kind: "claude" | "codex") {
  const w = new ScreenWatcher({ panes: p.panes, journal: { subscribe: () => () => {} } as never });
  void w.watch("p1", kind);
  return w;
}

describe("ScreenWatcher", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("Claude: reports its trust dialog, the dialog gone, and leaves readiness to SessionStart", async () => {
    const p = fakePanes();
    const w = watcher(p, "claude");
    p.show(screen("claude-trust.txt"));
    await until(() => p.state.lifecycle === "blocked");
    expect(p.state.dialog).toMatchObject({ kind: "trust", title: "Claude Code asks whether you trust this folder" });
    p.show(screen("claude-api-key.txt"));
    await until(() => p.state.dialog?.kind === "api_key");
    p.show(screen("claude-ready.txt"));
    await until(() => p.state.lifecycle === "starting");
    await elapse(READY_SETTLE_MS + 100);
    expect(p.state.lifecycle).toBe("starting"); // Claude's ready signal is its SessionStart hook
    p.hook("SessionStart");
    expect(await w.confirmReady("p1")).toBe(true);
    expect(p.causes).toEqual(["screen:dialog:trust", "screen:dialog_cleared", "hook:SessionStart"]);
    w.stop();
  });

  it("Codex: its splash is not ready; its trust dialog is reported; the full input box, once settled, is", async () => {
    const p = fakePanes();
    const w = watcher(p, "codex");
    p.show(screen("codex-splash.txt"));
    await elapse(READY_SETTLE_MS + 150);
    expect(p.state.lifecycle).toBe("starting");
    p.show(screen("codex-trust.txt"));
    await until(() => p.state.lifecycle === "blocked");
    p.show(screen("codex-ready.txt"));
    const readsBefore = p.counter.reads;
    await elapse(READY_SETTLE_MS);
    expect(p.state.lifecycle).toBe("starting"); // drawn, not settled yet
    await until(() => p.state.lifecycle === "idle", 300);
    // The settle wait is a timer, not a loop of reads (it was: ~1 read per event-loop turn for 500 ms).
    expect(p.counter.reads - readsBefore).toBeLessThan(5);
    expect(p.causes).toEqual(["screen:dialog:trust", "screen:dialog_cleared", "screen:ready"]);
    w.stop();
  });

  it("Codex: a failed-turn line that was not there when the turn began ends it as failed; a repeat of an old one does not", async () => {
    const p = fakePanes();
    const w = watcher(p, "codex");
    const oldError = screen("codex-api-error-400.txt");
    p.show(screen("codex-ready.txt"));
    await until(() => p.state.lifecycle === "idle");
    p.show(oldError); // an earlier turn's error still on screen when this turn starts
    await elapse(300); // on screen while idle: the watcher has read it
    p.hook("UserPromptSubmit");
    await elapse(300);
    expect(p.state.lifecycle).toBe("working");
    p.show(oldError.replace("› Ask Codex", '■ {"error":{"message":"a new failure"}}\n› Ask Codex'));
    await until(() => p.state.lifecycle === "done");
    expect(p.state.lastStop).toMatchObject({ failed: true, error: '■ {"error":{"message":"a new failure"}}' });
    w.stop();
  });

  it.each([
    ["typed by the task engine (confirmReady read the screen first)", true],
    ["typed by a person (the last reading while idle)", false],
  ])(
    "Codex: an error answered before the prompt's hook arrives still ends the turn as failed, %s",
    async (_how, engine) => {
      const p = fakePanes();
      const w = watcher(p, "codex");
      const ready = screen("codex-ready.txt");
      p.show(ready);
      await until(() => p.state.lifecycle === "idle");
      await elapse(300);
      if (engine) expect(await w.confirmReady("p1")).toBe(true);
      // The API error is on the screen by the time the watcher first sees the turn working.
      p.show(ready.replace("› Ask Codex", '■ {"error":{"message":"answered at once"}}\n› Ask Codex'));
      p.hook("UserPromptSubmit");
      await until(() => p.state.lifecycle === "done");
      expect(p.state.lastStop).toMatchObject({ failed: true, error: '■ {"error":{"message":"answered at once"}}' });
      w.stop();
    },
  );

  it("notes a retrying agent while it works and clears the note when it carries on", async () => {
    const p = fakePanes();
    const w = watcher(p, "claude");
    p.hook("SessionStart");
    p.hook("UserPromptSubmit");
    p.show(screen("claude-retrying.txt"));
    await until(() => p.state.note !== null);
    expect(p.state.note).toMatchObject({
      kind: "retrying",
      text: "401 invalid x-api-key · retrying in 18s · attempt 6/10",
    });
    p.show(screen("claude-ready.txt"));
    await until(() => p.state.note === null);
    expect(p.state.lifecycle).toBe("working");
    w.stop();
  });
});
