// Tests for TerminalMirror: rendered reads, exact delta transcripts over real TUI byte
// streams (fixtures/*.bin), absolute numbering across scrollback eviction and clears,
// alternate screen, serialize round-trip, bracketed paste mode, resize.

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { splitLines, TerminalMirror, type DeltaResult } from "./mirror";
import { ALT_GRID, buildFixtures, FIXTURE_COLS, FIXTURE_DIR, FIXTURE_ROWS } from "./fixtures/make-fixtures";
import { mulberry32 } from "./fixtures/prng";

const FIXTURES = ["spinner", "progress", "fullscreen", "clear", "claude", "bracketed", "altscreen"] as const;
type FixtureName = (typeof FIXTURES)[number];

function fixtureBytes(name: FixtureName): Buffer {
  return readFileSync(join(FIXTURE_DIR, `${name}.bin`));
}

function fixtureExpected(name: FixtureName): string[] {
  return splitLines(readFileSync(join(FIXTURE_DIR, `${name}.expected.txt`), "utf8"));
}

function mirror(cols = FIXTURE_COLS, rows = FIXTURE_ROWS, scrollback?: number): TerminalMirror {
  return new TerminalMirror({ cols, rows, scrollback });
}

/** A delta reader keeping a transcript indexed by absolute line number. */
class Reader {
  lines: (string | undefined)[] = [];
  cursor = 0;
  gaps: { from: number; to: number }[] = [];
  constructor(
    private readonly m: TerminalMirror,
    private readonly id?: string,
  ) {}

  async poll(): Promise<DeltaResult> {
    const d = await this.m.delta(this.cursor, this.id === undefined ? undefined : { reader: this.id });
    expect(d.cursor).toBeGreaterThanOrEqual(this.cursor);
    expect(d.start).toBeLessThanOrEqual(Math.max(this.cursor, d.cursor));
    if (d.dropped) this.gaps.push(d.dropped);
    this.lines.length = d.start;
    this.lines.push(...splitLines(d.text));
    this.cursor = d.cursor;
    return d;
  }
}

async function everything(m: TerminalMirror): Promise<string[]> {
  return splitLines((await m.tail(Number.MAX_SAFE_INTEGER)).text);
}

/** The reader's transcript must be exactly what a full read returns right now. */
async function expectInSync(m: TerminalMirror, r: Reader): Promise<void> {
  const all = await everything(m);
  const head = m.head;
  expect(r.lines.length).toBe(head);
  if (m.altScreen) {
    // tail() on the alternate screen is the grid; it is numbered after the normal content.
    expect(r.lines.slice(head - all.length)).toEqual(all);
  } else {
    expect(r.lines.slice(m.firstLine)).toEqual(all);
  }
}

