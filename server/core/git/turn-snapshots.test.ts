// Turn snapshots against real repositories: what a snapshot commit records (tracked and untracked
// files, not ignored ones, the agent's index left byte-identical), the hidden refs (no reflog,
// never followed when planted as symbolic refs or through linked directories, pruned per task,
// never carried by a push or a clone), and the restore of a worktree's files to a snapshot.
import { execFileSync } from "node:child_process";
import { promises as fsp, readFileSync, statSync, symlinkSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  commitAll,
  exists,
  git,
  makeRepo,
  read,
  rejectsWith,
  removeTmpDirs,
  tmpDir,
  write,
} from "../../../tests/helpers/git-core";
import { worktreeTree } from "./diff";
import { commitSnapshot, pruneTurnRefs, restoreWorktree, treeOfCommit, turnRef } from "./turn-snapshots";
import { createWorktree } from "./worktree";

afterAll(removeTmpDirs);

async function setup() {
  const repo = await makeRepo({ "a.txt": "one\n", "b.txt": "bee\n", ".gitignore": "*.log\n" });
  const d = await tmpDir();
  const wt = (
    await createWorktree({ repoRoot: repo.root, branch: "task", baseSha: repo.head, path: path.join(d, "wt") })
  ).worktreePath;
  const indexFile = path.resolve(wt, await git(wt, "rev-parse", "--git-path", "index"));
  const indexNow = () => ({ bytes: readFileSync(indexFile), mtimeMs: statSync(indexFile).mtimeMs });
  return { root: repo.root, base: repo.head, wt, dir: d, indexNow };
}

/** The snapshot a turn's end takes: the worktree's tree, committed on the task's turn ref. */
async function snapshot(s: { root: string; wt: string }, taskId: string, n: number, parent: string) {
  const tree = await worktreeTree({ worktreePath: s.wt });
  const ref = turnRef(taskId, n);
  const commit = await commitSnapshot({ repoRoot: s.root, tree, parent, ref, message: `turn ${n}` });
  return { tree, commit, ref };
}

