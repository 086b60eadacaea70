import { describe, expect, it } from "vitest";
import { appRouter } from "./router";
import {
  type Caller,
  type CALLER_ROLES,
  GATES,
  mayAccessPane,
  mayAccessTask,
  mayNameContext,
  namedIds,
  personRefusal,
  roleRefusal,
  sandboxRefusal,
  spawnOf,
  startSandboxFlag,
} from "./roles";

const procedures = Object.keys(
  (appRouter as unknown as { _def: { procedures: Record<string, unknown> } })._def.procedures,
).sort();

describe("the role gate table", () => {
  it("has exactly one entry per procedure of the router", () => {
    expect(Object.keys(GATES).sort()).toEqual(procedures);
  });

  it("lets the person call everything", () => {
    for (const p of procedures) expect(roleRefusal(p, "person")).toBeNull();
  });

  it("asks each procedure's person role of people: below it refused, naming the role needed; unlisted ones are an admin's", () => {
    const mia = { id: "usrmia", name: "mia", role: "member" as const };
    expect(personRefusal("tasks.start", mia)).toBeNull();
    expect(personRefusal("tasks.finish", mia)).toBe(
      "mia is a member; tasks.finish needs a reviewer (ask an admin: yard user set mia --role reviewer)",
    );
    expect(personRefusal("no.such", { ...mia, role: "reviewer" })).toMatch(/needs an admin/);
    expect(personRefusal("no.such", { ...mia, role: "admin" })).toBeNull();
    for (const [p, g] of Object.entries(GATES))
      expect([p, ["member", "reviewer", "admin"].includes(g.person)]).toEqual([p, true]);
  });

  it("refuses every pane a procedure it does not list", () => {
    expect(roleRefusal("no.such", "orchestrator")).toMatch(/not open to panes/);
    expect(roleRefusal("no.such", "person")).toBeNull();
  });

  // What every task-bound pane may call: read itself and its thread, ask, register worktrees, post hooks.
  const SELF = [
    "agents.list",
    "hooks.post",
    "panes.get",
    "panes.read",
    "plans.list",
    "reviews.list",
    "reviews.listComments",
    "status",
    "tasks.ask",
    "tasks.get",
    "tasks.ports",
    "tasks.registerWorktree",
    "tasks.rounds",
    "tasks.thread",
    "tasks.worktrees",
    "whoami",
  ];
  // role → procedures it may call (everything else is refused): the whole matrix, spelled out.
  const MAY: Record<Exclude<(typeof CALLER_ROLES)[number], "person">, string[]> = {
    orchestrator: procedures.filter(
      (p) =>
        !/^(server|projects|board|worktrees|templates|people|audit|insights|runners|push|agents\.(add|update|try|tryStatus|remove))\b/.test(
          p,
        ) &&
        p !== "tasks.report" &&
        p !== "tasks.push" &&
        p !== "tasks.pr" &&
        p !== "plans.submit",
    ),
    worker: [...SELF, "tasks.report"],
    reviewer: [
      ...SELF,
      "plans.review",
      "reviews.addComment",
      "reviews.deleteComment",
      "reviews.editComment",
      "reviews.resolveComment",
      "reviews.submit",
      "tasks.diff",
      "tasks.turns",
    ],
    planner: [...SELF, "plans.submit"],
  };
  it.each(Object.entries(MAY))("a %s pane may call exactly its procedures", (role, allowed) => {
    const got = procedures.filter((p) => roleRefusal(p, role as Caller["role"]) === null);
    expect(got).toEqual([...allowed].sort());
  });

  // Every input field that names a parent, a dependency or a context is checked against what the
  // caller reaches, except where it only filters what a pane is shown (filtered by reach anyway).
  const NAMING = ["parentPaneId", "parentTaskId", "contextId", "dependsOn", "on"];
  const FILTERS: Record<string, string[]> = { "tasks.list": ["contextId"], "tasks.wait": ["contextId"] };
  const keysOf = (schema: any): string[] => {
    if (!schema || typeof schema !== "object") return [];
    if (schema.shape && typeof schema.shape === "object") return Object.keys(schema.shape);
    const d = schema._def ?? {};
    return [...keysOf(d.innerType), ...keysOf(d.schema), ...keysOf(d.in)];
  };
  const procDefs = (appRouter as unknown as { _def: { procedures: Record<string, { _def: { inputs: unknown[] } }> } })
    ._def.procedures;
  it.each(procedures)("%s: every id it names in its input is gated", (p) => {
    const fields = procDefs[p]!._def.inputs.flatMap(keysOf).filter((k) => NAMING.includes(k));
    const g = GATES[p]!;
    const gated = [
      g.task,
      g.pane,
      ...(g.names?.tasks ?? []),
      ...(g.names?.panes ?? []),
      ...(g.names?.contexts ?? []),
      ...(FILTERS[p] ?? []),
    ];
    for (const f of fields) expect(gated, `${p}.${f}`).toContain(f);
  });

  it("says which calls may start a process, or type into one, for what", () => {
    expect(spawnOf("panes.spawn", { argv: ["sh"] })).toBe("pane");
    expect(spawnOf("tasks.start", {})).toBe("start");
    for (const p of [
      "tasks.startBacklog",
      "tasks.resume",
      "tasks.depend",
      "tasks.followUp",
      "tasks.answer",
      "tasks.update",
    ])
      expect(spawnOf(p, { id: "tskA" })).toBe("task");
    expect(spawnOf("reviews.submit", { taskId: "tskA", verdict: "request_changes" })).toBe("task");
    expect(spawnOf("reviews.submit", { taskId: "tskA", verdict: "approve" })).toBeNull();
    // Approving starts the subtasks; requesting changes types the notes to the planner.
    expect(spawnOf("plans.review", { taskId: "tskA", verdict: "approve" })).toBe("task");
    expect(spawnOf("plans.review", { taskId: "tskA", verdict: "request_changes" })).toBe("task");
    expect(spawnOf("tasks.agentReview", { id: "tskA", action: "rerun" })).toBe("task");
    expect(spawnOf("tasks.agentReview", { id: "tskA", action: "skip" })).toBeNull();
    for (const p of ["panes.submit", "panes.sendKeys"]) expect(spawnOf(p, { id: "paneA" })).toBe("typed");
    for (const p of ["tasks.cancel", "panes.kill", "panes.resize", "tasks.get"])
      expect(spawnOf(p, { id: "tskA" })).toBeNull();
    // A process on a caller's behalf starts, or is typed to, only through the calls that say so.
    expect(procedures.filter((p) => GATES[p]!.spawns).sort()).toEqual([
      "panes.sendKeys",
      "panes.spawn",
      "panes.submit",
      "plans.review",
      "reviews.submit",
      "tasks.agentReview",
      "tasks.answer",
      "tasks.depend",
      "tasks.followUp",
      "tasks.resume",
      "tasks.start",
      "tasks.startBacklog",
      "tasks.update",
    ]);
  });

  it("checks a comment's task for the calls that name a comment", () => {
    expect(procedures.filter((p) => GATES[p]!.comment).sort()).toEqual([
      "reviews.deleteComment",
      "reviews.editComment",
      "reviews.resolveComment",
    ]);
  });

  it("reads the ids an input names, one or a list", () => {
    expect(namedIds({ parentPaneId: "paneA" }, "parentPaneId")).toEqual(["paneA"]);
    expect(namedIds({ dependsOn: ["tskA", 3, "tskB"] }, "dependsOn")).toEqual(["tskA", "tskB"]);
    expect(namedIds({}, "dependsOn")).toEqual([]);
    expect(namedIds(null, "x")).toEqual([]);
  });
});

