// Updating a task branch with its target on real repositories: by merge and by rebase, the behind
// count, conflicts left for an agent or aborted cleanly, the refusals (uncommitted work, an
// operation in progress, a planted index), and the line hunks review comments move by.
import { afterAll, describe, expect, it } from "vitest";
import { execFileSync } from "node:child_process";
import { rm } from "node:fs/promises";
import path from "node:path";
import { abortUpdate, behindCount, fileChanges, updateBranch, type UpdateBranchInput, updateProgress } from "./update";
import {
  commitAll,
  git,
  read,
  rejectsWith,
  removeTmpDirs,
  repoWithTaskWorktree,
  write,
} from "../../../tests/helpers/git-core";

afterAll(removeTmpDirs);

/** A task worktree with one commit (task.txt); main then gets `mainCommits` commits; `conflict`: both change README line 2. */
async function setup(opts: { mainCommits?: number; conflict?: boolean } = {}) {
  const { repo, wt } = await repoWithTaskWorktree({ "README.md": "one\ntwo\nthree\n" });
  await write(wt, "task.txt", "task\n");
  if (opts.conflict) await write(wt, "README.md", "one\nTASK\nthree\n");
  const tip = await commitAll(wt, "task work");
  for (let i = 1; i <= (opts.mainCommits ?? 0); i++) {
    await write(repo.root, `main${i}.txt`, `${i}\n`);
    if (opts.conflict && i === 1) await write(repo.root, "README.md", "one\nMAIN\nthree\n");
    await commitAll(repo.root, `main ${i}`);
  }
  const input = (over: Partial<UpdateBranchInput> = {}): UpdateBranchInput => ({
    repoRoot: repo.root,
    worktreePath: wt,
    branch: "task",
    target: "main",
    mode: "merge",
    keepConflicts: false,
    ...over,
  });
  return { root: repo.root, base: repo.head, wt, tip, input, main: await git(repo.root, "rev-parse", "main") };
}

describe("behindCount", () => {
  it("counts the target's commits the branch lacks, and 0 once it has them", async () => {
    const s = await setup({ mainCommits: 3 });
    expect(await behindCount(s.root, "task", "main")).toEqual({ behind: 3, branchCommit: s.tip, targetCommit: s.main });
    await updateBranch(s.input());
    expect((await behindCount(s.root, "task", "main"))?.behind).toBe(0);
    expect(await behindCount(s.root, "gone", "main")).toBeNull();
  });
});

