import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { HookPayload } from "../hooks/payload";
import { classifyHook } from "./hook-classify";
import {
  blockedReason,
  initialPaneState,
  isCrash,
  reduce,
  reduceAll,
  type Effect,
  type Lifecycle,
  type PaneEvent,
  type PaneState,
} from "./lifecycle";

const FIXTURES = new URL("../hooks/fixtures/", import.meta.url);
const fixtureFiles = readdirSync(FIXTURES).filter((f) => f.endsWith(".json"));
const fixture = (file: string): HookPayload => JSON.parse(readFileSync(new URL(file, FIXTURES), "utf8")) as HookPayload;

const AT = 10_000;

/** A hook event from a fixture file, optionally with payload overrides (or another name). */
function hook(file: string, overrides: Record<string, unknown> = {}, name?: string): PaneEvent {
  const payload = { ...fixture(file), ...overrides } as HookPayload;
  return { type: "hook", name: name ?? (payload.hook_event_name as string), payload, at: AT };
}

function state(lifecycle: Lifecycle, extra: Partial<PaneState> = {}): PaneState {
  return {
    ...initialPaneState(),
    lifecycle,
    seq: 5,
    activitySeq: 7,
    lastTransitionAt: 1_000,
    hooksSeen: true,
    ...extra,
  };
}

function deepFreeze<T>(o: T): T {
  if (o && typeof o === "object") {
    for (const v of Object.values(o)) deepFreeze(v);
    Object.freeze(o);
  }
  return o;
}

const kinds = (effects: Effect[]) => effects.map((e) => (e.kind === "journal" ? `journal:${e.type}` : e.kind));

type Row = [label: string, from: Lifecycle, event: PaneEvent, to: Lifecycle, seqDelta: 0 | 1, activityDelta: 0 | 1];

const elicitation = () => hook("Notification-permission_prompt.json", { notification_type: "elicitation_dialog" });
const stopFailure = (extra: Record<string, unknown> = {}) =>
  hook("Stop.json", { hook_event_name: "StopFailure", error: "rate_limit", ...extra }, "StopFailure");

