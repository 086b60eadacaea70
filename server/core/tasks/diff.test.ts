// The task diff against the moments of a merge: each row the store hands out is what a read at
// that moment of the finish would see (real git, a real merge; the store is a script of rows).
import { afterAll, describe, expect, it } from "vitest";
import path from "node:path";
import { createWorktree, mergeTask } from "../git";
import type { TaskRow } from "../../stores/tasks";
import { commitAll, makeRepo, rejectsWith, removeTmpDirs, tmpDir, write } from "../../../tests/helpers/git-core";
import type { EngineState } from "./engine-state";
import { diff } from "./diff";

afterAll(removeTmpDirs);

/** A task worktree with one commit adding m.txt, and the task's row as the store holds it. */
async function task() {
  const repo = await makeRepo();
  const wt = await createWorktree({
    repoRoot: repo.root,
    branch: "task",
    baseSha: repo.head,
    path: path.join(await tmpDir(), "wt"),
  });
  await write(wt.worktreePath, "m.txt", "merged\n");
  await commitAll(wt.worktreePath, "add m");
  const row = {
    id: "tsk_1",
    state: "completed",
    disposition: null,
    repoPath: repo.root,
    worktreePath: wt.worktreePath,
    branch: "task",
    baseSha: repo.head,
    mergeCommit: null,
  } as unknown as TaskRow;
  const merge = () =>
    mergeTask({
      repoRoot: repo.root,
      worktreePath: wt.worktreePath,
      branch: "task",
      targetBranch: "main",
      branchPreexisting: false,
    });
  return { row, merge };
}

/** A context whose store answers with `rows` in turn (the last one repeats); `onRead` runs before each answer. */
function contextOf(rows: TaskRow[], finishing: boolean, onRead: (n: number, eng: EngineState) => void = () => {}) {
  let reads = 0;
  const eng = {
    finishing: new Set(finishing ? ["tsk_1"] : []),
    store: {
      row: async () => {
        onRead(++reads, eng);
        return rows[Math.min(reads, rows.length) - 1]!;
      },
    },
  } as unknown as EngineState;
  return { eng, reads: () => reads };
}

describe("task diff while a merge finishes", () => {
  it("reads the live worktree when no finish runs", async () => {
    const { row } = await task();
    const { eng } = contextOf([row], false);
    expect(await diff(eng, "tsk_1")).toMatchObject({ source: "worktree", files: [{ path: "m.txt", status: "added" }] });
  });

  it("a merge that ends during the call (branch deleted, then recorded): reads the task again and diffs the merge", async () => {
    const { row, merge } = await task();
    const res = await merge();
    const merged = { ...row, state: "merged", disposition: "merged", mergeCommit: res.mergeCommit } as TaskRow;
    // Read 1 (the call's start) and 2 (the branch step) are from before the merge was recorded;
    // the finish ends between them. Read 3 sees the merge.
    const { eng, reads } = contextOf([row, row, merged], true, (n, c) => n === 2 && c.finishing.clear());
    expect(await diff(eng, "tsk_1")).toMatchObject({ source: "branch", files: [{ path: "m.txt", status: "added" }] });
    expect(reads()).toBe(3);
  });

  it("while the finish still runs and nothing is left to read: a typed CONFLICT that says so", async () => {
    const { row, merge } = await task();
    await merge();
    const { eng } = contextOf([row], true);
    const e = await rejectsWith(diff(eng, "tsk_1"), "CONFLICT");
    expect(e.details).toMatchObject({ finishing: true });
  });

  it("worktree and branch gone with no finish running: CONFLICT at once, with no second read", async () => {
    const { row, merge } = await task();
    await merge(); // as after a discard that deleted the branch: no merge commit on the row
    const { eng, reads } = contextOf([row], false);
    const e = await rejectsWith(diff(eng, "tsk_1"), "CONFLICT");
    expect(e.message).toMatch(/worktree and branch are both gone/);
    expect(reads()).toBe(2);
  });
});
