import { afterAll, describe, expect, it } from "vitest";
import { readdir, readFile, rename, rm, stat } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { YardError } from "../errors";
import { diffCommits, diffWorktree, diffWorktreeStat, parseRawNumstatZ, parseRawPatchZ } from "./diff";
import { createWorktree } from "./worktree";
import { commitAll, git, makeRepo, removeTmpDirs, tmpDir, write } from "../../../tests/helpers/git-core";

afterAll(removeTmpDirs);

const lines = (n: number, tag = "line") => `${Array.from({ length: n }, (_, i) => `${tag} ${i + 1}`).join("\n")}\n`;
const BIN_V1 = Buffer.from([0, 1, 2, 3, 255, 254, 0, 10, 20]);
const BIN_V2 = Buffer.from([0, 9, 9, 9, 255, 254, 0, 10, 20, 30]);

async function setup() {
  const repo = await makeRepo({
    "a.txt": lines(5),
    "b.txt": "to be deleted\n",
    "big.txt": lines(40, "rename me"),
    "img.bin": BIN_V1,
    "staged.txt": "s1\n",
    ".gitignore": "*.log\n",
  });
  const d = await tmpDir();
  const wt = await createWorktree({
    repoRoot: repo.root,
    branch: "task",
    baseSha: repo.head,
    path: path.join(d, "wt"),
  });
  return { ...repo, wt: wt.worktreePath };
}

async function indexSnapshot(wt: string) {
  const p = path.resolve(wt, await git(wt, "rev-parse", "--git-path", "index"));
  const st = await stat(p);
  return { bytes: await readFile(p), mtimeMs: st.mtimeMs, ino: st.ino };
}

describe("diffCommits", () => {
  it("gives real statuses, renames and binary files between two commits (the task's branch once its worktree is gone)", async () => {
    const { root, head, wt } = await setup();
    await write(wt, "a.txt", lines(5).replace("line 3\n", "line three\n"));
    await rm(path.join(wt, "b.txt"));
    await rename(path.join(wt, "big.txt"), path.join(wt, "moved.txt"));
    await write(wt, "img.bin", BIN_V2);
    await write(wt, "added.txt", "new\n");
    await commitAll(wt, "all kinds");
    const r = await diffCommits({ repoRoot: root, baseSha: head, tip: "task" });
    expect([...r.files].sort((x, y) => x.path.localeCompare(y.path))).toEqual([
      { path: "a.txt", status: "modified", additions: 1, deletions: 1, binary: false },
      { path: "added.txt", status: "added", additions: 1, deletions: 0, binary: false },
      { path: "b.txt", status: "deleted", additions: 0, deletions: 1, binary: false },
      { path: "img.bin", status: "modified", additions: 0, deletions: 0, binary: true },
      { path: "moved.txt", status: "renamed", oldPath: "big.txt", additions: 0, deletions: 0, binary: false },
    ]);
    expect(r.diff).toContain("rename from big.txt");
    expect(r.diff).toContain("Binary files a/img.bin and b/img.bin differ");
    // The same answer the worktree diff gives for the same committed change.
    const live = await diffWorktree({ worktreePath: wt, baseSha: head });
    expect([...live.files].sort((x, y) => x.path.localeCompare(y.path))).toEqual(
      [...r.files].sort((x, y) => x.path.localeCompare(y.path)),
    );
  });

  it("refuses a bad base", async () => {
    const { root } = await setup();
    await expect(diffCommits({ repoRoot: root, baseSha: "not-a-sha", tip: "task" })).rejects.toMatchObject({
      code: "BAD_PARAMS",
    });
  });
});

