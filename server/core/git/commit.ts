// Committing a task worktree's uncommitted work, as an explicit step (merge never does it).
//
//   commitWorktree({ worktreePath, message, noVerify?, branch? })
//     -> { committed: boolean, sha (HEAD after), files: number }
//     `git add -A` (tracked + untracked, .gitignore respected) then `git commit -F -`.
//     Nothing to commit -> { committed: false, sha: current HEAD }. Uses the fallback
//     identity only when none is configured. Refuses (CONFLICT) while a merge/rebase/
//     cherry-pick/revert is half done in the worktree, and a detached or unborn HEAD
//     (BAD_PARAMS), so work always lands on a branch; pass `branch` to insist on the task's
//     branch (CONFLICT { expected, actual } otherwise).

import { YardError } from "../errors";
import { committerIdentityArgs, firstLine, runGit } from "./git";
import { requireAbsolutePath } from "./paths";
import { inspectRepo } from "./repo";
import { operationInProgress } from "./status";

export interface CommitWorktreeInput {
  worktreePath: string;
  message: string;
  /** Skip pre-commit/commit-msg hooks. Default false. */
  noVerify?: boolean;
  /** When given, the worktree must have this branch checked out (CONFLICT otherwise). */
  branch?: string;
}

export interface CommitWorktreeResult {
  committed: boolean;
  sha: string;
  /** Number of paths in the commit (0 when nothing was committed). */
  files: number;
}

export async function commitWorktree(input: CommitWorktreeInput): Promise<CommitWorktreeResult> {
  const cwd = requireAbsolutePath(input?.worktreePath, "worktreePath");
  if (typeof input.message !== "string" || input.message.trim() === "" || input.message.includes("\0")) {
    throw new YardError("BAD_PARAMS", "commit message must be a non-empty string", { message: input.message ?? null });
  }
  const repo = await inspectRepo(cwd);
  if (!repo.currentBranch) throw new YardError("BAD_PARAMS", "the worktree is on a detached HEAD; refusing to commit", { worktreePath: repo.root });
  if (!repo.headSha) throw new YardError("BAD_PARAMS", "the worktree has no commits", { worktreePath: repo.root });
  if (input.branch !== undefined && input.branch !== repo.currentBranch) {
    throw new YardError("CONFLICT", `the worktree has '${repo.currentBranch}' checked out, not '${input.branch}'`, { expected: input.branch, actual: repo.currentBranch });
  }
  const op = await operationInProgress(repo.gitDir);
  if (op) throw new YardError("CONFLICT", `a ${op} is in progress in the worktree; finish or abort it first`, { worktreePath: repo.root, operation: op });

  await runGit(["-c", "advice.addEmbeddedRepo=false", "add", "-A"], { cwd: repo.root });
  const staged = await runGit(["diff", "--cached", "--name-only", "-z", "--no-renames"], { cwd: repo.root });
  const files = staged.stdout.split("\0").filter(Boolean).length;
  if (files === 0) return { committed: false, sha: repo.headSha, files: 0 };

  const identity = await committerIdentityArgs(repo.root);
  const args = [...identity, "commit", "--quiet", "--no-edit", "-F", "-", "--cleanup=whitespace"];
  if (input.noVerify) args.push("--no-verify");
  await runGit(args, { cwd: repo.root, input: input.message });
  const sha = firstLine((await runGit(["rev-parse", "HEAD"], { cwd: repo.root })).stdout).trim();
  return { committed: true, sha, files };
}
