// Browser benchmarks with the Playwright library and Debian's Chromium, each against a baseline
// measured in the same run (never asserted in tests):
//   - the board with 1,000 tasks: time until interactive (all cards rendered and no long task
//     after), target < 1.5 s; baseline: the same board with no tasks
//   - the Changes tab on a 300-file / 20,000-line diff: time to first painted file and the main
//     thread's longest task while it loads, target < 200 ms; baseline: a 1-file diff
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { chromium, type Page } from "@playwright/test";
import { ensureUiBuilt } from "../scripts/build-ui";
import { createServices } from "../server/composition";
import { startTestServer } from "../tests/helpers/server";
import { median } from "./stats";
import type { BenchResult } from "./types";

const RUNS = 5;
const CHROMIUM = process.env.YARD_CHROMIUM ?? "/usr/bin/chromium";
const ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  "--disable-quic",
];

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

function makeRepo(dir: string, files: number) {
  mkdirSync(dir, { recursive: true });
  git(dir, "init", "-q", "-b", "main");
  for (let i = 0; i < files; i++) {
    mkdirSync(path.join(dir, `src/mod${i % 20}`), { recursive: true });
    writeFileSync(
      path.join(dir, `src/mod${i % 20}/file${i}.ts`),
      Array.from({ length: 40 }, (_, k) => `export const value${i}_${k} = ${k}; // original line ${k}`).join("\n") +
        "\n",
    );
  }
  writeFileSync(path.join(dir, "README.md"), "# bench\n");
  git(dir, "add", "-A");
  git(dir, "commit", "-qm", "base");
}

/** Page-side instrumentation: long tasks from navigation on (buffered). */
const INSTRUMENT = `window.__longTasks = []; try { new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__longTasks.push({ start: e.startTime, duration: e.duration }); }).observe({ type: "longtask", buffered: true }); } catch {}`;

async function boardTti(page: Page, url: string, cards: number): Promise<number> {
  await page.goto(url, { waitUntil: "commit" });
  const ready = (await (
    await page.waitForFunction(
      (n) => {
        const cols = document.querySelectorAll("section[data-column] h2 [aria-label$='tasks']").length === 5;
        return cols && document.querySelectorAll("[data-card]").length === n ? performance.now() : 0;
      },
      cards,
      { polling: "raf", timeout: 60_000 },
    )
  ).jsonValue()) as number;
  // Interactive: the main thread has had no long task for 500 ms after the cards were there.
  await page.waitForTimeout(600);
  const tasks = (await page.evaluate("window.__longTasks")) as Array<{ start: number; duration: number }>;
  const lastEnd = tasks.reduce((m, t) => Math.max(m, t.start + t.duration), 0);
  return Math.max(ready, lastEnd);
}

async function diffLoad(page: Page, url: string): Promise<{ firstPaint: number; longest: number }> {
  await page.goto(url, { waitUntil: "commit" });
  const firstPaint = (await (
    await page.waitForFunction(
      () => (document.querySelector("[data-diff-file] table.diff") ? performance.now() : 0),
      undefined,
      { polling: "raf", timeout: 120_000 },
    )
  ).jsonValue()) as number;
  await page.waitForTimeout(1500);
  // Scroll through part of it, as a reviewer would: mounting more files must not freeze either.
  for (let i = 0; i < 10; i++) {
    await page.mouse.wheel(0, 2000);
    await page.waitForTimeout(50);
  }
  await page.waitForTimeout(500);
  const tasks = (await page.evaluate("window.__longTasks")) as Array<{ start: number; duration: number }>;
  return { firstPaint, longest: tasks.reduce((m, t) => Math.max(m, t.duration), 0) };
}

