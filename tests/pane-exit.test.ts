// Panes at and after exit, through the real pane host over real PTYs and a real SQLite data dir:
// the final screen is saved before the pane is reported exited and the host's mirror is
// disposed; exited panes are read from the saved screen, also after a restart (new services over
// the same data dir); output written right before exit is never lost, even with the server's
// event loop kept busy; backpressure bounds the mirror's backlog without losing a byte; xterm
// faults are journaled.
import { ProfileStore } from "../server/stores/profiles";
import { EventStore } from "../server/stores/events";
import { PaneStore } from "../server/stores/panes";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { paths } from "../server/config";
import { AgentProfiles } from "../server/core/agents/profiles";
import { EventJournal, type YardEvent } from "../server/core/events/journal";
import { type PaneInfo, PaneManager } from "../server/core/panes/manager";
import { splitLines, TerminalMirror } from "../server/core/panes/mirror";
import { openDatabase } from "../server/db";
import { PaneHostClient } from "../server/panehost/client";
import { createServices, type Services } from "../server/composition";
import { hostStatus } from "./helpers/panehost";
import { HOST_BUNDLE, ROOT } from "./helpers/server";

const FLOOD = path.join(ROOT, "tests/programs/flood.mjs");
const FAULT_STAGES = path.join(ROOT, "tests/programs/fault-stages.mjs");
const TOKEN = "test-token-test-token-test-token-test-token";

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

function tempHome(): string {
  const home = mkdtempSync(path.join(os.tmpdir(), "yard-pane-exit-"));
  cleanups.push(() => rmSync(home, { recursive: true, force: true }));
  return home;
}

async function services(home: string): Promise<Services> {
  const s = await createServices({ home, token: TOKEN, url: () => "http://127.0.0.1:9", hostEntry: HOST_BUNDLE });
  let closed = false;
  const close = s.close.bind(s);
  s.close = async () => {
    if (closed) return;
    closed = true;
    await close();
  };
  cleanups.push(() => s.close());
  return s;
}

/** Resolves with the pane's info once the manager has finished its exit (listeners run last). */
async function exitOf(panes: PaneManager, id: string): Promise<PaneInfo> {
  return new Promise((resolve, reject) => {
    panes.attach(id, { exit: (info) => resolve({ ...info }) }).then((a) => {
      if (!a.pane.live) resolve(a.pane);
    }, reject);
  });
}

/** Resolves with the screen once it matches `re`, re-checking whenever the pane writes. */
function untilScreen(panes: PaneManager, id: string, re: RegExp, timeoutMs = 20_000): Promise<string> {
  return new Promise((resolve, reject) => {
    let done = false;
    let checking = false;
    let again = false;
    let detach = () => {};
    let last = "";
    const finish = (v: string | Error) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      detach();
      if (v instanceof Error) reject(v);
      else resolve(v);
    };
    const timer = setTimeout(() => finish(new Error(`screen never matched ${re}; last:\n${last}`)), timeoutMs);
    const check = async () => {
      if (checking) {
        again = true;
        return;
      }
      checking = true;
      try {
        do {
          again = false;
          last = (await panes.read(id, { mode: "screen" })).text;
          if (re.test(last)) return finish(last);
        } while (again && !done);
      } catch (e) {
        finish(e as Error);
      } finally {
        checking = false;
      }
    };
    panes.attach(id, { output: () => void check(), exit: () => void check() }).then((a) => {
      detach = a.detach;
      if (done) a.detach();
      void check();
    }, finish);
  });
}

function nextEvent(
  journal: EventJournal,
  q: { paneId: string; type: string },
  accept: (e: YardEvent) => boolean = () => true,
): Promise<YardEvent> {
  return new Promise((resolve) => {
    const off = journal.subscribe((e) => {
      if (!accept(e)) return;
      off();
      resolve(e);
    }, q);
  });
}

const all = async (panes: PaneManager, id: string) =>
  splitLines((await panes.read(id, { mode: "tail", lines: 1_000_000 })).text);

