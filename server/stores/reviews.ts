// Persistence for reviews and their line comments: the only module of the reviews core that talks
// to Prisma. Rows go in and come out as the contract's shapes (ReviewComment, Review); a review
// and the draft comments it takes are written in one transaction.
import type { ReviewComment, Review, ReviewStatus } from "../wire/reviews";
import type { Db } from "../db";

type CommentRow = NonNullable<Awaited<ReturnType<Db["reviewComment"]["findUnique"]>>>;
type ReviewRow = NonNullable<Awaited<ReturnType<Db["review"]["findUnique"]>>>;

export interface NewComment {
  id: string;
  taskId: string;
  round: number;
  path: string;
  startLine: number;
  endLine: number;
  side: "old" | "new";
  body: string;
  quote: string;
  author: string;
}

export interface NewReview {
  id: string;
  taskId: string;
  round: number;
  stage: "human" | "agent";
  reviewer: string;
  verdict: "approved" | "changes_requested";
  summary: string | null;
  reviewedTree: string | null;
  reviewedCommit: string | null;
}

/** A review with the snapshot it was taken against (for "changes since the last review"). */
export type StoredReview = Review & { reviewedTree: string | null };

const COMMENT_ORDER = [
  { round: "asc" as const },
  { path: "asc" as const },
  { startLine: "asc" as const },
  { createdAt: "asc" as const },
];

export class ReviewStore {
  constructor(private readonly db: Db) {}

  async createComment(c: NewComment): Promise<ReviewComment> {
    return toComment(await this.db.reviewComment.create({ data: { ...c, reviewId: null, resolved: false } }));
  }

  async comment(id: string): Promise<ReviewComment | null> {
    const row = await this.db.reviewComment.findUnique({ where: { id } });
    return row ? toComment(row) : null;
  }

  async updateComment(id: string, data: { body?: string; resolved?: boolean }): Promise<ReviewComment> {
    return toComment(await this.db.reviewComment.update({ where: { id }, data }));
  }

  /** A comment moved with its lines (a new base), or marked outdated (its lines changed). */
  async anchorComment(id: string, a: { startLine: number; endLine: number } | { outdated: true }): Promise<void> {
    await this.db.reviewComment.update({ where: { id }, data: a });
  }

  async deleteComment(id: string): Promise<void> {
    await this.db.reviewComment.delete({ where: { id } });
  }

  async comments(taskId: string, round?: number): Promise<ReviewComment[]> {
    return (await this.db.reviewComment.findMany({ where: { taskId, round }, orderBy: COMMENT_ORDER })).map(toComment);
  }

  /** A round's comments not yet submitted with a review. */
  async drafts(taskId: string, round: number, opts: { unresolvedOnly?: boolean } = {}): Promise<ReviewComment[]> {
    return (
      await this.db.reviewComment.findMany({
        where: { taskId, round, reviewId: null, ...(opts.unresolvedOnly ? { resolved: false } : {}) },
        orderBy: COMMENT_ORDER,
      })
    ).map(toComment);
  }

  /** Writes the review and attaches the given draft comments to it, in one transaction. */
  async createReview(r: NewReview, commentIds: string[]): Promise<StoredReview> {
    const { reviewer, ...rest } = r;
    await this.db.$transaction([
      this.db.review.create({ data: { ...rest, reviewerKind: reviewer } }),
      this.db.reviewComment.updateMany({
        where: { id: { in: commentIds }, taskId: r.taskId, reviewId: null },
        data: { reviewId: r.id },
      }),
    ]);
    return (await this.review(r.id))!;
  }

  /** Undoes createReview (the next round could not start): its comments become drafts again. */
  async deleteReview(id: string): Promise<void> {
    await this.db.$transaction([
      this.db.reviewComment.updateMany({ where: { reviewId: id }, data: { reviewId: null } }),
      this.db.review.delete({ where: { id } }),
    ]);
  }

  async review(id: string): Promise<StoredReview | null> {
    const row = await this.db.review.findUnique({ where: { id }, include: { comments: { orderBy: COMMENT_ORDER } } });
    return row ? toReview(row) : null;
  }

  /** Reviews oldest first, each with its comments. */
  async reviews(taskId: string, round?: number): Promise<StoredReview[]> {
    const rows = await this.db.review.findMany({
      where: { taskId, round },
      orderBy: [{ createdAt: "asc" }, { id: "asc" }],
      include: { comments: { orderBy: COMMENT_ORDER } },
    });
    return rows.map(toReview);
  }

  /** The task's most recent review that recorded a snapshot, or null. */
  async lastReviewWithTree(taskId: string): Promise<StoredReview | null> {
    const row = await this.db.review.findFirst({
      where: { taskId, reviewedTree: { not: null } },
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      include: { comments: { orderBy: COMMENT_ORDER } },
    });
    return row ? toReview(row) : null;
  }

  /**
   * What the round's latest review approved, when its latest review is an approval: the commit
   * and tree it saw (either may be null for reviews recorded before approvals were pinned).
   */
  async approval(
    taskId: string,
    round: number,
  ): Promise<{ reviewId: string; commit: string | null; tree: string | null } | null> {
    const row = await this.db.review.findFirst({
      where: { taskId, round },
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      select: { id: true, verdict: true, reviewedCommit: true, reviewedTree: true },
    });
    return row?.verdict === "approved"
      ? { reviewId: row.id, commit: row.reviewedCommit, tree: row.reviewedTree }
      : null;
  }

  /**
   * The people who approved the round at this commit (human stage), each once, oldest first; with
   * `commit` null, who approved the round at all.
   */
  async approvers(taskId: string, round: number, commit: string | null): Promise<string[]> {
    const rows = await this.db.review.findMany({
      where: { taskId, round, stage: "human", verdict: "approved", ...(commit ? { reviewedCommit: commit } : {}) },
      orderBy: [{ createdAt: "asc" }, { id: "asc" }],
      select: { reviewerKind: true },
    });
    return [...new Set(rows.map((r) => r.reviewerKind))];
  }

  /** The round's latest verdict (of one stage only, when given). */
  async status(taskId: string, round: number, stage?: "human" | "agent"): Promise<ReviewStatus> {
    const row = await this.db.review.findFirst({
      where: { taskId, round, stage },
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      select: { verdict: true },
    });
    return toStatus(row?.verdict ?? null);
  }
}

function toStatus(verdict: string | null): ReviewStatus {
  return verdict === "approved" || verdict === "changes_requested" ? verdict : "none";
}

function toComment(r: CommentRow): ReviewComment {
  return {
    id: r.id,
    taskId: r.taskId,
    round: r.round,
    reviewId: r.reviewId,
    path: r.path,
    startLine: r.startLine,
    endLine: r.endLine,
    side: r.side === "old" ? "old" : "new",
    body: r.body,
    quote: r.quote,
    resolved: r.resolved,
    outdated: r.outdated,
    author: r.author,
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  };
}

function toReview(r: ReviewRow & { comments: CommentRow[] }): StoredReview {
  return {
    id: r.id,
    taskId: r.taskId,
    round: r.round,
    stage: r.stage === "agent" ? "agent" : "human",
    reviewer: r.reviewerKind,
    verdict: r.verdict === "approved" ? "approved" : "changes_requested",
    summary: r.summary,
    createdAt: r.createdAt.toISOString(),
    reviewedCommit: r.reviewedCommit,
    comments: r.comments.map(toComment),
    reviewedTree: r.reviewedTree,
  };
}
