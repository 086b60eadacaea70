// Creating, listing and removing task worktrees.
//
//   createWorktree({ repoRoot, branch, baseSha, path?, yardHome? })
//     -> { worktreePath (realpath), branch, branchPreexisting, baseSha (full), headSha, repoRoot }
//     Under the repository lock. Existing branch: adopted (`git worktree add <path> <branch>`,
//     branchPreexisting = true, headSha = its tip, which may differ from baseSha). Otherwise
//     `git worktree add -b <branch> <path> <baseSha>`. Path: explicit `path` wins, else
//     defaultWorktreePath(yardHome, repoRoot, branch). An existing non-empty path (or a file)
//     is CONFLICT; a missing or empty directory is fine. A branch already checked out in
//     another worktree is CONFLICT. On any failure (including a failing post-checkout hook)
//     everything it created is removed again: worktree, its admin entry, the new branch, new
//     parent directories.
//   listWorktrees(repoRoot) -> [{ path, head|null, branch|null, detached, bare, locked, prunable }]
//   findWorktree(repoRoot, path) -> entry | null     (compares realpaths)
//   removeWorktree(repoRoot, path) -> { removed, wasRegistered }
//     `git worktree remove --force <path>` when registered, then `git worktree prune`.
//     A locked worktree is not forced (fails with GIT_FAILED). An unregistered directory is
//     never deleted. The main worktree is refused (BAD_PARAMS).
//   Caller holds the repository lock for removeWorktree (merge/discard do).

import { promises as fsp } from "node:fs";
import path from "node:path";
import { commonDirOfCheckout, neutralizeWorktreeRecords } from "./metadata";
import { YardError, isYardError } from "../errors";
import { gitStderr, isHexObjectId, runGit } from "./git";
import { withRepoLock } from "./lock";
import {
  defaultWorktreePath,
  dirState,
  mkdirpTracked,
  realpathOrResolveAsync,
  requireAbsolutePath,
  rmdirUpTo,
} from "./paths";
import { branchNameProblem, validateBranchName } from "./refs";
import { inspectRepo } from "./repo";

export interface CreateWorktreeInput {
  repoRoot: string;
  branch: string;
  baseSha: string;
  /** Explicit worktree path (absolute). Wins over the default location. */
  path?: string;
  /** Switchyard data dir; required when path is not given. */
  yardHome?: string;
}

export interface CreateWorktreeResult {
  worktreePath: string;
  branch: string;
  branchPreexisting: boolean;
  /** Full SHA of the requested base. */
  baseSha: string;
  /** What the worktree has checked out: baseSha for a new branch, the branch tip for an adopted one. */
  headSha: string;
  /** Top level of the source repository (realpath). */
  repoRoot: string;
}