/** Artifacts a stale or fragment-merging reader would show. */
function expectNoArtifacts(name: FixtureName, lines: (string | undefined)[]): void {
  const text = lines.filter((l): l is string => l !== undefined);
  for (const l of text) {
    if (name === "spinner") {
      expect(l).not.toMatch(/Loading.*Loading/);
      expect(l).not.toMatch(/[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏].*[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]/);
      expect(l).not.toMatch(/…✔|✔.*…/);
    }
    if (name === "progress") {
      expect(l).not.toMatch(/%.*\[|%.*verif|verif.*verif/);
    }
  }
  if (name === "claude") {
    // One composer at most, at the bottom; no stale separators or status lines above it.
    const seps = text.filter((l) => l.startsWith("────"));
    expect(seps.length).toBeLessThanOrEqual(1);
    const thinking = text.map((l, i) => (l.includes("Thinking…") ? i : -1)).filter((i) => i >= 0);
    expect(thinking.length).toBeLessThanOrEqual(1);
    // …and when it is there, it is the last line.
    expect(thinking.filter((i) => i !== text.length - 1)).toEqual([]);
  }
}

/** Feed `bytes` in seeded random chunks, polling in between; checks sync at every poll. */
async function replay(
  name: FixtureName,
  seed: number,
  opts: { asString?: boolean; pollRate?: number } = {},
): Promise<{ m: TerminalMirror; r: Reader; polls: number }> {
  const bytes = fixtureBytes(name);
  const m = mirror();
  const r = new Reader(m);
  const rand = mulberry32(seed);
  const data: string | Uint8Array = opts.asString ? bytes.toString("utf8") : bytes;
  const pollRate = opts.pollRate ?? 0.35;
  let polls = 0;
  for (let i = 0; i < data.length; ) {
    const size = rand() < 0.1 ? 1 + Math.floor(rand() * 400) : 1 + Math.floor(rand() * 24);
    m.write(typeof data === "string" ? data.slice(i, i + size) : data.subarray(i, i + size));
    i += size;
    if (rand() < pollRate) {
      await r.poll();
      polls++;
      await expectInSync(m, r);
      expectNoArtifacts(name, r.lines);
    }
  }
  await r.poll();
  await expectInSync(m, r);
  return { m, r, polls };
}

describe("fixtures", () => {
  it("are up to date with make-fixtures.ts", () => {
    const built = buildFixtures();
    expect(built.map((f) => f.name)).toEqual([...FIXTURES]);
    for (const f of built) {
      expect(fixtureBytes(f.name as FixtureName).equals(Buffer.from(f.bytes, "utf8"))).toBe(true);
      expect(fixtureExpected(f.name as FixtureName)).toEqual(f.expected);
    }
  });

  for (const name of FIXTURES) {
    it(`${name}: rendered read equals the expected transcript`, async () => {
      const m = mirror();
      m.write(fixtureBytes(name));
      expect(await everything(m)).toEqual(fixtureExpected(name));
      m.dispose();
    });
  }
});

describe("delta transcripts over TUI streams", () => {
  for (const name of FIXTURES) {
    it(`${name}: random chunks + deltas rebuild exactly the full read, without artifacts`, async () => {
      const expected = fixtureExpected(name);
      let polls = 0;
      for (const seed of [1, 2, 3, 4, 5, 6, 7, 8]) {
        const res = await replay(name, seed, { asString: seed % 2 === 0, pollRate: name === "bracketed" ? 0.6 : 0.35 });
        polls += res.polls;
        expect(res.r.lines.slice(res.m.firstLine)).toEqual(expected);
        expectNoArtifacts(name, res.r.lines);
        res.m.dispose();
      }
      expect(polls).toBeGreaterThan(8);
    });
  }

  it("spinner: a rewritten line is resent from before the cursor", async () => {
    const m = mirror();
    m.write("$ build\r\nLoading |");
    const d1 = await m.delta(0);
    expect(d1).toEqual({ text: "$ build\nLoading |\n", start: 0, cursor: 2, dropped: null });
    m.write("\rLoading /");
    const d2 = await m.delta(d1.cursor);
    expect(d2).toEqual({ text: "Loading /\n", start: 1, cursor: 2, dropped: null });
    m.write(`\r\x1b[K✔ Loaded\r\nnext\r\n`);
    const d3 = await m.delta(d2.cursor);
    expect(d3).toEqual({ text: "✔ Loaded\nnext\n", start: 1, cursor: 3, dropped: null });
    m.dispose();
  });

  it("claude: the redrawn composer is replaced, not appended, on every delta", async () => {
    const m = mirror();
    const sep = "─".repeat(FIXTURE_COLS);
    m.write(`hello\r\n${sep}\r\n> \r\n⠋ Thinking…`);
    const r = new Reader(m);
    await r.poll();
    expect(r.lines).toEqual(["hello", sep, ">", "⠋ Thinking…"]);
    m.write(`\r\x1b[2A\x1b[Jworld\r\n${sep}\r\n> \r\n⠙ Thinking…`);
    const d = await r.poll();
    expect(d.start).toBe(1);
    expect(d.text).toBe(`world\n${sep}\n>\n⠙ Thinking…\n`);
    expect(r.lines).toEqual(["hello", "world", sep, ">", "⠙ Thinking…"]);
    m.dispose();
  });

  it("two named readers polling at different times both stay exact", async () => {
    const bytes = fixtureBytes("claude");
    const m = mirror();
    const a = new Reader(m, "a");
    const b = new Reader(m, "b");
    const rand = mulberry32(42);
    for (let i = 0; i < bytes.length; ) {
      const size = 1 + Math.floor(rand() * 60);
      m.write(bytes.subarray(i, i + size));
      i += size;
      const x = rand();
      if (x < 0.3) await a.poll();
      else if (x < 0.45) await b.poll();
      else continue;
      await expectInSync(m, x < 0.3 ? a : b);
    }
    await a.poll();
    await b.poll();
    expect(a.lines).toEqual(fixtureExpected("claude"));
    expect(b.lines).toEqual(fixtureExpected("claude"));
    m.dispose();
  });

  it("a cursor unknown to the memo continues from the cursor (start = C)", async () => {
    const m = mirror();
    m.write("a\r\nb\r\nc\r\n");
    const d = await m.delta(1, { reader: "fresh" });
    expect(d).toEqual({ text: "b\nc\n", start: 1, cursor: 3, dropped: null });
    m.dispose();
  });

  it("a cursor beyond head returns nothing and keeps the cursor", async () => {
    const m = mirror();
    m.write("a\r\nb\r\n");
    expect(await m.delta(50)).toEqual({ text: "", start: 2, cursor: 50, dropped: null });
    m.dispose();
  });

  it("content shrinking below the cursor cuts the transcript back, then regrows", async () => {
    const m = mirror();
    const r = new Reader(m);
    m.write("one\r\ntwo\r\nthree\r\nfour");
    await r.poll();
    expect(r.cursor).toBe(4);
    m.write("\x1b[H\x1b[2Jonly");
    const d = await r.poll();
    expect(d).toEqual({ text: "only\n", start: 0, cursor: 4, dropped: null });
    expect(r.lines).toEqual(["only"]);
    const same = await r.poll();
    expect(same).toEqual({ text: "", start: 1, cursor: 4, dropped: null });
    m.write("\r\nx\r\ny\r\nz\r\nw");
    await r.poll();
    expect(r.lines).toEqual(["only", "x", "y", "z", "w"]);
    expect(r.cursor).toBe(5);
    m.dispose();
  });
});

describe("unchanged pane", () => {
  it("returns empty text and the same cursor", async () => {
    const m = mirror();
    m.write(fixtureBytes("claude"));
    const d1 = await m.delta(0);
    expect(d1.text).not.toBe("");
    for (let i = 0; i < 3; i++) {
      const d = await m.delta(d1.cursor);
      expect(d).toEqual({ text: "", start: d1.cursor, cursor: d1.cursor, dropped: null });
    }
    // A spinner that ticks back to the same frame is no change either.
    m.write("\r\x1b[K✻ Worked for 42s");
    expect(await m.delta(d1.cursor)).toEqual({ text: "", start: d1.cursor, cursor: d1.cursor, dropped: null });
    m.dispose();
  });

  it("an empty terminal has nothing to read", async () => {
    const m = mirror();
    expect(await m.screen()).toEqual({ text: "", cursor: 0 });
    expect(await m.tail(10)).toEqual({ text: "", cursor: 0 });
    expect(await m.delta(0)).toEqual({ text: "", start: 0, cursor: 0, dropped: null });
    expect(m.head).toBe(0);
    m.dispose();
  });
});

describe("absolute numbering and scrollback eviction", () => {
  const lines = (from: number, to: number): string => {
    let s = "";
    for (let i = from; i < to; i++) s += `line ${i}\r\n`;
    return s;
  };

  it("reports dropped lines and keeps numbering exact after eviction", async () => {
    const m = new TerminalMirror({ cols: 80, rows: 24 });
    m.write(lines(0, 100));
    const early = await m.delta(0);
    expect(early.cursor).toBe(100);
    expect(early.start).toBe(0);
    expect(splitLines(early.text)).toHaveLength(100);

    m.write(lines(100, 6000));
    await m.flush(); // head/firstLine are synchronous: state as parsed so far
    // 6000 lines + the blank cursor row = 6001 rows in a buffer of 5000 + 24: 977 dropped.
    expect(m.firstLine).toBe(977);
    expect(m.head).toBe(6000);
    const d = await m.delta(early.cursor);
    expect(d.dropped).toEqual({ from: 100, to: 977 });
    expect(d.start).toBe(977);
    expect(d.cursor).toBe(6000);
    const got = splitLines(d.text);
    expect(got).toHaveLength(6000 - 977);
    expect(got[0]).toBe("line 977");
    expect(got.at(-1)).toBe("line 5999");

    m.write(lines(6000, 6010));
    const next = await m.delta(d.cursor); // (delta waits for parsing)
    expect(next).toEqual({
      text: splitLines(lines(6000, 6010).replaceAll("\r", ""))
        .map((l) => `${l}\n`)
        .join(""),
      start: 6000,
      cursor: 6010,
      dropped: null,
    });
    expect(m.firstLine).toBe(987);
    expect((await m.tail(2)).text).toBe("line 6008\nline 6009\n");
    const t = await m.tail(Number.MAX_SAFE_INTEGER);
    expect(t.cursor).toBe(6010);
    expect(splitLines(t.text)[0]).toBe("line 987");
    // A current cursor read from a stale position inside retained scrollback: start = C.
    const mid = await m.delta(5000, { reader: "late" });
    expect(mid.start).toBe(5000);
    expect(splitLines(mid.text)[0]).toBe("line 5000");
    m.dispose();
  });

  it("counts drops exactly even for a single huge write", async () => {
    const m = new TerminalMirror({ cols: 80, rows: 24 });
    m.write(lines(0, 20000));
    await m.flush();
    expect(m.pendingBytes).toBe(0);
    expect(m.firstLine).toBe(20001 - 5024);
    expect(m.head).toBe(20000);
    expect((await m.tail(1)).text).toBe("line 19999\n");
    const d = await m.delta(0);
    expect(d.dropped).toEqual({ from: 0, to: 14977 });
    expect(splitLines(d.text)[0]).toBe("line 14977");
    m.dispose();
  });

  it("counts drops exactly with bare LFs and a raw byte stream", async () => {
    const m = new TerminalMirror({ cols: 10, rows: 5 });
    m.write(Buffer.from(`\r${"z\n\r".repeat(12000)}`));
    await m.flush();
    // 12000 lines + cursor row = 12001 rows in 5005: 6996 dropped.
    expect(m.firstLine).toBe(6996);
    expect(m.head).toBe(12000);
    m.dispose();
  });

  it("honours a larger scrollback and clamps a smaller one to 5000", async () => {
    const big = new TerminalMirror({ cols: 40, rows: 10, scrollback: 6000 });
    const small = new TerminalMirror({ cols: 40, rows: 10, scrollback: 100 });
    big.write(lines(0, 8000));
    small.write(lines(0, 8000));
    await big.flush();
    await small.flush();
    expect(big.firstLine).toBe(8001 - 6010);
    expect(small.firstLine).toBe(8001 - 5010);
    big.dispose();
    small.dispose();
  });

  it("ESC[3J drops the scrollback and keeps the viewport's numbers", async () => {
    const m = new TerminalMirror({ cols: 40, rows: 10 });
    m.write(lines(0, 50));
    const d1 = await m.delta(0);
    expect(d1.cursor).toBe(50);
    m.write("\x1b[3J");
    await m.flush();
    // 51 rows, 10 on screen: 41 scrollback rows cleared.
    expect(m.firstLine).toBe(41);
    expect(m.head).toBe(50);
    expect(await m.delta(d1.cursor)).toEqual({ text: "", start: 50, cursor: 50, dropped: null });
    expect(await m.delta(10, { reader: "old" })).toEqual({
      text: splitLines(lines(41, 50).replaceAll("\r", ""))
        .map((l) => `${l}\n`)
        .join(""),
      start: 41,
      cursor: 50,
      dropped: { from: 10, to: 41 },
    });
    m.write(lines(50, 52));
    expect(await m.delta(50)).toEqual({ text: "line 50\nline 51\n", start: 50, cursor: 52, dropped: null });
    m.dispose();
  });

  it("ESC[3J counts exactly when the anchor is far from the last scrollback row", async () => {
    const m = new TerminalMirror({ cols: 40, rows: 10 });
    m.write(lines(0, 4500));
    await m.flush();
    m.write(lines(4500, 4600));
    const d1 = await m.delta(0);
    expect(d1.cursor).toBe(4600);
    m.write("\x1b[3Jtail\r\n");
    await m.flush();
    // 4601 rows, 10 on screen: 4591 cleared.
    expect(m.firstLine).toBe(4591);
    expect(m.head).toBe(4601);
    expect(await m.delta(d1.cursor)).toEqual({ text: "tail\n", start: 4600, cursor: 4601, dropped: null });
    m.dispose();
  });

  it("RIS (ESC c) drops everything and numbering continues after head", async () => {
    const m = new TerminalMirror({ cols: 40, rows: 10 });
    m.write(lines(0, 30));
    const d1 = await m.delta(0);
    m.write("\x1bcfresh\r\n");
    await m.flush();
    expect(m.firstLine).toBe(30);
    expect(m.head).toBe(31);
    expect(await m.delta(d1.cursor)).toEqual({ text: "fresh\n", start: 30, cursor: 31, dropped: null });
    expect((await m.screen()).text).toBe("fresh\n");
    m.dispose();
  });
});

describe("alternate screen", () => {
  const bytes = fixtureBytes("altscreen");
  const exitAt = bytes.indexOf("\x1b[?1049l");

  it("screen/tail/delta return the alternate grid, then the normal content after exit", async () => {
    const m = mirror();
    const r = new Reader(m);
    m.write(bytes.subarray(0, bytes.indexOf("\x1b[?1049h")));
    await r.poll();
    expect(r.lines).toEqual(["$ vim notes.txt"]);

    m.write(bytes.subarray(bytes.indexOf("\x1b[?1049h"), exitAt));
    expect((await m.screen()).text).toBe(ALT_GRID.map((l) => `${l}\n`).join(""));
    expect(m.altScreen).toBe(true);
    expect(m.head).toBe(1 + FIXTURE_ROWS);
    expect(await m.tail(3)).toEqual({ text: `~\n~\n${ALT_GRID[11]}\n`, cursor: 1 + FIXTURE_ROWS });
    expect((await m.tail(100)).text).toBe(ALT_GRID.map((l) => `${l}\n`).join(""));

    const d = await r.poll();
    expect(d.start).toBe(1);
    expect(splitLines(d.text)).toEqual(ALT_GRID);
    expect(await m.delta(r.cursor)).toEqual({ text: "", start: r.cursor, cursor: r.cursor, dropped: null });

    // Only the bottom row changed: the whole grid is resent.
    m.write("\x1b[12;1H\x1b[K-- NORMAL --");
    const d2 = await r.poll();
    expect(d2.start).toBe(1);
    expect(splitLines(d2.text)).toEqual([...ALT_GRID.slice(0, 11), "-- NORMAL --"]);
    // An unknown cursor inside the grid also gets the whole grid.
    expect((await m.delta(5, { reader: "new" })).start).toBe(1);

    m.write(bytes.subarray(exitAt));
    await r.poll();
    expect(m.altScreen).toBe(false);
    expect(r.lines).toEqual(fixtureExpected("altscreen"));
    expect((await m.screen()).text).toBe("$ vim notes.txt\n$ echo done\ndone\n$\n");
    m.dispose();
  });
});

describe("serialize", () => {
  async function roundTrip(m: TerminalMirror): Promise<void> {
    const copy = new TerminalMirror({ cols: m.cols, rows: m.rows });
    copy.write(await m.serialize());
    // Text only: absolute numbers count the original's history (drops), the copy has none.
    expect((await copy.screen()).text).toBe((await m.screen()).text);
    expect((await copy.tail(Number.MAX_SAFE_INTEGER)).text).toBe((await m.tail(Number.MAX_SAFE_INTEGER)).text);
    expect(copy.altScreen).toBe(m.altScreen);
    expect(copy.bracketedPasteMode).toBe(m.bracketedPasteMode);
    copy.dispose();
  }

  for (const name of FIXTURES) {
    it(`${name}: a fresh mirror fed the snapshot reproduces the screen`, async () => {
      const m = mirror();
      m.write(fixtureBytes(name));
      await roundTrip(m);
      m.dispose();
    });
  }

  it("captures exactly what was written before the call (snapshot + later output = live)", async () => {
    const m = mirror();
    const claude = fixtureBytes("claude");
    const cut = Math.floor(claude.length / 2);
    let big = "";
    for (let i = 0; i < 40_000; i++) big += `filler ${i}\r\n`;
    m.write(big); // large enough to still be pending when serialize() is called
    m.write(claude.subarray(0, cut));
    expect(m.pendingBytes).toBeGreaterThan(0);
    const snap = m.serialize();
    m.write(claude.subarray(cut));
    const copy = mirror();
    copy.write(await snap);
    copy.write(claude.subarray(cut));
    expect((await copy.tail(Number.MAX_SAFE_INTEGER)).text).toBe((await m.tail(Number.MAX_SAFE_INTEGER)).text);
    expect(splitLines((await copy.tail(200)).text).slice(-fixtureExpected("claude").length)).toEqual(
      fixtureExpected("claude"),
    );
    copy.dispose();
    m.dispose();
  });

  it("reproduces an alternate screen and bracketed paste mode mid-session", async () => {
    const bytes = fixtureBytes("altscreen");
    const m = mirror();
    m.write("\x1b[?2004h");
    m.write(bytes.subarray(0, bytes.indexOf("\x1b[?1049l")));
    await roundTrip(m);
    expect(m.altScreen).toBe(true);
    expect(m.bracketedPasteMode).toBe(true);
    m.dispose();
  });
});

describe("bracketed paste mode", () => {
  it("follows the program's ESC[?2004h / ESC[?2004l", async () => {
    const m = mirror();
    expect(m.bracketedPasteMode).toBe(false);
    m.write("$ \x1b[?2004h");
    await m.flush();
    expect(m.bracketedPasteMode).toBe(true);
    m.write("echo hi\r\n\x1b[?2004l");
    await m.flush();
    expect(m.bracketedPasteMode).toBe(false);
    m.write(fixtureBytes("bracketed"));
    await m.flush();
    expect(m.bracketedPasteMode).toBe(true);
    m.dispose();
  });
});

describe("resize", () => {
  it("rows-only grow keeps deltas exact when pulled-back rows are rewritten", async () => {
    const m = new TerminalMirror({ cols: 40, rows: 10 });
    const r = new Reader(m);
    for (let i = 1; i <= 30; i++) m.write(`r${i}\r\n`);
    await r.poll();
    expect(r.cursor).toBe(30);
    m.resize(40, 16);
    expect([m.cols, m.rows]).toEqual([40, 16]);
    expect(splitLines((await m.screen()).text)).toEqual(Array.from({ length: 15 }, (_, i) => `r${i + 16}`));
    expect(await m.delta(30, { reader: "other" })).toEqual({ text: "", start: 30, cursor: 30, dropped: null });
    // Clear (the reader has not polled since the resize) the (now taller) screen: r16..r30 are erased, r16..r21 came from scrollback.
    m.write("\x1b[H\x1b[2Jtop");
    const d = await r.poll();
    expect(d).toEqual({ text: "top\n", start: 15, cursor: 30, dropped: null });
    expect(r.lines.slice(0, 16)).toEqual([...Array.from({ length: 15 }, (_, i) => `r${i + 1}`), "top"]);
    await expectInSync(m, r);
    m.dispose();
  });

  it("rows grow under the alternate screen: the grid's origin moves and is resent", async () => {
    const m = new TerminalMirror({ cols: 30, rows: 5 });
    const r = new Reader(m, "r");
    m.write(`top\r\n${"\r\n".repeat(10)}\x1b[?1049h\x1b[H`);
    m.write("~\r\n~\r\n~\r\n~\r\n~"); // identical rows: a shifted comparison looks unchanged
    await r.poll();
    const blanks = Array.from({ length: 6 }, () => "");
    expect(r.lines).toEqual(["top", ...blanks, "~", "~", "~", "~", "~"]);
    // Three blank scrollback rows come back into the normal viewport, where blank rows are
    // not content: the normal head, and with it the grid's origin, moves up by three.
    m.resize(30, 8);
    await m.flush();
    const d = await r.poll();
    expect(d.start).toBe(4);
    expect(r.lines).toEqual(["top", "", "", "", "~", "~", "~", "~", "~"]);
    await expectInSync(m, r);
    m.dispose();
  });

  it("rows-only shrink keeps the cursor row and numbering", async () => {
    const m = new TerminalMirror({ cols: 40, rows: 10 });
    const r = new Reader(m);
    m.write("a\r\nb\r\nc\r\nd\r\ne\r\nf");
    await r.poll();
    m.resize(40, 3);
    expect((await m.screen()).text).toBe("d\ne\nf\n");
    expect(await r.poll()).toEqual({ text: "", start: 6, cursor: 6, dropped: null });
    m.write("\r\ng");
    expect(await r.poll()).toEqual({ text: "g\n", start: 6, cursor: 7, dropped: null });
    await expectInSync(m, r);
    m.dispose();
  });

  it("a column change reflows, and older cursors get everything resent", async () => {
    const m = new TerminalMirror({ cols: 20, rows: 5 });
    const r = new Reader(m);
    m.write("abcdefghijklmnopqrstuvwxyz0123\r\nend");
    await r.poll();
    expect(r.lines).toEqual(["abcdefghijklmnopqrst", "uvwxyz0123", "end"]);
    m.resize(10, 5);
    expect((await m.screen()).text).toBe("abcdefghij\nklmnopqrst\nuvwxyz0123\nend\n");
    const d = await r.poll();
    expect(d.start).toBe(m.firstLine);
    await expectInSync(m, r);
    m.resize(40, 5);
    expect((await m.screen()).text).toBe("abcdefghijklmnopqrstuvwxyz0123\nend\n");
    await r.poll();
    await expectInSync(m, r);
    m.write("\r\nmore");
    await r.poll();
    await expectInSync(m, r);
    expect(r.lines.slice(m.firstLine)).toEqual(["abcdefghijklmnopqrstuvwxyz0123", "end", "more"]);
    m.dispose();
  });

  it("stays sane across resizes in the middle of a TUI stream", async () => {
    const bytes = fixtureBytes("claude");
    const m = mirror();
    const r = new Reader(m);
    const rand = mulberry32(7);
    const sizes: [number, number][] = [
      [60, 20],
      [60, 8],
      [80, 8],
      [50, 14],
      [60, 12],
    ];
    let k = 0;
    for (let i = 0; i < bytes.length; ) {
      const size = 1 + Math.floor(rand() * 300);
      m.write(bytes.subarray(i, i + size));
      i += size;
      if (rand() < 0.1) {
        const [c, rr] = sizes[k++ % sizes.length]!;
        m.resize(c, rr);
      }
      if (rand() < 0.4) {
        await r.poll();
        await expectInSync(m, r);
        const screen = splitLines((await m.screen()).text);
        expect(screen.length).toBeLessThanOrEqual(m.rows);
        for (const l of screen) expect([...l].length).toBeLessThanOrEqual(m.cols);
      }
    }
    await r.poll();
    await expectInSync(m, r);
    m.dispose();
  });
});

describe("random terminal programs", () => {
  // Random mixes of text, CR redraws, cursor moves, erases, scroll regions, insert/delete/
  // scroll lines, reverse index, alternate screen, ESC[3J, bursts of line feeds and rows
  // resizes, with two named readers and an anonymous one polling at random. Oracle for the
  // numbering: xterm's own count of rows trimmed off the normal buffer (private API, test
  // only).
  const trimCounter = (m: TerminalMirror): { count: number } => {
    const c = { count: 0 };
    const lines = (
      m as unknown as {
        term: { _core: { buffers: { normal: { lines: { onTrim(f: (n: number) => void): unknown } } } } };
      }
    ).term._core.buffers.normal.lines;
    lines.onTrim((n) => (c.count += n));
    return c;
  };

  async function run(seed: number): Promise<number> {
    const rand = mulberry32(seed);
    const ri = (n: number): number => Math.floor(rand() * n);
    const cols = 20 + ri(40);
    let rows = 4 + ri(12);
    const m = new TerminalMirror({ cols, rows });
    const trims = trimCounter(m);
    const readers = [new Reader(m, "a"), new Reader(m, "b"), new Reader(m)];
    const words = ["alpha", "beta", "⠋ spin", "progress [###   ]", "x", "", "long line ".repeat(8), "ü wide 中文 text"];
    let lastFirst = 0;
    for (let step = 0; step < 250; step++) {
      let s = "";
      for (let j = ri(30); j > 0; j--) {
        const r = rand();
        if (r < 0.3) s += words[ri(words.length)] + (rand() < 0.7 ? "\r\n" : "");
        else if (r < 0.4) s += `\r\x1b[K${words[ri(words.length)]}`;
        else if (r < 0.45) s += `\x1b[${1 + ri(4)}A`;
        else if (r < 0.5) s += `\x1b[${1 + ri(rows)};${1 + ri(cols)}H`;
        else if (r < 0.55) s += `\x1b[${ri(3)}J`;
        else if (r < 0.58) s += `\x1b[${ri(3)}K`;
        else if (r < 0.62) s += `\x1b[${1 + ri(3)}${"LMST"[ri(4)]}`;
        else if (r < 0.65) s += `\x1b[${1 + ri(3)};${2 + ri(rows)}r`;
        else if (r < 0.67) s += "\x1b[r";
        else if (r < 0.69) s += rand() < 0.5 ? "\x1b[?1049h" : "\x1b[?1049l";
        else if (r < 0.7) s += "\x1b[3J";
        else if (r < 0.8) s += "\n".repeat(1 + ri(rand() < 0.1 ? 3000 : 20));
        else if (r < 0.83) s += "\x1bM";
        else s += `line ${step}-${j}\r\n`;
      }
      m.write(s);
      if (rand() < 0.08) {
        rows = 4 + ri(12);
        m.resize(cols, rows);
      }
      if (rand() < 0.5) {
        const r = readers[ri(readers.length)]!;
        await r.poll();
        expect(m.firstLine).toBeGreaterThanOrEqual(lastFirst);
        lastFirst = m.firstLine;
        // These seeds make xterm fault nowhere (asserted below), so the numbering is always exact.
        expect(m.faults).toBe(0);
        expect(m.firstLine).toBe(trims.count);
        if (r === readers[2]) continue; // the anonymous memo is shared: not exact by contract
        await expectInSync(m, r);
      }
    }
    const faults = m.faults;
    m.dispose();
    return faults;
  }

  it("keep named readers exact and numbering equal to xterm's trim count", async () => {
    for (let seed = 1; seed <= 8; seed++) await run(seed);
  });
});

describe("xterm faults", () => {
  it("rebuild the terminal instead of throwing, and keep serving reads", async () => {
    const faults: Error[] = [];
    const m = new TerminalMirror({ cols: 53, rows: 10, onFault: (e) => faults.push(e) });
    const r = new Reader(m, "r");
    m.write("before\r\n");
    await r.poll();
    // xterm 6.0: shrinking rows while the alternate buffer is inactive leaves it too long;
    // a scroll region then grows it and a later resize makes the parser throw.
    m.resize(53, 5);
    m.write("\x1b[?1049h\x1b[1;4r\n\n\n\n\n\n");
    await m.flush();
    m.resize(53, 8);
    m.write(`${"x".repeat(300)}\n`);
    await m.flush();
    m.resize(53, 11);
    m.write("\x1b[11;35H\x1b[2K");
    await m.flush();
    expect(m.faults).toBe(1);
    expect(faults[0]).toBeInstanceOf(TypeError);
    m.write("\x1b[?1049l\x1b[r\r\nafter\r\n");
    await r.poll();
    await expectInSync(m, r);
    expect(r.lines.at(-1)).toBe("after");
    expect(r.lines[0]).toBe("before");
    m.dispose();
  });
});

describe("pipeline", () => {
  it("mirrors a real PTY (node-pty) process", async () => {
    const pty = await import("node-pty");
    const m = new TerminalMirror({ cols: 40, rows: 10 });
    const p = pty.spawn("/bin/sh", ["-c", "printf 'one\\nLoading |\\rLoading /\\r\\033[Kdone\\n\\033[?2004h$ '"], {
      cols: 40,
      rows: 10,
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin", TERM: "xterm-256color" },
    });
    p.onData((d) => m.write(d));
    await new Promise<void>((resolve) => p.onExit(() => resolve()));
    // Output may still be in flight right after exit: wait for the prompt to be parsed.
    const deadline = Date.now() + 5000;
    while (!(await m.tail(1)).text.startsWith("$") && Date.now() < deadline) {
      await new Promise<void>((resolve) => {
        const done = () => {
          sub.dispose();
          resolve();
        };
        const sub = m.onWriteParsed(done);
        setTimeout(done, 50);
      });
    }
    expect((await m.tail(10)).text).toBe("one\ndone\n$\n");
    expect(m.bracketedPasteMode).toBe(true);
    m.dispose();
  });

  it("queues writes and parses them right after (pendingBytes, flush)", async () => {
    const m = mirror();
    m.write("$ ");
    expect(m.pendingBytes).toBe(2);
    await new Promise((resolve) => setImmediate(resolve));
    expect(m.pendingBytes).toBe(0); // parsed in the same event-loop turn, no timer
    expect(m.head).toBe(1);
    m.write("y\r\n".repeat(1_000_000));
    expect(m.pendingBytes).toBeGreaterThan(0);
    await m.flush();
    expect(m.pendingBytes).toBe(0);
    expect(m.head).toBe(1_000_000);
    m.dispose();
  });

  it("flush resolves after dispose and reads then fail", async () => {
    const m = mirror();
    m.write("x\r\n".repeat(1_000_000));
    const f = m.flush();
    const snap = m.serialize();
    m.dispose();
    await f;
    await expect(snap).rejects.toThrow(/disposed/);
    await expect(m.screen()).rejects.toThrow(/disposed/);
    m.write("ignored");
  });
});

describe("restoring a saved screen (startLine, views)", () => {
  async function restore(m: TerminalMirror): Promise<TerminalMirror> {
    await m.flush();
    const data = await m.serialize();
    const r = new TerminalMirror({
      cols: m.cols,
      rows: m.rows,
      scrollback: m.scrollbackLines,
      startLine: m.firstLine,
      views: m.exportViews(),
    });
    r.write(data);
    await r.flush();
    return r;
  }

  it("keeps absolute numbering, dropped ranges and every read after scrollback eviction", async () => {
    const m = new TerminalMirror({ cols: 40, rows: 10 });
    for (let i = 1; i <= 7000; i++) m.write(`line ${i}\r\n`);
    m.write("$ ");
    const r = await restore(m);
    expect(r.firstLine).toBe(m.firstLine);
    expect(r.firstLine).toBeGreaterThan(0);
    expect(r.head).toBe(m.head);
    expect(await r.tail(Number.MAX_SAFE_INTEGER)).toEqual(await m.tail(Number.MAX_SAFE_INTEGER));
    expect(await r.screen()).toEqual(await m.screen());
    const d = await r.delta(5);
    expect(d).toEqual(await m.delta(5));
    expect(d.dropped).toEqual({ from: 5, to: m.firstLine });
    expect(await r.delta(m.head)).toMatchObject({ text: "", start: m.head, cursor: m.head });
    m.dispose();
    r.dispose();
  });

  it("carries the delta memo: a cursor handed out before the save still sees the rewrites before it", async () => {
    const m = new TerminalMirror({ cols: 40, rows: 8 });
    m.write("history\r\n> composing\r\nstatus: thinking");
    const before = await m.delta(0, { reader: "orchestrator" });
    const anon = await m.delta(0);
    m.write("\r\x1b[1A\x1b[J> sent\r\nstatus: done\r\nbye\r\n");
    const r = await restore(m);
    const live = await m.delta(before.cursor, { reader: "orchestrator" });
    expect(live.start).toBeLessThan(before.cursor); // the rewrite is visible to the live mirror...
    expect(await r.delta(before.cursor, { reader: "orchestrator" })).toEqual(live); // ...and to the restored one
    expect(await r.delta(anon.cursor)).toEqual(await m.delta(anon.cursor));
    expect(splitLines((await r.tail(10)).text)).toEqual(["history", "> sent", "status: done", "bye"]);
    m.dispose();
    r.dispose();
  });

  it("restores the alternate screen with the grid numbered after the normal content", async () => {
    const m = new TerminalMirror({ cols: 30, rows: 6 });
    m.write("shell line\r\n\x1b[?1049h\x1b[H\x1b[2Jtui top\x1b[4;3Hmiddle");
    const r = await restore(m);
    expect(r.altScreen).toBe(true);
    expect(r.head).toBe(m.head);
    expect(await r.screen()).toEqual(await m.screen());
    expect(await r.delta(0)).toEqual(await m.delta(0));
    m.dispose();
    r.dispose();
  });

  it("exportViews keeps the newest entries within its budget and marks renumbered ones stale", async () => {
    const m = new TerminalMirror({ cols: 40, rows: 8 });
    m.write("a\r\nb\r\n");
    const old = await m.delta(0, { reader: "old" });
    m.resize(30, 8); // renumbers: cursors handed out before resend everything
    m.write("c\r\n");
    const fresh = await m.delta(0, { reader: "new" });
    const views = m.exportViews();
    expect(views.map((v) => [v.reader, v.cursor, v.current])).toEqual([
      ["old", old.cursor, false],
      ["new", fresh.cursor, true],
    ]);
    expect(m.exportViews(30).map((v) => v.reader)).toEqual(["new"]); // "new" costs 25, "old" 23
    const r = await restore(m);
    expect(await r.delta(old.cursor, { reader: "old" })).toEqual(await m.delta(old.cursor, { reader: "old" }));
    m.dispose();
    r.dispose();
  });
});
