// The pane host's mirror pool with a real worker thread: output handed over in bursts (which the
// pool holds and sends together) is parsed whole and in order with resizes and reads, progress
// reports add up to every byte, and the final screen holds everything written before the exit.
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { FinalScreenStore } from "../core/panes/final-screen";
import { splitLines } from "../core/panes/mirror";
import { MirrorPool } from "./mirror-pool";

const screens = mkdtempSync(path.join(os.tmpdir(), "yard-pool-"));
const parsed = new Map<string, number>();
const pool = new MirrorPool(
  { size: 1, screens, log: () => {} },
  { parsed: (id, total) => parsed.set(id, total), fault: () => {} },
);
await pool.start();
afterAll(async () => {
  await pool.close();
  rmSync(screens, { recursive: true, force: true });
});

const bytes = (s: string) => new TextEncoder().encode(s);
const read = async (id: string, lines = 1000) =>
  splitLines((await pool.request<{ text: string }>(id, "read", { mode: "tail", lines })).text);

describe("mirror pool", () => {
  it("a read right after a burst of writes sees every byte, in order", async () => {
    pool.create("panepoolone", { cols: 40, rows: 10, scrollback: 5000 });
    expect(await read("panepoolone")).toEqual([]); // the worker is up
    const want: string[] = [];
    let sent = 0;
    for (let i = 0; i < 300; i++) {
      want.push(`line ${i}`);
      // ArrayBuffers (transferred) and views (copied) alike, one line at a time.
      const data = bytes(`line ${i}\r\n`);
      pool.write("panepoolone", i % 2 ? data.buffer : data);
      sent += data.byteLength;
    }
    expect(await read("panepoolone")).toEqual(want);
    await expect.poll(() => parsed.get("panepoolone")).toBe(sent);
    pool.dispose("panepoolone");
  });

  it("a resize applies after the output written before it, a later write after it", async () => {
    pool.create("panepooltwo", { cols: 20, rows: 5, scrollback: 5000 });
    const edge = bytes("x\x1b[999Cy\r\n"); // y in the last column
    pool.write("panepooltwo", edge.slice());
    pool.resize("panepooltwo", 40, 5);
    pool.write("panepooltwo", edge.slice());
    expect(await read("panepooltwo")).toEqual([`x${" ".repeat(18)}y`, `x${" ".repeat(38)}y`]);
    pool.dispose("panepooltwo");
  });

  it("the final screen holds the output handed over just before the exit", async () => {
    pool.create("panepoolthree", { cols: 40, rows: 10, scrollback: 5000 });
    pool.write("panepoolthree", bytes("first\r\n"));
    pool.write("panepoolthree", bytes("last words\r\n"));
    const r = await pool.request<{ error: string | null }>("panepoolthree", "finalize");
    expect(r.error).toBeNull();
    pool.forget("panepoolthree");
    const screen = await new FinalScreenStore(screens).load("panepoolthree");
    expect(JSON.stringify(screen)).toContain("last words");
  });
});