// One row per hook mapping (every fixture appears at least once) and per interesting source state.
const HOOK_ROWS: Row[] = [
  ["SessionStart from starting", "starting", hook("SessionStart.json"), "idle", 1, 0],
  ["SessionStart from unknown", "unknown", hook("SessionStart.json"), "idle", 1, 0],
  ["SessionStart when idle", "idle", hook("SessionStart.json"), "idle", 0, 0],
  ["SessionStart(clear) from done", "done", hook("SessionStart.json", { source: "clear" }), "idle", 1, 0],
  ["SessionStart(compact) mid-turn", "working", hook("SessionStart.json", { source: "compact" }), "working", 0, 0],
  ["UserPromptSubmit from idle", "idle", hook("UserPromptSubmit.json"), "working", 1, 1],
  ["UserPromptSubmit from done", "done", hook("UserPromptSubmit.json"), "working", 1, 1],
  ["UserPromptSubmit from starting", "starting", hook("UserPromptSubmit.json"), "working", 1, 1],
  ["PreToolUse re-entry", "working", hook("PreToolUse.json"), "working", 0, 1],
  ["PostToolUse re-entry", "working", hook("PostToolUse.json"), "working", 0, 1],
  ["PostToolUseFailure re-entry", "working", hook("PostToolUseFailure.json"), "working", 0, 1],
  ["PostToolUse after permission", "blocked", hook("PostToolUse.json"), "working", 1, 1],
  ["PreToolUse from idle", "idle", hook("PreToolUse.json"), "working", 1, 1],
  ["PermissionRequest while working", "working", hook("PermissionRequest.json"), "blocked", 1, 1],
  ["PermissionRequest re-entry", "blocked", hook("PermissionRequest.json"), "blocked", 0, 1],
  ["Notification permission_prompt", "working", hook("Notification-permission_prompt.json"), "blocked", 1, 1],
  ["Notification permission_prompt re-entry", "blocked", hook("Notification-permission_prompt.json"), "blocked", 0, 1],
  ["Notification elicitation_dialog", "working", elicitation(), "blocked", 1, 1],
  ["Notification idle_prompt when done", "done", hook("Notification-idle_prompt.json"), "done", 0, 0],
  ["Notification idle_prompt when working", "working", hook("Notification-idle_prompt.json"), "working", 0, 0],
  [
    "Notification without type",
    "working",
    hook("Notification-idle_prompt.json", { notification_type: undefined }),
    "working",
    0,
    0,
  ],
  ["Stop from working", "working", hook("Stop.json"), "done", 1, 1],
  ["Stop from blocked (denied)", "blocked", hook("Stop.json"), "done", 1, 1],
  ["Stop from idle (no working hook seen)", "idle", hook("Stop.json"), "done", 1, 1],
  ["Stop duplicate", "done", hook("Stop.json"), "done", 0, 0],
  ["StopFailure from working", "working", stopFailure(), "done", 1, 1],
  ["StopFailure as Claude Code 2.1 sends it", "working", hook("StopFailure.json"), "done", 1, 1],
  ["SessionEnd while working", "working", hook("SessionEnd.json"), "working", 0, 0],
  ["SessionEnd when done", "done", hook("SessionEnd.json"), "done", 0, 0],
  ["PreCompact", "working", hook("PreCompact.json"), "working", 0, 0],
  ["PreCompact when idle", "idle", hook("PreCompact.json"), "idle", 0, 0],
  // subagents
  ["SubagentStart", "working", hook("SubagentStart.json"), "working", 0, 0],
  ["SubagentStop re-entry", "working", hook("SubagentStop.json"), "working", 0, 1],
  ["SubagentStop from done", "done", hook("SubagentStop.json"), "working", 1, 1],
  ["subagent PreToolUse", "working", hook("PreToolUse-subagent.json"), "working", 0, 1],
  ["subagent Stop never marks done", "working", hook("Stop.json", { agent_id: "a1b2c3" }), "working", 0, 0],
  ["subagent Stop from idle", "idle", hook("Stop.json", { agent_id: "a1b2c3" }), "idle", 0, 0],
  ["subagent Stop with empty agent_id", "working", hook("Stop.json", { agent_id: "" }), "working", 0, 0],
  ["subagent StopFailure never marks done", "working", stopFailure({ agent_id: "a1b2c3" }), "working", 0, 0],
  [
    "subagent PermissionRequest blocks",
    "working",
    hook("PermissionRequest.json", { agent_id: "a1b2c3" }),
    "blocked",
    1,
    1,
  ],
  // unknown
  ["unknown hook", "working", hook("Stop.json", { hook_event_name: "FutureEvent" }, "FutureEvent"), "working", 0, 0],
  ["unknown hook when idle", "idle", hook("PreToolUse.json", {}, "TeammateIdle"), "idle", 0, 0],
];

// Exited is sticky: every fixture, plus the derived events, changes nothing.
const EXITED_ROWS: Row[] = [
  ...fixtureFiles.map((f): Row => [`exited + ${f}`, "exited", hook(f), "exited", 0, 0]),
  ["exited + StopFailure", "exited", stopFailure(), "exited", 0, 0],
  ["exited + elicitation", "exited", elicitation(), "exited", 0, 0],
];

