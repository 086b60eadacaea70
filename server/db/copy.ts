// `yard db copy --to URL`: moves a board from its SQLite file into an empty PostgreSQL database
// with nothing lost. Both ends are migrated to this build's schema first; then, in one PostgreSQL
// transaction, every table is copied (parents before the tables that reference them), read back,
// and compared: row counts and a checksum per table over each row's canonical text (the same on
// both providers: a time as its UTC instant, a boolean as t/f, an integer in decimal; rows hashed
// one by one and the digests sorted, so row order does not matter). Any difference rolls the whole
// copy back. The SQLite file is only read.
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import Database from "better-sqlite3";
import pg from "pg";
import { YardError } from "../core/errors";
import { openDatabase } from "./index";
import { describeTarget } from "../database-url";
import type { CopyReport } from "../wire/db-copy";

type TableReport = CopyReport["tables"][number];

type Column = { name: string; type: string };
type Table = { name: string; columns: Column[] };

const NULL = "\u0000N";
/** Rows per INSERT (PostgreSQL takes at most 65,535 parameters a statement). */
const maxBatch = (cols: number) => Math.max(1, Math.min(1000, Math.floor(60_000 / cols)));

const isTime = (t: string) => t.startsWith("timestamp");

/** A value's canonical text on either side (`fromPg`: PostgreSQL's own text form of it). */
function canonical(v: unknown, type: string, fromPg: boolean): string {
  if (v === null || v === undefined) return NULL;
  if (isTime(type)) {
    const ms =
      typeof v === "number" ? v : fromPg ? Date.parse(`${String(v).replace(" ", "T")}Z`) : Date.parse(String(v));
    return Number.isNaN(ms) ? `invalid:${String(v)}` : new Date(ms).toISOString();
  }
  if (type === "boolean") return v === 1 || v === true || v === "true" || v === "t" ? "t" : "f";
  if (type === "integer" || type === "bigint" || type === "smallint" || type === "double precision")
    return String(Number(v));
  return String(v);
}

/** What PostgreSQL is given for a SQLite value: times as UTC wall-clock text (the columns have no zone). */
function toPg(v: unknown, type: string): unknown {
  if (v === null || v === undefined) return null;
  if (isTime(type)) {
    const ms = typeof v === "number" ? v : Date.parse(String(v));
    if (Number.isNaN(ms)) throw new YardError("BAD_PARAMS", `unreadable time ${JSON.stringify(v)} in the SQLite board`);
    return new Date(ms).toISOString().slice(0, -1);
  }
  if (type === "boolean") return v === 1 || v === true;
  return v;
}

class Checksum {
  private readonly digests: string[] = [];
  add(values: string[]): void {
    this.digests.push(createHash("sha256").update(JSON.stringify(values)).digest("hex"));
  }
  get count(): number {
    return this.digests.length;
  }
  digest(): string {
    const h = createHash("sha256");
    for (const d of this.digests.sort()) h.update(d);
    return h.digest("hex").slice(0, 16);
  }
}

const q = (id: string) => `"${id.replace(/"/g, '""')}"`;

/** The board's tables in PostgreSQL with their columns, parents before the tables referencing them. */
async function tablesOf(c: pg.Client): Promise<Table[]> {
  const cols = await c.query<{ table: string; name: string; type: string }>(
    `SELECT table_name AS table, column_name AS name, data_type AS type FROM information_schema.columns
     WHERE table_schema = current_schema() AND table_name <> '_prisma_migrations' ORDER BY table_name, ordinal_position`,
  );
  const byName = new Map<string, Column[]>();
  for (const r of cols.rows) byName.set(r.table, [...(byName.get(r.table) ?? []), { name: r.name, type: r.type }]);
  const fks = await c.query<{ child: string; parent: string }>(
    `SELECT DISTINCT tc.table_name AS child, ccu.table_name AS parent FROM information_schema.table_constraints tc
     JOIN information_schema.constraint_column_usage ccu ON ccu.constraint_name = tc.constraint_name
     WHERE tc.constraint_type = 'FOREIGN KEY' AND tc.table_schema = current_schema()`,
  );
  const parents = new Map<string, Set<string>>();
  for (const r of fks.rows)
    if (r.child !== r.parent) parents.set(r.child, (parents.get(r.child) ?? new Set()).add(r.parent));
  const order: string[] = [];
  const visit = (t: string, path: Set<string>) => {
    if (order.includes(t) || path.has(t)) return;
    path.add(t);
    for (const p of parents.get(t) ?? []) visit(p, path);
    order.push(t);
  };
  for (const t of [...byName.keys()].sort()) visit(t, new Set());
  return order.map((name) => ({ name, columns: byName.get(name)! }));
}

