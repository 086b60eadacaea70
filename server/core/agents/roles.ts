// Roles: the callers (the person, and panes by their role), the role a task's agent pane gets
// from its profile, and which task or pane a caller may touch. Pure. What each role may call is
// the API's gate table (server/api/roles.ts).
export const CALLER_ROLES = ["person", "orchestrator", "worker", "reviewer", "planner"] as const;
export type CallerRole = (typeof CALLER_ROLES)[number];
export const PANE_ROLES = ["orchestrator", "worker", "reviewer", "planner"] as const;
export type PaneRole = (typeof PANE_ROLES)[number];

/** A task's agent works the task, unless its profile orchestrates (then it may start and steer tasks in its context). */
export const taskPaneRole = (profileRole: string | null | undefined): PaneRole => (profileRole === "orchestrator" ? "orchestrator" : "worker");

/** Who is calling, as the gates see it. */
export interface Caller {
  role: CallerRole;
  paneId: string | null;
  /** The task the calling pane belongs to (workers, reviewers, planners, orchestrating tasks). */
  taskId: string | null;
  /** That task's context: an orchestrating task may act on tasks in it. */
  contextId: string | null;
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
  return (c.paneId !== null && (t.parentPaneId === c.paneId || t.rootParentPaneId === c.paneId)) || (c.contextId !== null && t.contextId === c.contextId);
}

/** `taskOfPane`: the access verdict for the pane's task, when it has one. */
export function mayAccessPane(c: Caller, p: PaneForAccess, taskOfPane: boolean | null): boolean {
  if (c.role === "person" || p.id === c.paneId) return true;
  if (c.role !== "orchestrator") return false;
  return p.parentPaneId === c.paneId || p.rootPaneId === c.paneId || taskOfPane === true;
}

