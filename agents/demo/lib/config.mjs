// @ts-check
/**
 * Demo agent: settings for the whole process. Fixed texts and limits, the command line
 * (--name, --prompt, --help), the DEMO_* environment, the working directory, and the session's
 * identity (session_id and the transcript path every hook payload carries).
 * Pure: reading this module writes nothing and starts nothing.
 */
import crypto from "node:crypto";
import os from "node:os";
import path from "node:path";

export const BANNER = "Switchyard demo agent — type a prompt, or 'help'";
export const SPINNER = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];
/** A frame every 200 ms: alive to a watcher, and half the redraws (each one travels PTY -> mirror -> every open terminal) of a 100 ms spinner. */
export const SPINNER_INTERVAL_MS = 200;
export const CTRL_C_WINDOW_MS = 2000;
export const ESC_FLUSH_MS = 50;
export const PASTE_START = "\x1b[200~";
export const PASTE_END = "\x1b[201~";
export const UNTRACKED_CONTENT = "This file was created by the Switchyard demo agent.\n";
export const NOTIFICATION_TITLE = "Switchyard demo agent";
/** committer identity for `commit` when git has none configured */
export const FALLBACK_GIT_NAME = "Demo Agent";
export const FALLBACK_GIT_EMAIL = "demo-agent@localhost";
export const GIT_TIMEOUT_MS = 60_000;

/** @param {string} name @param {number} fallback */
function envInt(name, fallback) {
  const v = process.env[name];
  if (v === undefined || v.trim() === "") return fallback;
  const n = Number(v);
  return Number.isFinite(n) && n >= 0 ? Math.floor(n) : fallback;
}

/**
 * @param {string[]} argv
 * @returns {{ name: string, prompt: string | null, script: string | null, help: boolean }}
 */
function parseArgs(argv) {
  let name = "demo";
  /** @type {string | null} */
  let script = null;
  /** @type {string | null} */
  let prompt = null;
  let help = false;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--name" && i + 1 < argv.length) name = argv[++i];
    else if (a.startsWith("--name=")) name = a.slice("--name=".length);
    else if (a === "--prompt" && i + 1 < argv.length) prompt = argv[++i];
    else if (a.startsWith("--prompt=")) prompt = a.slice("--prompt=".length);
    else if (a === "--script" && i + 1 < argv.length) script = argv[++i];
    else if (a.startsWith("--script=")) script = a.slice("--script=".length);
    else if (a === "-h" || a === "--help") help = true;
    // anything else is ignored on purpose (agent profiles may pass extra flags)
  }
  return { name: name || "demo", prompt, script, help };
}

export const ARGS = parseArgs(process.argv.slice(2));

export const CWD = process.cwd();
export const START_DELAY_MS = envInt("DEMO_START_DELAY_MS", 0);
export const HOOK_TIMEOUT_MS = envInt("DEMO_HOOK_TIMEOUT_MS", 10_000);
export const REPORT_TIMEOUT_MS = envInt("DEMO_REPORT_TIMEOUT_MS", 60_000);
export const COLOR = !process.env.NO_COLOR;

/** Session id: a UUID-shaped hash of pane, cwd and pid (no randomness), or DEMO_SESSION_ID. */
export const SESSION_ID =
  process.env.DEMO_SESSION_ID ||
  (() => {
    const h = crypto
      .createHash("sha1")
      .update(`switchyard-demo|${process.env.YARD_PANE ?? ""}|${CWD}|${process.pid}`)
      .digest("hex");
    const variant = ((parseInt(h[16], 16) & 0x3) | 0x8).toString(16);
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
  })();
export const TRANSCRIPT_DIR = process.env.DEMO_TRANSCRIPT_DIR || path.join(os.tmpdir(), "switchyard-demo-agent");
export const TRANSCRIPT_PATH = path.join(TRANSCRIPT_DIR, `${SESSION_ID}.jsonl`);
