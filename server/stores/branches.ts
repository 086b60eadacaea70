// Persistence for keeping task branches current and landing them: how far each branch is behind
// its target (TaskBehind, counted by core/tasks/behind.ts), an update in flight (its JSON note),
// the base an update moves, and how a merged task landed (its strategy). The Task columns read
// and written here are this concern's own.
import type { Db } from "../db";

export type BehindRow = NonNullable<Awaited<ReturnType<Db["taskBehind"]["findUnique"]>>>;

/** A started, unfinished task's branch and target: what a behind count reads. */
export interface BranchRow {
  id: string;
  repoPath: string;
  branch: string | null;
  targetBranch: string | null;
}

export class BranchStore {
  constructor(private readonly db: Db) {}

  /** The stored counts of these tasks (absent: never counted). */
  async behindMany(taskIds: readonly string[]): Promise<Map<string, BehindRow>> {
    if (!taskIds.length) return new Map();
    const rows = await this.db.taskBehind.findMany({ where: { taskId: { in: [...taskIds] } } });
    return new Map(rows.map((r) => [r.taskId, r]));
  }

  behind(taskId: string): Promise<BehindRow | null> {
    return this.db.taskBehind.findUnique({ where: { taskId } });
  }

  async saveBehind(taskId: string, b: Omit<BehindRow, "taskId">): Promise<void> {
    await this.db.taskBehind.upsert({ where: { taskId }, create: { taskId, ...b }, update: b });
  }

  /** What a behind count and an update's settling read of one task (null: no such task). */
  branchRow(taskId: string): Promise<(BranchRow & { disposition: string | null }) | null> {
    return this.db.task.findUnique({
      where: { id: taskId },
      select: { id: true, repoPath: true, branch: true, targetBranch: true, disposition: true },
    });
  }

  /** Started tasks not merged or discarded yet (optionally of one repository), oldest first. */
  unfinished(repoPath?: string): Promise<BranchRow[]> {
    return this.db.task.findMany({
      where: { worktreePath: { not: null }, disposition: null, ...(repoPath ? { repoPath } : {}) },
      select: { id: true, repoPath: true, branch: true, targetBranch: true },
      orderBy: { createdAt: "asc" },
    });
  }

  async updateInFlight(taskId: string): Promise<string | null> {
    return (
      (await this.db.task.findUnique({ where: { id: taskId }, select: { updateInFlight: true } }))?.updateInFlight ??
      null
    );
  }

  /** Records (JSON) or clears the update in flight. */
  async setUpdateInFlight(taskId: string, value: string | null): Promise<void> {
    await this.db.task.update({ where: { id: taskId }, data: { updateInFlight: value } });
  }

  /** Tasks with an update in flight: ids. */
  async updatesInFlight(): Promise<string[]> {
    const rows = await this.db.task.findMany({ where: { updateInFlight: { not: null } }, select: { id: true } });
    return rows.map((r) => r.id);
  }

  /** The task's changes are counted from `baseSha` from now on (an update moved it). */
  async moveBase(taskId: string, baseSha: string): Promise<void> {
    await this.db.task.update({ where: { id: taskId }, data: { baseSha } });
  }

  /** How a merge landed: its strategy, and for a squash or rebase the target's commit it landed on as the new base. */
  async recordLanding(taskId: string, l: { strategy: string; baseSha: string | null }): Promise<void> {
    await this.db.task.update({
      where: { id: taskId },
      data: { mergeStrategy: l.strategy, ...(l.baseSha ? { baseSha: l.baseSha } : {}) },
    });
  }
}