describe("turn snapshots", () => {
  it("commit the worktree (committed, staged, unstaged, untracked; not ignored) on a hidden ref, the agent's index untouched", async () => {
    const s = await setup();
    await git(s.root, "config", "core.logAllRefUpdates", "always"); // the user's own setting: still no reflog
    await write(s.wt, "a.txt", "one\ntwo\n");
    await commitAll(s.wt, "agent's commit");
    await write(s.wt, "staged.txt", "staged\n");
    await git(s.wt, "add", "staged.txt");
    await write(s.wt, "b.txt", "BEE\n");
    await write(s.wt, "new/loose.txt", "untracked\n");
    await write(s.wt, "debug.log", "ignored\n");
    const before = s.indexNow();
    const status = await git(s.wt, "status", "--porcelain");

    const t1 = await snapshot(s, "tskA", 1, s.base);

    expect(await git(s.root, "rev-parse", t1.ref)).toBe(t1.commit);
    expect(await git(s.root, "rev-parse", `${t1.commit}^`)).toBe(s.base);
    expect(await git(s.root, "rev-parse", `${t1.commit}^{tree}`)).toBe(t1.tree);
    expect(await git(s.root, "log", "-1", "--format=%an <%ae>", t1.commit)).toBe("Switchyard <switchyard@localhost>");
    expect((await git(s.root, "ls-tree", "-r", "--name-only", t1.commit)).split("\n")).toEqual([
      ".gitignore",
      "a.txt",
      "b.txt",
      "new/loose.txt",
      "staged.txt",
    ]);
    expect(await git(s.root, "show", `${t1.commit}:b.txt`)).toBe("BEE");
    expect(s.indexNow()).toEqual(before);
    expect(await git(s.wt, "status", "--porcelain")).toBe(status);
    // No reflog for the hidden ref, and the branch and HEAD are where the agent left them.
    expect(await exists(path.join(s.root, ".git/logs/refs/switchyard"))).toBe(false);
    expect(await git(s.wt, "log", "-1", "--format=%s", "HEAD")).toBe("agent's commit");

    // The next snapshot's parent is the previous one.
    await write(s.wt, "c.txt", "sea\n");
    const t2 = await snapshot(s, "tskA", 2, t1.commit);
    expect(await git(s.root, "rev-parse", `${t2.commit}^`)).toBe(t1.commit);
    expect(await treeOfCommit({ repoRoot: s.root, commit: t2.commit })).toBe(t2.tree);
  });

  it("never carries the refs in a push of the branches or tags, or a clone", async () => {
    const s = await setup();
    await write(s.wt, "x.txt", "x\n");
    await snapshot(s, "tskP", 1, s.base);
    const remote = path.join(s.dir, "remote.git");
    await git(s.dir, "init", "-q", "--bare", remote);
    await git(s.root, "push", "-q", remote, "--all");
    await git(s.root, "push", "-q", remote, "--tags");
    await git(s.root, "push", "-q", remote, "task");
    expect(await git(remote, "for-each-ref", "--format=%(refname)")).not.toContain("refs/switchyard");
    await git(s.dir, "clone", "-q", s.root, path.join(s.dir, "clone"));
    expect(await git(path.join(s.dir, "clone"), "for-each-ref", "--format=%(refname)")).not.toContain("switchyard");
  });

  it("replace a symbolic ref planted at a turn's name instead of moving the branch it names", async () => {
    const s = await setup();
    const main = await git(s.root, "rev-parse", "main");
    await git(s.root, "symbolic-ref", turnRef("tskS", 1), "refs/heads/main");
    await write(s.wt, "x.txt", "x\n");
    const t1 = await snapshot(s, "tskS", 1, s.base);
    expect(await git(s.root, "rev-parse", "main")).toBe(main);
    expect(await git(s.root, "rev-parse", turnRef("tskS", 1))).toBe(t1.commit);

    // Pruning one planted again deletes the planted ref, not main.
    await git(s.root, "update-ref", "-d", turnRef("tskS", 1));
    await git(s.root, "symbolic-ref", turnRef("tskS", 1), "refs/heads/main");
    expect(await pruneTurnRefs({ repoRoot: s.root, taskId: "tskS" })).toBe(1);
    expect(await git(s.root, "rev-parse", "main")).toBe(main);
  });

  it("refuse to write a ref through a linked directory planted in refs/", async () => {
    const s = await setup();
    const elsewhere = path.join(s.dir, "elsewhere");
    await fsp.mkdir(elsewhere);
    symlinkSync(elsewhere, path.join(s.root, ".git/refs/switchyard"));
    await write(s.wt, "x.txt", "x\n");
    const tree = await worktreeTree({ worktreePath: s.wt });
    const e = await rejectsWith(
      commitSnapshot({ repoRoot: s.root, tree, parent: s.base, ref: turnRef("tskL", 1), message: "m" }),
      "CONFLICT",
    );
    expect(e.details).toMatchObject({ path: path.join(s.root, ".git/refs/switchyard"), found: "symlink" });
    expect(await fsp.readdir(elsewhere)).toEqual([]);
  });

  it("prune every ref of one task and only that task's", async () => {
    const s = await setup();
    await write(s.wt, "x.txt", "x\n");
    const a1 = await snapshot(s, "tskA", 1, s.base);
    await write(s.wt, "y.txt", "y\n");
    await snapshot(s, "tskA", 2, a1.commit);
    const b1 = await snapshot(s, "tskB", 1, s.base);
    expect(await pruneTurnRefs({ repoRoot: s.root, taskId: "tskA" })).toBe(2);
    expect(await git(s.root, "for-each-ref", "--format=%(refname)", "refs/switchyard/")).toBe(turnRef("tskB", 1));
    expect(await git(s.root, "rev-parse", turnRef("tskB", 1))).toBe(b1.commit);
    expect(await pruneTurnRefs({ repoRoot: s.root, taskId: "tskA" })).toBe(0);
    await rejectsWith(pruneTurnRefs({ repoRoot: s.root, taskId: "../x" }), "BAD_PARAMS");
  });
});

