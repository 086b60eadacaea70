// Review snapshots (worktreeTree, diffWorktreeSince, diffTreeToCommit) and the base picker's
// listRefs, against real repositories.
import { readFile, rm, stat } from "node:fs/promises";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { diffTreeToCommit, diffWorktree, diffWorktreeSince, worktreeTree } from "./diff";
import { listRefs } from "./refs";
import { createWorktree } from "./worktree";
import { commitAll, git, makeRepo, rejectsWith, removeTmpDirs, tmpDir, write } from "../../../tests/helpers/git-core";

afterAll(removeTmpDirs);

async function setup() {
  const repo = await makeRepo({ "a.txt": "one\ntwo\nthree\n", "b.txt": "bee\n" });
  const d = await tmpDir();
  const wt = await createWorktree({
    repoRoot: repo.root,
    branch: "task",
    baseSha: repo.head,
    path: path.join(d, "wt"),
  });
  return { ...repo, wt: wt.worktreePath };
}

describe("review snapshots", () => {
  it("records the worktree (committed, staged, unstaged, untracked) as a tree without touching its index", async () => {
    const { wt } = await setup();
    await write(wt, "a.txt", "one\nTWO\nthree\n");
    await commitAll(wt, "round 1");
    await write(wt, "loose.txt", "untracked\n");
    const indexFile = path.resolve(wt, await git(wt, "rev-parse", "--git-path", "index"));
    const before = {
      bytes: await readFile(indexFile),
      mtimeMs: (await stat(indexFile)).mtimeMs,
      status: await git(wt, "status", "--porcelain"),
    };

    const tree = await worktreeTree({ worktreePath: wt });

    expect(tree).toMatch(/^[0-9a-f]{40}$/);
    expect(await git(wt, "cat-file", "-t", tree)).toBe("tree");
    expect((await git(wt, "ls-tree", "--name-only", tree)).split("\n")).toEqual(["a.txt", "b.txt", "loose.txt"]);
    expect(await git(wt, "show", `${tree}:a.txt`)).toBe("one\nTWO\nthree");
    expect((await readFile(indexFile)).equals(before.bytes)).toBe(true);
    expect((await stat(indexFile)).mtimeMs).toBe(before.mtimeMs);
    expect(await git(wt, "status", "--porcelain")).toBe(before.status);
  });

  it("diffs only what changed since the snapshot, in the same shape as the task diff", async () => {
    const { head, wt } = await setup();
    await write(wt, "a.txt", "one\nTWO\nthree\n");
    await commitAll(wt, "round 1");
    const tree = await worktreeTree({ worktreePath: wt });
    expect(await diffWorktreeSince({ worktreePath: wt, tree })).toEqual({ diff: "", files: [] });

    await write(wt, "a.txt", "one\nTWO\nthree\nfour\n");
    await rm(path.join(wt, "b.txt"));
    await write(wt, "c.txt", "sea\n");
    const since = await diffWorktreeSince({ worktreePath: wt, tree });
    expect(since.files).toEqual([
      { path: "a.txt", status: "modified", additions: 1, deletions: 0, binary: false },
      { path: "b.txt", status: "deleted", additions: 0, deletions: 1, binary: false },
      { path: "c.txt", status: "added", additions: 1, deletions: 0, binary: false },
    ]);
    expect(since.diff).toContain("+four");
    expect(since.diff).not.toContain("+TWO"); // round 1's change is not repeated
    expect((await diffWorktree({ worktreePath: wt, baseSha: head })).diff).toContain("+TWO");

    // Once the work is committed and the worktree is gone, the same answer comes from the branch.
    await commitAll(wt, "round 2");
    const fromBranch = await diffTreeToCommit({ repoRoot: wt, tree, tip: "task" });
    expect(fromBranch.files).toEqual(since.files);
  });

  it("refuses a bad or missing snapshot with BAD_PARAMS", async () => {
    const { wt } = await setup();
    await rejectsWith(diffWorktreeSince({ worktreePath: wt, tree: "not-hex" }), "BAD_PARAMS");
    const gone = await rejectsWith(
      diffWorktreeSince({ worktreePath: wt, tree: "0123456789abcdef0123456789abcdef01234567" }),
      "BAD_PARAMS",
    );
    expect(gone.message).toMatch(/no longer in this repository/);
    await rejectsWith(
      diffTreeToCommit({ repoRoot: wt, tree: "0123456789abcdef0123456789abcdef01234567", tip: "task" }),
      "BAD_PARAMS",
    );
  });
});

describe("listRefs", () => {
  it("lists the checked-out branch first, other branches, remote-tracking ones, and recent commits; a query filters", async () => {
    const { root, head } = await setup();
    await git(root, "branch", "feature/login");
    await write(root, "x.txt", "x\n");
    const second = await commitAll(root, "Add the x file");
    await git(root, "update-ref", "refs/remotes/origin/main", head);
    await git(root, "symbolic-ref", "refs/remotes/origin/HEAD", "refs/remotes/origin/main");

    const all = await listRefs(root);
    expect(all.branches).toEqual([
      { name: "main", sha: second, current: true },
      { name: "feature/login", sha: head, current: false },
      { name: "task", sha: head, current: false },
      { name: "origin/main", sha: head, current: false },
    ]);
    expect(all.commits).toEqual([
      { sha: second, subject: "Add the x file" },
      { sha: head, subject: "initial" },
    ]);

    const login = await listRefs(root, { query: "LOGIN" });
    expect(login.branches.map((b) => b.name)).toEqual(["feature/login"]);
    expect(login.commits).toEqual([]);
    expect((await listRefs(root, { query: "x file" })).commits).toEqual([{ sha: second, subject: "Add the x file" }]);
    expect((await listRefs(root, { query: head.slice(0, 8) })).commits).toEqual([{ sha: head, subject: "initial" }]);
    expect((await listRefs(root, { limit: 1 })).commits).toEqual([{ sha: second, subject: "Add the x file" }]);
  });
});
