// `npm start`: runs the server in the background, so no npm process is left behind as its parent
// (npm cannot exec a script; it stays as a ~55 MB wrapper for as long as the script runs). The
// launcher starts this same bundle without --background in a session of its own, its output
// appended to the data dir's logs/server.log; echoes that log until the server prints its login
// link (or exits: then the launcher fails with the server's exit code), and exits. Ctrl-C before
// then stops the server it started. A server already running for the data dir is reported, not
// started twice. `yard stop` (`npm stop`) stops it; `yard serve` runs the server in the foreground.
import { spawn } from "node:child_process";
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, readSync, renameSync, statSync } from "node:fs";
import path from "node:path";
import { paths } from "./config";
import { processAlive } from "./panehost/protocol";
// The CLI's certificate pinning (plain JavaScript, shared with `yard hook`): the launcher checks a running server as yard would.
import { pinnedTls } from "../cli/bin/tls-pin.mjs";

/** The log is rotated (to server.log.1) at a start that finds it bigger than this. */
const LOG_ROTATE_BYTES = 8 * 1024 * 1024;
const READY_LINE = /^Open this login link once in your browser: /;

const serverLog = (home: string) => path.join(home, "logs", "server.log");

/** The server recorded as running for the data dir (server.json with a live pid that answers its health check), or null. */
async function runningServer(home: string): Promise<{ url: string; pid: number } | null> {
  try {
    const info = JSON.parse(readFileSync(paths(home).server, "utf8")) as {
      url?: unknown;
      pid?: unknown;
      cert?: unknown;
    };
    if (typeof info.url !== "string" || typeof info.pid !== "number" || !processAlive(info.pid)) return null;
    // A pid can be reused after a crash: only a server that answers counts.
    const ok = await answersHealth(info.url, typeof info.cert === "string" ? info.cert : undefined);
    return ok ? { url: info.url, pid: info.pid } : null;
  } catch {
    return null; // none recorded, unreadable, or not answering: not running
  }
}

/** Whether GET url/api/health answers 200 within 2 s; over https trusting only the certificate `cert` names. */
async function answersHealth(url: string, cert: string | undefined): Promise<boolean> {
  if (!url.startsWith("https:")) return (await fetch(`${url}/api/health`, { signal: AbortSignal.timeout(2000) })).ok;
  const [{ default: https }, tls] = await Promise.all([import("node:https"), cert ? pinnedTls(cert) : {}]);
  return new Promise((resolve) => {
    const req = https.get(`${url}/api/health`, { ...tls, agent: false, timeout: 2000 }, (res) => {
      res.resume();
      resolve(res.statusCode === 200);
    });
    req.on("timeout", () => req.destroy());
    req.on("error", () => resolve(false));
  });
}

function loginLink(home: string, url: string): string | null {
  try {
    return `${url}/login?token=${encodeURIComponent(readFileSync(paths(home).token, "utf8").trim())}`;
  } catch {
    return null;
  }
}

function openLog(home: string): { file: string; fd: number; offset: number } {
  const file = serverLog(home);
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  if (existsSync(file) && statSync(file).size > LOG_ROTATE_BYTES) renameSync(file, `${file}.1`);
  const fd = openSync(file, "a", 0o600);
  return { file, fd, offset: statSync(file).size };
}

/** The environment the background server runs with: the caller's, without npm's per-script variables. */
function serverEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k))) as NodeJS.ProcessEnv;
}

/**
 * Starts `bundle args` detached and returns once it is serving (exit code 0), or with the
 * server's exit code when it stopped first. Writes progress to `out`.
 */
export async function runInBackground(opts: {
  home: string;
  bundle: string;
  args: string[];
  out?: (line: string) => void;
}): Promise<number> {
  const out = opts.out ?? ((l: string) => console.log(l));
  const running = await runningServer(opts.home);
  if (running) {
    out(`Switchyard is already running at ${running.url}  (pid ${running.pid}, data: ${opts.home})`);
    const link = loginLink(opts.home, running.url);
    if (link) out(`Open this login link once in your browser: ${link}`);
    out("Stop it with `npm stop` (or `yard stop`).");
    return 0;
  }
  const log = openLog(opts.home);
  const child = spawn(process.execPath, [...process.execArgv, opts.bundle, ...opts.args], {
    cwd: process.cwd(),
    env: serverEnv(),
    detached: true,
    stdio: ["ignore", log.fd, log.fd],
  });
  closeSync(log.fd);
  const exited = new Promise<number>((resolve) =>
    child.once("exit", (code, signal) => resolve(code ?? (signal ? 128 : 1))),
  );
  const onSigint = () => {
    out("switchyard: interrupted before the server was ready; stopping it");
    try {
      process.kill(child.pid!, "SIGTERM");
    } catch {
      /* already gone */
    }
  };
  process.once("SIGINT", onSigint);
  process.once("SIGTERM", onSigint);

  // Echo the server's log lines as they come until it is ready (or exits).
  const fd = openSync(log.file, "r");
  let offset = log.offset;
  let partial = "";
  const buf = Buffer.alloc(64 * 1024);
  const drain = (): boolean => {
    for (;;) {
      const n = readSync(fd, buf, 0, buf.length, offset);
      if (n <= 0) return false;
      offset += n;
      const lines = (partial + buf.toString("utf8", 0, n)).split("\n");
      partial = lines.pop()!;
      for (const line of lines) {
        out(line);
        if (READY_LINE.test(line)) return true;
      }
    }
  };
  const state: { code: number | null } = { code: null };
  void exited.then((c) => (state.code = c));
  try {
    for (;;) {
      if (drain()) break;
      if (state.code !== null) {
        drain();
        if (partial) out(partial);
        out(`switchyard: the server exited (code ${state.code}) before it was ready; its log: ${log.file}`);
        return state.code || 1;
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  } finally {
    closeSync(fd);
    process.off("SIGINT", onSigint);
    process.off("SIGTERM", onSigint);
  }
  child.unref();
  out(
    `It runs in the background (pid ${child.pid}; log: ${log.file}). Stop it with \`npm stop\` (or \`yard stop\`); \`yard serve\` runs it in the foreground.`,
  );
  return 0;
}
