// socket.io wiring at /socket.io: admits only authenticated handshakes from this server's own
// origin on a loopback Host, re-checks the credentials at every namespace connection and every
// event (a revoked browser session's sockets are closed at once), validates every payload with
// the shared socket contract, and pushes journal events to subscribed clients.
import type http from "node:http";
import { Server, type Socket } from "socket.io";
import { type Ack, type ClientToServerEvents, errorReply, parseSocketInput, type ServerToClientEvents } from "../contracts/socket";
import { YardError } from "../core/errors";
import type { YardEvent } from "../core/events/journal";
import { authenticate, checkHost, checkSocketOrigin, type GuardConfig } from "../security/guard";
import { SessionStore } from "../security/sessions";
import type { Services } from "../services";
import { wireTerminals } from "./terminals";

export type YardServer = Server<ClientToServerEvents, ServerToClientEvents, Record<string, never>, SocketData>;
export type YardSocket = Socket<ClientToServerEvents, ServerToClientEvents, Record<string, never>, SocketData>;

interface SocketData {
  /** The browser session the socket was opened with (absent for the install token). */
  session?: string;
}

export interface Realtime {
  io: YardServer;
  close(): Promise<void>;
}

/**
 * Who the handshake's headers authenticate as: only the user (token or session) may connect;
 * every socket event is the person's (the gate table's SOCKET_GATES), so no pane token gets in.
 */
function admit(req: http.IncomingMessage, guard: GuardConfig): { ok: true; session?: string } | { ok: false; reason: string } {
  const refusal = checkHost(req.headers.host, guard) ?? checkSocketOrigin(req.headers.origin, req.headers.host, req.headers["sec-fetch-site"] as string | undefined);
  if (refusal) return { ok: false, reason: refusal.message };
  const principal = authenticate({ authorization: req.headers.authorization, cookie: req.headers.cookie }, guard);
  if (!principal || principal.kind !== "admin") return { ok: false, reason: "UNAUTHORIZED" };
  return { ok: true, session: principal.session };
}

export function attachRealtime(server: http.Server, opts: { services: Services; guard: GuardConfig; sessions: SessionStore }): Realtime {
  const io: YardServer = new Server(server, {
    path: "/socket.io",
    serveClient: false,
    maxHttpBufferSize: 1e6,
    allowRequest: (req, callback) => {
      const a = admit(req, opts.guard);
      callback(a.ok ? null : a.reason, a.ok);
    },
  });

  // Every namespace connection is authenticated again, from the handshake's own headers.
  io.use((socket, next) => {
    const a = admit(socket.request, opts.guard);
    if (!a.ok) return next(new Error(a.reason));
    socket.data.session = a.session;
    next();
  });

  const stopRevocations = opts.sessions.onRevoked((hash) => {
    for (const s of io.sockets.sockets.values()) if (s.data.session && SessionStore.hash(s.data.session) === hash) s.disconnect(true);
  });

  io.on("connection", (socket) => {
    // A session revoked or expired since the handshake ends the socket at its next event.
    socket.use((_packet, next) => {
      if (socket.data.session && !opts.sessions.verify(socket.data.session)) {
        socket.disconnect(true);
        return next(new Error("UNAUTHORIZED"));
      }
      next();
    });
    wireTerminals(socket, opts.services);
    const unsubscribers: Array<() => void> = [];
    // `events:subscribe` {since?, type?, taskId?, paneId?}: replays from `since`, then streams live.
    // The ack says from which seq on every matching event reaches this socket (`head`): a client
    // that read state before that moment refetches it, or it could miss an event that came between
    // its read and the subscription (a task page stuck on the state it loaded with).
    socket.on("events:subscribe", async (raw, ack?: (reply: Ack<{ head: number }>) => void) => {
      const reply = typeof ack === "function" ? ack : () => {};
      let query;
      try {
        query = parseSocketInput("events:subscribe", raw);
      } catch (e) {
        return reply(errorReply(e)); // a malformed subscription subscribes to nothing
      }
      if (unsubscribers.length >= 64) return reply(errorReply(new YardError("RATE_LIMITED", "A socket takes at most 64 event subscriptions")));
      // Subscribed first, the head read after: an event appended in between is held in `pending`
      // and sent below, never lost.
      const pending: YardEvent[] = [];
      let replaying = true;
      let last = -1;
      unsubscribers.push(
        opts.services.journal.subscribe((e) => {
          if (replaying) pending.push(e);
          else if (e.seq > last) {
            last = e.seq;
            socket.emit("event", e);
          }
        }, { ...query, since: undefined }),
      );
      last = query.since ?? (await opts.services.journal.head());
      const head = last;
      if (query.since !== undefined) {
        for (const e of await opts.services.journal.list(query)) {
          last = Math.max(last, e.seq);
          socket.emit("event", e);
        }
      }
      replaying = false;
      for (const e of pending) if (e.seq > last) (last = e.seq), socket.emit("event", e);
      reply({ ok: true, head });
    });
    socket.on("disconnect", () => unsubscribers.forEach((u) => u()));
  });

  return {
    io,
    // The HTTP server is closed by its owner; here only the sockets and the engine.
    close: async () => {
      stopRevocations();
      io.disconnectSockets(true);
      io.engine.close();
    },
  };
}
