// Real git repositories in temp dirs for tests.
import { execFileSync } from "node:child_process";
import { mkdtempSync, renameSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";

export function git(cwd: string, ...args: string[]): string {
  return execFileSync("git", args, {
    cwd,
    encoding: "utf8",
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: "Test",
      GIT_AUTHOR_EMAIL: "t@example.com",
      GIT_COMMITTER_NAME: "Test",
      GIT_COMMITTER_EMAIL: "t@example.com",
    },
  }).trim();
}

/** A repo on branch main with one commit (README.md), in a new directory under `parent` (default: the temp dir). */
export function makeRepo(prefix = "yard-repo-", parent = os.tmpdir()): string {
  const dir = mkdtempSync(path.join(parent, prefix));
  git(dir, "init", "-q", "-b", "main");
  writeFileSync(path.join(dir, "README.md"), "# test repo\n");
  git(dir, "add", "README.md");
  git(dir, "commit", "-q", "-m", "initial commit");
  return dir;
}

/**
 * Removes a test's repository even while a still-running server works in it (it counts a task's
 * diff size in the background after each state change, writing git objects). The directory is
 * renamed first, so git started afterwards cannot find it; then removed with retries (Node's
 * linear backoff, ~10 s in all) while the processes already in it finish. A tree that still will
 * not go is left in the temp dir with a warning: cleanup is not what the test checks.
 */
export function removeRepo(dir: string): void {
  let target = dir;
  try {
    target = `${dir}.removing-${process.pid}`;
    renameSync(dir, target);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return;
    target = dir;
  }
  try {
    rmSync(target, { recursive: true, force: true, maxRetries: 20, retryDelay: 50 });
  } catch (e) {
    console.warn(`left ${target} behind: ${(e as Error).message}`);
  }
}
