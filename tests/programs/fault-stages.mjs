#!/usr/bin/env node
// Test program for mirror faults: prints "before", then on each terminal resize the next stage of
// a byte sequence that makes xterm 6.0 throw while parsing once the pane has been resized
// 53x10 -> 53x5 -> 53x8 -> 53x11 (rows shrunk while the alternate buffer is inactive, a scroll
// region growing it, a later resize), and after a fourth resize leaves the alternate screen and
// prints "after". Raw output (no \n -> \r\n translation), so the mirror gets exactly these bytes.
import { execFileSync } from "node:child_process";

execFileSync("stty", ["raw", "-echo"], { stdio: ["inherit", "ignore", "ignore"] });
const stages = [
  "\x1b[?1049h\x1b[1;4r\n\n\n\n\n\nstage2",
  `${"x".repeat(300)}\nstage3`,
  "\x1b[11;35H\x1b[2K",
  "\x1b[?1049l\x1b[r\r\nafter\r\n",
];
process.stdout.write("before\r\n");
let next = 0;
process.stdout.on("resize", () => {
  if (next < stages.length) process.stdout.write(stages[next++]);
});
setInterval(() => {}, 60_000);
