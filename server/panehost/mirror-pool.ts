// The pane host's mirror workers: a pool of up to `size` worker threads (mirror-worker.ts),
// started on demand — the first when the first pane is created, another for each new pane while
// every worker already holds one, up to `size` — and stopped once they have held no pane for
// RETIRE_MS, so an idle host carries no worker (each costs ~28 MB RSS). A host keeps running the
// worker code it was started with even if the checkout changes under it: the bundle's text is read
// at start, and a worker started later from a bundle that changed since runs a copy of that text. Each pane's mirror lives in
// one worker, the least loaded at spawn. Owns the pane -> worker assignment, handing output over
// (coalesced per pane into one message per WRITE_WINDOW_MS, buffers transferred, in order with
// resizes and requests), request ids, and replacing a worker that died (its panes get fresh mirrors
// and a fault).
import { createHash } from "node:crypto";
import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import { YardError } from "../core/errors";
import { fromWireError } from "./protocol";
import type { WorkerIn, WorkerOut } from "./worker-messages";

/** Bundled (server/dist/panehost.mjs): the worker's own bundle; from source: a boot file that registers tsx first. */
const BOOT = import.meta.url.endsWith(".mjs")
  ? new URL("./mirror-worker.mjs", import.meta.url)
  : new URL("./worker-boot.mjs", import.meta.url);

export interface PoolEvents {
  /** Total bytes of the pane parsed so far. */
  parsed(paneId: string, total: number): void;
  fault(paneId: string, error: { message: string; name: string; count: number }): void;
}

interface Slot {
  worker: Worker;
  panes: Set<string>;
  /** Set while the worker holds no pane: it is stopped when this fires (see RETIRE_MS). */
  retireTimer: NodeJS.Timeout | null;
  retired: boolean;
}

/** A worker that has held no pane for this long is stopped (the next pane starts one again). */
const RETIRE_MS = 30_000;
/**
 * A pane's output goes to its worker at most once per this window: bytes that arrive sooner after
 * the last message wait and go together. Each message wakes the worker and its progress report
 * wakes the host's main thread; on a busy machine the PTY reader and the worker otherwise trade
 * thousands of small messages per 20 MB. Output after a quiet spell goes at once.
 */
const WRITE_WINDOW_MS = 4;
/** ...unless this much is waiting: it goes at once, so a worker with a backlog is never starved. */
const WRITE_BATCH_MAX = 256 * 1024;

/** A pane's output not yet handed to its worker. */
interface HeldWrites {
  chunks: (ArrayBuffer | Uint8Array)[];
  bytes: number;
  /** performance.now() of the last write message. */
  lastPost: number;
  timer: NodeJS.Timeout | null;
}

interface MirrorSpec {
  cols: number;
  rows: number;
  scrollback: number;
}

export class MirrorPool {
  private readonly slots: Slot[] = [];
  private readonly where = new Map<string, Slot>();
  private readonly specs = new Map<string, MirrorSpec>();
  private readonly held = new Map<string, HeldWrites>();
  private readonly pending = new Map<
    number,
    { slot: Slot; resolve: (v: unknown) => void; reject: (e: Error) => void }
  >();
  private nextRid = 1;
  private closing = false;
  /** Bundled: the worker bundle's text when the host started (null from source). */
  private code: string | null = null;

  constructor(
    private readonly opts: { size: number; screens: string; log: (line: string) => void },
    private readonly events: PoolEvents,
  ) {}

  /** Takes the worker code the host will run; workers themselves start with the first panes. */
  async start(): Promise<void> {
    if (BOOT.pathname.endsWith("/mirror-worker.mjs")) this.code = readFileSync(BOOT, "utf8");
  }

  /** The worker's entry: the bundle on disk while it is the one the host started with, else a copy of that one beside it. */
  private entry(): URL {
    if (this.code === null) return BOOT;
    try {
      if (readFileSync(BOOT, "utf8") === this.code) return BOOT;
    } catch {
      /* removed: use the copy */
    }
    const copy = new URL(
      `./.mirror-worker-${createHash("sha256").update(this.code).digest("hex").slice(0, 16)}.mjs`,
      BOOT,
    );
    if (!existsSync(copy)) {
      const tmp = `${fileURLToPath(copy)}.${process.pid}.tmp`;
      writeFileSync(tmp, this.code);
      renameSync(tmp, copy);
    }
    this.opts.log(
      `the mirror worker bundle changed since this host started; new workers run the copy ${fileURLToPath(copy)}`,
    );
    return copy;
  }

