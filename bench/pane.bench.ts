// Pane benchmark: the PTY -> mirror pipeline through the pane host, and TerminalMirror itself.
//   pane.pipelineCpu         CPU per MB of a real pane host process (every thread) taking a ~20 MB
//                            mixed TUI stream from node-pty `cat` to its mirror worker, vs
//                            @xterm/headless parsing the same bytes alone in this process.
//                            Target ratio <= 1.5 (bench/pane-pipeline.ts).
//   pane.pipelineThroughput  the same runs' MB/s, first byte read to last byte parsed, vs the bare
//                            parse's: information only (it swings with the machine's load).
//   pane.deltaCost           delta() after 20 new lines + a redrawn 3-row composer, at 5000
//                            lines of scrollback vs at 100. Target ratio <= 2.
//   pane.memoryPerPane       heap + external growth per mirror with 5000 scrollback lines of
//                            120 coloured columns (8 mirrors), vs an empty mirror. Target <= 25 MB.
//   pane.eventLoopLagP99     monitorEventLoopDelay p99 of the server side (this process: the real
//                            services, PaneManager and a pane host) while 16 panes stream ~1 MB/s
//                            each for 5 s (each also read by delta() at 2 Hz), vs the same 5 s
//                            with no panes. Target < 20 ms.
// Run standalone: npx tsx bench/pane.bench.ts

import { promises as fsp } from "node:fs";
import os from "node:os";
import path from "node:path";
import { monitorEventLoopDelay, performance } from "node:perf_hooks";
import { pathToFileURL } from "node:url";
import v8 from "node:v8";
import vm from "node:vm";
import { createServices } from "../server/composition";
import { TerminalMirror } from "../server/core/panes/mirror";
import { mulberry32 } from "../server/core/panes/fixtures/prng";
import { benchPipeline } from "./pane-pipeline";
import { median } from "./stats";
import { BRAILLE, COLS, ROWS, tuiStream, WORDS } from "./tui-stream";
import type { BenchResult } from "./types";

const LAG_PANES = 16;
const LAG_SECONDS = 5;
const LAG_RATE = 1024 * 1024; // bytes/s per pane
const MB = 1024 * 1024;

const round = (n: number, d = 2): number => Math.round(n * 10 ** d) / 10 ** d;

function gcFn(): () => void {
  v8.setFlagsFromString("--expose-gc");
  return vm.runInNewContext("gc") as () => void;
}

// --- 2. delta cost vs scrollback depth ---

