// Whether a database already has every committed migration applied, answered from
// `_prisma_migrations` with better-sqlite3 alone: when it does, start-up skips loading Prisma's
// WebAssembly migration engine (most starts). A migration counts as applied when its row has
// finished, was not rolled back, and its checksum is the SHA-256 of the committed migration.sql
// (what the engine records), so an edited migration still goes through the engine (which
// refuses it loudly).
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";

export function migrationsAreCurrent(dbFile: string, migrationsDir: string): boolean {
  if (!existsSync(dbFile)) return false;
  const committed = readdirSync(migrationsDir, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => ({
      name: d.name,
      checksum: createHash("sha256")
        .update(readFileSync(path.join(migrationsDir, d.name, "migration.sql")))
        .digest("hex"),
    }));
  const db = new Database(dbFile, { readonly: true, fileMustExist: true });
  try {
    const table = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = '_prisma_migrations'").get();
    if (!table) return false;
    const rows = db
      .prepare(
        "SELECT migration_name AS name, checksum FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL",
      )
      .all() as { name: string; checksum: string }[];
    const applied = new Map(rows.map((r) => [r.name, r.checksum]));
    return committed.every((m) => applied.get(m.name) === m.checksum);
  } finally {
    db.close();
  }
}
