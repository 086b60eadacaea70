// Merging a task branch into its target, then cleaning up the task's worktree/branch.
//
//   mergeTask({ repoRoot, worktreePath, branch, targetBranch, branchPreexisting,
//               expectedTarget?, ignoreDirty?, keepBranch?, message? })
//     -> { mergeCommit, alreadyUpToDate, targetBefore, branchTip,
//          cleanup: { ok, error?, worktreeRemoved, worktreeMissing, branchDeleted } }
//
// Input: absolute paths, valid branch names, branch !== targetBranch (else BAD_PARAMS).
// Under the repository lock, in this order (nothing is changed before the merge itself):
//   1. targetBranch must be the branch checked out in repoRoot, else BAD_PARAMS
//      { expected: targetBranch, actual: <checked-out branch or null when detached> }.
//   2. expectedTarget (optional SHA/ref): if given, target HEAD must still be that commit, else
//      CONFLICT { expected, actual }. Without it, a target that moved since the task started is fine.
//   3. The branch must exist (NOT_FOUND). If the worktree still exists it must have `branch`
//      checked out (CONFLICT { expected, actual } otherwise). approved (optional { commit, tree }:
//      what a review approved): the branch must still point at that commit and its tree be that
//      tree, else CONFLICT { approvedCommit, actualCommit, approvedTree, actualTree } ("review it
//      again"). What merges is the commit read here, by id: a commit made meanwhile is not in it.
//      The metadata git will write (reflogs, ref directories, objects/) must hold no planted
//      symbolic link or special file (CONFLICT { path, found }, see metadata.ts).
//   4. Target checkout: staged or unstaged changes to tracked files, or a merge/rebase/
//      cherry-pick/revert in progress -> DIRTY_TARGET { files | operation }. Untracked files
//      are allowed (git refuses if the merge would overwrite one -> DIRTY_TARGET { files, untracked: true }).
//   5. Source worktree: any uncommitted change, including untracked non-ignored files ->
//      DIRTY_SOURCE { files } unless ignoreDirty. Never auto-commits: with ignoreDirty the
//      uncommitted work is simply not part of the merge, and it is LOST when the worktree is
//      removed in cleanup (the agent commits what it wants kept).
//   6. strategy (default "merge"): squash, rebase and ff first build the commit they land without
//      touching any checkout (strategies.ts; a conflict there is MERGE_CONFLICT, a branch that
//      cannot fast-forward NOT_FAST_FORWARD, both with the target untouched), then move the
//      target's checkout to it with `git merge --ff-only` (detached, undone on failure as below).
//      "merge": `git merge --no-ff --no-edit -m <message> <tip>` in repoRoot (identity from config, else
//      "Switchyard <switchyard@localhost>"), detached from this process (output to files, see
//      git.ts: a server killed meanwhile does not kill the merge half way), no hooks (git.ts's
//      safe config). Conflict: conflicted paths are read, `git merge --abort`, files the failed
//      merge left behind that were not there before are removed, the target is verified back at
//      its old HEAD with no tracked changes, then MERGE_CONFLICT { files, branch, target }. Other
//      failures (e.g. a failing required filter) are undone the same way and surface as GIT_FAILED.
//   7. Branch already contained in target ("Already up to date"): success, mergeCommit = the
//      unchanged target HEAD, alreadyUpToDate = true.
//   Between the merge and the cleanup, beforeCleanup runs (the caller stops the task's agent).
//
//   settleInterruptedMerge({ repoRoot, tip, targetBefore }) -> "none" | "completed" | "aborted"
//     after a crash: when the checkout is still "merging" `tip` (MERGE_HEAD is it), a merge whose
//     commit landed has its leftover state removed (`git merge --quit`: HEAD, index and files are
//     the merge's already), one that did not is undone (`git merge --abort`, back to targetBefore).
//     A checkout merging anything else is not touched.
//
//   8. Cleanup (never fails the merge; reported in `cleanup`): remove the worktree
//      (`git worktree remove --force`, then prune), then `git branch -D` unless the branch was
//      pre-existing or keepBranch. A branch is not deleted while a worktree still has it checked out.

