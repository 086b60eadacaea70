// Whether a database already has every committed migration applied, answered from
// `_prisma_migrations` alone (better-sqlite3 for SQLite, pg for PostgreSQL): when it does,
// start-up skips loading Prisma's WebAssembly migration engine (most starts). A migration counts
// as applied when its row has finished, was not rolled back, and its checksum is the SHA-256 of
// the committed migration.sql (what the engine records), so an edited migration still goes
// through the engine (which refuses it loudly).
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import type pg from "pg";

type AppliedRow = { name: string; checksum: string };

const APPLIED_SQL =
  "SELECT migration_name AS name, checksum FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL";

export function committedMigrations(migrationsDir: string): AppliedRow[] {
  return readdirSync(migrationsDir, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => ({
      name: d.name,
      checksum: createHash("sha256")
        .update(readFileSync(path.join(migrationsDir, d.name, "migration.sql")))
        .digest("hex"),
    }));
}

function allApplied(migrationsDir: string, rows: AppliedRow[]): boolean {
  const applied = new Map(rows.map((r) => [r.name, r.checksum]));
  return committedMigrations(migrationsDir).every((m) => applied.get(m.name) === m.checksum);
}

export function migrationsAreCurrent(dbFile: string, migrationsDir: string): boolean {
  if (!existsSync(dbFile)) return false;
  const db = new Database(dbFile, { readonly: true, fileMustExist: true });
  try {
    const table = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = '_prisma_migrations'").get();
    if (!table) return false;
    return allApplied(migrationsDir, db.prepare(APPLIED_SQL).all() as AppliedRow[]);
  } finally {
    db.close();
  }
}

/** The PostgreSQL twin of migrationsAreCurrent, over a connected client. */
export async function pgMigrationsAreCurrent(client: pg.Client, migrationsDir: string): Promise<boolean> {
  const table = await client.query("SELECT to_regclass('public._prisma_migrations') AS t");
  if (!table.rows[0]?.t) return false;
  return allApplied(migrationsDir, (await client.query<AppliedRow>(APPLIED_SQL)).rows);
}
