// Real git repositories in temp dirs for tests.
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
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
