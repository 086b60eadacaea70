// The terminal mirror's absolute line numbers (the contract is in mirror.ts's header): the count
// of lines dropped off the top of the normal buffer, kept exact with a marker on a scrollback row
// (LineNumbering), and a consistent, cached view of the rendered rows under those numbers for
// one read (Snapshot), plus the text format every read uses.
import type { IBuffer, IBufferLine, IMarker, Terminal as HeadlessTerminal } from "@xterm/headless";
import { PIECE } from "./mirror-parse";

/** Split `text` of any read into its lines. */
export function splitLines(text: string): string[] {
  if (text === "") return [];
  const lines = text.split("\n");
  lines.pop();
  return lines;
}

export function joinLines(lines: string[]): string {
  return lines.length === 0 ? "" : `${lines.join("\n")}\n`;
}

function rowText(line: IBufferLine | undefined): string {
  if (!line) return "";
  const s = line.translateToString(true);
  // translateToString(true) keeps explicitly written trailing spaces; trim them too.
  return s.charCodeAt(s.length - 1) === 32 ? s.replace(/ +$/, "") : s;
}

/** A consistent view of the buffers for one read; caches translated rows. */
export class Snapshot {
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

/**
 * `base`: the absolute number of normal buffer index 0. Trims by scrolling are counted with an
 * anchor marker on a scrollback row (markers follow trims): base = the anchor's absolute number
 * minus its current row. Pieces reach xterm at most PIECE units long, and the anchor is re-placed
 * after each piece whenever it is nearer than that to the top, so no piece can trim it away. The
 * two multi-line trims are hooked by the owner (beforeClearScrollback, beforeFullReset).
 */
export class LineNumbering {
  private anchor: { marker: IMarker; abs: number } | null = null;

  /** `term` returns the owner's current terminal (a rebuilt one after a fault). */
  constructor(
    private base: number,
    private readonly term: () => HeadlessTerminal,
  ) {}

  /** Absolute number of normal buffer index 0, as parsed so far. */
  get first(): number {
    this.sync();
    return this.base;
  }

  /** `first` as last synced, without touching the anchor (its terminal may be broken). */
  get lastFirst(): number {
    return this.base;
  }

  /** A consistent view of the rows under their absolute numbers. */
  snapshot(): Snapshot {
    this.sync();
    return new Snapshot(this.term(), this.base);
  }

  /** After a piece: the anchor must survive the next one (fast path: it is at least PIECE rows from the top). */
  afterPiece(): void {
    const a = this.anchor;
    if (!a || a.marker.line < PIECE) this.maintain();
  }

  /** Keep the anchor on a scrollback row far enough from the top to survive the next piece. */
  maintain(): void {
    const term = this.term();
    const buffers = term.buffer;
    if (buffers.active.type !== "normal") return; // markers live on the normal buffer only
    this.sync();
    const nb = buffers.normal;
    const target = nb.baseY - 1; // last scrollback row
    const a = this.anchor;
    if (target < 0) {
      if (a) this.drop(); // no scrollback: no trims possible, and viewport rows move
      return;
    }
    if (a && a.marker.line >= PIECE && a.marker.line <= target) return;
    if (a && a.marker.line === target) return;
    this.drop();
    const marker = term.registerMarker(target - (nb.baseY + nb.cursorY));
    if (marker) this.anchor = { marker, abs: this.base + target };
  }

  /** Disposes the anchor (markers move unreliably across a reflow; the terminal is being replaced). */
  drop(): void {
    const a = this.anchor;
    this.anchor = null;
    a?.marker.dispose();
  }

  /** Forgets the anchor without disposing it: its terminal is gone. */
  forget(): void {
    this.anchor = null;
  }

  /** Renumbers: normal buffer index 0 becomes absolute line `base` (anchor dropped first). */
  reset(base: number): void {
    this.drop();
    this.base = base;
  }

  /** ESC[3J is about to clear the scrollback: the cleared rows count as dropped. */
  beforeClearScrollback(): void {
    const term = this.term();
    if (term.buffer.active.type !== "normal") return;
    const cleared = term.buffer.normal.length - term.rows;
    if (cleared <= 0) return;
    this.sync();
    this.drop();
    this.base += cleared;
  }

  private sync(): void {
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
}