export async function createWorktree(input: CreateWorktreeInput): Promise<CreateWorktreeResult> {
  if (!input || typeof input !== "object") throw new YardError("BAD_PARAMS", "createWorktree needs an options object");
  const repoArg = requireAbsolutePath(input.repoRoot, "repoRoot");
  const problem = branchNameProblem(input.branch);
  if (problem) throw new YardError("BAD_PARAMS", `invalid branch name: ${problem}`, { branch: input.branch ?? null });
  if (!isHexObjectId(input.baseSha))
    throw new YardError("BAD_PARAMS", "baseSha must be a hex commit id", { baseSha: input.baseSha ?? null });
  if (input.path === undefined && input.yardHome === undefined)
    throw new YardError("BAD_PARAMS", "either path or yardHome is required", {});
  const explicitPath = input.path !== undefined ? requireAbsolutePath(input.path, "path") : undefined;
  if (input.yardHome !== undefined) requireAbsolutePath(input.yardHome, "yardHome");

  const [repo, branch] = await Promise.all([inspectRepo(repoArg), validateBranchName(input.branch)]);
  const target = explicitPath ?? defaultWorktreePath(input.yardHome!, repo.root, branch);
  if (
    target === repo.root ||
    target.startsWith(repo.gitDir + path.sep) ||
    target === repo.gitDir ||
    target === repo.commonDir ||
    target.startsWith(repo.commonDir + path.sep)
  ) {
    throw new YardError(
      "BAD_PARAMS",
      "the worktree path must not be the repository itself or inside its .git directory",
      { path: target },
    );
  }

  return withRepoLock(repo.commonDir, async () => {
    // One git call answers both "is the base a commit" and "does the branch exist".
    const check = await runGit(["cat-file", "--batch-check"], {
      cwd: repo.root,
      input: `${input.baseSha}^{commit}\nrefs/heads/${branch}\n`,
    });
    const [baseLine = "", branchLine = ""] = check.stdout.split("\n");
    const baseM = /^([0-9a-f]{40,64}) commit /.exec(baseLine);
    if (!baseM)
      throw new YardError("BAD_PARAMS", `base ${input.baseSha} is not a commit in ${repo.root}`, {
        baseSha: input.baseSha,
        repo: repo.root,
      });
    const baseSha = baseM[1]!;
    const branchM = /^([0-9a-f]{40,64}) commit /.exec(branchLine);
    const branchPreexisting = branchM !== null;
    const headSha = branchM ? branchM[1]! : baseSha;

    const state = await dirState(target);
    if (state === "non-empty-dir" || state === "not-a-dir") {
      throw new YardError("CONFLICT", `worktree path ${target} already exists and is not an empty directory`, {
        path: target,
      });
    }
    const createdTop = await mkdirpTracked(path.dirname(target));

    const args = branchPreexisting
      ? ["worktree", "add", "--quiet", "--", target, branch]
      : ["worktree", "add", "--quiet", "--no-track", "-b", branch, "--", target, baseSha];
    try {
      await runGit(args, { cwd: repo.root });
    } catch (e) {
      await rollbackCreate(repo.root, target, state, branchPreexisting ? null : { branch, sha: baseSha }, createdTop);
      const err = gitStderr(e);
      if (/already checked out at|is already used by worktree|already locked/i.test(err)) {
        const at = /(?:checked out at|used by worktree at) '([^']+)'/.exec(err)?.[1];
        throw new YardError("CONFLICT", `branch '${branch}' is already checked out in another worktree`, {
          branch,
          checkedOutAt: at ?? null,
        });
      }
      throw e;
    }
    const worktreePath = await realpathOrResolveAsync(target);
    return { worktreePath, branch, branchPreexisting, baseSha, headSha, repoRoot: repo.root };
  });
}

async function rollbackCreate(
  root: string,
  target: string,
  priorState: "missing" | "empty-dir",
  newBranch: { branch: string; sha: string } | null,
  createdTop: string | undefined,
): Promise<void> {
  try {
    const wt = await findWorktree(root, target);
    if (wt) await runGit(["worktree", "remove", "--force", "--force", "--", wt.path], { cwd: root, allowFail: true });
  } catch {
    /* best effort */
  }
  try {
    if (priorState === "missing") {
      await fsp.rm(target, { recursive: true, force: true });
    } else {
      for (const e of await fsp.readdir(target).catch(() => [] as string[]))
        await fsp.rm(path.join(target, e), { recursive: true, force: true });
    }
  } catch {
    /* best effort */
  }
  await runGit(["worktree", "prune"], { cwd: root, allowFail: true });
  if (newBranch) {
    // Delete the branch only if it still is exactly what we created.
    await runGit(["update-ref", "-d", `refs/heads/${newBranch.branch}`, newBranch.sha], { cwd: root, allowFail: true });
  }
  await rmdirUpTo(path.dirname(target), createdTop);
}

export interface WorktreeEntry {
  path: string;
  head: string | null;
  branch: string | null;
  detached: boolean;
  bare: boolean;
  locked: boolean;
  prunable: boolean;
}

