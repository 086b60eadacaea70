#!/usr/bin/env node
// @ts-check
/**
 * Switchyard demo agent: a deterministic terminal program that behaves like a TUI coding
 * agent (drawn like Claude Code: inline transcript + a 3-line bottom region), posts the same
 * hook payloads Claude Code does through `yard hook <Event>`, and does what directives in its
 * prompts tell it to. Plain ESM JavaScript, Node built-ins only, no build step.
 * See README.md beside this file for the directive list and the exact behaviour.
 */
import { spawn } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { StringDecoder } from "node:string_decoder";

// ---------------------------------------------------------------------------------------
// Constants and options
// ---------------------------------------------------------------------------------------

const BANNER = "Switchyard demo agent — type a prompt, or 'help'";
const SPINNER = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];
const SPINNER_INTERVAL_MS = 100;
const CTRL_C_WINDOW_MS = 2000;
const ESC_FLUSH_MS = 50;
const PASTE_START = "\x1b[200~";
const PASTE_END = "\x1b[201~";
const UNTRACKED_CONTENT = "This file was created by the Switchyard demo agent.\n";
const NOTIFICATION_TITLE = "Switchyard demo agent";
/** committer identity for `commit` when git has none configured */
const FALLBACK_GIT_NAME = "Demo Agent";
const FALLBACK_GIT_EMAIL = "demo-agent@localhost";
const GIT_TIMEOUT_MS = 60_000;

const HELP_LINES = [
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
  "  noreport                   end the turn without reporting (the default)",
  "  crash <code>               exit at once with <code> (no Stop, no SessionEnd)",
  "  ignore                     ignore the whole prompt (no hooks, no output)",
  "  exit                       end the session (SessionEnd) and exit 0",
  "  help                       show this list",
  "Keys: Enter submits · Ctrl-C twice or Ctrl-D on empty input exits",
];

/** @param {string} name @param {number} fallback */
function envInt(name, fallback) {
  const v = process.env[name];
  if (v === undefined || v.trim() === "") return fallback;
  const n = Number(v);
  return Number.isFinite(n) && n >= 0 ? Math.floor(n) : fallback;
}

/**
 * @param {string[]} argv
 * @returns {{ name: string, prompt: string | null, help: boolean }}
 */
function parseArgs(argv) {
  let name = "demo";
  /** @type {string | null} */
  let prompt = null;
  let help = false;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--name" && i + 1 < argv.length) name = argv[++i];
    else if (a.startsWith("--name=")) name = a.slice("--name=".length);
    else if (a === "--prompt" && i + 1 < argv.length) prompt = argv[++i];
    else if (a.startsWith("--prompt=")) prompt = a.slice("--prompt=".length);
    else if (a === "-h" || a === "--help") help = true;
    // anything else is ignored on purpose (agent profiles may pass extra flags)
  }
  return { name: name || "demo", prompt, help };
}

const ARGS = parseArgs(process.argv.slice(2));
if (ARGS.help) {
  process.stdout.write(
    [
      "usage: demo-agent.mjs [--name NAME] [--prompt TEXT]",
      "",
      BANNER,
      ...HELP_LINES,
      "",
      "env: YARD_BIN, YARD_PANE, DEMO_START_DELAY_MS, DEMO_HOOK_TIMEOUT_MS,",
      "     DEMO_REPORT_TIMEOUT_MS, DEMO_SESSION_ID, DEMO_TRANSCRIPT_DIR, NO_COLOR",
      "",
    ].join("\n"),
  );
  process.exit(0);
}

const CWD = process.cwd();
const START_DELAY_MS = envInt("DEMO_START_DELAY_MS", 0);
const HOOK_TIMEOUT_MS = envInt("DEMO_HOOK_TIMEOUT_MS", 10_000);
const REPORT_TIMEOUT_MS = envInt("DEMO_REPORT_TIMEOUT_MS", 60_000);
const COLOR = !process.env.NO_COLOR;

/** Session id: a UUID-shaped hash of pane, cwd and pid (no randomness), or DEMO_SESSION_ID. */
const SESSION_ID =
  process.env.DEMO_SESSION_ID ||
  (() => {
    const h = crypto
      .createHash("sha1")
      .update(`switchyard-demo|${process.env.YARD_PANE ?? ""}|${CWD}|${process.pid}`)
      .digest("hex");
    const variant = ((parseInt(h[16], 16) & 0x3) | 0x8).toString(16);
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
  })();
const TRANSCRIPT_DIR =
  process.env.DEMO_TRANSCRIPT_DIR || path.join(os.tmpdir(), "switchyard-demo-agent");
const TRANSCRIPT_PATH = path.join(TRANSCRIPT_DIR, `${SESSION_ID}.jsonl`);

// ---------------------------------------------------------------------------------------
// Text helpers: SGR styling, display width, sanitising, quoting
// ---------------------------------------------------------------------------------------

/** @param {string} code @param {string} s */
const sgr = (code, s) => (COLOR ? `\x1b[${code}m${s}\x1b[0m` : s);
/** @param {string} s */ const dim = (s) => sgr("2", s);
/** @param {string} s */ const bold = (s) => sgr("1", s);
/** @param {string} s */ const green = (s) => sgr("32", s);
/** @param {string} s */ const red = (s) => sgr("31", s);
/** @param {string} s */ const yellow = (s) => sgr("33", s);
/** @param {string} s */ const cyan = (s) => sgr("36", s);

/**
 * Terminal cell width of one code point (a small wcwidth: controls and combining marks 0,
 * East Asian wide/fullwidth and emoji 2, everything else 1).
 * @param {number} cp
 */
