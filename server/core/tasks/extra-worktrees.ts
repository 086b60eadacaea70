// Extra git worktrees an agent made for its task (`yard task register-worktree PATH`): checked
// against git (a worktree of the task's repository, not its main checkout, on the named branch
// when one is given), recorded per task, and listed on the task page. The task is always the
// caller's own; nothing here takes a task id from the agent.
import { YardError } from "../errors";
import type { EventJournal } from "../events/journal";
import { findWorktree, listWorktrees, validateBranchName } from "../git";
import { newId } from "../ids";
import type { TaskWorktreeRow, TaskWorktreeStore } from "../../stores/task-worktrees";

/** Most extra worktrees one task may register. */
const MAX_EXTRA_WORKTREES = 20;

const shortBranch = (b: string | null) => (b ? b.replace(/^refs\/heads\//, "") : null);

export class ExtraWorktrees {
  constructor(
    private readonly deps: {
      store: TaskWorktreeStore;
      journal: EventJournal;
      task: (taskId: string) => Promise<{ id: string; repoPath: string; worktreePath: string | null }>;
    },
  ) {}

  async register(taskId: string, worktreePath: string, branch: string | null): Promise<TaskWorktreeRow[]> {
    const task = await this.deps.task(taskId);
    if (branch) await validateBranchName(branch);
    const wt = await findWorktree(task.repoPath, worktreePath);
    if (!wt)
      throw new YardError(
        "BAD_PARAMS",
        `${worktreePath} is not a git worktree of ${task.repoPath} (create it with git worktree add first)`,
        { path: worktreePath },
      );
    const main = (await listWorktrees(task.repoPath))[0];
    if (main && main.path === wt.path)
      throw new YardError("BAD_PARAMS", "That is the repository's main checkout, not an extra worktree", {
        path: wt.path,
      });
    if (task.worktreePath && (await findWorktree(task.repoPath, task.worktreePath))?.path === wt.path) {
      throw new YardError("BAD_PARAMS", "That is the task's own worktree; it is listed already", { path: wt.path });
    }
    const actual = shortBranch(wt.branch);
    if (branch && actual !== branch)
      throw new YardError("BAD_PARAMS", `${wt.path} is on ${actual ?? "a detached HEAD"}, not ${branch}`, {
        path: wt.path,
        branch: actual,
      });
    if (
      !(await this.deps.store.has(task.id, wt.path)) &&
      (await this.deps.store.count(task.id)) >= MAX_EXTRA_WORKTREES
    ) {
      throw new YardError("CONFLICT", `A task may register at most ${MAX_EXTRA_WORKTREES} extra worktrees`, {
        cap: MAX_EXTRA_WORKTREES,
      });
    }
    await this.deps.store.register(newId("wtr"), task.id, wt.path, actual);
    await this.deps.journal.append("task.worktree_registered", {
      taskId: task.id,
      payload: { path: wt.path, branch: actual },
    });
    return this.deps.store.list(task.id);
  }

  async list(taskId: string): Promise<TaskWorktreeRow[]> {
    await this.deps.task(taskId); // NOT_FOUND for an unknown task
    return this.deps.store.list(taskId);
  }
}
