// Pane benchmark: the PTY -> mirror pipeline through the pane host, and TerminalMirror itself.
//   pane.pipelineThroughput  a real pane host process: node-pty `cat` of a generated ~20 MB mixed
//                            TUI stream (raw tty, bytes unchanged) -> the host's reader -> a mirror
//                            worker, MB/s from the host's first read to the last byte parsed, vs
//                            @xterm/headless parsing the same bytes alone in this process.
//                            Target ratio >= 0.95.
//   pane.deltaCost           delta() after 20 new lines + a redrawn 3-row composer, at 5000
//                            lines of scrollback vs at 100. Target ratio <= 2.
//   pane.memoryPerPane       heap + external growth per mirror with 5000 scrollback lines of
//                            120 coloured columns (8 mirrors), vs an empty mirror. Target <= 25 MB.
//   pane.eventLoopLagP99     monitorEventLoopDelay p99 of the server side (this process: the real
//                            services, PaneManager and a pane host) while 16 panes stream ~1 MB/s
//                            each for 5 s (each also read by delta() at 2 Hz), vs the same 5 s
//                            with no panes. Target < 20 ms.
// Run standalone: npx tsx bench/pane.bench.ts

import { promises as fsp, readdirSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { monitorEventLoopDelay, performance } from "node:perf_hooks";
import { pathToFileURL } from "node:url";
import v8 from "node:v8";
import vm from "node:vm";
import xtermHeadless from "@xterm/headless";
import { TerminalMirror } from "../server/core/panes/mirror";
import { mulberry32 } from "../server/core/panes/fixtures/prng";
import { newId } from "../server/core/ids";
import { PaneHostClient } from "../server/panehost/client";
import { createServices } from "../server/composition";
import { median } from "./stats";
import type { BenchResult } from "./types";

const { Terminal } = xtermHeadless;
const COLS = 120;
const ROWS = 40;
const THROUGHPUT_BYTES = 20 * 1024 * 1024;
/** Baseline/pipeline pairs of the throughput result. */
const PAIRS = 15;
const LAG_PANES = 16;
const LAG_SECONDS = 5;
const LAG_RATE = 1024 * 1024; // bytes/s per pane
const MB = 1024 * 1024;

const round = (n: number, d = 2): number => Math.round(n * 10 ** d) / 10 ** d;

// --- deterministic mixed TUI output ---

const WORDS =
  "the mirror reads rendered lines from the grid never raw bytes delta cursor scrollback spinner composer agent pane worktree test build".split(
    " ",
  );
const BRAILLE = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];

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

function gcFn(): () => void {
  v8.setFlagsFromString("--expose-gc");
  return vm.runInNewContext("gc") as () => void;
}

// --- 1. pipeline throughput ---

/** MB/s, the CPU time this process spent (all its threads, ms), and how long its thread waited for a CPU (ms). */
async function xtermAlone(data: Buffer): Promise<{ rate: number; cpuMs: number; waitMs: number }> {
  const term = new Terminal({ cols: COLS, rows: ROWS, scrollback: 5000, allowProposedApi: true });
  const w0 = threadSched(process.pid).get(process.pid)?.waitMs ?? 0;
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  await new Promise<void>((resolve) => {
    for (let i = 0; i < data.length; i += 65536) term.write(data.subarray(i, i + 65536));
    term.write("", resolve);
  });
  const ms = performance.now() - t0;
  const c = process.cpuUsage(c0);
  const waitMs = (threadSched(process.pid).get(process.pid)?.waitMs ?? 0) - w0;
  term.dispose();
  return { rate: data.length / MB / (ms / 1000), cpuMs: (c.user + c.system) / 1000, waitMs };
}

/** Per thread of a process: time on a CPU and time runnable but waiting for one (ms; Linux schedstat). */
function threadSched(pid: number): Map<number, { cpuMs: number; waitMs: number }> {
  const out = new Map<number, { cpuMs: number; waitMs: number }>();
  try {
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      const [run, wait] = readFileSync(`/proc/${pid}/task/${tid}/schedstat`, "utf8").split(" ");
      out.set(Number(tid), { cpuMs: Number(run) / 1e6, waitMs: Number(wait) / 1e6 });
    }
  } catch {
    /* not Linux, or the thread ended */
  }
  return out;
}

/** CPU time (ms, user + system) of each thread of a process, by thread id. */
function threadCpu(pid: number): Map<number, number> {
  const out = new Map<number, number>();
  try {
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, "utf8");
      const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      out.set(Number(tid), ((Number(f[11]) + Number(f[12])) * 1000) / 100); // USER_HZ = 100 on Linux
    }
  } catch {
    /* not Linux, or the thread ended */
  }
  return out;
}

/**
 * PTY -> pane host -> mirror worker: `cat` of the file in a pane of a real host process; MB/s from
 * the host's first read of the pane to the last byte parsed (the host's clock, both ends).
 */
