// yard db copy --to URL: moves this data dir's SQLite board into an empty PostgreSQL database
// (server/db/copy.ts does the work; loaded from the server bundle, so the CLI bundle carries no
// database code). Runs here, not through the server, which must be stopped: a copy of a running
// board would miss what it writes meanwhile.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { Command } from "commander";
import { paths, yardHome } from "../../server/config";
import { ERROR_CODES, type ErrorCode, YardError } from "../../server/core/errors";
import type { CopyReport } from "../../server/wire/db-copy";
import { parseDatabaseUrl } from "../../server/database-url";
import { processAlive } from "../../server/panehost/protocol";
import { paneMarkers } from "../connection";
import type { CliContext } from "../context";
import { table } from "../output";

export function registerDb(program: Command, ctx: CliContext) {
  const db = program.command("db").description("The board's database");
  db.command("copy")
    .description(
      "Copy this data dir's SQLite board into an empty PostgreSQL database, then compare row counts and a checksum per table (stop the server first)",
    )
    .requiredOption("--to <url>", "postgresql://user:password@host:5432/database (an empty database)")
    .action(async (o: { to: string }) => {
      const markers = paneMarkers(process.env, process.cwd(), yardHome());
      if (markers.length)
        throw new YardError(
          "UNAUTHORIZED",
          `yard db copy reads the board's database and is never run from inside a pane`,
          {
            markers,
          },
        );
      let url: string;
      try {
        url = parseDatabaseUrl(o.to);
      } catch (e) {
        throw new YardError("BAD_PARAMS", `--to: ${(e as Error).message}`);
      }
      const home = yardHome();
      const p = paths(home);
      if (!existsSync(p.db))
        throw new YardError("NOT_FOUND", `No SQLite board in data dir ${home} (${p.db})`, { home });
      const running = runningServerPid(p.server);
      if (running !== null)
        throw new YardError(
          "CONFLICT",
          `The server is running for data dir ${home} (pid ${running}): stop it first (yard stop), or the copy would miss what it writes meanwhile`,
          { pid: running },
        );
      const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
      const build = (await import(pathToFileURL(path.join(root, "scripts/build-server.mjs")).href)) as {
        DB_COPY_BUNDLE: string;
        buildServer(): Promise<unknown>;
        serverBundleIsFresh(): Promise<boolean>;
      };
      if (!(await build.serverBundleIsFresh())) await build.buildServer();
      const { copySqliteToPostgres } = (await import(pathToFileURL(build.DB_COPY_BUNDLE).href)) as {
        copySqliteToPostgres(o: { file: string; url: string; progress?: (line: string) => void }): Promise<CopyReport>;
      };
      const out = ctx.out();
      const report: CopyReport = await copySqliteToPostgres({
        file: p.db,
        url,
        progress: (line) => {
          if (!out.json) process.stderr.write(`${line}\n`);
        },
      }).catch((e: unknown) => {
        // The server bundle has its own copy of YardError: keep its code.
        const err = e as { code?: unknown; message?: string; details?: Record<string, unknown> };
        if (typeof err.code === "string" && err.code in ERROR_CODES)
          throw new YardError(err.code as ErrorCode, err.message, err.details);
        throw e;
      });
      if (!report.ok)
        throw new YardError("INTERNAL", "The copy did not match the SQLite board: nothing was kept (rolled back)", {
          tables: report.tables.filter((t) => !t.match),
        });
      out.result(report, () =>
        [
          table([
            ["table", "rows", "copied", "checksum (SQLite)", "checksum (PostgreSQL)"],
            ...report.tables.map((t) => [
              t.table,
              String(t.rows),
              String(t.targetRows),
              t.sourceChecksum,
              t.targetChecksum,
            ]),
          ]),
          `Copied ${report.tables.reduce((n, t) => n + t.rows, 0)} row(s) in ${report.tables.length} tables to ${report.to}; every count and checksum matches.`,
          `Start the board on it with: yard serve --database-url <url> (or DATABASE_URL=<url>)`,
        ].join("\n"),
      );
    });
}

function runningServerPid(file: string): number | null {
  try {
    const pid = Number((JSON.parse(readFileSync(file, "utf8")) as { pid?: unknown }).pid);
    return pid > 0 && processAlive(pid) ? pid : null;
  } catch {
    return null;
  }
}
