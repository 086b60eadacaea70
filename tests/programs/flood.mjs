#!/usr/bin/env node
// Test program for pane backpressure: writes LINES numbered lines ("L1" .. "L<LINES>"), each
// followed by TOGGLES switches to the alternate screen and back. A switch costs the terminal
// parser a clear of the whole alternate grid but leaves the normal screen as it was, so the output
// is cheap to produce, slow to parse, and the numbered lines must all survive. Writes as fast as
// the terminal takes them, then exits at once.
//   node flood.mjs LINES TOGGLES
const lines = Number(process.argv[2] ?? 1000);
const toggles = Number(process.argv[3] ?? 20);
const noise = "\x1b[?1049h\x1b[?1049l".repeat(toggles);
let out = "";
for (let i = 1; i <= lines; i++) {
  out += `L${i}\r\n${noise}`;
  if (out.length > 1 << 20) {
    process.stdout.write(out);
    out = "";
  }
}
process.stdout.write(out);
process.exit(0);
