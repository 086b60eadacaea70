// The Command field's format: one argv entry per line, the first being the program. Lines are
// passed as they are (no shell quoting or variables); blank lines are dropped, and an entry cannot
// contain a line break. Placeholders come from the server's list (server/wire/placeholders.ts).
export { ARGV_PLACEHOLDERS } from "../../server/wire/placeholders";

export function argvToText(argv: readonly string[]): string {
  return argv.join("\n");
}

export function textToArgv(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((l) => l.replace(/\r$/, ""))
    .filter((l) => l.trim().length > 0);
}

/** A profile's argv on one line for the table: entries with spaces are quoted, long ones cut. */
export function argvLine(argv: readonly string[], max = 60): string {
  return argv
    .map((a) => (a.length > max ? `${a.slice(0, max - 1)}…` : a))
    .map((a) => (/[\s"']/.test(a) ? JSON.stringify(a) : a))
    .join(" ");
}
