// TerminalMirror: the server-side rendered copy of one pane's terminal. It owns a headless
// xterm fed with the PTY's output and every read of what the pane shows (screen, tail,
// delta, the serialized snapshot for browser reattach). Framework-free.
//
// Contract
// - Reads come from the rendered grid, never from raw bytes: overwrites, CR, cursor moves,
//   erases and repaints are resolved. One buffer row = one line (soft-wrapped rows are not
//   joined), right-trimmed of spaces. screen/tail/delta first wait until everything
//   written so far is parsed; the `head` / `firstLine` getters report what is parsed now.
// - Text format (screen, tail, delta alike): every line followed by "\n"; "" = no lines
//   (`splitLines` turns it back into an array).
// - Absolute line numbers: line N = lines ever dropped off the top of the normal buffer +
//   buffer index. Drops are counted exactly with a marker kept on a scrollback row (markers
//   follow trims). Writes reach xterm in pieces of at most 4096 units, and the marker is
//   re-placed after each piece whenever it is nearer than that to the top, so no piece can
//   trim it away (scrollback >= 5000). The two multi-line trims are hooked: ESC[3J counts
//   the cleared scrollback as dropped; RIS (ESC c) drops everything and numbering resumes
//   at the old head.
// - Content: every scrollback row, plus viewport rows down to the last non-blank one (blank
//   rows at the bottom, a blank cursor row included, are not content). `head` = one past
//   the last content line; `firstLine` = first line still retained.
// - Scrollback rows never change until dropped; viewport rows can be rewritten by the
//   program (spinners, CR progress bars, redrawn composers, clear-screen).
// - delta(C) returns the lines [start, head) and `cursor` = max(C, head); cursors never go
//   backwards. A reader keeping a transcript indexed by absolute line does
//   `transcript.length = start; transcript.push(...splitLines(text))` and then holds exactly
//   what a full read (tail of everything) returns. For that the mirror remembers, per
//   cursor value it handed out (LRU: 64 for anonymous callers; 4 per named reader, 32
//   named readers), the viewport lines that reader then had. If any of them changed or
//   vanished, `start` is the first such line (< C). So start <= C, and start = C when
//   nothing the reader holds changed — except after the content shrank below C (clear
//   screen), when start is where the reader's transcript ends (the cut point).
//   * Unchanged pane: text "", start = C, cursor = C.
//   * Unknown cursor (new caller, evicted from the memo): start = min(C, head) (on the
//     alternate screen, a cursor inside the grid gets the whole grid); a cursor beyond
//     head gets empty text and cursor = C.
//   * Cursor older than the retained scrollback: dropped = {from: C, to: firstLine} and
//     the text starts at firstLine (the reader's transcript has a gap there).
//   * Readers sharing the anonymous memo that get the same cursor value at different
//     times can miss a rewrite made between their reads: concurrent readers should pass a
//     stable id, `delta(c, { reader })`.
//   * A column resize reflows and renumbers lines: the next delta from a cursor handed out
//     before it resends everything from firstLine. A rows-only resize keeps the numbering
//     and the memo exact.
// - Alternate screen (vim, less, full-screen TUIs): it has NO scrollback. screen/tail/delta
//   return the current alternate grid, numbered as if it followed the normal content (it
//   starts at the normal buffer's head, frozen while the alternate screen is up); delta
//   returns the whole grid when anything in it changed since that cursor, else "". Lines
//   scrolled off the top of an alternate screen are lost, and on exit the grid gives way to
//   the normal content again (readers' transcripts are cut back to it).
// - serialize() captures exactly what was written before the call, nothing after: forward
//   live output from the moment you call it and the browser neither loses nor repeats bytes.
// - resize() applies in order with the output (after the data written before it).
// - Writes are cheap: write() only queues (pieces of <= 4096 units) and schedules a
//   setImmediate; the mirror parses the queue itself, right after the poll phase that
//   delivered the data, at most 8 ms per event-loop turn across all mirrors (see "parse
//   pipeline" below for why not xterm's own scheduling). Do not mutate a Uint8Array after
//   passing it to write(). Nothing is dropped: watch `pendingBytes` for back-pressure
//   (pause the PTY while it is high).
// - xterm bugs: if xterm throws while parsing, the mirror rebuilds its terminal from a
//   snapshot (numbering kept, the failing piece lost, older cursors resent once), counts
//   it in `faults` and calls `onFault`; it never throws into the caller or the event loop.
// - Restoring a saved screen: a new mirror of the same size and scrollback, given
//   `startLine` = the saved `firstLine` and fed the saved serialize() output, holds the same
//   lines under the same absolute numbers; `views` = the saved `exportViews()` keeps the
//   delta memo, so cursors handed out before the save keep their exact semantics.
// - Cost: delta is O(viewport + lines returned), independent of the scrollback size;
//   tail(N) is O(N); screen is O(rows).