describe("reduce: hooks", () => {
  it("covers every fixture in the table", () => {
    const used = new Set(
      HOOK_ROWS.map(([, , e]) => e)
        .filter((e): e is Extract<PaneEvent, { type: "hook" }> => e.type === "hook")
        .map((e) => JSON.stringify(e.payload)),
    );
    for (const f of fixtureFiles) expect(used.has(JSON.stringify(fixture(f))), f).toBe(true);
  });

  it.each([...HOOK_ROWS, ...EXITED_ROWS])("%s (from %s)", (_label, from, event, to, seqDelta, activityDelta) => {
    const before = deepFreeze(state(from));
    const { state: after, effects } = reduce(before, event);
    expect(after.lifecycle).toBe(to);
    expect(after.seq).toBe(before.seq + seqDelta);
    expect(after.activitySeq).toBe(before.activitySeq + activityDelta);

    const transitions = effects.filter((e) => e.kind === "transition");
    const activity = effects.filter((e) => e.kind === "activity");
    const journals = effects.filter((e) => e.kind === "journal");
    expect(journals.length).toBeGreaterThanOrEqual(1); // every hook is journaled
    if (seqDelta) {
      expect(transitions).toEqual([
        {
          kind: "transition",
          from,
          to,
          seq: before.seq + 1,
          activitySeq: after.activitySeq,
          cause: `hook:${(event as { name: string }).name}`,
          at: AT,
        },
      ]);
      expect(after.lastTransitionAt).toBe(AT);
      expect(journals.map((j) => j.type)).toEqual(["pane.hook", "pane.lifecycle"]);
    } else {
      expect(transitions).toEqual([]);
      expect(after.lastTransitionAt).toBe(before.lastTransitionAt);
      expect(journals.map((j) => j.type)).toEqual(["pane.hook"]);
    }
    if (activityDelta && !seqDelta) {
      expect(activity).toEqual([
        {
          kind: "activity",
          activitySeq: before.activitySeq + 1,
          lifecycle: to,
          cause: `hook:${(event as { name: string }).name}`,
          at: AT,
        },
      ]);
    } else {
      expect(activity).toEqual([]);
    }
    if (activityDelta) expect(after.lastActivity).toBe(to);
  });

  it("journals a bounded summary, not the payload", () => {
    const { effects } = reduce(state("working"), hook("PreToolUse-subagent.json"));
    expect(effects[0]).toEqual({
      kind: "journal",
      type: "pane.hook",
      data: { name: "PreToolUse", agentId: "a1b2c3", toolName: "Read", outcome: "activity", to: "working" },
      at: AT,
    });
  });

  it("unknown hook events change nothing but are journaled", () => {
    const before = state("working");
    const { state: after, effects } = reduce(before, hook("Stop.json", {}, "FutureEvent"));
    expect(after).toEqual(before);
    expect(effects).toEqual([
      { kind: "journal", type: "pane.hook", data: { name: "FutureEvent", outcome: "unknown" }, at: AT },
    ]);
  });

  it("returns the same object when nothing at all changes", () => {
    const before = state("done");
    expect(reduce(before, hook("Notification-idle_prompt.json")).state).toBe(before);
    expect(reduce(before, { type: "input", at: AT }).state).toBe(before);
  });

  it("any hook, even an unknown one, sets hooksSeen", () => {
    for (const e of [hook("SessionStart.json"), hook("Stop.json", {}, "FutureEvent")]) {
      expect(reduce(state("starting", { hooksSeen: false }), e).state.hooksSeen).toBe(true);
    }
  });

  it("Stop records the last assistant message; StopFailure records the failure", () => {
    const s1 = reduce(state("working"), hook("Stop.json")).state;
    expect(s1.lastMessage).toBe("Added --json to export and a test; all 212 tests pass.");
    expect(s1.lastStop).toEqual({ failed: false, at: AT });

    const s2 = reduce(state("working", { lastMessage: "old" }), stopFailure()).state;
    expect(s2.lifecycle).toBe("done");
    expect(s2.lastStop).toEqual({ failed: true, error: "rate_limit", at: AT });

    const s3 = reduce(
      state("working", { lastMessage: "old" }),
      hook("Stop.json", { agent_id: "x", last_assistant_message: "sub" }),
    ).state;
    expect(s3.lastMessage).toBe("old");
    expect(s3.lastStop).toBeNull();
  });

  it("a real StopFailure keeps its error category and the API's message", () => {
    const s = reduce(state("working"), hook("StopFailure.json")).state;
    expect(s.lastStop).toEqual({ failed: true, error: "unknown", at: AT });
    expect(s.lastMessage).toBe("API Error: 400 prompt is too long");
  });

  it("classifyHook reports known/subagent/note", () => {
    expect(classifyHook("Stop", fixture("SubagentStop.json"))).toMatchObject({ to: null, known: true, subagent: true });
    expect(classifyHook("SubagentStop", fixture("SubagentStop.json"))).toEqual({
      to: "working",
      known: true,
      subagent: true,
    });
    expect(classifyHook("Nope", {})).toMatchObject({ to: null, known: false });
  });
});

