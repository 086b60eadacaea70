// The task-side contract the review and board UI codes against: the diff (optionally only the
// changes since the last review), backlog starts, follow-up prompts, the base-ref picker and the
// board's cards. Zod schemas for inputs and outputs; the router declares them with
// .input()/.output(), and the CLI and UI take their types from the router.
import { z } from "zod";
import { id, LIMITS, taskId } from "./common";
import { reviewStatus, reviewVerdict } from "./reviews";

// ---- diff ------------------------------------------------------------------------------

export const diffFile = z.object({
  path: z.string(),
  status: z.enum(["added", "modified", "deleted", "renamed"]),
  oldPath: z.string().optional(),
  additions: z.number().int(),
  deletions: z.number().int(),
  binary: z.boolean(),
});

export const taskDiffInput = z.object({
  id: taskId,
  /** "last_review": only what changed since the task's last review was submitted. */
  since: z.enum(["last_review"]).optional(),
});

export const taskDiffOutput = z.object({
  diff: z.string(),
  files: z.array(diffFile),
  baseSha: z.string(),
  /** worktree: read from the live worktree; branch: the worktree is gone, read from the branch (or merge). */
  source: z.enum(["worktree", "branch"]),
  /** Set when the diff starts at a review's snapshot instead of the base commit. */
  since: z
    .object({
      reviewId: z.string(),
      round: z.number().int().min(1),
      verdict: reviewVerdict,
      /** The worktree's tree when that review was submitted. */
      tree: z.string(),
      createdAt: z.string(),
    })
    .nullable(),
});

// ---- backlog, follow-up ----------------------------------------------------------------

export const startBacklogInput = z.object({ id: taskId });

export const followUpInput = z.object({
  id: taskId,
  text: z.string().trim().min(1, "a follow-up needs text").max(LIMITS.prompt),
  /** How long the agent may take to start working on it before SUBMIT_STALLED (default 5000 ms). */
  stallMs: z.number().int().min(100).max(600_000).optional(),
});

// ---- base-ref picker -------------------------------------------------------------------

export const projectRefsInput = z.object({
  id,
  /** Filters both lists: part of a branch name, a commit sha prefix or part of a commit subject. */
  query: z.string().trim().max(200).optional(),
  limit: z.number().int().min(1).max(500).optional(),
});

export const projectRefsOutput = z.object({
  branches: z.array(z.object({ name: z.string(), sha: z.string(), current: z.boolean() })),
  commits: z.array(z.object({ sha: z.string(), subject: z.string() })),
});

// ---- board -----------------------------------------------------------------------------

export const boardCard = z.object({
  id: taskId,
  title: z.string(),
  label: z.string().nullable(),
  state: z.string(),
  disposition: z.string().nullable(),
  agent: z.string(),
  round: z.number().int().min(1),
  branch: z.string().nullable(),
  contextId: z.string().nullable(),
  /** How many files the latest result lists as changed; null when no result lists any. */
  changedFiles: z.number().int().min(0).nullable(),
  /** The task waits on a person: its pane is blocked on a prompt, or it is input_required. */
  needsUser: z.boolean(),
  reviewStatus,
  /** What needs attention or what is going on, in one line (null: nothing beyond the state). */
  line: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type BoardCard = z.infer<typeof boardCard>;

export const boardOutput = z.object({
  backlog: z.array(boardCard),
  in_progress: z.array(boardCard),
  needs_you: z.array(boardCard),
  review: z.array(boardCard),
  done: z.array(boardCard),
});
