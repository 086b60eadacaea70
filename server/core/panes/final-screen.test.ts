// FinalScreenStore: durable 0600 files in a 0700 dir written atomically, faithful reloads,
// unreadable files treated as missing, and a bounded cache of rebuilt read-only mirrors.
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { captureFinalScreen, FinalScreenStore } from "./final-screen";
import { splitLines, TerminalMirror } from "./mirror";

const dirs: string[] = [];
afterEach(() => {
  vi.useRealTimers();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function store(opts?: ConstructorParameters<typeof FinalScreenStore>[1]) {
  const root = mkdtempSync(path.join(os.tmpdir(), "yard-screens-"));
  dirs.push(root);
  return new FinalScreenStore(path.join(root, "screens"), opts);
}

async function screenOf(text: string, cols = 40, rows = 6) {
  const m = new TerminalMirror({ cols, rows });
  m.write(text);
  const s = await captureFinalScreen(m);
  return { m, s };
}

describe("FinalScreenStore", () => {
  it("saves a 0600 file in a 0700 dir, leaves no temp file, and loads it back unchanged", async () => {
    const st = store();
    mkdirSync(st.dir, { mode: 0o755 });
    chmodSync(st.dir, 0o755);
    const { m, s } = await screenOf("one\r\ntwo\r\n\x1b[31mred\x1b[0m");
    await m.delta(0, { reader: "r" });
    const withViews = await captureFinalScreen(m);
    await st.save("paneabc123", withViews);
    expect(statSync(st.dir).mode & 0o777).toBe(0o700);
    expect(statSync(path.join(st.dir, "paneabc123.json")).mode & 0o777).toBe(0o600);
    expect(readdirSync(st.dir)).toEqual(["paneabc123.json"]);
    expect(await st.load("paneabc123")).toEqual(withViews);
    expect(withViews.views.map((v) => v.reader)).toEqual(["r"]);
    expect(s).toMatchObject({ cols: 40, rows: 6, firstLine: 0, head: 3, altScreen: false });
    m.dispose();
  });

  it("treats a missing, corrupt or foreign file as no screen, and refuses ids that are not pane ids", async () => {
    const st = store();
    expect(await st.load("panemissing1")).toBeNull();
    expect(await st.mirror("panemissing1")).toBeNull();
    expect(st.cached).toBe(0);
    mkdirSync(st.dir, { recursive: true });
    writeFileSync(path.join(st.dir, "panebroken1.json"), "{not json");
    expect(await st.load("panebroken1")).toBeNull();
    const { m, s } = await screenOf("x\r\n");
    await st.save("paneother11", s);
    writeFileSync(
      path.join(st.dir, "panecopied1.json"),
      JSON.stringify({ version: 1, paneId: "paneother11", savedAt: "", ...s }),
    ); // another pane's screen
    expect(await st.load("panecopied1")).toBeNull();
    await expect(st.save("../escape", s)).rejects.toMatchObject({ code: "BAD_PARAMS" });
    m.dispose();
  });

  it("rebuilds read-only mirrors on demand, keeps at most cacheSize, and disposes evicted ones", async () => {
    const st = store({ cacheSize: 2 });
    for (const id of ["panea0001", "paneb0002", "panec0003"]) {
      const { m, s } = await screenOf(`screen of ${id}\r\n`);
      await st.save(id, s);
      m.dispose();
    }
    const a = (await st.mirror("panea0001"))!;
    expect(splitLines((await a.tail(5)).text)).toEqual(["screen of panea0001"]);
    expect(await st.mirror("panea0001")).toBe(a); // cached
    const b = (await st.mirror("paneb0002"))!;
    await st.mirror("panea0001"); // a is now the most recently used
    const c = (await st.mirror("panec0003"))!;
    expect(st.cached).toBe(2);
    expect(b.isDisposed).toBe(true);
    expect(a.isDisposed).toBe(false);
    expect(c.isDisposed).toBe(false);
    const { m, s } = await screenOf("replaced\r\n");
    await st.save("panea0001", s); // a newer save makes the rebuilt mirror stale
    m.dispose();
    expect(a.isDisposed).toBe(true);
    expect(splitLines((await (await st.mirror("panea0001"))!.tail(5)).text)).toEqual(["replaced"]);
    st.close();
    expect(c.isDisposed).toBe(true);
    expect(st.cached).toBe(0);
  });

  it("disposes a rebuilt mirror left unused for idleMs", async () => {
    const st = store({ idleMs: 30_000 });
    const { m, s } = await screenOf("idle\r\n");
    await st.save("paneidle01", s);
    m.dispose();
    const rebuilt = (await st.mirror("paneidle01"))!;
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    await st.mirror("paneidle01"); // touched: the idle clock restarts under fake timers
    vi.advanceTimersByTime(29_999);
    expect(rebuilt.isDisposed).toBe(false);
    vi.advanceTimersByTime(1);
    expect(rebuilt.isDisposed).toBe(true);
    expect(st.cached).toBe(0);
  });
});
