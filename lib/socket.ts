// The browser's one socket.io connection (same origin, path /socket.io; the session cookie and the
// session key in the handshake's query authenticate it) and helpers on top of it:
//   attachPane(): a live terminal stream for one pane — snapshot, output, resyncs, lifecycle and
//                 exit — that re-attaches by itself after a reconnect (the fresh snapshot restores
//                 the screen);
//   subscribeEvents(): journal events by type glob, one server subscription per glob per socket
//                 however many components listen, re-subscribed after a reconnect from the last
//                 seen sequence number so nothing is missed;
//   onEventsLive(): told each time subscriptions start streaming (the first connection, every
//                 reconnect): data read before then may predate an event that was never sent
//                 to this page, so the cache refetches it.
// Protocol: the typed event maps in server/wire/socket.ts.
import { io, type Socket as RawSocket } from "socket.io-client";
import type { ClientToServerEvents, PaneSnapshot, ServerToClientEvents } from "../server/wire/socket";
import { globMatch } from "../server/wire/glob";
import { sessionQuery } from "./session";
import type { PaneInfo, YardEvent } from "./types";

export type { PaneInfo, PaneSnapshot, YardEvent };

/** The socket, typed by the event maps the server implements. */
type Socket = RawSocket<ServerToClientEvents, ClientToServerEvents>;

export interface SocketError {
  code: string;
  message: string;
  details?: Record<string, unknown> | null;
}

let socket: Socket | null = null;

function getSocket(): Socket {
  if (!socket) {
    socket = io({ path: "/socket.io", transports: ["websocket", "polling"], query: sessionQuery() });
    // For the end-to-end tests (they drop the connection to check the reconnect path).
    (window as unknown as { __yardSocket?: Socket }).__yardSocket = socket;
  }
  return socket;
}

/** Calls `cb(connected)` now and on every connect/disconnect; returns an unsubscribe. */
export function onConnectionChange(cb: (connected: boolean, error?: string) => void): () => void {
  const s = getSocket();
  const up = () => cb(true);
  const down = () => cb(false);
  const failed = (e: Error) => cb(false, e.message);
  s.on("connect", up);
  s.on("disconnect", down);
  s.on("connect_error", failed);
  cb(s.connected);
  return () => {
    s.off("connect", up);
    s.off("disconnect", down);
    s.off("connect_error", failed);
  };
}

// ---- terminals -------------------------------------------------------------------------

export interface PaneStreamHandlers {
  /** A full screen to show: reset the terminal, size it to cols×rows, write data. */
  snapshot(snapshot: PaneSnapshot, pane: PaneInfo, why: "attach" | "resync" | "reconnect"): void;
  output(data: string): void;
  lifecycle?(pane: PaneInfo): void;
  exit?(pane: PaneInfo): void;
  /** Attaching failed (unknown pane, not allowed, …). */
  error?(error: SocketError): void;
}

export interface PaneStream {
  input(data: string): void;
  resize(cols: number, rows: number): void;
  detach(): void;
}

/**
 * Attach and detach for one pane are sent one at a time (each waits for the previous attach's
 * answer): the server handles `pane:attach` asynchronously, and a detach or second attach that
 * overtook a pending one would leave a stale viewer behind on this socket.
 */
const paneOps = new Map<string, Promise<unknown>>();
function serialized(paneId: string, op: () => Promise<unknown>): void {
  const next = (paneOps.get(paneId) ?? Promise.resolve()).then(op, op);
  paneOps.set(paneId, next);
  void next.finally(() => {
    if (paneOps.get(paneId) === next) paneOps.delete(paneId);
  });
}

const ATTACH_TIMEOUT_MS = 15_000;

