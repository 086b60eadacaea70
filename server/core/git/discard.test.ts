import { afterAll, describe, expect, it } from "vitest";
import { mkdir, readdir, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { YardError } from "../errors";
import { discardWorktree, type DiscardWorktreeInput } from "./discard";
import { createWorktree } from "./worktree";
import {
  branches,
  commitAll,
  exists,
  git,
  makeRepo,
  read,
  removeTmpDirs,
  tmpDir,
  worktreePaths,
  write,
} from "../../../tests/helpers/git-core";

afterAll(removeTmpDirs);

async function setup(opts: { preexisting?: boolean } = {}) {
  const repo = await makeRepo();
  if (opts.preexisting) await git(repo.root, "branch", "task", repo.head);
  const d = await tmpDir();
  const wt = await createWorktree({
    repoRoot: repo.root,
    branch: "task",
    baseSha: repo.head,
    path: path.join(d, "wt"),
  });
  await write(wt.worktreePath, "work.txt", "committed\n");
  const tip = await commitAll(wt.worktreePath, "work");
  await write(wt.worktreePath, "wip.txt", "uncommitted\n");
  const input: DiscardWorktreeInput = {
    repoRoot: repo.root,
    worktreePath: wt.worktreePath,
    branch: "task",
    branchPreexisting: wt.branchPreexisting,
  };
  return { root: repo.root, head: repo.head, wt: wt.worktreePath, tip, input, dir: d };
}

describe("discardWorktree", () => {
  it("removes the worktree (even with uncommitted work) and keeps the branch", async () => {
    const { root, head, wt, tip, input } = await setup();
    const r = await discardWorktree(input);
    expect(r).toEqual({ worktreeRemoved: true, worktreeMissing: false, branchDeleted: false, branchMissing: false });
    expect(await exists(wt)).toBe(false);
    expect(await worktreePaths(root)).toEqual([root]);
    expect(await git(root, "rev-parse", "refs/heads/task")).toBe(tip);
    expect(await git(root, "rev-parse", "HEAD")).toBe(head);
    expect(await git(root, "status", "--porcelain")).toBe("");
  });

  it("deleteBranch deletes a task-created branch", async () => {
    const { root, input } = await setup();
    const r = await discardWorktree({ ...input, deleteBranch: true });
    expect(r).toEqual({ worktreeRemoved: true, worktreeMissing: false, branchDeleted: true, branchMissing: false });
    expect(await branches(root)).toEqual(["main"]);
  });

  it("never deletes a pre-existing branch, even when asked", async () => {
    const { root, tip, input } = await setup({ preexisting: true });
    expect(input.branchPreexisting).toBe(true);
    const r = await discardWorktree({ ...input, deleteBranch: true });
    expect(r.branchDeleted).toBe(false);
    expect(r.worktreeRemoved).toBe(true);
    expect(await git(root, "rev-parse", "refs/heads/task")).toBe(tip);
  });

  it("only touches its own worktree", async () => {
    const { root, head, input, dir } = await setup();
    const other = await createWorktree({
      repoRoot: root,
      branch: "other",
      baseSha: head,
      path: path.join(dir, "other"),
    });
    await write(other.worktreePath, "o.txt", "other's wip\n");
    await discardWorktree({ ...input, deleteBranch: true });
    expect(await worktreePaths(root)).toEqual([root, other.worktreePath]);
    expect(await read(other.worktreePath, "o.txt")).toBe("other's wip\n");
    expect(await branches(root)).toEqual(["main", "other"]);
  });

  it("is idempotent: a second discard reports the worktree missing", async () => {
    const { root, input } = await setup();
    await discardWorktree(input);
    const r = await discardWorktree({ ...input, deleteBranch: true });
    expect(r).toEqual({ worktreeRemoved: false, worktreeMissing: true, branchDeleted: true, branchMissing: false });
    const r2 = await discardWorktree({ ...input, deleteBranch: true });
    expect(r2).toEqual({ worktreeRemoved: false, worktreeMissing: true, branchDeleted: false, branchMissing: true });
    expect(await branches(root)).toEqual(["main"]);
  });

  it("cleans up the record of a worktree whose directory was deleted by hand", async () => {
    const { root, wt, input } = await setup();
    await rm(wt, { recursive: true, force: true });
    const r = await discardWorktree(input);
    expect(r.worktreeRemoved).toBe(true);
    expect(await worktreePaths(root)).toEqual([root]);
    expect(await readdir(path.join(root, ".git", "worktrees")).catch(() => [])).toEqual([]);
  });

  it("never deletes a directory git does not know as a worktree", async () => {
    const { root, input, dir } = await setup();
    const stranger = path.join(dir, "stranger");
    await mkdir(stranger);
    await writeFile(path.join(stranger, "precious.txt"), "do not delete");
    const r = await discardWorktree({ ...input, worktreePath: stranger });
    expect(r).toEqual({ worktreeRemoved: false, worktreeMissing: true, branchDeleted: false, branchMissing: false });
    expect(await readdir(stranger)).toEqual(["precious.txt"]);
    expect((await worktreePaths(root)).length).toBe(2);
  });

  it("reports a removal failure (locked worktree) without throwing, and keeps the branch it holds", async () => {
    const { root, wt, input } = await setup();
    await git(root, "worktree", "lock", wt);
    const r = await discardWorktree({ ...input, deleteBranch: true });
    expect(r.worktreeRemoved).toBe(false);
    expect(r.branchDeleted).toBe(false);
    expect(r.error).toMatch(/locked/);
    expect(await exists(wt)).toBe(true);
    expect(await branches(root)).toEqual(["main", "task"]);
  });

  it("refuses the main worktree and bad input", async () => {
    const { root, input } = await setup();
    await expect(discardWorktree({ ...input, worktreePath: root })).rejects.toMatchObject({ code: "BAD_PARAMS" });
    await expect(discardWorktree({ ...input, branch: "-x" })).rejects.toMatchObject({ code: "BAD_PARAMS" });
    await expect(discardWorktree({ ...input, worktreePath: "rel" })).rejects.toBeInstanceOf(YardError);
    expect(await exists(path.join(root, "README.md"))).toBe(true);
  });
});