function fillLines(n: number, seed: number): string {
  const rand = mulberry32(seed);
  let s = "";
  for (let i = 0; i < n; i++) {
    const w = Array.from({ length: 12 }, () => WORDS[Math.floor(rand() * WORDS.length)]).join(" ");
    s += `${`\x1b[3${1 + (i % 6)}m${String(i).padStart(6)}\x1b[0m ${w}`.slice(0, COLS + 9)}\r\n`;
  }
  return s;
}

/** Times of `iterations` delta() calls on mirrors holding ~`scrollbackLines` of scrollback. */
async function deltaCost(scrollbackLines: number, iterations: number): Promise<number[]> {
  const sep = "─".repeat(COLS);
  const perMirror = 5; // 5 x 20 new lines: the small case stays within 100..200 lines
  const times: number[] = [];
  for (let done = 0; done < iterations; done += perMirror) {
    const m = new TerminalMirror({ cols: COLS, rows: ROWS });
    m.write(fillLines(scrollbackLines + ROWS, 3 + done));
    m.write(`${sep}\r\n> \r\n⠋ Thinking…`);
    let cursor = (await m.delta(0)).cursor;
    for (let i = done; i < done + perMirror; i++) {
      m.write(
        `\r\x1b[2A\x1b[J${fillLines(20, 100 + i)}${sep}\r\n> ${WORDS[i % WORDS.length]}\r\n${BRAILLE[i % 10]} Thinking…`,
      );
      await m.flush();
      const t0 = performance.now();
      const d = await m.delta(cursor);
      times.push(performance.now() - t0);
      if (d.start >= cursor) throw new Error("composer rewrite not detected");
      cursor = d.cursor;
    }
    m.dispose();
  }
  return times;
}

async function benchDelta(): Promise<BenchResult> {
  await deltaCost(100, 20); // warm up
  await deltaCost(5000, 20);
  const small: number[] = [];
  const large: number[] = [];
  for (let round = 0; round < 4; round++) {
    small.push(...(await deltaCost(100, 50)));
    large.push(...(await deltaCost(5000, 50)));
  }
  const baseline = median(small) * 1000;
  const value = median(large) * 1000;
  const ratio = value / baseline;
  return {
    name: "pane.deltaCost",
    value: round(value, 1),
    baseline: round(baseline, 1),
    ratio: round(ratio),
    unit: "µs/delta",
    target: "ratio <= 2",
    pass: ratio <= 2,
    note: `median of 200 delta() calls each, every one after 20 new lines + a redrawn 3-row composer (${COLS}x${ROWS}); 5000 vs 100-200 lines of scrollback`,
  };
}

// --- 3. memory per pane ---

async function benchMemory(): Promise<BenchResult> {
  const gc = gcFn();
  const n = 8;
  const used = (): number => {
    gc();
    gc();
    const u = process.memoryUsage();
    return u.heapUsed + u.external;
  };
  const before = used();
  const mirrors = Array.from({ length: n }, () => new TerminalMirror({ cols: COLS, rows: ROWS }));
  await Promise.all(mirrors.map((m) => m.flush()));
  const empty = used();
  const rss0 = process.memoryUsage().rss;
  const fill = fillLines(5000 + ROWS, 9)
    .split("\r\n")
    .map((l) => `${l} ${"x".repeat(COLS)}`.slice(0, COLS + 9))
    .join("\r\n");
  for (const m of mirrors) {
    m.write(fill);
    await m.delta(0);
    await m.delta(0, { reader: "agent" });
  }
  await Promise.all(mirrors.map((m) => m.flush()));
  const full = used();
  const rss1 = process.memoryUsage().rss;
  const scroll = (await mirrors[0]!.tail(Number.MAX_SAFE_INTEGER)).text.split("\n").length - 1;
  for (const m of mirrors) m.dispose();
  const baseline = (empty - before) / n / MB;
  const value = (full - before) / n / MB;
  return {
    name: "pane.memoryPerPane",
    value: round(value),
    baseline: round(baseline),
    ratio: round(value / Math.max(baseline, 0.01)),
    unit: "MB/pane",
    target: "value <= 25 MB",
    pass: value <= 25,
    note: `heapUsed+external per mirror holding ${scroll} lines of ${COLS} coloured cols (8 mirrors); RSS growth ${round((rss1 - rss0) / n / MB)} MB/pane`,
  };
}

// --- 4. event-loop lag under 8 streaming panes ---

const STREAMER = `
const fs = require("fs");
const data = fs.readFileSync(process.argv[2]);
const rate = Number(process.argv[3]), seconds = Number(process.argv[4]);
const start = Date.now();
let off = 0, sent = 0;
const t = setInterval(() => {
  // Paced by elapsed time, so timer jitter does not lower the rate.
  const due = Math.min(rate * seconds, Math.round((rate * (Date.now() - start)) / 1000));
  while (sent < due) {
    const n = Math.min(due - sent, 16384, data.length - off);
    process.stdout.write(data.subarray(off, off + n));
    sent += n; off = (off + n) % data.length;
  }
  if (sent >= rate * seconds) { clearInterval(t); setTimeout(() => process.exit(0), 50); }
}, 20);
`;

async function lagP99(ms: number, during?: () => Promise<void>): Promise<number> {
  const h = monitorEventLoopDelay({ resolution: 1 });
  h.enable();
  const wait = new Promise((r) => setTimeout(r, ms));
  await Promise.all([wait, during?.()]);
  h.disable();
  return h.percentile(99) / 1e6;
}

async function benchLag(dir: string): Promise<BenchResult> {
  const sample = path.join(dir, "sample.bin");
  await fsp.writeFile(sample, tuiStream(2 * MB, 7));
  const script = path.join(dir, "streamer.cjs");
  await fsp.writeFile(script, STREAMER);
  const home = path.join(dir, "lag-home");
  const services = await createServices({
    home,
    token: "bench-token-bench-token-bench-token-123",
    url: () => "http://127.0.0.1:9",
    log: () => {},
  });
  try {
    const baseline = await lagP99(LAG_SECONDS * 1000);
    const panes = await Promise.all(
      Array.from({ length: LAG_PANES }, () =>
        services.panes.spawn({
          argv: [process.execPath, script, sample, String(LAG_RATE), String(LAG_SECONDS)],
          cwd: dir,
          cols: COLS,
          rows: ROWS,
        }),
      ),
    );
    const cursors = new Array<number>(LAG_PANES).fill(0);
    const poller = setInterval(() => {
      panes.forEach(
        (p, i) =>
          void services.panes.read(p.id, { mode: "delta", cursor: cursors[i]! }).then(
            (d) => (cursors[i] = d.cursor),
            () => {},
          ),
      );
    }, 500);
    const readBytes = async () =>
      (await Promise.all(panes.map((p) => services.panes.flowStats(p.id)))).reduce(
        (a, s) => a + (s?.readBytes ?? 0),
        0,
      );
    // Let the children start up before measuring.
    await new Promise((r) => setTimeout(r, 400));
    const t0 = performance.now();
    const r0 = await readBytes();
    const value = await lagP99(LAG_SECONDS * 1000 - 600);
    const rate = ((await readBytes()) - r0) / LAG_PANES / MB / ((performance.now() - t0) / 1000);
    clearInterval(poller);
    await Promise.all(panes.map((p) => services.panes.kill(p.id, { graceMs: 500 })));
    return {
      name: "pane.eventLoopLagP99",
      value: round(value),
      baseline: round(baseline),
      ratio: round(value / Math.max(baseline, 0.01)),
      unit: "ms",
      target: "value < 20 ms",
      pass: value < 20,
      note: `server side (services + PaneManager in this process, PTYs and mirrors in the pane host): ${LAG_PANES} panes at ${round(rate)} MB/s each (measured by the host), delta() at 2 Hz each; baseline: idle loop; monitorEventLoopDelay resolution 1 ms`,
    };
  } finally {
    await services.close();
  }
}

export async function run(): Promise<BenchResult[]> {
  const dir = await fsp.mkdtemp(path.join(os.tmpdir(), "yard-pane-bench-"));
  try {
    const results: BenchResult[] = [];
    results.push(...(await benchPipeline(dir)));
    results.push(await benchDelta());
    results.push(await benchMemory());
    results.push(await benchLag(dir));
    return results;
  } finally {
    await fsp.rm(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const t0 = Date.now();
  run().then(
    (results) => {
      for (const r of results) {
        console.log(
          `${r.info ? "INFO" : r.pass ? "PASS" : "FAIL"} ${r.name}: ${r.value} ${r.unit} vs ${r.baseline} ${r.unit} (ratio ${r.ratio}, target ${r.target})`,
        );
      }
      console.log(JSON.stringify(results, null, 2));
      console.log(`(${round((Date.now() - t0) / 1000, 1)} s)`);
      process.exitCode = results.every((r) => r.pass) ? 0 : 1;
    },
    (e) => {
      console.error(e);
      process.exitCode = 2;
    },
  );
}