describe("the sandbox follows the caller", () => {
  const caller = (sandbox: Caller["sandbox"], taskId: string | null = "tskO"): Caller => ({
    role: "orchestrator",
    paneId: "paneO",
    taskId,
    contextId: null,
    sandbox,
  });
  const off = caller(null);
  const noNet = caller({ network: false });
  const net = caller({ network: true });
  it.each([
    ["an unsandboxed caller, unsandboxed work", off, null, null, true],
    ["an unsandboxed caller, sandboxed work with network", off, { network: true }, null, true],
    ["a sandboxed caller, unsandboxed work", noNet, null, null, false],
    ["a sandboxed caller, sandboxed work", noNet, { network: false }, null, true],
    ["a sandboxed caller without network, work with network", noNet, { network: true }, null, false],
    ["a sandboxed caller without network, its own task's work with network", noNet, { network: true }, "tskO", true],
    ["a sandboxed caller with network, work with network", net, { network: true }, null, true],
    ["a sandboxed caller with network, unsandboxed work", net, null, null, false],
  ] as const)("%s", (_name, c, sandbox, taskId, ok) => {
    const why = sandboxRefusal(c, { sandbox, taskId }, "the work");
    expect(why === null).toBe(ok);
    if (!ok)
      expect(why).toMatch(/^An orchestrator pane in the OS sandbox (may only create sandboxed work|has no network)/);
  });

  it("a sandboxed caller's start without a flag runs sandboxed; a flag it gives stays (and is then refused or not)", () => {
    expect(startSandboxFlag(noNet, undefined)).toBe(true);
    expect(startSandboxFlag(noNet, false)).toBe(false);
    expect(startSandboxFlag(off, undefined)).toBeUndefined();
    expect(startSandboxFlag(off, false)).toBe(false);
  });
});

