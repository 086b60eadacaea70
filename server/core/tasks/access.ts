// The facts the role gates need about a caller and the task or pane it names (the calling pane's
// task context, a task's parent pane and its root task's parent pane, a pane's lineage), and
// `whoami`. Reads only; unknown ids answer null (the procedure itself then says NOT_FOUND).
import { shortGuide } from "../agents/guide";
import {
  type Caller,
  mayAccessPane,
  mayAccessTask,
  mayNameContext,
  type PaneForAccess,
  type PaneRole,
  type SandboxOf,
  type TaskForAccess,
} from "../agents/roles";
import type { z } from "zod";
import type { whoamiReply } from "../../wire/orchestration";
import { YardError } from "../errors";
import type { PaneInfo } from "../panes/manager";
import type { TaskRow } from "../../stores/tasks";

const MAX_LINEAGE = 32;

/**
 * A calling pane as the HTTP edge authenticated it. `sandbox` says whether it runs in the OS
 * sandbox; left out, it is read from the pane's record (sandboxed, network unknown: none).
 */
export interface CallingPane {
  id: string;
  taskId: string | null;
  role: PaneRole;
  sandbox?: SandboxOf | null;
}

/** A task as a list shows it: enough to decide who reaches it. */
type ListedTask = { id: string; parentPaneId: string | null; rootTaskId: string | null; contextId: string | null };

/** Who the caller is, and its task's lineage (`yard whoami`; server/wire/orchestration.ts). */
export type Identity = z.infer<typeof whoamiReply>;

const orNull = async <T>(p: Promise<T>): Promise<T | null> => {
  try {
    return await p;
  } catch (e) {
    if (e instanceof YardError && e.code === "NOT_FOUND") return null;
    throw e;
  }
};

export class AccessLookup {
  constructor(
    private readonly deps: { task: (id: string) => Promise<TaskRow>; pane: (id: string) => Promise<PaneInfo> },
  ) {}

  async caller(pane: CallingPane): Promise<Caller> {
    const own = pane.taskId ? await orNull(this.deps.task(pane.taskId)) : null;
    const sandbox =
      pane.sandbox !== undefined
        ? pane.sandbox
        : (await orNull(this.deps.pane(pane.id)))?.sandboxed === false
          ? null
          : { network: false };
    return { role: pane.role, paneId: pane.id, taskId: pane.taskId, contextId: own?.contextId ?? null, sandbox };
  }

  /**
   * `yard whoami`: the caller's role and pane, and for a task's pane its task, context and
   * lineage (root first); the guide for its role. The person has no pane and no task.
   */
  async whoami(pane: CallingPane | null): Promise<Identity> {
    const role = pane?.role ?? "person";
    const guide = shortGuide(role === "person" ? "orchestrator" : role);
    if (!pane?.taskId) return { role, paneId: pane?.id ?? null, task: null, guide };
    const t = await this.deps.task(pane.taskId);
    const lineage = [t.id];
    let parent = t.parentTaskId;
    while (parent && lineage.length < MAX_LINEAGE) {
      const p = await orNull(this.deps.task(parent));
      if (!p) break;
      lineage.unshift(p.id);
      parent = p.parentTaskId;
    }
    return {
      role,
      paneId: pane.id,
      task: {
        id: t.id,
        title: t.title,
        state: t.state,
        round: t.round,
        contextId: t.contextId,
        parentTaskId: t.parentTaskId,
        rootTaskId: t.rootTaskId,
        parentPaneId: t.parentPaneId,
        lineage,
      },
      guide,
    };
  }

  /** The tasks of a list the calling pane may touch (one caller lookup; roots read once each). */
  async visible<T extends ListedTask>(pane: CallingPane, tasks: T[]): Promise<T[]> {
    return this.reachable(await this.caller(pane), tasks);
  }

  private async reachable<T extends ListedTask>(caller: Caller, tasks: T[]): Promise<T[]> {
    const forAccess = await this.forAccess(tasks);
    return tasks.filter((_, i) => mayAccessTask(caller, forAccess[i]!));
  }

