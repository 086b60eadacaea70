// Deterministic agent-like terminal output for the pane benchmarks: coloured log lines, spinners,
// CR progress bars, inline composer redraws and the occasional full-screen repaint.
import { mulberry32 } from "../server/core/panes/fixtures/prng";

export const COLS = 120;
export const ROWS = 40;

export const WORDS =
  "the mirror reads rendered lines from the grid never raw bytes delta cursor scrollback spinner composer agent pane worktree test build".split(
    " ",
  );
export const BRAILLE = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];

/** One block of agent-like output: coloured log lines, spinners, progress, composer redraws. */
function tuiBlock(rand: () => number): string {
  const word = (): string => WORDS[Math.floor(rand() * WORDS.length)]!;
  const sentence = (n: number): string => Array.from({ length: n }, word).join(" ");
  const kind = rand();
  if (kind < 0.45) {
    let s = "";
    for (let i = 0; i < 8; i++) s += `\x1b[3${1 + (i % 6)}m⏺\x1b[0m ${sentence(4 + Math.floor(rand() * 14))}\r\n`;
    return s;
  }
  if (kind < 0.6) {
    let s = "";
    for (let f = 0; f < 10; f++) s += `\r\x1b[K\x1b[36m${BRAILLE[f]}\x1b[0m ${sentence(3)}…`;
    return `${s}\r\x1b[K\x1b[32m✔\x1b[0m done\r\n`;
  }
  if (kind < 0.72) {
    let s = "";
    for (let p = 0; p <= 100; p += 10)
      s += `\r[${"#".repeat(p / 5)}${" ".repeat(20 - p / 5)}] ${String(p).padStart(3)}%`;
    return `${s}\r\n`;
  }
  if (kind < 0.97) {
    // Inline composer: erase the 3 bottom rows, print a line, redraw.
    const sep = "─".repeat(COLS);
    return `\r\x1b[2A\x1b[J\x1b[1m${sentence(6)}\x1b[0m\r\n${sep}\r\n> ${sentence(2)}\r\n\x1b[2m${BRAILLE[Math.floor(rand() * 10)]} Thinking… (esc to interrupt)\x1b[0m`;
  }
  // Occasional full-screen repaint.
  let s = "\x1b[H\x1b[2J";
  for (let r = 1; r <= ROWS; r++) s += `\x1b[${r};1H\x1b[7m${String(r).padStart(3)}\x1b[0m ${sentence(8)}`;
  return `${s}\r\n`;
}

export function tuiStream(bytes: number, seed: number): Buffer {
  const rand = mulberry32(seed);
  const parts: string[] = [];
  let size = 0;
  while (size < bytes) {
    const b = tuiBlock(rand);
    parts.push(b);
    size += Buffer.byteLength(b);
  }
  return Buffer.from(parts.join(""), "utf8");
}
