// The hook relay: a Unix socket the pane host serves (run/hook.sock, 0600) where `yard hook` posts
// when the server is unreachable (a restart or an upgrade in progress), so no hook is lost. One
// request per connection, newline-delimited JSON: {paneId, token, event, payload} in, {ok: true}
// or {ok: false, error} out. The host checks the pane token against the pane it runs and queues
// the hook; it forwards it, in order, once a server is attached.
import { rmSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import { YardError } from "../core/errors";
import { ensurePrivateDir, listenPrivateSocket, toWireError } from "./protocol";

/** Longest request line: a hook payload is at most 300 KiB of stdin. */
const MAX_LINE = 512 * 1024;
const CONNECTION_MS = 5000;

export interface RelayedHook {
  paneId: string;
  token: string;
  event: string;
  payload: Record<string, unknown>;
}

/** Parses and checks one request line's shape (the host checks the token, the server the rest). */
export function parseRelayLine(line: string): RelayedHook {
  let v: unknown;
  try {
    v = JSON.parse(line);
  } catch {
    throw new YardError("BAD_PARAMS", "the hook relay takes one JSON object per line");
  }
  const o = (v ?? {}) as Record<string, unknown>;
  if (typeof o.paneId !== "string" || !/^pane[a-z0-9]{4,40}$/.test(o.paneId))
    throw new YardError("BAD_PARAMS", "paneId is not a pane id");
  if (typeof o.token !== "string" || o.token.length > 200) throw new YardError("UNAUTHORIZED", "no pane token");
  if (typeof o.event !== "string" || !/^[A-Za-z]{1,64}$/.test(o.event))
    throw new YardError("BAD_PARAMS", "event must be a hook event name");
  if (!o.payload || typeof o.payload !== "object" || Array.isArray(o.payload))
    throw new YardError("BAD_PARAMS", "payload must be a JSON object");
  return { paneId: o.paneId, token: o.token, event: o.event, payload: o.payload as Record<string, unknown> };
}

export async function listenHookRelay(file: string, accept: (hook: RelayedHook) => void): Promise<net.Server> {
  ensurePrivateDir(path.dirname(file));
  rmSync(file, { force: true }); // the host holds the data dir's host lock: a socket here is stale
  const server = net.createServer((socket) => {
    let buf = "";
    let done = false;
    socket.setEncoding("utf8");
    const timer = setTimeout(() => socket.destroy(), CONNECTION_MS);
    const answer = (reply: unknown) => {
      done = true;
      clearTimeout(timer);
      socket.end(`${JSON.stringify(reply)}\n`);
    };
    socket.on("data", (chunk: string) => {
      if (done) return;
      buf += chunk;
      const nl = buf.indexOf("\n");
      if (nl < 0) {
        if (buf.length > MAX_LINE)
          answer({ ok: false, error: toWireError(new YardError("PAYLOAD_TOO_LARGE", "hook too large")) });
        return;
      }
      try {
        accept(parseRelayLine(buf.slice(0, nl)));
        answer({ ok: true });
      } catch (e) {
        answer({ ok: false, error: toWireError(e) });
      }
    });
    socket.on("error", () => clearTimeout(timer));
  });
  await listenPrivateSocket(server, file);
  return server;
}
