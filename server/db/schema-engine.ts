// Prisma's migration engine, loaded from its WebAssembly build so nothing is downloaded (the
// native engine binary is never needed). Owns: reading prisma/migrations, applying them to a SQLite file,
// and diffing schema.prisma against the migrations (for new migrations and the drift test).
import { readFile, readdir } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { REPO_ROOT } from "../root";
import { PrismaBetterSqlite3 } from "@prisma/adapter-better-sqlite3";
import { bindMigrationAwareSqlAdapterFactory } from "@prisma/driver-adapter-utils";
import * as bg from "@prisma/schema-engine-wasm/schema_engine_bg";
import type { MigrationList, SchemaEngine } from "@prisma/schema-engine-wasm/schema_engine_bg";

export { REPO_ROOT };
export const SCHEMA_PATH = path.join(REPO_ROOT, "prisma/schema.prisma");
export const MIGRATIONS_DIR = path.join(REPO_ROOT, "prisma/migrations");

let wasmReady: Promise<void> | null = null;

function loadWasm(): Promise<void> {
  wasmReady ??= (async () => {
    const require = createRequire(import.meta.url);
    const wasmPath = path.join(
      path.dirname(require.resolve("@prisma/schema-engine-wasm/schema_engine_bg")),
      "schema_engine_bg.wasm",
    );
    const module = await WebAssembly.compile(await readFile(wasmPath));
    const instance = new WebAssembly.Instance(module, {
      "./schema_engine_bg.js": bg as unknown as WebAssembly.ModuleImports,
    });
    const exports = instance.exports as unknown as { __wbindgen_start: () => void };
    (bg as unknown as { __wbg_set_wasm: (e: unknown) => void }).__wbg_set_wasm(instance.exports);
    exports.__wbindgen_start();
  })();
  return wasmReady;
}

export async function readMigrations(dir = MIGRATIONS_DIR): Promise<MigrationList> {
  let names: string[] = [];
  try {
    names = (await readdir(dir, { withFileTypes: true }))
      .filter((d) => d.isDirectory())
      .map((d) => d.name)
      .sort();
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "ENOENT") throw e;
  }
  let lockContent: string | null = null;
  try {
    lockContent = await readFile(path.join(dir, "migration_lock.toml"), "utf8");
  } catch {
    lockContent = 'provider = "sqlite"\n';
  }
  const migrationDirectories = await Promise.all(
    names.map(async (name) => ({
      path: name,
      migrationFile: {
        path: "migration.sql",
        content: { tag: "ok" as const, value: await readFile(path.join(dir, name, "migration.sql"), "utf8") },
      },
    })),
  );
  return {
    baseDir: dir,
    lockfile: { path: "migration_lock.toml", content: lockContent },
    shadowDbInitScript: "",
    migrationDirectories,
  };
}

type ShadowAdapter = {
  executeRaw(q: { sql: string }): Promise<number>;
  executeScript(sql: string): Promise<void>;
};

// The WASM engine replays migration files on the shadow database through `executeRaw`,
// which better-sqlite3 refuses for multi-statement SQL; run those through `executeScript`.
function withMultiStatementShadow(factory: PrismaBetterSqlite3): PrismaBetterSqlite3 {
  const connectToShadowDb = factory.connectToShadowDb.bind(factory);
  factory.connectToShadowDb = async () => {
    const shadow = await connectToShadowDb();
    const raw = shadow as unknown as ShadowAdapter;
    const executeRaw = raw.executeRaw.bind(shadow);
    raw.executeRaw = async (q) => {
      try {
        return await executeRaw(q);
      } catch (e) {
        if (!(e instanceof RangeError) || !/more than one statement/.test(e.message)) throw e;
        await raw.executeScript(q.sql);
        return 0;
      }
    };
    return shadow;
  };
  return factory;
}

// The engine does not close the connections it opens through the adapter, and an open one
// keeps SQLite locked: remember them so `close` can dispose of them.
function trackConnections(
  factory: PrismaBetterSqlite3,
  open: Array<{ dispose(): Promise<void> }>,
): PrismaBetterSqlite3 {
  for (const method of ["connect", "connectToShadowDb"] as const) {
    const original = factory[method].bind(factory);
    factory[method] = async () => {
      const conn = await original();
      open.push(conn);
      return conn;
    };
  }
  return factory;
}

export interface OpenEngine {
  engine: SchemaEngine;
  close(): Promise<void>;
}

/** Opens the engine against a SQLite file (created if missing). Always `close()` it. */
export async function openEngine(dbFile: string): Promise<OpenEngine> {
  await loadWasm();
  const schema = await readFile(SCHEMA_PATH, "utf8");
  const connections: Array<{ dispose(): Promise<void> }> = [];
  const factory = trackConnections(
    withMultiStatementShadow(new PrismaBetterSqlite3({ url: `file:${dbFile}` })),
    connections,
  );
  const engine = await bg.SchemaEngine.new(
    { datamodels: [["schema.prisma", schema]] },
    () => {},
    bindMigrationAwareSqlAdapterFactory(factory),
  );
  return {
    engine,
    async close() {
      engine.free();
      await Promise.all(connections.splice(0).map((c) => c.dispose().catch(() => {})));
    },
  };
}

/** Applies every committed migration not yet applied; returns the names applied now. */
export async function applyMigrations(dbFile: string): Promise<string[]> {
  const { engine, close } = await openEngine(dbFile);
  try {
    const out = await engine.applyMigrations({
      migrationsList: await readMigrations(),
      filters: { externalTables: [], externalEnums: [] },
    });
    return out.appliedMigrationNames;
  } finally {
    await close();
  }
}

/** SQL that takes the committed migrations to schema.prisma; empty when they agree. */
export async function pendingSchemaSql(scratchDbFile: string): Promise<string> {
  const { engine, close } = await openEngine(scratchDbFile);
  try {
    const schema = await readFile(SCHEMA_PATH, "utf8");
    const res = await engine.diff({
      from: { tag: "migrations", ...(await readMigrations()) },
      to: { tag: "schemaDatamodel", files: [{ path: SCHEMA_PATH, content: schema }] },
      script: true,
      exitCode: null,
      filters: { externalTables: [], externalEnums: [] },
    } as Parameters<SchemaEngine["diff"]>[0]);
    const sql = (res.stdout ?? "").trim();
    return /^-- This is an empty migration\.?$/.test(sql) ? "" : sql;
  } finally {
    await close();
  }
}
