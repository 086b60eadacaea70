// Finds the server and its credentials: YARD_URL / YARD_TOKEN (set in every pane), else the
// data dir's server.json and token file, so `yard` works with zero configuration on the same
// machine. Inside a pane only the pane's own token is used: the CLI never falls back to the
// install token there, so a pane cannot act beyond its role by unsetting YARD_TOKEN. "Inside a
// pane" is judged generously (paneMarkers): YARD_PANE present at all (even empty), any other
// variable the server gives only to panes (YARD_TASK, YARD_ROLE, YARD_PARENT_PANE, YARD_SOCKET,
// YARD_HOOK_SOCKET), or a working directory inside a Switchyard task worktree. YARD_TOKEN set
// means that token and no other, wherever yard runs.
// Builds the tRPC client (over node:http, see http.ts), over the Unix socket YARD_SOCKET when it is set (a sandboxed pane has
// no network). A board served over HTTPS is trusted by its own certificate only (bin/tls-pin.mjs):
// YARD_SERVER_CERT (set in every pane of such a board), else the file server.json names. Inside a pane, a call made while the server restarts waits for it (up to
// YARD_RETRY_MS, default 60 s) instead of failing: the agent outlived the server.
import { closeSync, lstatSync, openSync, readFileSync, readSync, realpathSync } from "node:fs";
import path from "node:path";
import { createTRPCClient, httpLink } from "@trpc/client";
import type { AppRouter } from "../server/api/router";
import { paths, yardHome } from "../server/config";
import { YardError } from "../server/core/errors";
import { nodeFetch, pinnedFetch, retryWhileDown, socketFetch } from "./http";

export interface Connection {
  url: string;
  token: string;
  /** Where the values came from, for `yard status`. */
  source: "env" | "data-dir";
  home: string;
  /** The server's API socket (YARD_SOCKET), used instead of TCP when set. */
  socket?: string;
  /** Inside a pane: how long a call waits for a server that is restarting (ms). */
  retryMs?: number;
  /** The PEM file of the certificate an https server must present (YARD_SERVER_CERT, or server.json's `cert`). */
  cert?: string;
}

/** Variables the server sets only in a pane's environment: any of them present means "a pane". */
const PANE_ONLY_VARIABLES = [
  "YARD_PANE",
  "YARD_TASK",
  "YARD_ROLE",
  "YARD_PARENT_PANE",
  "YARD_SOCKET",
  "YARD_HOOK_SOCKET",
] as const;

/**
 * Why this process looks like it runs inside a Switchyard pane (empty: it does not). A pane-ish
 * caller gets only YARD_URL and YARD_TOKEN, never the install token from the data dir.
 */
export function paneMarkers(env: NodeJS.ProcessEnv, cwd: string, home: string): string[] {
  const reasons: string[] = [];
  for (const name of PANE_ONLY_VARIABLES) {
    if (Object.hasOwn(env, name) && env[name] !== undefined)
      reasons.push(env[name] ? `${name}=${env[name]}` : `${name} is set (empty)`);
  }
  const worktree = taskWorktreeAt(cwd, home);
  if (worktree) reasons.push(worktree);
  return reasons;
}

/**
 * Whether `cwd` is inside a worktree Switchyard made for a task, and why, or null. Cheap (a few
 * stats and two small reads, no git process) and without the database:
 * - under `<YARD_HOME>/worktrees/`, where every task worktree goes unless its task named a path;
 * - or inside a linked git worktree (the nearest `.git` is a file `gitdir: <repo>/.git/worktrees/<name>`)
 *   whose HEAD is a branch under `yard/`, the branch every task gets unless it named one.
 * A task started with both an explicit --path and an explicit --branch is not recognised from its
 * directory; the pane's environment still is.
 */
function taskWorktreeAt(cwd: string, home: string): string | null {
  let dir: string;
  try {
    dir = realpathSync(cwd);
  } catch {
    return null;
  }
  const roots = new Set([path.join(home, "worktrees")]);
  try {
    roots.add(realpathSync(path.join(home, "worktrees")));
  } catch {
    // no worktrees yet
  }
  for (const root of roots)
    if (dir === root || dir.startsWith(root + path.sep))
      return `the working directory ${dir} is inside Switchyard's worktrees (${root})`;
  for (let d = dir, i = 0; i < 128; i++) {
    let st;
    try {
      st = lstatSync(path.join(d, ".git"));
    } catch {
      st = null;
    }
    if (st) {
      if (!st.isFile()) return null; // a repository's main worktree (or no worktree at all)
      const gitdir = /^gitdir: (.+)$/m.exec(readHead(path.join(d, ".git")))?.[1]?.trim();
      if (!gitdir) return null;
      const admin = path.resolve(d, gitdir);
      if (path.basename(path.dirname(admin)) !== "worktrees") return null; // a submodule, not a linked worktree
      const branch = /^ref: refs\/heads\/(yard\/\S+)/.exec(readHead(path.join(admin, "HEAD")))?.[1];
      return branch ? `the working directory is inside ${d}, a git worktree on the task branch ${branch}` : null;
    }
    const up = path.dirname(d);
    if (up === d) return null;
    d = up;
  }
  return null;
}