describe("reduce: process events", () => {
  type PRow = [label: string, before: PaneState, event: PaneEvent, to: Lifecycle, seqDelta: 0 | 1];
  const ROWS: PRow[] = [
    ["spawned from unknown", initialPaneState(), { type: "spawned", at: AT }, "starting", 1],
    ["spawned twice is ignored", state("starting"), { type: "spawned", at: AT }, "starting", 0],
    ["spawned while working is ignored", state("working"), { type: "spawned", at: AT }, "working", 0],
    ["exit from working", state("working"), { type: "exit", exitCode: 0, at: AT }, "exited", 1],
    ["exit from starting", state("starting"), { type: "exit", exitCode: 1, at: AT }, "exited", 1],
    ["exit from blocked by signal", state("blocked"), { type: "exit", exitCode: null, signal: 9, at: AT }, "exited", 1],
    ["exit from unknown (spawn failed)", initialPaneState(), { type: "exit", exitCode: 127, at: AT }, "exited", 1],
    ["exit when already exited", state("exited", { exitCode: 0 }), { type: "exit", exitCode: 1, at: AT }, "exited", 0],
    ["spawned when exited", state("exited"), { type: "spawned", at: AT }, "exited", 0],
    ["input never changes lifecycle (idle)", state("idle"), { type: "input", at: AT }, "idle", 0],
    ["input never changes lifecycle (done)", state("done"), { type: "input", at: AT }, "done", 0],
    ["input never changes lifecycle (blocked)", state("blocked"), { type: "input", at: AT }, "blocked", 0],
  ];
  it.each(ROWS)("%s", (_label, before, event, to, seqDelta) => {
    deepFreeze(before);
    const { state: after, effects } = reduce(before, event);
    expect(after.lifecycle).toBe(to);
    expect(after.seq).toBe(before.seq + seqDelta);
    expect(after.activitySeq).toBe(before.activitySeq); // spawn/exit/input are never activity
    expect(effects.some((e) => e.kind === "transition")).toBe(seqDelta === 1);
  });

  it("exit records code and signal, resets doneSeen, journals them", () => {
    const { state: s, effects } = reduce(state("done", { doneSeen: true }), {
      type: "exit",
      exitCode: 0,
      signal: 15,
      at: AT,
    });
    expect(s).toMatchObject({ lifecycle: "exited", exitCode: 0, signal: 15, doneSeen: false, lastTransitionAt: AT });
    expect(kinds(effects)).toEqual(["transition", "journal:pane.lifecycle"]);
    expect(effects[1]).toMatchObject({ data: { from: "done", to: "exited", cause: "exit", exitCode: 0, signal: 15 } });
  });

  it("a second exit keeps the first exit code", () => {
    const r = reduceAll(initialPaneState(), [
      { type: "spawned", at: 1 },
      { type: "exit", exitCode: 3, at: 2 },
      { type: "exit", exitCode: 0, at: 3 },
    ]);
    expect(r.state).toMatchObject({ lifecycle: "exited", exitCode: 3, seq: 2, lastTransitionAt: 2 });
  });

  it("signal 0 is no signal", () => {
    expect(reduce(state("working"), { type: "exit", exitCode: 0, signal: 0, at: AT }).state.signal).toBeNull();
  });

  it.each([
    [0, null, false],
    [1, null, true],
    [null, 9, true],
    [null, "SIGKILL", true],
    [0, 0, false],
    [null, null, false],
  ] as const)("isCrash(exitCode=%s, signal=%s) = %s", (exitCode, signal, crash) => {
    expect(isCrash({ exitCode, signal })).toBe(crash);
  });
});

