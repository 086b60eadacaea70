// Keeping a task branch current: its target's new commits merged into it (or it rebased onto
// them) in the task's own worktree, how far behind it is, and the state of an update an agent was
// left to finish.
//
//   updateBranch({ repoRoot, worktreePath, branch, target, mode, keepConflicts, onStart?, onPid? })
//     Under the repository lock, in this order (nothing is changed before git runs):
//     1. The worktree is a linked worktree of repoRoot with `branch` checked out (BAD_PARAMS /
//        CONFLICT { expected, actual }); its HEAD and index are regular files and the reflogs and
//        objects git writes hold no planted link or special file (CONFLICT { path, found }).
//     2. No merge, rebase, cherry-pick or revert in progress there (CONFLICT { operation }).
//     3. Nothing uncommitted, untracked non-ignored files included (DIRTY_SOURCE { files }).
//     4. The target branch exists (NOT_FOUND). Already in the branch: { outcome: "up_to_date" }.
//     5. onStart (awaited: the caller records the update in flight), then in the worktree, detached
//        like every merge (git.ts), no hooks: `git merge --ff --no-edit -m … <target commit>` (a
//        fast-forward when the branch has no commits of its own) or `git rebase <target commit>`
//        (no autostash, no rerere, no other branch moved: --no-update-refs).
//     6. Conflicts: with keepConflicts the worktree is left mid-merge/rebase and the conflicted
//        files returned ({ outcome: "conflict" }: the caller hands them to the agent); otherwise
//        the operation is aborted, the worktree verified back at its commit with nothing
//        uncommitted, and CONFLICT { files, branch, target, mode, aborted: true } thrown. Any
//        other failure is undone the same way and surfaces as GIT_FAILED.
//     7. Success: { outcome: "updated", to, base: merge-base of the new tip and the target commit }.
//
//   behindCount(repoRoot, branch, target) -> { behind, branchCommit, targetCommit } | null
//     commits on the target the branch lacks; null when either branch is missing.
//   updateProgress(worktreePath, targetCommit) -> { operation, head, contains, base }
//     for an update an agent is finishing: what is in progress, whether the branch has the
//     target's commit now, and the merge-base.
//   abortUpdate(worktreePath) -> the operation aborted, or null
//     (under the lock) a merge or rebase nobody will finish (its agent is gone) is undone.
//   fileChanges(cwd, from, to, path) -> the `-U0` hunks between one file's two versions
//     ({ oldStart, oldCount, newStart, newCount }[]), for moving review comments with their lines.
import { promises as fsp } from "node:fs";
import path from "node:path";
import { YardError, isYardError } from "../errors";
import { uncommittedFiles } from "./diff";
import { committerIdentityArgs, firstLine, runGit } from "./git";
import { withRepoLock } from "./lock";
import { checkReadableGitDir, checkWritableMetadata } from "./metadata";
import { requireAbsolutePath } from "./paths";
import { branchTip, branchTips, validateBranchName } from "./refs";
import { inspectRepo, type RepoInfo } from "./repo";
import { operationInProgress, statusEntries } from "./status";

export type UpdateMode = "merge" | "rebase";

export interface UpdateBranchInput {
  repoRoot: string;
  worktreePath: string;
  branch: string;
  target: string;
  mode: UpdateMode;
  /** Leave a conflicted merge/rebase in the worktree for its agent instead of aborting it. */
  keepConflicts: boolean;
  onStart?: (u: { from: string; targetCommit: string; commits: number }) => Promise<void>;
  onPid?: (pid: number) => void;
}

export type UpdateBranchResult = { from: string; targetCommit: string; commits: number } & (
  | { outcome: "up_to_date" | "updated"; to: string; base: string }
  | { outcome: "conflict"; files: string[] }
);

