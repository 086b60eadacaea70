// A task's changes: its diff against the base commit (the live worktree, or the branch or merge
// once the worktree is gone) and its size (files, lines added and deleted: the same files, without
// the patch text), the diff since a review's snapshot, and the snapshot itself (the worktree as a
// tree id). A diff that races a merge or discard answers CONFLICT, not a git error.
import { syncFromRunner } from "./on-runner";
import { existsSync } from "node:fs";
import path from "node:path";
import { YardError } from "../errors";
import type { z } from "zod";
import type { taskDiffOutput } from "../../wire/tasks";
import {
  branchTip,
  type DiffTotals,
  diffCommits,
  diffTreeToCommit,
  diffWorktree,
  diffWorktreeSince,
  diffWorktreeStat,
  totalsOf,
  worktreeTree,
} from "../git";
import type { TaskRow } from "../../stores/tasks";
import { type EngineState, taskRow } from "./engine-state";

/** The task diff reply without its review anchor (`since`), which the review service adds. */
export type TaskDiff = Omit<z.infer<typeof taskDiffOutput>, "since">;

/** The task's changes against its base commit: the live worktree, or its branch once the worktree is gone. */
export async function diff(eng: EngineState, taskId: string): Promise<TaskDiff> {
  const t = await taskRow(eng, taskId);
  if (!t.baseSha || !t.worktreePath)
    throw new YardError(
      "CONFLICT",
      t.state === "backlog"
        ? "The task is in the backlog; it has no worktree or diff until it starts"
        : "The task has no worktree",
    );
  // A runner's work comes back first (on-runner.ts): the diff read is the runner's as of now.
  await syncFromRunner(eng, t);
  return changes(eng, t, { baseSha: t.baseSha });
}

/** The size of the task's changes against its base commit, counted as its diff counts them. */
export async function diffStat(eng: EngineState, taskId: string): Promise<DiffTotals> {
  const t = await taskRow(eng, taskId);
  if (!t.baseSha || !t.worktreePath) throw new YardError("CONFLICT", "The task has no worktree");
  return totalsOf((await changes(eng, t, { baseSha: t.baseSha }, { stat: true })).files);
}

/** The changes from a review's snapshot (a tree id) to the worktree now, in the same shape. */
export async function diffSince(eng: EngineState, taskId: string, tree: string): Promise<TaskDiff> {
  const t = await taskRow(eng, taskId);
  if (!t.baseSha || !t.worktreePath) throw new YardError("CONFLICT", "The task has no worktree");
  return changes(eng, t, { tree });
}

/** `stat`: the files (with their counts) only; the patch text is left empty. */
async function changes(
  eng: EngineState,
  t: TaskRow,
  from: { baseSha: string } | { tree: string },
  opts: { stat?: boolean } = {},
): Promise<TaskDiff> {
  const baseSha = t.baseSha!;
  const wt = t.worktreePath!;
  // Whether a merge or discard ran at any moment of this call: git errors then come from the race.
  let raced = eng.finishing.has(t.id);
  // A linked worktree has a `.git` file; checking for it costs no git process on this hot path.
  // While a merge or discard removes it, its files are half gone: the branch is the truth then.
  if (!raced && existsSync(path.join(wt, ".git"))) {
    try {
      const d =
        "tree" in from
          ? await diffWorktreeSince({ worktreePath: wt, tree: from.tree })
          : opts.stat
            ? { diff: "", files: (await diffWorktreeStat({ worktreePath: wt, baseSha })).files }
            : await diffWorktree({ worktreePath: wt, baseSha });
      return { ...d, baseSha, source: "worktree" };
    } catch (e) {
      // A merge or discard removed (part of) the worktree while git was reading it: use the branch.
      if (existsSync(path.join(wt, ".git")) && !eng.finishing.has(t.id)) throw e;
      raced = true;
    }
  }
  // The worktree is gone (merged or discarded): the branch, or the merge, still holds the committed work.
  // The branch is read as a commit id, so a merge deleting it while git diffs still leaves the commit.
  // A finish that ended during this call recorded its merge: read the task again, once.
  let now = await taskRow(eng, t.id); // a merge that finished meanwhile has recorded its commit
  for (let attempt = 0; ; attempt++) {
    try {
      // A squash, rebase or fast-forward landed its own commit: that commit is the task's work, from the base it landed on.
      const landed = now.mergeCommit && now.mergeStrategy && now.mergeStrategy !== "merge" ? now.mergeCommit : null;
      const tip =
        landed ??
        (now.branch && (await branchTip(now.repoPath, now.branch))) ??
        (now.mergeCommit ? `${now.mergeCommit}^2` : null);
      if (!tip) {
        // Between a merge deleting the branch and recording its commit, there is no tip for a moment.
        if (eng.finishing.has(t.id) || (raced && attempt === 0))
          throw new YardError("GIT_FAILED", "the branch is gone and the merge is not recorded yet");
        throw new YardError("CONFLICT", "The task's worktree and branch are both gone; there is nothing left to diff", {
          taskId: t.id,
        });
      }
      const d =
        "tree" in from
          ? await diffTreeToCommit({ repoRoot: now.repoPath, tree: from.tree, tip })
          : await diffCommits({ repoRoot: now.repoPath, baseSha: landed ? (now.baseSha ?? baseSha) : baseSha, tip });
      return { ...d, baseSha: landed ? (now.baseSha ?? baseSha) : baseSha, source: "branch" };
    } catch (e) {
      if (!(e instanceof YardError && (e.code === "GIT_FAILED" || e.code === "NOT_FOUND"))) throw e;
      if (eng.finishing.has(t.id)) {
        throw new YardError(
          "CONFLICT",
          "The task is being merged or discarded right now; ask for its diff again once that has finished",
          { taskId: t.id, finishing: true },
        );
      }
      if (attempt > 0) throw e;
      const again = await taskRow(eng, t.id);
      if (!raced && again.disposition === now.disposition) throw e;
      now = again;
    }
  }
}

/**
 * What a review sees: the worktree's current state as a tree id (null when the worktree is gone)
 * and the branch's commit, read first (a commit made meanwhile moves the branch past it, which
 * voids an approval rather than slipping into it).
 */
export async function snapshot(
  eng: EngineState,
  taskId: string,
): Promise<{ tree: string | null; commit: string | null }> {
  const t = await taskRow(eng, taskId);
  const commit = t.branch ? await branchTip(t.repoPath, t.branch).catch(() => null) : null;
  if (!t.worktreePath || !existsSync(path.join(t.worktreePath, ".git"))) return { tree: null, commit };
  try {
    return { tree: await worktreeTree({ worktreePath: t.worktreePath }), commit };
  } catch (e) {
    if (!existsSync(path.join(t.worktreePath, ".git"))) return { tree: null, commit }; // removed while git read it
    throw e;
  }
}
