// readRegularFile against what an agent can plant: a FIFO nobody writes to, /dev/zero, a link
// to a host file, a file too large, a path that leaves its directory through a linked parent,
// a file of another user's; and the writer (replaceRegularFile), which never writes through a
// link, into a FIFO or in a linked directory.
import { execFileSync } from "node:child_process";
import {
  chownSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  currentUid,
  isInside,
  isUnder,
  readRegularFile,
  readRegularFileSync,
  realDirectory,
  replaceRegularFile,
} from "./safe-fs";

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
    expect(await readRegularFile(path.join(dir, "zero"), { maxBytes: 100 })).toMatchObject({
      ok: false,
      reason: "symlink",
    });
  });

  it("never follows a link in the last component, even to a regular file", async () => {
    writeFileSync(path.join(dir, "secret"), "host secret");
    symlinkSync(path.join(dir, "secret"), path.join(dir, "link"));
    expect(await readRegularFile(path.join(dir, "link"), { maxBytes: 100 })).toMatchObject({
      ok: false,
      reason: "symlink",
    });
  });

  it("refuses a file over the cap without reading it", async () => {
    writeFileSync(path.join(dir, "big"), Buffer.alloc(1000));
    expect(await readRegularFile(path.join(dir, "big"), { maxBytes: 999 })).toMatchObject({
      ok: false,
      reason: "too_large",
    });
  });

  it("answers missing for a file that is not there", async () => {
    expect(await readRegularFile(path.join(dir, "nope"), { maxBytes: 10 })).toMatchObject({
      ok: false,
      reason: "missing",
    });
  });

  it("with `within`, refuses a path that leaves the directory through a linked parent", async () => {
    const inside = path.join(dir, "inside");
    const outside = path.join(dir, "outside");
    mkdirSync(inside);
    mkdirSync(outside);
    writeFileSync(path.join(outside, "f"), "x");
    symlinkSync(outside, path.join(inside, "sub"));
    expect(await readRegularFile(path.join(inside, "sub", "f"), { maxBytes: 10, within: inside })).toMatchObject({
      ok: false,
      reason: "outside",
    });
    writeFileSync(path.join(inside, "g"), "y");
    const r = await readRegularFile(path.join(inside, "g"), { maxBytes: 10, within: inside });
    expect(r.ok).toBe(true);
    expect(await isInside(path.join(inside, "not-yet", "h"), inside)).toBe(true);
    expect(await isInside(path.join(inside, "sub", "h"), inside)).toBe(false);
  });
});

describe("readRegularFileSync", () => {
  it("reads a regular file, and refuses a FIFO, a link and a file over the cap, like the async one", () => {
    const d = mkdtempSync(path.join(dir, "sync-"));
    writeFileSync(path.join(d, "ok"), "hello");
    const ok = readRegularFileSync(path.join(d, "ok"), { maxBytes: 100 });
    expect(ok.ok && ok.value.toString()).toBe("hello");
    execFileSync("mkfifo", [path.join(d, "fifo")]);
    expect(readRegularFileSync(path.join(d, "fifo"), { maxBytes: 100 })).toMatchObject({
      ok: false,
      reason: "not_regular",
    });
    symlinkSync(path.join(d, "ok"), path.join(d, "link"));
    expect(readRegularFileSync(path.join(d, "link"), { maxBytes: 100 })).toMatchObject({
      ok: false,
      reason: "symlink",
    });
    expect(readRegularFileSync(path.join(d, "ok"), { maxBytes: 4 })).toMatchObject({ ok: false, reason: "too_large" });
    expect(readRegularFileSync(path.join(d, "nope"), { maxBytes: 4 })).toMatchObject({ ok: false, reason: "missing" });
  });
});

describe("ownedBy", () => {
  it("refuses a file another user owns", async () => {
    const uid = currentUid()!;
    let foreign = "/etc/hostname"; // root's
    if (uid === 0) {
      foreign = path.join(dir, "nobodys");
      writeFileSync(foreign, "x");
      chownSync(foreign, 65534, 65534);
    }
    expect(await readRegularFile(foreign, { maxBytes: 1000, ownedBy: uid })).toMatchObject({
      ok: false,
      reason: "foreign_owner",
    });
    expect(readRegularFileSync(foreign, { maxBytes: 1000, ownedBy: uid })).toMatchObject({
      ok: false,
      reason: "foreign_owner",
    });
    writeFileSync(path.join(dir, "mine"), "x");
    expect((await readRegularFile(path.join(dir, "mine"), { maxBytes: 10, ownedBy: uid })).ok).toBe(true);
  });
});

