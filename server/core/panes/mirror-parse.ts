// The terminal mirror's parse scheduling (mirror.ts): the queue of pieces written but not parsed
// yet, the one run queue that parses every mirror's pieces from setImmediate within a time slice
// per event-loop turn, flush waiters and parsed listeners. It knows nothing of xterm: each piece
// goes to the owner's `parse` callback, which must parse it synchronously.
//
// Why the mirror schedules parsing itself instead of leaving it to xterm: xterm's own write queue
// starts parsing a write that finds it idle only after a setTimeout (>= 1 ms), and PTY output
// arrives in ~4 KB reads, so that gap would cap throughput; exceptions thrown by xterm's parser
// inside that timer would also be uncaught. So pieces wait here, and pump() — run from
// setImmediate, right after the poll phase that delivered the data — hands them to the owner one
// at a time. Parsing yields to I/O every SLICE_MS (see runTurn).
import type { IDisposable } from "@xterm/headless";

/** Max units (UTF-16 code units or bytes) per piece; must stay below MIN_SCROLLBACK (scrollback-limits.ts). */
export const PIECE = 4096;
/** Parsing time per event-loop turn, shared by all mirrors, before yielding to I/O. */
const SLICE_MS = 8;

export type Chunk = string | Uint8Array;

/** A queued piece: data, optionally with an action to run right after it is parsed. */
interface Piece {
  data: Chunk;
  action?: () => void;
}

export class ParseQueue {
  private queue: (Piece | undefined)[] = [];
  private queueHead = 0;
  private queuedUnits = 0;
  private seqQueued = 0;
  private seqParsed = 0;
  private waiters: { seq: number; resolve: () => void }[] = [];
  private readonly parsedListeners = new Set<() => void>();
  private inRunQueue = false;
  private pumping = false;
  private disposed = false;

  /** `parse` parses one piece's data synchronously and never throws. */
  constructor(private readonly parse: (data: Chunk) => void) {}

  /** Units (bytes / UTF-16 code units) queued but not parsed yet. */
  get pendingUnits(): number {
    return this.queuedUnits;
  }

  /** Pieces are waiting, or one is being parsed right now. */
  get busy(): boolean {
    return this.queueHead < this.queue.length || this.pumping;
  }

  /** Queues data in pieces of at most PIECE units. Do not mutate a Uint8Array after passing it. */
  write(data: Chunk): void {
    if (this.disposed) return;
    const n = data.length;
    if (n === 0) return;
    if (n <= PIECE) {
      this.enqueue({ data });
    } else {
      for (let i = 0; i < n; i += PIECE) {
        this.enqueue({ data: typeof data === "string" ? data.slice(i, i + PIECE) : data.subarray(i, i + PIECE) });
      }
    }
    this.schedulePump();
  }

  /** Runs `action` right after everything queued before it is parsed. */
  afterQueued(action: () => void): void {
    if (this.disposed) return;
    this.enqueue({ data: "", action });
    this.schedulePump();
  }

  /** Resolves once everything queued so far is parsed (at once after dispose). */
  flush(): Promise<void> {
    const seq = this.seqQueued;
    if (this.disposed || this.seqParsed >= seq) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ seq, resolve }));
  }

  /** Called after each batch of pieces has been parsed. */
  onParsed(listener: () => void): IDisposable {
    this.parsedListeners.add(listener);
    return { dispose: () => void this.parsedListeners.delete(listener) };
  }

  /** Drops what is queued (actions included), resolves every flush and forgets the listeners. */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.queue = [];
    this.queueHead = 0;
    this.queuedUnits = 0;
    this.parsedListeners.clear();
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) w.resolve();
  }

  private enqueue(piece: Piece): void {
    this.seqQueued++;
    this.queue.push(piece);
    this.queuedUnits += piece.data.length;
  }

  // All queues with pieces wait in one run queue served by a single setImmediate loop: the
  // SLICE_MS budget is per event-loop turn for the whole process, so N busy panes cannot block
  // the loop N times longer. Queues that still have pieces go to the back.
  private static readonly runQueue: ParseQueue[] = [];
  private static runScheduled = false;

  private static runTurn(): void {
    ParseQueue.runScheduled = false;
    const q = ParseQueue.runQueue;
    const deadline = performance.now() + SLICE_MS;
    for (let n = q.length; n > 0 && q.length > 0; n--) {
      const m = q.shift()!;
      m.inRunQueue = false;
      m.pump(deadline); // re-queues itself at the back if pieces are left
      if (performance.now() >= deadline) break;
    }
    if (q.length > 0 && !ParseQueue.runScheduled) {
      ParseQueue.runScheduled = true;
      setImmediate(ParseQueue.runTurn);
    }
  }

  private schedulePump(): void {
    if (this.inRunQueue || this.disposed) return;
    this.inRunQueue = true;
    ParseQueue.runQueue.push(this);
    if (!ParseQueue.runScheduled) {
      ParseQueue.runScheduled = true;
      setImmediate(ParseQueue.runTurn);
    }
  }

  private pump(deadline: number): void {
    if (this.pumping || this.disposed) return;
    this.pumping = true;
    const before = this.seqParsed;
    try {
      while (this.queueHead < this.queue.length && !this.disposed) {
        const piece = this.queue[this.queueHead]!;
        this.queue[this.queueHead++] = undefined;
        this.queuedUnits -= piece.data.length;
        this.parse(piece.data);
        this.seqParsed++;
        piece.action?.();
        if (performance.now() >= deadline) break;
      }
    } finally {
      this.pumping = false;
    }
    if (this.disposed) return;
    if (this.queueHead >= this.queue.length) {
      this.queue = [];
      this.queueHead = 0;
    } else {
      if (this.queueHead > 4096) {
        this.queue = this.queue.slice(this.queueHead);
        this.queueHead = 0;
      }
      this.schedulePump();
    }
    while (this.waiters.length > 0 && this.waiters[0]!.seq <= this.seqParsed) {
      this.waiters.shift()!.resolve();
    }
    if (this.seqParsed !== before) {
      for (const listener of [...this.parsedListeners]) {
        try {
          listener();
        } catch {
          // a listener's failure is not the queue's
        }
      }
    }
  }
}
