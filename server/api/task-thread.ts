// tRPC procedures for orchestration around a task: dependencies (depend), the worker's
// questions and their answers (ask, answer, thread), acknowledging a result (ack), extra
// worktrees (registerWorktree, worktrees). Thin: the contract in and out, one core call each;
// who may call which is the role gate table's (roles.ts), the caller's own task is never taken
// from the input where the caller is a task's pane.
import {
  ackInput,
  ackReply,
  agentReviewInput,
  answerInput,
  askInput,
  dependInput,
  dependReply,
  messageReply,
  registerWorktreeInput,
  threadInput,
  threadReply,
  worktreesInput,
  worktreesReply,
} from "../wire/orchestration";
import { taskView } from "../wire/tasks";
import { YardError } from "../core/errors";
import { type ApiCall, callerProcedure } from "./trpc";
import { atOwner } from "./at-owner";

const iso = <T extends { createdAt: Date }>(r: T) => ({ ...r, createdAt: r.createdAt.toISOString() });

/** The task the calling pane belongs to; refused for callers that are not a task's pane. */
function ownTask(ctx: ApiCall, what: string): string {
  if (!ctx.pane?.taskId)
    throw new YardError(
      "BAD_PARAMS",
      `${what} is for an agent inside a task's pane (YARD_TASK); this caller has no task`,
    );
  return ctx.pane.taskId;
}

export const taskThreadProcedures = {
  /** Add or remove a dependency; a task whose dependencies are all met starts by itself. */
  depend: callerProcedure
    .input(dependInput)
    .output(dependReply)
    .mutation(({ ctx, input }) =>
      ctx.services.dependencies.depend(input.id, input.on, {
        remove: input.remove ?? false,
        startWhen: input.startWhen,
      }),
    ),
  /** A worker asks whoever started its task; the task waits in input_required for the answer. */
  ask: callerProcedure
    .input(askInput)
    .output(messageReply)
    .mutation(async ({ ctx, input }) => ({
      message: iso(
        await ctx.services.messages.ask(ownTask(ctx, "yard task ask"), input.question, {
          paneId: ctx.pane?.id ?? null,
        }),
      ),
    })),
  /** The answer, typed to the worker through the submit gate, then recorded. */
  answer: callerProcedure
    .input(answerInput)
    .output(messageReply)
    .mutation(
      atOwner(
        "tasks.answer",
        (i) => i.id,
        async ({ ctx, input }) => ({
          message: iso(
            await ctx.services.messages.answer(
              input.id,
              input.text,
              { paneId: ctx.pane?.id ?? null },
              { stallMs: input.stallMs },
            ),
          ),
        }),
      ),
    ),
  /** The parent acknowledges the task's result (it leaves the parent's attention). */
  ack: callerProcedure
    .input(ackInput)
    .output(ackReply)
    .mutation(async ({ ctx, input }) => ({
      id: input.id,
      ...(await ctx.services.messages.acknowledge(input.id, {
        paneId: ctx.pane?.id ?? null,
        admin: ctx.principal.kind === "person",
      })),
    })),
  thread: callerProcedure
    .input(threadInput)
    .output(threadReply)
    .query(({ ctx, input }) => ctx.services.messages.thread(input.id)),
  /** Skip the agent reviewer stage (the task goes to a person), or run it again on the current round. */
  agentReview: callerProcedure
    .input(agentReviewInput)
    .output(taskView)
    .mutation(async ({ ctx, input }) => {
      if (input.action === "skip") await ctx.services.agentReviews.skip(input.id);
      else await ctx.services.agentReviews.rerun(input.id);
      return ctx.services.tasks.get(input.id);
    }),
  /** An agent lists an extra git worktree it made for its own task. */
  registerWorktree: callerProcedure
    .input(registerWorktreeInput)
    .output(worktreesReply)
    .mutation(async ({ ctx, input }) => {
      const id = ownTask(ctx, "yard task register-worktree");
      return {
        taskId: id,
        worktrees: (await ctx.services.extraWorktrees.register(id, input.path, input.branch ?? null)).map(iso),
      };
    }),
  worktrees: callerProcedure
    .input(worktreesInput)
    .output(worktreesReply)
    .query(async ({ ctx, input }) => ({
      taskId: input.id,
      worktrees: (await ctx.services.extraWorktrees.list(input.id)).map(iso),
    })),
};