describe("which context a caller may name for new work", () => {
  const c = (extra: Partial<Caller> = {}): Caller => ({
    role: "orchestrator",
    paneId: "paneO",
    taskId: null,
    contextId: null,
    sandbox: null,
    ...extra,
  });
  const mine = { id: "tskM", parentPaneId: "paneO", rootParentPaneId: "paneO", contextId: "ctxM" };
  const foreign = { id: "tskF", parentPaneId: "paneX", rootParentPaneId: "paneX", contextId: "ctxM" };
  it.each([
    ["the person, any context", { role: "person" as const, paneId: null }, "ctxM", [mine, foreign], true],
    ["a context nobody uses yet", {}, "ctxNew", [], true],
    ["a context holding only its own tasks", {}, "ctxM", [mine], true],
    ["a context holding someone else's task", {}, "ctxM", [mine, foreign], false],
    [
      "its own task's context, whoever else is in it",
      { taskId: "tskZ", contextId: "ctxM" },
      "ctxM",
      [mine, foreign],
      true,
    ],
    ["another context than its own task's", { taskId: "tskZ", contextId: "ctxZ" }, "ctxM", [foreign], false],
  ] as const)("%s", (_name, extra, ctx, tasks, ok) => {
    expect(mayNameContext(c(extra), ctx, tasks)).toBe(ok);
  });
});

describe("which task a caller may touch", () => {
  const task = { id: "tskA", parentPaneId: "paneO", rootParentPaneId: "paneO", contextId: "ctx1" };
  const sub = { id: "tskS", parentPaneId: null, rootParentPaneId: "paneO", contextId: null };
  const other = { id: "tskB", parentPaneId: "paneX", rootParentPaneId: "paneX", contextId: "ctx2" };
  const c = (role: Caller["role"], extra: Partial<Caller> = {}): Caller => ({
    role,
    paneId: "paneO",
    taskId: null,
    contextId: null,
    sandbox: null,
    ...extra,
  });
  it.each([
    ["the person, any task", c("person", { paneId: null }), other, true],
    ["an orchestrator, a task it started", c("orchestrator"), task, true],
    ["an orchestrator, a subtask of a task it started", c("orchestrator"), sub, true],
    ["an orchestrator, someone else's task", c("orchestrator"), other, false],
    [
      "an orchestrating task, a task in its context",
      c("orchestrator", { paneId: "paneZ", taskId: "tskZ", contextId: "ctx2" }),
      other,
      true,
    ],
    ["an orchestrator, its own task", c("orchestrator", { paneId: "paneZ", taskId: "tskB" }), other, true],
    ["a worker, its own task", c("worker", { paneId: "paneW", taskId: "tskA" }), task, true],
    ["a worker, a task its parent started", c("worker", { paneId: "paneW", taskId: "tskS" }), task, false],
    [
      "a worker with a context, another task in it",
      c("worker", { paneId: "paneW", taskId: "tskZ", contextId: "ctx1" }),
      task,
      false,
    ],
    ["a reviewer, the task it reviews", c("reviewer", { paneId: "paneR", taskId: "tskA" }), task, true],
    ["a reviewer, another task", c("reviewer", { paneId: "paneR", taskId: "tskA" }), other, false],
  ] as const)("%s: %s", (_name, caller, t, ok) => {
    expect(mayAccessTask(caller, t)).toBe(ok);
  });
});

describe("which pane a caller may touch", () => {
  const c = (role: Caller["role"]): Caller => ({ role, paneId: "paneO", taskId: null, contextId: null, sandbox: null });
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