describe("final screen", () => {
  it("is saved before the pane is reported exited; the mirror is disposed and reads come from the saved screen, also after a restart", async () => {
    const home = tempHome();
    const s1 = await services(home);
    const script =
      "stty -echo; printf 'first line\\nsecond line\\n\\033[1mstatus: working'; read x; printf '\\r\\033[Kstatus: done\\nbye\\n'";
    const pane = await s1.panes.spawn({ argv: ["sh", "-c", script], cwd: home, cols: 60, rows: 8 });
    await untilScreen(s1.panes, pane.id, /status: working/);
    const before = await s1.panes.read(pane.id, { mode: "delta", cursor: 0, reader: "orchestrator" });
    expect(splitLines(before.text)).toEqual(["first line", "second line", "status: working"]);
    expect(await hostStatus(home)).toMatchObject({ running: 1, mirrors: 1 });

    const file = path.join(paths(home).screens, `${pane.id}.json`);
    // At the moment the journal says "exited", the screen is on disk and a read succeeds.
    const atExitEvent = nextEvent(
      s1.journal,
      { paneId: pane.id, type: "pane.lifecycle" },
      (e) => e.payload.to === "exited",
    ).then(async (e) => ({
      e,
      saved: existsSync(file),
      tail: await s1.panes.read(pane.id, { mode: "tail", lines: 10 }),
    }));
    const exited = exitOf(s1.panes, pane.id);
    await s1.panes.sendKeys(pane.id, "go", { enter: true });
    const info = await exited;
    expect(info).toMatchObject({ lifecycle: "exited", exitCode: 0, live: false });
    const seen = await atExitEvent;
    expect(seen.saved).toBe(true);
    expect(splitLines(seen.tail.text)).toEqual(["first line", "second line", "status: done", "bye"]);

    // Neither the manager nor the host holds the pane any more; the host's mirror is disposed.
    expect(s1.panes.isLive(pane.id)).toBe(false);
    expect(await hostStatus(home)).toMatchObject({ running: 0, mirrors: 0 });

    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(paths(home).screens).mode & 0o777).toBe(0o700);
    const saved = JSON.parse(readFileSync(file, "utf8"));
    expect(saved).toMatchObject({ paneId: pane.id, cols: 60, rows: 8, firstLine: 0, head: 4, altScreen: false });

    // The cursor handed out before exit still has its semantics: the rewritten status line is resent.
    const after = await s1.panes.read(pane.id, { mode: "delta", cursor: before.cursor, reader: "orchestrator" });
    expect(after.start).toBe(2);
    const transcript = splitLines(before.text);
    transcript.length = after.start;
    transcript.push(...splitLines(after.text));
    expect(transcript).toEqual(["first line", "second line", "status: done", "bye"]);
    const unchanged = await s1.panes.read(pane.id, { mode: "delta", cursor: after.cursor, reader: "orchestrator" });
    expect(unchanged).toMatchObject({ text: "", start: after.cursor, cursor: after.cursor, dropped: null });
    const screen1 = await s1.panes.read(pane.id, { mode: "screen" });
    const snap1 = await s1.panes.snapshot(pane.id);

    await s1.close();
    const s2 = await services(home);
    expect(await s2.panes.get(pane.id)).toMatchObject({ lifecycle: "exited", exitCode: 0, live: false });
    expect(await s2.panes.read(pane.id, { mode: "screen" })).toEqual(screen1);
    expect(await all(s2.panes, pane.id)).toEqual(["first line", "second line", "status: done", "bye"]);
    expect(await s2.panes.read(pane.id, { mode: "delta", cursor: before.cursor, reader: "orchestrator" })).toEqual(
      after,
    );
    expect(await s2.panes.read(pane.id, { mode: "delta", cursor: after.cursor })).toMatchObject({
      text: "",
      cursor: after.cursor,
      dropped: null,
    });
    expect(s2.panes.isLive(pane.id)).toBe(false);

    // The browser's attach gets the saved snapshot, which renders the same screen.
    const attached = await s2.panes.attach(pane.id, {});
    expect(attached.snapshot).toEqual(snap1);
    expect(attached.pane.live).toBe(false);
    const rendered = new TerminalMirror({ cols: attached.snapshot.cols, rows: attached.snapshot.rows });
    rendered.write(attached.snapshot.data);
    expect(splitLines((await rendered.tail(100)).text)).toEqual(["first line", "second line", "status: done", "bye"]);
    rendered.dispose();
  });

  it("keeps the rebuilt read-only mirrors of exited panes to a small cache", async () => {
    const home = tempHome();
    const s = await services(home);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const p = await s.panes.spawn({ argv: ["sh", "-c", `echo pane-${i}`], cwd: home });
      const exited = exitOf(s.panes, p.id);
      await exited;
      ids.push(p.id);
    }
    for (const [i, id] of ids.entries()) expect(await all(s.panes, id)).toEqual([`pane-${i}`]);
    expect(s.panes.screens.cached).toBe(3);
    expect((await s.panes.read(ids[0]!, { mode: "tail", lines: 5 })).text).toBe("pane-0\n"); // evicted, rebuilt again
  });
});

