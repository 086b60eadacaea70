// PostgreSQL for the tests: the throwaway cluster scripts/test.sh starts (scripts/pg-cluster.mjs)
// is named by YARD_TEST_PG_URL. Each test database is a copy of a migrated template made once per
// run (vitest's global setup), so no test waits for the migration engine. Without a cluster the
// PostgreSQL variants are skipped with a notice, unless YARD_REQUIRE_PG=1 (CI), where that fails.
import pg from "pg";
import { randomBytes } from "node:crypto";

export const PG_URL = process.env.YARD_TEST_PG_URL ?? "";
const TEMPLATE_DB = "yard_template";

/** The providers a "both databases" test runs on here. */
export const PROVIDERS: Array<"sqlite" | "postgresql"> = PG_URL ? ["sqlite", "postgresql"] : ["sqlite"];

if (!PG_URL && process.env.YARD_REQUIRE_PG === "1")
  throw new Error("YARD_REQUIRE_PG=1 but no PostgreSQL cluster (YARD_TEST_PG_URL): install postgresql");

/** The cluster URL with another database name. */
export function pgUrlFor(database: string, base = PG_URL): string {
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

/** Makes the migrated template database (global setup; once per run). */
export async function makePgTemplate(): Promise<void> {
  if (!PG_URL) return;
  await admin(async (c) => {
    await c.query(`DROP DATABASE IF EXISTS ${TEMPLATE_DB} WITH (FORCE)`);
    await c.query(`CREATE DATABASE ${TEMPLATE_DB}`);
  });
  const { openDatabase } = await import("../../server/db");
  const { db } = await openDatabase(pgUrlFor(TEMPLATE_DB));
  await db.$disconnect();
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

/** A test database for `provider`: a SQLite file path under `dir`, or a fresh PostgreSQL database's URL. */
export async function testDatabase(provider: "sqlite" | "postgresql", sqliteFile: string): Promise<string> {
  return provider === "sqlite" ? sqliteFile : createPgDatabase();
}
