// The review contract: line comments on a round's diff, reviews (approve / request changes),
// rounds, and the board/task-page reads the review UI needs. Zod schemas for every input and
// output; the router declares them with .input()/.output(), and the CLI and UI take their types
// from the router.
import { z } from "zod";
import { LIMITS, taskId } from "./common";

const commentId = z.string().regex(/^cmt[a-z0-9]{4,40}$/, "not a comment id");
const reviewId = z.string().regex(/^rev[a-z0-9]{4,40}$/, "not a review id");

/** Which side of the diff a comment's lines are on: the base ("old") or the task's version ("new"). */
const diffSide = z.enum(["old", "new"]);

const repoRelativePath = z
  .string()
  .min(1)
  .max(LIMITS.path)
  .refine(
    (p) => !p.includes("\0") && !p.startsWith("/") && !p.split("/").includes(".."),
    "a path inside the repository, relative to its root",
  );

const commentBody = z.string().trim().min(1, "a comment needs text").max(LIMITS.summary);

const reviewComment = z.object({
  id: commentId,
  taskId,
  /** The round whose diff the comment is anchored to. */
  round: z.number().int().min(1),
  /** The review it was submitted with; null while it is a draft of the current round. */
  reviewId: reviewId.nullable(),
  path: z.string(),
  startLine: z.number().int().min(1),
  endLine: z.number().int().min(1),
  side: diffSide,
  body: z.string(),
  /** The lines of code the comment is about, as the diff showed them when it was written. */
  quote: z.string(),
  resolved: z.boolean(),
  /** Its lines changed when the task's base moved (an update of the branch): it no longer sits on the diff. */
  outdated: z.boolean(),
  author: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type ReviewComment = z.infer<typeof reviewComment>;

export const reviewVerdict = z.enum(["approved", "changes_requested"]);

const review = z.object({
  id: reviewId,
  taskId,
  round: z.number().int().min(1),
  stage: z.enum(["human", "agent"]),
  reviewer: z.string(),
  verdict: reviewVerdict,
  summary: z.string().nullable(),
  /** The branch's commit the review saw (an approval holds for that commit only; null: recorded before reviews were pinned). */
  reviewedCommit: z.string().nullable(),
  createdAt: z.string(),
  comments: z.array(reviewComment),
});
export type Review = z.infer<typeof review>;

// ---- inputs ----------------------------------------------------------------------------

export const addCommentInput = z
  .object({
    taskId,
    path: repoRelativePath,
    startLine: z.number().int().min(1).max(10_000_000),
    /** Defaults to startLine (a one-line comment). */
    endLine: z.number().int().min(1).max(10_000_000).optional(),
    side: diffSide.default("new"),
    body: commentBody,
  })
  .refine((c) => c.endLine === undefined || c.endLine >= c.startLine, {
    message: "endLine must not be before startLine",
    path: ["endLine"],
  });

export const editCommentInput = z.object({ id: commentId, body: commentBody });
export const resolveCommentInput = z.object({ id: commentId, resolved: z.boolean().default(true) });
export const deleteCommentInput = z.object({ id: commentId });
export const listCommentsInput = z.object({ taskId, round: z.number().int().min(1).optional() });

export const submitReviewInput = z.object({
  taskId,
  verdict: z.enum(["approve", "request_changes"]),
  summary: z.string().trim().max(LIMITS.summary).optional(),
});

export const listReviewsInput = z.object({ taskId, round: z.number().int().min(1).optional() });

// ---- outputs ---------------------------------------------------------------------------

/**
 * What the task's review stands at, for its current round. `outdated`: approved, but the branch
 * has moved since (a new commit): it needs a new review before it merges.
 */
export const reviewStatus = z.enum(["none", "approved", "changes_requested", "outdated"]);
export type ReviewStatus = z.infer<typeof reviewStatus>;

export const commentOutput = z.object({ comment: reviewComment });
export const commentsOutput = z.object({ comments: z.array(reviewComment) });
/** The reviews asked for, plus where the task's current round stands. */
export const reviewsOutput = z.object({
  reviews: z.array(review),
  round: z.number().int().min(1),
  status: reviewStatus,
});

/** The task after a review: approved (same round), or the next round starting (round + 1, pending). */
const reviewedTask = z.object({
  id: taskId,
  state: z.string(),
  round: z.number().int().min(1),
  paneId: z.string().nullable(),
  reviewStatus,
});
export const submitReviewOutput = z.object({ review, task: reviewedTask });

/** One stretch of agent work on the task, with what came of it. */
const taskRound = z.object({
  number: z.number().int().min(1),
  state: z.string(),
  paneId: z.string().nullable(),
  /** The prompt that started the round (the contract for round 1, the review feedback after). */
  prompt: z.string().nullable(),
  result: z
    .object({
      status: z.string(),
      summary: z.string(),
      artifacts: z.array(z.string()),
      changedFiles: z.array(z.string()),
      evidence: z.record(z.string(), z.unknown()).nullable(),
    })
    .nullable(),
  evidence: z.record(z.string(), z.unknown()).nullable(),
  startedAt: z.string(),
  endedAt: z.string().nullable(),
  reviews: z.array(review),
});
export const roundsOutput = z.object({ rounds: z.array(taskRound) });
export type TaskRound = z.infer<typeof taskRound>;