describe("output written right before exit", () => {
  it("is all readable afterwards, in order, with the event loop kept busy — and after a restart", async () => {
    const previous = process.env.YARD_SCROLLBACK_LINES;
    process.env.YARD_SCROLLBACK_LINES = "12000";
    cleanups.push(() => {
      if (previous === undefined) delete process.env.YARD_SCROLLBACK_LINES;
      else process.env.YARD_SCROLLBACK_LINES = previous;
    });
    const home = tempHome();
    const s1 = await services(home);
    const expected = Array.from({ length: 10_000 }, (_, i) => `line ${i + 1}`);
    const spawned = await Promise.all(
      [0, 1, 2].map(() => s1.panes.spawn({ argv: ["seq", "-f", "line %.0f", "1", "10000"], cwd: home, rows: 24 })),
    );
    const exits = spawned.map((p) => exitOf(s1.panes, p.id));
    // Keep the main thread busy: longer than node-pty's 200 ms socket timeout at once, then in bursts.
    const busy = (ms: number) => {
      const until = Date.now() + ms;
      while (Date.now() < until) {
        // spin
      }
    };
    busy(400);
    const burst = setInterval(() => busy(40), 50);
    try {
      await Promise.all(exits);
    } finally {
      clearInterval(burst);
    }
    for (const p of spawned) {
      expect(await all(s1.panes, p.id)).toEqual(expected);
      const d = await s1.panes.read(p.id, { mode: "delta", cursor: 0 });
      expect(d.dropped).toBeNull();
      expect(d.cursor).toBe(10_000);
    }
    await s1.close();
    const s2 = await services(home);
    for (const p of spawned) expect(await all(s2.panes, p.id)).toEqual(expected);
  }, 60_000);

  it("YARD_SCROLLBACK_LINES below the minimum is refused at start-up", async () => {
    const previous = process.env.YARD_SCROLLBACK_LINES;
    process.env.YARD_SCROLLBACK_LINES = "100";
    try {
      await expect(createServices({ home: tempHome(), token: TOKEN, url: () => "" })).rejects.toThrow(
        "YARD_SCROLLBACK_LINES must be a whole number of lines from 5000 to 100000 (got 100)",
      );
    } finally {
      if (previous === undefined) delete process.env.YARD_SCROLLBACK_LINES;
      else process.env.YARD_SCROLLBACK_LINES = previous;
    }
  });
});

describe("backpressure", () => {
  it("pauses a producer that outruns the parser, keeps the backlog bounded and loses no byte", async () => {
    const home = tempHome();
    const { db } = await openDatabase(paths(home).db);
    cleanups.push(() => db.$disconnect());
    const journal = new EventJournal(new EventStore(db));
    const high = 16 * 1024;
    const host = await PaneHostClient.open({ home, log: () => {}, entry: HOST_BUNDLE });
    const panes = new PaneManager({
      store: new PaneStore(db),
      journal,
      agents: new AgentProfiles(new ProfileStore(db)),
      home,
      url: () => "",
      host,
      scrollbackLines: 12_000,
      backpressure: { highBytes: high, lowBytes: 4 * 1024 },
    });
    await host.ready();
    cleanups.push(() => panes.shutdown());
    // Four panes writing output that is slow to parse (alternate-screen switches) as fast as they can.
    const lines = 5000;
    const spawned = await Promise.all(
      [0, 1, 2, 3].map(() =>
        panes.spawn({ argv: [process.execPath, FLOOD, String(lines), "2"], cwd: home, cols: 80, rows: 24 }),
      ),
    );
    const stats = await Promise.all(
      spawned.map(
        (p) =>
          new Promise<Awaited<ReturnType<PaneManager["flowStats"]>>>((resolve, reject) => {
            panes.attach(p.id, { exit: () => resolve(panes.flowStats(p.id)) }).catch(reject);
          }),
      ),
    );
    const expected = Array.from({ length: lines }, (_, i) => `L${i + 1}`);
    for (const [i, p] of spawned.entries()) {
      const s = stats[i]!;
      expect(s).not.toBeNull();
      expect(s!.backpressurePauses).toBeGreaterThan(0);
      // One more PTY read after the high-water mark, plus what the kernel still held at exit.
      expect(s!.maxPendingBytes).toBeLessThanOrEqual(high + 32 * 1024);
      expect(await all(panes, p.id)).toEqual(expected);
    }
  }, 60_000);
});

describe("xterm faults", () => {
  it("are journaled as pane.fault with the message and count, and the pane keeps serving reads", async () => {
    const home = tempHome();
    const s = await services(home);
    const pane = await s.panes.spawn({ argv: [process.execPath, FAULT_STAGES], cwd: home, cols: 53, rows: 10 });
    await untilScreen(s.panes, pane.id, /before/);
    await s.panes.resize(pane.id, 53, 5);
    await untilScreen(s.panes, pane.id, /stage2/);
    await s.panes.resize(pane.id, 53, 8);
    await untilScreen(s.panes, pane.id, /stage3/);
    const fault = nextEvent(s.journal, { paneId: pane.id, type: "pane.fault" });
    await s.panes.resize(pane.id, 53, 11);
    const e = await fault;
    expect(e.payload).toMatchObject({ error: "TypeError", count: 1, covers: 1 });
    expect(typeof e.payload.message).toBe("string");
    expect((e.payload.message as string).length).toBeGreaterThan(0);
    expect((e.payload.message as string).length).toBeLessThanOrEqual(300);
    await s.panes.resize(pane.id, 53, 12);
    expect(await untilScreen(s.panes, pane.id, /after/)).toMatch(/^after$/m);
    await s.panes.kill(pane.id);
    expect((await s.journal.list({ paneId: pane.id, type: "pane.fault" })).length).toBe(1);
  });
});