export async function hostPipeline(
  host: PaneHostClient,
  home: string,
  file: string,
  bytes: number,
): Promise<{ rate: number; readerMs: number; parserMs: number; otherMs: number; parserWaitMs: number }> {
  const paneId = newId("pane");
  const cpu0 = threadCpu(host.hostPid);
  const sched0 = threadSched(host.hostPid);
  const exited = new Promise<void>((resolve) => exits.set(paneId, resolve));
  // Raw tty (no \n -> \r\n translation) so the mirror parses exactly the file's bytes.
  await host.request("spawn", {
    paneId,
    argv: ["/bin/sh", "-c", `stty raw -echo; cat '${file}'; exec sleep 60`],
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", TERM: "xterm-256color" },
    cwd: home,
    cols: COLS,
    rows: ROWS,
    scrollback: 5000,
    activity: false,
    tokenHash: "",
    meta: {},
  });
  const s = await host.request("stats", { paneId, untilParsed: bytes, timeoutMs: 120_000 });
  // Host threads' CPU up to the last byte parsed: the main thread reads the PTY, the busiest other
  // thread is the mirror worker, the rest are V8's helpers (GC) and libuv's.
  const cpu1 = threadCpu(host.hostPid);
  const sched1 = threadSched(host.hostPid);
  const delta = [...cpu1].map(([tid, ms]) => [tid, ms - (cpu0.get(tid) ?? 0)] as const);
  const readerMs = delta.find(([tid]) => tid === host.hostPid)?.[1] ?? 0;
  const byCpu = delta.filter(([tid]) => tid !== host.hostPid).sort((a, b) => b[1] - a[1]);
  const others = byCpu.map(([, ms]) => ms);
  const parserTid = byCpu[0]?.[0];
  const parserWaitMs =
    parserTid === undefined ? 0 : (sched1.get(parserTid)?.waitMs ?? 0) - (sched0.get(parserTid)?.waitMs ?? 0);
  await host.request("kill", { paneId, graceMs: 500 });
  await exited;
  return {
    rate: bytes / MB / ((s.lastParsedAt! - s.firstReadAt!) / 1000),
    readerMs,
    parserMs: others[0] ?? 0,
    otherMs: others.slice(1).reduce((a, b) => a + b, 0),
    parserWaitMs,
  };
}

export const exits = new Map<string, () => void>();

export async function benchThroughput(dir: string): Promise<BenchResult> {
  const data = tuiStream(THROUGHPUT_BYTES, 1);
  const file = path.join(dir, "tui.bin");
  await fsp.writeFile(file, data);
  const home = path.join(dir, "home");
  const host = await PaneHostClient.open({ home, log: () => {} });
  host.events = { exit: async (e) => exits.get(e.paneId)?.() };
  await host.ready();
  try {
    await xtermAlone(data.subarray(0, 2 * MB)); // warm up both paths
    await hostPipeline(host, home, file, data.length);
    const base: number[] = [];
    const pipe: number[] = [];
    const ratios: number[] = [];
    const baseCpu: number[] = [];
    const reader: number[] = [];
    const parser: number[] = [];
    const other: number[] = [];
    const baseWait: number[] = [];
    const parserWait: number[] = [];
    const load0 = os.loadavg()[0];
    for (let i = 0; i < PAIRS; i++) {
      // Each pair back to back, so load from elsewhere on the machine hits both alike; which
      // side goes first alternates, so a load that rises or falls during a pair favours neither.
      const b = i % 2 === 0 ? await xtermAlone(data) : null;
      const p = await hostPipeline(host, home, file, data.length);
      const bb = b ?? (await xtermAlone(data));
      base.push(bb.rate);
      baseCpu.push(bb.cpuMs);
      pipe.push(p.rate);
      reader.push(p.readerMs);
      parser.push(p.parserMs);
      other.push(p.otherMs);
      baseWait.push(bb.waitMs);
      parserWait.push(p.parserWaitMs);
      ratios.push(p.rate / bb.rate);
    }
    const baseline = median(base);
    const value = median(pipe);
    const ratio = median(ratios);
    const cpu = (xs: number[]) => Math.round(median(xs));
    return {
      name: "pane.pipelineThroughput",
      value: round(value, 1),
      baseline: round(baseline, 1),
      ratio: round(ratio),
      unit: "MB/s",
      target: "ratio >= 0.95",
      pass: ratio >= 0.95,
      note: `${round(data.length / MB, 1)} MB of mixed TUI output via node-pty (cat, raw tty) -> pane host reader -> mirror worker (host process ${host.hostPid}) vs xterm-headless alone in this process; medians of ${PAIRS} back-to-back pairs (ratio: median of per-pair ratios); pairs: ${ratios.map((r) => round(r)).join(", ")}; CPU ms per run (medians): baseline ${cpu(baseCpu)}, host: mirror worker ${cpu(parser)} + PTY reader ${cpu(reader)} + other threads ${cpu(other)}; runnable but waiting for a CPU (ms per run): baseline thread ${cpu(baseWait)}, mirror worker ${cpu(parserWait)}; load average ${round(load0, 1)} -> ${round(os.loadavg()[0], 1)} on ${os.availableParallelism()} cores`,
    };
  } finally {
    await host.shutdown();
  }
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
    results.push(await benchThroughput(dir));
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
          `${r.pass ? "PASS" : "FAIL"} ${r.name}: ${r.value} ${r.unit} vs ${r.baseline} ${r.unit} (ratio ${r.ratio}, target ${r.target})`,
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