import type { z } from "zod";
import type { finishCleanup } from "../../wire/tasks";
import { YardError, isYardError } from "../errors";
import { committerIdentityArgs, firstLine, runGit } from "./git";
import { withRepoLock } from "./lock";
import { requireAbsolutePath } from "./paths";
import { branchTip, resolveCommit, revisionProblem, validateBranchName } from "./refs";
import { inspectRepo } from "./repo";
import { operationInProgress, statusEntries } from "./status";
import { listWorktrees, removeWorktree } from "./worktree";
import { promises as fsp } from "node:fs";
import path from "node:path";
import { uncommittedFiles } from "./diff";
import { checkWritableMetadata } from "./metadata";
import type { MergeStrategy } from "../../wire/branches";
import { landingCommit } from "./strategies";

export interface MergeTaskInput {
  repoRoot: string;
  worktreePath: string;
  branch: string;
  targetBranch: string;
  branchPreexisting: boolean;
  /** Optional: the target HEAD (SHA or ref) the reviewer approved against; merge refuses if it moved. */
  expectedTarget?: string;
  /** Optional: the branch commit and tree a review approved; merge refuses a branch that moved since. */
  approved?: { commit: string; tree: string | null };
  ignoreDirty?: boolean;
  keepBranch?: boolean;
  /** Merge commit message (a squash's commit message); default "Merge branch '<branch>' into <target>". */
  message?: string;
  /** How the branch lands (default "merge": a merge commit). */
  strategy?: MergeStrategy;
  /**
   * Called once every check has passed, right before git merges (awaited): the caller records
   * that a merge is in flight, to finish or undo it after a crash. `pid` follows once git runs.
   * `commit`: what the target fast-forwards to (squash, rebase, ff; null for a merge commit).
   */
  onMergeStart?: (m: { targetBefore: string; tip: string; commit: string | null }) => Promise<void>;
  onMergePid?: (pid: number) => void;
  /** Called after the merge landed and before the worktree is removed (the caller stops the agent in it). */
  beforeCleanup?: () => Promise<void>;
}

/** What removing the worktree and the branch after a merge did (a finish's cleanup, server/wire/tasks.ts). */
type MergeCleanup = Omit<z.infer<typeof finishCleanup>, "branchMissing" | "uncommittedFiles">;

export interface MergeTaskResult {
  mergeCommit: string;
  alreadyUpToDate: boolean;
  targetBefore: string;
  branchTip: string;
  strategy: MergeStrategy;
  cleanup: MergeCleanup;
}

