// socket.io wiring at /socket.io: admits only authenticated handshakes (the install token, or a
// browser session's cookie and key) from this server's own origin on a loopback Host, answering
// others with a typed 401/403 before engine.io opens anything; re-checks the credentials at every
// namespace connection and every event (a revoked browser session's sockets are closed at once),
// admits another server process sharing the board (its secret, no browser Origin) to the `/peer`
// namespace only (peer-namespace.ts),
// validates every payload with the shared socket contract, and pushes journal events to
// subscribed clients.
import http from "node:http";
import type https from "node:https";
import { Server, type Socket } from "socket.io";
import type { Ack, ClientToServerEvents, ServerToClientEvents } from "../wire/socket";
import { errorReply, parseSocketInput } from "./socket-input";
import { YardError } from "../core/errors";
import type { YardEvent } from "../core/events/journal";
import {
  authenticate,
  checkHost,
  checkSocketOrigin,
  type GuardConfig,
  keylessSession,
  type Refusal,
  requestHost,
} from "../security/guard";
import { SESSION_KEY_HEADER, SESSION_KEY_QUERY } from "../wire/session-key";
import { SessionStore } from "../security/sessions";
import type { Services } from "../composition";
import { wireTerminals } from "./terminals";
import { admitPeer, wirePeerNamespace } from "./peer-namespace";

type YardServer = Server<ClientToServerEvents, ServerToClientEvents, Record<string, never>, SocketData>;
export type YardSocket = Socket<ClientToServerEvents, ServerToClientEvents, Record<string, never>, SocketData>;

interface SocketData {
  /** The browser session the socket was opened with (absent for the install token). */
  session?: string;
  key?: string;
  /** Whose socket it is (a person's id), and the personal token it was opened with. */
  personId?: string;
  tokenId?: string;
}

export interface Realtime {
  io: YardServer;
  close(): Promise<void>;
}

type Admitted = { ok: true; session?: string; key?: string; personId: string; tokenId?: string };

/** The session key of a handshake: its header (non-browser clients) or its query (a browser's WebSocket cannot set headers). */
function handshakeKey(req: http.IncomingMessage): string | undefined {
  const h = req.headers[SESSION_KEY_HEADER];
  if (typeof h === "string" && h) return h;
  try {
    return new URL(req.url ?? "/", "http://localhost").searchParams.get(SESSION_KEY_QUERY) ?? undefined;
  } catch {
    return undefined;
  }
}

/**
 * Who the handshake's headers authenticate as: only the user (token, or a browser session with
 * its key) may connect: every socket event is the person's, so no pane token gets in
 * (tests/foundation.test.ts tries one).
 */
function admit(req: http.IncomingMessage, guard: GuardConfig): Admitted | Refusal {
  const host = requestHost(req.headers, guard);
  const refusal =
    checkHost(host, guard) ??
    checkSocketOrigin(req.headers.origin, host, req.headers["sec-fetch-site"] as string | undefined);
  if (refusal) return refusal;
  const credentials = {
    authorization: req.headers.authorization,
    cookie: req.headers.cookie,
    sessionKey: handshakeKey(req),
  };
  const principal = authenticate(credentials, guard);
  if (principal?.kind !== "person") {
    const message = keylessSession(credentials, guard)
      ? "This browser's session key is missing or stale: open the login link again"
      : "This board needs its login token";
    return { status: 401, code: "UNAUTHORIZED", message };
  }
  return {
    ok: true,
    session: principal.session,
    key: principal.session ? credentials.sessionKey : undefined,
    personId: principal.person.id,
    ...(principal.tokenId ? { tokenId: principal.tokenId } : {}),
  };
}

/** A refused handshake's answer, in the shape tRPC errors have (the status says it too). */
function refusalBody(r: Refusal): string {
  return JSON.stringify({
    error: {
      message: r.message,
      code: r.status === 401 ? -32001 : -32003,
      data: {
        code: r.code,
        httpStatus: r.status,
        yard: { code: r.code, message: r.message, details: null, retryable: false },
      },
    },
  });
}

