// The merge strategies on real repositories: what history each leaves on the target (merge
// commit, one squashed commit, a line of replayed commits, a fast-forward), and that a conflict
// or a branch that cannot fast-forward leaves the target exactly as it was.
import { afterAll, describe, expect, it } from "vitest";
import { mergeTask, type MergeTaskInput } from "./merge";
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

/** main with README, a task worktree on "task" with two commits; `mainMoves`: main gets a commit of its own meanwhile. */
async function setup(opts: { mainMoves?: boolean; conflict?: boolean } = {}) {
  const { repo, wt } = await repoWithTaskWorktree({ "README.md": "one\ntwo\nthree\n" });
  await write(wt, "a.txt", "a\n");
  const c1 = await commitAll(wt, "add a");
  await write(wt, "b.txt", "b\n");
  if (opts.conflict) await write(wt, "README.md", "one\nTASK\nthree\n");
  const c2 = await commitAll(wt, "add b");
  if (opts.mainMoves) {
    await write(repo.root, opts.conflict ? "README.md" : "main.txt", opts.conflict ? "one\nMAIN\nthree\n" : "main\n");
    await commitAll(repo.root, "main moves");
  }
  const input: MergeTaskInput = {
    repoRoot: repo.root,
    worktreePath: wt,
    branch: "task",
    targetBranch: "main",
    branchPreexisting: false,
  };
  return { root: repo.root, base: repo.head, wt, c1, c2, input, before: await git(repo.root, "rev-parse", "HEAD") };
}

const parents = async (root: string, rev: string) => (await git(root, "log", "-1", "--format=%P", rev)).split(" ");
const subjects = async (root: string, range: string) =>
  (await git(root, "log", "--format=%s", "--reverse", range)).split("\n").filter(Boolean);

