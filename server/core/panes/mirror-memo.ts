// The terminal mirror's delta memo (the contract is in mirror.ts's header): per cursor value
// handed out, what that reader then held of the mutable viewport, so the next delta can resend
// exactly the lines that changed under the reader (LRU per reader, capped); the renumbering epoch
// (column resizes and fault rebuilds make older cursors resend everything); export and import of
// the memo with a saved screen.
import { joinLines, type Snapshot } from "./mirror-lines";

const MEMO_ANON = 64;
const MEMO_PER_READER = 4;
const MEMO_READERS = 32;

export interface DeltaResult {
  text: string;
  start: number;
  cursor: number;
  dropped: { from: number; to: number } | null;
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

interface MemoEntry {
  /** Absolute line of the first remembered line (normal viewport top at hand-out). */
  v: number;
  /** Head at hand-out: where the reader's transcript ended. */
  h: number;
  /** Text of lines [v, h) as the reader got them. */
  lines: string[];
  /** Renumbering epoch (column changes renumber lines). */
  epoch: number;
}

export class DeltaMemo {
  private readonly memo = new Map<string, Map<number, MemoEntry>>();
  private epoch = 0;

  /** Lines were renumbered (column resize, rebuild after a fault): older cursors get everything resent once. */
  renumbered(): void {
    this.epoch++;
  }

  /** The lines after cursor `c` for `reader` ("" = anonymous), remembering what the reader now holds. */
  delta(c: number, reader: string, s: Snapshot): DeltaResult {
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

  /** The memo, oldest first, newest entries kept within `maxChars` of line text. */
  export(maxChars: number): ReaderView[] {
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

  import(view: ReaderView): void {
    this.store(view.reader, view.cursor, {
      v: view.v,
      h: view.h,
      lines: [...view.lines],
      epoch: view.current ? this.epoch : -1,
    });
  }

  clear(): void {
    this.memo.clear();
  }

  /**
   * Rows grew and pulled scrollback rows back into the viewport: they become mutable, so
   * remembered views must now cover them. Until this moment they were immutable normal
   * rows, so their normal-buffer text is what every reader got (while the alternate screen
   * is up, the grid may now be numbered over them: its origin follows the normal content).
   */
  extend(newVTop: number, s: Snapshot): void {
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
    this.store(reader, cursor, { v, h: s.head, lines, epoch: this.epoch });
  }

  /** Insert with the LRU caps: MEMO_READERS named readers, MEMO_ANON / MEMO_PER_READER cursors. */
  private store(reader: string, cursor: number, entry: MemoEntry): void {
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
}