describe("restoring a worktree to a snapshot", () => {
  it("rewrites changed files, removes created ones and re-creates deleted ones; index, HEAD, branch and ignored files stay", async () => {
    const s = await setup();
    await write(s.wt, "loose.txt", "untracked before\n");
    const t1 = await snapshot(s, "tskR", 1, s.base);
    // The next turn: a commit, an edit, a deletion, new files (one in a new directory), an ignored file.
    await write(s.wt, "a.txt", "one\nchanged and committed\n");
    await commitAll(s.wt, "turn 2's commit");
    const head = await git(s.wt, "rev-parse", "HEAD");
    await write(s.wt, "b.txt", "edited\n");
    await fsp.rm(path.join(s.wt, "loose.txt"));
    await write(s.wt, "deep/new/file.txt", "created\n");
    await write(s.wt, "build.log", "ignored\n");
    await snapshot(s, "tskR", 2, t1.commit);
    const index = s.indexNow();

    expect(await restoreWorktree({ worktreePath: s.wt, tree: t1.tree })).toEqual({ from: expect.any(String) });

    expect(await read(s.wt, "a.txt")).toBe("one\n");
    expect(await read(s.wt, "b.txt")).toBe("bee\n");
    expect(await read(s.wt, "loose.txt")).toBe("untracked before\n");
    expect(await exists(path.join(s.wt, "deep"))).toBe(false);
    expect(await read(s.wt, "build.log")).toBe("ignored\n");
    expect(await worktreeTree({ worktreePath: s.wt })).toBe(t1.tree);
    // A working-tree restore: the agent's commit, branch, HEAD and index are as they were.
    expect(await git(s.wt, "rev-parse", "HEAD")).toBe(head);
    expect(await git(s.root, "rev-parse", "task")).toBe(head);
    expect(s.indexNow()).toEqual(index);
    // Restoring the same state again changes nothing.
    expect((await restoreWorktree({ worktreePath: s.wt, tree: t1.tree })).from).toBe(t1.tree);
  });

  it("never writes through a directory the agent replaced with a link, and leaves FIFOs unopened", async () => {
    const s = await setup();
    await write(s.wt, "d/f.txt", "mine\n");
    const t1 = await snapshot(s, "tskX", 1, s.base);
    const outside = path.join(s.dir, "outside");
    await fsp.mkdir(outside);
    await write(outside, "f.txt", "the host's file\n");
    await fsp.rm(path.join(s.wt, "d"), { recursive: true });
    symlinkSync(outside, path.join(s.wt, "d"));
    execFileSync("mkfifo", [path.join(s.wt, "pipe")]);

    await restoreWorktree({ worktreePath: s.wt, tree: t1.tree });

    expect(await read(outside, "f.txt")).toBe("the host's file\n");
    expect((await fsp.lstat(path.join(s.wt, "d"))).isDirectory()).toBe(true);
    expect(await read(s.wt, "d/f.txt")).toBe("mine\n");
    expect((await fsp.lstat(path.join(s.wt, "pipe"))).isFIFO()).toBe(true);

    // A FIFO where the snapshot has a file: refused, nothing opened or changed.
    await fsp.rm(path.join(s.wt, "d"), { recursive: true });
    execFileSync("mkfifo", [path.join(s.wt, "d")]);
    await write(s.wt, "a.txt", "changed\n");
    await rejectsWith(restoreWorktree({ worktreePath: s.wt, tree: t1.tree }), "CONFLICT");
    expect(await read(s.wt, "a.txt")).toBe("changed\n");
  });
});
