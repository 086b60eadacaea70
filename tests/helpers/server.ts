// Test harness: runs the real server (server/main.ts) as a child process on a random port with a
// throwaway YARD_HOME, and the real `yard` CLI against it. The server leaves its agents running in
// the pane host when it stops (SIGTERM); dispose() stops that host too, so tests stay isolated.
import { type ChildProcess, execFile, execFileSync, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { processAlive } from "../../server/panehost/protocol";
import { seedHome } from "./db-template";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
export const YARD_BIN = path.join(ROOT, "cli/bin/yard.js");
/**
 * The server as users run it: its bundle (server/dist/main.mjs), rebuilt here first when a
 * source changed. One process: a signal to it reaches the server itself.
 */
const SERVER_BUNDLE = path.join(ROOT, "server/dist/main.mjs");
execFileSync(process.execPath, [path.join(ROOT, "scripts/build-server.mjs"), "--if-stale"], {
  cwd: ROOT,
  stdio: ["ignore", "ignore", "inherit"],
});
export const SERVER_ARGV = [SERVER_BUNDLE];
/** The pane host's bundle, built with the server's: tests that run services from source start it. */
export const HOST_BUNDLE = path.join(ROOT, "server/dist/panehost.mjs");

export interface TestServer {
  url: string;
  port: number;
  token: string;
  home: string;
  loginUrl: string;
  proc: ChildProcess;
  output(): string;
  /** SIGTERM and wait for exit (keeps the data dir; the agents keep running in the pane host). */
  stop(): Promise<number | null>;
  /** stop(), stop the pane host (ending its agents) and remove the data dir. */
  dispose(): Promise<void>;
}

let servers = 0;
/**
 * A block of 20 task ports of its own for each test server (YARD_PORT_RANGE): servers of parallel
 * test files all started from the default range, handed out the same first port, and a test
 * listening there to see its Preview link found it taken by another file's test. The blocks lie
 * in 20000-31999, below the kernel's ephemeral ports (32768 and up), so no outgoing connection or
 * `listen(0)` takes one; tests/repo-setup.test.ts keeps 19310-19339 for itself.
 */
function portBlock(): string {
  const first = 20_000 + ((process.pid * 31 + servers++) % 600) * 20;
  return `${first}-${first + 19}`;
}

export async function startTestServer(
  opts: { home?: string; ui?: boolean; env?: Record<string, string>; args?: string[] } = {},
): Promise<TestServer> {
  let home = opts.home;
  if (home === undefined) {
    home = mkdtempSync(path.join(os.tmpdir(), "yard-home-"));
    seedHome(home);
  }
  let out = "";
  const proc = spawn(process.execPath, [...SERVER_ARGV, "--port", "0", ...(opts.args ?? [])], {
    cwd: ROOT,
    env: {
      ...process.env,
      YARD_HOME: home,
      YARD_NO_UI: opts.ui ? "0" : "1",
      YARD_PORT_RANGE: portBlock(),
      YARD_URL: "",
      YARD_TOKEN: "",
      ...opts.env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  proc.stdout!.on("data", (d) => (out += d));
  proc.stderr!.on("data", (d) => (out += d));
  const exited = new Promise<number | null>((resolve) => proc.once("exit", (code) => resolve(code)));

  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start in 60 s:\n${out}`)), 60_000);
    const check = () => {
      const m = /running at (https?:\/\/\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    };
    proc.stdout!.on("data", check);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code} before starting:\n${out}`));
    });
  });
  const token = readFileSync(path.join(home, "token"), "utf8").trim();
  const stop = async () => {
    if (proc.exitCode === null && proc.signalCode === null) proc.kill("SIGTERM");
    return exited;
  };
  return {
    url,
    port: Number(new URL(url).port),
    token,
    home,
    loginUrl: `${url}/login?token=${encodeURIComponent(token)}`,
    proc,
    output: () => out,
    stop,
    dispose: async () => {
      await stop();
      await stopPaneHost(home);
      rmSync(home, { recursive: true, force: true });
    },
  };
}

/** The pid of the data dir's pane host from its pidfile, or null. */
export function paneHostPid(home: string): number | null {
  try {
    const pid = Number(readFileSync(path.join(home, "host/host.pid"), "utf8").trim());
    return pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

/** Running (a zombie nobody reaped does not count). */
export function isAlive(pid: number): boolean {
  return processAlive(pid);
}

/** SIGTERMs the data dir's pane host (it ends its agents) and waits for it to exit. */
export async function stopPaneHost(home: string, signal: NodeJS.Signals = "SIGTERM"): Promise<void> {
  const pid = paneHostPid(home);
  if (pid === null || !isAlive(pid)) return;
  process.kill(pid, signal);
  const deadline = Date.now() + 15_000;
  while (isAlive(pid)) {
    if (Date.now() > deadline) throw new Error(`pane host ${pid} did not exit`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
  json: any;
}

/** Runs the real `yard` CLI. By default it discovers the server from YARD_HOME (zero config). */
export function yard(
  server: Pick<TestServer, "home">,
  args: string[],
  opts: { env?: Record<string, string>; input?: string; cwd?: string } = {},
): Promise<CliResult> {
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      [YARD_BIN, ...args],
      {
        cwd: opts.cwd ?? ROOT,
        env: { ...process.env, YARD_HOME: server.home, YARD_URL: "", YARD_TOKEN: "", ...opts.env },
        timeout: 60_000,
        maxBuffer: 64 * 1024 * 1024,
      },
      (err, stdout, stderr) => {
        const code = err
          ? typeof (err as { code?: unknown }).code === "number"
            ? (err as { code: number }).code
            : 1
          : 0;
        let json: unknown;
        try {
          json = JSON.parse(stdout);
        } catch {
          json = undefined;
        }
        resolve({ code, stdout, stderr, json });
      },
    );
    if (opts.input !== undefined) child.stdin!.end(opts.input);
    else child.stdin!.end();
  });
}

/** `yard --json task start`'s arguments for a task of the demo agent (its prompt: `objective`). */
export function demoTaskArgs(o: { project: string; objective: string; title?: string }): string[] {
  return [
    "--json",
    "task",
    "start",
    "--project",
    o.project,
    "--agent",
    "demo",
    ...(o.title === undefined ? [] : ["--title", o.title]),
    "--objective",
    o.objective,
  ];
}

/** `yard --json task start` with the demo agent (its prompt: `objective`); fails the test unless yard accepted it. */
export async function startDemoTask(
  server: Pick<TestServer, "url" | "token" | "home">,
  o: { project: string; title: string; objective: string },
): Promise<{ task: { id: string; [k: string]: unknown } }> {
  const args = demoTaskArgs(o);
  const r = await yard(server, args);
  if (r.code !== 0) throw new Error(`yard ${args.join(" ")}\n${r.stdout}${r.stderr}`);
  return r.json;
}
