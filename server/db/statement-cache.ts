// Prepared statements kept for the SQLite adapter's connection. Prisma's better-sqlite3 adapter
// prepares every query's SQL afresh (`prepare(sql).bind(args)`, one statement per query), so SQLite
// parsed and planned the same few hundred statements again on every call: about 6% of the servers'
// main-thread CPU in a profile of the orchestration tests. This gives the connection a `prepare`
// that hands back a kept statement (least recently used dropped past a cap), with `bind` returning a
// view that passes the arguments at run time instead of binding the statement for good.
//
// Only what the adapter calls is offered: `prepare(sql).run()` (BEGIN), and on a bound view `reader`,
// `run()`, `columns()` and `raw().all()`. A kept statement is always read in raw mode (arrays, which
// is what the adapter asks for) and always run to the end synchronously, so one never serves two
// queries at once.
import type { PrismaBetterSqlite3 } from "@prisma/adapter-better-sqlite3";
import type BetterSqlite3 from "better-sqlite3";

/** How many statements a connection keeps (Prisma's SQL varies with IN-list lengths, so it is capped). */
const STATEMENT_CACHE_SIZE = 500;

type Statement = BetterSqlite3.Statement<unknown[]>;

interface BoundView {
  readonly reader: boolean;
  run(): BetterSqlite3.RunResult;
  columns(): BetterSqlite3.ColumnDefinition[];
  raw(): { all(): unknown[] };
}

interface KeptStatement {
  run(): BetterSqlite3.RunResult;
  bind(args: unknown[]): BoundView;
}

/** Makes `db.prepare` return kept statements; returns the cache's size, for tests. */
export function keepStatements(db: BetterSqlite3.Database, max = STATEMENT_CACHE_SIZE): () => number {
  const prepare = db.prepare.bind(db) as (sql: string) => Statement;
  const kept = new Map<string, Statement>();
  const take = (sql: string): Statement => {
    let st = kept.get(sql);
    if (st) kept.delete(sql);
    else st = prepare(sql);
    kept.set(sql, st); // most recently used last
    if (kept.size > max) kept.delete(kept.keys().next().value as string);
    return st;
  };
  (db as unknown as { prepare: (sql: string) => KeptStatement }).prepare = (sql) => {
    const st = take(sql);
    return {
      run: () => st.run(),
      bind: (args) => ({
        reader: st.reader,
        run: () => st.run(args),
        columns: () => st.columns(),
        raw: () => ({ all: () => st.raw(true).all(args) }),
      }),
    };
  };
  return () => kept.size;
}

/** The factory, whose connections keep their statements. */
export function withStatementCache(factory: PrismaBetterSqlite3): PrismaBetterSqlite3 {
  const connect = factory.connect.bind(factory);
  factory.connect = async () => {
    const adapter = await connect();
    const client = (adapter as unknown as { client?: BetterSqlite3.Database }).client;
    // The adapter keeps its connection as `client`: if a release renames it, queries still work,
    // only without the cache (the test in statement-cache.test.ts then fails).
    if (client && typeof client.prepare === "function") keepStatements(client);
    return adapter;
  };
  return factory;
}
