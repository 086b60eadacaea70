// The branch contract: how far a task's branch is behind its target (counted off the request path),
// an update of the branch with its target's new commits (`tasks.update`: merge, or rebase on
// request) and what it did, an update waiting on the agent to resolve its conflicts, and the merge
// strategies a finish can land a branch with (a project's default, or the merge dialog's choice).
// Only zod: the UI loads this module.
import { z } from "zod";

/** How a finish lands the branch on its target: a merge commit, one squashed commit, the commits replayed on top, or a fast-forward. */
export const mergeStrategy = z.enum(["merge", "squash", "rebase", "ff"]);
export type MergeStrategy = z.infer<typeof mergeStrategy>;

/** How an update brings the target's commits into the task branch. */
const updateMode = z.enum(["merge", "rebase"]);

/** How far the task's branch is behind its target, as last counted (null on the view: not counted yet, or no target). */
export const branchBehind = z.object({
  target: z.string(),
  /** Commits on the target that the branch does not have. */
  count: z.number().int().min(0),
  targetCommit: z.string(),
  computedAt: z.string(),
});

/** An update that stopped at conflicts and became a round of the agent's: it settles once the agent committed the result. */
export const pendingUpdate = z.object({
  mode: updateMode,
  target: z.string(),
  targetCommit: z.string(),
  /** The files git stopped at. */
  files: z.array(z.string()),
  /** The round that asks the agent to resolve them. */
  round: z.number().int().min(1),
});

export const updateInput = z.object({
  id: z.string().regex(/^tsk[a-z0-9]{4,40}$/, "not a task id"),
  /** Rebase the branch onto the target instead of merging the target in. */
  rebase: z.boolean().optional(),
});

/** What an update did. */
export const branchUpdate = z.object({
  /** updated: the branch has the target's commits; up_to_date: it had them already; conflict_round: a round asks the agent to resolve the conflicts. */
  outcome: z.enum(["updated", "up_to_date", "conflict_round"]),
  mode: updateMode,
  target: z.string(),
  targetCommit: z.string(),
  /** The branch's commit before, and after (null while the agent resolves conflicts). */
  from: z.string(),
  to: z.string().nullable(),
  /** The task's base after the update (the merge-base with the target; null while the agent resolves conflicts). */
  base: z.string().nullable(),
  /** How many of the target's commits the update brings in. */
  commits: z.number().int().min(0),
  /** Conflicted files (conflict_round only). */
  files: z.array(z.string()),
  /** The current round's line comments: moved with their lines, or marked outdated (null: the base did not move). */
  comments: z.object({ moved: z.number().int(), outdated: z.number().int() }).nullable(),
});
