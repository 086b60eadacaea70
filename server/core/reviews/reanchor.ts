// Moving line comments when a task's base moves (an update brought the target's commits in), as
// GitHub does with a pushed branch: a comment whose lines did not change moves with them to where
// they are now; one whose lines changed, or that the new diff no longer shows, becomes outdated
// (kept, shown apart, never placed on a line it was not written about).
//
//   mapRange(hunks, start, end) -> { startLine, endLine } | null (pure)
//     where lines start..end of a file's old version are in its new version, given the `-U0`
//     hunks between the two; null when a hunk touches them or inserts lines between them.
//   reanchorComments(deps, taskId, move) -> { moved, outdated }
//     every comment of `move.round` not outdated yet: an old-side comment (the base's lines) maps
//     through the change from the old base to the new one, a new-side comment (the task's lines)
//     through the change from the branch's old commit to its new one; the result must be lines
//     the new diff shows on that side, with the text the comment quoted.
import type { Hunk } from "../git";
import type { TaskDiff } from "../tasks/engine";
import type { ReviewStore } from "../../stores/reviews";
import { diffLines, QUOTE_MAX_LINES } from "./anchor";

export function mapRange(
  hunks: readonly Hunk[],
  start: number,
  end: number,
): { startLine: number; endLine: number } | null {
  let shift = 0;
  for (const h of hunks) {
    // Old lines the hunk replaces: oldStart..oldStart+oldCount-1; a pure insertion (oldCount 0) goes after line oldStart.
    const last = h.oldCount === 0 ? h.oldStart : h.oldStart + h.oldCount - 1;
    const before = h.oldCount === 0 ? h.oldStart < start : last < start;
    if (before) {
      shift += h.newCount - h.oldCount;
      continue;
    }
    const after = h.oldCount === 0 ? h.oldStart >= end : h.oldStart > end;
    if (!after) return null;
  }
  return { startLine: start + shift, endLine: end + shift };
}

/** A move of the task's base: its repository, the old and new base, the branch's commit before and after, the round whose comments move. */
export interface BaseMove {
  repoPath: string;
  round: number;
  oldBase: string;
  newBase: string;
  oldHead: string;
  newHead: string;
}

export interface ReanchorDeps {
  store: Pick<ReviewStore, "comments" | "anchorComment">;
  /** The task's diff against its (new) base. */
  diff(taskId: string): Promise<TaskDiff>;
  /** The `-U0` hunks of one file between two commits of the repository (git/update.ts fileChanges). */
  changes(repoPath: string, from: string, to: string, path: string): Promise<Hunk[]>;
}

export async function reanchorComments(
  deps: ReanchorDeps,
  taskId: string,
  move: BaseMove,
): Promise<{ moved: number; outdated: number }> {
  const comments = (await deps.store.comments(taskId, move.round)).filter((c) => !c.outdated);
  if (!comments.length) return { moved: 0, outdated: 0 };
  const diff = await deps.diff(taskId);
  const lines = diffLines(diff.diff, diff.files);
  const hunks = new Map<string, Promise<Hunk[]>>();
  const hunksOf = (side: "old" | "new", file: string) => {
    const key = `${side}\0${file}`;
    if (!hunks.has(key))
      hunks.set(
        key,
        side === "old"
          ? deps.changes(move.repoPath, move.oldBase, move.newBase, file)
          : deps.changes(move.repoPath, move.oldHead, move.newHead, file),
      );
    return hunks.get(key)!;
  };
  let moved = 0;
  let outdated = 0;
  for (const c of comments) {
    const to = mapRange(await hunksOf(c.side, c.path), c.startLine, c.endLine);
    const shown = lines.get(c.path)?.[c.side];
    if (to && shown && sameText(shown, to.startLine, to.endLine, c.quote)) {
      if (to.startLine !== c.startLine) {
        await deps.store.anchorComment(c.id, to);
        moved++;
      }
    } else {
      await deps.store.anchorComment(c.id, { outdated: true });
      outdated++;
    }
  }
  return { moved, outdated };
}

/** The diff shows every line start..end on that side, with the text the comment quoted (a cut quote: its kept lines). */
function sameText(shown: Map<number, string>, start: number, end: number, quote: string): boolean {
  const want = quote.split("\n");
  for (let n = start; n <= end; n++) {
    const text = shown.get(n);
    if (text === undefined) return false;
    const i = n - start;
    if (i < QUOTE_MAX_LINES && quote !== "" && want[i] !== text) return false;
  }
  return true;
}