describe("realDirectory", () => {
  it("accepts a directory, creates a missing one, and refuses a link to a directory or a file", async () => {
    const d = mkdtempSync(path.join(dir, "dirs-"));
    expect(await realDirectory(d)).toEqual({ ok: true });
    expect(await realDirectory(path.join(d, "new"), { create: true })).toEqual({ ok: true });
    expect(statSync(path.join(d, "new")).mode & 0o777).toBe(0o700);
    symlinkSync(path.join(d, "new"), path.join(d, "link"));
    expect(await realDirectory(path.join(d, "link"), { create: true })).toMatchObject({ ok: false, reason: "symlink" });
    writeFileSync(path.join(d, "file"), "");
    expect(await realDirectory(path.join(d, "file"))).toMatchObject({ ok: false, reason: "not_directory" });
    expect(await realDirectory(path.join(d, "missing"))).toMatchObject({ ok: false, reason: "missing" });
  });
});

describe("replaceRegularFile", () => {
  const mode = 0o600;
  const maxBytes = 1000;
  it("replaces a file that still holds what was read, or creates one that is still absent, with the mode asked for", async () => {
    const d = mkdtempSync(path.join(dir, "replace-"));
    const f = path.join(d, "cfg.json");
    expect(await replaceRegularFile(f, "one", { expect: null, mode: 0o640, maxBytes })).toEqual({ ok: true });
    expect(readFileSync(f, "utf8")).toBe("one");
    expect(statSync(f).mode & 0o777).toBe(0o640);
    expect(await replaceRegularFile(f, "two", { expect: "one", mode, maxBytes })).toEqual({ ok: true });
    expect(readFileSync(f, "utf8")).toBe("two");
    expect(readdirSync(d)).toEqual(["cfg.json"]);
  });

  it("answers changed, and writes nothing, when the file no longer holds what was read", async () => {
    const d = mkdtempSync(path.join(dir, "replace-"));
    const f = path.join(d, "cfg.json");
    writeFileSync(f, "theirs");
    expect(await replaceRegularFile(f, "ours", { expect: "before", mode, maxBytes })).toMatchObject({
      ok: false,
      reason: "changed",
    });
    expect(await replaceRegularFile(f, "ours", { expect: null, mode, maxBytes })).toMatchObject({
      ok: false,
      reason: "changed",
    });
    expect(readFileSync(f, "utf8")).toBe("theirs");
    expect(readdirSync(d)).toEqual(["cfg.json"]);
  });

  it("never writes through a link, into a FIFO, or in a linked directory: the link's target stays byte-identical", async () => {
    const d = mkdtempSync(path.join(dir, "replace-"));
    const host = path.join(d, "host-file");
    writeFileSync(host, "host bytes");
    symlinkSync(host, path.join(d, "link"));
    expect(await replaceRegularFile(path.join(d, "link"), "x", { expect: "host bytes", mode, maxBytes })).toMatchObject(
      { ok: false, reason: "symlink" },
    );
    execFileSync("mkfifo", [path.join(d, "fifo")]);
    expect(await replaceRegularFile(path.join(d, "fifo"), "x", { expect: null, mode, maxBytes })).toMatchObject({
      ok: false,
      reason: "not_regular",
    });
    mkdirSync(path.join(d, "real"));
    symlinkSync(path.join(d, "real"), path.join(d, "linked-dir"));
    expect(
      await replaceRegularFile(path.join(d, "linked-dir", "f"), "x", { expect: null, mode, maxBytes }),
    ).toMatchObject({ ok: false, reason: "symlink" });
    expect(readFileSync(host, "utf8")).toBe("host bytes");
    expect(lstatSync(path.join(d, "link")).isSymbolicLink()).toBe(true);
    expect(lstatSync(path.join(d, "fifo")).isFIFO()).toBe(true);
    expect(readdirSync(path.join(d, "real"))).toEqual([]);
    expect(readdirSync(d).sort()).toEqual(["fifo", "host-file", "link", "linked-dir", "real"]);
  });
});

describe("isUnder", () => {
  it("is a lexical check of where a path says it is", () => {
    expect(isUnder("/a/b/c", "/a/b")).toBe(true);
    expect(isUnder("/a/b", "/a/b")).toBe(true);
    expect(isUnder("/a/bc", "/a/b")).toBe(false);
    expect(isUnder("/a/b/../c", "/a/b")).toBe(false);
    expect(isUnder("/a/b/..c", "/a/b")).toBe(true);
  });
});