export function attachPane(paneId: string, h: PaneStreamHandlers): PaneStream {
  const s = getSocket();
  let closed = false;
  let attachedOnce = false;
  // While an attach is in flight, arriving output belongs to an earlier subscription and is
  // already part of the snapshot the attach returns: drop it.
  let attaching = 0;

  const attach = () => {
    if (closed) return;
    attaching++;
    serialized(
      paneId,
      () =>
        new Promise<void>((done) => {
          if (closed) {
            attaching--;
            return done();
          }
          const why = attachedOnce ? "reconnect" : "attach";
          s.timeout(ATTACH_TIMEOUT_MS).emit("pane:attach", { paneId }, (err, reply) => {
            done();
            attaching--;
            if (closed) return;
            // A timeout while disconnected: the next "connect" attaches again.
            if (err)
              return void (
                s.connected && h.error?.({ code: "TIMEOUT", message: "The server did not answer the attach request" })
              );
            if (!reply?.ok)
              return void h.error?.(reply?.error ?? { code: "INTERNAL", message: "No reply from the server" });
            attachedOnce = true;
            h.snapshot(reply.snapshot, reply.pane, why);
          });
        }),
    );
  };

  const onOutput = (m: { paneId: string; data: string }) => {
    if (closed || attaching || m?.paneId !== paneId) return;
    h.output(m.data);
  };
  const onResync = (m: { paneId: string; snapshot: PaneSnapshot; pane: PaneInfo }) => {
    if (closed || m?.paneId !== paneId) return;
    h.snapshot(m.snapshot, m.pane, "resync");
  };
  const onLifecycle = (m: { pane: PaneInfo }) => {
    if (!closed && m?.pane?.id === paneId) h.lifecycle?.(m.pane);
  };
  const onExit = (m: { pane: PaneInfo }) => {
    if (!closed && m?.pane?.id === paneId) h.exit?.(m.pane);
  };

  s.on("pane:output", onOutput);
  s.on("pane:resync", onResync);
  s.on("pane:lifecycle", onLifecycle);
  s.on("pane:exit", onExit);
  // "connect" fires for the first connection and after every reconnect: the server forgot this
  // socket's viewers, so attach again and repaint from the fresh snapshot.
  s.on("connect", attach);
  if (s.connected) attach();

  return {
    // Keystrokes and sizes are not queued while disconnected (socket.io would deliver them
    // late, after the reconnect): typing into a dead link does nothing, as in a real terminal.
    input(data) {
      if (!closed && s.connected) s.emit("pane:input", { paneId, data }, () => {});
    },
    resize(cols, rows) {
      // Errors (an exited pane, a size out of range) change nothing worth showing.
      if (!closed && s.connected) s.emit("pane:resize", { paneId, cols, rows }, () => {});
    },
    detach() {
      if (closed) return;
      closed = true;
      s.off("pane:output", onOutput);
      s.off("pane:resync", onResync);
      s.off("pane:lifecycle", onLifecycle);
      s.off("pane:exit", onExit);
      s.off("connect", attach);
      serialized(paneId, async () => {
        if (s.connected) s.emit("pane:detach", { paneId });
      });
    },
  };
}

// ---- journal events --------------------------------------------------------------------

type EventListener = (e: YardEvent) => void;

const globListeners = new Map<string, Set<EventListener>>();
const subscribedGlobs = new Set<string>();
let lastSeq: number | undefined;
const recentSeqs = new Set<number>();
let eventsWired = false;

const liveListeners = new Set<() => void>();
let liveTimer: ReturnType<typeof setTimeout> | null = null;

/** A subscription was acknowledged: streaming now. One call for a burst of acks (a connect subscribes every glob). */
function acked(reply: { ok: boolean }) {
  if (!reply.ok || liveTimer) return;
  liveTimer = setTimeout(() => {
    liveTimer = null;
    for (const l of liveListeners) l();
  }, 20);
}

function subscribe(s: Socket, glob: string) {
  s.emit("events:subscribe", { type: glob, since: lastSeq }, acked);
}

function wireEvents(s: Socket) {
  if (eventsWired) return;
  eventsWired = true;
  s.on("event", (e: YardEvent) => {
    // Overlapping globs (and replays after a reconnect) may deliver one event twice.
    if (recentSeqs.has(e.seq)) return;
    recentSeqs.add(e.seq);
    if (recentSeqs.size > 2000) recentSeqs.delete(recentSeqs.values().next().value!);
    lastSeq = Math.max(lastSeq ?? 0, e.seq);
    for (const [glob, listeners] of globListeners) {
      if (!globMatch(glob, e.type)) continue;
      for (const l of listeners) l(e);
    }
  });
  s.on("connect", () => {
    // A fresh connection has no subscriptions: ask again, replaying what was missed.
    for (const glob of subscribedGlobs) subscribe(s, glob);
  });
  s.on("disconnect", () => {
    // The server dropped the subscriptions with the socket; "connect" re-creates them.
  });
}

/**
 * Calls `listener` whenever event subscriptions are acknowledged (streaming from then on): after
 * the first connection and after every reconnect. What was read before may be stale.
 */
export function onEventsLive(listener: () => void): () => void {
  liveListeners.add(listener);
  return () => {
    liveListeners.delete(listener);
  };
}

/**
 * Calls `listener` for every journal event whose type matches `glob` (`pane.*`, `task.*`, `*`).
 * The server keeps a subscription until the socket closes, so each glob is subscribed once.
 */
export function subscribeEvents(glob: string, listener: EventListener): () => void {
  const s = getSocket();
  wireEvents(s);
  const set = globListeners.get(glob) ?? new Set<EventListener>();
  globListeners.set(glob, set);
  set.add(listener);
  if (!subscribedGlobs.has(glob)) {
    subscribedGlobs.add(glob);
    // Not connected yet: the "connect" handler subscribes every glob.
    if (s.connected) subscribe(s, glob);
  }
  return () => {
    set.delete(listener);
  };
}
