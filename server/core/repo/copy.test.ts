import {
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readlinkSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { copyEntries, expandPattern, segmentMatches } from "./copy";

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
const tmp = () => {
  const d = mkdtempSync(path.join(os.tmpdir(), "yard-copy-"));
  dirs.push(d);
  return d;
};
const put = (root: string, rel: string, text = rel) => {
  mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
  writeFileSync(path.join(root, rel), text);
};

describe("glob segments", () => {
  it.each([
    ["*", "a.txt", true],
    ["*", ".env", false],
    [".env*", ".env", true],
    [".env*", ".env.local", true],
    [".env*", "env", false],
    ["*.json", "a.local.json", true],
    ["?.txt", "ab.txt", false],
    ["a.b", "axb", false],
  ])("%s matches %s: %s", (seg, name, ok) => {
    expect(segmentMatches(seg, name)).toBe(ok);
  });
});

describe("expanding a pattern in the main checkout", () => {
  it("matches within segments and at any depth, never inside .git or through a link", async () => {
    const root = tmp();
    put(root, ".env");
    put(root, ".env.local");
    put(root, "config/dev.local.json");
    put(root, "config/prod.json");
    put(root, "a/b/.envrc");
    put(root, ".git/.envrc");
    const outside = tmp();
    put(outside, ".envrc");
    symlinkSync(outside, path.join(root, "linked"));
    expect((await expandPattern(root, ".env*")).paths).toEqual([".env", ".env.local"]);
    expect((await expandPattern(root, "config/*.local.json")).paths).toEqual(["config/dev.local.json"]);
    expect((await expandPattern(root, "**/.envrc")).paths).toEqual(["a/b/.envrc"]);
    expect((await expandPattern(root, "linked/.envrc")).paths).toEqual([]);
    expect((await expandPattern(root, "missing/*")).paths).toEqual([]);
  });
});

describe("copying into a worktree", () => {
  it("copies regular files and directories, skips links, and never overwrites the worktree's files", async () => {
    const from = tmp();
    const to = tmp();
    put(from, ".env", "SECRET=1\n");
    put(from, "data/seed.sql", "insert\n");
    put(from, "data/nested/x.bin", "x");
    symlinkSync("/etc/passwd", path.join(from, "data/passwd"));
    symlinkSync("/etc", path.join(from, ".envlink"));
    put(from, "README.md", "main's readme\n");
    put(to, "README.md", "the worktree's readme\n");
    const r = await copyEntries({ from, to, patterns: [".env*", "data", "README.md"], mode: "copy" });
    expect(r.copied).toEqual([".env", "data"]);
    expect(r.skipped).toEqual([
      { path: ".envlink", reason: "a symbolic link (not followed)" },
      { path: "README.md", reason: "already in the worktree" },
    ]);
    expect(readFileSync(path.join(to, ".env"), "utf8")).toBe("SECRET=1\n");
    expect(lstatSync(path.join(to, ".env")).isFile()).toBe(true);
    expect(readFileSync(path.join(to, "data/nested/x.bin"), "utf8")).toBe("x");
    expect(() => lstatSync(path.join(to, "data/passwd"))).toThrow();
    expect(readFileSync(path.join(to, "README.md"), "utf8")).toBe("the worktree's readme\n");
    expect(r.files).toBe(3);
  });

  it("never writes through a link the worktree holds on the way", async () => {
    const from = tmp();
    const to = tmp();
    const elsewhere = tmp();
    put(from, "conf/app.env", "A=1\n");
    symlinkSync(elsewhere, path.join(to, "conf"));
    const r = await copyEntries({ from, to, patterns: ["conf/*.env"], mode: "copy" });
    expect(r.copied).toEqual([]);
    expect(r.skipped[0]).toMatchObject({ path: "conf/app.env", reason: expect.stringMatching(/a link at conf/) });
    expect(() => lstatSync(path.join(elsewhere, "app.env"))).toThrow();
  });

  it("links instead when asked: a symlink to the main checkout's entry", async () => {
    const from = tmp();
    const to = tmp();
    put(from, "big/file", "x");
    const r = await copyEntries({ from, to, patterns: ["big"], mode: "link" });
    expect(r.linked).toEqual(["big"]);
    expect(readlinkSync(path.join(to, "big"))).toBe(path.join(from, "big"));
  });
});