export async function updateBranch(input: UpdateBranchInput): Promise<UpdateBranchResult> {
  const repoArg = requireAbsolutePath(input.repoRoot, "repoRoot");
  const wtArg = requireAbsolutePath(input.worktreePath, "worktreePath");
  if (input.mode !== "merge" && input.mode !== "rebase")
    throw new YardError("BAD_PARAMS", "mode must be merge or rebase", { mode: input.mode ?? null });
  const [first, branch, target] = await Promise.all([
    inspectRepo(repoArg),
    validateBranchName(input.branch),
    validateBranchName(input.target, "target"),
  ]);
  return withRepoLock(first.commonDir, async () => {
    const wt = await worktreeOf(wtArg, first, branch);
    const busy = await operationInProgress(wt.gitDir);
    if (busy)
      throw new YardError("CONFLICT", `a ${busy} is in progress in the task's worktree; finish or abort it first`, {
        operation: busy,
        worktreePath: wt.root,
      });
    const dirt = await uncommittedFiles({ worktreePath: wt.root });
    if (dirt.length)
      throw new YardError("DIRTY_SOURCE", "the task's worktree has uncommitted changes: commit them first", {
        files: dirt,
        worktreePath: wt.root,
      });
    const targetCommit = await branchTip(first.root, target);
    if (!targetCommit) throw new YardError("NOT_FOUND", `branch '${target}' does not exist`, { branch: target });
    const from = wt.headSha!;
    const commits = await countRange(wt.root, `${from}..${targetCommit}`);
    if (commits === 0) return { outcome: "up_to_date", from, targetCommit, commits, to: from, base: targetCommit };

    await input.onStart?.({ from, targetCommit, commits });
    const identity = await committerIdentityArgs(wt.root);
    const args =
      input.mode === "merge"
        ? ["merge", "--ff", "--no-edit", "--no-stat", "--no-autostash", "--no-rerere-autoupdate", "-m"].concat(
            `Merge branch '${target}' into ${branch}`,
            targetCommit,
          )
        : ["rebase", "--no-autostash", "--no-rerere-autoupdate", "--no-update-refs", targetCommit];
    const res = await runGit([...identity, ...args], {
      cwd: wt.root,
      allowFail: true,
      detached: true,
      onSpawn: input.onPid,
    });
    if (res.code !== 0) {
      const op = await operationInProgress(wt.gitDir);
      const files = op ? await conflictedFiles(wt.root) : [];
      if (op && files.length && input.keepConflicts) return { outcome: "conflict", from, targetCommit, commits, files };
      await restore(wt, from, op);
      if (files.length)
        throw new YardError(
          "CONFLICT",
          `${input.mode === "merge" ? "merging" : "rebasing onto"} '${target}' conflicts in ${files.length} file(s); the ${input.mode} was aborted and the branch left as it was`,
          { files, branch, target, mode: input.mode, aborted: true },
        );
      throw new YardError("GIT_FAILED", `git ${input.mode} failed (exit ${res.code}): ${gitMessage(res)}`, {
        branch,
        target,
        mode: input.mode,
        stderr: res.stderr,
        stdout: res.stdout,
      });
    }
    const to = await headOf(wt.root);
    return { outcome: "updated", from, targetCommit, commits, to, base: await mergeBase(wt.root, to, targetCommit) };
  });
}

/** The worktree, checked: a linked worktree of `repo` on `branch`, its git files safe for git to use. */
async function worktreeOf(wtPath: string, repo: RepoInfo, branch: string): Promise<RepoInfo> {
  let wt: RepoInfo;
  try {
    wt = await inspectRepo(wtPath);
  } catch (e) {
    if (isYardError(e) && e.code === "BAD_PARAMS")
      throw new YardError("CONFLICT", `the task's worktree ${wtPath} is gone`, { worktreePath: wtPath });
    throw e;
  }
  if (wt.commonDir !== repo.commonDir || wt.root === repo.root)
    throw new YardError("BAD_PARAMS", `${wtPath} is not a linked worktree of ${repo.root}`, {
      worktreePath: wtPath,
      repoRoot: repo.root,
    });
  if (wt.currentBranch !== branch)
    throw new YardError(
      "CONFLICT",
      `the task worktree has '${wt.currentBranch ?? "a detached HEAD"}' checked out, not '${branch}'`,
      { expected: branch, actual: wt.currentBranch },
    );
  await checkReadableGitDir(wt.gitDir);
  const index = await fsp.lstat(path.join(wt.gitDir, "index")).catch(() => null);
  if (index && !index.isFile())
    throw new YardError(
      "CONFLICT",
      `${path.join(wt.gitDir, "index")} is not a regular file: Switchyard's git will not use it (an agent may have planted it)`,
      { path: path.join(wt.gitDir, "index"), found: index.isSymbolicLink() ? "a symbolic link" : "not a file" },
    );
  await checkWritableMetadata(repo.commonDir, [`refs/heads/${branch}`]);
  await checkWritableMetadata(wt.gitDir, []); // the worktree's own HEAD reflog
  return wt;
}

