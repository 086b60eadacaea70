import { execFileSync } from "node:child_process";
import { linkSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { measureTree } from "./walk";

const dirs: string[] = [];
const tmp = () => {
  const d = mkdtempSync(path.join(os.tmpdir(), "yard-walk-"));
  dirs.push(d);
  return d;
};
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** What `du -sxB1` says (allocated bytes, hard links once, never following links): the reference. */
const du = (p: string) => Number(execFileSync("du", ["-sxB1", p], { encoding: "utf8" }).split("\t")[0]);

describe("measureTree", () => {
  it("counts what du counts: files, directories, a hard link once", async () => {
    const root = tmp();
    mkdirSync(path.join(root, "a/b/c"), { recursive: true });
    writeFileSync(path.join(root, "a/one.bin"), Buffer.alloc(100_000, 1));
    writeFileSync(path.join(root, "a/b/c/two.bin"), Buffer.alloc(9_000, 2));
    linkSync(path.join(root, "a/one.bin"), path.join(root, "hard.bin"));
    const size = await measureTree(root);
    expect(size).toEqual({ bytes: du(root), files: 2, truncated: false }); // one.bin and hard.bin are one file
    expect(size!.bytes).toBeGreaterThanOrEqual(109_000);
  });

  it("never follows a link: a link to a big tree counts as the link itself", async () => {
    const root = tmp();
    const big = tmp();
    writeFileSync(path.join(big, "big.bin"), Buffer.alloc(2_000_000, 3));
    symlinkSync(big, path.join(root, "to-dir"));
    symlinkSync(path.join(big, "big.bin"), path.join(root, "to-file"));
    symlinkSync("/dev/zero", path.join(root, "zero"));
    execFileSync("mkfifo", [path.join(root, "fifo")]);
    const size = await measureTree(root);
    expect(size!.bytes).toBe(du(root));
    expect(size!.bytes).toBeLessThan(100_000);
    expect(size!.files).toBe(4);
  });

  it("stops at its bounds and says so (entries, depth)", async () => {
    const root = tmp();
    for (let i = 0; i < 50; i++) writeFileSync(path.join(root, `f${i}`), "x");
    const few = await measureTree(root, { maxEntries: 10, maxDepth: 64 });
    expect(few!.truncated).toBe(true);
    expect(few!.files).toBe(9); // the root is the first entry
    let deep = tmp();
    const top = deep;
    for (let i = 0; i < 6; i++) mkdirSync((deep = path.join(deep, `d${i}`)));
    writeFileSync(path.join(deep, "bottom.bin"), Buffer.alloc(50_000));
    const shallow = await measureTree(top, { maxEntries: 1000, maxDepth: 3 });
    expect(shallow).toMatchObject({ truncated: true, files: 0 });
    expect(await measureTree(top, { maxEntries: 1000, maxDepth: 64 })).toEqual({
      bytes: du(top),
      files: 1,
      truncated: false,
    });
  });

  it("answers null for a missing root and measures a file root as itself", async () => {
    const root = tmp();
    expect(await measureTree(path.join(root, "nope"))).toBeNull();
    writeFileSync(path.join(root, "f"), Buffer.alloc(5000));
    expect(await measureTree(path.join(root, "f"))).toMatchObject({ files: 1, truncated: false });
  });
});