export async function mergeTask(input: MergeTaskInput): Promise<MergeTaskResult> {
  if (!input || typeof input !== "object") throw new YardError("BAD_PARAMS", "mergeTask needs an options object");
  const repoArg = requireAbsolutePath(input.repoRoot, "repoRoot");
  const worktreePath = requireAbsolutePath(input.worktreePath, "worktreePath");
  if (typeof input.branchPreexisting !== "boolean")
    throw new YardError("BAD_PARAMS", "branchPreexisting must be a boolean", {
      branchPreexisting: input.branchPreexisting ?? null,
    });
  if (input.expectedTarget !== undefined && revisionProblem(input.expectedTarget)) {
    throw new YardError("BAD_PARAMS", `invalid expectedTarget: ${revisionProblem(input.expectedTarget)}`, {
      expectedTarget: input.expectedTarget,
    });
  }
  if (
    input.message !== undefined &&
    (typeof input.message !== "string" || input.message.trim() === "" || input.message.includes("\0"))
  ) {
    throw new YardError("BAD_PARAMS", "message must be a non-empty string", {});
  }
  const [first, branch, target] = await Promise.all([
    inspectRepo(repoArg),
    validateBranchName(input.branch),
    validateBranchName(input.targetBranch, "targetBranch"),
  ]);
  if (branch === target)
    throw new YardError("BAD_PARAMS", "the task branch and the target branch are the same", {
      branch,
      targetBranch: target,
    });

  return withRepoLock(first.commonDir, async () => {
    const repo = await inspectRepo(first.root);
    const root = repo.root;
    if (repo.currentBranch !== target) {
      throw new YardError(
        "BAD_PARAMS",
        repo.currentBranch
          ? `the target branch '${target}' is not checked out in ${root} ('${repo.currentBranch}' is)`
          : `the target branch '${target}' is not checked out in ${root} (HEAD is detached)`,
        { expected: target, actual: repo.currentBranch },
      );
    }
    if (!repo.headSha) throw new YardError("BAD_PARAMS", `the target branch '${target}' has no commits`, { target });
    const targetBefore = repo.headSha;
    if (input.expectedTarget !== undefined) {
      const want = await resolveCommit(root, input.expectedTarget);
      if (want !== targetBefore)
        throw new YardError("CONFLICT", `the target branch '${target}' moved`, {
          expected: want ?? input.expectedTarget,
          actual: targetBefore,
        });
    }
    const tip = await branchTip(root, branch);
    if (!tip) throw new YardError("NOT_FOUND", `branch '${branch}' does not exist`, { branch });
    if (input.approved) await checkApproved(root, branch, tip, input.approved);
    await checkWritableMetadata(repo.commonDir, [`refs/heads/${target}`, `refs/heads/${branch}`]);

    // Target checkout must be clean (tracked files) and not mid-operation.
    const op = await operationInProgress(repo.gitDir);
    if (op) throw new YardError("DIRTY_TARGET", `a ${op} is in progress in ${root}`, { operation: op, target });
    const targetDirt = await statusEntries(root, { untracked: "no" });
    if (targetDirt.length)
      throw new YardError("DIRTY_TARGET", `the target checkout ${root} has uncommitted changes`, {
        files: targetDirt.map((e) => e.path),
        target,
      });

    // Source worktree: right branch, and clean unless told to ignore.
    if (await isDirectory(worktreePath)) {
      let src: Awaited<ReturnType<typeof inspectRepo>> | null = null;
      try {
        src = await inspectRepo(worktreePath);
      } catch (e) {
        if (!isYardError(e) || e.code !== "BAD_PARAMS") throw e;
      }
      if (src && (src.commonDir !== repo.commonDir || src.root === root)) {
        throw new YardError("BAD_PARAMS", `${worktreePath} is not a linked worktree of ${root}`, {
          worktreePath,
          repoRoot: root,
        });
      }
      if (src) {
        if (src.currentBranch !== branch) {
          throw new YardError(
            "CONFLICT",
            `the task worktree has '${src.currentBranch ?? "a detached HEAD"}' checked out, not '${branch}'`,
            {
              expected: branch,
              actual: src.currentBranch,
            },
          );
        }
        if (!input.ignoreDirty) {
          const dirt = await uncommittedFiles({ worktreePath: src.root });
          if (dirt.length)
            throw new YardError("DIRTY_SOURCE", `the task worktree has uncommitted changes`, {
              files: dirt,
              worktreePath: src.root,
            });
        }
      }
    }

    const identity = await committerIdentityArgs(root);
    const message = input.message ?? `Merge branch '${branch}' into ${target}`;
    const untrackedBefore = new Set(
      (await statusEntries(root, { untracked: "all" })).filter((e) => e.x === "?").map((e) => e.path),
    );
    const strategy = input.strategy ?? "merge";
    const landing =
      strategy === "merge"
        ? null
        : await landingCommit({ cwd: root, strategy, targetBefore, tip, message, identity, branch, target });
    await input.onMergeStart?.({ targetBefore, tip, commit: landing });
    const args =
      landing === null
        ? ["merge", "--no-ff", "--no-edit", "--no-stat", "--no-autostash", "--no-rerere-autoupdate", "-m", message, tip]
        : ["merge", "--ff-only", "--no-stat", "--no-autostash", landing];
    const res =
      landing === targetBefore
        ? { code: 0, stdout: "", stderr: "" }
        : await runGit([...identity, ...args], {
            cwd: root,
            allowFail: true,
            detached: true,
            onSpawn: input.onMergePid,
          });
    if (res.code !== 0) {
      const attempt = { root, gitDir: repo.gitDir, targetBefore, branch, target, tip: landing ?? tip, untrackedBefore };
      await failMerge(attempt, res);
    }

    const mergeCommit = firstLine((await runGit(["rev-parse", "HEAD"], { cwd: root })).stdout).trim();
    await input.beforeCleanup?.().catch(() => {});
    const cleanup = await cleanupAfterMerge(root, worktreePath, branch, !input.branchPreexisting && !input.keepBranch);
    const alreadyUpToDate = mergeCommit === targetBefore;
    return { mergeCommit, alreadyUpToDate, targetBefore, branchTip: tip, strategy, cleanup };
  });
}

