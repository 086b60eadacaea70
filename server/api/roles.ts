// Role gates: what each kind of caller may call, as one table checked for every procedure (and
// socket event), naming the input field that says which task or pane a call touches (the scope
// rules are core/agents/roles.ts). Pure; the tRPC middleware in trpc.ts applies it.
//
// Callers: `person` (the install token or a browser session: everything), and pane tokens by
// the pane's role: `orchestrator` (a pane the user started, or a task whose profile orchestrates:
// starts, steers and finishes tasks it started, their subtasks and its context), `worker` (a
// task's agent: its own task and pane), `reviewer` (reads a task and its diff, writes reviews),
// `planner` (reads its task, writes plans). A procedure missing from the table is refused to
// every pane (tests/roles.test.ts checks the table covers the router exactly).

import { CALLER_ROLES, type CallerRole } from "../core/agents/roles";

export {
  CALLER_ROLES,
  type CallerRole,
  mayAccessPane,
  mayAccessTask,
  mayNameContext,
  sandboxRefusal,
  startSandboxFlag,
  type Caller,
} from "../core/agents/roles";

/**
 * What a call may start a process for, as the sandbox rule reads it (a sandboxed caller creates
 * only sandboxed work, with no more network than it has):
 *   "pane"  a bare pane (no worktree to sandbox into): refused to a sandboxed caller;
 *   "start" a new task: the start itself runs it sandboxed for a sandboxed caller, or refuses;
 *   "task"  the agent (or its reviewer) of the task the `task` field names, started or typed to:
 *           a sandboxed caller needs that task to run sandboxed;
 *   "typed" input for the program of the pane the `pane` field names (typing into a program is
 *           running code there): a sandboxed caller needs that pane to run sandboxed.
 */
export type SpawnKind = "pane" | "start" | "task" | "typed";

export interface Gate {
  roles: readonly CallerRole[];
  /** The input field naming the task the call acts on (checked with mayAccessTask). */
  task?: string;
  /** The input field naming the pane the call acts on (checked with mayAccessPane). */
  pane?: string;
  /** The input field naming a review comment: the caller must reach the comment's task. */
  comment?: string;
  /** Other input fields naming tasks (an id or a list of ids: a parent, dependencies): each must be one the caller reaches. */
  names?: { tasks?: readonly string[]; panes?: readonly string[]; contexts?: readonly string[] };
  /** The call may start a process (see SpawnKind); `when` narrows it to the inputs that do. */
  spawns?: { kind: SpawnKind; when?: (input: Record<string, unknown>) => boolean };
}

const P = ["person"] as const;
const PO = ["person", "orchestrator"] as const;
const ALL = CALLER_ROLES;
const REVIEW_WRITERS = ["person", "orchestrator", "reviewer"] as const;
/** Any pane that belongs to a task (the task is the caller's own, never named in the input). */
const TASK_PANES = ["person", "orchestrator", "worker", "reviewer", "planner"] as const;