describe("diffWorktree", () => {
  it("covers committed, staged, unstaged, untracked, deleted, binary and renamed files, and nothing ignored", async () => {
    const { head, wt } = await setup();
    // Committed on the branch.
    await write(wt, "committed.txt", "from a commit\n");
    await commitAll(wt, "task commit");
    // Staged only.
    await write(wt, "staged.txt", "s1\ns2\n");
    await git(wt, "add", "staged.txt");
    // Unstaged modification, untracked file, deletion, binary change, rename (unstaged), ignored file.
    await write(wt, "a.txt", `${lines(5).replace("line 3\n", "line three\n")}line 6\n`);
    await write(wt, "new dir/untracked ü.txt", "brand new\n");
    await rm(path.join(wt, "b.txt"));
    await write(wt, "img.bin", BIN_V2);
    await rename(path.join(wt, "big.txt"), path.join(wt, "moved.txt"));
    await write(wt, "debug.log", "ignored\n");

    const before = await indexSnapshot(wt);
    const statusBefore = await git(wt, "status", "--porcelain");
    const r = await diffWorktree({ worktreePath: wt, baseSha: head });

    expect([...r.files].sort((x, y) => x.path.localeCompare(y.path))).toEqual([
      { path: "a.txt", status: "modified", additions: 2, deletions: 1, binary: false },
      { path: "b.txt", status: "deleted", additions: 0, deletions: 1, binary: false },
      { path: "committed.txt", status: "added", additions: 1, deletions: 0, binary: false },
      { path: "img.bin", status: "modified", additions: 0, deletions: 0, binary: true },
      { path: "moved.txt", status: "renamed", oldPath: "big.txt", additions: 0, deletions: 0, binary: false },
      { path: "new dir/untracked ü.txt", status: "added", additions: 1, deletions: 0, binary: false },
      { path: "staged.txt", status: "modified", additions: 1, deletions: 0, binary: false },
    ]);
    expect(r.diff).toContain("diff --git a/a.txt b/a.txt\n");
    expect(r.diff).toContain("-line 3\n+line three\n");
    expect(r.diff).toContain("+line 6\n");
    expect(r.diff).toContain("deleted file mode 100644\n");
    expect(r.diff).toContain("Binary files a/img.bin and b/img.bin differ\n");
    expect(r.diff).toContain("rename from big.txt\nrename to moved.txt\n");
    // git marks names containing spaces with a trailing tab on the ---/+++ lines.
    expect(r.diff).toContain("+++ b/new dir/untracked ü.txt\t\n");
    expect(r.diff).not.toContain("debug.log");

    // The worktree's own index is untouched, byte for byte, and so is what git status reports.
    const after = await indexSnapshot(wt);
    expect(after.bytes.equals(before.bytes)).toBe(true);
    expect(after.mtimeMs).toBe(before.mtimeMs);
    expect(after.ino).toBe(before.ino);
    expect(await git(wt, "status", "--porcelain")).toBe(statusBefore);
    // The temporary index is gone.
    expect((await readdir(os.tmpdir())).filter((n) => n.startsWith(`yard-index-${process.pid}-`))).toEqual([]);

    // Line counts taken from the patch agree with git's own --numstat.
    const stat = await diffWorktreeStat({ worktreePath: wt, baseSha: head });
    expect(stat.files).toEqual(r.files);

    // Same text git itself produces once everything is staged.
    await git(wt, "add", "-A");
    const truth = await git(wt, "diff", "--cached", "-M", "--no-color", head);
    expect(r.diff.trimEnd()).toBe(truth);
  });

  it("shows only the task's own change (not other tasks, not the target moving on)", async () => {
    const { root, head, wt } = await setup();
    const d = await tmpDir();
    const other = await createWorktree({ repoRoot: root, branch: "other", baseSha: head, path: path.join(d, "other") });
    await write(other.worktreePath, "other.txt", "someone else\n");
    await commitAll(other.worktreePath, "other task");
    await write(root, "main-only.txt", "target moved\n");
    await commitAll(root, "main moved");
    await write(wt, "mine.txt", "mine\n");

    const r = await diffWorktree({ worktreePath: wt, baseSha: head });
    expect(r.files).toEqual([{ path: "mine.txt", status: "added", additions: 1, deletions: 0, binary: false }]);
    const blob = (await git(wt, "hash-object", "mine.txt")).slice(0, 7);
    expect(r.diff).toBe(
      `diff --git a/mine.txt b/mine.txt\nnew file mode 100644\nindex 0000000..${blob}\n--- /dev/null\n+++ b/mine.txt\n@@ -0,0 +1 @@\n+mine\n`,
    );
  });

  it("is empty for an unchanged worktree", async () => {
    const { head, wt } = await setup();
    expect(await diffWorktree({ worktreePath: wt, baseSha: head })).toEqual({ diff: "", files: [] });
  });

  it("works for the main checkout too and when the worktree has no index file", async () => {
    const { root, head, wt } = await setup();
    await write(root, "a.txt", "x\n");
    const r = await diffWorktree({ worktreePath: root, baseSha: head });
    expect(r.files.map((f) => f.path)).toEqual(["a.txt"]);
    await write(wt, "n.txt", "n\n");
    await rm(path.resolve(wt, await git(wt, "rev-parse", "--git-path", "index")));
    const r2 = await diffWorktree({ worktreePath: wt, baseSha: head });
    expect(r2.files.map((f) => f.path)).toEqual(["n.txt"]);
  });

  it("errors: missing worktree NOT_FOUND, bad base BAD_PARAMS", async () => {
    const { head, wt } = await setup();
    await expect(diffWorktree({ worktreePath: path.join(wt, "nope"), baseSha: head })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
    await expect(diffWorktree({ worktreePath: wt, baseSha: "deadbeef".repeat(5) })).rejects.toMatchObject({
      code: "BAD_PARAMS",
    });
    await expect(diffWorktree({ worktreePath: wt, baseSha: "HEAD" })).rejects.toMatchObject({ code: "BAD_PARAMS" });
    await expect(diffWorktree({ worktreePath: "relative", baseSha: head })).rejects.toBeInstanceOf(YardError);
    const d = await tmpDir();
    await expect(diffWorktree({ worktreePath: d, baseSha: head })).rejects.toMatchObject({ code: "BAD_PARAMS" });
  });
});

describe("diffWorktreeStat", () => {
  it("returns files and totals without the patch", async () => {
    const { head, wt } = await setup();
    await write(wt, "a.txt", `${lines(5)}x\ny\n`);
    await write(wt, "img.bin", BIN_V2);
    await rm(path.join(wt, "b.txt"));
    const before = await indexSnapshot(wt);
    const s = await diffWorktreeStat({ worktreePath: wt, baseSha: head });
    expect(s.totals).toEqual({ files: 3, additions: 2, deletions: 1 });
    expect(s.files.map((f) => [f.path, f.status, f.binary])).toEqual([
      ["a.txt", "modified", false],
      ["b.txt", "deleted", false],
      ["img.bin", "modified", true],
    ]);
    expect((await indexSnapshot(wt)).bytes.equals(before.bytes)).toBe(true);
  });
});

describe("parseRawPatchZ", () => {
  it("counts lines per section, including content that looks like headers", () => {
    const raw =
      ":100644 100644 aaa bbb M\0x.txt\0:100644 100644 ccc ddd R100\0old.txt\0new.txt\0:100644 100644 eee fff M\0b.bin\0\0";
    const patch =
      "diff --git a/x.txt b/x.txt\nindex aaa..bbb 100644\n--- a/x.txt\n+++ b/x.txt\n" +
      "@@ -1,4 +1,4 @@\n context\n--- removed line that starts with dashes\n+++ added line that starts with pluses\n\n" +
      "@@ -10 +10,2 @@\n-old\n+new\n+more\n\\ No newline at end of file\n" +
      "diff --git a/old.txt b/new.txt\nsimilarity index 100%\nrename from old.txt\nrename to new.txt\n" +
      "diff --git a/b.bin b/b.bin\nindex eee..fff 100644\nBinary files a/b.bin and b/b.bin differ\n";
    expect(parseRawPatchZ(raw + patch)).toEqual({
      files: [
        { path: "x.txt", status: "modified", additions: 3, deletions: 2, binary: false },
        { path: "new.txt", status: "renamed", oldPath: "old.txt", additions: 0, deletions: 0, binary: false },
        { path: "b.bin", status: "modified", additions: 0, deletions: 0, binary: true },
      ],
      patch,
    });
  });

  it("reports files: null when sections and records do not line up", () => {
    expect(parseRawPatchZ(":100644 100644 a b M\0x\0\0").files).toBeNull();
    expect(parseRawPatchZ("")).toEqual({ files: [], patch: "" });
  });
});

describe("parseRawNumstatZ", () => {
  it("parses raw + numstat records and splits off the patch", () => {
    const out =
      ":100644 100644 aaaaaaa bbbbbbb M\0a.txt\0" +
      ":100644 100644 ccccccc ddddddd R087\0old name.txt\0new\tname.txt\0" +
      ":000000 100644 0000000 eeeeeee A\0bin.dat\0" +
      "2\t1\ta.txt\0" +
      "1\t1\t\0old name.txt\0new\tname.txt\0" +
      "-\t-\tbin.dat\0" +
      "\0diff --git a/a.txt b/a.txt\n";
    expect(parseRawNumstatZ(out)).toEqual({
      files: [
        { path: "a.txt", status: "modified", additions: 2, deletions: 1, binary: false },
        {
          path: "new\tname.txt",
          status: "renamed",
          oldPath: "old name.txt",
          additions: 1,
          deletions: 1,
          binary: false,
        },
        { path: "bin.dat", status: "added", additions: 0, deletions: 0, binary: true },
      ],
      patch: "diff --git a/a.txt b/a.txt\n",
    });
    expect(parseRawNumstatZ("")).toEqual({ files: [], patch: "" });
  });
});
