// Board benchmarks with 10,000 tasks in one project (mixed states, one result per finished task,
// reviews on a fifth of them, a few blocked panes), each against a baseline measured in the same
// run: a raw better-sqlite3 SELECT of the same task rows (what the database alone costs).
//   - board.get through the router (cards with changed files, needs-you, review status) vs
//     selecting the cards' own task columns — target ≤ 3×
//   - tasks.list for the project through the router (every task's full view) vs `SELECT *` — target ≤ 5×
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { appRouter } from "../server/api/router";
import { createServices } from "../server/composition";
import { OWNER } from "../server/core/people/people";
import { median } from "./stats";
import type { BenchResult } from "./types";

const TASKS = 10_000;
const RUNS = 15;
const STATES = [
  "backlog",
  "pending",
  "working",
  "input_required",
  "completed",
  "completed",
  "failed",
  "canceled",
] as const;

export async function run(): Promise<BenchResult[]> {
  const home = mkdtempSync(path.join(os.tmpdir(), "yard-bench-board-"));
  const services = await createServices({
    home,
    token: "bench-token-bench-token-bench-token-123",
    url: () => "http://127.0.0.1:9",
  });
  try {
    const db = services.db;
    const projectId = "prjbench";
    await db.project.create({ data: { id: projectId, path: path.join(home, "repo"), name: "bench" } });
    const t0 = Date.now() - TASKS * 1000;
    const tasks = Array.from({ length: TASKS }, (_, i) => {
      const state = STATES[i % STATES.length]!;
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
        disposition: i % 16 === 4 ? "merged" : null,
        createdAt: at,
        updatedAt: at,
      };
    });
    await db.task.createMany({ data: tasks });
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
    await db.taskRound.createMany({ data: rounds });
    await db.review.createMany({
      data: tasks
        .filter((_, i) => i % 5 === 0)
        .map((t, k) => ({
          id: `revbench${k}`,
          taskId: t.id,
          round: 1,
          stage: "human",
          reviewerKind: "user",
          verdict: "changes_requested",
          summary: "again",
        })),
    });
    await db.pane.createMany({
      data: tasks
        .filter((t, i) => t.paneId && i % 500 === 2)
        .map((t) => ({ id: t.paneId!, argv: "[]", cwd: home, taskId: t.id, lifecycle: "blocked" })),
    });

    const caller = appRouter.createCaller({ services, principal: { kind: "person", person: OWNER }, pane: null });
    const raw = new Database(path.join(home, "yard.db"), { readonly: true });
    const select = raw.prepare("SELECT * FROM Task WHERE projectId = ? ORDER BY updatedAt DESC");
    const selectCards = raw.prepare(
      "SELECT id, title, label, state, disposition, agent, round, branch, contextId, paneId, createdAt, updatedAt FROM Task WHERE projectId = ? ORDER BY updatedAt DESC",
    );
    const time = async (fn: () => unknown) => {
      const t = performance.now();
      await fn();
      return performance.now() - t;
    };

    // warm-up, and a sanity check that every task is on the board
    const board = await caller.board.get({ projectId });
    const cards = Object.values(board).reduce((n, c) => n + c.length, 0);
    if (cards !== TASKS) throw new Error(`expected ${TASKS} cards, got ${cards}`);
    if (select.all(projectId).length !== TASKS) throw new Error("baseline returned the wrong rows");
    await caller.tasks.list({ projectId });

    const boardMs: number[] = [];
    const listMs: number[] = [];
    const rawCardsMs: number[] = [];
    const rawAllMs: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      rawCardsMs.push(await time(() => selectCards.all(projectId)));
      boardMs.push(await time(() => caller.board.get({ projectId })));
      rawAllMs.push(await time(() => select.all(projectId)));
      listMs.push(await time(() => caller.tasks.list({ projectId })));
    }
    raw.close();
    const result = (name: string, values: number[], baselines: number[], max: number, note: string): BenchResult => {
      const value = median(values);
      const baseline = median(baselines);
      const ratio = value / baseline;
      return { name, value, baseline, ratio, unit: "ms", target: `≤ ${max}×`, pass: ratio <= max, note };
    };
    const note = `median of ${RUNS}, ${TASKS.toLocaleString("en")} tasks`;
    return [
      result("board.get vs raw SELECT of the cards' task columns", boardMs, rawCardsMs, 3, note),
      result("tasks.list (project) vs raw SELECT * of the same tasks", listMs, rawAllMs, 5, note),
    ];
  } finally {
    await services.close();
    rmSync(home, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const r of await run()) console.log(r);
}
