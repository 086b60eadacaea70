// Board benchmarks on a board with a long history, on both databases (SQLite in the data dir; and
// PostgreSQL in a throwaway cluster, scripts/pg-cluster.mjs, when Debian's postgresql is installed,
// or YARD_BENCH_PG_URL naming a server whose databases it may create). Each board: N tasks in one
// project, all but the newest 500 finished (merged, discarded or canceled: the Done column), the
// newest 500 spread over the other states; one round each (two for a fifth), a changed-files
// result per finished round, reviews on a fifth, a few blocked panes. Targets, each against a
// baseline measured in the same run:
//   - board.get at 10,000 tasks vs a raw SELECT of the same cards' own task columns (the cards not
//     in Done and the newest Done page, two statements) — target ≤ 3×; and vs a raw SELECT of every
//     task's card columns (the baseline as first stated, when every task was a card) — ≤ 3×
//   - board.get at 100,000 tasks — target under 150 ms (the raw SELECT printed beside it)
//   - tasks.list for the project at 10,000 tasks (every task's full view) vs `SELECT *` — ≤ 5×
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import pg from "pg";
import { appRouter } from "../server/api/router";
import { createServices } from "../server/composition";
import { OWNER } from "../server/core/people/people";
import { DONE_ON_BOARD } from "../server/wire/board";
// @ts-expect-error: plain JavaScript module without types
import { startCluster, stopCluster } from "../scripts/pg-cluster.mjs";
import { median } from "./stats";
import type { BenchResult } from "./types";

const RUNS = 15;
const OPEN = 500;
const OPEN_STATES = ["backlog", "pending", "working", "input_required", "completed", "failed"] as const;
const CHUNK = 2000; // rows per createMany: PostgreSQL takes at most 65,535 parameters a statement

const ACTIVE_SQL = `"projectId" = $1 AND "disposition" IS NULL AND "state" NOT IN ('canceled', 'rejected')`;
const DONE_SQL = `"projectId" = $1 AND ("disposition" IS NOT NULL OR "state" IN ('canceled', 'rejected'))`;
const CARD_COLS = `"id", "title", "label", "state", "disposition", "agent", "round", "branch", "contextId", "paneId", "createdAt", "updatedAt"`;

type Provider = "sqlite" | "postgresql";

/** The same card rows board.get reads, raw: the baseline. */
interface RawCards {
  cards(projectId: string): Promise<unknown>;
  /** Every task's card columns: the baseline as the issue first stated it (when every task was a card). */
  everyCard(projectId: string): Promise<unknown>;
  all(projectId: string): Promise<unknown[]>;
  close(): Promise<void>;
}

function rawSqlite(file: string): RawCards {
  const db = new Database(file, { readonly: true });
  const sqlite = (s: string) => s.replace(/\$1/g, "?");
  const active = db.prepare(sqlite(`SELECT ${CARD_COLS} FROM "Task" WHERE ${ACTIVE_SQL}`));
  const done = db.prepare(
    sqlite(
      `SELECT ${CARD_COLS} FROM "Task" WHERE ${DONE_SQL} ORDER BY "updatedAt" DESC, "id" DESC LIMIT ${DONE_ON_BOARD}`,
    ),
  );
  const all = db.prepare('SELECT * FROM "Task" WHERE "projectId" = ? ORDER BY "updatedAt" DESC');
  const every = db.prepare(`SELECT ${CARD_COLS} FROM "Task" WHERE "projectId" = ? ORDER BY "updatedAt" DESC`);
  return {
    cards: async (p) => [active.all(p), done.all(p)],
    everyCard: async (p) => every.all(p),
    all: async (p) => all.all(p),
    close: async () => {
      db.close();
    },
  };
}

async function rawPostgres(url: string): Promise<RawCards> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  return {
    cards: (p) =>
      Promise.all([
        c.query(`SELECT ${CARD_COLS} FROM "Task" WHERE ${ACTIVE_SQL}`, [p]),
        c.query(
          `SELECT ${CARD_COLS} FROM "Task" WHERE ${DONE_SQL} ORDER BY "updatedAt" DESC, "id" DESC LIMIT ${DONE_ON_BOARD}`,
          [p],
        ),
      ]),
    everyCard: (p) => c.query(`SELECT ${CARD_COLS} FROM "Task" WHERE "projectId" = $1 ORDER BY "updatedAt" DESC`, [p]),
    all: async (p) =>
      (await c.query('SELECT * FROM "Task" WHERE "projectId" = $1 ORDER BY "updatedAt" DESC', [p])).rows,
    close: () => c.end(),
  };
}

