// The turn snapshots' pure rules, table-driven: which journal events take a snapshot of a task's
// worktree (or prune its snapshots), and what a revert does to each file of the diff from the
// restored snapshot to the worktree now. (tests/turns.test.ts runs the whole thing with the
// demo agent.)
import { describe, expect, it } from "vitest";
import { revertChanges, turnTrigger } from "./turns";

const event = (type: string, payload: Record<string, unknown>, paneId: string | null = "paneA", taskId = "tskA") => ({
  type: type as "task.state",
  taskId,
  paneId,
  payload,
});

describe("turnTrigger", () => {
  const cases: Array<[string, ReturnType<typeof event>, boolean, ReturnType<typeof turnTrigger>]> = [
    ["a turn ends (pane done)", event("pane.lifecycle", { from: "working", to: "done" }), true, "snapshot"],
    [
      "the agent exits (crash, cancel, kill)",
      event("pane.lifecycle", { from: "working", to: "exited" }),
      false,
      "snapshot",
    ],
    ["the agent starts working", event("pane.lifecycle", { from: "done", to: "working" }), true, null],
    ["the agent blocks on a prompt", event("pane.lifecycle", { from: "working", to: "blocked" }), true, null],
    ["a pane that belongs to no task", event("pane.lifecycle", { to: "done" }, "paneB", ""), true, null],
    [
      "a report mid-turn, the agent still running",
      event("task.state", { to: "completed", cause: "report" }),
      true,
      null,
    ],
    [
      "a turn's end the pane's done already covers",
      event("task.state", { to: "input_required", cause: "pane_done" }),
      true,
      null,
    ],
    ["a round ends with its agent gone", event("task.state", { to: "failed", cause: "pane_exit" }), false, "snapshot"],
    ["a cancel once the agent is stopped", event("task.state", { to: "canceled", cause: "cancel" }), false, "snapshot"],
    [
      "a round ends with no pane recorded",
      event("task.state", { to: "failed", cause: "ready_timeout" }, null),
      true,
      "snapshot",
    ],
    ["a round starts", event("task.state", { to: "pending", cause: "next_round" }), false, null],
    ["the agent works", event("task.state", { to: "working", cause: "submitted" }), false, null],
    ["the task is merged or discarded", event("task.finished", { disposition: "merged" }), true, "prune"],
    ["anything else", event("task.diff_stat", { files: 1 }), false, null],
  ];
  it.each(cases)("%s", (_what, e, running, expected) => {
    expect(turnTrigger(e, () => running)).toBe(expected);
  });
});

describe("revertChanges", () => {
  it("removes what was added since, re-creates what was deleted or renamed away, restores the rest, sorted", () => {
    expect(
      revertChanges([
        { path: "z.txt", status: "modified" },
        { path: "new.txt", status: "added" },
        { path: "gone.txt", status: "deleted" },
        { path: "b/moved.txt", status: "renamed", oldPath: "a/orig.txt" },
      ]),
    ).toEqual([
      { path: "a/orig.txt", action: "recreate" },
      { path: "b/moved.txt", action: "remove" },
      { path: "gone.txt", action: "recreate" },
      { path: "new.txt", action: "remove" },
      { path: "z.txt", action: "restore" },
    ]);
    expect(revertChanges([])).toEqual([]);
  });
});
