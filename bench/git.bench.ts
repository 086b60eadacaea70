// Git layer benchmark: Switchyard's git operations against the raw git commands they wrap,
// on a generated repository of 2,000 files (one commit, packed) in os.tmpdir().
//   git.createWorktree  createWorktree (validation + repo inspection + lock + base/branch check +
//                       worktree add) vs raw `git worktree add -b <branch> <path> <base>`
//   git.diffWorktree    diffWorktree (temp index + add -A + diff --cached, 50 modified + 10
//                       untracked files) vs raw `git diff <base>` then `git ls-files --others --exclude-standard`
// value/baseline: medians of several alternating runs; ratio: median of the per-run
// (ours / raw) ratios, each pair measured back to back. Target ratio <= 1.5.
// Run standalone: npx tsx bench/git.bench.ts

import { execFile } from "node:child_process";
import { promises as fsp } from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { createWorktree } from "../server/core/git/worktree";
import { diffWorktree } from "../server/core/git/diff";
import { median } from "./stats";
import type { BenchResult } from "./types";

const exec = promisify(execFile);
const FILES = 2000;
const RUNS_CREATE = 7;
const RUNS_DIFF = 31;
const TARGET_RATIO = 1.5;

const GIT_ENV = {
  ...process.env,
  GIT_TERMINAL_PROMPT: "0",
  LC_ALL: "C",
  GIT_AUTHOR_NAME: "Bench",
  GIT_AUTHOR_EMAIL: "bench@example.com",
  GIT_COMMITTER_NAME: "Bench",
  GIT_COMMITTER_EMAIL: "bench@example.com",
};

async function rawGit(cwd: string, ...args: string[]): Promise<string> {
  const r = await exec("git", args, { cwd, env: GIT_ENV, maxBuffer: 256 * 1024 * 1024 });
  return r.stdout;
}

/**
 * Median of per-run ratios. Each run measures ours and raw back to back, so a burst of load
 * from elsewhere on the machine hits both sides of a pair; this is steadier than the ratio of
 * the two medians on a busy box.
 */
function pairedRatio(ours: number[], raw: number[]): number {
  return median(ours.map((o, i) => o / raw[i]!));
}

const round = (x: number) => Math.round(x * 100) / 100;

async function time(fn: () => Promise<unknown>): Promise<number> {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
}

async function makeRepo(dir: string): Promise<{ root: string; base: string }> {
  const root = path.join(dir, "bench-repo");
  await fsp.mkdir(root);
  await rawGit(root, "init", "-q", "-b", "main");
  const body = (i: number) =>
    `${Array.from({ length: 30 }, (_, l) => `file ${i} line ${l} ${"x".repeat(20)}`).join("\n")}\n`;
  const writes: Promise<void>[] = [];
  for (let i = 0; i < FILES; i++) {
    const sub = path.join(root, `dir${String(i % 40).padStart(2, "0")}`);
    writes.push(fsp.mkdir(sub, { recursive: true }).then(() => fsp.writeFile(path.join(sub, `f${i}.txt`), body(i))));
  }
  await Promise.all(writes);
  await fsp.writeFile(path.join(root, ".gitignore"), "*.log\n");
  await rawGit(root, "add", "-A");
  await rawGit(root, "commit", "-q", "-m", "bench base");
  // Pack the objects, as in any cloned or gc'd repository (a never-packed repo makes git
  // freshen one loose object per re-hashed file on every `add`, which real repos do not do).
  await rawGit(root, "repack", "-a", "-d", "-q");
  await rawGit(root, "prune-packed");
  const base = (await rawGit(root, "rev-parse", "HEAD")).trim();
  return { root, base };
}

