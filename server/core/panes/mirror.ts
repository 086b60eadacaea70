// TerminalMirror: the server-side rendered copy of one pane's terminal. It owns a headless
// xterm fed with the PTY's output and every read of what the pane shows (screen, tail,
// delta, the serialized snapshot for browser reattach). Framework-free. This header is the
// contract of every read and cursor; the modules beside it implement parts of it:
// mirror-parse.ts (write queue and parse scheduling), mirror-lines.ts (absolute numbering,
// rendered rows, text format), mirror-memo.ts (the delta memo).
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
//   delivered the data, at most 8 ms per event-loop turn across all mirrors (see
//   mirror-parse.ts for why not xterm's own scheduling). Do not mutate a Uint8Array after
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
import type { IDisposable, ITerminalAddon, Terminal as HeadlessTerminal } from "@xterm/headless";
import { type Chunk, ParseQueue } from "./mirror-parse";
import { type DeltaResult, DeltaMemo, type ReaderView } from "./mirror-memo";
import { joinLines, LineNumbering } from "./mirror-lines";
import { MIN_SCROLLBACK } from "./scrollback-limits";

export { splitLines } from "./mirror-lines";
export type { DeltaResult, ReaderView } from "./mirror-memo";

// Both are CommonJS: required, not imported, so that where this module is loaded lazily (the
// server loads it only to rebuild an exited pane's screen) the emulator loads only then too;
// an ESM import of them would be hoisted to the bundle's start.
const require = createRequire(import.meta.url);
const { Terminal } = require("@xterm/headless") as typeof import("@xterm/headless");
const { SerializeAddon } = require("@xterm/addon-serialize") as typeof import("@xterm/addon-serialize");

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

export class TerminalMirror {
  private term: HeadlessTerminal;
  private serializer: InstanceType<typeof SerializeAddon>;
  private subs: IDisposable[] = [];
  private readonly scrollback: number;
  private readonly onFault: ((error: Error) => void) | undefined;
  private readonly numbering: LineNumbering;
  private readonly memo = new DeltaMemo();
  /** Every byte goes through the queue, which hands it to parse(). */
  private readonly queue = new ParseQueue((data) => this.parse(data));
  /** Rejects of serialize() calls whose capture point has not been parsed yet. */
  private readonly captures = new Set<(e: Error) => void>();
  private faultCount = 0;
  private disposed = false;

  constructor(opts: MirrorOptions) {
    const cols = checkDim("cols", opts.cols);
    const rows = checkDim("rows", opts.rows);
    this.scrollback = Math.max(MIN_SCROLLBACK, Math.floor(opts.scrollback ?? MIN_SCROLLBACK));
    this.onFault = opts.onFault;
    const start = opts.startLine ?? 0;
    if (!Number.isSafeInteger(start) || start < 0) throw new RangeError(`TerminalMirror: invalid startLine ${start}`);
    this.numbering = new LineNumbering(start, () => this.term);
    [this.term, this.serializer] = this.createTerminal(cols, rows);
    for (const view of opts.views ?? []) this.memo.import(view);
  }