/** The first 4 KiB of a small file (a .git file or a HEAD), "" when unreadable. */
function readHead(file: string): string {
  let fd: number | undefined;
  try {
    fd = openSync(file, "r");
    const buf = Buffer.alloc(4096);
    return buf.toString("utf8", 0, readSync(fd, buf, 0, buf.length, 0));
  } catch {
    return "";
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

export function resolveConnection(env: NodeJS.ProcessEnv = process.env, cwd: string = safeCwd()): Connection {
  const home = yardHome(env);
  const p = paths(home);
  let url = env.YARD_URL?.trim();
  let token = env.YARD_TOKEN?.trim();
  const socket = env.YARD_SOCKET?.trim() || undefined;
  let cert = env.YARD_SERVER_CERT?.trim() || undefined;
  const retry = Number(env.YARD_RETRY_MS ?? 60_000);
  const retryMs = env.YARD_PANE ? (Number.isFinite(retry) && retry >= 0 ? retry : 60_000) : undefined;
  if (url && token)
    return {
      url: url.replace(/\/+$/, ""),
      token,
      source: "env",
      home,
      ...(socket ? { socket } : {}),
      ...(retryMs !== undefined ? { retryMs } : {}),
      ...(cert ? { cert } : {}),
    };
  const markers = paneMarkers(env, cwd, home);
  if (markers.length) {
    const missing = [!url ? "YARD_URL" : "", !token ? "YARD_TOKEN" : ""].filter(Boolean).join(" and ");
    throw new YardError(
      "UNAUTHORIZED",
      `This looks like a Switchyard pane (${markers.join("; ")}), where yard uses only the pane's own YARD_URL and YARD_TOKEN, and ${missing} ${missing.includes(" and ") ? "are" : "is"} not set; the install token is never used inside a pane. Run yard from outside the task's worktree and environment, or set YARD_URL and YARD_TOKEN`,
      { pane: env.YARD_PANE ?? null, markers },
    );
  }
  const source = url && token ? "env" : "data-dir";
  if (!url) {
    try {
      const running = JSON.parse(readFileSync(p.server, "utf8")) as { url: string; cert?: unknown };
      url = running.url;
      if (!cert && typeof running.cert === "string") cert = running.cert;
    } catch {
      throw new YardError(
        "SERVER_UNAVAILABLE",
        `Switchyard is not running for data dir ${home} (start it with \`npm start\` or \`yard serve\`, or set YARD_URL)`,
        { home },
      );
    }
  }
  // YARD_TOKEN set: that token and no other (only the server's address comes from the data dir).
  if (!token) {
    try {
      token = readFileSync(p.token, "utf8").trim();
    } catch {
      throw new YardError("UNAUTHORIZED", `No token: set YARD_TOKEN or run yard as the user who owns ${p.token}`, {
        home,
      });
    }
  }
  return {
    url: url.replace(/\/+$/, ""),
    token,
    source,
    home,
    ...(socket ? { socket } : {}),
    ...(cert ? { cert } : {}),
  };
}

function safeCwd(): string {
  try {
    return process.cwd();
  } catch {
    return "/"; // the directory was removed under us: nothing to recognise
  }
}

export function makeClient(conn: Connection) {
  return createTRPCClient<AppRouter>({
    links: [
      httpLink({
        url: `${conn.url}/api/trpc`,
        headers: () => ({ authorization: `Bearer ${conn.token}` }),
        fetch: withRetry(conn.socket ? socketFetch(conn.socket) : tcpFetch(conn), conn.retryMs),
      }),
    ],
  });
}

/** For an https board with a certificate to pin, a fetch that trusts only that; else node:http(s). */
const tcpFetch = (conn: Connection) =>
  conn.cert && conn.url.startsWith("https:") ? pinnedFetch(conn.cert) : nodeFetch;

export type YardClient = ReturnType<typeof makeClient>;

function withRetry<F extends Parameters<typeof retryWhileDown>[0]>(fetch: F, retryMs: number | undefined) {
  return retryMs ? retryWhileDown(fetch, retryMs) : fetch;
}
