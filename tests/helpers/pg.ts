// PostgreSQL for the tests: the throwaway cluster scripts/test.sh starts (scripts/pg-cluster.mjs)
// is named by YARD_TEST_PG_URL. Each test database is a copy of a migrated template made once per
// run (vitest's global setup), so no test waits for the migration engine. Without a cluster the
// PostgreSQL variants are skipped with a notice, unless YARD_REQUIRE_PG=1 (CI), where that fails.
import { randomBytes } from "node:crypto";
import { copyFileSync, existsSync } from "node:fs";
import path from "node:path";
import pg from "pg";

export const PG_URL = process.env.YARD_TEST_PG_URL ?? "";
const TEMPLATE_DB = "yard_template";

/** The providers a "both databases" test runs on here. */
export const PROVIDERS: Array<"sqlite" | "postgresql"> = PG_URL ? ["sqlite", "postgresql"] : ["sqlite"];

if (!PG_URL && process.env.YARD_REQUIRE_PG === "1")
  throw new Error("YARD_REQUIRE_PG=1 but no PostgreSQL cluster (YARD_TEST_PG_URL): install postgresql");

/** The cluster URL with another database name. */
function pgUrlFor(database: string, base = PG_URL): string {
  const u = new URL(base);
  u.pathname = `/${database}`;
  return u.toString();
}

async function admin<T>(fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: PG_URL });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

/**
 * Makes the migrated template database (global setup; once per run). Both vitest runs of `npm test`
 * (the clock-bound lane and the others) set up at once: an advisory lock makes the second wait for
 * the first, then find the template current and keep it.
 */
export async function makePgTemplate(): Promise<void> {
  if (!PG_URL) return;
  const { openDatabase } = await import("../../server/db");
  await admin(async (c) => {
    await c.query("SELECT pg_advisory_lock(7261)");
    try {
      const exists = await c.query("SELECT 1 FROM pg_database WHERE datname = $1", [TEMPLATE_DB]);
      if (exists.rowCount === 0) await c.query(`CREATE DATABASE ${TEMPLATE_DB}`);
      // Applies what is missing (nothing when current), then lets go: a template must have no connections.
      const { db } = await openDatabase(pgUrlFor(TEMPLATE_DB));
      await db.$disconnect();
    } finally {
      await c.query("SELECT pg_advisory_unlock(7261)");
    }
  });
}

/** A fresh, migrated database of its own (empty: no rows); returns its URL. */
export async function createPgDatabase(opts: { empty?: boolean } = {}): Promise<string> {
  const name = `yard_t_${randomBytes(6).toString("hex")}`;
  await admin((c) =>
    c.query(opts.empty ? `CREATE DATABASE ${name}` : `CREATE DATABASE ${name} TEMPLATE ${TEMPLATE_DB}`),
  );
  return pgUrlFor(name);
}

/** Drops a database made by createPgDatabase (its connections are ended first). */
export async function dropPgDatabase(url: string): Promise<void> {
  const name = new URL(url).pathname.slice(1);
  if (!/^yard_t_[0-9a-f]+$/.test(name)) throw new Error(`not a test database: ${name}`);
  await admin((c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
}

/**
 * Opens a migrated test database for `provider` as a store test does: a SQLite file in `dir`
 * (copied from the run's template when there is one) or a fresh PostgreSQL database. `close`
 * disconnects and drops what it made.
 */
export async function openTestDb(
  provider: "sqlite" | "postgresql",
  dir: string,
): Promise<{ db: import("../../server/db").Db; close(): Promise<void> }> {
  const { openDatabase } = await import("../../server/db");
  if (provider === "postgresql") {
    const url = await createPgDatabase();
    const { db } = await openDatabase(url);
    return {
      db,
      async close() {
        await db.$disconnect();
        await dropPgDatabase(url);
      },
    };
  }
  const file = path.join(dir, "yard.db");
  const template = process.env.YARD_TEST_DB_TEMPLATE;
  if (template && existsSync(template)) copyFileSync(template, file);
  const { db } = await openDatabase(file);
  return { db, close: () => db.$disconnect() };
}