async function inChunks<T>(rows: T[], write: (chunk: T[]) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < rows.length; i += CHUNK) await write(rows.slice(i, i + CHUNK));
}

const time = async (fn: () => unknown) => {
  const t = performance.now();
  await fn();
  return performance.now() - t;
};

/** One board of `n` tasks on `provider`; returns board.get's and tasks.list's medians with their baselines. */
async function measure(provider: Provider, n: number, databaseUrl?: string) {
  const home = mkdtempSync(path.join(os.tmpdir(), "yard-bench-board-"));
  const services = await createServices({
    home,
    token: "bench-token-bench-token-bench-token-123",
    url: () => "http://127.0.0.1:9",
    ...(databaseUrl ? { databaseUrl } : {}),
  });
  let raw: RawCards | null = null;
  try {
    const db = services.db;
    const projectId = "prjbench";
    await db.project.create({ data: { id: projectId, path: path.join(home, "repo"), name: "bench" } });
    const t0 = Date.now() - n * 1000;
    const tasks = Array.from({ length: n }, (_, i) => {
      const open = i >= n - OPEN;
      const state = open ? OPEN_STATES[i % OPEN_STATES.length]! : i % 10 === 3 ? "canceled" : "completed";
      const at = new Date(t0 + i * 1000);
      return {
        id: `tskbench${String(i).padStart(6, "0")}`,
        title: `task ${i}: do the thing number ${i}`,
        projectId,
        contextId: i % 10 === 0 ? `ctx-${i % 100}` : null,
        repoPath: path.join(home, "repo"),
        agent: "demo",
        objective: `objective ${i}\nwith a second line`,
        state,
        round: i % 5 === 0 ? 2 : 1,
        branch: state === "backlog" ? null : `yard/task-${i}`,
        paneId: state === "backlog" ? null : `panebench${i}`,
        disposition: open || state === "canceled" ? null : i % 7 === 0 ? "discarded" : "merged",
        createdAt: at,
        updatedAt: at,
      };
    });
    await inChunks(tasks, (data) => db.task.createMany({ data }));
    const rounds = tasks.flatMap((t, i) =>
      Array.from({ length: t.round }, (_, r) => ({
        id: `rndbench${i}x${r}`,
        taskId: t.id,
        number: r + 1,
        state: r + 1 < t.round ? "completed" : t.state,
        result:
          r + 1 < t.round || t.state === "completed"
            ? JSON.stringify({
                status: "completed",
                summary: "done",
                artifacts: [],
                changedFiles: Array.from({ length: i % 7 }, (_, k) => `f${k}.ts`),
                evidence: null,
              })
            : null,
      })),
    );
    await inChunks(rounds, (data) => db.taskRound.createMany({ data }));
    const reviews = tasks
      .filter((_, i) => i % 5 === 0)
      .map((t, k) => ({
        id: `revbench${k}`,
        taskId: t.id,
        round: 1,
        stage: "human",
        reviewerKind: "user",
        verdict: "changes_requested",
        summary: "again",
      }));
    await inChunks(reviews, (data) => db.review.createMany({ data }));
    await db.pane.createMany({
      data: tasks
        .filter((t, i) => t.paneId && i >= n - OPEN && i % 50 === 2)
        .map((t) => ({ id: t.paneId!, argv: "[]", cwd: home, taskId: t.id, lifecycle: "blocked" })),
    });
    if (provider === "postgresql") await db.$executeRawUnsafe('ANALYZE "Task"; ANALYZE "Review"; ANALYZE "TaskRound"');
    else await db.$executeRawUnsafe("ANALYZE");

    const caller = appRouter.createCaller({ services, principal: { kind: "person", person: OWNER }, pane: null });
    raw = provider === "sqlite" ? rawSqlite(path.join(home, "yard.db")) : await rawPostgres(databaseUrl!);

    // warm-up (the first calls compile the code paths), and a sanity check: every unfinished task
    // and the newest Done page are on the board
    for (let i = 0; i < 5; i++) await caller.board.get({ projectId });
    const board = await caller.board.get({ projectId });
    const cards = Object.values(board).reduce((k, c) => k + c.length, 0);
    if (cards !== OPEN + DONE_ON_BOARD) throw new Error(`expected ${OPEN + DONE_ON_BOARD} cards, got ${cards}`);
    await raw.cards(projectId);
    const withList = n <= 10_000;
    if (withList) {
      await caller.tasks.list({ projectId });
      if ((await raw.all(projectId)).length !== n) throw new Error("baseline returned the wrong rows");
    }

    const boardMs: number[] = [];
    const rawCardsMs: number[] = [];
    const listMs: number[] = [];
    const rawAllMs: number[] = [];
    const rawEveryMs: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      rawCardsMs.push(await time(() => raw!.cards(projectId)));
      rawEveryMs.push(await time(() => raw!.everyCard(projectId)));
      boardMs.push(await time(() => caller.board.get({ projectId })));
      if (withList) {
        rawAllMs.push(await time(() => raw!.all(projectId)));
        listMs.push(await time(() => caller.tasks.list({ projectId })));
      }
    }
    return { boardMs, rawCardsMs, listMs, rawAllMs, rawEveryMs };
  } finally {
    await raw?.close();
    await services.close();
    rmSync(home, { recursive: true, force: true });
  }
}

