// Opens the SQLite database under the data dir: creates it, applies committed migrations
// (WASM engine, offline), switches to WAL, and returns the Prisma client.
import { chmodSync, closeSync, existsSync, mkdirSync, openSync } from "node:fs";
import path from "node:path";
import { REPO_ROOT } from "../root";
import Database from "better-sqlite3";
import { PrismaBetterSqlite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaClient } from "./generated/client";
import { migrationsAreCurrent } from "./migrations-current";

export type Db = PrismaClient;

export async function openDatabase(dbFile: string): Promise<{ db: Db; applied: string[] }> {
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
  const migrationsDir = path.join(REPO_ROOT, "prisma/migrations");
  const applied = migrationsAreCurrent(dbFile, migrationsDir)
    ? []
    : await (await import("./schema-engine")).applyMigrations(dbFile);
  const db = new PrismaClient({ adapter: new PrismaBetterSqlite3({ url: `file:${dbFile}` }) });
  await db.$queryRawUnsafe("PRAGMA busy_timeout = 5000");
  return { db, applied };
}
