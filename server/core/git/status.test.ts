import { afterAll, describe, expect, it } from "vitest";
import { readFile, stat, utimes } from "node:fs/promises";
import path from "node:path";
import { operationInProgress, parsePorcelainZ, statusEntries } from "./status";

const isDirty = async (p: string, opts: { ignoreUntracked?: boolean } = {}) =>
  (await statusEntries(p, { untracked: opts.ignoreUntracked ? "no" : "normal" })).length > 0;
import { git, makeRepo, removeTmpDirs, tmpDir, write } from "../../../tests/helpers/git-core";

afterAll(removeTmpDirs);

describe("statusEntries", () => {
  it("distinguishes clean, modified, staged, untracked and ignored", async () => {
    const { root } = await makeRepo({ "a.txt": "a\n", ".gitignore": "*.log\n" });
    expect(await isDirty(root)).toBe(false);
    await write(root, "x.log", "ignored\n");
    expect(await isDirty(root)).toBe(false);
    await write(root, "new.txt", "n\n");
    expect(await isDirty(root)).toBe(true);
    expect(await isDirty(root, { ignoreUntracked: true })).toBe(false);
    await write(root, "a.txt", "changed\n");
    expect(await isDirty(root, { ignoreUntracked: true })).toBe(true);
    await git(root, "add", "a.txt");
    expect(await statusEntries(root)).toEqual([
      { x: "M", y: " ", path: "a.txt" },
      { x: "?", y: "?", path: "new.txt" },
    ]);
  });

  it("never rewrites the index (no stat refresh)", async () => {
    const { root } = await makeRepo({ "a.txt": "a\n" });
    const future = new Date(Date.now() + 60_000);
    await utimes(path.join(root, "a.txt"), future, future);
    const idx = path.join(root, ".git", "index");
    const bytes = await readFile(idx);
    const mtime = (await stat(idx)).mtimeMs;
    expect(await isDirty(root)).toBe(false);
    expect((await readFile(idx)).equals(bytes)).toBe(true);
    expect((await stat(idx)).mtimeMs).toBe(mtime);
  });

  it("BAD_PARAMS outside a work tree", async () => {
    await expect(isDirty(await tmpDir())).rejects.toMatchObject({ code: "BAD_PARAMS" });
    await expect(isDirty("/nonexistent/yard/x")).rejects.toMatchObject({ code: "BAD_PARAMS" });
  });

  it("parses porcelain -z output", () => {
    expect(parsePorcelainZ(" M a b.txt\0?? ü\0")).toEqual([
      { x: " ", y: "M", path: "a b.txt" },
      { x: "?", y: "?", path: "ü" },
    ]);
  });
});

describe("operationInProgress", () => {
  it("detects a half-done merge", async () => {
    const { root } = await makeRepo({ "a.txt": "a\n" });
    expect(await operationInProgress(path.join(root, ".git"))).toBeNull();
    await git(root, "checkout", "-q", "-b", "side");
    await write(root, "a.txt", "side\n");
    await git(root, "commit", "-qam", "side");
    await git(root, "checkout", "-q", "main");
    await write(root, "a.txt", "main\n");
    await git(root, "commit", "-qam", "main");
    await git(root, "merge", "side").catch(() => undefined);
    expect(await operationInProgress(path.join(root, ".git"))).toBe("merge");
  });
});
