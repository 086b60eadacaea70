// Persistence for the extra git worktrees an agent registered for its task (TaskWorktree rows):
// the only code that reads or writes them.
import type { Db } from "../db";

export interface TaskWorktreeRow {
  path: string;
  branch: string | null;
  createdAt: Date;
}

export class TaskWorktreeStore {
  constructor(private readonly db: Db) {}

  /** Records (or updates the branch of) one worktree; at most `cap` per task. */
  async register(id: string, taskId: string, path: string, branch: string | null): Promise<void> {
    await this.db.taskWorktree.upsert({
      where: { taskId_path: { taskId, path } },
      create: { id, taskId, path, branch },
      update: { branch },
    });
  }

  async count(taskId: string): Promise<number> {
    return this.db.taskWorktree.count({ where: { taskId } });
  }

  async has(taskId: string, path: string): Promise<boolean> {
    return (await this.db.taskWorktree.count({ where: { taskId, path } })) > 0;
  }

  async list(taskId: string): Promise<TaskWorktreeRow[]> {
    return this.db.taskWorktree.findMany({
      where: { taskId },
      select: { path: true, branch: true, createdAt: true },
      orderBy: { createdAt: "asc" },
    });
  }
}
