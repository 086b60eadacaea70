// Working-tree state: what is uncommitted, and whether a merge/rebase/cherry-pick/revert is
// half done. Read-only: runs with GIT_OPTIONAL_LOCKS=0 (set by runGit), so the index file is
// never refreshed or rewritten. Nested repositories and submodules are never entered
// (--ignore-submodules=all): their config is whatever an agent wrote, and git would run its
// fsmonitor or other programs on the host.
//
//   statusEntries(path, {untracked?: 'no'|'normal'|'all'}) -> [{ path, x, y }]   (porcelain v1 codes; '??' untracked)
//   operationInProgress(gitDir) -> 'merge'|'rebase'|'cherry-pick'|'revert'|null
//
// BAD_PARAMS when path is not a git work tree.

import { promises as fsp } from "node:fs";
import path from "node:path";
import { YardError } from "../errors";
import { gitStderr, runGit } from "./git";
import { requireAbsolutePath } from "./paths";

export interface StatusEntry {
  path: string;
  /** Index (staged) status letter, ' ' for none, '?' for untracked. */
  x: string;
  /** Work-tree status letter. */
  y: string;
}

export interface StatusOptions {
  untracked?: "no" | "normal" | "all";
}

export async function statusEntries(p: string, opts: StatusOptions = {}): Promise<StatusEntry[]> {
  const cwd = requireAbsolutePath(p, "path");
  let out: string;
  try {
    out = (
      await runGit(
        [
          "status",
          "--porcelain=v1",
          "-z",
          "--no-renames",
          "--ignore-submodules=all",
          `--untracked-files=${opts.untracked ?? "normal"}`,
          "--ignored=no",
        ],
        { cwd },
      )
    ).stdout;
  } catch (e) {
    const err = gitStderr(e);
    if (/not a git repository|must be run in a work tree/i.test(err))
      throw new YardError("BAD_PARAMS", `${cwd} is not a git working tree`, { path: cwd });
    if ((e as YardError).code === "GIT_FAILED" && /cannot run git in/.test((e as Error).message))
      throw new YardError("BAD_PARAMS", `${cwd} does not exist`, { path: cwd });
    throw e;
  }
  return parsePorcelainZ(out);
}

/** Parse `git status --porcelain=v1 -z --no-renames`. Pure. */
export function parsePorcelainZ(out: string): StatusEntry[] {
  const entries: StatusEntry[] = [];
  for (const rec of out.split("\0")) {
    if (rec.length < 4) continue;
    entries.push({ x: rec[0]!, y: rec[1]!, path: rec.slice(3) });
  }
  return entries;
}

export type GitOperation = "merge" | "rebase" | "cherry-pick" | "revert";

/** Which multi-step operation is in progress in the work tree whose git dir is `gitDir`, if any. */
export async function operationInProgress(gitDir: string): Promise<GitOperation | null> {
  const exists = async (name: string) => {
    try {
      await fsp.lstat(path.join(gitDir, name));
      return true;
    } catch {
      return false;
    }
  };
  const [merge, rebaseMerge, rebaseApply, pick, revert] = await Promise.all([
    exists("MERGE_HEAD"),
    exists("rebase-merge"),
    exists("rebase-apply"),
    exists("CHERRY_PICK_HEAD"),
    exists("REVERT_HEAD"),
  ]);
  if (merge) return "merge";
  if (rebaseMerge || rebaseApply) return "rebase";
  if (pick) return "cherry-pick";
  if (revert) return "revert";
  return null;
}
