// Reviews of a task's rounds. Owns: line comments anchored to the current round's diff (path in
// the diff, lines the diff shows on that side, the quoted code captured when written), their
// edit/resolve/delete rules, submitting a review (approve: a completed, unfinished task; request
// changes: a completed or input_required one, whose summary and unresolved comments become the
// next round's prompt through the task engine), the snapshot each review records for "changes
// since the last review", where a round's review stands, and the rounds read with their reviews.
// Framework-free: persistence through ReviewStore, tasks through the ReviewTasks port.
import { inTurn } from "../serial";
import type {
  addCommentInput,
  deleteCommentInput,
  editCommentInput,
  listCommentsInput,
  listReviewsInput,
  resolveCommentInput,
  ReviewComment,
  ReviewStatus,
  submitReviewInput,
  TaskRound,
} from "../../wire/reviews";
import type { z } from "zod";
import { YardError } from "../errors";
import type { EventJournal, EventPayload } from "../events/journal";
import { newId } from "../ids";
import type { RoundRecord, TaskDiff, TaskView } from "../tasks/engine";
import { diffLines, feedbackPrompt, quoteFor } from "./anchor";
import type { ReviewStore, StoredReview } from "../../stores/reviews";
import { authorOf } from "../authors";

/** What the review service needs from the task engine. */
interface ReviewTasks {
  get(taskId: string): Promise<TaskView>;
  diff(taskId: string): Promise<TaskDiff>;
  diffSince(taskId: string, tree: string): Promise<TaskDiff>;
  snapshot(taskId: string): Promise<{ tree: string | null; commit: string | null }>;
  startNextRound(taskId: string, prompt: string): Promise<TaskView>;
  roundRecords(taskId: string): Promise<RoundRecord[]>;
}

/** Who is acting: the user (install token, browser) or an orchestrator pane. */
export type Actor = { kind: "user" } | { kind: "pane"; paneId: string };

const actorAuthor = (a: Actor) => authorOf(a.kind === "user" ? null : a.paneId);

export interface ReviewServiceDeps {
  store: ReviewStore;
  tasks: ReviewTasks;
  journal: EventJournal;
}

export class ReviewService {
  /** Serializes reviews per task: two submits cannot both start a round. */
  private readonly chains = new Map<string, Promise<unknown>>();

  constructor(private readonly deps: ReviewServiceDeps) {}

  // ---- comments ------------------------------------------------------------------------

  /** A draft comment on the current round's diff; BAD_PARAMS (creating nothing) unless the diff shows those lines. */
  async addComment(input: z.output<typeof addCommentInput>, by: Actor): Promise<ReviewComment> {
    const task = await this.deps.tasks.get(input.taskId);
    if (task.disposition)
      throw new YardError("CONFLICT", `The task is already ${task.disposition}; it takes no more comments`, {
        disposition: task.disposition,
      });
    if (task.state === "backlog")
      throw new YardError("CONFLICT", "The task is in the backlog; it has no diff to comment on yet", {
        state: task.state,
      });
    const diff = await this.deps.tasks.diff(input.taskId);
    const endLine = input.endLine ?? input.startLine;
    const file = diffLines(diff.diff, diff.files).get(input.path);
    if (!file) {
      throw new YardError(
        "BAD_PARAMS",
        `${input.path} is not in round ${task.round}'s diff${diff.files.length ? ` (it changes ${diff.files.map((f) => f.path).join(", ")})` : " (the diff is empty)"}`,
        {
          path: input.path,
          files: diff.files.map((f) => f.path),
        },
      );
    }
    const quote = quoteFor(file, input.side, input.startLine, endLine);
    const comment = await this.deps.store.createComment({
      id: newId("cmt"),
      taskId: input.taskId,
      round: task.round,
      path: input.path,
      startLine: input.startLine,
      endLine,
      side: input.side,
      body: input.body,
      quote,
      author: actorAuthor(by),
    });
    await this.journal(comment, "added");
    return comment;
  }

  /** A draft's author (or the user) may change its text; a submitted comment was sent as written. */
  async editComment(input: z.output<typeof editCommentInput>, by: Actor): Promise<ReviewComment> {
    const c = await this.draft(input.id, by, "edit");
    const comment = await this.deps.store.updateComment(c.id, { body: input.body });
    await this.journal(comment, "edited");
    return comment;
  }

