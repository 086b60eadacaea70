// How the CLI speaks: with --json, stdout holds exactly one JSON document (errors too, as
// {"error":{code,message,details}}); without it, readable text on stdout and errors on stderr.
// Exit codes: 0 ok, 1 an error from the server or the core, 2 a usage error.
// Text for a person never carries terminal controls: much of what yard prints was written by an
// agent (summaries, file names, thread messages, diffs, screens), and an ESC or C1 byte in it
// could rewrite the terminal (OSC 52 clipboard writes, titles, cursor moves hiding lines). Every
// human rendering passes through terminalSafe (fields inside one line through oneLine); --json
// output is the server's document, byte for byte.
import { TRPCClientError } from "@trpc/client";
import type { YardErrorData } from "../server/api/trpc";
import { type ErrorCode, isErrorCode, YardError } from "../server/core/errors";
import { PIN_ERROR } from "./bin/tls-pin.mjs";

export interface CliError {
  code: ErrorCode;
  message: string;
  details: Record<string, unknown> | null;
}

export function toCliError(e: unknown): CliError {
  if (e instanceof YardError) return { code: e.code, message: e.message, details: e.details ?? null };
  if (e instanceof TRPCClientError) {
    const yard = (e.data as { yard?: YardErrorData } | undefined)?.yard;
    if (yard && isErrorCode(yard.code)) return { code: yard.code, message: yard.message, details: yard.details };
    const cause =
      (e.cause as { cause?: { code?: string } } | undefined)?.cause?.code ??
      (e.cause as { code?: string } | undefined)?.code;
    const tls = tlsProblem(e.cause) ?? tlsProblem((e.cause as { cause?: unknown } | undefined)?.cause);
    if (tls) return { code: "SERVER_UNAVAILABLE", message: tls, details: null };
    if (/fetch failed|ECONNREFUSED|ECONNRESET|ENOTFOUND|ENOENT/.test(`${e.message} ${cause ?? ""}`)) {
      return {
        code: "SERVER_UNAVAILABLE",
        message: "Switchyard is not reachable (is it running? start it with `npm start` or `yard serve`)",
        details: null,
      };
    }
    if (/Unauthorized|401/.test(e.message))
      return { code: "UNAUTHORIZED", message: "The server refused this token", details: null };
    return { code: "INTERNAL", message: e.message, details: null };
  }
  return { code: "INTERNAL", message: e instanceof Error ? e.message : String(e), details: null };
}

/** Why a connection to an https board failed its TLS checks, as a person can act on it; null when it did not. */
function tlsProblem(cause: unknown): string | null {
  const { code = "", message = "" } = (cause ?? {}) as { code?: string; message?: string };
  if (code === PIN_ERROR) return `Switchyard cannot be reached securely: ${message}`;
  if (code === "EPROTO")
    return `Switchyard's address does not speak TLS as its https:// URL says (${message}); check YARD_URL`;
  if (/CERT|SELF_SIGNED|UNABLE_TO_(GET|VERIFY)/.test(code))
    return `The server's TLS certificate is not trusted (${code}: ${message}). On the board's machine yard trusts the certificate its data dir holds; elsewhere set YARD_SERVER_CERT to a copy of the board's certificate (PEM)`;
  return null;
}

/**
 * Characters a terminal acts on instead of showing: C0 controls but tab and newline, DEL, the C1
 * controls (U+0080-U+009F: 8-bit CSI, OSC, ...), and the Unicode controls that reorder or break
 * lines behind the reader's back (bidirectional embeddings, overrides and isolates, the line and
 * paragraph separators).
 */
const TERMINAL_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]/g;
/** The same, and tab, CR and newline: what must not appear inside one line of a listing. */
const LINE_CONTROL = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]/g;

/** A control character as the visible text a person can read: `\x1b`, `\u009b`, `\u202e`. */
const visible = (c: string) => {
  const n = c.charCodeAt(0);
  return n <= 0xff ? `\\x${n.toString(16).padStart(2, "0")}` : `\\u${n.toString(16).padStart(4, "0")}`;
};

/**
 * Text as a terminal may show it: every control character (see TERMINAL_CONTROL) written out
 * visibly (`\x1b]52;…`), tabs and newlines kept as the layout they are.
 */
export function terminalSafe(text: string): string {
  return text.replace(TERMINAL_CONTROL, visible);
}

/** One field of a one-line rendering (a title, a path, a branch): newlines and tabs written out too. */
export function oneLine(text: string): string {
  return text.replace(LINE_CONTROL, visible);
}

/** A multi-line text under a heading line: its later lines indented, so it cannot pose as lines of its own. */
export function indented(text: string, by = "  "): string {
  return text.split("\n").join(`\n${by}`);
}

export class Output {
  constructor(readonly json: boolean) {}

  /** Prints the command's result: the JSON document, or the text rendering (made terminal-safe). */
  result(doc: unknown, text: () => string): void {
    if (this.json) process.stdout.write(`${JSON.stringify(doc)}\n`);
    else {
      const t = terminalSafe(text());
      if (t) process.stdout.write(t.endsWith("\n") ? t : `${t}\n`);
    }
  }

  /** One JSON line (for --follow streams), or one terminal-safe text line. */
  line(doc: unknown, text: () => string): void {
    process.stdout.write(`${this.json ? JSON.stringify(doc) : terminalSafe(text())}\n`);
  }

  error(err: CliError, exitCode: 1 | 2 = 1): never {
    if (this.json) process.stdout.write(`${JSON.stringify({ error: err })}\n`);
    else
      process.stderr.write(
        terminalSafe(`yard: ${err.message}${err.code !== "BAD_PARAMS" || exitCode === 1 ? ` [${err.code}]` : ""}`) +
          "\n",
      );
    process.exit(exitCode);
  }
}

/** Renders rows as aligned columns; each cell on one line (oneLine), so no cell can add rows or shift columns. */
export function table(rows: string[][]): string {
  if (rows.length === 0) return "";
  const safe = rows.map((r) => r.map((c) => oneLine(c ?? "")));
  const widths = safe[0]!.map((_, i) => Math.max(...safe.map((r) => (r[i] ?? "").length)));
  return safe.map((r) => r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]!))).join("  ")).join("\n");
}

/** Asks a yes/no question on the terminal (stderr), true only for an answer starting with y. */
export async function confirm(question: string): Promise<boolean> {
  const { createInterface } = await import("node:readline/promises");
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    return /^y/i.test((await rl.question(terminalSafe(question))).trim());
  } finally {
    rl.close();
  }
}