import { createRequire } from "node:module";
import type {
  IBuffer,
  IBufferLine,
  IDisposable,
  IMarker,
  ITerminalAddon,
  Terminal as HeadlessTerminal,
} from "@xterm/headless";
import { MIN_SCROLLBACK } from "./scrollback-limits";

// Both are CommonJS: required, not imported, so that where this module is loaded lazily (the
// server loads it only to rebuild an exited pane's screen) the emulator loads only then too;
// an ESM import of them would be hoisted to the bundle's start.
const require = createRequire(import.meta.url);
const { Terminal } = require("@xterm/headless") as typeof import("@xterm/headless");
const { SerializeAddon } = require("@xterm/addon-serialize") as typeof import("@xterm/addon-serialize");

export interface DeltaResult {
  text: string;
  start: number;
  cursor: number;
  dropped: { from: number; to: number } | null;
}

export interface ReadResult {
  text: string;
  cursor: number;
}

export interface MirrorOptions {
  cols: number;
  rows: number;
  /** Scrollback rows of the normal buffer; default and minimum 5000. */
  scrollback?: number;
  /** Called when xterm threw while parsing and the mirror rebuilt itself (see `faults`). */
  onFault?: (error: Error) => void;
  /** Absolute number of the first line written (a restored screen's saved `firstLine`); default 0. */
  startLine?: number;
  /** Delta memo entries saved with `exportViews()` (restoring a saved screen). */
  views?: ReaderView[];
}

/** One remembered delta hand-out (see exportViews): what reader `reader` held at `cursor`. */
export interface ReaderView {
  reader: string;
  cursor: number;
  /** Absolute line of lines[0] and the head at hand-out. */
  v: number;
  h: number;
  lines: string[];
  /** false: handed out before a renumbering (column resize, fault): the next delta resends everything. */
  current: boolean;
}

/** Max units (UTF-16 code units or bytes) per xterm write; must stay below MIN_SCROLLBACK. */
const PIECE = 4096;
/** Parsing time per event-loop turn, shared by all mirrors, before yielding to I/O. */
const SLICE_MS = 8;
const MEMO_ANON = 64;
const MEMO_PER_READER = 4;
const MEMO_READERS = 32;

type Chunk = string | Uint8Array;
/** A queued piece: data, optionally with an action to run right after it is parsed. */
interface Piece {
  data: Chunk;
  then?: () => void;
}

interface MemoEntry {
  /** Absolute line of the first remembered line (normal viewport top at hand-out). */
  v: number;
  /** Head at hand-out: where the reader's transcript ended. */
  h: number;
  /** Text of lines [v, h) as the reader got them. */
  lines: string[];
  /** Resize epoch (column changes renumber lines). */
  epoch: number;
}

/** Split `text` of any read into its lines. */
export function splitLines(text: string): string[] {
  if (text === "") return [];
  const lines = text.split("\n");
  lines.pop();
  return lines;
}

function joinLines(lines: string[]): string {
  return lines.length === 0 ? "" : lines.join("\n") + "\n";
}

function rowText(line: IBufferLine | undefined): string {
  if (!line) return "";
  const s = line.translateToString(true);
  // translateToString(true) keeps explicitly written trailing spaces; trim them too.
  return s.charCodeAt(s.length - 1) === 32 ? s.replace(/ +$/, "") : s;
}

/** A consistent view of the buffers for one read; caches translated rows. */
class Snapshot {
  readonly first: number;
  /** Absolute line of the normal viewport's top row. */
  readonly vTop: number;
  /** Content end of the normal buffer (where the alternate grid is numbered from). */
  readonly normalHead: number;
  readonly alt: boolean;
  readonly head: number;
  private readonly normal: IBuffer;
  private readonly altBuf: IBuffer;
  private readonly nCache = new Map<number, string>();
  private readonly aCache = new Map<number, string>();