export const GATES: Record<string, Gate> = {
  status: { roles: ALL },
  "server.stop": { roles: P },
  "projects.add": { roles: P },
  "projects.list": { roles: P },
  "projects.get": { roles: P },
  "projects.remove": { roles: P },
  "projects.refs": { roles: P },
  "projects.update": { roles: P },
  "projects.repoConfig": { roles: P },
  // The project's GitHub token (write-only), and where pull requests get theirs.
  "projects.github": { roles: P },
  "projects.setGithubToken": { roles: P },
  "board.get": { roles: P },
  "panes.spawn": { roles: PO, names: { panes: ["parentPaneId"] }, spawns: { kind: "pane" } },
  "panes.list": { roles: PO },
  "panes.get": { roles: ALL, pane: "id" },
  "panes.read": { roles: ALL, pane: "id" },
  "panes.submit": { roles: PO, pane: "id", spawns: { kind: "typed" } },
  "panes.sendKeys": { roles: PO, pane: "id", spawns: { kind: "typed" } },
  "panes.resize": { roles: PO, pane: "id" },
  "panes.kill": { roles: PO, pane: "id" },
  "panes.markSeen": { roles: PO, pane: "id" },
  "panes.attention": { roles: PO },
  "tasks.start": {
    roles: PO,
    names: { tasks: ["parentTaskId", "dependsOn"], panes: ["parentPaneId"], contexts: ["contextId"] },
    spawns: { kind: "start" },
  },
  "tasks.startBacklog": { roles: PO, task: "id", spawns: { kind: "task" } },
  "tasks.get": { roles: ALL, task: "id" },
  "tasks.list": { roles: PO },
  "tasks.wait": { roles: PO, task: "id" },
  "tasks.report": { roles: ["person", "worker"], task: "taskId" },
  "tasks.followUp": { roles: PO, task: "id", spawns: { kind: "task" } },
  "tasks.diff": { roles: REVIEW_WRITERS, task: "id" },
  "tasks.turns": { roles: REVIEW_WRITERS, task: "id" },
  "tasks.revertPreview": { roles: PO, task: "id" },
  // Rewrites the worktree's files (from its own snapshots); never the branch, never a process.
  "tasks.revertTurn": { roles: PO, task: "id" },
  "tasks.rounds": { roles: ALL, task: "id" },
  "tasks.cancel": { roles: PO, task: "id" },
  "tasks.resume": { roles: PO, task: "id", spawns: { kind: "task" } },
  "tasks.finish": { roles: PO, task: "id" },
  // Conflicts become a round typed to the task's agent.
  "tasks.update": { roles: PO, task: "id", spawns: { kind: "task" } },
  "tasks.uncommitted": { roles: PO, task: "id" },
  "tasks.events": { roles: PO, task: "id" },
  // Push and pull requests act with the person's own git credentials and GitHub token: the person's only.
  "tasks.push": { roles: P, task: "id" },
  "tasks.pr": { roles: P, task: "id" },
  "tasks.handoff": { roles: PO, task: "id" },
  // A task whose last unmet dependency goes (or that depends only on met ones) starts by itself.
  "tasks.depend": { roles: PO, task: "id", names: { tasks: ["on"] }, spawns: { kind: "task" } },
  "tasks.ask": { roles: TASK_PANES },
  "tasks.answer": { roles: PO, task: "id", spawns: { kind: "task" } },
  "tasks.ack": { roles: PO, task: "id" },
  "tasks.agentReview": { roles: PO, task: "id", spawns: { kind: "task", when: (i) => i.action === "rerun" } },
  "tasks.thread": { roles: ALL, task: "id" },
  "tasks.registerWorktree": { roles: TASK_PANES },
  "tasks.worktrees": { roles: ALL, task: "id" },
  "tasks.ports": { roles: ALL, task: "id" },
  whoami: { roles: ALL },
  "plans.submit": { roles: ["person", "planner"], task: "taskId" },
  "plans.list": { roles: ALL, task: "id" },
  // An approved plan's subtasks start by themselves (sandboxed as their parent).
  "plans.review": { roles: REVIEW_WRITERS, task: "taskId", spawns: { kind: "task" } },
  "reviews.addComment": { roles: REVIEW_WRITERS, task: "taskId" },
  "reviews.editComment": { roles: REVIEW_WRITERS, comment: "id" },
  "reviews.resolveComment": { roles: REVIEW_WRITERS, comment: "id" },
  "reviews.deleteComment": { roles: REVIEW_WRITERS, comment: "id" },
  "reviews.listComments": { roles: ALL, task: "taskId" },
  // Changes requested start the next round, in a fresh pane when the agent's has exited.
  "reviews.submit": {
    roles: REVIEW_WRITERS,
    task: "taskId",
    spawns: { kind: "task", when: (i) => i.verdict === "request_changes" },
  },
  "reviews.list": { roles: ALL, task: "taskId" },
  "hooks.post": { roles: ALL, pane: "paneId" },
  "events.list": { roles: PO },
  "agents.list": { roles: ALL },
  "agents.add": { roles: P },
  "agents.update": { roles: P },
  "agents.try": { roles: P },
  "agents.tryStatus": { roles: P },
  "agents.remove": { roles: P },
  "worktrees.list": { roles: P },
  "worktrees.usage": { roles: P },
  "worktrees.measure": { roles: P },
  "worktrees.setBudget": { roles: P },
  "worktrees.gc": { roles: P },
  "templates.add": { roles: P },
  "templates.list": { roles: P },
  "templates.remove": { roles: P },
};

/** Why a role may not call a procedure, or null when it may. */
export function roleRefusal(path: string, role: CallerRole): string | null {
  const gate = GATES[path];
  if (!gate) return role === "person" ? null : `${path} is not open to panes`;
  return gate.roles.includes(role)
    ? null
    : `${/^[aeiou]/.test(role) ? "An" : "A"} ${role} pane may not call ${path} (open to: ${gate.roles.join(", ")})`;
}

/** What the call with this input may start a process for (see SpawnKind), or null when it starts none. */
export function spawnOf(path: string, input: unknown): SpawnKind | null {
  const spawns = GATES[path]?.spawns;
  if (!spawns) return null;
  const fields = input && typeof input === "object" ? (input as Record<string, unknown>) : {};
  return !spawns.when || spawns.when(fields) ? spawns.kind : null;
}

/** The ids an input names in `field`: one string, or the strings of a list. */
export function namedIds(input: unknown, field: string): string[] {
  const v = input && typeof input === "object" ? (input as Record<string, unknown>)[field] : undefined;
  if (typeof v === "string") return [v];
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : [];
}
