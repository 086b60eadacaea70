// Persistence for task dependencies (TaskDependency rows) and the auto-start setting on the
// dependent task: the only code that reads or writes them.
import type { z } from "zod";
import type { Db } from "../db";
import type { startWhen } from "../wire/orchestration";

/** A dependency as the scheduler sees it: the task depended on, with what decides "met". */
export interface DependencyRow {
  taskId: string;
  dependsOnId: string;
  state: string;
  disposition: string | null;
  title: string;
}

export type AutoStartWhen = z.infer<typeof startWhen>;

export class DependencyStore {
  constructor(private readonly db: Db) {}

  /** Every edge (dependent → dependency) among the given tasks' repository, for cycle checks. */
  async edgesInRepo(repoPath: string): Promise<Array<{ taskId: string; dependsOnId: string }>> {
    return this.db.taskDependency.findMany({
      where: { task: { repoPath } },
      select: { taskId: true, dependsOnId: true },
    });
  }

  /** What a task waits for, with each dependency's state. */
  async dependenciesOf(taskId: string): Promise<DependencyRow[]> {
    const rows = await this.db.taskDependency.findMany({
      where: { taskId },
      select: {
        taskId: true,
        dependsOnId: true,
        dependsOn: { select: { state: true, disposition: true, title: true } },
      },
      orderBy: { dependsOnId: "asc" },
    });
    return rows.map((r) => ({ taskId: r.taskId, dependsOnId: r.dependsOnId, ...r.dependsOn }));
  }

  /**
   * Dependencies of many tasks at once (any number of tasks). With `projectId` (the board: every
   * task of one project) the edges are selected by the project, one parameter, not by id.
   */
  async dependenciesOfMany(taskIds: string[], projectId?: string): Promise<Map<string, DependencyRow[]>> {
    const out = new Map<string, DependencyRow[]>();
    if (taskIds.length === 0) return out;
    const wanted = new Set(taskIds);
    // No orderBy: Prisma splits a long `in` list over several statements (SQLite caps the
    // parameters of one) only for unordered reads; sorted here instead.
    const rows = await this.db.taskDependency.findMany({
      where: projectId === undefined ? { taskId: { in: taskIds } } : { task: { projectId } },
      select: {
        taskId: true,
        dependsOnId: true,
        dependsOn: { select: { state: true, disposition: true, title: true } },
      },
    });
    rows.sort((a, b) => (a.dependsOnId < b.dependsOnId ? -1 : a.dependsOnId > b.dependsOnId ? 1 : 0));
    for (const r of rows) {
      if (!wanted.has(r.taskId)) continue;
      const list = out.get(r.taskId) ?? [];
      list.push({ taskId: r.taskId, dependsOnId: r.dependsOnId, ...r.dependsOn });
      out.set(r.taskId, list);
    }
    return out;
  }

  /** Backlog tasks waiting on this one (candidates to start when it changes). */
  async waitingDependents(dependsOnId: string): Promise<string[]> {
    const rows = await this.db.taskDependency.findMany({
      where: { dependsOnId, task: { state: "backlog", autoStartWhen: { not: null } } },
      select: { taskId: true },
    });
    return rows.map((r) => r.taskId);
  }

  /** Every backlog task that starts by itself (the sweep after a restart). */
  async autoStartBacklog(): Promise<Array<{ id: string; autoStartWhen: AutoStartWhen }>> {
    const rows = await this.db.task.findMany({
      where: { state: "backlog", autoStartWhen: { not: null } },
      select: { id: true, autoStartWhen: true },
      orderBy: { createdAt: "asc" },
    });
    return rows.map((r) => ({ id: r.id, autoStartWhen: r.autoStartWhen as AutoStartWhen }));
  }

  /** The repository and state of each named task (unknown ids are missing from the map). */
  async tasksByIds(
    ids: string[],
  ): Promise<Map<string, { id: string; title: string; repoPath: string; state: string; disposition: string | null }>> {
    const rows = await this.db.task.findMany({
      where: { id: { in: ids } },
      select: { id: true, title: true, repoPath: true, state: true, disposition: true },
    });
    return new Map(rows.map((r) => [r.id, r]));
  }

  async autoStartWhen(taskId: string): Promise<AutoStartWhen | null> {
    const row = await this.db.task.findUnique({ where: { id: taskId }, select: { autoStartWhen: true } });
    return (row?.autoStartWhen as AutoStartWhen | null | undefined) ?? null;
  }

  /** Adds edges and sets the auto-start rule in one transaction. */
  async add(taskId: string, dependsOn: string[], autoStartWhen: AutoStartWhen | null): Promise<void> {
    await this.db.$transaction([
      ...dependsOn.map((d) =>
        this.db.taskDependency.upsert({
          where: { taskId_dependsOnId: { taskId, dependsOnId: d } },
          create: { taskId, dependsOnId: d },
          update: {},
        }),
      ),
      ...(autoStartWhen ? [this.db.task.update({ where: { id: taskId }, data: { autoStartWhen } })] : []),
    ]);
  }

  async remove(taskId: string, dependsOnId: string): Promise<boolean> {
    const r = await this.db.taskDependency.deleteMany({ where: { taskId, dependsOnId } });
    return r.count > 0;
  }
}
