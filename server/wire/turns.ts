// The turn snapshots' contract: a task's snapshots as `tasks.turns` lists them, and the inputs and
// outputs of `tasks.revertPreview` (what a revert would change) and `tasks.revertTurn`. A turn's
// own diff is `tasks.diff` with `turn` (server/wire/tasks.ts).
import { z } from "zod";
import { taskId } from "./common";

const int = z.number().int();

/** A snapshot's kind: an agent's turn ended; the changes made between turns (recorded before a revert); a revert. */
export const turnKind = z.enum(["turn", "edits", "revert"]);

/** A turn number as inputs name it. */
const turnNumber = z.number().int().min(1).max(1_000_000);

const turnView = z.object({
  /** 1, 2, … across the task's rounds. */
  number: int,
  round: int,
  kind: turnKind,
  /** A revert: the turn whose changes it undid. */
  revertOf: int.nullable(),
  /** The snapshot commit (on refs/switchyard/tasks/<id>/turn-<number>) and its tree. */
  commit: z.string(),
  tree: z.string(),
  /** What changed since the previous snapshot (or the base, for the first). */
  files: int,
  additions: int,
  deletions: int,
  createdAt: z.string(),
});
export type TurnView = z.infer<typeof turnView>;

export const turnsOutput = z.object({ turns: z.array(turnView) });

export const revertTurnInput = z.object({ id: taskId, turn: turnNumber });

/** One file a revert changes: its content restored, the file removed (made in turn N or later), or re-created. */
const revertChange = z.object({ path: z.string(), action: z.enum(["restore", "remove", "recreate"]) });

export const revertPreviewOutput = z.object({
  /** The turn whose changes (and every later one's) are undone. */
  turn: int,
  /** The snapshot the files go back to: turn N-1, or 0 for the task's base commit. */
  restores: int,
  /** The files that change (at most 1000 listed; truncated says there were more). */
  files: z.array(revertChange),
  truncated: z.boolean(),
});

export const revertTurnOutput = revertPreviewOutput.extend({
  /** The snapshot recording the worktree after the revert (null when nothing had to change). */
  snapshot: turnView.nullable(),
});
