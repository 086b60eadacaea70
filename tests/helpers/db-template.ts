// A database with every committed migration applied, made once per test run (vitest's and
// Playwright's global setups) and copied into each fresh test data dir: the server then starts
// on current migrations, as it does on every start but a data dir's first, instead of loading the
// WebAssembly migration engine in every test server (~0.35 s of CPU each). The migration path
// itself is tested on empty data dirs (tests/schema-drift.test.ts, and servers given a home).
import { createHash } from "node:crypto";
import { copyFileSync, chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { ROOT } from "./server";

export const TEMPLATE_ENV = "YARD_TEST_DB_TEMPLATE";

/** Makes (or reuses: keyed by the migrations' content) the migrated template; returns its path. */
export async function makeDbTemplate(): Promise<string> {
  const dir = path.join(ROOT, "prisma/migrations");
  const hash = createHash("sha256");
  for (const m of readdirSync(dir).sort()) {
    const sql = path.join(dir, m, "migration.sql");
    if (existsSync(sql)) hash.update(m).update(readFileSync(sql));
  }
  const file = path.join(os.tmpdir(), `yard-db-template-${hash.digest("hex").slice(0, 16)}`, "yard.db");
  if (existsSync(file)) return file;
  const tmp = path.join(os.tmpdir(), `yard-db-template-tmp-${process.pid}`);
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(tmp, { recursive: true });
  const { openDatabase } = await import("../../server/db");
  const { db } = await openDatabase(path.join(tmp, "yard.db"));
  await db.$queryRawUnsafe("PRAGMA wal_checkpoint(TRUNCATE)");
  await db.$disconnect();
  mkdirSync(path.dirname(file), { recursive: true });
  renameSync(path.join(tmp, "yard.db"), file); // atomic: a concurrent run sees the whole file or none
  rmSync(tmp, { recursive: true, force: true });
  return file;
}

/** Copies the run's template (when there is one) into a fresh data dir. */
export function seedHome(home: string): void {
  const template = process.env[TEMPLATE_ENV];
  if (!template || !existsSync(template)) return;
  const db = path.join(home, "yard.db");
  copyFileSync(template, db);
  chmodSync(db, 0o600);
}
