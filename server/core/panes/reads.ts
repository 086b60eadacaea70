// Reads of a pane's terminal, and its live viewers. Screen, tail and delta reads and snapshots are
// asked of the host's live mirror while the pane runs, and served from its saved final screen
// (final-screen.ts) once it exited; flow counters come from the host. A viewer attaches with a
// snapshot plus a subscription whose first byte is the first byte not in it; this module fans
// the host's output out to viewers, passes its resyncs on, and tells them when the pane ended.
import { StringDecoder } from "node:string_decoder";
import type { z } from "zod";
import type { readInput, readReply } from "../../wire/panes";
import { YardError } from "../errors";
import type { FinalScreenStore } from "./final-screen";
import type { FlowStats, PaneHostPort } from "./host-port";
import type { TerminalMirror } from "./mirror";
import type { LivePane, PaneInfo, PaneListener, PaneRegistry, Subscriber } from "./registry";

export type ReadMode = z.output<typeof readInput>["mode"];
/** A read of a pane's rendered grid (server/wire/panes.ts). */
export type ReadReply = z.infer<typeof readReply>;

/** The host's answer for a pane that exited meanwhile (or that it no longer has). */
export const paneGone = (e: unknown) => e instanceof YardError && (e.code === "PANE_EXITED" || e.code === "NOT_FOUND");

type Snapshot = { data: string; cols: number; rows: number };

export class PaneReads {
  constructor(private readonly deps: { host: PaneHostPort; registry: PaneRegistry; screens: FinalScreenStore }) {}

  async read(
    id: string,
    opts: { mode?: ReadMode; lines?: number; cursor?: number; reader?: string },
  ): Promise<ReadReply> {
    const info = await this.deps.registry.info(id);
    const mode = opts.mode ?? "screen";
    if (this.deps.registry.has(id)) {
      try {
        const r = await this.deps.host.request("read", {
          paneId: id,
          mode,
          lines: opts.lines,
          cursor: opts.cursor,
          reader: opts.reader,
        });
        return { text: r.text, cursor: r.cursor, start: r.start, dropped: r.dropped, lifecycle: info.lifecycle };
      } catch (e) {
        if (!paneGone(e)) throw e; // exited meanwhile: its final screen is saved
      }
    }
    return this.withSaved(id, async (mirror) => {
      if (mode === "delta") {
        const d = await mirror.delta(opts.cursor ?? 0, opts.reader ? { reader: opts.reader } : undefined);
        return { text: d.text, cursor: d.cursor, start: d.start, dropped: d.dropped, lifecycle: info.lifecycle };
      }
      const r = mode === "tail" ? await mirror.tail(opts.lines ?? 50) : await mirror.screen();
      return { text: r.text, cursor: r.cursor, start: r.cursor, dropped: null, lifecycle: info.lifecycle };
    });
  }

  async snapshot(id: string): Promise<Snapshot> {
    if (this.deps.registry.has(id)) {
      try {
        return await this.deps.host.request("snapshot", { paneId: id });
      } catch (e) {
        if (!paneGone(e)) throw e;
      }
    }
    const saved = await this.deps.screens.load(id);
    if (!saved) throw this.noScreen(id);
    return { data: saved.data, cols: saved.cols, rows: saved.rows };
  }

  /** Backpressure counters of a pane (live from the host; for a pane being reported exited, as at its exit). */
  async flowStats(id: string): Promise<FlowStats | null> {
    const pane = this.deps.registry.find(id);
    if (!pane) return null;
    if (pane.exitStats) return pane.exitStats;
    return this.deps.host.request("stats", { paneId: id });
  }

  /**
   * A consistent start for a live viewer: the serialized screen, and a subscription whose first
   * output byte is the first byte not in that snapshot (the host tags output with its offset in
   * the pane's stream). Output that arrives while this completes is delivered right after it
   * returns, in order.
   */
  async attach(
    id: string,
    listener: PaneListener,
  ): Promise<{ snapshot: Snapshot; pane: PaneInfo; detach: () => void }> {
    const pane = this.deps.registry.find(id);
    if (!pane) {
      const info = await this.deps.registry.info(id);
      return {
        snapshot: await this.snapshot(id).catch(() => ({ data: "", cols: info.cols, rows: info.rows })),
        pane: info,
        detach: () => {},
      };
    }
    const sub: Subscriber = {
      listener,
      from: Number.POSITIVE_INFINITY,
      decoder: new StringDecoder("utf8"),
      buffer: [],
    };
    pane.subscribers.add(sub);
    const detach = () => {
      if (!pane.subscribers.delete(sub)) return;
      if (pane.subscribers.size === 0 && !pane.exiting)
        void this.deps.host.request("detach", { paneId: id }).catch(() => {});
    };
    let snapshot: Snapshot;
    try {
      const a = await this.deps.host.request("attach", { paneId: id });
      sub.from = a.offset;
      if (a.tail.length) sub.decoder.write(Buffer.from(a.tail)); // the start of a character the snapshot holds
      snapshot = { data: a.data, cols: a.cols, rows: a.rows };
    } catch (e) {
      if (!paneGone(e)) {
        detach();
        throw e;
      }
      // Exiting: its final screen is saved; the listener still gets the exit.
      snapshot = await this.snapshot(id).catch(() => ({ data: "", cols: pane.info.cols, rows: pane.info.rows }));
    }
    setImmediate(() => {
      if (pane.subscribers.has(sub)) deliverBuffered(sub);
      sub.buffer = null;
    });
    return { snapshot, pane: { ...pane.info }, detach };
  }

  /** Output the host sent for a pane the server attached to (`offset`: bytes of the pane before `data`). */
  output(id: string, offset: number, data: Buffer): void {
    const pane = this.deps.registry.find(id);
    if (!pane) return;
    for (const s of pane.subscribers) {
      if (s.buffer) s.buffer.push({ offset, data });
      else if (offset >= s.from) {
        const text = s.decoder.write(data);
        if (text) s.listener.output?.(text);
      }
    }
  }

  /** Output for the pane was dropped on the way: its viewers take a fresh snapshot. */
  resync(id: string): void {
    for (const s of this.deps.registry.find(id)?.subscribers ?? []) s.listener.resync?.();
  }

  private noScreen(id: string): YardError {
    return new YardError(
      "NOT_FOUND",
      `Pane ${id} has no screen (it did not run to its exit on this server's data dir)`,
      { paneId: id },
    );
  }

  /** Runs a read on the pane's saved final screen; a rebuilt mirror evicted under it is rebuilt once. */
  private async withSaved<T>(id: string, fn: (m: TerminalMirror) => Promise<T>): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      const mirror = await this.deps.screens.mirror(id);
      if (!mirror) throw this.noScreen(id);
      try {
        return await fn(mirror);
      } catch (e) {
        if (!mirror.isDisposed || attempt >= 2) throw e;
      }
    }
  }
}

/** Tells every viewer the pane ended (after any output still held for one that is attaching). */
export function notifyExit(pane: LivePane): void {
  for (const s of pane.subscribers) {
    deliverBuffered(s);
    s.listener.exit?.(pane.info);
  }
}

/** Hands a viewer the output that arrived while its attach was completing (from its offset on). */
function deliverBuffered(sub: Subscriber): void {
  if (!sub.buffer) return;
  const buffered = sub.buffer;
  sub.buffer = []; // still attaching: later output keeps queueing behind this
  for (const b of buffered) {
    if (b.offset < sub.from) continue;
    const text = sub.decoder.write(b.data);
    if (text) sub.listener.output?.(text);
  }
}
