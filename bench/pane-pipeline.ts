// Pane pipeline benchmark: what a real pane host process costs to take a pane's output from its
// PTY to its mirror (node-pty read on the host's main thread -> a mirror worker parsing it),
// against @xterm/headless parsing the same bytes alone, measured in the same run.
//   pane.pipelineCpu         CPU ms per MB of the whole host process vs of the bare parse. Target
//                            ratio <= 1.5.
//   pane.pipelineThroughput  MB/s of the same runs (the host's clock: first byte read to last byte
//                            parsed) vs the bare parse's: information only, the wall clock of two
//                            threads on a shared 2-core machine swings with everything else on it.
// How CPU is counted:
// - the pipeline: the host process's utime + stime (/proc/<pid>/stat: every thread, ended ones
//   included, 10 ms ticks) from just before the spawn request to the moment the host reports the
//   last byte parsed. That is the PTY reads, batching, messages to the worker, the worker's
//   parsing and progress reports, GC and libuv threads: everything the host does for the pane.
//   Per thread (schedstat, ns): the main thread (PTY reader), the busiest other thread (the
//   mirror worker), the rest (V8's GC helpers, libuv).
// - the bare parse: process.cpuUsage() of this process (every thread, getrusage) around one
//   Terminal fed the bytes in 64 KB writes.
// - not counted, printed: `cat` writing the bytes into the PTY (the producer: any terminal pays
//   it), read from the reaped children's time of the pane's shell.
// The host runs from its bundle (server/dist/panehost.mjs, rebuilt here when stale), as users run it.
import { execFileSync } from "node:child_process";
import { promises as fsp, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import xtermHeadless from "@xterm/headless";
import { newId } from "../server/core/ids";
import { PaneHostClient } from "../server/panehost/client";
import { processCpuMs, reapedChildrenCpuMs, threadCalls, threadSched, threadUserSys } from "./proc-cpu";
import { median } from "./stats";
import { COLS, ROWS, tuiStream } from "./tui-stream";
import type { BenchResult } from "./types";

const { Terminal } = xtermHeadless;
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const HOST_BUNDLE = path.join(ROOT, "server/dist/panehost.mjs");
const BYTES = 20 * 1024 * 1024;
/** Bare-parse / pipeline pairs. */
const PAIRS = 15;
const MB = 1024 * 1024;

const round = (n: number, d = 2): number => Math.round(n * 10 ** d) / 10 ** d;

interface BareRun {
  rate: number;
  cpuMs: number;
  /** This thread's time runnable but waiting for a CPU. */
  waitMs: number;
}

interface PipelineRun {
  rate: number;
  /** The whole host process. */
  cpuMs: number;
  readerMs: number;
  parserMs: number;
  otherMs: number;
  parserWaitMs: number;
  /** `cat` writing into the PTY (not counted). */
  producerMs: number;
  pauses: number;
  /** System calls and sleeps of the main thread (reads: mostly PTY reads) and of the mirror worker. */
  readerReads: number;
  readerWrites: number;
  readerSleeps: number;
  readerSysMs: number;
  parserReads: number;
  parserWrites: number;
  parserSleeps: number;
}

async function bareParse(data: Buffer): Promise<BareRun> {
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

const exits = new Map<string, () => void>();

/** `cat` of the file in a pane of the host, raw tty (the mirror parses exactly the file's bytes). */
async function pipeline(host: PaneHostClient, home: string, file: string, bytes: number): Promise<PipelineRun> {
  const paneId = newId("pane");
  const pid = host.hostPid;
  const exited = new Promise<void>((resolve) => exits.set(paneId, resolve));
  const threads0 = threadSched(pid);
  const calls0 = threadCalls(pid);
  const sys0 = threadUserSys(pid, pid).sysMs;
  const cpu0 = processCpuMs(pid);
  const { pid: shell } = await host.request("spawn", {
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
  const cpu1 = processCpuMs(pid);
  const threads1 = threadSched(pid);
  const calls1 = threadCalls(pid);
  const sys1 = threadUserSys(pid, pid).sysMs;
  const calls = (tid: number | undefined) => {
    const a = calls1.get(tid ?? -1);
    const b = calls0.get(tid ?? -1);
    return {
      reads: (a?.reads ?? 0) - (b?.reads ?? 0),
      writes: (a?.writes ?? 0) - (b?.writes ?? 0),
      sleeps: (a?.sleeps ?? 0) - (b?.sleeps ?? 0),
    };
  };
  const delta = [...threads1].map(([tid, t]) => {
    const t0 = threads0.get(tid);
    return { tid, cpuMs: t.cpuMs - (t0?.cpuMs ?? 0), waitMs: t.waitMs - (t0?.waitMs ?? 0) };
  });
  const reader = delta.find((t) => t.tid === pid);
  const others = delta.filter((t) => t.tid !== pid).sort((a, b) => b.cpuMs - a.cpuMs);
  // The shell has reaped stty and cat once it runs sleep.
  let producerMs = Number.NaN;
  for (let i = 0; i < 100; i++) {
    if (readFileSync(`/proc/${shell}/comm`, "utf8").trim() === "sleep") {
      producerMs = reapedChildrenCpuMs(shell);
      break;
    }
    await new Promise((r) => setTimeout(r, 10));
  }
  await host.request("kill", { paneId, graceMs: 500 });
  await exited;
  return {
    rate: bytes / MB / ((s.lastParsedAt! - s.firstReadAt!) / 1000),
    cpuMs: cpu1 - cpu0,
    readerMs: reader?.cpuMs ?? 0,
    parserMs: others[0]?.cpuMs ?? 0,
    otherMs: others.slice(1).reduce((a, t) => a + t.cpuMs, 0),
    parserWaitMs: others[0]?.waitMs ?? 0,
    producerMs,
    pauses: s.backpressurePauses,
    readerReads: calls(pid).reads,
    readerWrites: calls(pid).writes,
    readerSleeps: calls(pid).sleeps,
    readerSysMs: sys1 - sys0,
    parserReads: calls(others[0]?.tid).reads,
    parserWrites: calls(others[0]?.tid).writes,
    parserSleeps: calls(others[0]?.tid).sleeps,
  };
}

function spread(xs: number[], d = 2): string {
  const s = [...xs].sort((a, b) => a - b);
  return `min ${round(s[0]!, d)}, median ${round(median(s), d)}, max ${round(s[s.length - 1]!, d)}`;
}

export async function benchPipeline(dir: string, pairs = PAIRS): Promise<BenchResult[]> {
  execFileSync(process.execPath, [path.join(ROOT, "scripts/build-server.mjs"), "--if-stale"], {
    cwd: ROOT,
    stdio: ["ignore", "ignore", "inherit"],
  });
  const data = tuiStream(BYTES, 1);
  const file = path.join(dir, "tui.bin");
  await fsp.writeFile(file, data);
  const home = path.join(dir, "home");
  const host = await PaneHostClient.open({ home, log: () => {}, entry: HOST_BUNDLE });
  host.events = { exit: async (e) => exits.get(e.paneId)?.() };
  await host.ready();
  try {
    await bareParse(data.subarray(0, 2 * MB)); // warm up both paths
    await pipeline(host, home, file, data.length);
    const bare: BareRun[] = [];
    const pipe: PipelineRun[] = [];
    const load0 = os.loadavg()[0]!;
    for (let i = 0; i < pairs; i++) {
      // Each pair back to back, so load from elsewhere on the machine hits both alike; which
      // side goes first alternates, so a load that rises or falls during a pair favours neither.
      const b = i % 2 === 0 ? await bareParse(data) : null;
      pipe.push(await pipeline(host, home, file, data.length));
      bare.push(b ?? (await bareParse(data)));
    }
    const mb = data.length / MB;
    const cpuRatios = pipe.map((p, i) => p.cpuMs / bare[i]!.cpuMs);
    const wallRatios = pipe.map((p, i) => p.rate / bare[i]!.rate);
    const med = (f: (r: PipelineRun) => number) => Math.round(median(pipe.map(f)));
    const bareCpu = median(bare.map((b) => b.cpuMs));
    const cpuRatio = median(cpuRatios);
    const load = `load average ${round(load0, 1)} -> ${round(os.loadavg()[0]!, 1)} on ${os.availableParallelism()} cores`;
    return [
      {
        name: "pane.pipelineCpu",
        value: round(median(pipe.map((p) => p.cpuMs)) / mb, 1),
        baseline: round(bareCpu / mb, 1),
        ratio: round(cpuRatio),
        unit: "CPU ms/MB",
        target: "ratio <= 1.5",
        pass: cpuRatio <= 1.5,
        note: `${round(mb, 1)} MB of mixed TUI output via node-pty (cat, raw tty) -> pane host (process ${host.hostPid}, every thread, /proc/<pid>/stat) -> mirror worker, vs xterm-headless alone in this process (process.cpuUsage); ${pairs} back-to-back pairs, ratio = median of per-pair ratios (${spread(cpuRatios)}); CPU ms per run (medians): bare parse ${Math.round(bareCpu)}, host ${med((p) => p.cpuMs)} = mirror worker ${med((p) => p.parserMs)} + PTY reader ${med((p) => p.readerMs)} + other threads ${med((p) => p.otherMs)}; not counted: cat writing into the PTY ${med((p) => p.producerMs)}; backpressure pauses per run ${med((p) => p.pauses)}; per run (medians): PTY reader ${med((p) => p.readerReads)} reads, ${med((p) => p.readerWrites)} writes, ${med((p) => p.readerSleeps)} sleeps, ${med((p) => p.readerSysMs)} ms system time; mirror worker ${med((p) => p.parserReads)} reads, ${med((p) => p.parserWrites)} writes, ${med((p) => p.parserSleeps)} sleeps; ${load}`,
      },
      {
        name: "pane.pipelineThroughput",
        value: round(median(pipe.map((p) => p.rate)), 1),
        baseline: round(median(bare.map((b) => b.rate)), 1),
        ratio: round(median(wallRatios)),
        unit: "MB/s",
        target: "information only",
        pass: true,
        info: true,
        note: `the same runs: host's first read to last byte parsed vs the bare parse's wall time; per-pair ratios ${spread(wallRatios)}; runnable but waiting for a CPU (ms per run, medians): bare parse thread ${Math.round(median(bare.map((b) => b.waitMs)))}, mirror worker ${med((p) => p.parserWaitMs)}`,
      },
    ];
  } finally {
    await host.shutdown();
  }
}
