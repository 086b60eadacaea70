import { describe, expect, it } from "vitest";
import { type Disposition, type TaskEvent, type TaskState, transition } from "./state";

type Row = [TaskState, TaskEvent, TaskState, Record<string, unknown> | null | undefined];

const rows: Row[] = [
  ["pending", { type: "submitted" }, "working", null],
  [
    "pending",
    { type: "submit_refused", code: "PANE_BUSY", message: "busy" },
    "failed",
    { stage: "submit_refused", code: "PANE_BUSY" },
  ],
  ["pending", { type: "submit_unconfirmed", stallMs: 5000 }, "input_required", { stage: "submit_unconfirmed" }],
  ["pending", { type: "ready_timeout", timeoutMs: 100, lifecycle: "starting" }, "failed", { stage: "ready_timeout" }],
  [
    "pending",
    {
      type: "ready_timeout",
      timeoutMs: 100,
      lifecycle: "blocked",
      dialog: { kind: "trust", title: "trust?", text: "Is this a project you trust?" },
      screen: "Is this a project you trust?\n❯ No, exit",
      waitedAtDialogMs: 100,
    },
    "failed",
    {
      stage: "ready_timeout",
      reason: "startup_dialog",
      dialog: { kind: "trust", text: "Is this a project you trust?" },
      screen: "Is this a project you trust?\n❯ No, exit",
      waitedAtDialogMs: 100,
    },
  ],
  [
    "pending",
    { type: "pane_exit", exitCode: 1, signal: null, lastLifecycle: "starting" },
    "failed",
    { reason: "pane_exited", exitCode: 1 },
  ],
  ["pending", { type: "restart", lastLifecycle: "idle" }, "failed", { stage: "restart" }],
  ["pending", { type: "cancel" }, "canceled", null],
  // Setup: progress is the pending task's evidence, done clears it, a failure fails the task.
  [
    "pending",
    { type: "setup_progress", step: 2, total: 3, command: "npm ci" },
    "pending",
    { stage: "setup", step: 2, total: 3, command: "npm ci" },
  ],
  ["pending", { type: "setup_done" }, "pending", null],
  [
    "pending",
    { type: "setup_failed", step: 1, total: 2, command: "false", exitCode: 1, signal: null, tail: "oops" },
    "failed",
    { reason: "setup_failed", step: 1, total: 2, command: "false", exitCode: 1, tail: "oops" },
  ],
  ["working", { type: "setup_progress", step: 1, total: 1, command: "x" }, "working", undefined],
  ["working", { type: "setup_done" }, "working", undefined],
  [
    "canceled",
    { type: "setup_failed", step: 1, total: 1, command: "x", exitCode: 143, signal: null, tail: "" },
    "canceled",
    undefined,
  ],
  ["pending", { type: "pane_done" }, "pending", undefined],
  [
    "working",
    { type: "pane_done", lastMessage: "hi" },
    "input_required",
    { reason: "turn_ended_without_report", last_message: "hi" },
  ],
  [
    "working",
    { type: "pane_done", lastMessage: "API Error: 400 bad", failure: { error: "unknown" } },
    "input_required",
    { reason: "turn_failed", error: "unknown", last_message: "API Error: 400 bad" },
  ],
  [
    "working",
    { type: "pane_done", lastMessage: "hi", failure: null },
    "input_required",
    { reason: "turn_ended_without_report" },
  ],
  ["failed", { type: "resume", sessionId: "s1" }, "pending", null],
  ["canceled", { type: "resume", sessionId: "s1" }, "pending", null],
  ["working", { type: "pane_working" }, "working", undefined],
  [
    "working",
    { type: "asked", messageId: "msg1", question: "Which port?" },
    "input_required",
    { reason: "question", messageId: "msg1", question: "Which port?" },
  ],
  [
    "input_required",
    { type: "asked", messageId: "msg2", question: "And the host?" },
    "input_required",
    { reason: "question", messageId: "msg2" },
  ],
  ["pending", { type: "asked", messageId: "msg3", question: "Now?" }, "input_required", { reason: "question" }],
  [
    "working",
    { type: "plan_submitted", planId: "pln1", version: 1 },
    "input_required",
    { reason: "plan_review", planId: "pln1", version: 1 },
  ],
  [
    "input_required",
    { type: "plan_submitted", planId: "pln2", version: 2 },
    "input_required",
    { reason: "plan_review", version: 2 },
  ],
  ["working", { type: "report", status: "completed" }, "completed", null],
  ["working", { type: "report", status: "failed" }, "failed", null],
  ["working", { type: "report", status: "rejected" }, "rejected", null],
  [
    "working",
    { type: "pane_exit", exitCode: 3, signal: null, lastLifecycle: "working" },
    "failed",
    { reason: "pane_exited", exitCode: 3, lastLifecycle: "working" },
  ],
  [
    "working",
    { type: "pane_lost", reason: "pane_host_died", lastLifecycle: "blocked" },
    "failed",
    { reason: "pane_host_died", lastLifecycle: "blocked" },
  ],
  [
    "input_required",
    { type: "pane_lost", reason: "pane_host_died", lastLifecycle: "done" },
    "failed",
    { reason: "pane_host_died", lastLifecycle: "done" },
  ],
  ["completed", { type: "pane_lost", reason: "pane_host_died", lastLifecycle: "done" }, "completed", undefined],
  [
    "working",
    { type: "restart", lastLifecycle: "working" },
    "failed",
    { reason: "server_restart", lastLifecycle: "working" },
  ],
  ["working", { type: "cancel" }, "canceled", null],
  ["working", { type: "submitted" }, "working", undefined],
  ["input_required", { type: "pane_working" }, "working", null],
  ["input_required", { type: "report", status: "completed" }, "completed", null],
  ["input_required", { type: "pane_done" }, "input_required", undefined],
  [
    "input_required",
    { type: "pane_exit", exitCode: 0, signal: null, lastLifecycle: "done" },
    "failed",
    { reason: "pane_exited" },
  ],
  ["completed", { type: "pane_exit", exitCode: 0, signal: null, lastLifecycle: "done" }, "completed", undefined],
  ["completed", { type: "restart", lastLifecycle: null }, "completed", undefined],
  ["failed", { type: "pane_working" }, "failed", undefined],
  ["canceled", { type: "pane_done" }, "canceled", undefined],
  ["backlog", { type: "restart", lastLifecycle: null }, "backlog", undefined],
  // backlog: started later, or canceled before it ever ran
  ["backlog", { type: "start" }, "pending", null],
  ["backlog", { type: "cancel" }, "canceled", null],
  ["backlog", { type: "pane_done" }, "backlog", undefined],
  // review rounds: request changes starts the next round; a later round is never failed by a prompt that did not arrive
  ["completed", { type: "next_round" }, "pending", null],
  ["input_required", { type: "next_round" }, "pending", null],
  [
    "pending",
    { type: "submit_refused", code: "PANE_BUSY", message: "busy", round: 1 },
    "failed",
    { stage: "submit_refused", code: "PANE_BUSY" },
  ],
  [
    "pending",
    { type: "submit_refused", code: "PANE_BUSY", message: "busy", round: 2 },
    "input_required",
    { stage: "submit_refused", code: "PANE_BUSY", round: 2 },
  ],
  [
    "pending",
    { type: "ready_timeout", timeoutMs: 100, lifecycle: "starting", round: 3 },
    "input_required",
    { stage: "ready_timeout", lifecycle: "starting", round: 3 },
  ],
  [
    "pending",
    { type: "submit_unconfirmed", stallMs: 5000 },
    "input_required",
    { stage: "submit_unconfirmed", stallMs: 5000 },
  ],
  // the rest of each state's events: what the engine may send it, changed or not
  ["pending", { type: "pane_working" }, "pending", undefined],
  [
    "pending",
    { type: "pane_lost", reason: "pane_host_died", lastLifecycle: "starting" },
    "failed",
    { reason: "pane_host_died", lastLifecycle: "starting" },
  ],
  ["pending", { type: "report", status: "completed" }, "completed", null],
  ["working", { type: "ready_timeout", timeoutMs: 100, lifecycle: "working" }, "working", undefined],
  ["working", { type: "submit_refused", code: "PANE_BUSY", message: "busy" }, "working", undefined],
  ["input_required", { type: "cancel" }, "canceled", null],
  [
    "input_required",
    { type: "restart", lastLifecycle: "done" },
    "failed",
    { reason: "server_restart", lastLifecycle: "done" },
  ],
  ["input_required", { type: "submit_unconfirmed", stallMs: 5000 }, "input_required", undefined],
  ["input_required", { type: "report", status: "rejected" }, "rejected", null],
  ["backlog", { type: "submitted" }, "backlog", undefined],
  ["backlog", { type: "pane_working" }, "backlog", undefined],
  ["completed", { type: "pane_done", lastMessage: "hi" }, "completed", undefined],
  ["failed", { type: "submitted" }, "failed", undefined],
  ["failed", { type: "restart", lastLifecycle: null }, "failed", undefined],
  ["rejected", { type: "pane_exit", exitCode: 0, signal: null, lastLifecycle: "done" }, "rejected", undefined],
  ["canceled", { type: "pane_lost", reason: "pane_host_died", lastLifecycle: "done" }, "canceled", undefined],
];

