// Finds the server and its credentials: YARD_URL / YARD_TOKEN (set in every pane), else the
// data dir's server.json and token file, so `yard` works with zero configuration on the same
// machine. Inside a pane (YARD_PANE set) only the pane's own token is used: the CLI never falls
// back to the install token there, so a pane cannot act beyond its role by unsetting YARD_TOKEN.
// Builds the tRPC client (over node:http, see http.ts), over the Unix socket YARD_SOCKET when it is set (a sandboxed pane has
// no network). Inside a pane, a call made while the server restarts waits for it (up to
// YARD_RETRY_MS, default 20 s) instead of failing: the agent outlived the server.
import { readFileSync } from "node:fs";
import { createTRPCClient, httpLink } from "@trpc/client";
import type { AppRouter } from "../server/api/router";
import { paths, yardHome } from "../server/config";
import { YardError } from "../server/core/errors";
import { nodeFetch, retryWhileDown, socketFetch } from "./http";

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
}

export function resolveConnection(env: NodeJS.ProcessEnv = process.env): Connection {
  const home = yardHome(env);
  const p = paths(home);
  let url = env.YARD_URL?.trim();
  let token = env.YARD_TOKEN?.trim();
  if (env.YARD_PANE) {
    if (!url || !token) {
      throw new YardError("UNAUTHORIZED", `Inside a Switchyard pane (YARD_PANE=${env.YARD_PANE}) yard uses only the pane's own YARD_URL and YARD_TOKEN, and ${!url ? "YARD_URL" : "YARD_TOKEN"} is not set; the install token is never used inside a pane`, { pane: env.YARD_PANE });
    }
    const socket = env.YARD_SOCKET?.trim() || undefined;
    const retry = Number(env.YARD_RETRY_MS ?? 20_000);
    return { url: url.replace(/\/+$/, ""), token, source: "env", home, ...(socket ? { socket } : {}), retryMs: Number.isFinite(retry) && retry >= 0 ? retry : 20_000 };
  }
  const source = url && token ? "env" : "data-dir";
  if (!url) {
    try {
      url = (JSON.parse(readFileSync(p.server, "utf8")) as { url: string }).url;
    } catch {
      throw new YardError("SERVER_UNAVAILABLE", `Switchyard is not running for data dir ${home} (start it with \`npm start\` or \`yard serve\`, or set YARD_URL)`, { home });
    }
  }
  if (!token) {
    try {
      token = readFileSync(p.token, "utf8").trim();
    } catch {
      throw new YardError("UNAUTHORIZED", `No token: set YARD_TOKEN or run yard as the user who owns ${p.token}`, { home });
    }
  }
  const socket = env.YARD_SOCKET?.trim() || undefined;
  return { url: url.replace(/\/+$/, ""), token, source, home, ...(socket ? { socket } : {}) };
}

export function makeClient(conn: Connection) {
  return createTRPCClient<AppRouter>({
    links: [
      httpLink({
        url: `${conn.url}/api/trpc`,
        headers: () => ({ authorization: `Bearer ${conn.token}` }),
        fetch: withRetry(conn.socket ? socketFetch(conn.socket) : nodeFetch, conn.retryMs),
      }),
    ],
  });
}

export type YardClient = ReturnType<typeof makeClient>;

function withRetry<F extends Parameters<typeof retryWhileDown>[0]>(fetch: F, retryMs: number | undefined) {
  return retryMs ? retryWhileDown(fetch, retryMs) : fetch;
}