function cpWidth(cp) {
  if (cp < 0x20 || (cp >= 0x7f && cp < 0xa0)) return 0;
  if (
    (cp >= 0x300 && cp <= 0x36f) ||
    (cp >= 0x200b && cp <= 0x200f) ||
    (cp >= 0x20d0 && cp <= 0x20ff) ||
    (cp >= 0xfe00 && cp <= 0xfe0f)
  )
    return 0;
  if (
    (cp >= 0x1100 && cp <= 0x115f) ||
    (cp >= 0x2e80 && cp <= 0xa4cf && cp !== 0x303f) ||
    (cp >= 0xac00 && cp <= 0xd7a3) ||
    (cp >= 0xf900 && cp <= 0xfaff) ||
    (cp >= 0xfe30 && cp <= 0xfe4f) ||
    (cp >= 0xff00 && cp <= 0xff60) ||
    (cp >= 0xffe0 && cp <= 0xffe6) ||
    (cp >= 0x1f300 && cp <= 0x1f64f) ||
    (cp >= 0x1f900 && cp <= 0x1f9ff) ||
    (cp >= 0x20000 && cp <= 0x3fffd)
  )
    return 2;
  return 1;
}

/** @param {string} s plain text (no escape sequences) */
function strWidth(s) {
  let w = 0;
  for (const ch of s) w += cpWidth(/** @type {number} */ (ch.codePointAt(0)));
  return w;
}

/** Longest prefix of s that fits in max cells. @param {string} s @param {number} max */
function fitStart(s, max) {
  let w = 0;
  let out = "";
  for (const ch of s) {
    const cw = cpWidth(/** @type {number} */ (ch.codePointAt(0)));
    if (w + cw > max) break;
    w += cw;
    out += ch;
  }
  return out;
}

/** Longest suffix of s that fits in max cells. @param {string} s @param {number} max */
function fitEnd(s, max) {
  const chars = Array.from(s);
  let w = 0;
  let i = chars.length;
  while (i > 0) {
    const cw = cpWidth(/** @type {number} */ (chars[i - 1].codePointAt(0)));
    if (w + cw > max) break;
    w += cw;
    i--;
  }
  return chars.slice(i).join("");
}

/** Truncate to max cells with an ellipsis. @param {string} s @param {number} max */
function truncate(s, max) {
  if (max <= 0) return "";
  if (strWidth(s) <= max) return s;
  return fitStart(s, max - 1) + "…";
}

/**
 * Make untrusted text safe to print on one line: tabs become spaces, other control
 * characters (including ESC) become U+FFFD, so nothing the user typed can move the cursor.
 * @param {string} s
 */
function clean(s) {
  // eslint-disable-next-line no-control-regex
  return s.replace(/\t/g, "    ").replace(/[\x00-\x1f\x7f-\x9f]/g, "\ufffd");
}