  private addSlot(): Promise<Slot> {
    const worker = new Worker(this.entry(), { workerData: { screens: this.opts.screens } });
    const slot: Slot = { worker, panes: new Set(), retireTimer: null, retired: false };
    this.slots.push(slot);
    worker.on("message", (m: WorkerOut) => this.onMessage(m));
    worker.on("error", (e) => this.opts.log(`mirror worker error: ${e.stack ?? e.message}`));
    worker.on("exit", (code) => {
      if (!this.closing && !slot.retired) this.replace(slot, code);
    });
    return new Promise((resolve, reject) => {
      worker.once("online", () => resolve(slot));
      worker.once("error", reject);
    });
  }

  /** A worker died (a bug): its panes get fresh, empty mirrors in a new worker, and a fault each. */
  private replace(dead: Slot, code: number): void {
    this.opts.log(
      `mirror worker exited with code ${code}; replacing it (${dead.panes.size} panes lose their screen history)`,
    );
    this.slots.splice(this.slots.indexOf(dead), 1);
    for (const [rid, p] of this.pending) {
      if (p.slot !== dead) continue;
      this.pending.delete(rid);
      p.reject(new YardError("INTERNAL", "the pane's mirror worker died"));
    }
    void this.addSlot().then((slot) => {
      for (const id of dead.panes) {
        const spec = this.specs.get(id);
        if (!spec) continue;
        this.where.set(id, slot);
        slot.panes.add(id);
        this.post(slot, { t: "create", id, ...spec });
        this.events.fault(id, { message: `mirror worker exited with code ${code}`, name: "WorkerExit", count: 1 });
      }
    });
  }

  private onMessage(m: WorkerOut): void {
    switch (m.t) {
      case "parsed":
        for (const [id, total] of m.list) this.events.parsed(id, total);
        return;
      case "fault":
        this.events.fault(m.id, { message: m.message, name: m.name, count: m.count });
        return;
      case "res": {
        const p = this.pending.get(m.rid);
        if (!p) return;
        this.pending.delete(m.rid);
        if (m.ok) p.resolve(m.result);
        else p.reject(fromWireError(m.error));
      }
    }
  }

  private post(slot: Slot, m: WorkerIn, transfer?: ArrayBuffer[]): void {
    slot.worker.postMessage(m, transfer);
  }

  private slotOf(id: string): Slot {
    const slot = this.where.get(id);
    if (!slot) throw new YardError("PANE_EXITED", `Pane ${id} has no mirror`, { paneId: id });
    return slot;
  }

  create(id: string, spec: MirrorSpec): void {
    let best: Slot | undefined = this.slots[0];
    for (const s of this.slots) if (s.panes.size < best!.panes.size) best = s;
    if (!best || (best.panes.size > 0 && this.slots.length < Math.max(1, this.opts.size))) {
      // Messages posted before the new worker is online wait in its port.
      const starting = this.addSlot();
      starting.catch((e: Error) => this.opts.log(`mirror worker failed to start: ${e.stack ?? e.message}`));
      best = this.slots[this.slots.length - 1]!;
    }
    if (best.retireTimer) clearTimeout(best.retireTimer);
    best.retireTimer = null;
    best.panes.add(id);
    this.where.set(id, best);
    this.specs.set(id, spec);
    this.post(best, { t: "create", id, ...spec });
  }

  /**
   * Hands output of the pane to its worker, in order with everything else sent for the pane. The
   * caller gives `data` up: it must not change or reuse it (a whole ArrayBuffer may be transferred
   * as it is). Output that follows the last message within WRITE_WINDOW_MS waits for the window's
   * end and goes with the rest in one message; a resize or request of the pane sends it first.
   */
  write(id: string, data: ArrayBuffer | Uint8Array): void {
    if (!this.where.has(id) || data.byteLength === 0) return;
    let h = this.held.get(id);
    if (!h) {
      h = { chunks: [], bytes: 0, lastPost: Number.NEGATIVE_INFINITY, timer: null };
      this.held.set(id, h);
    }
    h.chunks.push(data);
    h.bytes += data.byteLength;
    if (h.timer && h.bytes < WRITE_BATCH_MAX) return;
    const wait = h.lastPost + WRITE_WINDOW_MS - performance.now();
    if (wait <= 0 || h.bytes >= WRITE_BATCH_MAX) this.sendHeld(id, h);
    else h.timer = setTimeout(() => this.sendHeld(id, h), wait);
  }

