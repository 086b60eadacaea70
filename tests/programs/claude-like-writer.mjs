// Test program: rewrites a Claude config file the way Claude Code does, every few milliseconds
// (far more often than Claude does) for DURATION_MS, or until the file STOP_FILE names exists:
// read it, bump `numStartups`, set `lastSessionAt`, write a temporary copy and rename it into
// place (only when the file still holds what was read: a well-behaved concurrent writer).
// Prints how many rewrites landed.
import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";

const file = process.argv[2];
const until = Date.now() + Number(process.env.DURATION_MS ?? 1500);
let landed = 0;
const stop = process.env.STOP_FILE;
while (Date.now() < until && !(stop && existsSync(stop))) {
  let text;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    continue;
  }
  const cfg = JSON.parse(text);
  cfg.numStartups = (cfg.numStartups ?? 0) + 1;
  cfg.lastSessionAt = Date.now();
  const tmp = path.join(path.dirname(file), `.claude.json.tmp.${process.pid}`);
  writeFileSync(tmp, JSON.stringify(cfg, null, 2), { mode: 0o600 });
  if (readFileSync(file, "utf8") !== text) continue;
  renameSync(tmp, file);
  landed++;
  await new Promise((r) => setTimeout(r, 2 + Math.random() * 3));
}
process.stdout.write(String(landed));