describe("merge strategies", () => {
  it("merge (the default): one merge commit whose second parent is the branch tip", async () => {
    const s = await setup({ mainMoves: true });
    const r = await mergeTask(s.input);
    expect(r.strategy).toBe("merge");
    expect(await parents(s.root, r.mergeCommit)).toEqual([s.before, s.c2]);
  });

  it("squash: one new commit on the target with the task's changes, the message given", async () => {
    const s = await setup({ mainMoves: true });
    const r = await mergeTask({ ...s.input, strategy: "squash", message: "Greeting files\n\nSquashed." });
    expect(r).toMatchObject({ strategy: "squash", alreadyUpToDate: false, targetBefore: s.before });
    expect(await parents(s.root, r.mergeCommit)).toEqual([s.before]);
    expect(await git(s.root, "rev-parse", "HEAD")).toBe(r.mergeCommit);
    expect(await subjects(s.root, `${s.before}..HEAD`)).toEqual(["Greeting files"]);
    expect(await git(s.root, "diff", "--name-only", `${s.before}`, "HEAD")).toBe("a.txt\nb.txt");
    expect([await read(s.root, "a.txt"), await read(s.root, "b.txt"), await read(s.root, "main.txt")]).toEqual([
      "a\n",
      "b\n",
      "main\n",
    ]);
    expect(await git(s.root, "status", "--porcelain")).toBe("");
  });

  it("rebase: the task's commits replayed on the target, linear, authors and messages kept", async () => {
    const s = await setup({ mainMoves: true });
    const r = await mergeTask({ ...s.input, strategy: "rebase" });
    expect(r.strategy).toBe("rebase");
    expect(await subjects(s.root, `${s.before}..HEAD`)).toEqual(["add a", "add b"]);
    expect(await git(s.root, "rev-list", "--merges", "--count", `${s.base}..HEAD`)).toBe("0");
    expect(await git(s.root, "rev-parse", "HEAD~2")).toBe(s.before);
    expect(await git(s.root, "log", "-1", "--format=%an <%ae>", "HEAD")).toBe("Test Author <author@example.com>");
    // New commits (the originals sat on the old base), with the same changes.
    expect(await git(s.root, "rev-parse", "HEAD")).not.toBe(s.c2);
    expect(await git(s.root, "diff", "--name-only", s.before, "HEAD")).toBe("a.txt\nb.txt");
  });

  it("rebase linearizes a branch that merged its target in (an update by merge): no merge commit lands", async () => {
    const s = await setup({ mainMoves: true });
    await git(s.wt, "merge", "-q", "--no-edit", "main");
    await write(s.wt, "c.txt", "c\n");
    await commitAll(s.wt, "add c");
    await write(s.root, "later.txt", "later\n");
    const before = await commitAll(s.root, "main moves again");
    const r = await mergeTask({ ...s.input, strategy: "rebase" });
    expect(await subjects(s.root, `${before}..HEAD`)).toEqual(["add a", "add b", "add c"]);
    expect(await git(s.root, "rev-list", "--merges", "--count", `${s.base}..${r.mergeCommit}`)).toBe("0");
  });

  it("rebase of a branch already on top of the target lands its commits as they are", async () => {
    const s = await setup();
    const r = await mergeTask({ ...s.input, strategy: "rebase" });
    expect(r.mergeCommit).toBe(s.c2);
    expect(await git(s.root, "rev-parse", "HEAD~1")).toBe(s.c1);
  });

  it("ff: the target moves to the branch tip when it can", async () => {
    const s = await setup();
    const r = await mergeTask({ ...s.input, strategy: "ff" });
    expect(r).toMatchObject({ strategy: "ff", mergeCommit: s.c2, alreadyUpToDate: false });
    expect(await git(s.root, "rev-parse", "main")).toBe(s.c2);
    expect(await read(s.root, "b.txt")).toBe("b\n");
  });

  it("ff is refused with NOT_FAST_FORWARD when the target moved, and nothing changes", async () => {
    const s = await setup({ mainMoves: true });
    const e = await rejectsWith(mergeTask({ ...s.input, strategy: "ff" }), "NOT_FAST_FORWARD");
    expect(e.details).toMatchObject({ branch: "task", target: "main", behind: 1 });
    expect(await git(s.root, "rev-parse", "HEAD")).toBe(s.before);
    expect(await git(s.root, "branch", "--list", "task")).toContain("task");
    expect(await git(s.wt, "status", "--porcelain")).toBe("");
  });

  it.each(["squash", "rebase"] as const)(
    "%s conflicts are MERGE_CONFLICT naming the files, the target untouched",
    async (strategy) => {
      const s = await setup({ mainMoves: true, conflict: true });
      const e = await rejectsWith(mergeTask({ ...s.input, strategy }), "MERGE_CONFLICT");
      expect(e.details).toMatchObject({ files: ["README.md"], branch: "task", target: "main", strategy });
      expect(await git(s.root, "rev-parse", "HEAD")).toBe(s.before);
      expect(await git(s.root, "status", "--porcelain")).toBe("");
      expect(await read(s.root, "README.md")).toBe("one\nMAIN\nthree\n");
    },
  );

  it.each(["squash", "rebase", "ff"] as const)(
    "%s of a branch already in the target changes nothing",
    async (strategy) => {
      const s = await setup();
      await git(s.root, "merge", "-q", "--ff-only", "task");
      const r = await mergeTask({ ...s.input, strategy });
      expect(r).toMatchObject({ mergeCommit: s.c2, alreadyUpToDate: true });
      expect(await git(s.root, "rev-parse", "HEAD")).toBe(s.c2);
    },
  );

  it("never writes over a target checkout with uncommitted changes (DIRTY_TARGET before anything is built)", async () => {
    const s = await setup({ mainMoves: true });
    await write(s.root, "README.md", "local edit\n");
    for (const strategy of ["squash", "rebase", "ff"] as const) {
      await rejectsWith(mergeTask({ ...s.input, strategy }), "DIRTY_TARGET");
      expect(await read(s.root, "README.md")).toBe("local edit\n");
      expect(await git(s.root, "rev-parse", "HEAD")).toBe(s.before);
    }
  });

  it("an untracked file in the target where the landing commit writes one: DIRTY_TARGET, the file kept", async () => {
    const s = await setup({ mainMoves: true });
    await write(s.root, "a.txt", "mine, untracked\n");
    const e = await rejectsWith(mergeTask({ ...s.input, strategy: "squash" }), "DIRTY_TARGET");
    expect(e.details).toMatchObject({ untracked: true });
    expect(await read(s.root, "a.txt")).toBe("mine, untracked\n");
    expect(await git(s.root, "rev-parse", "HEAD")).toBe(s.before);
  });

  it("an approval pinned to a commit still holds for every strategy: a moved branch is refused", async () => {
    const s = await setup();
    await write(s.wt, "c.txt", "c\n");
    await commitAll(s.wt, "after approval");
    const e = await rejectsWith(
      mergeTask({ ...s.input, strategy: "squash", approved: { commit: s.c2, tree: null } }),
      "CONFLICT",
    );
    expect(e.details).toMatchObject({ approvedCommit: s.c2 });
    expect(await git(s.root, "rev-parse", "HEAD")).toBe(s.before);
  });
});