describe("reduce: screen heuristics (fallback while no hook was seen)", () => {
  type HRow = [from: Lifecycle, type: "output" | "quiescent", to: Lifecycle, activityDelta: 0 | 1];
  const ROWS: HRow[] = [
    ["starting", "output", "starting", 0],
    ["idle", "output", "working", 1],
    ["done", "output", "working", 1],
    ["working", "output", "working", 0],
    ["unknown", "output", "unknown", 0],
    ["exited", "output", "exited", 0],
    ["starting", "quiescent", "idle", 0],
    ["working", "quiescent", "done", 1],
    ["idle", "quiescent", "idle", 0],
    ["done", "quiescent", "done", 0],
    ["unknown", "quiescent", "unknown", 0],
    ["exited", "quiescent", "exited", 0],
  ];

  it.each(ROWS)("no hooks: %s + %s -> %s", (from, type, to, activityDelta) => {
    const before = deepFreeze(state(from, { hooksSeen: false }));
    const { state: after, effects } = reduce(before, { type, at: AT });
    expect(after.lifecycle).toBe(to);
    expect(after.seq).toBe(before.seq + (to === from ? 0 : 1));
    expect(after.activitySeq).toBe(before.activitySeq + activityDelta);
    if (to !== from) expect(effects[0]).toMatchObject({ kind: "transition", cause: `heuristic:${type}` });
    else expect(effects).toEqual([]);
  });

  it("heuristics never enter or leave blocked", () => {
    for (const type of ["output", "quiescent"] as const) {
      const before = state("blocked", { hooksSeen: false });
      expect(reduce(before, { type, at: AT }).state).toBe(before);
    }
  });

  it.each(ROWS)("hooks seen: %s + %s is ignored", (from, type) => {
    const before = state(from, { hooksSeen: true });
    const r = reduce(before, { type, at: AT });
    expect(r.state).toBe(before);
    expect(r.effects).toEqual([]);
  });

  it("a hook-less agent's turn: spawn, settle, work, settle", () => {
    const r = reduceAll(initialPaneState(), [
      { type: "spawned", at: 1 },
      { type: "output", at: 2 },
      { type: "quiescent", at: 3 },
      { type: "output", at: 4 },
      { type: "output", at: 5 },
      { type: "quiescent", at: 6 },
    ]);
    expect(r.state).toMatchObject({
      lifecycle: "done",
      seq: 4,
      activitySeq: 2,
      lastActivity: "done",
      lastTransitionAt: 6,
    });
    expect(r.effects.filter((e) => e.kind === "transition").map((e) => (e.kind === "transition" ? e.to : ""))).toEqual([
      "starting",
      "idle",
      "working",
      "done",
    ]);
  });
});