describe("task transitions", () => {
  it.each(rows)("%s + %j → %s", (from, event, to, evidence) => {
    const t = transition(from, event);
    expect(t.state).toBe(to);
    expect(t.changed).toBe(from !== to || evidence !== undefined);
    if (evidence === undefined) expect(t.evidence).toBeUndefined();
    else if (evidence === null) expect(t.evidence).toBeNull();
    else expect(t.evidence).toMatchObject(evidence);
    expect(t.endsRound).toBe(["completed", "failed", "canceled", "rejected"].includes(to) && t.changed);
    expect(t.startsRound).toBe(event.type === "next_round" || event.type === "resume");
  });

  it.each(["backlog", "pending", "working", "failed", "canceled", "rejected"] as TaskState[])(
    "next_round on a %s task is a CONFLICT",
    (state) => {
      expect(() => transition(state, { type: "next_round" })).toThrow(
        expect.objectContaining({ code: "CONFLICT", details: { state } }),
      );
    },
  );

  it.each(["backlog", "completed", "failed", "canceled", "rejected"] as TaskState[])(
    "a question or a plan from a %s task is a CONFLICT",
    (state) => {
      expect(() => transition(state, { type: "asked", messageId: "m", question: "q" })).toThrow(
        expect.objectContaining({ code: "CONFLICT", details: { state } }),
      );
      expect(() => transition(state, { type: "plan_submitted", planId: "p", version: 1 })).toThrow(
        expect.objectContaining({ code: "CONFLICT", details: { state } }),
      );
    },
  );

  it.each(["pending", "working", "input_required", "completed", "failed", "canceled", "rejected"] as TaskState[])(
    "start on a %s task is a CONFLICT",
    (state) => {
      expect(() => transition(state, { type: "start" })).toThrow(
        expect.objectContaining({ code: "CONFLICT", details: { state } }),
      );
    },
  );

  it.each(["completed", "failed", "canceled", "rejected"] as TaskState[])(
    "a report or cancel on a %s task is a CONFLICT",
    (state) => {
      expect(() => transition(state, { type: "report", status: "completed" })).toThrow(
        expect.objectContaining({ code: "CONFLICT" }),
      );
      expect(() => transition(state, { type: "cancel" })).toThrow(expect.objectContaining({ code: "CONFLICT" }));
    },
  );

  // Finishing: [state, event, state after, disposition recorded]
  const finishes: Array<[TaskState, "merged" | "discarded", TaskState, Disposition]> = [
    ["completed", "merged", "completed", "merged"],
    ["completed", "discarded", "completed", "discarded"],
    ["failed", "discarded", "failed", "discarded"],
    ["canceled", "discarded", "canceled", "discarded"],
    ["rejected", "discarded", "rejected", "discarded"],
    ["working", "discarded", "canceled", "discarded"],
    ["input_required", "discarded", "canceled", "discarded"],
    ["pending", "discarded", "canceled", "discarded"],
    ["backlog", "discarded", "canceled", "discarded"],
  ];
  it.each(finishes)("%s + %s → %s, disposition %s", (from, type, to, disposition) => {
    const t = transition(from, { type });
    expect(t).toMatchObject({ state: to, changed: true, disposition, startsRound: false });
    expect(t.endsRound).toBe(from !== to);
  });

  it.each(["backlog", "pending", "working", "input_required", "failed", "canceled", "rejected"] as TaskState[])(
    "merging a %s task is TASK_NOT_COMPLETED",
    (state) => {
      expect(() => transition(state, { type: "merged" })).toThrow(
        expect.objectContaining({ code: "TASK_NOT_COMPLETED", details: { state } }),
      );
    },
  );

  it.each([
    ["merged", "merged"],
    ["merged", "discarded"],
    ["discarded", "merged"],
    ["discarded", "discarded"],
    ["merged", "next_round"],
  ] as Array<[Disposition, "merged" | "discarded" | "next_round"]>)(
    "a task already %s refuses %s with CONFLICT",
    (disposition, type) => {
      expect(() => transition("completed", { type }, disposition)).toThrow(
        expect.objectContaining({ code: "CONFLICT", details: { disposition } }),
      );
    },
  );

  it.each([
    ["merged", "completed"],
    ["discarded", "failed"],
    ["discarded", "canceled"],
  ] as Array<[Disposition, TaskState]>)("a task already %s is not resumed from %s (CONFLICT)", (disposition, state) => {
    expect(() => transition(state, { type: "resume", sessionId: "s1" }, disposition)).toThrow(
      expect.objectContaining({ code: "CONFLICT", details: { disposition } }),
    );
  });

  it("a finished task's other events follow its state as before", () => {
    expect(
      transition("completed", { type: "pane_exit", exitCode: 0, signal: null, lastLifecycle: "done" }, "merged"),
    ).toMatchObject({ state: "completed", changed: false });
  });

  it.each(["backlog", "pending", "working", "input_required", "completed", "rejected"] as TaskState[])(
    "resuming a %s task is a CONFLICT",
    (state) => {
      expect(() => transition(state, { type: "resume", sessionId: "s1" })).toThrow(
        expect.objectContaining({ code: "CONFLICT" }),
      );
    },
  );

  it("a resume opens a round, it does not end one", () => {
    expect(transition("failed", { type: "resume", sessionId: "s1" })).toMatchObject({
      state: "pending",
      changed: true,
      evidence: null,
      endsRound: false,
      startsRound: true,
    });
  });

  it("a backlog task cannot report", () => {
    expect(() => transition("backlog", { type: "report", status: "completed" })).toThrow(
      expect.objectContaining({ code: "CONFLICT" }),
    );
  });
});
