// @ts-check
/**
 * Demo agent: the screen. Everything written to the terminal goes through here: the UI state
 * (mode, activity, composer, queue length, Ctrl-C hint), the bottom region (separator, input
 * line, status line) and its redraws, the spinner, transcript lines printed above the region,
 * resizes, and restoring the terminal on the way out.
 *
 * Layout, like Claude Code: the transcript is printed inline and scrolls normally; below it
 * sit three lines that are erased (cursor up + ESC[J) and redrawn whenever a transcript line
 * is printed or the state changes. The hardware cursor is hidden; the input line shows an
 * inverse-video cursor cell after the composer text, and the real cursor is parked at
 * column 0 of the status line, the last line of the region. Parked there, every line a
 * terminal re-wraps on a resize is above the cursor, so the rows to go up are countable
 * (xterm.js never re-wraps the cursor's own line and moves the cursor down for lines
 * re-wrapped below it; other terminals move it with its line: both agree on this layout).
 */
import { ARGS, SPINNER, SPINNER_INTERVAL_MS } from "./config.mjs";
import { bold, clean, cyan, dim, fitEnd, fitStart, green, strWidth, truncate, yellow } from "./text.mjs";

// ---------------------------------------------------------------------------------------
// Terminal output
// ---------------------------------------------------------------------------------------

let outputBroken = false;
/** @param {string} s */
export function out(s) {
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
export function restoreTerminal() {
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

/** Take over stdout: survive a vanished PTY, and restore the terminal on any exit. */
export function initOutput() {
  process.stdout.on("error", () => {
    outputBroken = true; // EIO/EPIPE after the PTY went away: keep going silently
  });
  process.on("exit", restoreTerminal);
}

// ---------------------------------------------------------------------------------------
// UI state and the bottom region (separator, input line, status line)
// ---------------------------------------------------------------------------------------

/** @typedef {"starting" | "idle" | "working" | "asking" | "exiting"} Mode */

export const ui = {
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
export const exiting = () => ui.mode === "exiting";

function statusText() {
  const spin = SPINNER[ui.spinnerFrame % SPINNER.length];
  switch (ui.mode) {
    case "starting":
      return `${cyan(spin)} starting…`;
    case "working":
      return `${cyan(spin)} working…${ui.activity ? dim(` ${clean(ui.activity)}`) : ""}`;
    case "asking":
      return yellow("? waiting for permission") + dim(" · press y to allow, n to deny");
    case "exiting":
      return dim("exiting…");
    default:
      return `${green("●")} ready${dim(` · ${clean(ARGS.name)}`)}`;
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
  const text = strWidth(shown) <= room ? shown : `…${fitEnd(shown, room - 1)}`;
  return [`${bold(">")} ${text}${FAKE_CURSOR}`, 3 + strWidth(text)];
}

/** From the parked cursor (status line, column 0) up to the region's first row, erase. */
export function eraseSeq() {
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
  return `${dim("─".repeat(sepWidth))}\r\n${input}\r\n${statusLine()}\r`;
}

/** Redraw the whole bottom region. */
export function redraw() {
  if (ui.mode === "exiting") return;
  out(eraseSeq() + regionSeq());
}

/** Redraw only the status line (spinner ticks). */
function redrawStatus() {
  if (!ui.drawn || ui.mode === "exiting") return;
  out(`\r\x1b[2K${statusLine()}\r`);
}

/**
 * Print transcript lines above the bottom region (erase region, print, redraw region).
 * Lines are already styled; untrusted parts must have gone through clean().
 * @param {string[]} lines
 */
export function print(...lines) {
  if (ui.mode === "exiting") {
    out(lines.map((l) => `${l}\r\n`).join(""));
    return;
  }
  out(eraseSeq() + lines.map((l) => `${l}\r\n`).join("") + regionSeq());
}

/** @param {Mode} mode @param {string} [activity] */
export function setMode(mode, activity = "") {
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
export function setActivity(activity) {
  ui.activity = activity;
  redrawStatus();
}

export function onResize() {
  if (!ui.drawn || ui.mode === "exiting") return;
  const c = cols();
  // Narrower: the terminal has re-wrapped the separator and the input line (both above the
  // parked cursor). Wider: lines we drew were never soft-wrapped, so nothing moved.
  const up =
    c < ui.drawnCols
      ? Math.max(1, Math.ceil(ui.drawnSepWidth / c)) + Math.max(1, Math.ceil(ui.drawnInputWidth / c))
      : 2;
  ui.drawn = false;
  out(`\r\x1b[${up}A\x1b[J${regionSeq()}`);
}
