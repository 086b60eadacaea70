// Prisma's migration engine, loaded from its WebAssembly build so nothing is downloaded (the
// native engine binary is never needed). Owns: reading a provider's committed migrations,
// applying them to a database (a SQLite file through better-sqlite3, or PostgreSQL through pg),
// and diffing schema.prisma against the migrations (for new migrations and the drift test).
import { randomUUID } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { PrismaBetterSqlite3 } from "@prisma/adapter-better-sqlite3";
import type { PrismaPg } from "@prisma/adapter-pg";
import type { MigrationList, SchemaEngine } from "@prisma/schema-engine-wasm/schema_engine_bg";
import { MIGRATIONS_DIRS, type Provider, SCHEMA_PATH, schemaFor } from "./schema-source";
import type { DbTarget } from "../database-url";

export { MIGRATIONS_DIRS, SCHEMA_PATH };
/** The SQLite migrations (the embedded default). */
export const MIGRATIONS_DIR = MIGRATIONS_DIRS.sqlite;

// The engine's glue, the pg adapter and the adapter utilities are imported when the engine is first
// opened, not at the top: the server's bundle inlines this module, and a static import of theirs
// would load them (pg included) at every server start, where the database is almost always current.
type EngineGlue = typeof import("@prisma/schema-engine-wasm/schema_engine_bg");
let wasmReady: Promise<EngineGlue> | null = null;

function loadWasm(): Promise<EngineGlue> {
  wasmReady ??= (async () => {
    const bg = await import("@prisma/schema-engine-wasm/schema_engine_bg");
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
    return bg;
  })();
  return wasmReady;
}

export async function readMigrations(provider: Provider = "sqlite"): Promise<MigrationList> {
  const dir = MIGRATIONS_DIRS[provider];
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
    lockContent = `provider = "${provider}"\n`;
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

type Connection = { dispose(): Promise<void> };
type ShadowAdapter = {
  executeRaw(q: { sql: string }): Promise<number>;
  executeScript(sql: string): Promise<void>;
};
type Factory = PrismaBetterSqlite3 | PrismaPg;

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
// keeps SQLite locked (and a PostgreSQL pool alive): remember them so `close` can dispose of them.
function trackConnections<F extends Factory>(factory: F, open: Connection[]): F {
  const f = factory as unknown as Record<"connect" | "connectToShadowDb", () => Promise<Connection>>;
  for (const method of ["connect", "connectToShadowDb"] as const) {
    const original = f[method].bind(factory);
    f[method] = async () => {
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

// The engine reads PostgreSQL's catalog (describing a schema), whose columns include types the pg
// adapter has no mapping for (the one-byte "char" of pg_class.relkind and the like) and refuses.
// Their text form is all the engine wants: report them as text.
const CATALOG_TEXT_TYPES = new Set([
  18 /* "char" */, 22 /* int2vector */, 24 /* regproc */, 30 /* oidvector */, 194 /* pg_node_tree */,
  1033 /* aclitem */, 2205 /* regclass */, 2206 /* regtype */,
]);
type PgIO = { performIO(q: unknown): Promise<{ fields: Array<{ dataTypeID: number }> }> };

function catalogTypesAsText<T>(queryable: T): T {
  const q = queryable as unknown as PgIO & { startTransaction?: (...a: unknown[]) => Promise<unknown> };
  const performIO = q.performIO.bind(q);
  q.performIO = async (query) => {
    const res = await performIO(query);
    for (const f of res.fields) if (CATALOG_TEXT_TYPES.has(f.dataTypeID)) f.dataTypeID = 25;
    return res;
  };
  if (q.startTransaction) {
    const start = q.startTransaction.bind(q);
    q.startTransaction = async (...a) => catalogTypesAsText(await start(...a));
  }
  return queryable;
}

/**
 * The pg adapter's own shadow database connects back to the main database (it passes the shadow's
 * name beside a connection string, which wins), so replaying migrations would write into the
 * board's database: connect to the shadow by a URL naming it instead, and drop it afterwards.
 */
function shadowByUrl(factory: PrismaPg, url: string): PrismaPg {
  factory.connectToShadowDb = async () => {
    const main = await factory.connect();
    const name = `prisma_migrate_shadow_db_${randomUUID().replace(/-/g, "")}`;
    await main.executeScript(`CREATE DATABASE "${name}"`);
    const u = new URL(url);
    u.pathname = `/${name}`;
    const { PrismaPg: Pg } = await import("@prisma/adapter-pg"); // loaded already: the main factory is one
    const shadow = await new Pg({ connectionString: u.toString() }).connect();
    const dispose = shadow.dispose.bind(shadow);
    shadow.dispose = async () => {
      await dispose();
      await main.executeScript(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await main.dispose();
    };
    return shadow;
  };
  return factory;
}

function withCatalogTypes(factory: PrismaPg): PrismaPg {
  for (const method of ["connect", "connectToShadowDb"] as const) {
    const original = factory[method].bind(factory);
    factory[method] = async () => catalogTypesAsText(await original());
  }
  return factory;
}

async function factoryFor(target: DbTarget): Promise<Factory> {
  if (target.provider === "sqlite")
    return withMultiStatementShadow(new PrismaBetterSqlite3({ url: `file:${target.file}` }));
  const { PrismaPg: Pg } = await import("@prisma/adapter-pg");
  return withCatalogTypes(shadowByUrl(new Pg({ connectionString: target.url }), target.url));
}

/** Opens the engine against a database (a SQLite file is created if missing). Always `close()` it. */
export async function openEngine(target: DbTarget): Promise<OpenEngine> {
  const bg = await loadWasm();
  const { bindMigrationAwareSqlAdapterFactory } = await import("@prisma/driver-adapter-utils");
  const connections: Connection[] = [];
  const factory = trackConnections(await factoryFor(target), connections);
  const engine = await bg.SchemaEngine.new(
    { datamodels: [["schema.prisma", schemaFor(target.provider)]] },
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
export async function applyMigrations(target: DbTarget): Promise<string[]> {
  const { engine, close } = await openEngine(target);
  try {
    const out = await engine.applyMigrations({
      migrationsList: await readMigrations(target.provider),
      filters: { externalTables: [], externalEnums: [] },
    });
    return out.appliedMigrationNames;
  } finally {
    await close();
  }
}

/**
 * SQL that takes the provider's committed migrations to schema.prisma; empty when they agree.
 * `scratch` is where the engine replays the migrations (a shadow database): a SQLite file, or a
 * PostgreSQL server the engine may create and drop a database on.
 */
export async function pendingSchemaSql(scratch: DbTarget): Promise<string> {
  const { engine, close } = await openEngine(scratch);
  try {
    const schema = schemaFor(scratch.provider);
    const res = await engine.diff({
      from: { tag: "migrations", ...(await readMigrations(scratch.provider)) },
      to: { tag: "schemaDatamodel", files: [{ path: SCHEMA_PATH, content: schema }] },
      shadowDatabaseUrl: null,
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