async function benchCreate(dir: string, root: string, base: string): Promise<BenchResult> {
  const home = path.join(dir, "yard-home");
  const rawDir = path.join(dir, "raw-wt");
  await fsp.mkdir(rawDir);
  const ours: number[] = [];
  const raw: number[] = [];
  const cleanup = async (p: string, branch: string) => {
    await rawGit(root, "worktree", "remove", "--force", p);
    await rawGit(root, "branch", "-D", branch);
  };
  for (let i = -1; i < RUNS_CREATE; i++) {
    // Alternate which side goes first to spread cache effects; i = -1 is a warm-up.
    const runOurs = async () => {
      const branch = `bench-ours-${i + 1}`;
      let wt = "";
      const ms = await time(async () => {
        wt = (await createWorktree({ repoRoot: root, branch, baseSha: base, yardHome: home })).worktreePath;
      });
      if (i >= 0) ours.push(ms);
      await cleanup(wt, branch);
    };
    const runRaw = async () => {
      const branch = `bench-raw-${i + 1}`;
      const p = path.join(rawDir, branch);
      const ms = await time(() => rawGit(root, "worktree", "add", "-q", "-b", branch, p, base));
      if (i >= 0) raw.push(ms);
      await cleanup(p, branch);
    };
    if (i % 2 === 0) {
      await runOurs();
      await runRaw();
    } else {
      await runRaw();
      await runOurs();
    }
  }
  const value = median(ours);
  const baseline = median(raw);
  const ratio = pairedRatio(ours, raw);
  return {
    name: "git.createWorktree",
    value: round(value),
    baseline: round(baseline),
    ratio: round(ratio),
    unit: "ms",
    target: `ratio <= ${TARGET_RATIO}`,
    pass: ratio <= TARGET_RATIO,
    note: `median of ${RUNS_CREATE}; ${FILES}-file repo; baseline: git worktree add -b (pane spawn not included on either side)`,
  };
}

async function benchDiff(dir: string, root: string, base: string): Promise<BenchResult> {
  const wtPath = path.join(dir, "diff-wt");
  await rawGit(root, "worktree", "add", "-q", "-b", "bench-diff", wtPath, base);
  for (let i = 0; i < 50; i++) {
    const f = path.join(wtPath, `dir${String(i % 40).padStart(2, "0")}`, `f${i}.txt`);
    await fsp.appendFile(f, `changed line ${i}\n`);
  }
  for (let i = 0; i < 10; i++) await fsp.writeFile(path.join(wtPath, `untracked-${i}.txt`), `new file ${i}\n`);
  await fsp.writeFile(path.join(wtPath, "ignored.log"), "ignored\n");

  const ours: number[] = [];
  const raw: number[] = [];
  let files = 0;
  for (let i = -1; i < RUNS_DIFF; i++) {
    const runOurs = async () => {
      const ms = await time(async () => {
        files = (await diffWorktree({ worktreePath: wtPath, baseSha: base })).files.length;
      });
      if (i >= 0) ours.push(ms);
    };
    const runRaw = async () => {
      const ms = await time(async () => {
        await rawGit(wtPath, "diff", base);
        await rawGit(wtPath, "ls-files", "--others", "--exclude-standard");
      });
      if (i >= 0) raw.push(ms);
    };
    if (i % 2 === 0) {
      await runOurs();
      await runRaw();
    } else {
      await runRaw();
      await runOurs();
    }
  }
  if (files !== 60) throw new Error(`diffWorktree reported ${files} files, expected 60`);
  const value = median(ours);
  const baseline = median(raw);
  const ratio = pairedRatio(ours, raw);
  return {
    name: "git.diffWorktree",
    value: round(value),
    baseline: round(baseline),
    ratio: round(ratio),
    unit: "ms",
    target: `ratio <= ${TARGET_RATIO}`,
    pass: ratio <= TARGET_RATIO,
    note: `median of ${RUNS_DIFF}; 50 modified + 10 untracked of ${FILES} files; baseline: git diff <base> + git ls-files --others --exclude-standard (sequential); ours also yields per-file stats and untracked contents`,
  };
}

export async function run(): Promise<BenchResult[]> {
  const dir = await fsp.realpath(await fsp.mkdtemp(path.join(os.tmpdir(), "yard-git-bench-")));
  try {
    const { root, base } = await makeRepo(dir);
    const create = await benchCreate(dir, root, base);
    const diff = await benchDiff(dir, root, base);
    return [create, diff];
  } finally {
    await fsp.rm(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  run().then(
    (results) => {
      for (const r of results) {
        console.log(
          `${r.pass ? "PASS" : "FAIL"} ${r.name}: ${r.value} ${r.unit} vs ${r.baseline} ${r.unit} (ratio ${r.ratio}, target ${r.target})`,
        );
      }
      console.log(JSON.stringify(results, null, 2));
      process.exitCode = results.every((r) => r.pass) ? 0 : 1;
    },
    (e) => {
      console.error(e);
      process.exitCode = 2;
    },
  );
}