export async function listWorktrees(repoRoot: string): Promise<WorktreeEntry[]> {
  const cwd = requireAbsolutePath(repoRoot, "repoRoot");
  // git reads every worktree's HEAD and lock file here; an agent can replace its own with a FIFO.
  const commonDir = await commonDirOfCheckout(cwd);
  if (commonDir) await neutralizeWorktreeRecords(commonDir);
  const out = (await runGit(["worktree", "list", "--porcelain", "-z"], { cwd })).stdout;
  return parseWorktreeList(out);
}

/** Parse `git worktree list --porcelain -z`. Pure. */
export function parseWorktreeList(out: string): WorktreeEntry[] {
  const list: WorktreeEntry[] = [];
  let cur: WorktreeEntry | null = null;
  for (const field of out.split("\0")) {
    if (field === "") {
      if (cur) list.push(cur);
      cur = null;
      continue;
    }
    const sp = field.indexOf(" ");
    const key = sp < 0 ? field : field.slice(0, sp);
    const val = sp < 0 ? "" : field.slice(sp + 1);
    if (key === "worktree") {
      if (cur) list.push(cur);
      cur = { path: val, head: null, branch: null, detached: false, bare: false, locked: false, prunable: false };
      continue;
    }
    if (!cur) continue;
    if (key === "HEAD") cur.head = val;
    else if (key === "branch") cur.branch = val.startsWith("refs/heads/") ? val.slice("refs/heads/".length) : val;
    else if (key === "detached") cur.detached = true;
    else if (key === "bare") cur.bare = true;
    else if (key === "locked") cur.locked = true;
    else if (key === "prunable") cur.prunable = true;
  }
  if (cur) list.push(cur);
  return list;
}

export async function findWorktree(repoRoot: string, worktreePath: string): Promise<WorktreeEntry | null> {
  const want = await realpathOrResolveAsync(requireAbsolutePath(worktreePath, "worktreePath"));
  const resolved = path.resolve(worktreePath);
  for (const wt of await listWorktrees(repoRoot)) {
    if (wt.path === resolved || wt.path === want || (await realpathOrResolveAsync(wt.path)) === want) return wt;
  }
  return null;
}

export interface RemoveWorktreeResult {
  removed: boolean;
  /** False when git had no record of a worktree at that path (nothing was touched). */
  wasRegistered: boolean;
}

/** Remove one registered worktree (forcefully: uncommitted work in it is lost) and prune. Caller holds the repo lock. */
export async function removeWorktree(repoRoot: string, worktreePath: string): Promise<RemoveWorktreeResult> {
  const root = requireAbsolutePath(repoRoot, "repoRoot");
  const all = await listWorktrees(root);
  const main = all[0];
  const want = await realpathOrResolveAsync(requireAbsolutePath(worktreePath, "worktreePath"));
  let wt: WorktreeEntry | undefined;
  for (const w of all) {
    if (w.path === want || w.path === path.resolve(worktreePath) || (await realpathOrResolveAsync(w.path)) === want) {
      wt = w;
      break;
    }
  }
  if (!wt) {
    await runGit(["worktree", "prune"], { cwd: root, allowFail: true });
    return { removed: false, wasRegistered: false };
  }
  if (wt === main)
    throw new YardError("BAD_PARAMS", "refusing to remove the repository's main worktree", { path: wt.path });
  try {
    await runGit(["worktree", "remove", "--force", "--", wt.path], { cwd: root });
  } catch (e) {
    if (isYardError(e) && /locked/i.test(gitStderr(e))) {
      throw new YardError(
        "GIT_FAILED",
        `worktree ${wt.path} is locked; unlock it (git worktree unlock) to remove it`,
        e.details,
      );
    }
    // A worktree holding a nested repository or submodule (an agent can commit one) needs a
    // second --force; it is not locked (that refusal came first), so this removes nothing else.
    if (!(isYardError(e) && /containing submodules/i.test(gitStderr(e)))) throw e;
    await runGit(["worktree", "remove", "--force", "--force", "--", wt.path], { cwd: root });
  } finally {
    await runGit(["worktree", "prune"], { cwd: root, allowFail: true });
  }
  return { removed: true, wasRegistered: true };
}
