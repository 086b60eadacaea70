// Live terminals over socket.io. Protocol (client → server, each with an ack callback):
//   pane:attach  {paneId}               → ack {ok, snapshot: {data, cols, rows}, pane} then live
//                                          `pane:output` {paneId, data}
//   pane:input   {paneId, data}         keystrokes (a person typing)
//   pane:resize  {paneId, cols, rows}
//   pane:detach  {paneId}
// Server → client: `pane:output`, `pane:resync` {paneId, snapshot} (after a slow viewer fell
// behind), `pane:lifecycle` {pane}, `pane:exit` {pane}.
// A slow viewer never stalls the PTY: its pending output is capped; past the cap it is dropped
// and the viewer is resynced from a fresh snapshot once its socket drains. A viewer whose output
// was dropped before it reached this server (the pane host's link fell behind) is resynced too.
// A pane another server process sharing the board runs is viewed, typed into and resized through
// that process (server/peers/: this socket's own links to it), the same protocol end to end.
import type { Ack as AckOf, PaneSnapshot } from "../wire/socket";
import { errorReply, parseSocketInput } from "./socket-input";
import type { PaneInfo } from "../core/panes/manager";
import type { PaneListener } from "../core/panes/registry";
import type { Services } from "../composition";
import type { YardSocket } from "./socket";

const FLUSH_MS = 16;
/** Pending output per viewer beyond which it is resynced instead of streamed. */
const MAX_PENDING_BYTES = 512 * 1024;
/** Packets queued on the socket beyond which we stop adding more. */
const MAX_QUEUED_PACKETS = 64;

type Reply<T> = (reply: AckOf<T>) => void;

interface Viewer {
  paneId: string;
  pending: string[];
  pendingBytes: number;
  stale: boolean;
  timer: NodeJS.Timeout | null;
  detach: () => void;
}

/** `proxy: false`: serve only this process's panes (a peer's socket: nothing is passed on again). */
export function wireTerminals(socket: YardSocket, services: Services, opts: { proxy?: boolean } = {}) {
  const viewers = new Map<string, Viewer>();
  const peers = opts.proxy === false ? null : services.peers.session();
  /** The session's links when another process may run the pane (one this process runs goes straight to it, in order). */
  const elsewhere = (paneId: string) => (peers && !services.panes.isLive(paneId) ? peers : null);
  /** The view of a pane: through its owner when another process runs it, else from this one. */
  const attachPane = async (paneId: string, listener: PaneListener) => {
    const remote = await peers?.attach(paneId, listener);
    return remote ? { ...remote, remote: true } : { ...(await services.panes.attach(paneId, listener)), remote: false };
  };
  const queued = () => (socket.conn as unknown as { writeBuffer?: unknown[] }).writeBuffer?.length ?? 0;

  const flush = (v: Viewer) => {
    v.timer = null;
    if (v.stale || v.pending.length === 0) return;
    if (queued() > MAX_QUEUED_PACKETS) {
      v.timer = setTimeout(() => flush(v), FLUSH_MS);
      return;
    }
    const data = v.pending.join("");
    v.pending = [];
    v.pendingBytes = 0;
    socket.emit("pane:output", { paneId: v.paneId, data });
  };

  const resync = async (v: Viewer) => {
    if (!viewers.has(v.paneId) || !v.stale) return;
    v.detach();
    try {
      const attached = await attachPane(v.paneId, listenerFor(v));
      v.detach = attached.detach;
      v.stale = false;
      v.pending = [];
      v.pendingBytes = 0;
      socket.emit("pane:resync", { paneId: v.paneId, snapshot: attached.snapshot, pane: attached.pane });
    } catch {
      /* pane gone: the exit event already told the viewer */
    }
  };

  const listenerFor = (v: Viewer) => ({
    output(data: string) {
      if (v.stale) return;
      v.pending.push(data);
      v.pendingBytes += data.length;
      if (v.pendingBytes > MAX_PENDING_BYTES) {
        v.stale = true;
        v.pending = [];
        v.pendingBytes = 0;
        return;
      }
      v.timer ??= setTimeout(() => flush(v), FLUSH_MS);
    },
    lifecycle(pane: PaneInfo) {
      socket.emit("pane:lifecycle", { pane });
    },
    exit(pane: PaneInfo) {
      if (v.timer) clearTimeout(v.timer);
      flush(v);
      socket.emit("pane:exit", { pane });
    },
    resync() {
      v.stale = true;
      v.pending = [];
      v.pendingBytes = 0;
      void resync(v);
    },
  });

  socket.conn.on("drain", () => {
    for (const v of viewers.values()) if (v.stale) void resync(v);
  });

  // Each attach or detach of a pane bumps its generation: an attach that finishes after a newer
  // attach or a detach is undone instead of registering a second listener.
  const generation = new Map<string, number>();
  const bump = (paneId: string) => {
    const g = (generation.get(paneId) ?? 0) + 1;
    generation.set(paneId, g);
    return g;
  };
  const drop = (paneId: string) => {
    const v = viewers.get(paneId);
    if (!v) return;
    v.detach();
    if (v.timer) clearTimeout(v.timer);
    viewers.delete(paneId);
  };

  socket.on("pane:attach", async (msg: unknown, ack?: Reply<{ snapshot: PaneSnapshot; pane: PaneInfo }>) => {
    const reply = typeof ack === "function" ? ack : () => {};
    try {
      const { paneId } = parseSocketInput("pane:attach", msg);
      const gen = bump(paneId);
      drop(paneId);
      const v: Viewer = { paneId, pending: [], pendingBytes: 0, stale: false, timer: null, detach: () => {} };
      const attached = await attachPane(paneId, listenerFor(v));
      if (generation.get(paneId) !== gen || !socket.connected) {
        attached.detach();
        return reply({
          ok: false,
          error: { code: "CONFLICT", message: "superseded by a newer attach or a detach", details: null },
        });
      }
      v.detach = attached.detach;
      viewers.set(paneId, v);
      // (The owner marks its own pane seen when this process attaches there.)
      if (!attached.remote && (attached.pane.lifecycle === "done" || attached.pane.lifecycle === "exited"))
        void services.panes.markSeen(paneId).catch(() => {});
      reply({ ok: true, snapshot: attached.snapshot, pane: attached.pane });
    } catch (e) {
      reply(errorReply(e));
    }
  });

  socket.on("pane:input", async (msg: unknown, ack?: Reply<object>) => {
    const reply = typeof ack === "function" ? ack : () => {};
    try {
      const { paneId, data } = parseSocketInput("pane:input", msg);
      if (!(await elsewhere(paneId)?.input(paneId, data))) await services.panes.sendKeys(paneId, data);
      reply({ ok: true });
    } catch (e) {
      reply(errorReply(e));
    }
  });

  socket.on("pane:resize", async (msg: unknown, ack?: Reply<{ pane: PaneInfo }>) => {
    const reply = typeof ack === "function" ? ack : () => {};
    try {
      const { paneId, cols, rows } = parseSocketInput("pane:resize", msg);
      const pane =
        (await elsewhere(paneId)?.resize(paneId, cols, rows)) ?? (await services.panes.resize(paneId, cols, rows));
      reply({ ok: true, pane });
    } catch (e) {
      reply(errorReply(e));
    }
  });

  socket.on("pane:detach", (msg: unknown) => {
    let paneId: string;
    try {
      ({ paneId } = parseSocketInput("pane:detach", msg));
    } catch {
      return;
    }
    bump(paneId);
    drop(paneId);
  });

  socket.on("disconnect", () => {
    for (const paneId of [...viewers.keys()]) drop(paneId);
    peers?.close();
  });
}