describe("reduce: viewed / doneSeen", () => {
  type VRow = [label: string, before: PaneState, doneSeen: boolean, journaled: boolean];
  const ROWS: VRow[] = [
    ["done unseen -> seen", state("done", { doneSeen: false }), true, true],
    ["done already seen", state("done", { doneSeen: true }), true, false],
    ["exited unseen -> seen", state("exited", { doneSeen: false, exitCode: 1 }), true, true],
    ["idle: nothing to see", state("idle"), false, false],
    ["working: nothing to see", state("working"), false, false],
    ["blocked: viewing does not clear it", state("blocked"), false, false],
  ];
  it.each(ROWS)("%s", (_label, before, doneSeen, journaled) => {
    const { state: after, effects } = reduce(deepFreeze(before), { type: "viewed", at: AT });
    expect(after.doneSeen).toBe(doneSeen);
    expect(after.lifecycle).toBe(before.lifecycle);
    expect(after.seq).toBe(before.seq);
    expect(kinds(effects)).toEqual(journaled ? ["journal:pane.seen"] : []);
  });

  it("entering done again makes it unseen again", () => {
    const r = reduceAll(state("working"), [
      hook("Stop.json"),
      { type: "viewed", at: AT },
      hook("UserPromptSubmit.json"),
      hook("Stop.json"),
    ]);
    expect(r.state).toMatchObject({ lifecycle: "done", doneSeen: false });
  });

  it("leaving done keeps doneSeen untouched until the next done (irrelevant outside done/exited)", () => {
    const s = reduce(state("done", { doneSeen: true }), hook("UserPromptSubmit.json")).state;
    expect(s).toMatchObject({ lifecycle: "working", doneSeen: true });
  });
});

describe("reduce: a full Claude Code session", () => {
  it("seq and activitySeq are monotonic; subagents never end the turn", () => {
    const events: PaneEvent[] = [
      { type: "spawned", at: 1 },
      hook("SessionStart.json"),
      { type: "input", at: 2 },
      hook("UserPromptSubmit.json"),
      hook("PreToolUse.json"),
      hook("SubagentStart.json"),
      hook("PreToolUse-subagent.json"),
      hook("Stop.json", { agent_id: "a1b2c3" }),
      hook("SubagentStop.json"),
      hook("PermissionRequest.json"),
      hook("Notification-permission_prompt.json"),
      hook("PostToolUse.json"),
      hook("Stop.json"),
      hook("Notification-idle_prompt.json"),
      hook("SessionEnd.json"),
      { type: "exit", exitCode: 0, at: 3 },
      hook("Stop.json"),
    ];
    let s = initialPaneState();
    const seen: Lifecycle[] = [];
    for (const e of events) {
      const r = reduce(s, e);
      expect(r.state.seq).toBeGreaterThanOrEqual(s.seq);
      expect(r.state.activitySeq).toBeGreaterThanOrEqual(s.activitySeq);
      s = r.state;
      seen.push(s.lifecycle);
    }
    expect(seen).toEqual([
      "starting",
      "idle",
      "idle",
      "working",
      "working",
      "working",
      "working",
      "working",
      "working",
      "blocked",
      "blocked",
      "working",
      "done",
      "done",
      "done",
      "exited",
      "exited",
    ]);
    // transitions: starting, idle, working, blocked, working, done, exited
    expect(s.seq).toBe(7);
    expect(s).toMatchObject({ exitCode: 0, hooksSeen: true, lastActivity: "done" });
  });
});

