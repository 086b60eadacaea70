// Journal retention and payload bounds against a real SQLite database: events go by count (the
// oldest first) and by age, the newest stay, nothing younger than the floor goes, the events the
// server reads back (a live pane's last lifecycle event, an unfinished task's plan events) stay,
// the run works in batches, and a reader whose cursor is below the pruned range still gets what
// is left plus a marker saying what went.
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { LIMITS } from "../wire/common";
import { EventJournal } from "../core/events/journal";
import { JournalPruner, PRUNED_EVENT } from "../core/events/retention";
import type { Db } from "../db";
import { EventStore } from "./events";
import { openTestDb, PROVIDERS } from "../../tests/helpers/pg";

let dir: string;
let db: Db;
let store: EventStore;
let journal: EventJournal;
const NOW = Date.parse("2026-12-02T12:00:00Z");
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

let closeDb: (() => Promise<void>) | undefined;

// On both databases: the embedded SQLite and PostgreSQL (when the run has a cluster).
describe.each(PROVIDERS)("the event store (%s)", (provider) => {
  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), "yard-events-store-"));
    ({ db, close: closeDb } = await openTestDb(provider, dir));
    store = new EventStore(db);
    journal = new EventJournal(store);
  });
  afterAll(async () => {
    await closeDb?.();
    rmSync(dir, { recursive: true, force: true });
  });
  beforeEach(async () => {
    await db.event.deleteMany({});
    await db.task.deleteMany({});
    await db.pane.deleteMany({});
  });

  /** `n` events of `type`, `ageMs` old (one millisecond apart, oldest first); returns their seqs. */
  async function seed(
    n: number,
    ageMs: number,
    extra: { type?: string; paneId?: string; taskId?: string } = {},
  ): Promise<number[]> {
    const t0 = NOW - ageMs;
    // One statement (Prisma's createMany inserts row by row): times as Prisma writes them.
    const times = JSON.stringify(
      Array.from({ length: n }, (_, i) => new Date(t0 + i).toISOString().replace("Z", "+00:00")),
    );
    if (provider === "sqlite")
      await db.$executeRaw`INSERT INTO Event (type, paneId, taskId, payload, time) SELECT ${extra.type ?? "test.old"}, ${extra.paneId ?? null}, ${extra.taskId ?? null}, '{"i":' || key || '}', value FROM json_each(${times}) ORDER BY key`;
    else
      await db.$executeRaw`INSERT INTO "Event" ("type", "paneId", "taskId", "payload", "time") SELECT ${extra.type ?? "test.old"}, ${extra.paneId ?? null}, ${extra.taskId ?? null}, '{"i":' || (x.ord - 1) || '}', (x.v::timestamptz AT TIME ZONE 'UTC') FROM json_array_elements_text(${times}::json) WITH ORDINALITY AS x(v, ord) ORDER BY x.ord`;
    return (await db.event.findMany({ orderBy: { seq: "asc" }, select: { seq: true } })).map((r) => r.seq).slice(-n);
  }

  const allSeqs = async () =>
    (await db.event.findMany({ orderBy: { seq: "asc" }, select: { seq: true, type: true } }))
      .filter((r) => r.type !== PRUNED_EVENT)
      .map((r) => r.seq);
  const pruner = (o: { maxAgeMs?: number | null; maxEvents?: number | null; batch?: number; minAgeMs?: number }) =>
    new JournalPruner({
      store,
      journal,
      maxAgeMs: o.maxAgeMs ?? null,
      maxEvents: o.maxEvents ?? null,
      batch: o.batch,
      minAgeMs: o.minAgeMs,
      now: () => NOW,
    });

  describe("journal retention", () => {
    it("by count: keeps the newest maxEvents events (the marker included), in batches", async () => {
      const seqs = await seed(2600, 2 * HOUR);
      const r = await pruner({ maxEvents: 1000, batch: 200 }).run();
      expect(r.deleted).toBe(1601);
      expect(r.batches).toBeGreaterThan(1);
      expect(await store.count()).toBe(1000);
      expect(await allSeqs()).toEqual(seqs.slice(1601));
      expect(r.through).toBe(seqs[1600]);
      // A second run finds nothing to do.
      expect((await pruner({ maxEvents: 1000, batch: 200 }).run()).deleted).toBe(0);
    });

    it("by age: removes what is older than maxAgeMs and keeps the rest", async () => {
      const ancient = await seed(300, 40 * DAY);
      const recent = await seed(50, 20 * DAY);
      const fresh = await seed(5, 1000);
      const r = await pruner({ maxAgeMs: 30 * DAY, maxEvents: 100_000, batch: 64 }).run();
      expect(r.deleted).toBe(ancient.length);
      expect(await allSeqs()).toEqual([...recent, ...fresh]);
    });

    it("never removes an event younger than the floor, whatever the count", async () => {
      const old = await seed(10, 2 * HOUR);
      const young = await seed(40, 60_000);
      const r = await pruner({ maxEvents: 5, minAgeMs: 10 * 60_000 }).run();
      expect(r.deleted).toBe(old.length);
      expect(await allSeqs()).toEqual(young);
    });

    it("keeps what the server reads back: a live pane's last lifecycle event, an unfinished task's plan events", async () => {
      await db.pane.create({ data: { id: "paneliveone", argv: "[]", cwd: "/", lifecycle: "idle" } });
      await db.pane.create({ data: { id: "panegoneone", argv: "[]", cwd: "/", lifecycle: "exited" } });
      await db.task.create({
        data: { id: "tskplanning", title: "t", repoPath: "/", agent: "demo", objective: "o", state: "input_required" },
      });
      await db.task.create({
        data: { id: "tskfinished", title: "t", repoPath: "/", agent: "demo", objective: "o", state: "completed" },
      });
      const live = await seed(3, 40 * DAY, { type: "pane.lifecycle", paneId: "paneliveone" });
      await seed(3, 40 * DAY, { type: "pane.lifecycle", paneId: "panegoneone" });
      const plans = await seed(2, 40 * DAY, { type: "task.plan", taskId: "tskplanning" });
      await seed(2, 40 * DAY, { type: "task.plan", taskId: "tskfinished" });
      const rest = await seed(3, HOUR);
      const r = await pruner({ maxAgeMs: 30 * DAY }).run();
      expect(await allSeqs()).toEqual([live.at(-1)!, ...plans, ...rest]);
      expect(r.kept).toBe(3);
    });

    it("a cursor below the pruned range: the rest in order and a marker saying through which seq", async () => {
      const seqs = await seed(1500, 2 * HOUR);
      await pruner({ maxEvents: 1000 }).run();
      const listed = await journal.list({ since: 0, limit: 10_000 });
      expect(listed[0]!.seq).toBe(seqs[501]);
      const marker = listed.at(-1)!;
      expect(marker).toMatchObject({
        type: PRUNED_EVENT,
        payload: { through: seqs[500], deleted: 501, kept: 0, maxEvents: 1000 },
      });
      expect(await journal.prunedThrough()).toBe(seqs[500]);
      expect(await journal.head()).toBe(marker.seq);
    });

    it("does nothing with no limits, and on an empty journal", async () => {
      expect((await pruner({ maxEvents: 1000 }).run()).deleted).toBe(0);
      await seed(20, 400 * DAY);
      expect((await pruner({}).run()).deleted).toBe(0);
      expect(await store.count()).toBe(20);
    });
  });

  describe("journal payload bounds", () => {
    it("cuts long strings with a marker, caps arrays, and keeps every payload under the byte cap", async () => {
      const summary = "n".repeat(200 * 1024);
      const files = Array.from({ length: 5000 }, (_, i) => `f${i}`);
      const e = await journal.append("task.result", {
        payload: { round: 1, status: "completed", summary, artifacts: [], changedFiles: files, evidence: null },
      });
      const row = await db.event.findUniqueOrThrow({ where: { seq: e.seq } });
      expect(Buffer.byteLength(row.payload)).toBeLessThanOrEqual(LIMITS.eventPayloadBytes);
      const p = JSON.parse(row.payload);
      expect(p.status).toBe("completed");
      expect(p.summary.length).toBeLessThanOrEqual(LIMITS.eventString);
      expect(p.summary).toMatch(/…\[cut \d+ characters\]$/);
      expect(p.changedFiles).toHaveLength(LIMITS.eventEntries);
      expect(p._cut).toEqual({ summary: summary.length, changedFiles: 5000 });
      // What append answers (and subscribers get) is the stored payload, typed.
      expect(e.payload.changedFiles).toHaveLength(LIMITS.eventEntries);
      expect(e.payload._cut).toEqual(p._cut);
      // Many fields each under the string cap but together far over the byte cap: the largest go, named.
      const big = (n: number) => Array.from({ length: n }, () => "x".repeat(4000));
      const w = await journal.append("task.result", {
        payload: {
          round: 7,
          status: "failed",
          summary: "y".repeat(4000),
          artifacts: big(5),
          changedFiles: big(4),
          evidence: Object.fromEntries(big(10).map((v, i) => [`k${i}`, v])),
        },
      });
      const stored = JSON.parse((await db.event.findUniqueOrThrow({ where: { seq: w.seq } })).payload);
      expect(Buffer.byteLength(JSON.stringify(stored))).toBeLessThanOrEqual(LIMITS.eventPayloadBytes);
      expect(stored.round).toBe(7);
      expect(stored._omitted).toEqual(["evidence", "artifacts", "changedFiles"]);
      // A reader gets the event whole, the dropped fields named: every stored field is optional to it.
      const [read] = await journal.list({ since: w.seq - 1, type: "task.result" });
      expect(read).toMatchObject({
        type: "task.result",
        payload: { round: 7, status: "failed", _omitted: stored._omitted },
      });
      expect(read!.payload.evidence).toBeUndefined();
    });
  });
});