export async function copySqliteToPostgres(opts: {
  file: string;
  url: string;
  progress?: (line: string) => void;
}): Promise<CopyReport> {
  const progress = opts.progress ?? (() => {});
  if (!existsSync(opts.file)) throw new YardError("NOT_FOUND", `No SQLite board at ${opts.file}`);
  const to = describeTarget({ provider: "postgresql", url: opts.url });
  // Both ends on this build's schema (the SQLite board gets any migration it lacks, as a start would).
  progress(`migrating ${opts.file} and ${to} to this version's schema…`);
  await (await openDatabase(opts.file)).db.$disconnect();
  await (await openDatabase(opts.url)).db.$disconnect();

  const src = new Database(opts.file, { readonly: true, fileMustExist: true });
  const c = new pg.Client({ connectionString: opts.url });
  await c.connect();
  try {
    const tables = await tablesOf(c);
    for (const t of tables) {
      const present = (await c.query(`SELECT EXISTS (SELECT 1 FROM ${q(t.name)}) AS any`)).rows[0]?.any;
      if (present)
        throw new YardError(
          "CONFLICT",
          `${to} already holds a board (rows in ${t.name}): copy into an empty database (createdb a new one)`,
          { table: t.name },
        );
      const srcCols = (src.prepare(`PRAGMA table_info(${q(t.name)})`).all() as { name: string }[]).map((r) => r.name);
      const missing = t.columns.filter((col) => !srcCols.includes(col.name)).map((col) => col.name);
      if (missing.length)
        throw new YardError("CONFLICT", `the SQLite board's ${t.name} lacks ${missing.join(", ")}: schemas differ`, {
          table: t.name,
          missing,
        });
    }

    const reports: TableReport[] = [];
    await c.query("BEGIN");
    try {
      for (const t of tables) {
        const names = t.columns.map((col) => q(col.name)).join(", ");
        const batchSize = maxBatch(t.columns.length);
        const sum = new Checksum();
        let batch: unknown[][] = [];
        const flush = async () => {
          if (!batch.length) return;
          const params: unknown[] = [];
          const tuples = batch.map((row) => {
            const marks = row.map((v) => {
              params.push(v);
              return `$${params.length}`;
            });
            return `(${marks.join(", ")})`;
          });
          await c.query(`INSERT INTO ${q(t.name)} (${names}) VALUES ${tuples.join(", ")}`, params);
          batch = [];
        };
        for (const row of src
          .prepare(`SELECT ${names} FROM ${q(t.name)}`)
          .raw()
          .iterate() as Iterable<unknown[]>) {
          sum.add(row.map((v, i) => canonical(v, t.columns[i]!.type, false)));
          batch.push(row.map((v, i) => toPg(v, t.columns[i]!.type)));
          if (batch.length >= batchSize) await flush();
        }
        await flush();
        // Read back inside the transaction, as PostgreSQL's text, and summed the same way.
        const back = new Checksum();
        const text = t.columns.map((col) => `${q(col.name)}::text`).join(", ");
        const res = await c.query({ text: `SELECT ${text} FROM ${q(t.name)}`, rowMode: "array" });
        for (const row of res.rows as unknown[][]) back.add(row.map((v, i) => canonical(v, t.columns[i]!.type, true)));
        const report: TableReport = {
          table: t.name,
          rows: sum.count,
          targetRows: back.count,
          sourceChecksum: sum.digest(),
          targetChecksum: back.digest(),
          match: false,
        };
        report.match = report.rows === report.targetRows && report.sourceChecksum === report.targetChecksum;
        reports.push(report);
        progress(`${t.name}: ${report.rows} row(s) ${report.match ? "copied, checksums match" : "DIFFER"}`);
      }
      const ok = reports.every((r) => r.match);
      if (!ok) {
        await c.query("ROLLBACK");
        return { from: opts.file, to, tables: reports, ok };
      }
      // The journal's sequence goes on after the copied events.
      await c.query(
        `SELECT setval(pg_get_serial_sequence('"Event"', 'seq'), GREATEST((SELECT MAX("seq") FROM "Event"), 1), (SELECT MAX("seq") FROM "Event") IS NOT NULL)`,
      );
      await c.query("COMMIT");
      return { from: opts.file, to, tables: reports, ok };
    } catch (e) {
      await c.query("ROLLBACK").catch(() => {});
      throw e;
    }
  } finally {
    src.close();
    await c.end().catch(() => {});
  }
}
