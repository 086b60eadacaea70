// tRPC procedures for reviews: line comments on a round's diff (add, edit, resolve, delete, list)
// and reviews (submit: approve or request changes; list). Thin: the contract's schemas in and
// out, one call into the review service. The user and orchestrator panes only: a task's worker
// pane may not review its own (or any) task.
import {
  addCommentInput,
  commentOutput,
  commentsOutput,
  deleteCommentInput,
  editCommentInput,
  listCommentsInput,
  listReviewsInput,
  resolveCommentInput,
  reviewsOutput,
  submitReviewInput,
  submitReviewOutput,
} from "../wire/reviews";
import type { Actor } from "../core/reviews/service";
import { type ApiCall, callerProcedure, router } from "./trpc";
import { atOwner } from "./at-owner";

/** Who the review service records as author or reviewer. */
const actorOf = (ctx: ApiCall): Actor => (ctx.pane ? { kind: "pane", paneId: ctx.pane.id } : { kind: "user" });

export const reviewsRouter = router({
  addComment: callerProcedure
    .input(addCommentInput)
    .output(commentOutput)
    .mutation(async ({ ctx, input }) => ({ comment: await ctx.services.reviews.addComment(input, actorOf(ctx)) })),
  editComment: callerProcedure
    .input(editCommentInput)
    .output(commentOutput)
    .mutation(async ({ ctx, input }) => ({ comment: await ctx.services.reviews.editComment(input, actorOf(ctx)) })),
  resolveComment: callerProcedure
    .input(resolveCommentInput)
    .output(commentOutput)
    .mutation(async ({ ctx, input }) => ({ comment: await ctx.services.reviews.resolveComment(input, actorOf(ctx)) })),
  deleteComment: callerProcedure
    .input(deleteCommentInput)
    .output(commentOutput)
    .mutation(async ({ ctx, input }) => ({ comment: await ctx.services.reviews.deleteComment(input, actorOf(ctx)) })),
  listComments: callerProcedure
    .input(listCommentsInput)
    .output(commentsOutput)
    .query(async ({ ctx, input }) => ({ comments: await ctx.services.reviews.listComments(input) })),
  submit: callerProcedure
    .input(submitReviewInput)
    .output(submitReviewOutput)
    .mutation(
      atOwner(
        "reviews.submit",
        (i) => i.taskId,
        async ({ ctx, input }) => ctx.services.reviews.submitReview(input, actorOf(ctx)),
      ),
    ),
  list: callerProcedure
    .input(listReviewsInput)
    .output(reviewsOutput)
    .query(({ ctx, input }) => ctx.services.reviews.listReviews(input)),
});
