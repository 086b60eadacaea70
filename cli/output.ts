// How the CLI speaks: with --json, stdout holds exactly one JSON document (errors too, as
// {"error":{code,message,details}}); without it, readable text on stdout and errors on stderr.
// Exit codes: 0 ok, 1 an error from the server or the core, 2 a usage error.
import { TRPCClientError } from "@trpc/client";
import type { YardErrorData } from "../server/api/trpc";
import { type ErrorCode, isErrorCode, YardError } from "../server/core/errors";

export interface CliError {
  code: ErrorCode;
  message: string;
  details: Record<string, unknown> | null;
}

export class UsageError extends Error {}

export function toCliError(e: unknown): CliError {
  if (e instanceof YardError) return { code: e.code, message: e.message, details: e.details ?? null };
  if (e instanceof TRPCClientError) {
    const yard = (e.data as { yard?: YardErrorData } | undefined)?.yard;
    if (yard && isErrorCode(yard.code)) return { code: yard.code, message: yard.message, details: yard.details };
    const cause = (e.cause as { cause?: { code?: string } } | undefined)?.cause?.code ?? (e.cause as { code?: string } | undefined)?.code;
    if (/fetch failed|ECONNREFUSED|ECONNRESET|ENOTFOUND|ENOENT/.test(`${e.message} ${cause ?? ""}`)) {
      return { code: "SERVER_UNAVAILABLE", message: "Switchyard is not reachable (is it running? start it with `npm start` or `yard serve`)", details: null };
    }
    if (/Unauthorized|401/.test(e.message)) return { code: "UNAUTHORIZED", message: "The server refused this token", details: null };
    return { code: "INTERNAL", message: e.message, details: null };
  }
  return { code: "INTERNAL", message: e instanceof Error ? e.message : String(e), details: null };
}

export class Output {
  constructor(readonly json: boolean) {}

  /** Prints the command's result: the JSON document, or the text rendering. */
  result(doc: unknown, text: () => string): void {
    if (this.json) process.stdout.write(JSON.stringify(doc) + "\n");
    else {
      const t = text();
      if (t) process.stdout.write(t.endsWith("\n") ? t : t + "\n");
    }
  }

  /** One JSON line (for --follow streams). */
  line(doc: unknown, text: () => string): void {
    process.stdout.write((this.json ? JSON.stringify(doc) : text()) + "\n");
  }

  error(err: CliError, exitCode: 1 | 2 = 1): never {
    if (this.json) process.stdout.write(JSON.stringify({ error: err }) + "\n");
    else process.stderr.write(`yard: ${err.message}${err.code !== "BAD_PARAMS" || exitCode === 1 ? ` [${err.code}]` : ""}\n`);
    process.exit(exitCode);
  }
}

/** Renders rows as aligned columns. */
export function table(rows: string[][]): string {
  if (rows.length === 0) return "";
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? "").length)));
  return rows.map((r) => r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]!))).join("  ")).join("\n");
}
