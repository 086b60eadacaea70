// Finishing a task, once: merge (a completed task's branch into its target) or discard (stop the
// agent, remove the worktree), a repeated finish that only retries cleanup, and tidying a removed
// worktree's leftovers on disk. The disposition is the reducer's (`merged`, `discarded`).
import { rm } from "node:fs/promises";
import path from "node:path";
import { YardError } from "../errors";
import { discardWorktree, findWorktree, mergeTask } from "../git";
import { rmdirUpTo } from "../git/paths";
import type { TaskRow } from "../../stores/tasks";
import { apply, type TaskContext, taskRow } from "./context";
import { type TaskState, transition } from "./state";
import { get } from "./views";

export type FinishOptions = { merge?: { target?: string; keepBranch?: boolean; ignoreDirty?: boolean }; discard?: { deleteBranch?: boolean } };

export async function finish(ctx: TaskContext, taskId: string, opts: FinishOptions) {
  // While a finish runs, a diff that trips over the worktree being removed answers CONFLICT, not a git error.
  ctx.finishing.add(taskId);
  try {
    return await finishNow(ctx, taskId, opts);
  } finally {
    ctx.finishing.delete(taskId);
  }
}

async function finishNow(ctx: TaskContext, taskId: string, opts: FinishOptions) {
  const { deps, store } = ctx;
  if (!opts.merge === !opts.discard) throw new YardError("BAD_PARAMS", "Finish with exactly one of --merge or --discard");
  const t = await taskRow(ctx, taskId);
  if (!t.worktreePath || !t.branch) throw new YardError("CONFLICT", "The task has no worktree to finish");
  const worktreeExists = Boolean(await findWorktree(t.repoPath, t.worktreePath));

  if (t.disposition) {
    // A second finish only retries cleanup, and only while there is something left to clean.
    if (!worktreeExists) throw new YardError("CONFLICT", `The task is already ${t.disposition} and cleaned up`, { disposition: t.disposition });
    const cleanup = await discardWorktree({ repoRoot: t.repoPath, worktreePath: t.worktreePath, branch: t.branch, branchPreexisting: t.branchPreexisting, deleteBranch: false });
    await tidyWorktreeDir(ctx, t);
    await store.setCleanupError(taskId, cleanup.error ?? null);
    await deps.journal.append("task.cleanup", { taskId, payload: { ...cleanup } });
    return { task: await get(ctx, taskId), cleanup: { ok: !cleanup.error, ...cleanup } };
  }

  if (opts.merge) {
    transition(t.state as TaskState, { type: "merged" }); // TASK_NOT_COMPLETED before git is touched
    const target = opts.merge.target ?? t.targetBranch;
    if (!target) throw new YardError("BAD_PARAMS", "The task has no recorded target branch (the repository was on a detached HEAD): pass --target BRANCH", { expected: null });
    let res;
    try {
      res = await mergeTask({
        repoRoot: t.repoPath,
        worktreePath: t.worktreePath,
        branch: t.branch,
        targetBranch: target,
        branchPreexisting: t.branchPreexisting,
        ignoreDirty: opts.merge.ignoreDirty,
        keepBranch: opts.merge.keepBranch,
        message: `Merge ${t.branch}: ${t.title}`,
      });
    } catch (e) {
      if (e instanceof YardError) {
        await deps.journal.append("task.merge_failed", { taskId, payload: { code: e.code, message: e.message, details: e.details ?? null } });
      }
      throw e;
    }
    if (res.cleanup.worktreeRemoved) await tidyWorktreeDir(ctx, t);
    await apply(ctx, taskId, { type: "merged" }, { finished: { mergeCommit: res.mergeCommit, cleanupError: res.cleanup.ok ? null : (res.cleanup.error ?? "cleanup failed") } });
    await deps.journal.append("task.finished", { taskId, payload: { disposition: "merged", mergeCommit: res.mergeCommit, target, cleanup: res.cleanup } });
    return { task: await get(ctx, taskId), merge: { mergeCommit: res.mergeCommit, alreadyUpToDate: res.alreadyUpToDate, target }, cleanup: res.cleanup };
  }

  // Discard: the task is recorded discarded (canceled when it still ran) before its worker is
  // stopped, so the pane's exit is not mistaken for a crash; then only its worktree is removed.
  ctx.runners.get(taskId)?.ac.abort();
  await apply(ctx, taskId, { type: "discarded" });
  if (t.paneId && deps.panes.isLive(t.paneId)) await deps.panes.kill(t.paneId);
  const cleanup = await discardWorktree({ repoRoot: t.repoPath, worktreePath: t.worktreePath, branch: t.branch, branchPreexisting: t.branchPreexisting, deleteBranch: opts.discard!.deleteBranch });
  await tidyWorktreeDir(ctx, t);
  await store.setCleanupError(taskId, cleanup.error ?? null);
  await deps.journal.append("task.finished", { taskId, payload: { disposition: "discarded", cleanup } });
  return { task: await get(ctx, taskId), cleanup: { ok: !cleanup.error, ...cleanup } };
}

/**
 * After a worktree was removed: nothing of it stays on disk. Leftovers at its path and the
 * per-repository folder, once empty, go — only inside Switchyard's own worktree root, and
 * only when git no longer knows the path as a worktree.
 */
export async function tidyWorktreeDir(ctx: TaskContext, t: Pick<TaskRow, "repoPath" | "worktreePath">): Promise<void> {
  if (!t.worktreePath) return;
  const root = path.join(ctx.deps.home, "worktrees");
  const rel = path.relative(root, t.worktreePath);
  if (!rel || rel.startsWith("..") || path.isAbsolute(rel)) return;
  if (await findWorktree(t.repoPath, t.worktreePath).catch(() => "unknown")) return;
  await rm(t.worktreePath, { recursive: true, force: true }).catch(() => {});
  await rmdirUpTo(path.dirname(t.worktreePath), path.join(root, rel.split(path.sep)[0]!));
}
