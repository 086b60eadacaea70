// @ts-check
/**
 * Demo agent: the prompt language. Splits a prompt into steps (segments at newlines and ';';
 * a segment whose first word is a directive's name is that directive, anything else is free
 * text) and holds the directive list `help` prints. Pure: no output, no side effects.
 */

export const HELP_LINES = [
  "Directives (one per line or separated by ';', run in order; anything else is echoed):",
  "  write <path> <text...>     create/overwrite <path> with <text> + newline   (tool Write)",
  "  append <path> <text...>    append the line <text> to <path>                (tool Edit)",
  "  untracked <path>           create <path> with fixed content                (tool Write)",
  "  ask <question...>          ask for permission, wait for y/n                (tool Bash)",
  "  sleep <ms>                 work (spinner) for <ms> milliseconds",
  "  print <text...>            print <text> as a transcript line",
  "  lines <n>                  print 'line 1' .. 'line <n>'",
  "  commit <message...>        git add -A && git commit -m <message> in cwd    (tool Bash)",
  "  report <status> <summary>  run: yard task report --status <status> --summary <summary>",
  "  run-yard <args> [=> NAME]  run yard with <args> (quotes group words; {NAME.field} is a value from",
  "                             an earlier call's JSON saved with => NAME)     (tool Bash)",
  "  noreport                   end the turn without reporting (the default)",
  "  crash <code>               exit at once with <code> (no Stop, no SessionEnd)",
  "  ignore                     ignore the whole prompt (no hooks, no output)",
  "  exit                       end the session (SessionEnd) and exit 0",
  "  help                       show this list",
  "Keys: Enter submits · Ctrl-C twice or Ctrl-D on empty input exits",
];

/**
 * @typedef {{ kind: "text", text: string }
 *   | { kind: "invalid", error: string }
 *   | { kind: "write" | "append", path: string, text: string }
 *   | { kind: "untracked", path: string }
 *   | { kind: "ask", question: string }
 *   | { kind: "sleep", ms: number }
 *   | { kind: "print", text: string }
 *   | { kind: "lines", n: number }
 *   | { kind: "report", status: string, summary: string }
 *   | { kind: "commit", message: string }
 *   | { kind: "crash", code: number }
 *   | { kind: "yard", args: string[], save: string | null }
 *   | { kind: "noreport" | "ignore" | "exit" | "help" }} Step
 */

const DIRECTIVES = new Set([
  "write",
  "append",
  "untracked",
  "ask",
  "sleep",
  "print",
  "lines",
  "report",
  "commit",
  "noreport",
  "crash",
  "ignore",
  "exit",
  "help",
  "run-yard",
]);

/**
 * Split a command line into words the way a shell would for plain words and quotes ("…" and
 * '…'; a backslash escapes the next character outside single quotes), with no expansion.
 * @param {string} line
 * @returns {string[] | null} null when a quote is not closed
 * @public its unit test loads it by a computed specifier (knip cannot follow that)
 */
export function splitArgs(line) {
  /** @type {string[]} */
  const out = [];
  let cur = "";
  let inWord = false;
  /** @type {string | null} */
  let quote = null;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i];
    if (quote) {
      if (ch === quote) quote = null;
      else if (ch === "\\" && quote === '"' && i + 1 < line.length) cur += line[++i];
      else cur += ch;
    } else if (ch === '"' || ch === "'") {
      quote = ch;
      inWord = true;
    } else if (ch === "\\" && i + 1 < line.length) {
      cur += line[++i];
      inWord = true;
    } else if (/\s/.test(ch)) {
      if (inWord) out.push(cur);
      cur = "";
      inWord = false;
    } else {
      cur += ch;
      inWord = true;
    }
  }
  if (quote) return null;
  if (inWord) out.push(cur);
  return out;
}

/**
 * Split a prompt into steps: segments are separated by newlines or ';'; a segment whose
 * first word is exactly a directive name (lower case) is that directive, anything else is
 * free text.
 * @param {string} prompt
 * @returns {Step[]}
 */
export function parsePrompt(prompt) {
  /** @type {Step[]} */
  const steps = [];
  for (const raw of prompt.split(/\r\n|[\r\n;]/)) {
    const seg = raw.trim();
    if (!seg) continue;
    const m = /^(\S+)(?:\s+([\s\S]*))?$/.exec(seg);
    const word = m ? m[1] : seg;
    const rest = m?.[2] ? m[2].trim() : "";
    if (!DIRECTIVES.has(word)) {
      steps.push({ kind: "text", text: seg });
      continue;
    }
    const pm = /^(\S+)(?:\s+([\s\S]*))?$/.exec(rest);
    const first = pm ? pm[1] : "";
    const tail = pm?.[2] ? pm[2] : "";
    const isInt = /^\d+$/.test(rest);
    switch (word) {
      case "write":
      case "append":
        if (!first) steps.push({ kind: "invalid", error: `${word} needs <path> <text...>` });
        else steps.push({ kind: word, path: first, text: tail });
        break;
      case "untracked":
        if (!first || tail) steps.push({ kind: "invalid", error: "untracked needs exactly one <path>" });
        else steps.push({ kind: "untracked", path: first });
        break;
      case "ask":
        steps.push({ kind: "ask", question: rest || "May I proceed?" });
        break;
      case "sleep":
        if (!isInt) steps.push({ kind: "invalid", error: "sleep needs <ms> (a whole number)" });
        else steps.push({ kind: "sleep", ms: Math.min(Number(rest), 3_600_000) });
        break;
      case "print":
        steps.push({ kind: "print", text: rest });
        break;
      case "lines":
        if (!isInt) steps.push({ kind: "invalid", error: "lines needs <n> (a whole number)" });
        else steps.push({ kind: "lines", n: Math.min(Number(rest), 100_000) });
        break;
      case "report":
        if (!first) steps.push({ kind: "invalid", error: "report needs <status> <summary...>" });
        else steps.push({ kind: "report", status: first, summary: tail });
        break;
      case "commit":
        if (!rest) steps.push({ kind: "invalid", error: "commit needs <message...>" });
        else steps.push({ kind: "commit", message: rest });
        break;
      case "run-yard": {
        const m2 = /^([\s\S]*?)\s*=>\s*([A-Za-z_][A-Za-z0-9_]*)$/.exec(rest);
        const args = splitArgs(m2 ? m2[1] : rest);
        if (!args) steps.push({ kind: "invalid", error: "run-yard: a quote is not closed" });
        else if (!args.length) steps.push({ kind: "invalid", error: "run-yard needs <args...>" });
        else steps.push({ kind: "yard", args, save: m2 ? m2[2] : null });
        break;
      }
      case "crash":
        if (!isInt || Number(rest) > 255) steps.push({ kind: "invalid", error: "crash needs <code> (0-255)" });
        else steps.push({ kind: "crash", code: Number(rest) });
        break;
      default: // noreport, ignore, exit, help: no arguments
        if (rest) steps.push({ kind: "invalid", error: `${word} takes no arguments` });
        else steps.push({ kind: /** @type {"noreport" | "ignore" | "exit" | "help"} */ (word) });
    }
  }
  return steps;
}
