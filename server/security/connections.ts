// Connection admission at the socket level, before any byte is parsed: how many connections each
// listening socket (the TCP port, run/api.sock) and the server in total may hold, and what happens
// beyond that. A new connection over a cap takes the place of the oldest idle one on its own
// listener (one that has no request in progress: it has not finished sending its headers, or it is
// a keep-alive connection between requests), then of any listener's; when every connection is
// busy (a request being answered, a long poll, a live socket.io link) the new one is refused at
// once with a minimal 503. So clients that connect and stall can hold at most the caps, never the
// server's file descriptors, and a fresh request (a health check, a CLI call) always gets in.
// On an HTTPS port the caps count the TCP connections (TLS handshakes in progress included).
import type http from "node:http";
import type https from "node:https";
import type net from "node:net";

/** Defaults of YARD_MAX_CONNECTIONS (per listening socket) and YARD_MAX_CONNECTIONS_TOTAL. */
export const DEFAULT_MAX_CONNECTIONS = 512;
export const DEFAULT_MAX_CONNECTIONS_TOTAL = 768;

export interface ConnectionCaps {
  /** Most connections one listening socket holds. */
  perListener: number;
  /** Most connections all listening sockets hold together. */
  total: number;
}

const positive = (v: string | undefined, fallback: number) =>
  v !== undefined && /^\d+$/.test(v.trim()) && Number(v) >= 1 ? Number(v) : fallback;

export function connectionCapsFrom(env: Record<string, string | undefined> = process.env): ConnectionCaps {
  return {
    perListener: positive(env.YARD_MAX_CONNECTIONS, DEFAULT_MAX_CONNECTIONS),
    total: positive(env.YARD_MAX_CONNECTIONS_TOTAL, DEFAULT_MAX_CONNECTIONS_TOTAL),
  };
}

interface Conn {
  socket: net.Socket;
  listener: Listener;
  /** Requests in progress on it; or Infinity once upgraded (a WebSocket lives until it closes). */
  busy: number;
}

interface Listener {
  /** Insertion order is age order: the first idle entry is the oldest idle connection. */
  conns: Set<Conn>;
}

const REFUSED = "HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\nRetry-After: 1\r\nContent-Length: 0\r\n\r\n";

export class ConnectionLimiter {
  private readonly listeners: Listener[] = [];
  private readonly bySocket = new WeakMap<net.Socket, Conn>();
  private readonly counted = new WeakSet<http.IncomingMessage>();
  private total = 0;
  /** Connections refused (every held one was busy) and idle ones closed to make room. */
  readonly stats = { refused: 0, evicted: 0 };

  constructor(readonly caps: ConnectionCaps) {}

  get connections(): number {
    return this.total;
  }

  /** Applies the caps to every connection `server` accepts (call before it listens). */
  watch(server: http.Server | https.Server): void {
    const listener: Listener = { conns: new Set() };
    this.listeners.push(listener);
    server.on("connection", (socket: net.Socket) => this.admit(listener, socket));
    server.on("upgrade", (req: http.IncomingMessage) => {
      const conn = this.connOf(req.socket);
      if (conn) conn.busy = Infinity;
    });
    this.trackRequests(server);
  }

  /**
   * Counts `server`'s requests in progress, ahead of its other request listeners. Call it again
   * after something replaced them (socket.io does, and passes on only the requests not its own);
   * a request is counted once however many times this was called.
   */
  trackRequests(server: http.Server | https.Server): void {
    server.prependListener("request", (req: http.IncomingMessage, res: http.ServerResponse) => {
      if (this.counted.has(req)) return;
      this.counted.add(req);
      const conn = this.connOf(req.socket);
      if (!conn || conn.busy === Infinity) return;
      conn.busy++;
      res.once("close", () => {
        if (conn.busy !== Infinity) conn.busy--;
      });
    });
  }

  private admit(listener: Listener, socket: net.Socket): void {
    if (listener.conns.size >= this.caps.perListener || this.total >= this.caps.total) {
      const victim = this.oldestIdle(
        listener.conns.size >= this.caps.perListener
          ? [listener]
          : [listener, ...this.listeners.filter((l) => l !== listener)],
      );
      if (!victim) {
        this.stats.refused++;
        // Closed at once: the answer goes out only if the kernel takes it now, nothing waits for the peer.
        if (socket.writable) socket.write(REFUSED);
        socket.destroy();
        return;
      }
      this.stats.evicted++;
      this.drop(victim);
      victim.socket.destroy();
    }
    const conn: Conn = { socket, listener, busy: 0 };
    listener.conns.add(conn);
    this.bySocket.set(socket, conn);
    this.total++;
    socket.once("close", () => this.drop(conn));
  }

  /**
   * The connection a request came on. Over HTTPS the request's socket is the TLS socket wrapping
   * the TCP socket the `connection` event admitted (its `_parent`, which Node has long set).
   */
  private connOf(socket: net.Socket): Conn | undefined {
    const parent = (socket as { _parent?: net.Socket | null })._parent;
    return this.bySocket.get(socket) ?? (parent ? this.bySocket.get(parent) : undefined);
  }

  private oldestIdle(from: Listener[]): Conn | null {
    for (const l of from) for (const c of l.conns) if (c.busy === 0) return c;
    return null;
  }

  private drop(conn: Conn): void {
    if (!conn.listener.conns.delete(conn)) return;
    this.total--;
  }
}