describe("updateBranch", () => {
  it("merge: the target's commits come in with a merge commit; the new base is the target's commit", async () => {
    const s = await setup({ mainCommits: 2 });
    const r = await updateBranch(s.input());
    expect(r).toMatchObject({ outcome: "updated", from: s.tip, targetCommit: s.main, commits: 2, base: s.main });
    if (r.outcome !== "updated") throw new Error("not updated");
    expect((await git(s.wt, "log", "-1", "--format=%P", r.to)).split(" ")).toEqual([s.tip, s.main]);
    expect(await git(s.root, "rev-parse", "task")).toBe(r.to);
    expect(await read(s.wt, "main2.txt")).toBe("2\n");
    expect(await git(s.wt, "status", "--porcelain")).toBe("");
  });

  it("rebase: the task's commit replayed on the target, linear", async () => {
    const s = await setup({ mainCommits: 2 });
    const r = await updateBranch(s.input({ mode: "rebase" }));
    expect(r).toMatchObject({ outcome: "updated", commits: 2, base: s.main });
    if (r.outcome !== "updated") throw new Error("not updated");
    expect(await git(s.wt, "rev-parse", "HEAD~1")).toBe(s.main);
    expect(await git(s.wt, "log", "-1", "--format=%s")).toBe("task work");
    expect(await git(s.wt, "rev-list", "--merges", "--count", `${s.base}..HEAD`)).toBe("0");
  });

  it("a branch that has the target already is up to date, nothing run", async () => {
    const s = await setup();
    expect(await updateBranch(s.input())).toMatchObject({ outcome: "up_to_date", to: s.tip, commits: 0 });
    expect(await git(s.wt, "rev-parse", "HEAD")).toBe(s.tip);
  });

  it.each(["merge", "rebase"] as const)(
    "%s conflict without an agent: aborted, the files named in CONFLICT, the worktree as it was",
    async (mode) => {
      const s = await setup({ mainCommits: 1, conflict: true });
      const e = await rejectsWith(updateBranch(s.input({ mode })), "CONFLICT");
      expect(e.details).toMatchObject({ files: ["README.md"], mode, target: "main", aborted: true });
      expect(await git(s.wt, "rev-parse", "HEAD")).toBe(s.tip);
      expect(await git(s.wt, "status", "--porcelain")).toBe("");
      expect((await updateProgress(s.wt, s.main)).operation).toBeNull();
    },
  );

  it.each(["merge", "rebase"] as const)(
    "%s conflict kept for an agent: the worktree stays mid-operation; resolving and committing settles it",
    async (mode) => {
      const s = await setup({ mainCommits: 1, conflict: true });
      const r = await updateBranch(s.input({ mode, keepConflicts: true }));
      expect(r).toMatchObject({ outcome: "conflict", files: ["README.md"], from: s.tip, targetCommit: s.main });
      expect(await updateProgress(s.wt, s.main)).toMatchObject({ operation: mode });
      await write(s.wt, "README.md", "one\nBOTH\nthree\n");
      await git(s.wt, "add", "README.md");
      if (mode === "merge") await git(s.wt, "commit", "-q", "--no-edit");
      else await git(s.wt, "-c", "core.editor=true", "rebase", "--continue");
      expect(await updateProgress(s.wt, s.main)).toMatchObject({ operation: null, contains: true, base: s.main });
    },
  );

  it("abortUpdate undoes a conflict nobody will resolve", async () => {
    const s = await setup({ mainCommits: 1, conflict: true });
    await updateBranch(s.input({ mode: "rebase", keepConflicts: true }));
    expect(await abortUpdate(s.wt)).toBe("rebase");
    expect(await git(s.root, "rev-parse", "task")).toBe(s.tip);
    expect(await git(s.wt, "status", "--porcelain")).toBe("");
    expect(await abortUpdate(s.wt)).toBeNull();
  });

  it("refuses uncommitted work (DIRTY_SOURCE naming the files) and an operation in progress", async () => {
    const s = await setup({ mainCommits: 1 });
    await write(s.wt, "task.txt", "edited\n");
    await write(s.wt, "new.txt", "new\n");
    const e = await rejectsWith(updateBranch(s.input()), "DIRTY_SOURCE");
    expect(String(e.details?.files).split(",").sort()).toEqual(["new.txt", "task.txt"]);
    expect(await git(s.wt, "rev-parse", "HEAD")).toBe(s.tip);

    const c = await setup({ mainCommits: 1, conflict: true });
    await updateBranch(c.input({ keepConflicts: true }));
    const busy = await rejectsWith(updateBranch(c.input()), "CONFLICT");
    expect(busy.details).toMatchObject({ operation: "merge" });
  });

  it("refuses a worktree whose index an agent replaced with a FIFO, without running git on it", async () => {
    const s = await setup({ mainCommits: 1 });
    const gitDir = await git(s.wt, "rev-parse", "--absolute-git-dir");
    await rm(path.join(gitDir, "index"));
    execFileSync("mkfifo", [path.join(gitDir, "index")]);
    const e = await rejectsWith(updateBranch(s.input()), "CONFLICT");
    expect(e.details).toMatchObject({ path: path.join(gitDir, "index") });
    expect(await git(s.root, "rev-parse", "task")).toBe(s.tip);
  });
});

describe("fileChanges", () => {
  it("gives the -U0 hunks between two versions of one file", async () => {
    const s = await setup();
    await write(s.wt, "task.txt", "zero\ntask\nmore\n");
    const c = await commitAll(s.wt, "edit");
    expect(await fileChanges(s.wt, s.tip, c, "task.txt")).toEqual([
      { oldStart: 0, oldCount: 0, newStart: 1, newCount: 1 },
      { oldStart: 1, oldCount: 0, newStart: 3, newCount: 1 },
    ]);
    expect(await fileChanges(s.wt, s.tip, c, "README.md")).toEqual([]);
  });
});
