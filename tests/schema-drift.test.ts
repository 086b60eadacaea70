// Fails when prisma/schema.prisma and the committed SQL migrations of either provider disagree,
// and proves the migrations apply to a fresh database (and are a no-op the second time); on
// PostgreSQL also that the board refuses a database holding someone else's tables.
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { readdirSync } from "node:fs";
import Database from "better-sqlite3";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { openDatabase } from "../server/db";
import { migrationsAreCurrent } from "../server/db/migrations-current";
import { applyMigrations, MIGRATIONS_DIR, MIGRATIONS_DIRS, pendingSchemaSql } from "../server/db/schema-engine";
import { createPgDatabase, dropPgDatabase, PG_URL } from "./helpers/pg";

const dirs: string[] = [];
const tmp = async () => {
  const d = await mkdtemp(path.join(os.tmpdir(), "yard-drift-"));
  dirs.push(d);
  return d;
};
afterAll(async () => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

describe("schema and migrations", () => {
  it("have no drift (npm run migrate:new -- <name> writes the missing migration)", async () => {
    const sql = await pendingSchemaSql({ provider: "sqlite", file: path.join(await tmp(), "scratch.db") });
    expect(sql).toBe("");
  });

  it("apply to a fresh database once, then are a no-op", async () => {
    const file = path.join(await tmp(), "yard.db");
    const first = await applyMigrations({ provider: "sqlite", file });
    expect(first.length).toBeGreaterThan(0);
    expect(await applyMigrations({ provider: "sqlite", file })).toEqual([]);
    const db = new Database(file, { readonly: true });
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type='table' ORDER BY name").all() as {
      name: string;
    }[];
    db.close();
    const names = tables.map((t) => t.name);
    for (const t of [
      "Project",
      "AgentProfile",
      "Task",
      "TaskRound",
      "TaskDependency",
      "Pane",
      "Event",
      "Review",
      "ReviewComment",
      "Plan",
      "PlanReview",
      "Message",
    ]) {
      expect(names).toContain(t);
    }
  });

  it("are recognised as current without the engine, and an edited or missing one is not", async () => {
    const file = path.join(await tmp(), "yard.db");
    expect(migrationsAreCurrent(file, MIGRATIONS_DIR)).toBe(false); // no database yet
    const first = await openDatabase(file);
    expect(first.applied.length).toBeGreaterThan(0);
    await first.db.$disconnect();
    expect(migrationsAreCurrent(file, MIGRATIONS_DIR)).toBe(true);
    const second = await openDatabase(file);
    expect(second.applied).toEqual([]);
    await second.db.$disconnect();
    const raw = new Database(file);
    raw
      .prepare(
        "UPDATE _prisma_migrations SET checksum = 'edited' WHERE migration_name = (SELECT MIN(migration_name) FROM _prisma_migrations)",
      )
      .run();
    raw.close();
    expect(migrationsAreCurrent(file, MIGRATIONS_DIR)).toBe(false);
    const raw2 = new Database(file);
    raw2
      .prepare(
        "DELETE FROM _prisma_migrations WHERE migration_name = (SELECT MAX(migration_name) FROM _prisma_migrations)",
      )
      .run();
    raw2.close();
    expect(migrationsAreCurrent(file, MIGRATIONS_DIR)).toBe(false);
  });

  it("rewrite thread messages written by a pane as `pane:<id>` to the bare pane id, as reviews name authors", async () => {
    const file = path.join(await tmp(), "yard.db");
    await applyMigrations({ provider: "sqlite", file });
    const raw = new Database(file);
    raw.pragma("foreign_keys = OFF");
    const add = raw.prepare(
      "INSERT INTO Message (id, taskId, author, kind, body) VALUES (?, 'tsk1', ?, 'question', 'q')",
    );
    add.run("m1", "pane:paneabc123");
    add.run("m2", "user");
    // As on a data dir from before that migration: it has not run yet.
    raw.prepare("DELETE FROM _prisma_migrations WHERE migration_name = '20261201190000_bare_message_authors'").run();
    raw.close();
    expect(await applyMigrations({ provider: "sqlite", file })).toEqual(["20261201190000_bare_message_authors"]);
    const db = new Database(file, { readonly: true });
    expect(db.prepare("SELECT id, author FROM Message ORDER BY id").all()).toEqual([
      { id: "m1", author: "paneabc123" },
      { id: "m2", author: "user" },
    ]);
    db.close();
  });
});

describe.runIf(PG_URL)("PostgreSQL schema and migrations", () => {
  const made: string[] = [];
  afterAll(async () => Promise.all(made.map(dropPgDatabase)));
  const fresh = async () => {
    const url = await createPgDatabase({ empty: true });
    made.push(url);
    return url;
  };

  it("have no drift (npm run migrate:new writes both providers' migrations)", async () => {
    expect(await pendingSchemaSql({ provider: "postgresql", url: PG_URL })).toBe("");
    expect(readdirSync(MIGRATIONS_DIRS.postgresql).filter((n) => n !== "migration_lock.toml").length).toBeGreaterThan(
      0,
    );
  });

  it("apply to an empty database once, then are recognised as current", async () => {
    const url = await fresh();
    const first = await openDatabase(url);
    expect(first.provider).toBe("postgresql");
    expect(first.applied.length).toBeGreaterThan(0);
    await first.db.project.create({ data: { id: "prj1", path: "/r", name: "r" } });
    await first.db.$disconnect();
    const second = await openDatabase(url);
    expect(second.applied).toEqual([]);
    expect(await second.db.project.count()).toBe(1);
    await second.db.$disconnect();
  });

  it("refuse a database that holds another application's tables, and create nothing in it", async () => {
    const url = await fresh();
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    await c.query("CREATE TABLE invoices (id int primary key)");
    await expect(openDatabase(url)).rejects.toThrow(/1 table\(s\) that are not Switchyard's/);
    const tables = await c.query("SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'");
    await c.end();
    expect(tables.rows.map((r) => r.table_name)).toEqual(["invoices"]);
  });

  it("say which server cannot be reached, without its password", async () => {
    const u = new URL(PG_URL);
    u.port = "1";
    u.password = "hunter2";
    u.pathname = "/nowhere";
    const err = await openDatabase(u.toString()).catch((e: Error) => e);
    expect(String(err)).toMatch(/cannot reach the database at postgresql:\/\/yard:\*\*\*@127\.0\.0\.1:1\/nowhere/);
    expect(String(err)).not.toContain("hunter2");
  });
});