/** Attaches socket.io, then (`url`: where this process listens) announces it to the others sharing its board. */
export async function attachRealtime(
  server: http.Server | https.Server,
  opts: { services: Services; guard: GuardConfig; sessions: SessionStore; url: string },
): Promise<Realtime> {
  const io: YardServer = new Server(server, {
    path: "/socket.io",
    serveClient: false,
    maxHttpBufferSize: 1e6,
    allowRequest: (req, callback) => {
      const a = admitPeer(req, opts.services.peers.presence) ?? admit(req, opts.guard);
      callback("ok" in a ? null : a.code, "ok" in a);
    },
  });

  // A handshake (no session id yet) is admitted here first, so a refused one gets its own status
  // (401 without credentials, 403 from a foreign origin) and engine.io opens nothing. Requests
  // that carry a session id belong to an admitted handshake.
  io.engine.use((req: http.IncomingMessage, res: http.ServerResponse, next: (err?: Error) => void) => {
    if (new URL(req.url ?? "/", "http://localhost").searchParams.get("sid")) return next();
    const a = admitPeer(req, opts.services.peers.presence) ?? admit(req, opts.guard);
    if ("ok" in a) return next();
    const body = refusalBody(a);
    const reason = a.status === 401 ? "Unauthorized" : a.status === 403 ? "Forbidden" : "Bad Request";
    if (res instanceof http.ServerResponse) {
      res.writeHead(a.status, { "content-type": "application/json; charset=utf-8", "cache-control": "no-store" });
      res.end(body);
    } else {
      // A WebSocket upgrade: answer on the raw socket and close it at once.
      const socket = req.socket;
      if (socket.writable)
        socket.write(
          `HTTP/1.1 ${a.status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
        );
      socket.destroy();
    }
    next(new Error(a.code));
  });

  // Every namespace connection is authenticated again, from the handshake's own headers.
  io.use((socket, next) => {
    const a = admit(socket.request, opts.guard);
    if (!("ok" in a)) return next(new Error(a.code));
    socket.data.session = a.session;
    socket.data.key = a.key;
    socket.data.personId = a.personId;
    socket.data.tokenId = a.tokenId;
    next();
  });

  const stopRevocations = opts.sessions.onRevoked((hash) => {
    for (const s of io.sockets.sockets.values())
      if (s.data.session && SessionStore.hash(s.data.session) === hash) s.disconnect(true);
  });
  // A person removed (every socket of theirs) or a token revoked (the sockets it opened) ends them at once.
  const stopPeopleRevocations = opts.services.people.onRevoked((personId, tokenId) => {
    for (const s of io.sockets.sockets.values())
      if (s.data.personId === personId && (tokenId === null || s.data.tokenId === tokenId)) s.disconnect(true);
  });

  // Other server processes sharing the board, on a namespace of their own (peer-namespace.ts).
  wirePeerNamespace(io, opts.services);

  io.on("connection", (socket) => {
    // A session revoked or expired since the handshake ends the socket at its next event.
    socket.use((_packet, next) => {
      if (socket.data.session && !opts.sessions.verify(socket.data.session, socket.data.key)) {
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
      if (unsubscribers.length >= 64)
        return reply(errorReply(new YardError("RATE_LIMITED", "A socket takes at most 64 event subscriptions")));
      // Subscribed first, the head read after: an event appended in between is held in `pending`
      // and sent below, never lost.
      // Events of other server processes on the same database come too, and may arrive out of
      // seq order (each process numbers its own appends from one sequence): sent once each.
      // Events of other server processes on the same database come too, and may arrive out of
      // seq order (each process numbers its appends from one shared sequence): each is sent once.
      const pending: YardEvent[] = [];
      let replaying = true;
      let floor = Number.POSITIVE_INFINITY; // live events at or below it came in the replay
      const sent = new Set<number>();
      const send = (e: YardEvent) => {
        if (e.seq <= floor || sent.has(e.seq)) return;
        sent.add(e.seq);
        if (sent.size > 2000) for (const s of [...sent].slice(0, 1000)) sent.delete(s);
        socket.emit("event", e);
      };
      unsubscribers.push(
        opts.services.journal.subscribe(
          (e) => {
            if (replaying) pending.push(e);
            else send(e);
          },
          { ...query, since: undefined },
          { otherProcesses: true },
        ),
      );
      const head = query.since ?? (await opts.services.journal.head());
      floor = head;
      if (query.since !== undefined) {
        for (const e of await opts.services.journal.list(query)) send(e); // all above `since`
      }
      replaying = false;
      for (const e of pending) send(e);
      reply({ ok: true, head });
    });
    socket.on("disconnect", () => {
      for (const u of unsubscribers) u();
    });
  });

  await opts.services.peers.presence.register(opts.url);
  return {
    io,
    // The HTTP server is closed by its owner; here only the sockets and the engine.
    close: async () => {
      stopRevocations();
      stopPeopleRevocations();
      io.disconnectSockets(true);
      io.engine.close();
    },
  };
}
