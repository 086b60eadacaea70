// Board launch benchmark: a warm start of the real server (UI already built, database already
// migrated, the pane host already running from the previous start) until the board page answers
// 200 to a logged-in browser, and the idle RSS of every process it leaves running (the server, its
// children and the pane host), against Next.js's own production server (`next start` of
// the same build, serving the same page) measured in the same run.
// Targets (absolute, this machine): launch ≤ 1500 ms; idle RSS ≤ 250 MB. The ratios to `next
// start` are printed for context.
// Run standalone: npx tsx bench/launch.bench.ts
import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { ensureUiBuilt } from "../scripts/build-ui";
import { ROOT, SERVER_ARGV } from "../tests/helpers/server";
import { median } from "./stats";
import type { BenchResult } from "./types";

const RUNS = 5;

function get(
  port: number,
  pathname: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: http.IncomingHttpHeaders }> {
  return new Promise((resolve) => {
    const req = http.get({ host: "127.0.0.1", port, path: pathname, headers }, (res) => {
      res.resume();
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers }));
    });
    req.on("error", () => resolve({ status: 0, headers: {} }));
  });
}

async function freePort(): Promise<number> {
  const net = await import("node:net");
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, "127.0.0.1", () => {
      const p = (s.address() as import("node:net").AddressInfo).port;
      s.close(() => resolve(p));
    });
  });
}

/** The pane host's pid for a data dir (it outlives the server that started it), or null. */
function hostPid(home: string): number | null {
  try {
    const pid = Number(readFileSync(path.join(home, "host", "host.pid"), "utf8").trim());
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

/** RSS (KB) of `pids` and all their descendants, each process counted once. */
function treeRssKb(...pids: number[]): number {
  const rows = execFileSync("ps", ["-e", "-o", "pid=,ppid=,rss="], { encoding: "utf8" })
    .trim()
    .split("\n")
    .map((l) => l.trim().split(/\s+/).map(Number) as [number, number, number]);
  const children = new Map<number, number[]>();
  for (const [p, pp] of rows) children.set(pp, [...(children.get(pp) ?? []), p]);
  const rss = new Map(rows.map(([p, , r]) => [p, r]));
  let total = 0;
  const seen = new Set<number>();
  const stack = [...pids];
  while (stack.length) {
    const p = stack.pop()!;
    if (seen.has(p)) continue;
    seen.add(p);
    total += rss.get(p) ?? 0;
    stack.push(...(children.get(p) ?? []));
  }
  return total;
}

async function launch(
  argv: string[],
  env: NodeJS.ProcessEnv,
  ready: (port: number) => Promise<boolean>,
  port: number,
  also: () => number | null = () => null,
): Promise<{ ms: number; rssMb: number }> {
  const t0 = performance.now();
  const child = spawn(process.execPath, argv, { cwd: ROOT, env, stdio: "ignore" });
  try {
    for (;;) {
      if (await ready(port)) break;
      if (child.exitCode !== null) throw new Error(`${argv.join(" ")} exited with ${child.exitCode}`);
      await new Promise((r) => setTimeout(r, 20));
    }
    const ms = performance.now() - t0;
    await new Promise((r) => setTimeout(r, 2000)); // idle
    const extra = also();
    return { ms, rssMb: treeRssKb(child.pid!, ...(extra ? [extra] : [])) / 1024 };
  } finally {
    child.kill("SIGTERM");
    await new Promise((r) => child.once("exit", r));
  }
}

export async function run(): Promise<BenchResult[]> {
  await ensureUiBuilt(() => {});
  const home = mkdtempSync(path.join(os.tmpdir(), "yard-bench-launch-"));
  try {
    const ours: { ms: number; rssMb: number }[] = [];
    const theirs: { ms: number; rssMb: number }[] = [];
    for (let i = 0; i <= RUNS; i++) {
      const port = await freePort();
      const env = { ...process.env, YARD_HOME: home, PORT: String(port), YARD_URL: "", YARD_TOKEN: "" };
      const ourReady = async (p: number) => {
        let token: string;
        try {
          token = readFileSync(path.join(home, "token"), "utf8").trim();
        } catch {
          return false;
        }
        const login = await get(p, `/login?token=${encodeURIComponent(token)}`);
        if (login.status !== 200) return false;
        const cookie = String(login.headers["set-cookie"]).split(";")[0]!;
        return (await get(p, "/", { cookie, accept: "text/html" })).status === 200;
      };
      // The server's own processes and the pane host (started by the first run, reused after).
      const a = await launch([...SERVER_ARGV, "--port", String(port)], env, ourReady, port, () => hostPid(home));
      const nextPort = await freePort();
      const b = await launch(
        [path.join(ROOT, "node_modules/next/dist/bin/next"), "start", "-p", String(nextPort), "-H", "127.0.0.1"],
        { ...process.env, NODE_ENV: "production", NEXT_TELEMETRY_DISABLED: "1" },
        async (p) => (await get(p, "/")).status === 200,
        nextPort,
      );
      if (i === 0) continue; // the first start migrates a fresh database: not a warm start
      ours.push(a);
      theirs.push(b);
    }
    const ms = median(ours.map((r) => r.ms));
    const msNext = median(theirs.map((r) => r.ms));
    const rss = median(ours.map((r) => r.rssMb));
    const rssNext = median(theirs.map((r) => r.rssMb));
    return [
      {
        name: "warm launch to board ready (vs next start of the same build)",
        value: ms,
        baseline: msNext,
        ratio: ms / msNext,
        unit: "ms",
        target: "≤ 1500 ms",
        pass: ms <= 1500,
      },
      {
        name: "idle RSS of everything the start leaves running (vs next start)",
        value: rss,
        baseline: rssNext,
        ratio: rss / rssNext,
        unit: "MB",
        target: "≤ 250 MB",
        pass: rss <= 250,
      },
    ];
  } finally {
    const pid = hostPid(home);
    if (pid) {
      try {
        process.kill(pid, "SIGTERM");
      } catch {
        /* already gone */
      }
    }
    rmSync(home, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const r of await run()) console.log(r);
}
