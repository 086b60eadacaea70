// The SQLite connection's kept statements: SQL seen before is not prepared again, every call gets
// its own arguments, the cap drops the least recently used, and a board's database opened the way
// the server opens it reads and writes correctly through them (rows, transactions, raw queries).
import { copyFileSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { keepStatements } from "./statement-cache";
import { openDatabase } from "./index";

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** Counts the statements SQLite really prepares, on any connection. */
function countPrepares() {
  const spy = vi.spyOn(Database.prototype, "prepare");
  return {
    count: () => spy.mock.calls.length,
    sqls: () => spy.mock.calls.map((c) => c[0]),
    restore: () => spy.mockRestore(),
  };
}

describe("keepStatements", () => {
  let db: Database.Database;
  beforeEach(() => {
    db = new Database(":memory:");
    db.defaultSafeIntegers(true);
    db.exec("CREATE TABLE t (a INTEGER, b TEXT)");
  });
  afterEach(() => db.close());

  it("prepares a statement once and runs it with each call's arguments", () => {
    const prepares = countPrepares();
    try {
      const size = keepStatements(db);
      const insert = (a: number, b: string) => db.prepare("INSERT INTO t VALUES (?, ?)").bind([a, b]).run();
      expect(db.prepare("INSERT INTO t VALUES (?, ?)").bind([1, "x"]).reader).toBe(false);
      insert(1, "x");
      insert(2, "y");
      insert(3, "z");
      const above = (n: number) => {
        const st = db.prepare("SELECT a, b FROM t WHERE a > ? ORDER BY a").bind([n]);
        expect(st.reader).toBe(true);
        expect(st.columns().map((c) => c.name)).toEqual(["a", "b"]);
        return st.raw().all();
      };
      expect(above(0)).toEqual([
        [1n, "x"],
        [2n, "y"],
        [3n, "z"],
      ]);
      expect(above(2)).toEqual([[3n, "z"]]);
      expect(db.prepare("SELECT count(*) FROM t").bind([]).raw().all()).toEqual([[3n]]);
      db.prepare("BEGIN").run();
      insert(4, "w");
      db.prepare("ROLLBACK").run();
      expect(above(0)).toHaveLength(3);
      // INSERT, SELECT ... WHERE, SELECT count, BEGIN, ROLLBACK: five statements, each prepared once.
      expect(prepares.count()).toBe(5);
      expect(size()).toBe(5);
    } finally {
      prepares.restore();
    }
  });

  it("drops the least recently used statement past its cap", () => {
    const prepares = countPrepares();
    try {
      const size = keepStatements(db, 2);
      const one = () => db.prepare("SELECT 1").bind([]).raw().all();
      const two = () => db.prepare("SELECT 2").bind([]).raw().all();
      const three = () => db.prepare("SELECT 3").bind([]).raw().all();
      one();
      two();
      one(); // "SELECT 1" is now the most recent: "SELECT 2" goes first
      three();
      expect(size()).toBe(2);
      one();
      expect(prepares.count()).toBe(3);
      two(); // dropped: prepared again
      expect(prepares.sqls()).toEqual(["SELECT 1", "SELECT 2", "SELECT 3", "SELECT 2"]);
    } finally {
      prepares.restore();
    }
  });
});

describe("a board's SQLite database, opened as the server opens it", () => {
  it("reads and writes through kept statements, in and out of transactions, preparing repeated queries once", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "yard-stmt-"));
    dirs.push(dir);
    const template = process.env.YARD_TEST_DB_TEMPLATE;
    if (template && existsSync(template)) copyFileSync(template, path.join(dir, "yard.db"));
    const { db } = await openDatabase(path.join(dir, "yard.db"));
    try {
      const round = async (i: number) => {
        await db.project.create({ data: { id: `prjstmt${i}`, path: path.join(dir, `p${i}`), name: `p${i}` } });
        await db.$transaction([
          db.project.update({ where: { id: `prjstmt${i}` }, data: { name: `renamed ${i}` } }),
          db.project.findMany({ where: { id: { startsWith: "prjstmt" } } }),
        ]);
        return db.project.findUnique({ where: { id: `prjstmt${i}` } });
      };
      await round(0); // Prisma's first queries: its own set-up statements are prepared here
      const prepares = countPrepares();
      try {
        for (let i = 1; i <= 5; i++) expect((await round(i))?.name).toBe(`renamed ${i}`);
        expect(prepares.count()).toBe(0);
      } finally {
        prepares.restore();
      }
      expect(
        (await db.project.findMany({ where: { id: { startsWith: "prjstmt" } } })).map((p) => p.name).sort(),
      ).toEqual(["renamed 0", "renamed 1", "renamed 2", "renamed 3", "renamed 4", "renamed 5"]);
      // A failed transaction leaves nothing behind, and the kept BEGIN/ROLLBACK serve the next one.
      await expect(
        db.$transaction(async (tx) => {
          await tx.project.update({ where: { id: "prjstmt1" }, data: { name: "lost" } });
          throw new Error("abort");
        }),
      ).rejects.toThrow("abort");
      expect((await db.project.findUnique({ where: { id: "prjstmt1" } }))?.name).toBe("renamed 1");
      expect(await db.$queryRawUnsafe<{ n: bigint }[]>("SELECT count(*) AS n FROM Project")).toEqual([{ n: 6n }]);
    } finally {
      await db.$disconnect();
    }
  });
});