  /** A list's tasks as the access rules read them (each root task read once, from the list when it is in it). */
  private async forAccess(tasks: ListedTask[]): Promise<TaskForAccess[]> {
    const byId = new Map(tasks.map((t) => [t.id, t]));
    const roots = new Map<string, string | null>();
    const out: TaskForAccess[] = [];
    for (const t of tasks) {
      const rootId = t.rootTaskId ?? t.id;
      if (!roots.has(rootId))
        roots.set(
          rootId,
          byId.get(rootId)?.parentPaneId ?? (await orNull(this.deps.task(rootId)))?.parentPaneId ?? null,
        );
      out.push({
        id: t.id,
        parentPaneId: t.parentPaneId,
        rootParentPaneId: roots.get(rootId) ?? null,
        contextId: t.contextId,
      });
    }
    return out;
  }

  /**
   * What one calling pane may touch, answered per task or pane id (each row read once): true,
   * false, or null for an id that does not exist (the procedure then says NOT_FOUND); and per
   * context, whether it may name it for new work (mayNameContext), which needs `tasksInContext`.
   */
  async scope(
    pane: CallingPane,
    opts: { tasksInContext?: (contextId: string) => Promise<ListedTask[]> } = {},
  ): Promise<{
    caller: Caller;
    task(id: string): Promise<boolean | null>;
    pane(id: string): Promise<boolean | null>;
    context(id: string): Promise<boolean>;
  }> {
    const caller = await this.caller(pane);
    const tasks = new Map<string, boolean | null>();
    const panes = new Map<string, boolean | null>();
    const task = async (id: string) => {
      if (!tasks.has(id)) {
        const t = await this.task(id);
        tasks.set(id, t ? mayAccessTask(caller, t) : null);
      }
      return tasks.get(id)!;
    };
    const paneOk = async (id: string) => {
      if (!panes.has(id)) {
        const p = await this.pane(id);
        panes.set(id, p ? mayAccessPane(caller, p, p.taskId ? (await task(p.taskId)) === true : null) : null);
      }
      return panes.get(id)!;
    };
    const context = async (id: string) => {
      if (caller.role === "person" || (caller.contextId !== null && id === caller.contextId)) return true;
      if (!opts.tasksInContext)
        throw new YardError("INTERNAL", "The access lookup was asked about a context without a way to list it");
      return mayNameContext(caller, id, await this.forAccess(await opts.tasksInContext(id)));
    };
    return { caller, task, pane: paneOk, context };
  }

  /** The panes of a list the calling pane may touch (its own, those it spawned, those of tasks it reaches). */
  async visiblePanes<P extends { id: string }>(pane: CallingPane, panes: P[]): Promise<P[]> {
    const scope = await this.scope(pane);
    const out: P[] = [];
    for (const p of panes) if ((await scope.pane(p.id)) === true) out.push(p);
    return out;
  }

  /** The events the calling pane may read: about tasks and panes it may touch (none about anything else). */
  async visibleEvents<E extends { taskId: string | null; paneId: string | null }>(
    pane: CallingPane,
    events: E[],
  ): Promise<E[]> {
    const scope = await this.scope(pane);
    const out: E[] = [];
    for (const e of events) {
      const ok = e.taskId ? await scope.task(e.taskId) : e.paneId ? await scope.pane(e.paneId) : false;
      if (ok === true) out.push(e);
    }
    return out;
  }

  async task(id: string): Promise<TaskForAccess | null> {
    const t = await orNull(this.deps.task(id));
    if (!t) return null;
    const root = t.rootTaskId && t.rootTaskId !== t.id ? await orNull(this.deps.task(t.rootTaskId)) : t;
    return {
      id: t.id,
      parentPaneId: t.parentPaneId,
      rootParentPaneId: root?.parentPaneId ?? null,
      contextId: t.contextId,
    };
  }

  async pane(id: string): Promise<PaneForAccess | null> {
    const p = await orNull(this.deps.pane(id));
    return p ? { id: p.id, taskId: p.taskId, parentPaneId: p.parentPaneId, rootPaneId: p.rootPaneId } : null;
  }
}