  constructor(term: HeadlessTerminal, base: number) {
    const buffers = term.buffer;
    this.normal = buffers.normal;
    this.altBuf = buffers.alternate;
    this.alt = buffers.active.type === "alternate";
    this.first = base;
    const rows = term.rows;
    const baseY = this.normal.baseY;
    this.vTop = base + baseY;
    let nh = this.vTop;
    for (let r = rows - 1; r >= 0; r--) {
      if (this.normalRow(baseY + r) !== "") {
        nh = this.vTop + r + 1;
        break;
      }
    }
    this.normalHead = nh;
    let head = nh;
    if (this.alt) {
      for (let r = rows - 1; r >= 0; r--) {
        if (this.altRow(r) !== "") {
          head = nh + r + 1;
          break;
        }
      }
    }
    this.head = head;
  }

  private normalRow(i: number): string {
    let s = this.nCache.get(i);
    if (s === undefined) {
      s = i < 0 || i >= this.normal.length ? "" : rowText(this.normal.getLine(i));
      this.nCache.set(i, s);
    }
    return s;
  }

  private altRow(r: number): string {
    let s = this.aCache.get(r);
    if (s === undefined) {
      s = rowText(this.altBuf.getLine(this.altBuf.baseY + r)); // baseY is 0 unless xterm misbehaves
      this.aCache.set(r, s);
    }
    return s;
  }

  /** Text of absolute line `abs` as the mirror presents it now. */
  text(abs: number): string {
    if (this.alt && abs >= this.normalHead) return this.altRow(abs - this.normalHead);
    return this.normalRow(abs - this.first);
  }

  /** Text of the normal buffer's row at absolute line `abs` (even under the alternate grid). */
  normalText(abs: number): string {
    return this.normalRow(abs - this.first);
  }

  lines(from: number, to: number): string[] {
    const out: string[] = [];
    for (let l = from; l < to; l++) out.push(this.text(l));
    return out;
  }
}

export class TerminalMirror {
  private term: HeadlessTerminal;
  private serializer: InstanceType<typeof SerializeAddon>;
  private subs: IDisposable[] = [];
  private readonly scrollback: number;
  private readonly onFault: ((error: Error) => void) | undefined;
  /** Absolute number of normal buffer index 0 (synced from the anchor). */
  private base = 0;
  private anchor: { marker: IMarker; abs: number } | null = null;
  private epoch = 0;
  private readonly memo = new Map<string, Map<number, MemoEntry>>();
  // Parse pipeline: every byte goes through `queue` and is parsed by pump().
  private queue: (Piece | undefined)[] = [];
  private queueHead = 0;
  private queuedUnits = 0;
  private seqQueued = 0;
  private seqParsed = 0;
  private waiters: { seq: number; resolve: () => void }[] = [];
  /** Rejects of serialize() calls whose capture point has not been parsed yet. */
  private readonly captures = new Set<(e: Error) => void>();
  private readonly parsedListeners = new Set<() => void>();
  private inRunQueue = false;
  private pumping = false;
  private faultCount = 0;
  private disposed = false;

  constructor(opts: MirrorOptions) {
    const cols = checkDim("cols", opts.cols);
    const rows = checkDim("rows", opts.rows);
    this.scrollback = Math.max(MIN_SCROLLBACK, Math.floor(opts.scrollback ?? MIN_SCROLLBACK));
    this.onFault = opts.onFault;
    const start = opts.startLine ?? 0;
    if (!Number.isSafeInteger(start) || start < 0) throw new RangeError(`TerminalMirror: invalid startLine ${start}`);
    this.base = start;
    [this.term, this.serializer] = this.createTerminal(cols, rows);
    for (const view of opts.views ?? []) this.importView(view);
  }