  /** Anyone reviewing may resolve (or reopen) any comment, draft or submitted. */
  async resolveComment(input: z.output<typeof resolveCommentInput>, _by: Actor): Promise<ReviewComment> {
    const c = await this.existing(input.id);
    if (c.resolved === input.resolved) return c;
    const comment = await this.deps.store.updateComment(c.id, { resolved: input.resolved });
    await this.journal(comment, input.resolved ? "resolved" : "reopened");
    return comment;
  }

  /** Only drafts can be deleted (a submitted comment is part of its round's record), by their author or the user. */
  async deleteComment(input: z.output<typeof deleteCommentInput>, by: Actor): Promise<ReviewComment> {
    const c = await this.draft(input.id, by, "delete");
    await this.deps.store.deleteComment(c.id);
    await this.journal(c, "deleted");
    return c;
  }

  /** The task a comment is on, or null when there is no such comment (the procedure then says NOT_FOUND). */
  async commentTask(id: string): Promise<string | null> {
    return (await this.deps.store.comment(id))?.taskId ?? null;
  }

  async listComments(input: z.output<typeof listCommentsInput>): Promise<ReviewComment[]> {
    await this.deps.tasks.get(input.taskId);
    return this.deps.store.comments(input.taskId, input.round);
  }

  private async existing(id: string): Promise<ReviewComment> {
    const c = await this.deps.store.comment(id);
    if (!c) throw new YardError("NOT_FOUND", `No comment ${id}`, { commentId: id });
    return c;
  }

  private async draft(id: string, by: Actor, what: "edit" | "delete"): Promise<ReviewComment> {
    const c = await this.existing(id);
    if (by.kind !== "user" && c.author !== actorAuthor(by))
      throw new YardError("FORBIDDEN", `Only its author or the user may ${what} comment ${id}`, {
        commentId: id,
        author: c.author,
      });
    if (c.reviewId)
      throw new YardError(
        "CONFLICT",
        `Comment ${id} was submitted with review ${c.reviewId}; it is part of round ${c.round}'s record and cannot be ${what === "edit" ? "edited" : "deleted"} (resolve it instead)`,
        { commentId: id, reviewId: c.reviewId },
      );
    return c;
  }

  private async journal(c: ReviewComment, action: EventPayload<"task.comment">["action"]): Promise<void> {
    await this.deps.journal.append("task.comment", {
      taskId: c.taskId,
      payload: { action, commentId: c.id, round: c.round, path: c.path, startLine: c.startLine, endLine: c.endLine },
    });
  }

  // ---- reviews -------------------------------------------------------------------------

  /**
   * Approve (the task must be completed and not finished: TASK_NOT_COMPLETED otherwise) or
   * request changes (completed or input_required: CONFLICT otherwise), taking the round's
   * unresolved draft comments with it. Request changes starts the next round with the summary
   * and those comments as its prompt; when that round cannot start, the review is undone.
   */
  submitReview(
    input: z.output<typeof submitReviewInput>,
    by: Actor,
  ): Promise<{ review: StoredReview; task: TaskView }> {
    return inTurn(this.chains, input.taskId, () => this.submitNow(input, by));
  }

