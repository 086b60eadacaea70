// Roles: the callers (the person, and panes by their role), the role a task's agent pane gets
// from its profile, and which task or pane a caller may touch. Pure. What each role may call is
// the API's gate table (server/api/roles.ts).
import { callerRole } from "../../wire/orchestration";

export const CALLER_ROLES = callerRole.options;
export type CallerRole = (typeof CALLER_ROLES)[number];
export const PANE_ROLES = ["orchestrator", "worker", "reviewer", "planner"] as const;
export type PaneRole = (typeof PANE_ROLES)[number];

/** A task's agent works the task, unless its profile orchestrates (then it may start and steer tasks in its context). */
export const taskPaneRole = (profileRole: string | null | undefined): PaneRole =>
  profileRole === "orchestrator" ? "orchestrator" : "worker";

/** A process's OS sandbox, with the host's network or without; `null` where one is expected: unsandboxed. */
export interface SandboxOf {
  network: boolean;
}

/** Who is calling, as the gates see it. */
export interface Caller {
  role: CallerRole;
  paneId: string | null;
  /** The task the calling pane belongs to (workers, reviewers, planners, orchestrating tasks). */
  taskId: string | null;
  /** That task's context: an orchestrating task may act on tasks in it. */
  contextId: string | null;
  /** The calling pane runs in the OS sandbox (with network or not); null: it does not (the person, unsandboxed panes). */
  sandbox: SandboxOf | null;
}

export interface TaskForAccess {
  id: string;
  parentPaneId: string | null;
  /** The pane that started the task's root task (subtasks of a plan belong to its orchestrator). */
  rootParentPaneId: string | null;
  contextId: string | null;
}

export interface PaneForAccess {
  id: string;
  taskId: string | null;
  parentPaneId: string | null;
  rootPaneId: string | null;
}

export function mayAccessTask(c: Caller, t: TaskForAccess): boolean {
  if (c.role === "person") return true;
  if (t.id === c.taskId) return true;
  if (c.role !== "orchestrator") return false;
  return (
    (c.paneId !== null && (t.parentPaneId === c.paneId || t.rootParentPaneId === c.paneId)) ||
    (c.contextId !== null && t.contextId === c.contextId)
  );
}

/** `taskOfPane`: the access verdict for the pane's task, when it has one. */
export function mayAccessPane(c: Caller, p: PaneForAccess, taskOfPane: boolean | null): boolean {
  if (c.role === "person" || p.id === c.paneId) return true;
  if (c.role !== "orchestrator") return false;
  return p.parentPaneId === c.paneId || p.rootPaneId === c.paneId || taskOfPane === true;
}

/**
 * Whether the caller may name `contextId` for new work: the new task (and, if it orchestrates,
 * its pane) reaches every task of that context, and every orchestrating task there reaches it.
 * So a pane may name its own task's context, or one every task of which it reaches already (a
 * context nobody uses yet included), never someone else's.
 */
export function mayNameContext(c: Caller, contextId: string, tasksInContext: readonly TaskForAccess[]): boolean {
  if (c.role === "person") return true;
  if (c.contextId !== null && contextId === c.contextId) return true;
  return tasksInContext.every((t) => mayAccessTask(c, t));
}

/** A start's sandbox flag as a caller gives it: a sandboxed caller's start without one runs sandboxed. */
export function startSandboxFlag(c: Pick<Caller, "sandbox">, flag: boolean | undefined): boolean | undefined {
  return flag ?? (c.sandbox ? true : undefined);
}

/**
 * Why the caller may not have `what` done on its behalf when it runs a process with `work`'s
 * sandbox, or null when it may: a sandboxed caller creates only sandboxed work, with no more
 * network than it has itself (its own task's work runs as that task was set up).
 */
export function sandboxRefusal(
  c: Pick<Caller, "role" | "sandbox" | "taskId">,
  work: { sandbox: SandboxOf | null; taskId?: string | null },
  what: string,
): string | null {
  if (!c.sandbox) return null;
  const who = `${/^[aeiou]/.test(c.role) ? "An" : "A"} ${c.role} pane in the OS sandbox`;
  if (!work.sandbox) return `${who} may only create sandboxed work: ${what} would run outside the sandbox`;
  if (work.sandbox.network && !c.sandbox.network && !(work.taskId && work.taskId === c.taskId))
    return `${who} has no network: ${what} would run with the host's network`;
  return null;
}