/** POSIX shell quoting, for display only (commands are always spawned with argv). @param {string} a */
function shq(a) {
  return /^[A-Za-z0-9_./:=@%+-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`;
}

/** @param {number} ms */
const delay = (ms) => new Promise((r) => setTimeout(r, ms));

// ---------------------------------------------------------------------------------------
// Terminal output
// ---------------------------------------------------------------------------------------

let outputBroken = false;
process.stdout.on("error", () => {
  outputBroken = true; // EIO/EPIPE after the PTY went away: keep going silently
});
/** @param {string} s */
function out(s) {
  if (outputBroken || !s) return;
  try {
    process.stdout.write(s);
  } catch {
    outputBroken = true;
  }
}

function cols() {
  return Math.max(2, process.stdout.columns || 80);
}

let terminalRestored = false;
function restoreTerminal() {
  if (terminalRestored) return;
  terminalRestored = true;
  out("\x1b[?2004l\x1b[?25h");
  if (process.stdin.isTTY) {
    try {
      process.stdin.setRawMode(false);
    } catch {
      /* ignore */
    }
  }
}
process.on("exit", restoreTerminal);

// ---------------------------------------------------------------------------------------
// UI state and the bottom region (separator, input line, status line)
//
// Layout, like Claude Code: the transcript is printed inline and scrolls normally; below it
// sit three lines that are erased (cursor up + ESC[J) and redrawn whenever a transcript line
// is printed or the state changes. The hardware cursor is hidden; the input line shows an
// inverse-video cursor cell after the composer text, and the real cursor is parked at
// column 0 of the status line, the last line of the region. Parked there, every line a
// terminal re-wraps on a resize is above the cursor, so the rows to go up are countable
// (xterm.js never re-wraps the cursor's own line and moves the cursor down for lines
// re-wrapped below it; other terminals move it with its line: both agree on this layout).
// ---------------------------------------------------------------------------------------

/** @typedef {"starting" | "idle" | "working" | "asking" | "exiting"} Mode */

const ui = {
  /** @type {Mode} */
  mode: "starting",
  /** what the status line says while working */
  activity: "",
  /** text in the composer (may contain newlines from pastes) */
  composer: "",
  /** whether the bottom region is on screen */
  drawn: false,
  /** geometry of the last drawn region, for redraws after a resize */
  drawnCols: 0,
  drawnSepWidth: 0,
  drawnInputWidth: 0,
  spinnerFrame: 0,
  /** @type {NodeJS.Timeout | null} */
  spinnerTimer: null,
  ctrlCArmed: false,
  /** @type {NodeJS.Timeout | null} */
  ctrlCTimer: null,
  /** @type {string[]} prompts submitted while busy */
  queue: [],
};

/** (a function, so type narrowing does not assume a callee left ui.mode alone) */
const exiting = () => ui.mode === "exiting";

function statusText() {
  const spin = SPINNER[ui.spinnerFrame % SPINNER.length];
  switch (ui.mode) {
    case "starting":
      return cyan(spin) + " starting…";
    case "working":
      return cyan(spin) + " working…" + (ui.activity ? dim(" " + clean(ui.activity)) : "");
    case "asking":
      return yellow("? waiting for permission") + dim(" · press y to allow, n to deny");
    case "exiting":
      return dim("exiting…");
    case "idle":
    default:
      return green("●") + " ready" + dim(` · ${clean(ARGS.name)}`);
  }
}

/** @param {string} styled @param {number} max — truncate a styled string by its plain text */
function fitStyled(styled, max) {
  // eslint-disable-next-line no-control-regex
  const plain = styled.replace(/\x1b\[[0-9;]*m/g, "");
  if (strWidth(plain) <= max) return styled;
  return truncate(plain, max);
}

function statusLine() {
  let s = statusText();
  if (ui.queue.length > 0 && ui.mode !== "idle") s += dim(` · ${ui.queue.length} queued`);
  if (ui.ctrlCArmed) s += yellow(" · press Ctrl-C again to exit");
  else if (ui.mode === "idle") s += dim(" · 'help' lists directives");
  return fitStyled(s, cols() - 1);
}

/** Inverse-video cell standing in for the (hidden) hardware cursor. */
const FAKE_CURSOR = "\x1b[7m \x1b[27m";

/** @returns {[string, number]} the input line and its width in cells */
function inputLine() {
  const max = cols() - 1; // never fill the last column: no pending wrap, no soft wrap
  if (ui.mode === "asking") {
    const p = fitStart("Allow? (y/n) ", max - 1);
    return [yellow(p) + FAKE_CURSOR, strWidth(p) + 1];
  }
  if (max < 4) return [FAKE_CURSOR, 1];
  const shown = clean(ui.composer.replace(/\n/g, "↵"));
  const room = max - 3; // "> " and the cursor cell
  const text = strWidth(shown) <= room ? shown : "…" + fitEnd(shown, room - 1);
  return [bold(">") + " " + text + FAKE_CURSOR, 3 + strWidth(text)];
}

/** From the parked cursor (status line, column 0) up to the region's first row, erase. */
function eraseSeq() {
  if (!ui.drawn) return "";
  ui.drawn = false;
  return "\r\x1b[2A\x1b[J";
}

function regionSeq() {
  const c = cols();
  const sepWidth = c - 1;
  const [input, inputWidth] = inputLine();
  ui.drawn = true;
  ui.drawnCols = c;
  ui.drawnSepWidth = sepWidth;
  ui.drawnInputWidth = inputWidth;
  return dim("─".repeat(sepWidth)) + "\r\n" + input + "\r\n" + statusLine() + "\r";
}

/** Redraw the whole bottom region. */
function redraw() {
  if (ui.mode === "exiting") return;
  out(eraseSeq() + regionSeq());
}

/** Redraw only the status line (spinner ticks). */
function redrawStatus() {
  if (!ui.drawn || ui.mode === "exiting") return;
  out("\r\x1b[2K" + statusLine() + "\r");
}

/**
 * Print transcript lines above the bottom region (erase region, print, redraw region).
 * Lines are already styled; untrusted parts must have gone through clean().
 * @param {string[]} lines
 */
function print(...lines) {
  if (ui.mode === "exiting") {
    out(lines.map((l) => l + "\r\n").join(""));
    return;
  }
  out(eraseSeq() + lines.map((l) => l + "\r\n").join("") + regionSeq());
}

/** @param {Mode} mode @param {string} [activity] */
function setMode(mode, activity = "") {
  ui.mode = mode;
  ui.activity = activity;
  const spinning = mode === "starting" || mode === "working";
  if (spinning && !ui.spinnerTimer) {
    ui.spinnerTimer = setInterval(() => {
      ui.spinnerFrame++;
      redrawStatus();
    }, SPINNER_INTERVAL_MS);
  } else if (!spinning && ui.spinnerTimer) {
    clearInterval(ui.spinnerTimer);
    ui.spinnerTimer = null;
  }
  redraw();
}

/** @param {string} activity */
function setActivity(activity) {
  ui.activity = activity;
  redrawStatus();
}

function onResize() {
  if (!ui.drawn || ui.mode === "exiting") return;
  const c = cols();
  // Narrower: the terminal has re-wrapped the separator and the input line (both above the
  // parked cursor). Wider: lines we drew were never soft-wrapped, so nothing moved.
  const up =
    c < ui.drawnCols
      ? Math.max(1, Math.ceil(ui.drawnSepWidth / c)) + Math.max(1, Math.ceil(ui.drawnInputWidth / c))
      : 2;
  ui.drawn = false;
  out(`\r\x1b[${up}A\x1b[J` + regionSeq());
}

// ---------------------------------------------------------------------------------------
// Transcript file (JSONL, outside the working tree), like Claude Code's transcript_path
// ---------------------------------------------------------------------------------------

/** @param {Record<string, unknown>} entry */
function logTranscript(entry) {
  try {
    fs.mkdirSync(TRANSCRIPT_DIR, { recursive: true });
    fs.appendFileSync(
      TRANSCRIPT_PATH,
      JSON.stringify({ ...entry, session_id: SESSION_ID, cwd: CWD }) + "\n",
    );
  } catch {
    /* best effort */
  }
}

// ---------------------------------------------------------------------------------------
// yard: hooks (serialized, fire-and-forget for the UI) and `yard task report`
// ---------------------------------------------------------------------------------------

/** @param {string} name @returns {string | null} absolute path of an executable */
function which(name) {
  /** @param {string} p */
  const ok = (p) => {
    try {
      fs.accessSync(p, fs.constants.X_OK);
      return fs.statSync(p).isFile();
    } catch {
      return false;
    }
  };
  if (name.includes("/")) {
    const p = path.resolve(CWD, name);
    return ok(p) ? p : null;
  }
  for (const dir of (process.env.PATH || "").split(path.delimiter)) {
    if (!dir) continue;
    const p = path.join(dir, name);
    if (ok(p)) return p;
  }
  return null;
}

const YARD_NAME = process.env.YARD_BIN || "yard";
const YARD_PATH = which(YARD_NAME);

/** @type {string | null} why hooks are off, or null when they are on */
let hooksOff = !process.env.YARD_PANE
  ? "hooks off: YARD_PANE is not set (not running inside Switchyard)"
  : !YARD_PATH
    ? `hooks off: '${YARD_NAME}' not found`
    : null;
let hooksOffNoted = false;
function noteHooksOff() {
  if (hooksOff && !hooksOffNoted) {
    hooksOffNoted = true;
    print(dim(clean(hooksOff)));
  }
}

/** @type {Promise<void>} every hook post waits for the previous one: they arrive in order */
let hookChain = Promise.resolve();
/** set once SessionEnd was queued or the agent crashed: nothing may follow */
let hooksClosed = false;
let toolSeq = 0;

/** @param {string} event @param {Record<string, unknown>} fields */
function hookPayload(event, fields) {
  return {
    session_id: SESSION_ID,
    transcript_path: TRANSCRIPT_PATH,
    cwd: CWD,
    permission_mode: "default",
    hook_event_name: event,
    ...fields,
  };
}

/**
 * Queue `yard hook <event>` with the payload on stdin. Returns the chain's promise: await it
 * where a later step must not overtake the hooks posted so far (Stop, report, exit).
 * @param {string} event @param {Record<string, unknown>} fields
 */
function postHook(event, fields = {}) {
  if (hooksOff || hooksClosed) return hookChain;
  const payload = hookPayload(event, fields);
  hookChain = hookChain.then(() => runHook(event, payload));
  return hookChain;
}

/** @param {string} event @param {Record<string, unknown>} payload @returns {Promise<void>} */
function runHook(event, payload) {
  if (hooksOff || !YARD_PATH) return Promise.resolve();
  const bin = YARD_PATH;
  return new Promise((resolve) => {
    let stderr = "";
    let done = false;
    /** @type {import("node:child_process").ChildProcess} */
    let child;
    try {
      // detached: own session, so closing the pane's PTY (SIGHUP) does not kill the post
      child = spawn(bin, ["hook", event], {
        cwd: CWD,
        env: process.env,
        stdio: ["pipe", "ignore", "pipe"],
        detached: true,
      });
    } catch (e) {
      hooksOff = `hooks off: cannot run '${YARD_NAME}' (${/** @type {Error} */ (e).message})`;
      noteHooksOff();
      resolve();
      return;
    }
    const timer = setTimeout(() => {
      if (ui.mode !== "exiting") print(dim(`  hook ${event}: timed out after ${HOOK_TIMEOUT_MS} ms`));
      try {
        child.kill("SIGKILL");
      } catch {
        /* gone */
      }
    }, HOOK_TIMEOUT_MS);
    /** @param {string | null} note */
    const finish = (note) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      if (note && ui.mode !== "exiting") print(dim(clean(note)));
      resolve();
    };
    child.on("error", (e) => {
      const code = /** @type {NodeJS.ErrnoException} */ (e).code;
      if (code === "ENOENT" || code === "EACCES") {
        hooksOff = `hooks off: cannot run '${YARD_NAME}' (${code})`;
        noteHooksOff();
        finish(null);
      } else finish(`  hook ${event}: ${e.message}`);
    });
    child.stderr?.on("data", (d) => {
      if (stderr.length < 4000) stderr += d.toString("utf8");
    });
    child.stdin?.on("error", () => {
      /* EPIPE: the hook did not read its stdin */
    });
    child.stdin?.end(JSON.stringify(payload));
    child.on("close", (code, signal) => {
      if (code === 0) return finish(null);
      const last = stderr.trim().split("\n").pop() ?? "";
      const why = signal ? `killed by ${signal}` : `exit ${code}`;
      finish(`  hook ${event}: ${why}${last ? ` — ${truncate(last, 200)}` : ""}`);
    });
  });
}

/** @typedef {{ code: number, stdout: string, stderr: string, error?: string }} RunResult */

/**
 * Run `yard task report --status <status> --summary <summary>` (argv, no shell).
 * @param {string} status @param {string} summary
 * @returns {Promise<RunResult>}
 */
function runReport(status, summary) {
  const argv = ["task", "report", "--status", status, "--summary", summary];
  return runChild(YARD_PATH || YARD_NAME, YARD_NAME, argv, REPORT_TIMEOUT_MS);
}

/**
 * Run `git <argv>` in the agent's cwd (argv, no shell, stdin /dev/null, never prompts).
 * @param {string[]} argv
 * @returns {Promise<RunResult>}
 */
function runGit(argv) {
  return runChild("git", "git", argv, GIT_TIMEOUT_MS, { ...process.env, GIT_TERMINAL_PROMPT: "0" });
}

/**
 * Spawn a child with argv (no shell) in the agent's cwd, collect its output, kill it after
 * timeoutMs. A child that can't be started gives code 127 (ENOENT) or 126.
 * @param {string} bin @param {string} name for error messages @param {string[]} argv
 * @param {number} timeoutMs @param {NodeJS.ProcessEnv} [env]
 * @returns {Promise<RunResult>}
 */
function runChild(bin, name, argv, timeoutMs, env = process.env) {
  return new Promise((resolve) => {
    let stdout = "";
    let stderr = "";
    let settled = false;
    /** @param {RunResult} r */
    const settle = (r) => {
      if (!settled) {
        settled = true;
        clearTimeout(timer);
        resolve(r);
      }
    };
    /** @type {import("node:child_process").ChildProcess} */
    let child;
    try {
      child = spawn(bin, argv, {
        cwd: CWD,
        env,
        stdio: ["ignore", "pipe", "pipe"],
      });
    } catch (e) {
      resolve({ code: 127, stdout, stderr, error: /** @type {Error} */ (e).message });
      return;
    }
    const timer = setTimeout(() => {
      try {
        child.kill("SIGKILL");
      } catch {
        /* gone */
      }
    }, timeoutMs);
    child.stdout?.on("data", (d) => {
      if (stdout.length < 20000) stdout += d.toString("utf8");
    });
    child.stderr?.on("data", (d) => {
      if (stderr.length < 20000) stderr += d.toString("utf8");
    });
    child.on("error", (e) => {
      const code = /** @type {NodeJS.ErrnoException} */ (e).code;
      settle({ code: code === "ENOENT" ? 127 : 126, stdout, stderr, error: `${name}: ${code ?? e.message}` });
    });
    child.on("close", (code, signal) =>
      settle({
        code: code ?? 128,
        stdout,
        stderr,
        error: signal ? `killed by ${signal}` : undefined,
      }),
    );
  });
}

// ---------------------------------------------------------------------------------------
// Directives
// ---------------------------------------------------------------------------------------

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
 *   | { kind: "noreport" | "ignore" | "exit" | "help" }} Step
 */

const DIRECTIVES = new Set([
  "write", "append", "untracked", "ask", "sleep", "print", "lines",
  "report", "commit", "noreport", "crash", "ignore", "exit", "help",
]);

/**
 * Split a prompt into steps: segments are separated by newlines or ';'; a segment whose
 * first word is exactly a directive name (lower case) is that directive, anything else is
 * free text.
 * @param {string} prompt
 * @returns {Step[]}
 */
function parsePrompt(prompt) {
  /** @type {Step[]} */
  const steps = [];
  for (const raw of prompt.split(/\r\n|[\r\n;]/)) {
    const seg = raw.trim();
    if (!seg) continue;
    const m = /^(\S+)(?:\s+([\s\S]*))?$/.exec(seg);
    const word = m ? m[1] : seg;
    const rest = m && m[2] ? m[2].trim() : "";
    if (!DIRECTIVES.has(word)) {
      steps.push({ kind: "text", text: seg });
      continue;
    }
    const pm = /^(\S+)(?:\s+([\s\S]*))?$/.exec(rest);
    const first = pm ? pm[1] : "";
    const tail = pm && pm[2] ? pm[2] : "";
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
      case "crash":
        if (!isInt || Number(rest) > 255)
          steps.push({ kind: "invalid", error: "crash needs <code> (0-255)" });
        else steps.push({ kind: "crash", code: Number(rest) });
        break;
      default: // noreport, ignore, exit, help: no arguments
        if (rest) steps.push({ kind: "invalid", error: `${word} takes no arguments` });
        else steps.push({ kind: /** @type {"noreport" | "ignore" | "exit" | "help"} */ (word) });
    }
  }
  return steps;
}

/**
 * Run one tool call with PreToolUse / PostToolUse (or PostToolUseFailure) hooks around it.
 * @param {string} toolName
 * @param {Record<string, unknown>} toolInput
 * @param {string} label transcript label, e.g. "Write(notes.txt)"
 * @param {(toolUseId: string) => Promise<{ ok: true, response: unknown, line: string } | { ok: false, error: string, line: string }>} fn
 */
async function tool(toolName, toolInput, label, fn) {
  toolSeq++;
  const toolUseId = `toolu_demo_${String(toolSeq).padStart(4, "0")}`;
  print(green("●") + " " + bold(clean(label)));
  setActivity(label);
  postHook("PreToolUse", { tool_name: toolName, tool_input: toolInput, tool_use_id: toolUseId });
  const t0 = Date.now();
  const r = await fn(toolUseId);
  if (exiting()) return false; // the user quit meanwhile: SessionEnd is already on its way
  print(dim("  ⎿  ") + (r.ok ? clean(r.line) : red(clean(r.line))));
  if (r.ok) {
    postHook("PostToolUse", {
      tool_name: toolName,
      tool_input: toolInput,
      tool_response: r.response,
      tool_use_id: toolUseId,
      duration_ms: Date.now() - t0,
    });
  } else {
    postHook("PostToolUseFailure", {
      tool_name: toolName,
      tool_input: toolInput,
      tool_use_id: toolUseId,
      error: r.error,
    });
  }
  return r.ok;
}

/** @param {unknown} e */
const errMsg = (e) => {
  const err = /** @type {NodeJS.ErrnoException} */ (e);
  return err && err.code ? `${err.code}: ${err.message.replace(/^\w+: /, "")}` : String(e);
};

/** @type {((allowed: boolean) => void) | null} */
let pendingAsk = null;

/**
 * `git add -A`, then `git commit -m <message>` on the current branch of the cwd's work tree.
 * Where git has no user.name / user.email, the demo identity is passed with `-c`.
 * @param {string} message
 * @returns {Promise<{ ok: true, sha: string, stdout: string, stderr: string, detail: string[] }
 *   | { ok: false, error: string, line: string, detail: string[] }>}
 */
async function commitAll(message) {
  /** Output lines of a failed git run: the last one is the result line, up to 4 before it are detail. @param {RunResult} r */
  const failure = (r) => {
    const ls = (r.stdout + "\n" + r.stderr)
      .split("\n")
      .map((l) => l.trimEnd())
      .filter(Boolean);
    const exit = r.error ?? `exit code ${r.code}`;
    const last = ls.pop();
    return last
      ? { ok: /** @type {const} */ (false), error: `${last} (${exit})`, line: last, detail: ls.slice(-4) }
      : { ok: /** @type {const} */ (false), error: exit, line: `git failed: ${exit}`, detail: [] };
  };
  const add = await runGit(["add", "-A"]);
  if (add.code !== 0) return failure(add);
  /** @type {string[]} */
  const identity = [];
  if ((await runGit(["config", "user.name"])).stdout.trim() === "") identity.push("-c", `user.name=${FALLBACK_GIT_NAME}`);
  if ((await runGit(["config", "user.email"])).stdout.trim() === "") identity.push("-c", `user.email=${FALLBACK_GIT_EMAIL}`);
  const commit = await runGit([...identity, "commit", "-m", message]);
  if (commit.code !== 0) return failure(commit);
  const head = await runGit(["rev-parse", "--short", "HEAD"]);
  const sha = head.code === 0 && head.stdout.trim() ? head.stdout.trim() : "HEAD";
  return { ok: true, sha, stdout: commit.stdout, stderr: commit.stderr, detail: [] };
}

/**
 * Run one submitted prompt as a turn.
 * @param {string} prompt
 */
async function runTurn(prompt) {
  const steps = parsePrompt(prompt);
  if (steps.some((s) => s.kind === "ignore")) return; // nothing at all: a stalled agent

  const promptLines = prompt.split("\n");
  print("", ...promptLines.map((l, i) => (i === 0 ? bold(">") + " " : "  ") + dim(clean(l))));
  setMode("working", "thinking");
  postHook("UserPromptSubmit", { prompt });
  logTranscript({ type: "user", message: { role: "user", content: prompt } });

  /** @type {string[]} */
  const done = [];
  /** @type {string | null} */
  let lastEcho = null;

  for (const step of steps) {
    if (ui.mode === "exiting") return; // Ctrl-C twice / Ctrl-D mid-turn
    switch (step.kind) {
      case "text": {
        lastEcho = `Got it: ${step.text}`;
        print(green("●") + " " + clean(lastEcho));
        break;
      }
      case "invalid": {
        print(yellow("⚠ " + clean(step.error)));
        done.push(`Skipped an invalid directive (${step.error}).`);
        break;
      }
      case "write":
      case "untracked": {
        const abs = path.resolve(CWD, step.path);
        const content = step.kind === "write" ? step.text + "\n" : UNTRACKED_CONTENT;
        const ok = await tool("Write", { file_path: abs, content }, `Write(${step.path})`, async () => {
          try {
            const existed = fs.existsSync(abs);
            fs.mkdirSync(path.dirname(abs), { recursive: true });
            fs.writeFileSync(abs, content);
            return {
              ok: true,
              response: { type: existed ? "update" : "create", filePath: abs, content, success: true },
              line:
                step.kind === "write"
                  ? `Wrote 1 line to ${step.path}`
                  : `Created ${step.path} (untracked file)`,
            };
          } catch (e) {
            return { ok: false, error: errMsg(e), line: `Error: ${errMsg(e)}` };
          }
        });
        done.push(
          ok
            ? step.kind === "write"
              ? `Wrote ${step.path}.`
              : `Created untracked file ${step.path}.`
            : `Failed to write ${step.path}.`,
        );
        break;
      }
      case "append": {
        const abs = path.resolve(CWD, step.path);
        const line = step.text + "\n";
        const ok = await tool(
          "Edit",
          { file_path: abs, old_string: "", new_string: line },
          `Edit(${step.path})`,
          async () => {
            try {
              let prefix = "";
              if (fs.existsSync(abs)) {
                const cur = fs.readFileSync(abs, "utf8");
                if (cur.length > 0 && !cur.endsWith("\n")) prefix = "\n";
              } else fs.mkdirSync(path.dirname(abs), { recursive: true });
              fs.appendFileSync(abs, prefix + line);
              return {
                ok: true,
                response: { filePath: abs, oldString: "", newString: line, success: true },
                line: `Appended 1 line to ${step.path}`,
              };
            } catch (e) {
              return { ok: false, error: errMsg(e), line: `Error: ${errMsg(e)}` };
            }
          },
        );
        done.push(ok ? `Appended a line to ${step.path}.` : `Failed to append to ${step.path}.`);
        break;
      }
      case "ask": {
        const q = step.question;
        const input = { command: q, description: q };
        const ok = await tool("Bash", input, `Bash(${q})`, async () => {
          print(yellow("  ?  ") + clean(q) + yellow("  Allow? (y/n)"));
          postHook("PermissionRequest", {
            tool_name: "Bash",
            tool_input: input,
            permission_suggestions: [
              {
                type: "addRules",
                rules: [{ toolName: "Bash", ruleContent: q }],
                behavior: "allow",
                destination: "localSettings",
              },
            ],
          });
          postHook("Notification", {
            message: `${ARGS.name} needs your permission to use Bash`,
            title: NOTIFICATION_TITLE,
            notification_type: "permission_prompt",
          });
          setMode("asking");
          const allowed = await new Promise((resolve) => {
            pendingAsk = resolve;
          });
          pendingAsk = null;
          setMode("working", `Bash(${q})`);
          return allowed
            ? { ok: true, response: { stdout: "", stderr: "", interrupted: false, approved: true }, line: "Allowed" }
            : { ok: false, error: "The user denied this action", line: "Denied by user" };
        });
        done.push(ok ? `Asked "${q}": allowed.` : `Asked "${q}": denied, skipped it.`);
        break;
      }
      case "sleep": {
        print(green("●") + ` Working for ${step.ms} ms`);
        setActivity(`sleep ${step.ms} ms`);
        await delay(step.ms);
        done.push(`Worked for ${step.ms} ms.`);
        break;
      }
      case "print": {
        print(clean(step.text));
        done.push("Printed 1 line.");
        break;
      }
      case "lines": {
        const ls = [];
        for (let i = 1; i <= step.n; i++) ls.push(`line ${i}`);
        if (ls.length) print(...ls);
        done.push(`Printed ${step.n} lines.`);
        break;
      }
      case "help": {
        print(...HELP_LINES.map((l) => clean(l)));
        done.push("Listed the directives.");
        break;
      }
      case "report": {
        const argv = ["task", "report", "--status", step.status, "--summary", step.summary];
        const command = ["yard", ...argv].map(shq).join(" ");
        const input = { command, description: "Report the task result to Switchyard" };
        /** @type {number} */
        let exitCode = 0;
        await tool("Bash", input, `Bash(${command})`, async () => {
          await hookChain; // everything posted so far reaches the server before the report
          const r = await runReport(step.status, step.summary);
          exitCode = r.code;
          const outLines = (r.stdout + r.stderr)
            .split("\n")
            .map((l) => l.trimEnd())
            .filter(Boolean)
            .slice(-5);
          for (const l of outLines) print(dim("     " + clean(l)));
          const line = `exit ${r.code}` + (r.error ? ` (${r.error})` : "");
          return r.code === 0
            ? { ok: true, response: { stdout: r.stdout, stderr: r.stderr, interrupted: false, exit_code: 0 }, line }
            : { ok: false, error: r.error ?? `exit code ${r.code}`, line };
        });
        done.push(`Ran yard task report --status ${step.status} (exit ${exitCode}).`);
        break;
      }
      case "commit": {
        const message = step.message;
        const input = {
          command: `git add -A && git commit -m ${shq(message)}`,
          description: "Commit all changes in the working tree",
        };
        /** @type {string} */
        let summary = "";
        await tool("Bash", input, "Bash(git commit)", async () => {
          const r = await commitAll(message);
          summary = r.ok ? `Committed ${r.sha}: ${message}.` : `Did not commit (${r.line}).`;
          for (const l of r.detail) print(dim("     " + clean(l)));
          return r.ok
            ? { ok: true, response: { stdout: r.stdout, stderr: r.stderr, interrupted: false, exit_code: 0 }, line: `Committed ${r.sha}: ${message}` }
            : { ok: false, error: r.error, line: r.line };
        });
        if (summary) done.push(summary);
        break;
      }
      case "noreport":
        break;
      case "crash":
        await crash(step.code);
        return;
      case "exit":
        await shutdown(0, "prompt_input_exit");
        return;
      case "ignore": // handled above
        break;
    }
  }

  if (ui.mode === "exiting") return;
  const message = done.length > 0 ? done.join(" ") : lastEcho ?? "Nothing to do.";
  if (done.length > 0 || !lastEcho) print(green("●") + " " + clean(message));
  logTranscript({ type: "assistant", message: { role: "assistant", content: [{ type: "text", text: message }] } });
  setActivity("finishing");
  // the Stop hook goes after every earlier hook of the turn; "ready" shows once it is posted
  await postHook("Stop", { stop_hook_active: false, last_assistant_message: message });
}

// ---------------------------------------------------------------------------------------
// Turn queue, exit paths
// ---------------------------------------------------------------------------------------

let pumping = false;
let ready = false;

async function pump() {
  if (pumping || !ready) return;
  pumping = true;
  try {
    while (ui.queue.length > 0 && ui.mode !== "exiting") {
      const prompt = /** @type {string} */ (ui.queue.shift());
      await runTurn(prompt);
    }
  } finally {
    pumping = false;
  }
  if (ui.mode !== "exiting") setMode("idle");
}

/**
 * Clean exit: SessionEnd (after every earlier hook), terminal restored, exit code.
 * @param {number} code @param {string} reason
 */
async function shutdown(code, reason) {
  if (ui.mode === "exiting") return;
  out(eraseSeq());
  setMode("exiting");
  print(dim("Goodbye."));
  restoreTerminal();
  const last = postHook("SessionEnd", { reason });
  hooksClosed = true;
  await last;
  process.exit(code);
}

/**
 * Crash: no Stop, no SessionEnd. Hooks already posted are let through first, so what the
 * server sees does not depend on timing.
 * @param {number} code
 */
async function crash(code) {
  if (ui.mode === "exiting") return;
  out(eraseSeq());
  setMode("exiting");
  print(red(`✗ crashing with exit code ${code}`));
  restoreTerminal();
  hooksClosed = true;
  await hookChain;
  process.exit(code);
}

// ---------------------------------------------------------------------------------------
// Input: raw bytes -> keys (bracketed paste, escape sequences, bursts)
// ---------------------------------------------------------------------------------------

/**
 * @typedef {{ t: "char", ch: string }
 *   | { t: "enter" } | { t: "newline" } | { t: "backspace" }
 *   | { t: "ctrl-c" } | { t: "ctrl-d" }
 *   | { t: "paste", text: string }} Key
 */

const input = {
  decoder: new StringDecoder("utf8"),
  pending: "",
  inPaste: false,
  pasteBuf: "",
  /** @type {NodeJS.Timeout | null} */
  flushTimer: null,
};

/**
 * Turn decoded text into keys. Incomplete escape sequences and a partial paste terminator
 * stay in input.pending for the next chunk.
 * @param {string} text
 * @returns {Key[]}
 */
function tokenize(text) {
  /** @type {Key[]} */
  const keys = [];
  let i = 0;
  const n = text.length;
  while (i < n) {
    if (input.inPaste) {
      const end = text.indexOf(PASTE_END, i);
      if (end >= 0) {
        input.pasteBuf += text.slice(i, end);
        keys.push({ t: "paste", text: input.pasteBuf });
        input.pasteBuf = "";
        input.inPaste = false;
        i = end + PASTE_END.length;
        continue;
      }
      // keep a possible partial terminator for the next chunk
      let keep = 0;
      for (let k = Math.min(PASTE_END.length - 1, n - i); k > 0; k--) {
        if (PASTE_END.startsWith(text.slice(n - k))) {
          keep = k;
          break;
        }
      }
      input.pasteBuf += text.slice(i, n - keep);
      input.pending = text.slice(n - keep);
      return keys;
    }
    const c = text[i];
    if (c === "\x1b") {
      if (i + 1 >= n) {
        input.pending = text.slice(i);
        return keys;
      }
      const next = text[i + 1];
      if (next === "[") {
        let j = i + 2;
        while (j < n && text.charCodeAt(j) >= 0x20 && text.charCodeAt(j) <= 0x3f) j++;
        if (j >= n) {
          input.pending = text.slice(i);
          return keys;
        }
        const seq = text.slice(i, j + 1);
        i = j + 1;
        if (seq === PASTE_START) {
          input.inPaste = true;
          input.pasteBuf = "";
        }
        // other CSI sequences (arrows, function keys, focus events) are ignored
        continue;
      }
      if (next === "O") {
        if (i + 2 >= n) {
          input.pending = text.slice(i);
          return keys;
        }
        i += 3; // SS3 key (F1-F4, arrows in application mode): ignored
        continue;
      }
      i += 2; // Alt+key: ignored
      continue;
    }
    if (c === "\r") {
      keys.push({ t: "enter" });
      i += text[i + 1] === "\n" ? 2 : 1;
      continue;
    }
    if (c === "\n") keys.push({ t: "newline" });
    else if (c === "\x7f" || c === "\b") keys.push({ t: "backspace" });
    else if (c === "\x03") keys.push({ t: "ctrl-c" });
    else if (c === "\x04") keys.push({ t: "ctrl-d" });
    else if (c === "\t") keys.push({ t: "char", ch: " " });
    else if (c.charCodeAt(0) >= 0x20) {
      // keep surrogate pairs together
      const cp = /** @type {number} */ (text.codePointAt(i));
      const ch = String.fromCodePoint(cp);
      keys.push({ t: "char", ch });
      i += ch.length;
      continue;
    }
    i++;
  }
  return keys;
}

/** @param {string} s */
function normalizePaste(s) {
  // eslint-disable-next-line no-control-regex
  return s.replace(/\r\n?/g, "\n").replace(/[\x00-\x08\x0b-\x1f\x7f]/g, "");
}

function submit() {
  const prompt = ui.composer;
  if (prompt.trim() === "") return;
  ui.composer = "";
  ui.queue.push(prompt);
  void pump();
}

/** @param {Key} key @param {boolean} burst several keys arrived in one read: a paste */
function handleKey(key, burst) {
  if (key.t === "ctrl-c") {
    if (ui.ctrlCArmed) {
      void shutdown(0, "prompt_input_exit");
      return;
    }
    ui.composer = "";
    ui.ctrlCArmed = true;
    if (ui.ctrlCTimer) clearTimeout(ui.ctrlCTimer);
    ui.ctrlCTimer = setTimeout(() => {
      ui.ctrlCArmed = false;
      redraw();
    }, CTRL_C_WINDOW_MS);
    return;
  }
  if (ui.ctrlCArmed) {
    ui.ctrlCArmed = false;
    if (ui.ctrlCTimer) clearTimeout(ui.ctrlCTimer);
  }
  if (key.t === "ctrl-d") {
    if (ui.composer === "") void shutdown(0, "prompt_input_exit");
    return;
  }
  if (ui.mode === "asking") {
    if (key.t === "char" && /^[yYnN]$/.test(key.ch) && pendingAsk) {
      pendingAsk(key.ch.toLowerCase() === "y");
      pendingAsk = null;
    } else if (key.t === "paste") {
      ui.composer += normalizePaste(key.text);
    }
    return; // everything else is dropped while the permission question is open
  }
  switch (key.t) {
    case "char":
      ui.composer += key.ch;
      break;
    case "paste":
      ui.composer += normalizePaste(key.text);
      break;
    case "newline":
      ui.composer += "\n";
      break;
    case "backspace": {
      const chars = Array.from(ui.composer);
      chars.pop();
      ui.composer = chars.join("");
      break;
    }
    case "enter":
      // Enter submits only when it arrives on its own; inside a burst it is a newline
      if (burst) ui.composer += "\n";
      else submit();
      break;
  }
}

/** @param {Buffer | string} chunk */
function onData(chunk) {
  if (exiting()) return;
  if (input.flushTimer) {
    clearTimeout(input.flushTimer);
    input.flushTimer = null;
  }
  const text = input.pending + (typeof chunk === "string" ? chunk : input.decoder.write(chunk));
  input.pending = "";
  const keys = tokenize(text);
  const burst = keys.length > 1;
  for (const k of keys) {
    if (exiting()) return;
    handleKey(k, burst);
  }
  if (input.pending && !input.inPaste) {
    // a lone ESC (or a cut-off sequence) that never completes: drop it
    input.flushTimer = setTimeout(() => {
      input.pending = "";
      input.flushTimer = null;
    }, ESC_FLUSH_MS);
  }
  if (keys.length > 0 && !exiting()) redraw();
}

// ---------------------------------------------------------------------------------------
// Main
// ---------------------------------------------------------------------------------------

async function main() {
  if (process.stdin.isTTY) process.stdin.setRawMode(true);
  process.stdin.on("data", onData);
  process.stdin.on("error", () => {
    /* EIO when the PTY closes */
  });
  process.stdin.on("end", () => void shutdown(0, "other"));
  process.stdin.resume();
  process.stdout.on("resize", onResize);
  process.on("SIGWINCH", () => {
    /* node updates stdout.columns and emits 'resize'; keep the default from killing us */
  });
  for (const [sig, code] of /** @type {const} */ ([["SIGTERM", 143], ["SIGHUP", 129], ["SIGINT", 130]])) {
    process.on(sig, () => void shutdown(code, "other"));
  }

  out("\x1b[?2004h\x1b[?25l"); // bracketed paste on, hardware cursor hidden (see the UI notes)
  print(
    bold("✻ " + BANNER),
    dim(`  name: ${clean(ARGS.name)} · cwd: ${clean(CWD)}`),
    "",
  );
  noteHooksOff();
  logTranscript({ type: "session", event: "start", name: ARGS.name });

  setMode("starting");
  if (START_DELAY_MS > 0) await delay(START_DELAY_MS);
  await postHook("SessionStart", { source: "startup", model: "demo" });
  if (ui.mode === "exiting") return;
  ready = true;
  if (ARGS.prompt && ARGS.prompt.trim()) ui.queue.unshift(ARGS.prompt);
  setMode("idle");
  void pump();
}

/** A bug: restore the terminal, say what happened, exit 70 (EX_SOFTWARE). @param {unknown} e */
function die(e) {
  restoreTerminal();
  const err = /** @type {Error} */ (e);
  process.stderr.write(`\r\ndemo agent: internal error: ${err && err.stack ? err.stack : String(e)}\r\n`);
  process.exit(70);
}
process.on("uncaughtException", die);
process.on("unhandledRejection", die);
main().catch(die);