export async function settleInterruptedMerge(input: {
  repoRoot: string;
  tip: string;
  targetBefore: string;
}): Promise<"none" | "completed" | "aborted"> {
  const first = await inspectRepo(requireAbsolutePath(input.repoRoot, "repoRoot"));
  return withRepoLock(first.commonDir, async () => {
    const repo = await inspectRepo(first.root);
    const mergeHead = await runGit(["rev-parse", "-q", "--verify", "MERGE_HEAD"], { cwd: repo.root, allowFail: true });
    if (mergeHead.code !== 0 || firstLine(mergeHead.stdout).trim() !== input.tip) return "none";
    const landed =
      repo.headSha !== input.targetBefore &&
      (await runGit(["merge-base", "--is-ancestor", input.tip, "HEAD"], { cwd: repo.root, allowFail: true })).code ===
        0;
    await runGit(["merge", landed ? "--quit" : "--abort"], { cwd: repo.root });
    return landed ? "completed" : "aborted";
  });
}

async function isDirectory(p: string): Promise<boolean> {
  try {
    return (await fsp.stat(p)).isDirectory();
  } catch {
    return false;
  }
}

/** The approval still holds: the branch is at the approved commit, whose tree is the approved tree. */
async function checkApproved(
  root: string,
  branch: string,
  tip: string,
  approved: { commit: string; tree: string | null },
): Promise<void> {
  const actualTree = firstLine((await runGit(["rev-parse", `${tip}^{tree}`], { cwd: root })).stdout).trim();
  if (tip === approved.commit && (approved.tree === null || approved.tree === actualTree)) return;
  const moved = tip !== approved.commit;
  throw new YardError(
    "CONFLICT",
    moved
      ? `branch '${branch}' moved since it was approved (approved ${approved.commit.slice(0, 12)}, now ${tip.slice(0, 12)}): review it again`
      : `the approved review saw changes that are not in branch '${branch}' at ${tip.slice(0, 12)} (uncommitted work): commit it and review again`,
    { approvedCommit: approved.commit, actualCommit: tip, approvedTree: approved.tree, actualTree, branch },
  );
}

interface MergeAttempt {
  root: string;
  gitDir: string;
  targetBefore: string;
  branch: string;
  target: string;
  tip: string;
  /** Untracked files before the merge: any other untracked file of the merged tree afterwards is the failed merge's. */
  untrackedBefore: Set<string>;
}

/** Put the target back exactly as it was and throw the right error. */
async function failMerge(m: MergeAttempt, res: { stdout: string; stderr: string; code: number }): Promise<never> {
  const { root, gitDir, targetBefore, branch, target } = m;
  let conflicted: string[] = [];
  const midMerge = (await operationInProgress(gitDir)) === "merge";
  if (midMerge) {
    const u = await runGit(["diff", "--name-only", "--diff-filter=U", "-z"], { cwd: root, allowFail: true });
    conflicted = u.stdout.split("\0").filter(Boolean);
    await runGit(["merge", "--abort"], { cwd: root, allowFail: true });
  }
  const leftovers = await removeLeftovers(m);
  // Verify: same HEAD, no tracked changes, no merge state, nothing the merge wrote left behind.
  const [head, dirt, op] = await Promise.all([
    runGit(["rev-parse", "HEAD"], { cwd: root, allowFail: true }),
    statusEntries(root, { untracked: "no" }).catch(() => null),
    operationInProgress(gitDir),
  ]);
  const headNow = firstLine(head.stdout).trim();
  if (headNow !== targetBefore || dirt === null || dirt.length > 0 || op || leftovers.length > 0) {
    throw new YardError(
      "GIT_FAILED",
      `the merge failed and the target checkout ${root} could not be restored cleanly; inspect it by hand`,
      {
        target,
        branch,
        expectedHead: targetBefore,
        actualHead: headNow || null,
        files: dirt?.map((e) => e.path) ?? null,
        leftovers,
        operation: op,
        stderr: res.stderr,
        stdout: res.stdout,
      },
    );
  }
  if (conflicted.length) {
    throw new YardError(
      "MERGE_CONFLICT",
      `merging '${branch}' into '${target}' conflicts in ${conflicted.length} file(s); the merge was aborted`,
      {
        files: conflicted,
        branch,
        target,
      },
    );
  }
  const text = `${res.stderr}\n${res.stdout}`;
  if (/untracked working tree files would be (overwritten|removed) by merge/i.test(text)) {
    throw new YardError("DIRTY_TARGET", `untracked files in ${root} would be overwritten by the merge`, {
      files: indentedList(text),
      untracked: true,
      target,
    });
  }
  if (/local changes to the following files would be overwritten/i.test(text)) {
    throw new YardError("DIRTY_TARGET", `local changes in ${root} would be overwritten by the merge`, {
      files: indentedList(text),
      target,
    });
  }
  throw new YardError(
    "GIT_FAILED",
    `git merge failed (exit ${res.code}): ${firstLine(res.stderr.trim()) || firstLine(res.stdout.trim())}`,
    {
      args: ["merge", "--no-ff", `refs/heads/${branch}`],
      code: res.code,
      stderr: res.stderr,
      stdout: res.stdout,
    },
  );
}

