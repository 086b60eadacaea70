// `npm run bench`: runs every benchmark module and prints each target as a ratio against a
// baseline measured in the same run (never a timed assertion in the test suite). Writes the
// numbers to bench/results/latest.json. `npm run bench -- pane` runs only modules matching.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { BenchResult } from "./types";

const here = path.dirname(fileURLToPath(import.meta.url));
const MODULES: Record<string, () => Promise<{ run: () => Promise<BenchResult[]> }>> = {
  pane: () => import("./pane.bench"),
  "pane-exit": () => import("./pane-exit.bench"),
  git: () => import("./git.bench"),
  tasks: () => import("./tasks.bench"),
  events: () => import("./events.bench"),
  launch: () => import("./launch.bench"),
  cli: () => import("./cli.bench"),
  board: () => import("./board.bench"),
  ui: () => import("./ui.bench"),
  agents: () => import("./agents.bench"),
  setup: () => import("./setup.bench"),
  runner: () => import("./runner.bench"),
};

const only = process.argv.slice(2);
const results: Array<BenchResult & { module: string }> = [];
for (const [name, load] of Object.entries(MODULES)) {
  if (only.length && !only.some((o) => name.includes(o))) continue;
  process.stdout.write(`\n== ${name} ==\n`);
  const started = Date.now();
  try {
    for (const r of await (await load()).run()) {
      results.push({ ...r, module: name });
      process.stdout.write(
        `  ${r.info ? "INFO" : r.pass ? "PASS" : "MISS"}  ${r.name}: ${fmt(r.value)} ${r.unit} vs baseline ${fmt(r.baseline)} → ratio ${r.ratio.toFixed(2)} (target ${r.target})${r.note ? `  [${r.note}]` : ""}\n`,
      );
    }
  } catch (e) {
    process.stdout.write(`  ERROR  ${(e as Error).stack ?? e}\n`);
    process.exitCode = 1;
  }
  process.stdout.write(`  (${((Date.now() - started) / 1000).toFixed(1)} s)\n`);
}

function fmt(n: number): string {
  return Math.abs(n) >= 100 ? n.toFixed(0) : Math.abs(n) >= 1 ? n.toFixed(2) : n.toPrecision(3);
}

mkdirSync(path.join(here, "results"), { recursive: true });
writeFileSync(
  path.join(here, "results", "latest.json"),
  `${JSON.stringify({ at: new Date().toISOString(), results }, null, 2)}\n`,
);
const targets = results.filter((r) => !r.info);
const missed = targets.filter((r) => !r.pass);
process.stdout.write(
  `\n${targets.length - missed.length} of ${targets.length} targets met${missed.length ? `; missed: ${missed.map((r) => r.name).join(", ")}` : ""}\n`,
);
