// Opens the board's database and returns the Prisma client: the SQLite file under the data dir
// (the embedded default: created owner-only, WAL) or a PostgreSQL database named by a
// postgresql:// URL (server/db/target.ts). Either way the committed migrations of that provider are
// applied first (WASM engine, offline) unless the database already has them all. The PostgreSQL
// client is generated from the same models (server/db/schema-source.ts), so the stores see one
// client type, `Db`.
import { chmodSync, closeSync, existsSync, mkdirSync, openSync } from "node:fs";
import path from "node:path";
import { PrismaBetterSqlite3 } from "@prisma/adapter-better-sqlite3";
import Database from "better-sqlite3";
import { PrismaClient } from "./generated/client";
import { committedMigrations, migrationsAreCurrent, pgMigrationsAreCurrent } from "./migrations-current";
import { MIGRATIONS_DIRS, type Provider } from "./schema-source";
import { withStatementCache } from "./statement-cache";
import { type DbTarget, dbTarget, describeTarget } from "../database-url";

export type Db = PrismaClient;

export interface OpenedDatabase {
  db: Db;
  /** Migrations applied by this open (none when the database was current). */
  applied: string[];
  provider: Provider;
  target: DbTarget;
  /** Where, as a person may see it: the file, or the URL without its password. */
  where: string;
}

/** Opens a SQLite file path or a postgresql:// URL. */
export async function openDatabase(fileOrUrl: string): Promise<OpenedDatabase> {
  const target = dbTarget(fileOrUrl);
  return target.provider === "sqlite" ? openSqlite(target) : openPostgres(target);
}

async function openSqlite(target: DbTarget & { provider: "sqlite" }): Promise<OpenedDatabase> {
  const dbFile = target.file;
  mkdirSync(path.dirname(dbFile), { recursive: true, mode: 0o700 });
  // Owner-only from the first byte: SQLite gives the -wal and -shm files the database's mode.
  closeSync(openSync(dbFile, "a", 0o600));
  chmodSync(dbFile, 0o600);
  for (const extra of [`${dbFile}-wal`, `${dbFile}-shm`]) if (existsSync(extra)) chmodSync(extra, 0o600);
  // WAL is a property of the file: set it once, before anything else opens it.
  const raw = new Database(dbFile);
  raw.pragma("journal_mode = WAL");
  raw.close();
  // The WebAssembly migration engine is loaded only when there is something to apply.
  const applied = migrationsAreCurrent(dbFile, MIGRATIONS_DIRS.sqlite)
    ? []
    : await (await import("./schema-engine")).applyMigrations(target);
  const db = new PrismaClient({ adapter: withStatementCache(new PrismaBetterSqlite3({ url: `file:${dbFile}` })) });
  await db.$queryRawUnsafe("PRAGMA busy_timeout = 5000");
  return { db, applied, provider: "sqlite", target, where: describeTarget(target) };
}

async function openPostgres(target: DbTarget & { provider: "postgresql" }): Promise<OpenedDatabase> {
  const pg = (await import("pg")).default;
  const client = new pg.Client({ connectionString: target.url, connectionTimeoutMillis: 10_000 });
  try {
    await client.connect();
  } catch (e) {
    throw new Error(`cannot reach the database at ${describeTarget(target)}: ${(e as Error).message}`);
  }
  let current: boolean;
  try {
    await refuseForeignDatabase(client, target);
    current = await pgMigrationsAreCurrent(client, MIGRATIONS_DIRS.postgresql);
  } finally {
    await client.end().catch(() => {});
  }
  const applied = current ? [] : await (await import("./schema-engine")).applyMigrations(target);
  const [{ PrismaClient: PgClient }, { PrismaPg }] = await Promise.all([
    import("./postgresql/generated/client"),
    import("@prisma/adapter-pg"),
  ]);
  // One client type for the stores: the PostgreSQL client is generated from the same models.
  const db = new PgClient({ adapter: new PrismaPg({ connectionString: target.url }) }) as unknown as Db;
  return { db, applied, provider: "postgresql", target, where: describeTarget(target) };
}

/**
 * A database that holds other tables but none of Switchyard's migrations is someone else's (a
 * DATABASE_URL left in the shell for another app): refuse it rather than add our tables to it.
 */
async function refuseForeignDatabase(
  client: import("pg").Client,
  target: DbTarget & { provider: "postgresql" },
): Promise<void> {
  const tables = await client.query<{ name: string }>(
    "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'",
  );
  if (tables.rows.length === 0) return;
  const ours = new Set(committedMigrations(MIGRATIONS_DIRS.postgresql).map((m) => m.name));
  const hasLedger = tables.rows.some((r) => r.name === "_prisma_migrations");
  const names = hasLedger
    ? (await client.query<{ name: string }>("SELECT migration_name AS name FROM _prisma_migrations")).rows.map(
        (r) => r.name,
      )
    : [];
  if (names.length > 0 && names.every((n) => ours.has(n))) return;
  if (names.some((n) => ours.has(n))) return; // ours, with migrations newer than this build (the engine says so)
  throw new Error(
    `the database at ${describeTarget(target)} already holds ${tables.rows.length} table(s) that are not Switchyard's ` +
      "(no Switchyard migrations recorded): give the board a database of its own (createdb switchyard)",
  );
}