export async function run(): Promise<BenchResult[]> {
  await ensureUiBuilt(() => {});
  const work = mkdtempSync(path.join(os.tmpdir(), "yard-bench-ui-"));
  const home = path.join(work, "home");
  const bigRepo = path.join(work, "big");
  const smallRepo = path.join(work, "small");
  makeRepo(bigRepo, 300);
  makeRepo(smallRepo, 1);

  // Seed: a project with 1,000 tasks spread over the columns, an empty one, and two tasks whose
  // worktrees hold a 300-file / 20,000-line change and a 1-file change.
  const services = await createServices({
    home,
    token: "bench-token-bench-token-bench-token-123",
    url: () => "http://127.0.0.1:9",
  });
  const big = await services.projects.add({ path: bigRepo, name: "big" });
  const empty = await services.projects.add({ path: smallRepo, name: "empty" });
  const argv = ["sh", "-c", "sleep 3600"];
  const bigTask = (
    await services.tasks.start({ projectId: big.id, objective: "bench diff", argv, readyTimeoutMs: 60_000 })
  ).task;
  const smallTask = (
    await services.tasks.start({ projectId: empty.id, objective: "bench small diff", argv, readyTimeoutMs: 60_000 })
  ).task;
  const states = ["backlog", "working", "input_required", "completed", "completed", "failed", "canceled"];
  const now = Date.now();
  await services.db.task.createMany({
    data: Array.from({ length: 1000 }, (_, i) => ({
      id: `tskbench${String(i).padStart(6, "0")}`,
      title: `Task ${i}: ${["Fix the flaky retry", "Add pagination to the list", "Refactor the parser", "Write docs for the CLI", "Speed up the diff"][i % 5]}`,
      label: ["bug", "feature", "docs", null][i % 4],
      contextId: `ctx${i % 7}`,
      projectId: big.id,
      repoPath: bigRepo,
      agent: i % 3 ? "demo" : "claude",
      objective: "bench",
      state: states[i % states.length]!,
      disposition: i % 10 === 9 ? "merged" : null,
      round: 1 + (i % 3),
      createdAt: new Date(now - i * 60_000),
    })),
  });
  // Each task's current round row (start-up recovery updates it for the running ones).
  await services.db.taskRound.createMany({
    data: Array.from({ length: 1000 }, (_, i) => ({
      id: `rndbench${String(i).padStart(6, "0")}`,
      taskId: `tskbench${String(i).padStart(6, "0")}`,
      number: 1 + (i % 3),
      state: states[i % states.length]!,
    })),
  });
  for (let i = 0; i < 300; i++) {
    const f = path.join(bigTask.worktreePath!, `src/mod${i % 20}/file${i}.ts`);
    // 40 lines changed (−40 +40) minus a little, ≈ 67 changed lines per file, 20,000 in all
    writeFileSync(
      f,
      Array.from({ length: 33 }, (_, k) => `export const value${i}_${k} = ${k * 2}; // changed line ${k}`).join("\n") +
        "\n",
    );
  }
  writeFileSync(path.join(smallTask.worktreePath!, "README.md"), "# bench\nchanged\n");
  const diffLines = (await services.tasks.diff(bigTask.id)).files.reduce((n, f) => n + f.additions + f.deletions, 0);
  await services.close();

  const server = await startTestServer({ home, ui: true });
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
  try {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    await context.addInitScript(INSTRUMENT);
    const page = await context.newPage();
    await page.goto(server.loginUrl);
    // The login page stores the session key, then replaces itself with the board.
    await page.waitForURL(`${server.url}/**`, { waitUntil: "commit" });
    await page.waitForFunction(() => !location.pathname.startsWith("/login"));
    // warm-up (server caches, compiled page chunks)
    await boardTti(page, `${server.url}/?project=${big.id}`, 1001);
    await boardTti(page, `${server.url}/?project=${empty.id}`, 1);

    const ours: number[] = [];
    const base: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      ours.push(await boardTti(page, `${server.url}/?project=${big.id}`, 1001));
      base.push(await boardTti(page, `${server.url}/?project=${empty.id}`, 1));
    }

    await diffLoad(page, `${server.url}/tasks/${bigTask.id}?tab=changes`);
    const bigRuns: Array<{ firstPaint: number; longest: number }> = [];
    const smallRuns: Array<{ firstPaint: number; longest: number }> = [];
    for (let i = 0; i < 3; i++) {
      bigRuns.push(await diffLoad(page, `${server.url}/tasks/${bigTask.id}?tab=changes`));
      smallRuns.push(await diffLoad(page, `${server.url}/tasks/${smallTask.id}?tab=changes`));
    }
    const tti = { value: median(ours), baseline: median(base) };
    const fp = {
      value: median(bigRuns.map((r) => r.firstPaint)),
      baseline: median(smallRuns.map((r) => r.firstPaint)),
    };
    const lt = {
      value: Math.max(...bigRuns.map((r) => r.longest)),
      baseline: Math.max(...smallRuns.map((r) => r.longest)),
    };
    const r = (
      name: string,
      m: { value: number; baseline: number },
      target: string,
      pass: boolean,
      note: string,
    ): BenchResult => ({
      name,
      value: m.value,
      baseline: m.baseline,
      ratio: m.value / Math.max(1, m.baseline),
      unit: "ms",
      target,
      pass,
      note,
    });
    return [
      r(
        "board with 1,000 tasks: time until interactive vs a board with 1 task",
        tti,
        "< 1500 ms",
        tti.value < 1500,
        `median of ${RUNS}, Chromium, cards rendered and no long task after`,
      ),
      r(
        "Changes tab, 300 files: time to first painted file vs a 1-file diff",
        fp,
        "< 1500 ms",
        fp.value < 1500,
        `median of 3, ${diffLines.toLocaleString()} changed lines, includes tasks.diff`,
      ),
      r(
        "Changes tab, 300 files: longest main-thread task vs a 1-file diff",
        lt,
        "< 200 ms",
        lt.value < 200,
        "worst of 3 loads, each with 10 scroll steps",
      ),
    ];
  } finally {
    await browser.close();
    await server.dispose();
    rmSync(work, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const r of await run()) console.log(r);
}
