import { describe, expect, it } from "vitest";
import { appRouter } from "./router";
import { socketInputs } from "../contracts/socket";
import { type Caller, CALLER_ROLES, GATES, mayAccessPane, mayAccessTask, roleRefusal, SOCKET_GATES } from "./roles";

const procedures = Object.keys((appRouter as unknown as { _def: { procedures: Record<string, unknown> } })._def.procedures).sort();

describe("the role gate table", () => {
  it("has exactly one entry per procedure of the router", () => {
    expect(Object.keys(GATES).sort()).toEqual(procedures);
  });

  it("has one entry per socket event, each the person's only (the handshake refuses pane tokens)", () => {
    expect(Object.keys(SOCKET_GATES).sort()).toEqual(Object.keys(socketInputs).sort());
    for (const g of Object.values(SOCKET_GATES)) expect(g.roles).toEqual(["person"]);
  });

  it("lets the person call everything", () => {
    for (const p of procedures) expect(roleRefusal(p, "person")).toBeNull();
  });

  it("refuses every pane a procedure it does not list", () => {
    expect(roleRefusal("no.such", "orchestrator")).toMatch(/not open to panes/);
    expect(roleRefusal("no.such", "person")).toBeNull();
  });

  // What every task-bound pane may call: read itself and its thread, ask, register worktrees, post hooks.
  const SELF = [
    "agents.list", "hooks.post", "panes.get", "panes.read", "plans.list", "reviews.list", "reviews.listComments", "status", "tasks.ask", "tasks.get", "tasks.registerWorktree", "tasks.rounds",
    "tasks.thread", "tasks.worktrees", "whoami",
  ];
  // role → procedures it may call (everything else is refused): the whole matrix, spelled out.
  const MAY: Record<Exclude<(typeof CALLER_ROLES)[number], "person">, string[]> = {
    orchestrator: procedures.filter((p) => !/^(server|projects|board|agents\.(add|update|try|tryStatus|remove))\b/.test(p) && p !== "tasks.report" && p !== "plans.submit"),
    worker: [...SELF, "tasks.report"],
    reviewer: [...SELF, "plans.review", "reviews.addComment", "reviews.deleteComment", "reviews.editComment", "reviews.resolveComment", "reviews.submit", "tasks.diff"],
    planner: [...SELF, "plans.submit"],
  };
  it.each(Object.entries(MAY))("a %s pane may call exactly its procedures", (role, allowed) => {
    const got = procedures.filter((p) => roleRefusal(p, role as Caller["role"]) === null);
    expect(got).toEqual([...allowed].sort());
  });
});

describe("which task a caller may touch", () => {
  const task = { id: "tskA", parentPaneId: "paneO", rootParentPaneId: "paneO", contextId: "ctx1" };
  const sub = { id: "tskS", parentPaneId: null, rootParentPaneId: "paneO", contextId: null };
  const other = { id: "tskB", parentPaneId: "paneX", rootParentPaneId: "paneX", contextId: "ctx2" };
  const c = (role: Caller["role"], extra: Partial<Caller> = {}): Caller => ({ role, paneId: "paneO", taskId: null, contextId: null, ...extra });
  it.each([
    ["the person, any task", c("person", { paneId: null }), other, true],
    ["an orchestrator, a task it started", c("orchestrator"), task, true],
    ["an orchestrator, a subtask of a task it started", c("orchestrator"), sub, true],
    ["an orchestrator, someone else's task", c("orchestrator"), other, false],
    ["an orchestrating task, a task in its context", c("orchestrator", { paneId: "paneZ", taskId: "tskZ", contextId: "ctx2" }), other, true],
    ["an orchestrator, its own task", c("orchestrator", { paneId: "paneZ", taskId: "tskB" }), other, true],
    ["a worker, its own task", c("worker", { paneId: "paneW", taskId: "tskA" }), task, true],
    ["a worker, a task its parent started", c("worker", { paneId: "paneW", taskId: "tskS" }), task, false],
    ["a worker with a context, another task in it", c("worker", { paneId: "paneW", taskId: "tskZ", contextId: "ctx1" }), task, false],
    ["a reviewer, the task it reviews", c("reviewer", { paneId: "paneR", taskId: "tskA" }), task, true],
    ["a reviewer, another task", c("reviewer", { paneId: "paneR", taskId: "tskA" }), other, false],
  ] as const)("%s: %s", (_name, caller, t, ok) => {
    expect(mayAccessTask(caller, t)).toBe(ok);
  });
});

describe("which pane a caller may touch", () => {
  const c = (role: Caller["role"]): Caller => ({ role, paneId: "paneO", taskId: null, contextId: null });
  const mine = { id: "paneO", taskId: null, parentPaneId: null, rootPaneId: "paneO" };
  const child = { id: "paneC", taskId: null, parentPaneId: "paneO", rootPaneId: "paneO" };
  const stranger = { id: "paneS", taskId: "tskB", parentPaneId: null, rootPaneId: "paneS" };
  it.each([
    ["anyone, its own pane", c("worker"), mine, null, true],
    ["an orchestrator, a pane it spawned", c("orchestrator"), child, null, true],
    ["an orchestrator, a task pane of a task it may touch", c("orchestrator"), stranger, true, true],
    ["an orchestrator, a stranger's pane", c("orchestrator"), stranger, false, false],
    ["a worker, a pane its parent spawned", c("worker"), child, null, false],
    ["the person, any pane", c("person"), stranger, false, true],
  ] as const)("%s", (_name, caller, p, taskOk, ok) => {
    expect(mayAccessPane(caller, p, taskOk)).toBe(ok);
  });
});
