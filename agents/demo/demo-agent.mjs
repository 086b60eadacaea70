#!/usr/bin/env node
// @ts-check
/**
 * Switchyard demo agent: a deterministic terminal program that behaves like a TUI coding
 * agent (drawn like Claude Code: inline transcript + a 3-line bottom region), posts the same
 * hook payloads Claude Code does through `yard hook <Event>`, and does what directives in its
 * prompts tell it to. Plain ESM JavaScript, Node built-ins only, no build step.
 * See README.md beside this file for the directive list and the exact behaviour.
 *
 * This file is the entry point and the main loop: --help, start-up (banner, SessionStart,
 * ready), wiring stdin, resizes and signals, the queue that runs submitted prompts one turn
 * at a time, and the last-resort error exit. The parts live in lib/ (one concern each).
 */
import { ARGS, BANNER, CWD, START_DELAY_MS } from "./lib/config.mjs";
import { HELP_LINES } from "./lib/directives.mjs";
import { shutdown } from "./lib/exit.mjs";
import { createInputHandler } from "./lib/input.mjs";
import { initOutput, onResize, out, print, restoreTerminal, setMode, ui } from "./lib/screen.mjs";
import { bold, clean, dim } from "./lib/text.mjs";
import { logTranscript } from "./lib/transcript.mjs";
import { runTurn } from "./lib/turn.mjs";
import { noteHooksOff, postHook } from "./lib/yard.mjs";

if (ARGS.help) {
  process.stdout.write(
    [
      "usage: demo-agent.mjs [--name NAME] [--prompt TEXT]",
      "",
      BANNER,
      ...HELP_LINES,
      "",
      "env: YARD_BIN, YARD_PANE, DEMO_HOOKS, DEMO_START_DELAY_MS, DEMO_HOOK_TIMEOUT_MS,",
      "     DEMO_REPORT_TIMEOUT_MS, DEMO_SESSION_ID, DEMO_TRANSCRIPT_DIR, NO_COLOR",
      "",
    ].join("\n"),
  );
  process.exit(0);
}

initOutput();

/** @param {number} ms */
const delay = (ms) => new Promise((r) => setTimeout(r, ms));

// ---------------------------------------------------------------------------------------
// Turn queue: prompts submitted while busy (or starting) wait here and run in order
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

/** @param {string} prompt */
function enqueue(prompt) {
  ui.queue.push(prompt);
  void pump();
}

// ---------------------------------------------------------------------------------------
// Main
// ---------------------------------------------------------------------------------------

async function main() {
  if (process.stdin.isTTY) process.stdin.setRawMode(true);
  process.stdin.on("data", createInputHandler(enqueue));
  process.stdin.on("error", () => {
    /* EIO when the PTY closes */
  });
  process.stdin.on("end", () => void shutdown(0, "other"));
  process.stdin.resume();
  process.stdout.on("resize", onResize);
  process.on("SIGWINCH", () => {
    /* node updates stdout.columns and emits 'resize'; keep the default from killing us */
  });
  for (const [sig, code] of /** @type {const} */ ([
    ["SIGTERM", 143],
    ["SIGHUP", 129],
    ["SIGINT", 130],
  ])) {
    process.on(sig, () => void shutdown(code, "other"));
  }

  out("\x1b[?2004h\x1b[?25l"); // bracketed paste on, hardware cursor hidden (see lib/screen.mjs)
  print(bold(`✻ ${BANNER}`), dim(`  name: ${clean(ARGS.name)} · cwd: ${clean(CWD)}`), "");
  noteHooksOff();
  logTranscript({ type: "session", event: "start", name: ARGS.name });

  setMode("starting");
  if (START_DELAY_MS > 0) await delay(START_DELAY_MS);
  await postHook("SessionStart", { source: "startup", model: "demo" });
  if (ui.mode === "exiting") return;
  ready = true;
  if (ARGS.prompt?.trim()) ui.queue.unshift(ARGS.prompt);
  setMode("idle");
  void pump();
}

/** A bug: restore the terminal, say what happened, exit 70 (EX_SOFTWARE). @param {unknown} e */
function die(e) {
  restoreTerminal();
  const err = /** @type {Error} */ (e);
  process.stderr.write(`\r\ndemo agent: internal error: ${err?.stack ? err.stack : String(e)}\r\n`);
  process.exit(70);
}
process.on("uncaughtException", die);
process.on("unhandledRejection", die);
main().catch(die);
