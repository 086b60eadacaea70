// CLI start-up benchmark: the wall time of one `yard --json status` call (a fresh Node process
// running cli/bin/yard.js: stamp check, the bundle, one tRPC request to a real server) against
// a bare `node -e 0` measured in the same run. Orchestrator agents call yard hundreds of times
// per task, so each call should cost little more than starting Node. Target ratio <= 2.5.
// value/baseline: medians of alternating runs; ratio: median of the per-run (yard / node)
// ratios, each pair measured back to back so a burst of load from elsewhere hits both sides.
// The note gives the same call from the TypeScript sources through tsx, for comparison.
// Run standalone: npx tsx bench/cli.bench.ts
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { ROOT, startTestServer } from "../tests/helpers/server";
import { median } from "./stats";
import type { BenchResult } from "./types";

const exec = promisify(execFile);
const RUNS = 21;
const RUNS_TSX = 7;
const TARGET_RATIO = 2.5;

const round = (x: number) => Math.round(x * 100) / 100;

async function time(argv: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const t0 = performance.now();
  await exec(process.execPath, argv, { cwd: ROOT, env });
  return performance.now() - t0;
}

export async function run(): Promise<BenchResult[]> {
  // the bundle as postinstall / npm test leave it (the timed calls must not include a rebuild)
  await exec(process.execPath, [path.join(ROOT, "scripts/build-cli.mjs")], { cwd: ROOT });
  const server = await startTestServer();
  try {
    const env: NodeJS.ProcessEnv = { ...process.env, YARD_HOME: server.home, YARD_URL: "", YARD_TOKEN: "" };
    delete env.NODE_OPTIONS;
    const yard = [path.join(ROOT, "cli/bin/yard.js"), "--json", "status"];
    const fromSource = ["--import", "tsx", path.join(ROOT, "cli/main.ts"), "--json", "status"];
    const bare = ["-e", "0"];

    const check = await exec(process.execPath, yard, { cwd: ROOT, env });
    const status = JSON.parse(check.stdout) as { url?: string };
    if (status.url !== server.url)
      throw new Error(`yard --json status answered ${check.stdout.trim()}, expected the bench server at ${server.url}`);

    const ours: number[] = [];
    const raw: number[] = [];
    for (let i = -2; i < RUNS; i++) {
      // alternate which side goes first; i < 0 are warm-ups (disk cache, the server's first requests)
      let o: number;
      let r: number;
      if (i % 2 === 0) {
        o = await time(yard, env);
        r = await time(bare, env);
      } else {
        r = await time(bare, env);
        o = await time(yard, env);
      }
      if (i >= 0) {
        ours.push(o);
        raw.push(r);
      }
    }
    const tsx: number[] = [];
    for (let i = 0; i < RUNS_TSX; i++) tsx.push(await time(fromSource, env));

    const ratio = median(ours.map((o, i) => o / raw[i]!));
    return [
      {
        name: "yard --json status vs node -e 0",
        value: round(median(ours)),
        baseline: round(median(raw)),
        ratio: round(ratio),
        unit: "ms",
        target: `ratio <= ${TARGET_RATIO}`,
        pass: ratio <= TARGET_RATIO,
        note: `median of ${RUNS}, against a running server; from source through tsx: ${Math.round(median(tsx))} ms (median of ${RUNS_TSX})`,
      },
    ];
  } finally {
    await server.dispose();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const r of await run()) console.log(r);
}