  private async submitNow(
    input: z.output<typeof submitReviewInput>,
    by: Actor,
  ): Promise<{ review: StoredReview; task: TaskView }> {
    const task = await this.deps.tasks.get(input.taskId);
    if (task.evidence?.reason === "plan_review")
      throw new YardError("CONFLICT", "The task waits for its plan's review, not a code review: yard plan review", {
        taskId: task.id,
      });
    const summary = input.summary ? input.summary : null;
    // The worktree's tree and the branch's commit now, taken once (the approval check and the review both need it).
    let snapshot: ReturnType<ReviewTasks["snapshot"]> | null = null;
    const seenNow = () => (snapshot ??= this.deps.tasks.snapshot(task.id));
    if (input.verdict === "approve") {
      if (task.state !== "completed" || task.disposition) {
        throw new YardError(
          "TASK_NOT_COMPLETED",
          task.disposition
            ? `The task is already ${task.disposition}; there is nothing left to approve`
            : `Only a completed task can be approved; this one is ${task.state}`,
          {
            state: task.state,
            disposition: task.disposition,
          },
        );
      }
      // An agent reviewer's approval leaves the round to a person; each stage approves once, and
      // again once the branch has moved past what it approved.
      // With people, each person approves once: a second reviewer's approval counts too (a
      // project may require several, core/tasks/approvals.ts).
      const stage = by.kind === "user" ? "human" : "agent";
      const already =
        stage === "human"
          ? (await this.deps.store.approvers(task.id, task.round, (await seenNow()).commit)).includes(actorAuthor(by))
          : (await this.deps.store.status(task.id, task.round, stage)) === "approved" &&
            task.reviewStatus !== "outdated";
      if (already) {
        throw new YardError(
          "CONFLICT",
          stage === "human"
            ? `${actorAuthor(by)} already approved round ${task.round}`
            : `Round ${task.round} is already approved`,
          { round: task.round, stage },
        );
      }
    } else {
      if (task.disposition)
        throw new YardError("CONFLICT", `The task is already ${task.disposition}; it takes no more rounds`, {
          disposition: task.disposition,
        });
      if (task.state !== "completed" && task.state !== "input_required") {
        throw new YardError(
          "CONFLICT",
          `Changes can be requested of a completed or input_required task; this one is ${task.state}`,
          { state: task.state },
        );
      }
    }
    const drafts = await this.deps.store.drafts(task.id, task.round, { unresolvedOnly: true });
    if (input.verdict === "request_changes" && !summary && drafts.length === 0) {
      throw new YardError(
        "BAD_PARAMS",
        "Requesting changes needs a summary or at least one unresolved comment: that is what the agent is sent",
        { taskId: task.id },
      );
    }
    const seen = await seenNow();
    const review = await this.deps.store.createReview(
      {
        id: newId("rev"),
        taskId: task.id,
        round: task.round,
        stage: by.kind === "user" ? "human" : "agent",
        reviewer: actorAuthor(by),
        verdict: input.verdict === "approve" ? "approved" : "changes_requested",
        summary,
        reviewedTree: seen.tree,
        reviewedCommit: seen.commit,
      },
      drafts.map((c) => c.id),
    );
    if (input.verdict === "approve") {
      await this.deps.journal.append("task.review", {
        taskId: task.id,
        payload: {
          reviewId: review.id,
          round: review.round,
          verdict: review.verdict,
          comments: review.comments.length,
        },
      });
      return { review, task: await this.deps.tasks.get(task.id) };
    }
    let next: TaskView;
    try {
      next = await this.deps.tasks.startNextRound(task.id, feedbackPrompt(task.round, summary, review.comments));
    } catch (e) {
      await this.deps.store.deleteReview(review.id);
      throw e;
    }
    await this.deps.journal.append("task.review", {
      taskId: task.id,
      payload: {
        reviewId: review.id,
        round: review.round,
        verdict: review.verdict,
        comments: review.comments.length,
        nextRound: next.round,
      },
    });
    return { review, task: next };
  }

  async listReviews(
    input: z.output<typeof listReviewsInput>,
  ): Promise<{ reviews: StoredReview[]; round: number; status: ReviewStatus }> {
    const task = await this.deps.tasks.get(input.taskId);
    return {
      reviews: await this.deps.store.reviews(input.taskId, input.round),
      round: task.round,
      status: task.reviewStatus,
    };
  }

  // ---- reads across rounds -------------------------------------------------------------

  /** Every round with its prompt, result, evidence and the reviews (with comments) of that round. */
  async rounds(taskId: string): Promise<TaskRound[]> {
    const [records, reviews] = await Promise.all([
      this.deps.tasks.roundRecords(taskId),
      this.deps.store.reviews(taskId),
    ]);
    return records.map((r) => ({ ...r, reviews: reviews.filter((v) => v.round === r.number) }));
  }

  /** The diff from the last review's snapshot to the worktree now (CONFLICT before any review). */
  async changesSinceLastReview(taskId: string): Promise<
    TaskDiff & {
      since: { reviewId: string; round: number; verdict: StoredReview["verdict"]; tree: string; createdAt: string };
    }
  > {
    await this.deps.tasks.get(taskId);
    const last = await this.deps.store.lastReviewWithTree(taskId);
    if (!last?.reviewedTree)
      throw new YardError(
        "CONFLICT",
        "No review of this task has been submitted yet, so there are no changes since one; ask for the whole diff instead",
        { taskId },
      );
    const d = await this.deps.tasks.diffSince(taskId, last.reviewedTree);
    return {
      ...d,
      since: {
        reviewId: last.id,
        round: last.round,
        verdict: last.verdict,
        tree: last.reviewedTree,
        createdAt: last.createdAt,
      },
    };
  }
}
