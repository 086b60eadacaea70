// A board whose history has grown: board.get carries every card not in Done and only the newest
// Done cards; board.done pages through all of Done, newest first, each card once (ties on the
// update time broken by id), with the total; a cursor it did not give is refused. On both databases.
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Db, openDatabase } from "../server/db";
import { DONE_ON_BOARD } from "../server/wire/board";
import { adminClient, errorOf } from "./helpers/client";
import { createPgDatabase, dropPgDatabase, PROVIDERS } from "./helpers/pg";
import { startTestServer, type TestServer } from "./helpers/server";

const ACTIVE = ["backlog", "pending", "working", "input_required", "failed", "completed"] as const;

describe.each(PROVIDERS)("the board of a long history (%s)", (provider) => {
  let server: TestServer;
  let db: Db;
  let pgUrl: string | undefined;
  const projectId = "prjpaging";
  const doneIds: string[] = []; // newest first
  const activeIds: string[] = [];
  let scratch: string;

  beforeAll(async () => {
    pgUrl = provider === "postgresql" ? await createPgDatabase() : undefined;
    server = await startTestServer(pgUrl ? { env: { DATABASE_URL: pgUrl } } : {});
    ({ db } = await openDatabase(pgUrl ?? path.join(server.home, "yard.db")));
    scratch = mkdtempSync(path.join(os.tmpdir(), "yard-paging-"));
    await db.project.create({ data: { id: projectId, path: scratch, name: "paging" } });
    // 130 finished tasks (merged, discarded, canceled), some sharing an update time; 12 not finished.
    const t0 = Date.parse("2026-11-01T00:00:00Z");
    const rows = [];
    for (let i = 0; i < 130; i++) {
      const kind = i % 3;
      rows.push({
        id: `tskdone${String(i).padStart(4, "0")}`,
        title: `done ${i}`,
        projectId,
        repoPath: scratch,
        agent: "demo",
        objective: "o",
        state: kind === 2 ? "canceled" : "completed",
        disposition: kind === 0 ? "merged" : kind === 1 ? "discarded" : null,
        updatedAt: new Date(t0 + Math.floor(i / 4) * 60_000), // four cards a minute: ties
      });
    }
    for (let i = 0; i < 12; i++)
      rows.push({
        id: `tskopen${String(i).padStart(4, "0")}`,
        title: `open ${i}`,
        projectId,
        repoPath: scratch,
        agent: "demo",
        objective: "o",
        state: ACTIVE[i % ACTIVE.length]!,
        disposition: null,
        updatedAt: new Date(t0 + i * 1000), // older than most finished ones: still on the board
      });
    await db.task.createMany({ data: rows });
    for (const r of rows
      .filter((r) => r.id.startsWith("tskdone"))
      .sort((a, b) => b.updatedAt.getTime() - a.updatedAt.getTime() || (a.id < b.id ? 1 : -1)))
      doneIds.push(r.id);
    activeIds.push(...rows.filter((r) => r.id.startsWith("tskopen")).map((r) => r.id));
  });
  afterAll(async () => {
    await db?.$disconnect();
    await server?.dispose();
    if (pgUrl) await dropPgDatabase(pgUrl);
    rmSync(scratch, { recursive: true, force: true });
  });

  it("board.get carries every unfinished card and the newest Done cards only", async () => {
    const board = await adminClient(server).board.get.query({ projectId });
    expect(board.done.map((c) => c.id)).toEqual(doneIds.slice(0, DONE_ON_BOARD));
    const elsewhere = [...board.backlog, ...board.in_progress, ...board.needs_you, ...board.review].map((c) => c.id);
    expect(elsewhere.sort()).toEqual([...activeIds].sort());
    // Times read back as written (the raw query's dates, on either database).
    const newest = await db.task.findUnique({ where: { id: doneIds[0]! } });
    expect(board.done[0]!.updatedAt).toBe(newest!.updatedAt.toISOString());
  });

  it("board.done pages through all of Done, newest first, each card once, with the total", async () => {
    const api = adminClient(server);
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await api.board.done.query({ projectId, limit: 17, ...(cursor ? { cursor } : {}) });
      expect(page.total).toBe(130);
      expect(page.cards.length).toBeLessThanOrEqual(17);
      for (const c of page.cards) expect(["merged", "discarded", null]).toContain(c.disposition);
      seen.push(...page.cards.map((c) => c.id));
      cursor = page.next ?? undefined;
      pages++;
    } while (cursor && pages < 20);
    expect(seen).toEqual(doneIds);
    expect(pages).toBe(Math.ceil(130 / 17));
  });

  it("refuses a cursor it did not give, and an unknown project", async () => {
    const api = adminClient(server);
    expect(await errorOf(() => api.board.done.query({ projectId, cursor: "x'; DROP TABLE" }))).toMatchObject({
      code: "BAD_PARAMS",
    });
    expect(await errorOf(() => api.board.done.query({ projectId: "prjnope" }))).toMatchObject({ code: "NOT_FOUND" });
    expect(await errorOf(() => api.board.done.query({ projectId, limit: 5000 }))).toMatchObject({ code: "BAD_PARAMS" });
  });
});
