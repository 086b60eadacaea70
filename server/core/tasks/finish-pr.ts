// Finishing a task whose pull request was merged on GitHub (the poll in core/github/ finds it):
// the reducer's `merged` (only a completed task: until it is, nothing happens and the poll asks
// again), with the pull request's merge commit; then, as after a local merge, its agents stop and
// its worktree is removed, and its branch deleted when it still points at the commit the pull
// request merged (a branch with commits beyond it, or a pre-existing one, is kept). A worktree
// with uncommitted files is kept, and the task's cleanupError says so: those files are not in the
// pull request (a later finish removes it, as for any cleanup left to do). task.finished names the
// pull request, `by: "github"`.
import { findWorktree, discardWorktree, uncommittedFiles, branchTip } from "../git";
import { isYardError } from "../errors";
import { apply, type EngineState, taskRow } from "./engine-state";
import { stopAgents, tidyWorktreeDir } from "./finish";

export interface MergedPullRequest {
  number: number;
  url: string;
  base: string | null;
  headSha: string | null;
  mergeCommit: string | null;
}

export async function finishViaPullRequest(
  eng: EngineState,
  taskId: string,
  pr: MergedPullRequest,
): Promise<{ finished: boolean; state: string }> {
  const t = await taskRow(eng, taskId);
  if (t.disposition || t.state !== "completed") return { finished: false, state: t.disposition ?? t.state };
  eng.finishing.add(taskId);
  try {
    try {
      await apply(eng, taskId, { type: "merged" }, { finished: { mergeCommit: pr.mergeCommit, cleanupError: null } });
    } catch (e) {
      // It moved on meanwhile (a new round) or was finished by hand: the poll looks again.
      if (isYardError(e) && (e.code === "TASK_NOT_COMPLETED" || e.code === "CONFLICT")) {
        const now = await taskRow(eng, taskId);
        return { finished: false, state: now.disposition ?? now.state };
      }
      throw e;
    }
    await stopAgents(eng, t);
    const cleanup = await cleanUp(eng, t, pr);
    await eng.store.setCleanupError(taskId, cleanup.error ?? null);
    await eng.deps.journal.append("task.finished", {
      taskId,
      payload: {
        disposition: "merged",
        mergeCommit: pr.mergeCommit,
        ...(pr.base ? { target: pr.base } : {}),
        cleanup: { ok: !cleanup.error, ...cleanup },
        by: "github",
        pullRequest: { number: pr.number, url: pr.url },
      },
    });
    return { finished: true, state: t.state };
  } finally {
    eng.finishing.delete(taskId);
  }
}

interface Cleanup {
  worktreeRemoved: boolean;
  worktreeMissing: boolean;
  branchDeleted: boolean;
  error?: string;
}

async function cleanUp(
  eng: EngineState,
  t: Awaited<ReturnType<typeof taskRow>>,
  pr: MergedPullRequest,
): Promise<Cleanup> {
  const none = { worktreeRemoved: false, worktreeMissing: true, branchDeleted: false };
  if (!t.worktreePath || !t.branch) return none;
  if (!(await findWorktree(t.repoPath, t.worktreePath).catch(() => null))) return none;
  const files = await uncommittedFiles({ worktreePath: t.worktreePath }).catch(() => []);
  if (files.length)
    return {
      worktreeRemoved: false,
      worktreeMissing: false,
      branchDeleted: false,
      error: `The worktree was kept: it has ${files.length} uncommitted file(s) that are not in the pull request (${files.slice(0, 5).join(", ")}${files.length > 5 ? ", …" : ""}); finish the task again to remove it`,
    };
  const tip = await branchTip(t.repoPath, t.branch).catch(() => null);
  const r = await discardWorktree({
    repoRoot: t.repoPath,
    worktreePath: t.worktreePath,
    branch: t.branch,
    branchPreexisting: t.branchPreexisting,
    deleteBranch: tip !== null && tip === pr.headSha,
  });
  if (r.worktreeRemoved) await tidyWorktreeDir(eng, t);
  return {
    worktreeRemoved: r.worktreeRemoved,
    worktreeMissing: r.worktreeMissing,
    branchDeleted: r.branchDeleted,
    ...(r.error ? { error: r.error } : {}),
  };
}
