// Role gates: what each kind of caller may call, as one table checked for every procedure (and
// socket event), naming the input field that says which task or pane a call touches (the scope
// rules are core/agents/roles.ts). Pure; the tRPC middleware in trpc.ts applies it.
//
// Callers: `person` (the install token, a person's CLI token or a browser session), who may call
// what their role reaches (`person` in each entry: member < reviewer < admin; a procedure missing
// from the table needs an admin), and pane tokens by the pane's role: `orchestrator` (a pane the user started, or a task whose profile orchestrates:
// starts, steers and finishes tasks it started, their subtasks and its context), `worker` (a
// task's agent: its own task and pane), `reviewer` (reads a task and its diff, writes reviews),
// `planner` (reads its task, writes plans). A procedure missing from the table is refused to
// every pane (tests/roles.test.ts checks the table covers the router exactly).

import { CALLER_ROLES, type CallerRole } from "../core/agents/roles";
import { roleAtLeast, type Person, type PersonRole } from "../core/people/people";

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
  /** The least a person's role must be to call it (member < reviewer < admin). */
  person: PersonRole;
  /** Which callers may call it: the person, and panes by role. */
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
  status: { person: "member", roles: ALL },
  "server.stop": { person: "admin", roles: P },
  "projects.add": { person: "admin", roles: P },
  "projects.list": { person: "member", roles: P },
  "projects.get": { person: "member", roles: P },
  "projects.remove": { person: "admin", roles: P },
  "projects.refs": { person: "member", roles: P },
  "projects.update": { person: "admin", roles: P },
  "projects.repoConfig": { person: "admin", roles: P },
  // The project's GitHub token (write-only), and where pull requests get theirs.
  "projects.github": { person: "admin", roles: P },
  "projects.setGithubToken": { person: "admin", roles: P },
  // Where a project's notices go (and the key that signs them), and how their deliveries went.
  "projects.setWebhook": { person: "admin", roles: P },
  "projects.deliveries": { person: "admin", roles: P },
  "board.get": { person: "member", roles: P },
  "board.done": { person: "member", roles: P },
  // Runners: the machines agents run on (their keys, their trust).
  "runners.list": { person: "admin", roles: P },
  "runners.get": { person: "admin", roles: P },
  "runners.add": { person: "admin", roles: P },
  "runners.remove": { person: "admin", roles: P },
  "runners.check": { person: "admin", roles: P },
  "runners.trust": { person: "admin", roles: P },
  "runners.install": { person: "admin", roles: P },
  "panes.spawn": { person: "member", roles: PO, names: { panes: ["parentPaneId"] }, spawns: { kind: "pane" } },
  "panes.list": { person: "member", roles: PO },
  "panes.get": { person: "member", roles: ALL, pane: "id" },
  "panes.read": { person: "member", roles: ALL, pane: "id" },
  "panes.submit": { person: "member", roles: PO, pane: "id", spawns: { kind: "typed" } },
  "panes.sendKeys": { person: "member", roles: PO, pane: "id", spawns: { kind: "typed" } },
  "panes.resize": { person: "member", roles: PO, pane: "id" },
  "panes.kill": { person: "member", roles: PO, pane: "id" },
  "panes.markSeen": { person: "member", roles: PO, pane: "id" },
  "panes.attention": { person: "member", roles: PO },
  "tasks.start": {
    person: "member",
    roles: PO,
    names: { tasks: ["parentTaskId", "dependsOn"], panes: ["parentPaneId"], contexts: ["contextId"] },
    spawns: { kind: "start" },
  },
  "tasks.startBacklog": { person: "member", roles: PO, task: "id", spawns: { kind: "task" } },
  "tasks.get": { person: "member", roles: ALL, task: "id" },
  "tasks.list": { person: "member", roles: PO },
  "tasks.wait": { person: "member", roles: PO, task: "id" },
  "tasks.report": { person: "member", roles: ["person", "worker"], task: "taskId" },
  "tasks.followUp": { person: "member", roles: PO, task: "id", spawns: { kind: "task" } },
  "tasks.diff": { person: "member", roles: REVIEW_WRITERS, task: "id" },
  "tasks.turns": { person: "member", roles: REVIEW_WRITERS, task: "id" },
  "tasks.revertPreview": { person: "member", roles: PO, task: "id" },
  // Rewrites the worktree's files (from its own snapshots); never the branch, never a process.
  "tasks.revertTurn": { person: "member", roles: PO, task: "id" },
  "tasks.rounds": { person: "member", roles: ALL, task: "id" },
  "tasks.cancel": { person: "reviewer", roles: PO, task: "id" },
  "tasks.resume": { person: "member", roles: PO, task: "id", spawns: { kind: "task" } },
  "tasks.finish": { person: "reviewer", roles: PO, task: "id" },
  // Conflicts become a round typed to the task's agent.
  "tasks.update": { person: "member", roles: PO, task: "id", spawns: { kind: "task" } },
  "tasks.uncommitted": { person: "member", roles: PO, task: "id" },
  "tasks.events": { person: "member", roles: PO, task: "id" },
  // Push and pull requests act with the person's own git credentials and GitHub token: the person's only.
  "tasks.push": { person: "reviewer", roles: P, task: "id" },
  "tasks.pr": { person: "reviewer", roles: P, task: "id" },
  "tasks.handoff": { person: "member", roles: PO, task: "id" },
  // A task whose last unmet dependency goes (or that depends only on met ones) starts by itself.
  "tasks.depend": { person: "member", roles: PO, task: "id", names: { tasks: ["on"] }, spawns: { kind: "task" } },
  "tasks.ask": { person: "member", roles: TASK_PANES },
  "tasks.answer": { person: "member", roles: PO, task: "id", spawns: { kind: "task" } },
  "tasks.ack": { person: "member", roles: PO, task: "id" },
  "tasks.agentReview": {
    person: "reviewer",
    roles: PO,
    task: "id",
    spawns: { kind: "task", when: (i) => i.action === "rerun" },
  },
  "tasks.thread": { person: "member", roles: ALL, task: "id" },
  "tasks.registerWorktree": { person: "member", roles: TASK_PANES },
  "tasks.worktrees": { person: "member", roles: ALL, task: "id" },
  "tasks.ports": { person: "member", roles: ALL, task: "id" },
  whoami: { person: "member", roles: ALL },
  "plans.submit": { person: "member", roles: ["person", "planner"], task: "taskId" },
  "plans.list": { person: "member", roles: ALL, task: "id" },
  // An approved plan's subtasks start by themselves (sandboxed as their parent).
  "plans.review": { person: "reviewer", roles: REVIEW_WRITERS, task: "taskId", spawns: { kind: "task" } },
  "reviews.addComment": { person: "member", roles: REVIEW_WRITERS, task: "taskId" },
  "reviews.editComment": { person: "member", roles: REVIEW_WRITERS, comment: "id" },
  "reviews.resolveComment": { person: "member", roles: REVIEW_WRITERS, comment: "id" },
  "reviews.deleteComment": { person: "member", roles: REVIEW_WRITERS, comment: "id" },
  "reviews.listComments": { person: "member", roles: ALL, task: "taskId" },
  // Approving and requesting changes are a reviewer's (a member comments). Changes requested start
  // the next round, in a fresh pane when the agent's has exited.
  "reviews.submit": {
    person: "reviewer",
    roles: REVIEW_WRITERS,
    task: "taskId",
    spawns: { kind: "task", when: (i) => i.verdict === "request_changes" },
  },
  "reviews.list": { person: "member", roles: ALL, task: "taskId" },
  "hooks.post": { person: "member", roles: ALL, pane: "paneId" },
  "events.list": { person: "member", roles: PO },
  "agents.list": { person: "member", roles: ALL },
  "agents.add": { person: "admin", roles: P },
  "agents.update": { person: "admin", roles: P },
  "agents.try": { person: "admin", roles: P },
  "agents.tryStatus": { person: "admin", roles: P },
  "agents.remove": { person: "admin", roles: P },
  "worktrees.list": { person: "member", roles: P },
  "worktrees.usage": { person: "member", roles: P },
  "worktrees.measure": { person: "member", roles: P },
  "worktrees.setBudget": { person: "admin", roles: P },
  "worktrees.gc": { person: "admin", roles: P },
  "templates.add": { person: "member", roles: P },
  "templates.list": { person: "member", roles: P },
  "templates.remove": { person: "member", roles: P },
  // People and their tokens: an admin's, except one's own tokens (the service checks whose).
  "people.list": { person: "admin", roles: P },
  "people.add": { person: "admin", roles: P },
  "people.invite": { person: "admin", roles: P },
  "people.setRole": { person: "admin", roles: P },
  "people.remove": { person: "admin", roles: P },
  "people.tokens": { person: "member", roles: P },
  "people.createToken": { person: "member", roles: P },
  "people.revokeToken": { person: "member", roles: P },
  "audit.list": { person: "member", roles: P },
  "insights.get": { person: "member", roles: P },
  // Web Push: each person's own browsers (a pane is no person to notify).
  "push.key": { person: "member", roles: P },
  "push.subscribe": { person: "member", roles: P },
  "push.unsubscribe": { person: "member", roles: P },
  "push.list": { person: "member", roles: P },
};

/** Why a person may not call a procedure (their role is below the one it needs), or null when they may. */
export function personRefusal(path: string, person: Person): string | null {
  const needed = GATES[path]?.person ?? "admin";
  return roleAtLeast(person.role, needed)
    ? null
    : `${person.name} is ${/^[aeiou]/.test(person.role) ? "an" : "a"} ${person.role}; ${path} needs ${/^[aeiou]/.test(needed) ? "an" : "a"} ${needed} (ask an admin: yard user set ${person.name} --role ${needed})`;
}

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