  /** Sends the pane's held output now: its ArrayBuffers transferred as they are, views copied into one. */
  private sendHeld(id: string, h = this.held.get(id)): void {
    if (!h) return;
    if (h.timer) clearTimeout(h.timer);
    h.timer = null;
    if (h.bytes === 0) return;
    let data: ArrayBuffer[];
    if (h.chunks.every((c) => c instanceof ArrayBuffer)) data = h.chunks as ArrayBuffer[];
    else {
      const joined = new Uint8Array(h.bytes);
      let off = 0;
      for (const c of h.chunks) {
        joined.set(c instanceof ArrayBuffer ? new Uint8Array(c) : c, off);
        off += c.byteLength;
      }
      data = [joined.buffer];
    }
    h.chunks = [];
    h.bytes = 0;
    h.lastPost = performance.now();
    const slot = this.where.get(id);
    if (slot) this.post(slot, { t: "write", id, data }, data);
  }

  resize(id: string, cols: number, rows: number): void {
    this.sendHeld(id);
    const spec = this.specs.get(id);
    if (spec) Object.assign(spec, { cols, rows });
    this.post(this.slotOf(id), { t: "resize", id, cols, rows });
  }

  request<T>(id: string, op: Extract<WorkerIn, { t: "req" }>["op"], args: Record<string, unknown> = {}): Promise<T> {
    let slot: Slot;
    try {
      slot = this.slotOf(id);
    } catch (e) {
      return Promise.reject(e);
    }
    this.sendHeld(id);
    const rid = this.nextRid++;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(rid, { slot, resolve: resolve as (v: unknown) => void, reject });
      this.post(slot, { t: "req", rid, id, op, args });
    });
  }

  /** Mirrors the workers hold right now (asked of each worker). */
  async mirrorCount(): Promise<number> {
    const counts = await Promise.all(
      this.slots.map(
        (slot) =>
          new Promise<number>((resolve, reject) => {
            const rid = this.nextRid++;
            this.pending.set(rid, { slot, resolve: (v) => resolve((v as { mirrors: number }).mirrors), reject });
            this.post(slot, { t: "req", rid, id: "", op: "count", args: {} });
          }),
      ),
    );
    return counts.reduce((a, b) => a + b, 0);
  }

  /** The pane's mirror is gone (finalized or disposed in the worker): forget where it lived. */
  forget(id: string): void {
    const h = this.held.get(id);
    if (h?.timer) clearTimeout(h.timer);
    this.held.delete(id);
    const slot = this.where.get(id);
    slot?.panes.delete(id);
    this.where.delete(id);
    this.specs.delete(id);
    if (slot && slot.panes.size === 0 && !this.closing) this.retireSoon(slot);
  }

  /** Stops a worker that still holds no pane RETIRE_MS from now (an idle host carries none). */
  private retireSoon(slot: Slot): void {
    if (slot.retireTimer) clearTimeout(slot.retireTimer);
    slot.retireTimer = setTimeout(() => {
      slot.retireTimer = null;
      if (slot.panes.size > 0 || [...this.pending.values()].some((p) => p.slot === slot)) return;
      slot.retired = true;
      const i = this.slots.indexOf(slot);
      if (i >= 0) this.slots.splice(i, 1);
      void slot.worker.terminate();
    }, RETIRE_MS);
    slot.retireTimer.unref();
  }

  dispose(id: string): void {
    const slot = this.where.get(id);
    if (slot) this.post(slot, { t: "dispose", id });
    this.forget(id);
  }

  async close(): Promise<void> {
    this.closing = true;
    for (const s of this.slots) if (s.retireTimer) clearTimeout(s.retireTimer);
    for (const h of this.held.values()) if (h.timer) clearTimeout(h.timer);
    await Promise.all(this.slots.map((s) => s.worker.terminate()));
  }
}
