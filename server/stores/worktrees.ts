// The reads the worktrees page and the clean-up need (server/core/worktrees/): every task that
// has had a worktree, every extra worktree agents registered, and the finished tasks' branches.
// Read-only; a finished task's cleanup outcome is written through the task store.
import type { Db } from "../db";

/** A task's worktree as the inventory sees it. */
export interface TaskWorktreeFacts {
  id: string;
  title: string;
  state: string;
  disposition: string | null;
  repoPath: string;
  projectId: string | null;
  branch: string | null;
  branchPreexisting: boolean;
  targetBranch: string | null;
  worktreePath: string;
  paneId: string | null;
  agentReviewPaneId: string | null;
  cleanupError: string | null;
  createdAt: Date;
  finishedAt: Date | null;
  updatedAt: Date;
}

export interface ExtraWorktreeFacts {
  taskId: string;
  path: string;
  branch: string | null;
  createdAt: Date;
}

export class WorktreeInventoryStore {
  constructor(private readonly db: Db) {}

  /** Every task that was given a worktree (started tasks), oldest first. */
  async tasks(): Promise<TaskWorktreeFacts[]> {
    const rows = await this.db.task.findMany({
      where: { worktreePath: { not: null } },
      select: {
        id: true,
        title: true,
        state: true,
        disposition: true,
        repoPath: true,
        projectId: true,
        branch: true,
        branchPreexisting: true,
        targetBranch: true,
        worktreePath: true,
        paneId: true,
        agentReviewPaneId: true,
        cleanupError: true,
        createdAt: true,
        finishedAt: true,
        updatedAt: true,
      },
      orderBy: { createdAt: "asc" },
    });
    return rows.map((r) => ({ ...r, worktreePath: r.worktreePath! }));
  }

  /** A task's own worktree and its extra ones (none for a task that has not started). */
  async taskPaths(taskId: string): Promise<string[]> {
    const t = await this.db.task.findUnique({
      where: { id: taskId },
      select: { worktreePath: true, worktrees: { select: { path: true } } },
    });
    if (!t?.worktreePath) return [];
    return [t.worktreePath, ...t.worktrees.map((w) => w.path)];
  }

  /** Every registered extra worktree. */
  extras(): Promise<ExtraWorktreeFacts[]> {
    return this.db.taskWorktree.findMany({
      select: { taskId: true, path: true, branch: true, createdAt: true },
      orderBy: { createdAt: "asc" },
    });
  }
}