  private createTerminal(cols: number, rows: number): [HeadlessTerminal, InstanceType<typeof SerializeAddon>] {
    const term = new Terminal({ cols, rows, scrollback: this.scrollback, allowProposedApi: true });
    const serializer = new SerializeAddon();
    // The addon's typings name @xterm/xterm's Terminal; it works on the headless one.
    term.loadAddon(serializer as unknown as ITerminalAddon);
    const onEraseDisplay = (params: (number | number[])[]): boolean => {
      if (params[0] === 3) this.beforeClearScrollback();
      return false; // let xterm's own handler run
    };
    this.subs = [
      term.parser.registerCsiHandler({ final: "J" }, onEraseDisplay),
      term.parser.registerCsiHandler({ prefix: "?", final: "J" }, onEraseDisplay),
      term.parser.registerEscHandler({ final: "c" }, () => {
        this.beforeFullReset();
        return false;
      }),
      term.buffer.onBufferChange(() => this.maintainAnchor()),
    ];
    return [term, serializer];
  }

  get cols(): number {
    return this.term.cols;
  }

  get rows(): number {
    return this.term.rows;
  }

  get bracketedPasteMode(): boolean {
    return this.term.modes.bracketedPasteMode;
  }

  get altScreen(): boolean {
    return this.term.buffer.active.type === "alternate";
  }

  /** Absolute line one past the last content line (state as parsed so far). */
  get head(): number {
    return this.snapshot().head;
  }

  /** Absolute number of the first line still retained in scrollback. */
  get firstLine(): number {
    this.syncBase();
    return this.base;
  }

  /** Units (bytes / UTF-16 code units) written but not parsed yet. */
  get pendingBytes(): number {
    return this.queuedUnits;
  }

  /** Times xterm threw while parsing; the mirror then rebuilt its terminal from a snapshot. */
  get faults(): number {
    return this.faultCount;
  }

  /** Scrollback rows of the normal buffer (as configured, after the minimum). */
  get scrollbackLines(): number {
    return this.scrollback;
  }

  /** dispose() was called: every read rejects, writes are ignored. */
  get isDisposed(): boolean {
    return this.disposed;
  }

  /** Called after each batch of writes has been parsed. */
  onWriteParsed(listener: () => void): IDisposable {
    this.parsedListeners.add(listener);
    return { dispose: () => void this.parsedListeners.delete(listener) };
  }

