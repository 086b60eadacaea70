// readRegularFile against what an agent can plant: a FIFO nobody writes to, /dev/zero, a link
// to a host file, a file too large, a path that leaves its directory through a linked parent.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { isInside, readRegularFile } from "./safe-fs";

const dir = mkdtempSync(path.join(os.tmpdir(), "yard-safefs-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("readRegularFile", () => {
  it("reads a regular file", async () => {
    writeFileSync(path.join(dir, "ok.txt"), "hello");
    const r = await readRegularFile(path.join(dir, "ok.txt"), { maxBytes: 100 });
    expect(r.ok && r.value.toString()).toBe("hello");
  });

  it("refuses a FIFO at once instead of blocking on it", async () => {
    const fifo = path.join(dir, "fifo");
    execFileSync("mkfifo", [fifo]);
    const r = await readRegularFile(fifo, { maxBytes: 100 });
    expect(r).toMatchObject({ ok: false, reason: "not_regular" });
  });

  it("refuses a device (/dev/zero) and a link to one", async () => {
    expect(await readRegularFile("/dev/zero", { maxBytes: 100 })).toMatchObject({ ok: false, reason: "not_regular" });
    symlinkSync("/dev/zero", path.join(dir, "zero"));
    expect(await readRegularFile(path.join(dir, "zero"), { maxBytes: 100 })).toMatchObject({ ok: false, reason: "symlink" });
  });

  it("never follows a link in the last component, even to a regular file", async () => {
    writeFileSync(path.join(dir, "secret"), "host secret");
    symlinkSync(path.join(dir, "secret"), path.join(dir, "link"));
    expect(await readRegularFile(path.join(dir, "link"), { maxBytes: 100 })).toMatchObject({ ok: false, reason: "symlink" });
  });

  it("refuses a file over the cap without reading it", async () => {
    writeFileSync(path.join(dir, "big"), Buffer.alloc(1000));
    expect(await readRegularFile(path.join(dir, "big"), { maxBytes: 999 })).toMatchObject({ ok: false, reason: "too_large" });
  });

  it("answers missing for a file that is not there", async () => {
    expect(await readRegularFile(path.join(dir, "nope"), { maxBytes: 10 })).toMatchObject({ ok: false, reason: "missing" });
  });

  it("with `within`, refuses a path that leaves the directory through a linked parent", async () => {
    const inside = path.join(dir, "inside");
    const outside = path.join(dir, "outside");
    mkdirSync(inside);
    mkdirSync(outside);
    writeFileSync(path.join(outside, "f"), "x");
    symlinkSync(outside, path.join(inside, "sub"));
    expect(await readRegularFile(path.join(inside, "sub", "f"), { maxBytes: 10, within: inside })).toMatchObject({ ok: false, reason: "outside" });
    writeFileSync(path.join(inside, "g"), "y");
    const r = await readRegularFile(path.join(inside, "g"), { maxBytes: 10, within: inside });
    expect(r.ok).toBe(true);
    expect(await isInside(path.join(inside, "not-yet", "h"), inside)).toBe(true);
    expect(await isInside(path.join(inside, "sub", "h"), inside)).toBe(false);
  });
});
