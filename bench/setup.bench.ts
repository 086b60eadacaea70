// Ready worktrees, the dependencies fast path: how long a task on THIS repository takes from its
// start until its setup is done (a real task: worktree, pane, the setup wrapper), with
//   baseline  setup ["npm ci --ignore-scripts --offline"]   (a fresh install from the local npm
//             cache: no network, no install scripts, so that it measures the install, not the
//             registry, and stays within a couple of minutes)
//   fast      the documented snippet: when the worktree's package-lock.json is the main
//             checkout's, `cp -R --reflink=auto "$YARD_MAIN_CHECKOUT/node_modules" .` (a
//             copy-on-write clone where the file system can, a plain copy otherwise), else npm ci
// value/baseline: medians over YARD_BENCH_SETUP_RUNS alternating pairs (default 1: each side
// moves about a gigabyte); ratio fast / npm ci, target < 1. The note says whether the file
// system cloned (reflink) or copied. Each run's node_modules is checked to resolve a package.
// The tasks' worktrees and branches are made in this repository and removed after each run.
// Run standalone: npx tsx bench/setup.bench.ts
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { createServices, type Services } from "../server/composition";
import { REPO_ROOT } from "../server/root";
import { median } from "./stats";
import type { BenchResult } from "./types";

const RUNS = Math.max(1, Number(process.env.YARD_BENCH_SETUP_RUNS ?? 1));
const NPM_CI = "npm ci --ignore-scripts --offline --no-audit --no-fund --loglevel=error";
/** The snippet README.md documents for `setup`. */
const FAST_PATH = `if cmp -s "$YARD_MAIN_CHECKOUT/package-lock.json" package-lock.json && [ -d "$YARD_MAIN_CHECKOUT/node_modules" ]; then cp -R --reflink=auto "$YARD_MAIN_CHECKOUT/node_modules" .; else ${NPM_CI}; fi`;

/** Milliseconds from a task's start until its setup is done (its worktree is then checked and discarded). */
async function setupTime(services: Services, projectId: string, setup: string): Promise<number> {
  await services.projects.update({ id: projectId, repoConfig: { setup: [setup] } });
  const t0 = performance.now();
  let taskId: string | null = null;
  const seen: Array<{ taskId: string; cause: string }> = [];
  let wake: () => void = () => {};
  const off = services.journal.subscribe(
    (e) => {
      seen.push({ taskId: e.taskId ?? "", cause: String(e.payload.cause ?? e.payload.to) });
      wake();
    },
    { type: "task.state" },
  );
  try {
    const { task } = await services.tasks.start({
      projectId,
      objective: "setup bench",
      argv: ["sh", "-c", "exec sleep 600"],
    });
    taskId = task.id;
    for (;;) {
      const mine = seen.filter((s) => s.taskId === taskId).map((s) => s.cause);
      if (mine.includes("setup_done")) break;
      if (mine.includes("setup_failed") || mine.includes("failed"))
        throw new Error(`setup failed: ${JSON.stringify((await services.tasks.get(taskId)).evidence)}`);
      await new Promise<void>((r) => (wake = r));
    }
    const ms = performance.now() - t0;
    const wt = (await services.tasks.get(taskId)).worktreePath!;
    execFileSync(process.execPath, ["-e", "require.resolve('zod'); require.resolve('next/package.json')"], { cwd: wt });
    return ms;
  } finally {
    off();
    if (taskId) await services.tasks.finish(taskId, { discard: { deleteBranch: true, force: true } });
  }
}

/** Whether this file system clones files (cp --reflink=always works where the worktrees go). */
function reflinks(dir: string): boolean {
  const a = path.join(dir, "reflink-probe");
  writeFileSync(a, "x");
  const r = spawnSync("cp", ["--reflink=always", a, `${a}.clone`]);
  return r.status === 0;
}

export async function run(): Promise<BenchResult[]> {
  if (!existsSync(path.join(REPO_ROOT, "node_modules")))
    throw new Error("the setup benchmark copies this checkout's node_modules: run npm ci first");
  const committed = execFileSync("git", ["show", "HEAD:package-lock.json"], { cwd: REPO_ROOT, maxBuffer: 64 << 20 });
  if (!committed.equals(readFileSync(path.join(REPO_ROOT, "package-lock.json"))))
    throw new Error("package-lock.json differs from HEAD's: the fast path would not be taken");
  const work = mkdtempSync(path.join(os.tmpdir(), "yard-bench-setup-"));
  const home = path.join(work, "home");
  const clones = reflinks(work);
  const services = await createServices({
    home,
    token: "bench-token-bench-token-bench-token-123",
    url: () => "http://127.0.0.1:9",
  });
  try {
    const project = await services.projects.add({ path: REPO_ROOT, trustAgents: false });
    const fresh: number[] = [];
    const fast: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      // Alternate which goes first: the second finds more of the files in the page cache.
      if (i % 2 === 0) {
        fresh.push(await setupTime(services, project.id, NPM_CI));
        fast.push(await setupTime(services, project.id, FAST_PATH));
      } else {
        fast.push(await setupTime(services, project.id, FAST_PATH));
        fresh.push(await setupTime(services, project.id, NPM_CI));
      }
    }
    const du = spawnSync("du", ["-sm", path.join(REPO_ROOT, "node_modules")], { encoding: "utf8" });
    const value = median(fast);
    const baseline = median(fresh);
    const ratio = value / baseline;
    return [
      {
        name: "setup: fast path (cp --reflink=auto node_modules) vs npm ci --offline, a task on this repository",
        value,
        baseline,
        ratio,
        unit: "ms",
        target: "< 1×",
        pass: ratio < 1,
        note: `${RUNS} pair(s), start until setup done; node_modules ${du.stdout.split("\t")[0]} MB; ${clones ? "the file system clones (reflink)" : "no reflink here: a plain copy"}`,
      },
    ];
  } finally {
    await services.close();
    rmSync(work, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  for (const r of await run()) console.log(JSON.stringify(r));
}
