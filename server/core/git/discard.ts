// Discarding a task: remove its worktree (and only it), optionally its branch.
//
//   discardWorktree({ repoRoot, worktreePath, branch, branchPreexisting, deleteBranch? })
//     -> { worktreeRemoved, worktreeMissing, branchDeleted, branchMissing, error? }
//   Under the repository lock. The caller stops the agent first. The worktree is removed with
//   `git worktree remove --force` (uncommitted work in it is lost) and stale records pruned.
//   Already gone (not registered with git): worktreeRemoved = false, worktreeMissing = true, no
//   error; a directory at that path that git does not know as a worktree is never deleted.
//   The branch is deleted (`git branch -D`) only when deleteBranch && !branchPreexisting, and
//   not while a worktree still has it checked out. Removal problems are reported in `error`
//   (the caller records them); only invalid input throws (BAD_PARAMS).

import type { z } from "zod";
import type { finishCleanup } from "../../wire/tasks";
import { YardError } from "../errors";
import { runGit } from "./git";
import { withRepoLock } from "./lock";
import { requireAbsolutePath } from "./paths";
import { branchTip, validateBranchName } from "./refs";
import { inspectRepo } from "./repo";
import { listWorktrees, removeWorktree } from "./worktree";

export interface DiscardWorktreeInput {
  repoRoot: string;
  worktreePath: string;
  branch: string;
  branchPreexisting: boolean;
  deleteBranch?: boolean;
}

/** What a discard removed (a finish's cleanup, server/wire/tasks.ts, less `ok`; branchMissing always said). */
export type DiscardWorktreeResult = Omit<z.infer<typeof finishCleanup>, "ok" | "uncommittedFiles" | "branchMissing"> & {
  branchMissing: boolean;
};

export async function discardWorktree(input: DiscardWorktreeInput): Promise<DiscardWorktreeResult> {
  if (!input || typeof input !== "object") throw new YardError("BAD_PARAMS", "discardWorktree needs an options object");
  const repoArg = requireAbsolutePath(input.repoRoot, "repoRoot");
  const worktreePath = requireAbsolutePath(input.worktreePath, "worktreePath");
  if (typeof input.branchPreexisting !== "boolean")
    throw new YardError("BAD_PARAMS", "branchPreexisting must be a boolean", {
      branchPreexisting: input.branchPreexisting ?? null,
    });
  const [repo, branch] = await Promise.all([inspectRepo(repoArg), validateBranchName(input.branch)]);
  if (worktreePath === repo.root)
    throw new YardError("BAD_PARAMS", "refusing to discard the repository's main worktree", { worktreePath });

  return withRepoLock(repo.commonDir, async () => {
    const errors: string[] = [];
    let worktreeRemoved = false;
    let worktreeMissing = false;
    let branchDeleted = false;
    let branchMissing = false;
    try {
      const r = await removeWorktree(repo.root, worktreePath);
      worktreeRemoved = r.removed;
      worktreeMissing = !r.wasRegistered;
    } catch (e) {
      if ((e as YardError).code === "BAD_PARAMS") throw e;
      errors.push(`worktree not removed: ${(e as Error).message}`);
    }
    if (input.deleteBranch && !input.branchPreexisting) {
      try {
        if (!(await branchTip(repo.root, branch))) {
          branchMissing = true;
        } else {
          const holders = (await listWorktrees(repo.root)).filter((w) => w.branch === branch);
          if (holders.length) {
            errors.push(
              `branch '${branch}' not deleted: it is checked out at ${holders.map((h) => h.path).join(", ")}`,
            );
          } else {
            await runGit(["branch", "-D", "--", branch], { cwd: repo.root });
            branchDeleted = true;
          }
        }
      } catch (e) {
        errors.push(`branch '${branch}' not deleted: ${(e as Error).message}`);
      }
    }
    return {
      worktreeRemoved,
      worktreeMissing,
      branchDeleted,
      branchMissing,
      ...(errors.length ? { error: errors.join("; ") } : {}),
    };
  });
}
