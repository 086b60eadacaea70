// tRPC procedures for plans: submit a version (the planner, for its own task), list a task's
// versions with their reviews, review the version in review (approve: the subtasks are created;
// request changes: the notes go to the planner). Thin: contracts in and out, one core call each.
import { planReviewInput, planReviewReply, plansReply, planSubmitInput, planView } from "../wire/plans";
import { taskIdInput } from "../wire/tasks";
import { YardError } from "../core/errors";
import { callerProcedure, router } from "./trpc";

export const plansRouter = router({
  submit: callerProcedure
    .input(planSubmitInput)
    .output(planView)
    .mutation(({ ctx, input }) => {
      // A planner submits for its own task; the person names the task.
      const taskId = ctx.pane?.taskId ?? input.taskId;
      if (!taskId)
        throw new YardError("BAD_PARAMS", "Which task? Run this inside the planner's pane or pass --task ID");
      if (ctx.pane?.taskId && input.taskId && input.taskId !== ctx.pane.taskId)
        throw new YardError("FORBIDDEN", "A pane submits plans for its own task only", { taskId: input.taskId });
      return ctx.services.plans.submit(taskId, input.plan, { paneId: ctx.pane?.id ?? null });
    }),
  list: callerProcedure
    .input(taskIdInput)
    .output(plansReply)
    .query(async ({ ctx, input }) => ({ taskId: input.id, plans: await ctx.services.plans.list(input.id) })),
  review: callerProcedure
    .input(planReviewInput)
    .output(planReviewReply)
    .mutation(({ ctx, input }) =>
      ctx.services.plans.review(input, { paneId: ctx.pane?.id ?? null, reviewerAgent: ctx.pane?.role === "reviewer" }),
    ),
});