/**
 * A merge that died part way through its checkout (a failing filter) leaves the files it had
 * written as untracked files: those that were not there before and are files of the merged
 * commit are removed (never a directory's content wholesale, never a path outside the
 * checkout). Returns the ones that could not be removed.
 */
async function removeLeftovers(m: MergeAttempt): Promise<string[]> {
  const now = (await statusEntries(m.root, { untracked: "all" }).catch(() => []))
    .filter((e) => e.x === "?" && !m.untrackedBefore.has(e.path))
    .map((e) => e.path);
  if (!now.length) return [];
  const inTip = new Set(
    (await runGit(["ls-tree", "-r", "-z", "--name-only", m.tip], { cwd: m.root })).stdout.split("\0").filter(Boolean),
  );
  const left: string[] = [];
  for (const rel of now) {
    const p = path.resolve(m.root, rel);
    if (!inTip.has(rel) || !p.startsWith(m.root + path.sep)) {
      left.push(rel);
      continue;
    }
    try {
      await fsp.unlink(p);
      for (let d = path.dirname(p); d !== m.root && d.startsWith(m.root + path.sep); d = path.dirname(d))
        await fsp.rmdir(d);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code !== "ENOTEMPTY" && code !== "EEXIST") left.push(rel);
    }
  }
  return left;
}

/** The tab-indented file list git prints under "...would be overwritten by merge:". */
function indentedList(text: string): string[] {
  return text
    .split("\n")
    .filter((l) => l.startsWith("\t"))
    .map((l) => l.trim())
    .filter(Boolean);
}

async function cleanupAfterMerge(
  root: string,
  worktreePath: string,
  branch: string,
  deleteBranch: boolean,
): Promise<MergeCleanup> {
  const errors: string[] = [];
  let worktreeRemoved = false;
  let worktreeMissing = false;
  let branchDeleted = false;
  try {
    const r = await removeWorktree(root, worktreePath);
    worktreeRemoved = r.removed;
    worktreeMissing = !r.wasRegistered;
  } catch (e) {
    errors.push(`worktree not removed: ${(e as Error).message}`);
  }
  if (deleteBranch) {
    try {
      const holders = (await listWorktrees(root)).filter((w) => w.branch === branch);
      if (holders.length) {
        errors.push(`branch '${branch}' not deleted: it is checked out at ${holders.map((h) => h.path).join(", ")}`);
      } else {
        await runGit(["branch", "-D", "--", branch], { cwd: root });
        branchDeleted = true;
      }
    } catch (e) {
      errors.push(`branch '${branch}' not deleted: ${(e as Error).message}`);
    }
  }
  return {
    ok: errors.length === 0,
    ...(errors.length ? { error: errors.join("; ") } : {}),
    worktreeRemoved,
    worktreeMissing,
    branchDeleted,
  };
}
