// Memory of exited panes: 500 short panes spawned and run to their exit through a real PaneManager
// and pane host (real PTYs, SQLite and final screens in a temp data dir), the server side's RSS and
// heap (+ external) measured with GC forced after a warm-up of 50 panes and again after all 500
// (the note adds the pane host's RSS, which holds the live mirrors). The growth per exited pane is
// compared with the size of one live mirror at full scrollback (the default 5000 lines of 120
// coloured columns) measured in the same run; a manager that kept each exited pane's mirror would
// grow by that pane's mirror (printed in the note) per pane.
//   paneExit.heapGrowthPerPane  heapUsed + external growth per exited pane vs one full live mirror
//   paneExit.rssGrowthPerPane   RSS growth per exited pane vs one full live mirror's RSS
// Target for both: ratio <= 0.01 (1 % of a live mirror). Run standalone: npx tsx bench/pane-exit.bench.ts
import { ProfileStore } from "../server/stores/profiles";
import { EventStore } from "../server/stores/events";
import { PaneStore } from "../server/stores/panes";
import { promises as fsp, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import v8 from "node:v8";
import vm from "node:vm";
import { paths } from "../server/config";
import { AgentProfiles } from "../server/core/agents/profiles";
import { EventJournal } from "../server/core/events/journal";
import { PaneManager } from "../server/core/panes/manager";
import { TerminalMirror } from "../server/core/panes/mirror";
import { openDatabase } from "../server/db";
import { PaneHostClient } from "../server/panehost/client";
import type { BenchResult } from "./types";

const PANES = 500;
const WARMUP = 50;
const CONCURRENCY = 8;
const COLS = 120;
const ROWS = 32;
/** Each short pane prints this many lines of ~100 columns, then exits. */
const PANE_LINES = 400;
const KB = 1024;
const TARGET = 0.01;

const round = (n: number, d = 2): number => Math.round(n * 10 ** d) / 10 ** d;

function gcFn(): () => void {
  v8.setFlagsFromString("--expose-gc");
  return vm.runInNewContext("gc") as () => void;
}

interface Usage {
  rss: number;
  heap: number;
}

async function settle(gc: () => void): Promise<Usage> {
  for (let i = 0; i < 3; i++) {
    await new Promise((r) => setImmediate(r));
    gc();
  }
  const u = process.memoryUsage();
  return { rss: u.rss, heap: u.heapUsed + u.external };
}

const PROGRAM = `i=1; while [ $i -le ${PANE_LINES} ]; do printf '\\033[3%dm%05d\\033[0m %s\\n' $((i % 7)) $i 'the mirror reads rendered lines from the grid never raw bytes delta cursor scrollback spin'; i=$((i+1)); done`;

async function runPanes(panes: PaneManager, cwd: string, n: number): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < n) {
      next++;
      const p = await panes.spawn({ argv: ["sh", "-c", PROGRAM], cwd, cols: COLS, rows: ROWS });
      await new Promise<void>((resolve, reject) => {
        panes.attach(p.id, { exit: () => resolve() }).then((a) => {
          if (!a.pane.live) resolve();
        }, reject);
      });
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
}

