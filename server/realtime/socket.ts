// socket.io wiring at /socket.io: admits only authenticated handshakes from this server's own
// origin on a loopback Host, and pushes journal events to subscribed clients.
import type http from "node:http";
import { Server } from "socket.io";
import type { EventQuery } from "../core/events/journal";
import { authenticate, checkHost, checkSocketOrigin, type GuardConfig, type Principal } from "../security/guard";
import type { Services } from "../services";
import { wireTerminals } from "./terminals";

export interface Realtime {
  io: Server;
  close(): Promise<void>;
}

export function attachRealtime(server: http.Server, opts: { services: Services; guard: GuardConfig }): Realtime {
  const io = new Server(server, {
    path: "/socket.io",
    serveClient: false,
    maxHttpBufferSize: 1e6,
    allowRequest: (req, callback) => {
      const refusal =
        checkHost(req.headers.host, opts.guard) ??
        checkSocketOrigin(req.headers.origin, req.headers.host, req.headers["sec-fetch-site"] as string | undefined);
      if (refusal) return callback(refusal.message, false);
      const principal = authenticate({ authorization: req.headers.authorization, cookie: req.headers.cookie }, opts.guard);
      if (!principal || principal.kind !== "admin") return callback("UNAUTHORIZED", false);
      (req as http.IncomingMessage & { principal?: Principal }).principal = principal;
      callback(null, true);
    },
  });

  io.on("connection", (socket) => {
    wireTerminals(socket, opts.services);
    const unsubscribers: Array<() => void> = [];
    // `events:subscribe` {since?, type?, taskId?, paneId?}: replays from `since`, then streams live.
    socket.on("events:subscribe", async (q: EventQuery = {}) => {
      const query: EventQuery = {
        since: typeof q.since === "number" ? q.since : undefined,
        type: typeof q.type === "string" ? q.type : undefined,
        taskId: typeof q.taskId === "string" ? q.taskId : undefined,
        paneId: typeof q.paneId === "string" ? q.paneId : undefined,
      };
      let last = query.since ?? (await opts.services.journal.head());
      const pending: Parameters<Parameters<typeof opts.services.journal.subscribe>[0]>[0][] = [];
      let replaying = true;
      unsubscribers.push(
        opts.services.journal.subscribe((e) => {
          if (replaying) pending.push(e);
          else if (e.seq > last) {
            last = e.seq;
            socket.emit("event", e);
          }
        }, { ...query, since: undefined }),
      );
      if (query.since !== undefined) {
        for (const e of await opts.services.journal.list(query)) {
          last = Math.max(last, e.seq);
          socket.emit("event", e);
        }
      }
      replaying = false;
      for (const e of pending) if (e.seq > last) (last = e.seq), socket.emit("event", e);
    });
    socket.on("disconnect", () => unsubscribers.forEach((u) => u()));
  });

  return {
    io,
    // The HTTP server is closed by its owner; here only the sockets and the engine.
    close: async () => {
      io.disconnectSockets(true);
      io.engine.close();
    },
  };
}