  write(data: string | Uint8Array): void {
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

  flush(): Promise<void> {
    const seq = this.seqQueued;
    if (this.disposed || this.seqParsed >= seq) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ seq, resolve }));
  }

  /**
   * Resize in order with the output: data written before this call is parsed at the old
   * size (as a terminal would have), so with data still queued the new size applies once
   * that data is parsed.
   */
  resize(cols: number, rows: number): void {
    if (this.disposed) return;
    cols = checkDim("cols", cols);
    rows = checkDim("rows", rows);
    if (this.queueHead < this.queue.length || this.pumping) {
      this.enqueue({ data: "", then: () => this.applyResize(cols, rows) });
      this.schedulePump();
      return;
    }
    this.applyResize(cols, rows);
  }

  private applyResize(cols: number, rows: number): void {
    if (this.disposed) return;
    if (cols === this.term.cols && rows === this.term.rows) return;
    const colsChanged = cols !== this.term.cols;
    this.syncBase();
    const before = this.term.buffer.normal;
    const oldVTop = this.base + before.baseY;
    const oldLength = before.length;
    try {
      this.term.resize(cols, rows);
    } catch (e) {
      this.recover(toError(e)); // rebuilt at the old size, numbering kept, epoch bumped
      try {
        this.term.resize(cols, rows);
      } catch {
        // keep the rebuilt terminal at its size
      }
      this.maintainAnchor();
      return;
    }
    const after = this.term.buffer.normal;
    if (colsChanged) {
      // Reflow merges/splits wrapped rows and moves markers unreliably: renumber so the
      // content end stays about where it was, and make older cursors resend everything.
      this.dropAnchor();
      this.base += Math.max(0, oldLength - after.length);
      this.epoch++;
    } else {
      this.syncBase(); // rows-only: trims (if any) were reported to the anchor
      const newVTop = this.base + after.baseY;
      if (newVTop < oldVTop) this.extendMemo(newVTop);
    }
    this.maintainAnchor();
  }

  async screen(): Promise<ReadResult> {
    await this.readable();
    const s = this.snapshot();
    const top = s.alt ? s.normalHead : s.vTop;
    return { text: joinLines(s.lines(top, s.head)), cursor: s.head };
  }

  async tail(lines: number): Promise<ReadResult> {
    await this.readable();
    const s = this.snapshot();
    const floor = s.alt ? s.normalHead : s.first;
    const n = lines > 0 ? Math.floor(lines) : 0;
    const from = Math.max(floor, s.head - n);
    return { text: joinLines(s.lines(from, s.head)), cursor: s.head };
  }

  async delta(cursor: number, opts?: { reader?: string }): Promise<DeltaResult> {
    await this.readable();
    const c = Number.isFinite(cursor) && cursor > 0 ? Math.floor(cursor) : 0;
    const reader = opts?.reader ?? "";
    const s = this.snapshot();
    const entry = this.memo.get(reader)?.get(c);

    let end: number; // where the reader's transcript ends
    let start: number;
    if (entry && entry.epoch === this.epoch) {
      end = entry.h;
      start = end;
      for (let l = Math.max(entry.v, s.first); l < end; l++) {
        if (l >= s.head || s.text(l) !== entry.lines[l - entry.v]) {
          start = l;
          break;
        }
      }
    } else if (entry) {
      end = Math.min(c, entry.h);
      start = s.first; // lines were renumbered by a column resize: resend everything
    } else {
      end = c;
      start = Math.min(c, s.head);
    }
    let dropped: DeltaResult["dropped"] = null;
    if (end < s.first) {
      dropped = { from: end, to: s.first };
      start = s.first;
    }
    start = Math.max(start, s.first);
    if (s.alt && start > s.normalHead && start < s.head) start = s.normalHead; // whole grid

    const lines = s.lines(start, s.head);
    const next = Math.max(c, s.head);
    this.remember(reader, next, s, start, lines, entry);
    return { text: joinLines(lines), start, cursor: next, dropped };
  }

  /**
   * SerializeAddon snapshot (scrollback, modes, alternate screen) of exactly everything
   * written before this call and nothing written after it: a caller that forwards live
   * output from the moment it calls serialize() neither loses nor repeats bytes.
   */
  serialize(): Promise<string> {
    if (this.disposed) return Promise.reject(new Error("TerminalMirror is disposed"));
    return new Promise((resolve, reject) => {
      this.captures.add(reject);
      this.enqueue({
        data: "",
        then: () => {
          this.captures.delete(reject);
          try {
            resolve(this.serializer.serialize());
          } catch (e) {
            reject(toError(e));
          }
        },
      });
      this.schedulePump();
    });
  }

  /**
   * The delta memo, oldest first, newest entries kept within `maxChars` of line text: pass it
   * as `views` to a mirror restored from this one's serialize() output. Call it when nothing
   * is pending (after flush()), so it matches the serialized state.
   */
  exportViews(maxChars = 256 * 1024): ReaderView[] {
    const out: ReaderView[] = [];
    let budget = maxChars;
    const readers = [...this.memo.entries()].reverse();
    for (const [reader, m] of readers) {
      for (const [cursor, e] of [...m.entries()].reverse()) {
        let size = reader.length + 16;
        for (const l of e.lines) size += l.length + 1;
        if (size > budget) continue;
        budget -= size;
        out.push({ reader, cursor, v: e.v, h: e.h, lines: [...e.lines], current: e.epoch === this.epoch });
      }
    }
    return out.reverse();
  }

  private importView(view: ReaderView): void {
    this.storeView(view.reader, view.cursor, {
      v: view.v,
      h: view.h,
      lines: [...view.lines],
      epoch: view.current ? this.epoch : -1,
    });
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.dropAnchor();
    for (const d of this.subs) d.dispose();
    this.subs.length = 0;
    this.term.dispose();
    this.memo.clear();
    this.queue = [];
    this.queueHead = 0;
    this.queuedUnits = 0;
    this.parsedListeners.clear();
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) w.resolve();
    for (const reject of this.captures) reject(new Error("TerminalMirror is disposed"));
    this.captures.clear();
  }

  // --- parse pipeline ---
  //
  // xterm's own write queue starts parsing a write that finds it idle only after a
  // setTimeout (>= 1 ms), and PTY output arrives in ~4 KB reads, so that gap would cap
  // throughput; exceptions thrown by xterm's parser inside that timer would also be
  // uncaught. So the mirror owns the scheduling: pieces wait in `queue`, and pump() — run
  // from setImmediate, right after the poll phase that delivered the data — hands them to
  // xterm one at a time with a user-input notification, which makes xterm parse each
  // write synchronously (input("") emits nothing: nobody listens to the headless
  // terminal's onData). Parsing yields to I/O every SLICE_MS (see runTurn).

  private enqueue(piece: Piece): void {
    this.seqQueued++;
    this.queue.push(piece);
    this.queuedUnits += piece.data.length;
  }

  // All mirrors with queued data wait in one run queue served by a single setImmediate
  // loop: the SLICE_MS budget is per event-loop turn for the whole process, so N busy panes
  // cannot block the loop N times longer. Mirrors that still have data go to the back.
  private static readonly runQueue: TerminalMirror[] = [];
  private static runScheduled = false;

  private static runTurn(): void {
    TerminalMirror.runScheduled = false;
    const q = TerminalMirror.runQueue;
    const deadline = performance.now() + SLICE_MS;
    for (let n = q.length; n > 0 && q.length > 0; n--) {
      const m = q.shift()!;
      m.inRunQueue = false;
      m.pump(deadline); // re-queues itself at the back if data is left
      if (performance.now() >= deadline) break;
    }
    if (q.length > 0 && !TerminalMirror.runScheduled) {
      TerminalMirror.runScheduled = true;
      setImmediate(TerminalMirror.runTurn);
    }
  }

  private schedulePump(): void {
    if (this.inRunQueue || this.disposed) return;
    this.inRunQueue = true;
    TerminalMirror.runQueue.push(this);
    if (!TerminalMirror.runScheduled) {
      TerminalMirror.runScheduled = true;
      setImmediate(TerminalMirror.runTurn);
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
        this.parseOne(piece);
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
          // a listener's failure is not the mirror's
        }
      }
    }
  }

  private parseOne(piece: Piece): void {
    let done = false;
    try {
      this.term.input("", true);
      this.term.write(piece.data, () => (done = true));
      if (!done) throw new Error("xterm deferred a write the mirror expected it to parse synchronously");
    } catch (e) {
      this.recover(toError(e));
    }
    this.seqParsed++;
    // Fast path: an anchor at least PIECE rows from the top survives the next piece.
    const a = this.anchor;
    if (!a || a.marker.line < PIECE) this.maintainAnchor();
    piece.then?.();
  }

  /**
   * xterm threw while parsing (a bug in xterm; e.g. 6.0 can corrupt the alternate buffer
   * when rows shrink while it is inactive, then throw on a later resize). Its state is
   * suspect and its write queue is stuck, so rebuild the terminal from a snapshot of it,
   * keeping the numbering; the piece that failed is lost. Cursors handed out before get
   * everything resent once (as after a column resize).
   */
  private recover(error: Error): void {
    this.faultCount++;
    let snapshot = "";
    try {
      snapshot = this.serializer.serialize();
    } catch {
      snapshot = "";
    }
    let head = this.base;
    try {
      head = this.snapshot().head;
    } catch {
      // keep the last known base
    }
    const { cols, rows } = this.term;
    const old = this.term;
    this.anchor = null;
    for (const d of this.subs) d.dispose();
    try {
      old.dispose();
    } catch {
      // already broken
    }
    [this.term, this.serializer] = this.createTerminal(cols, rows);
    let restored = false;
    if (snapshot) {
      try {
        let done = false;
        this.term.input("", true);
        this.term.write(snapshot, () => (done = true));
        restored = done;
      } catch {
        restored = false;
      }
      if (!restored) {
        for (const d of this.subs) d.dispose();
        this.term.dispose();
        [this.term, this.serializer] = this.createTerminal(cols, rows);
      }
    }
    if (!restored) this.base = head; // nothing kept: like RIS, numbering resumes at head
    this.epoch++;
    this.maintainAnchor();
    try {
      this.onFault?.(error);
    } catch {
      // ignore
    }
  }

  private async readable(): Promise<void> {
    if (this.disposed) throw new Error("TerminalMirror is disposed");
    await this.flush();
    if (this.disposed) throw new Error("TerminalMirror is disposed");
  }

  // --- absolute numbering ---

  private syncBase(): void {
    const a = this.anchor;
    if (!a) return;
    if (a.marker.isDisposed) {
      // Cannot happen (no piece trims more rows than the anchor's distance to the top);
      // if it did, keep numbering monotonic with the best lower bound.
      this.base = Math.max(this.base, a.abs + 1);
      this.anchor = null;
      return;
    }
    this.base = a.abs - a.marker.line;
  }

  private dropAnchor(): void {
    const a = this.anchor;
    this.anchor = null;
    a?.marker.dispose();
  }

  /** Keep the anchor on a scrollback row far enough from the top to survive the next piece. */
  private maintainAnchor(): void {
    if (this.disposed) return;
    const buffers = this.term.buffer;
    if (buffers.active.type !== "normal") return; // markers live on the normal buffer only
    this.syncBase();
    const nb = buffers.normal;
    const target = nb.baseY - 1; // last scrollback row
    const a = this.anchor;
    if (target < 0) {
      if (a) this.dropAnchor(); // no scrollback: no trims possible, and viewport rows move
      return;
    }
    if (a && a.marker.line >= PIECE && a.marker.line <= target) return;
    if (a && a.marker.line === target) return;
    this.dropAnchor();
    const marker = this.term.registerMarker(target - (nb.baseY + nb.cursorY));
    if (marker) this.anchor = { marker, abs: this.base + target };
  }

  private beforeClearScrollback(): void {
    if (this.term.buffer.active.type !== "normal") return;
    const cleared = this.term.buffer.normal.length - this.term.rows;
    if (cleared <= 0) return;
    this.syncBase();
    this.dropAnchor();
    this.base += cleared;
  }

  private beforeFullReset(): void {
    const head = this.snapshot().head;
    this.dropAnchor();
    this.base = head;
  }

  private snapshot(): Snapshot {
    this.syncBase();
    return new Snapshot(this.term, this.base);
  }

  // --- delta memo ---

  private remember(
    reader: string,
    cursor: number,
    s: Snapshot,
    start: number,
    sent: string[],
    prev: MemoEntry | undefined,
  ): void {
    const v = Math.min(s.vTop, s.head);
    const lines: string[] = new Array(Math.max(0, s.head - v));
    for (let l = v; l < s.head; l++) {
      let t = l >= start ? sent[l - start]! : s.text(l);
      if (prev && l >= prev.v && l < prev.h && prev.lines[l - prev.v] === t) t = prev.lines[l - prev.v]!; // share strings
      lines[l - v] = t;
    }
    this.storeView(reader, cursor, { v, h: s.head, lines, epoch: this.epoch });
  }

  /** Memo insert with the LRU caps: MEMO_READERS named readers, MEMO_ANON / MEMO_PER_READER cursors. */
  private storeView(reader: string, cursor: number, entry: MemoEntry): void {
    let m = this.memo.get(reader);
    if (m) this.memo.delete(reader);
    else m = new Map();
    this.memo.set(reader, m);
    if (this.memo.size > MEMO_READERS + 1) {
      for (const k of this.memo.keys()) {
        if (k !== "" && k !== reader) {
          this.memo.delete(k);
          break;
        }
      }
    }
    m.delete(cursor);
    m.set(cursor, entry);
    const cap = reader === "" ? MEMO_ANON : MEMO_PER_READER;
    while (m.size > cap) m.delete(m.keys().next().value!);
  }

  /**
   * Rows grew and pulled scrollback rows back into the viewport: they become mutable, so
   * remembered views must now cover them. Until this moment they were immutable normal
   * rows, so their normal-buffer text is what every reader got (while the alternate screen
   * is up, the grid may now be numbered over them: its origin follows the normal content).
   */
  private extendMemo(newVTop: number): void {
    const s = this.snapshot();
    for (const m of this.memo.values()) {
      for (const e of m.values()) {
        if (e.epoch !== this.epoch || e.v <= newVTop) continue;
        const from = Math.max(newVTop, s.first);
        if (from >= e.v) continue;
        const pulled: string[] = [];
        for (let l = from; l < e.v; l++) pulled.push(s.normalText(l));
        e.lines = pulled.concat(e.lines);
        e.v = from;
      }
    }
  }
}

function toError(e: unknown): Error {
  return e instanceof Error ? e : new Error(String(e));
}

function checkDim(name: string, n: number): number {
  if (!Number.isInteger(n) || n < 1 || n > 10_000) throw new RangeError(`TerminalMirror: invalid ${name} ${n}`);
  return name === "cols" ? Math.max(2, n) : n;
}