/** heapUsed + external and RSS of one mirror holding `lines` lines of 120 coloured columns. */
async function mirrorSize(gc: () => void, lines: number): Promise<Usage> {
  const n = 4;
  const before = await settle(gc);
  const mirrors = Array.from({ length: n }, () => new TerminalMirror({ cols: COLS, rows: ROWS }));
  let fill = "";
  for (let i = 0; i < lines; i++)
    fill += `${`\x1b[3${1 + (i % 6)}m${String(i).padStart(6)}\x1b[0m ${"the mirror reads rendered lines ".repeat(4)}`.slice(
      0,
      COLS + 9,
    )}\r\n`;
  for (const m of mirrors) {
    m.write(fill);
    await m.delta(0);
  }
  const after = await settle(gc);
  for (const m of mirrors) m.dispose();
  return { rss: (after.rss - before.rss) / n, heap: (after.heap - before.heap) / n };
}

/** VmRSS of a process, bytes. */
function rssOf(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return m ? Number(m[1]) * KB : 0;
}

export async function run(): Promise<BenchResult[]> {
  const gc = gcFn();
  const home = await fsp.mkdtemp(path.join(os.tmpdir(), "yard-pane-exit-bench-"));
  const { db } = await openDatabase(paths(home).db);
  const host = await PaneHostClient.open({ home, log: () => {} });
  const panes = new PaneManager({
    store: new PaneStore(db),
    journal: new EventJournal(new EventStore(db)),
    agents: new AgentProfiles(new ProfileStore(db)),
    home,
    url: () => "http://127.0.0.1:9",
    host,
  });
  await host.ready();
  try {
    const liveFull = await mirrorSize(gc, 5000 + ROWS);
    const liveShort = await mirrorSize(gc, PANE_LINES);
    const t0 = Date.now();
    await runPanes(panes, home, WARMUP);
    const warm = await settle(gc);
    const hostWarm = rssOf(host.hostPid);
    await runPanes(panes, home, PANES - WARMUP);
    const end = await settle(gc);
    const hostEnd = rssOf(host.hostPid);
    const seconds = (Date.now() - t0) / 1000;
    const live = (await panes.list({ liveOnly: true })).length;
    const screens = (await fsp.readdir(paths(home).screens).catch(() => [])).length;
    const perPaneHeap = (end.heap - warm.heap) / (PANES - WARMUP);
    const perPaneRss = (end.rss - warm.rss) / (PANES - WARMUP);
    const note = `${PANES} panes (${PANE_LINES} coloured lines each, ${CONCURRENCY} at a time, ${round(seconds, 1)} s), growth from pane ${WARMUP} to ${PANES} with GC forced; ${live} live, ${screens} final screens on disk; one exited pane's mirror if kept: ${round(liveShort.heap / KB, 0)} KB heap; pane host RSS ${round(hostWarm / KB / KB, 1)} -> ${round(hostEnd / KB / KB, 1)} MB (${round((hostEnd - hostWarm) / (PANES - WARMUP) / KB, 1)} KB/pane, no GC forced there)`;
    const heapRatio = perPaneHeap / liveFull.heap;
    const rssRatio = perPaneRss / Math.max(liveFull.rss, liveFull.heap);
    return [
      {
        name: "paneExit.heapGrowthPerPane",
        value: round(perPaneHeap / KB, 1),
        baseline: round(liveFull.heap / KB, 0),
        ratio: round(heapRatio, 4),
        unit: "KB/pane",
        target: `ratio <= ${TARGET}`,
        pass: heapRatio <= TARGET,
        note: `${note}; baseline: heapUsed+external of one live mirror at full scrollback (5000 lines x ${COLS} cols)`,
      },
      {
        name: "paneExit.rssGrowthPerPane",
        value: round(perPaneRss / KB, 1),
        baseline: round(Math.max(liveFull.rss, liveFull.heap) / KB, 0),
        ratio: round(rssRatio, 4),
        unit: "KB/pane",
        target: `ratio <= ${TARGET}`,
        pass: rssRatio <= TARGET,
        note: `RSS ${round(warm.rss / KB / KB, 1)} MB after ${WARMUP} panes, ${round(end.rss / KB / KB, 1)} MB after ${PANES}; baseline: RSS growth of one live mirror at full scrollback`,
      },
    ];
  } finally {
    await panes.shutdown();
    await db.$disconnect();
    await fsp.rm(home, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  run().then(
    (results) => {
      for (const r of results)
        console.log(
          `${r.pass ? "PASS" : "MISS"} ${r.name}: ${r.value} ${r.unit} vs ${r.baseline} ${r.unit} (ratio ${r.ratio}, target ${r.target})  [${r.note}]`,
        );
      process.exitCode = results.every((r) => r.pass) ? 0 : 1;
    },
    (e) => {
      console.error(e);
      process.exitCode = 2;
    },
  );
}
