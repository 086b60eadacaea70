// tRPC procedures for tasks: start (or record in the backlog), startBacklog, get, list, wait,
// report, followUp, diff (optionally since the last review), rounds, cancel, finish, events, resume.
import { z } from "zod";
import { roundsOutput } from "../contracts/reviews";
import { followUpInput, startBacklogInput, taskDiffInput, taskDiffOutput } from "../contracts/tasks";
import { YardError } from "../core/errors";
import { reportInput, startInput } from "../core/tasks/service";
import { callerProcedure, orchestratorProcedure, router } from "./trpc";

const taskId = z.string().regex(/^tsk[a-z0-9]{4,40}$/, "not a task id");

export const tasksRouter = router({
  start: orchestratorProcedure.input(startInput).mutation(({ ctx, input }) => ctx.services.tasks.start(input, { paneId: ctx.pane?.id ?? null })),
  startBacklog: orchestratorProcedure.input(startBacklogInput).mutation(({ ctx, input }) => ctx.services.tasks.startBacklog(input.id)),
  get: callerProcedure.input(z.object({ id: taskId })).query(({ ctx, input }) => {
    if (ctx.pane?.taskId && ctx.pane.taskId !== input.id) throw new YardError("FORBIDDEN", "A worker pane may only read its own task");
    return ctx.services.tasks.get(input.id);
  }),
  list: orchestratorProcedure
    .input(z.object({ contextId: z.string().max(100).optional(), states: z.array(z.string().max(32)).max(10).optional(), projectId: z.string().max(64).optional() }).optional())
    .query(({ ctx, input }) => ctx.services.tasks.list(input ?? {})),
  wait: orchestratorProcedure
    .input(
      z.object({
        id: taskId.optional(),
        contextId: z.string().max(100).optional(),
        until: z.union([z.string().max(200), z.array(z.string().max(32)).max(10)]).optional(),
        timeoutMs: z.number().int().min(1).max(24 * 3600_000).optional(),
      }),
    )
    .query(async ({ ctx, input }) => ({ tasks: await ctx.services.tasks.wait({ taskId: input.id, contextId: input.contextId, until: input.until, timeoutMs: input.timeoutMs }) })),
  report: callerProcedure.input(reportInput).mutation(({ ctx, input }) =>
    ctx.services.tasks.report(input, { paneId: ctx.pane?.id ?? null, paneTaskId: ctx.pane?.taskId ?? null, admin: ctx.principal.kind === "admin" }),
  ),
  followUp: orchestratorProcedure.input(followUpInput).mutation(({ ctx, input }) => ctx.services.tasks.followUp(input.id, input.text, { stallMs: input.stallMs })),
  diff: orchestratorProcedure
    .input(taskDiffInput)
    .output(taskDiffOutput)
    .query(async ({ ctx, input }) => (input.since === "last_review" ? ctx.services.reviews.changesSinceLastReview(input.id) : { ...(await ctx.services.tasks.diff(input.id)), since: null })),
  rounds: callerProcedure
    .input(z.object({ id: taskId }))
    .output(roundsOutput)
    .query(async ({ ctx, input }) => {
      if (ctx.pane?.taskId && ctx.pane.taskId !== input.id) throw new YardError("FORBIDDEN", "A worker pane may only read its own task");
      return { rounds: await ctx.services.reviews.rounds(input.id) };
    }),
  cancel: orchestratorProcedure.input(z.object({ id: taskId })).mutation(({ ctx, input }) => ctx.services.tasks.cancel(input.id)),
  /** A failed or canceled task's agent, continued in its recorded session in a fresh pane (a new round). */
  resume: orchestratorProcedure
    .input(z.object({ id: taskId, prompt: z.string().trim().min(1).max(64 * 1024).optional(), readyTimeoutMs: z.number().int().min(100).max(600_000).optional() }))
    .mutation(({ ctx, input }) => ctx.services.tasks.resume(input.id, { prompt: input.prompt, readyTimeoutMs: input.readyTimeoutMs })),
  finish: orchestratorProcedure
    .input(
      z.object({
        id: taskId,
        merge: z.object({ target: z.string().min(1).max(255).optional(), keepBranch: z.boolean().optional(), ignoreDirty: z.boolean().optional() }).optional(),
        discard: z.object({ deleteBranch: z.boolean().optional() }).optional(),
      }),
    )
    .mutation(({ ctx, input }) => ctx.services.tasks.finish(input.id, { merge: input.merge, discard: input.discard })),
  events: orchestratorProcedure
    .input(z.object({ id: taskId, since: z.number().int().min(0).optional() }))
    .query(async ({ ctx, input }) => ({ events: await ctx.services.tasks.events(input.id, input.since) })),
});