/** Abort what the failed update left and check the worktree is back where it was, clean. */
async function restore(wt: RepoInfo, from: string, op: string | null): Promise<void> {
  if (op === "merge" || op === "rebase") await runGit([op, "--abort"], { cwd: wt.root, allowFail: true });
  const [head, dirt, still] = await Promise.all([
    headOf(wt.root).catch(() => null),
    statusEntries(wt.root, { untracked: "normal" }).catch(() => null),
    operationInProgress(wt.gitDir),
  ]);
  if (head !== from || dirt === null || dirt.length > 0 || still)
    throw new YardError(
      "GIT_FAILED",
      `the update failed and the task's worktree ${wt.root} could not be restored cleanly; inspect it by hand`,
      { expectedHead: from, actualHead: head, files: dirt?.map((e) => e.path) ?? null, operation: still },
    );
}

export async function behindCount(
  repoRoot: string,
  branch: string,
  target: string,
): Promise<{ behind: number; branchCommit: string; targetCommit: string } | null> {
  const tips = await branchTips(repoRoot, [branch, target]);
  const branchCommit = tips.get(branch);
  const targetCommit = tips.get(target);
  if (!branchCommit || !targetCommit) return null;
  const behind = branchCommit === targetCommit ? 0 : await countRange(repoRoot, `${branchCommit}..${targetCommit}`);
  return { behind, branchCommit, targetCommit };
}

export async function updateProgress(
  worktreePath: string,
  targetCommit: string,
): Promise<{ operation: string | null; head: string; contains: boolean; base: string }> {
  const wt = await inspectRepo(requireAbsolutePath(worktreePath, "worktreePath"));
  // The agent may be committing right now: git moves HEAD first and removes the operation's state
  // after, so the operation is read first and HEAD once after it, then only that commit is used.
  const operation = await operationInProgress(wt.gitDir);
  const head = await headOf(wt.root);
  const contains =
    (await runGit(["merge-base", "--is-ancestor", targetCommit, head], { cwd: wt.root, allowFail: true })).code === 0;
  return { operation, head, contains, base: await mergeBase(wt.root, head, targetCommit) };
}

export async function abortUpdate(worktreePath: string): Promise<string | null> {
  const wt = await inspectRepo(requireAbsolutePath(worktreePath, "worktreePath"));
  return withRepoLock(wt.commonDir, async () => {
    const op = await operationInProgress(wt.gitDir);
    if (op !== "merge" && op !== "rebase") return null;
    await runGit([op, "--abort"], { cwd: wt.root });
    return op;
  });
}

export interface Hunk {
  oldStart: number;
  oldCount: number;
  newStart: number;
  newCount: number;
}

export async function fileChanges(cwd: string, from: string, to: string, file: string): Promise<Hunk[]> {
  if (from === to) return [];
  const r = await runGit(
    ["diff", "--no-ext-diff", "--no-textconv", "--no-renames", "-U0", from, to, "--", `:(literal)${file}`],
    { cwd },
  );
  const hunks: Hunk[] = [];
  for (const m of r.stdout.matchAll(/^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/gm))
    hunks.push({
      oldStart: Number(m[1]),
      oldCount: m[2] === undefined ? 1 : Number(m[2]),
      newStart: Number(m[3]),
      newCount: m[4] === undefined ? 1 : Number(m[4]),
    });
  return hunks;
}

async function conflictedFiles(cwd: string): Promise<string[]> {
  const u = await runGit(["diff", "--name-only", "--diff-filter=U", "-z"], { cwd, allowFail: true });
  return [...new Set(u.stdout.split("\0").filter(Boolean))];
}

async function headOf(cwd: string): Promise<string> {
  return firstLine((await runGit(["rev-parse", "HEAD"], { cwd })).stdout).trim();
}

async function mergeBase(cwd: string, a: string, b: string): Promise<string> {
  return firstLine((await runGit(["merge-base", a, b], { cwd })).stdout).trim();
}

async function countRange(cwd: string, range: string): Promise<number> {
  return Number(firstLine((await runGit(["rev-list", "--count", range], { cwd })).stdout).trim()) || 0;
}

function gitMessage(res: { stdout: string; stderr: string }): string {
  const lines = `${res.stderr}\n${res.stdout}`
    .split("\n")
    .map((l) => l.trim())
    .filter(Boolean);
  return (lines.find((l) => /^(fatal|error):/.test(l)) ?? lines[0] ?? "").slice(0, 300);
}