/** A PostgreSQL server the bench may create databases on, and how to let it go; null when there is none. */
async function postgres(): Promise<{ database(name: string): Promise<string>; stop(): void } | null> {
  let base = process.env.YARD_BENCH_PG_URL ?? "";
  let dir: string | null = null;
  if (!base) {
    // The cluster's own dir (it runs as `postgres` when we are root, which cannot enter a dir of ours).
    dir = mkdtempSync(path.join(os.tmpdir(), "yard-bench-pg-"));
    try {
      base = (await startCluster(dir)) as string;
    } catch {
      rmSync(dir, { recursive: true, force: true });
      return null;
    }
  }
  return {
    async database(name) {
      const c = new pg.Client({ connectionString: base });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.query(`CREATE DATABASE ${name}`);
      await c.end();
      const u = new URL(base);
      u.pathname = `/${name}`;
      return u.toString();
    },
    stop() {
      if (dir) stopCluster(dir);
    },
  };
}

export async function run(): Promise<BenchResult[]> {
  const out: BenchResult[] = [];
  const ratio = (name: string, values: number[], baselines: number[], max: number, note: string): BenchResult => {
    const value = median(values);
    const baseline = median(baselines);
    return {
      name,
      value,
      baseline,
      ratio: value / baseline,
      unit: "ms",
      target: `≤ ${max}×`,
      pass: value / baseline <= max,
      note,
    };
  };
  const under = (name: string, values: number[], baselines: number[], ms: number, note: string): BenchResult => {
    const value = median(values);
    const baseline = median(baselines);
    return { name, value, baseline, ratio: value / baseline, unit: "ms", target: `< ${ms} ms`, pass: value < ms, note };
  };
  const server = await postgres();
  try {
    const providers: Array<[Provider, (n: number) => Promise<string | undefined>]> = [
      ["sqlite", async () => undefined],
    ];
    if (server) providers.push(["postgresql", (n) => server.database(`yard_bench_${n}`)]);
    else
      out.push({
        name: "board on PostgreSQL: not measured (install Debian's postgresql, or set YARD_BENCH_PG_URL)",
        value: 0,
        baseline: 0,
        ratio: 0,
        unit: "ms",
        target: "-",
        pass: true,
        info: true,
      });
    for (const [provider, database] of providers) {
      const small = await measure(provider, 10_000, await database(10_000));
      const note = (n: number) =>
        `${provider}, median of ${RUNS}, ${n.toLocaleString("en")} tasks (${OPEN} unfinished)`;
      out.push(
        ratio(
          `board.get vs raw SELECT of the same cards' task columns (${provider})`,
          small.boardMs,
          small.rawCardsMs,
          3,
          note(10_000),
        ),
        ratio(
          `board.get vs raw SELECT of every task's card columns (${provider})`,
          small.boardMs,
          small.rawEveryMs,
          3,
          note(10_000),
        ),
        ratio(
          `tasks.list (project) vs raw SELECT * of the same tasks (${provider})`,
          small.listMs,
          small.rawAllMs,
          5,
          note(10_000),
        ),
      );
      const big = await measure(provider, 100_000, await database(100_000));
      out.push(under(`board.get at 100,000 tasks (${provider})`, big.boardMs, big.rawCardsMs, 150, note(100_000)));
    }
  } finally {
    server?.stop();
  }
  return out;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const r of await run()) console.log(r);
}