  private createTerminal(cols: number, rows: number): [HeadlessTerminal, InstanceType<typeof SerializeAddon>] {
    const term = new Terminal({ cols, rows, scrollback: this.scrollback, allowProposedApi: true });
    const serializer = new SerializeAddon();
    // The addon's typings name @xterm/xterm's Terminal; it works on the headless one.
    term.loadAddon(serializer as unknown as ITerminalAddon);
    const onEraseDisplay = (params: (number | number[])[]): boolean => {
      if (params[0] === 3) this.numbering.beforeClearScrollback();
      return false; // let xterm's own handler run
    };
    this.subs = [
      term.parser.registerCsiHandler({ final: "J" }, onEraseDisplay),
      term.parser.registerCsiHandler({ prefix: "?", final: "J" }, onEraseDisplay),
      term.parser.registerEscHandler({ final: "c" }, () => {
        // RIS drops everything; numbering resumes at the old head.
        this.numbering.reset(this.numbering.snapshot().head);
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
    return this.numbering.snapshot().head;
  }

  /** Absolute number of the first line still retained in scrollback. */
  get firstLine(): number {
    return this.numbering.first;
  }

  /** Units (bytes / UTF-16 code units) written but not parsed yet. */
  get pendingBytes(): number {
    return this.queue.pendingUnits;
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
    return this.queue.onParsed(listener);
  }

  write(data: Chunk): void {
    if (this.disposed) return;
    this.queue.write(data);
  }

  flush(): Promise<void> {
    return this.queue.flush();
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
    if (this.queue.busy) this.queue.afterQueued(() => this.applyResize(cols, rows));
    else this.applyResize(cols, rows);
  }

  private applyResize(cols: number, rows: number): void {
    if (this.disposed) return;
    if (cols === this.term.cols && rows === this.term.rows) return;
    const colsChanged = cols !== this.term.cols;
    const base = this.numbering.first;
    const before = this.term.buffer.normal;
    const oldVTop = base + before.baseY;
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
      this.numbering.reset(base + Math.max(0, oldLength - after.length));
      this.memo.renumbered();
    } else {
      // rows-only: trims (if any) were reported to the anchor
      const newVTop = this.numbering.first + after.baseY;
      if (newVTop < oldVTop) this.memo.extend(newVTop, this.numbering.snapshot());
    }
    this.maintainAnchor();
  }

  async screen(): Promise<ReadResult> {
    await this.readable();
    const s = this.numbering.snapshot();
    const top = s.alt ? s.normalHead : s.vTop;
    return { text: joinLines(s.lines(top, s.head)), cursor: s.head };
  }

  async tail(lines: number): Promise<ReadResult> {
    await this.readable();
    const s = this.numbering.snapshot();
    const floor = s.alt ? s.normalHead : s.first;
    const n = lines > 0 ? Math.floor(lines) : 0;
    const from = Math.max(floor, s.head - n);
    return { text: joinLines(s.lines(from, s.head)), cursor: s.head };
  }

  async delta(cursor: number, opts?: { reader?: string }): Promise<DeltaResult> {
    await this.readable();
    const c = Number.isFinite(cursor) && cursor > 0 ? Math.floor(cursor) : 0;
    return this.memo.delta(c, opts?.reader ?? "", this.numbering.snapshot());
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
      this.queue.afterQueued(() => {
        this.captures.delete(reject);
        try {
          resolve(this.serializer.serialize());
        } catch (e) {
          reject(toError(e));
        }
      });
    });
  }

  /**
   * The delta memo, oldest first, newest entries kept within `maxChars` of line text: pass it
   * as `views` to a mirror restored from this one's serialize() output. Call it when nothing
   * is pending (after flush()), so it matches the serialized state.
   */
  exportViews(maxChars = 256 * 1024): ReaderView[] {
    return this.memo.export(maxChars);
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.numbering.drop();
    for (const d of this.subs) d.dispose();
    this.subs.length = 0;
    this.term.dispose();
    this.memo.clear();
    this.queue.dispose();
    for (const reject of this.captures) reject(new Error("TerminalMirror is disposed"));
    this.captures.clear();
  }

  /**
   * One piece, parsed synchronously: a user-input notification makes xterm parse the write at
   * once instead of from its own timer (input("") emits nothing: nobody listens to the
   * headless terminal's onData).
   */
  private parse(data: Chunk): void {
    let done = false;
    try {
      this.term.input("", true);
      this.term.write(data, () => (done = true));
      if (!done) throw new Error("xterm deferred a write the mirror expected it to parse synchronously");
    } catch (e) {
      this.recover(toError(e));
    }
    if (!this.disposed) this.numbering.afterPiece();
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
    let head = this.numbering.lastFirst;
    try {
      head = this.numbering.snapshot().head;
    } catch {
      // keep the last known base
    }
    const { cols, rows } = this.term;
    const old = this.term;
    this.numbering.forget();
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
    if (!restored) this.numbering.reset(head); // nothing kept: like RIS, numbering resumes at head
    this.memo.renumbered();
    this.maintainAnchor();
    try {
      this.onFault?.(error);
    } catch {
      // ignore
    }
  }

  private maintainAnchor(): void {
    if (!this.disposed) this.numbering.maintain();
  }

  private async readable(): Promise<void> {
    if (this.disposed) throw new Error("TerminalMirror is disposed");
    await this.flush();
    if (this.disposed) throw new Error("TerminalMirror is disposed");
  }
}

function toError(e: unknown): Error {
  return e instanceof Error ? e : new Error(String(e));
}

function checkDim(name: string, n: number): number {
  if (!Number.isInteger(n) || n < 1 || n > 10_000) throw new RangeError(`TerminalMirror: invalid ${name} ${n}`);
  return name === "cols" ? Math.max(2, n) : n;
}
