// Helpers for the git core's tests (server/core/git/*.test.ts): throwaway repositories in
// os.tmpdir(), isolated from the user's global/system git config (GIT_CONFIG_GLOBAL -> an empty
// file, GIT_CONFIG_NOSYSTEM, set on import for the whole test process), so "no identity
// configured" and every other default is what the tests expect. Commands go through the core's
// own runGit. The integration tests use the simpler helpers in git.ts beside this file, which
// leave the process's git config alone (the servers they start inherit it).
// Test files and benchmarks only: production modules never import this.

import { mkdtempSync, writeFileSync, promises as fsp } from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect } from "vitest";
import { YardError } from "../../server/core/errors";
import { runGit } from "../../server/core/git/git";
import { createWorktree } from "../../server/core/git/worktree";

const isolation = mkdtempSync(path.join(os.tmpdir(), "yard-gitcfg-"));
const emptyGlobal = path.join(isolation, "gitconfig");
writeFileSync(emptyGlobal, "");
process.env.GIT_CONFIG_GLOBAL = emptyGlobal;
process.env.GIT_CONFIG_NOSYSTEM = "1";
delete process.env.GIT_AUTHOR_NAME;
delete process.env.GIT_AUTHOR_EMAIL;
delete process.env.GIT_COMMITTER_NAME;
delete process.env.GIT_COMMITTER_EMAIL;

/** Identity used by the helpers' own commits (never leaks into process.env). */
const TEST_ID_ENV = {
  GIT_AUTHOR_NAME: "Test Author",
  GIT_AUTHOR_EMAIL: "author@example.com",
  GIT_COMMITTER_NAME: "Test Author",
  GIT_COMMITTER_EMAIL: "author@example.com",
};

const made: string[] = [isolation];

export async function tmpDir(prefix = "yard-git-"): Promise<string> {
  const d = await fsp.realpath(await fsp.mkdtemp(path.join(os.tmpdir(), prefix)));
  made.push(d);
  return d;
}

export async function removeTmpDirs(): Promise<void> {
  await Promise.all(made.splice(0).map((d) => fsp.rm(d, { recursive: true, force: true })));
}

/**
 * What the person's own git may do that the server's may not: clone and fetch local paths
 * (runGit forbids the file transport, for submodules an agent could plant).
 */
const AS_USER = ["-c", "protocol.file.allow=user"];

/** Run git with the test identity; returns trimmed stdout. Throws on failure. */
export async function git(cwd: string, ...args: string[]): Promise<string> {
  return (await runGit([...AS_USER, ...args], { cwd, env: TEST_ID_ENV })).stdout.trim();
}

/** Like git() but returns the exit code instead of throwing. */
export async function gitCode(cwd: string, ...args: string[]): Promise<number> {
  return (await runGit([...AS_USER, ...args], { cwd, env: TEST_ID_ENV, allowFail: true })).code;
}

export async function write(root: string, rel: string, content: string | Buffer): Promise<void> {
  const p = path.join(root, rel);
  await fsp.mkdir(path.dirname(p), { recursive: true });
  await fsp.writeFile(p, content);
}

export async function read(root: string, rel: string): Promise<string> {
  return fsp.readFile(path.join(root, rel), "utf8");
}

export async function exists(p: string): Promise<boolean> {
  try {
    await fsp.lstat(p);
    return true;
  } catch {
    return false;
  }
}

export async function commitAll(cwd: string, message: string): Promise<string> {
  await git(cwd, "add", "-A");
  await git(cwd, "commit", "-q", "--allow-empty", "-m", message);
  return git(cwd, "rev-parse", "HEAD");
}

export interface TestRepo {
  root: string;
  head: string;
}

/** A fresh non-bare repository on `main` with one commit of `files` (default: README.md). */
export async function makeRepo(
  files: Record<string, string | Buffer> = { "README.md": "hello\n" },
  name = "repo",
): Promise<TestRepo> {
  const parent = await tmpDir("yard-repo-");
  const root = path.join(parent, name);
  await fsp.mkdir(root);
  await git(root, "init", "-q", "-b", "main");
  for (const [rel, content] of Object.entries(files)) await write(root, rel, content);
  const head = await commitAll(root, "initial");
  return { root, head };
}

/** Local branch names, sorted. */
export async function branches(root: string): Promise<string[]> {
  const out = await git(root, "for-each-ref", "--format=%(refname:short)", "refs/heads/");
  return out ? out.split("\n").sort() : [];
}

/** Registered worktree paths (porcelain), in git's order. */
export async function worktreePaths(root: string): Promise<string[]> {
  const out = await git(root, "worktree", "list", "--porcelain");
  return out
    .split("\n")
    .filter((l) => l.startsWith("worktree "))
    .map((l) => l.slice("worktree ".length));
}

/** Awaits p and asserts it rejected with a YardError of this code; returns the error. */
export async function rejectsWith(p: Promise<unknown>, code: string): Promise<YardError> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(YardError);
    expect((e as YardError).code).toBe(code);
    return e as YardError;
  }
  throw new Error(`expected ${code}`);
}

/** A repository with `files` on main and a task worktree on branch "task" cut from it, in a temp dir. */
export async function repoWithTaskWorktree(files: Record<string, string>): Promise<{ repo: TestRepo; wt: string }> {
  const repo = await makeRepo(files);
  const wt = (
    await createWorktree({
      repoRoot: repo.root,
      branch: "task",
      baseSha: repo.head,
      path: path.join(await tmpDir(), "wt"),
    })
  ).worktreePath;
  return { repo, wt };
}