describe("reduce: screen observations (start-up dialogs, screen readiness, failed turns, notes)", () => {
  const trust = {
    kind: "trust",
    title: "Claude Code asks whether you trust this folder",
    text: "Is this a project you created or one you trust?",
  };
  const atDialog = (extra: Partial<PaneState> = {}) =>
    state("blocked", { dialog: { ...trust, since: 500, returnTo: "starting" }, ...extra });
  type SRow = [
    label: string,
    before: PaneState,
    event: PaneEvent,
    to: Lifecycle,
    seqDelta: 0 | 1,
    activityDelta: 0 | 1,
    dialogKind: string | null,
  ];
  const dialog = (d = trust): PaneEvent => ({ type: "dialog", dialog: d, at: AT });
  const ROWS: SRow[] = [
    ["dialog while starting", state("starting", { hooksSeen: false }), dialog(), "blocked", 1, 0, "trust"],
    ["dialog while unknown", state("unknown"), dialog(), "blocked", 1, 0, "trust"],
    ["dialog after the ready hook (idle)", state("idle"), dialog(), "blocked", 1, 0, "trust"],
    ["dialog again: no transition", atDialog(), dialog(), "blocked", 0, 0, "trust"],
    [
      "the next dialog in a row: refreshed",
      atDialog(),
      dialog({ kind: "api_key", title: "API key", text: "Do you want to use this API key?" }),
      "blocked",
      0,
      0,
      "api_key",
    ],
    ["dialog while working is ignored", state("working"), dialog(), "working", 0, 0, null],
    ["dialog at a permission prompt is ignored", state("blocked"), dialog(), "blocked", 0, 0, null],
    ["dialog while done is ignored", state("done"), dialog(), "done", 0, 0, null],
    ["dialog when exited is ignored", state("exited"), dialog(), "exited", 0, 0, null],
    ["dialog cleared", atDialog(), { type: "dialog_cleared", at: AT }, "starting", 1, 0, null],
    [
      "dialog cleared, it came up when the pane was ready",
      state("blocked", { dialog: { ...trust, since: 500, returnTo: "idle" } }),
      { type: "dialog_cleared", at: AT },
      "idle",
      1,
      0,
      null,
    ],
    [
      "dialog cleared at a permission prompt: nothing",
      state("blocked"),
      { type: "dialog_cleared", at: AT },
      "blocked",
      0,
      0,
      null,
    ],
    [
      "dialog cleared while working: nothing",
      state("working"),
      { type: "dialog_cleared", at: AT },
      "working",
      0,
      0,
      null,
    ],
    ["SessionStart after the dialog was answered", atDialog(), hook("SessionStart.json"), "idle", 1, 0, null],
    ["UserPromptSubmit ends a dialog wait", atDialog(), hook("UserPromptSubmit.json"), "working", 1, 1, null],
    ["a no-op hook keeps the dialog", atDialog(), hook("Notification-idle_prompt.json"), "blocked", 0, 0, "trust"],
    ["exit while at a dialog", atDialog(), { type: "exit", exitCode: 0, at: AT }, "exited", 1, 0, null],
    ["screen ready from starting", state("starting"), { type: "screen_ready", at: AT }, "idle", 1, 0, null],
    ["screen ready from unknown", state("unknown"), { type: "screen_ready", at: AT }, "idle", 1, 0, null],
    ["screen ready at a dialog", atDialog(), { type: "screen_ready", at: AT }, "idle", 1, 0, null],
    ["screen ready while idle: nothing", state("idle"), { type: "screen_ready", at: AT }, "idle", 0, 0, null],
    ["screen ready while working: nothing", state("working"), { type: "screen_ready", at: AT }, "working", 0, 0, null],
    [
      "screen ready at a permission prompt: nothing",
      state("blocked"),
      { type: "screen_ready", at: AT },
      "blocked",
      0,
      0,
      null,
    ],
    ["screen ready when done: nothing", state("done"), { type: "screen_ready", at: AT }, "done", 0, 0, null],
    [
      "turn failed while working",
      state("working"),
      { type: "turn_failed", error: "■ 400 bad request", at: AT },
      "done",
      1,
      1,
      null,
    ],
    ["turn failed while idle: nothing", state("idle"), { type: "turn_failed", error: "x", at: AT }, "idle", 0, 0, null],
    ["turn failed when done: nothing", state("done"), { type: "turn_failed", error: "x", at: AT }, "done", 0, 0, null],
    [
      "turn failed when exited: nothing",
      state("exited"),
      { type: "turn_failed", error: "x", at: AT },
      "exited",
      0,
      0,
      null,
    ],
  ];

  it.each(ROWS)("%s", (_label, before, event, to, seqDelta, activityDelta, dialogKind) => {
    deepFreeze(before);
    const { state: after, effects } = reduce(before, event);
    expect(after.lifecycle).toBe(to);
    expect(after.seq).toBe(before.seq + seqDelta);
    expect(after.activitySeq).toBe(before.activitySeq + activityDelta);
    expect(after.dialog?.kind ?? null).toBe(dialogKind);
    expect(effects.filter((e) => e.kind === "transition").length).toBe(seqDelta);
  });

  it("a dialog is journaled, keeps its text and when it appeared, and names its cause", () => {
    const { state: s, effects } = reduce(state("starting"), { type: "dialog", dialog: trust, at: AT });
    expect(s.dialog).toEqual({ ...trust, since: AT, returnTo: "starting" });
    expect(blockedReason(s)).toBe("startup_dialog");
    expect(kinds(effects)).toEqual(["journal:pane.dialog", "transition", "journal:pane.lifecycle"]);
    expect(effects[1]).toMatchObject({
      kind: "transition",
      from: "starting",
      to: "blocked",
      cause: "screen:dialog:trust",
    });
    const again = reduce(s, {
      type: "dialog",
      dialog: { ...trust, text: `${trust.text} (redrawn)` },
      at: AT + 5,
    }).state;
    expect(again.dialog).toEqual({ ...trust, text: `${trust.text} (redrawn)`, since: AT, returnTo: "starting" });
    expect(reduce(state("idle"), { type: "dialog", dialog: trust, at: AT }).state.dialog?.returnTo).toBe("idle");
  });

  it("blockedReason: a permission prompt is a prompt; other states are not blocked", () => {
    expect(blockedReason(state("blocked"))).toBe("prompt");
    expect(blockedReason(state("working"))).toBeNull();
  });

  it("a failed turn records the error like a StopFailure", () => {
    const s = reduce(state("working"), { type: "turn_failed", error: '■ {"error":{"message":"bad"}}', at: AT }).state;
    expect(s.lastStop).toEqual({ failed: true, error: '■ {"error":{"message":"bad"}}', at: AT });
    expect(s.lastMessage).toBe('■ {"error":{"message":"bad"}}');
  });

  it("notes: set, unchanged, changed, cleared — journaled only when they change", () => {
    const n1 = reduce(state("working"), { type: "note", note: { kind: "retrying", text: "attempt 1/10" }, at: AT });
    expect(n1.state.note).toEqual({ kind: "retrying", text: "attempt 1/10", at: AT });
    expect(n1.state.lifecycle).toBe("working");
    expect(kinds(n1.effects)).toEqual(["journal:pane.note"]);
    const same = reduce(n1.state, { type: "note", note: { kind: "retrying", text: "attempt 1/10" }, at: AT + 1 });
    expect(same.state).toBe(n1.state);
    expect(same.effects).toEqual([]);
    const n2 = reduce(n1.state, { type: "note", note: { kind: "retrying", text: "attempt 2/10" }, at: AT + 2 });
    expect(n2.state.note?.text).toBe("attempt 2/10");
    const cleared = reduce(n2.state, { type: "note", note: null, at: AT + 3 });
    expect(cleared.state.note).toBeNull();
    expect(kinds(cleared.effects)).toEqual(["journal:pane.note"]);
    expect(reduce(cleared.state, { type: "note", note: null, at: AT + 4 }).effects).toEqual([]);
  });

  it("Claude Code behind its trust dialog: spawn, dialog, answered, SessionStart, prompt", () => {
    const r = reduceAll(initialPaneState(), [
      { type: "spawned", at: 1 },
      { type: "dialog", dialog: trust, at: 2 },
      { type: "dialog_cleared", at: 3 },
      hook("SessionStart.json"),
      hook("UserPromptSubmit.json"),
    ]);
    expect(r.state).toMatchObject({ lifecycle: "working", dialog: null, activitySeq: 1 });
    expect(r.effects.filter((e) => e.kind === "transition").map((e) => (e.kind === "transition" ? e.to : ""))).toEqual([
      "starting",
      "blocked",
      "starting",
      "idle",
      "working",
    ]);
  });
});
