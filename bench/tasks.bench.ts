// Task engine benchmarks on a generated repository of 2,000 files, each against a baseline
// measured in the same run:
//   - task start until `pending` returns vs raw `git worktree add -b` + spawning the same process
//     in a PTY (target ≤ 1.5×)
//   - tasks.diff vs raw `git diff <base>` + `git ls-files --others` of the same change set
//     (target ≤ 1.5×)
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import * as pty from "node-pty";
import { createServices } from "../server/composition";
import { median } from "./stats";
import type { BenchResult } from "./types";

const RUNS = 7;

const git = (cwd: string, ...args: string[]) =>
  execFileSync("git", args, {
    cwd,
    encoding: "utf8",
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: "b",
      GIT_AUTHOR_EMAIL: "b@b",
      GIT_COMMITTER_NAME: "b",
      GIT_COMMITTER_EMAIL: "b@b",
    },
  });

function makeRepo(dir: string) {
  git(dir, "init", "-q", "-b", "main");
  for (let i = 0; i < 2000; i++) {
    const d = path.join(dir, `pkg${i % 40}`);
    mkdirSync(d, { recursive: true });
    writeFileSync(path.join(d, `file${i}.ts`), `export const value${i} = ${i};\n`.repeat(20));
  }
  git(dir, "add", "-A");
  git(dir, "commit", "-qm", "2000 files");
}

function spawnInPty(argv: string[], cwd: string): pty.IPty {
  return pty.spawn(argv[0]!, argv.slice(1), { cwd, cols: 120, rows: 32, env: process.env as Record<string, string> });
}

export async function run(): Promise<BenchResult[]> {
  const work = mkdtempSync(path.join(os.tmpdir(), "yard-bench-tasks-"));
  const repo = path.join(work, "repo");
  mkdirSync(repo);
  makeRepo(repo);
  const home = path.join(work, "home");
  const services = await createServices({
    home,
    token: "bench-token-bench-token-bench-token-123",
    url: () => "http://127.0.0.1:9",
  });
  const argv = ["sh", "-c", "sleep 30"];
  try {
    // warm-up (git, node-pty, Prisma) for both sides
    const w = await services.tasks.start({ repoPath: repo, objective: "warm-up", argv, readyTimeoutMs: 60_000 });
    await services.tasks.finish(w.task.id, { discard: { deleteBranch: true } });

    const ours: number[] = [];
    const raw: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      let t = performance.now();
      const { task } = await services.tasks.start({
        repoPath: repo,
        objective: `bench ${i}`,
        argv,
        readyTimeoutMs: 60_000,
      });
      ours.push(performance.now() - t);
      await services.tasks.finish(task.id, { discard: { deleteBranch: true } });

      const wt = path.join(work, `raw-${i}`);
      t = performance.now();
      git(repo, "worktree", "add", "-q", "-b", `raw-${i}`, wt, "HEAD");
      const p = spawnInPty(argv, wt);
      raw.push(performance.now() - t);
      p.kill();
      git(repo, "worktree", "remove", "--force", wt);
    }
    const start = { value: median(ours), baseline: median(raw) };

    // a change set in one task's worktree: 50 modified files and 10 untracked ones
    const { task } = await services.tasks.start({
      repoPath: repo,
      objective: "diff bench",
      argv,
      readyTimeoutMs: 60_000,
    });
    const wt = task.worktreePath!;
    for (let i = 0; i < 50; i++)
      writeFileSync(path.join(wt, `pkg${i % 40}`, `file${i}.ts`), `export const changed${i} = true;\n`);
    for (let i = 0; i < 10; i++) writeFileSync(path.join(wt, `new${i}.ts`), `export const added${i} = ${i};\n`);
    const diffOurs: number[] = [];
    const diffRaw: number[] = [];
    await services.tasks.diff(task.id);
    for (let i = 0; i < RUNS; i++) {
      let t = performance.now();
      const d = await services.tasks.diff(task.id);
      diffOurs.push(performance.now() - t);
      if (d.files.length !== 60) throw new Error(`expected 60 changed files, got ${d.files.length}`);
      t = performance.now();
      git(wt, "diff", task.baseSha!);
      git(wt, "ls-files", "--others", "--exclude-standard");
      diffRaw.push(performance.now() - t);
    }
    await services.tasks.finish(task.id, { discard: { deleteBranch: true } });
    const diff = { value: median(diffOurs), baseline: median(diffRaw) };

    const result = (name: string, m: { value: number; baseline: number }, note: string): BenchResult => {
      const ratio = m.value / m.baseline;
      return {
        name,
        value: m.value,
        baseline: m.baseline,
        ratio,
        unit: "ms",
        target: "≤ 1.5×",
        pass: ratio <= 1.5,
        note,
      };
    };
    return [
      result("task start until pending vs git worktree add + spawn", start, `median of ${RUNS}, 2,000-file repo`),
      result("tasks.diff vs git diff + ls-files --others", diff, `median of ${RUNS}, 50 modified + 10 untracked`),
    ];
  } finally {
    await services.close();
    rmSync(work, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const r of await run()) console.log(r);
}
