// tRPC procedures for tasks: start (or record in the backlog), startBacklog, get, list, wait,
// report, followUp, diff (optionally since the last review, or of one turn), rounds, cancel, finish,
// events, resume; the setup's (./repo-setup.ts), the turn snapshots' (./turns.ts) and push, pr and
// handoff (./github.ts).
// Thin: the task contract's schemas in and out (server/wire/tasks.ts), who may act, one call
// into the core.
import { githubTaskProcedures } from "./github";
import { taskThreadProcedures } from "./task-thread";
import { taskSetupProcedures } from "./repo-setup";
import { turnProcedures } from "./turns";
import { taskBranchProcedures } from "./task-branch";
import { roundsOutput } from "../wire/reviews";
import { taskEventsOutput } from "../wire/events";
import {
  eventsInput,
  finishInput,
  finishOutput,
  followUpInput,
  followUpOutput,
  listInput,
  reportInput,
  resumeInput,
  taskIdInput,
  startInput,
  startOutput,
  taskDiffInput,
  taskDiffOutput,
  taskList,
  taskView,
  taskWithPane,
  uncommittedOutput,
  waitInput,
  waitOutput,
} from "../wire/tasks";
import type { StartCaller } from "../core/tasks/start";
import { callerProcedure, router } from "./trpc";
import { maxWaitsFrom, waitCaller, WaitLimit } from "../core/tasks/wait-limit";
import { atOwner } from "./at-owner";

/** Long polls held open per caller (YARD_MAX_WAITS): over it `wait` is RATE_LIMITED at once. */
const waitLimit = new WaitLimit(maxWaitsFrom());

export const tasksRouter = router({
  ...taskThreadProcedures,
  ...taskSetupProcedures,
  ...githubTaskProcedures,
  ...turnProcedures,
  ...taskBranchProcedures,
  start: callerProcedure
    .input(startInput)
    .output(startOutput)
    .mutation(async ({ ctx, input }) => {
      // A sandboxed pane's task runs sandboxed, with no more network than the pane (core/tasks/start.ts).
      const caller: StartCaller = ctx.pane
        ? { paneId: ctx.pane.id, role: ctx.pane.role, sandbox: (await ctx.services.access.caller(ctx.pane)).sandbox }
        : { paneId: null, role: "person", sandbox: null };
      return ctx.services.tasks.start(input, caller);
    }),
  startBacklog: callerProcedure
    .input(taskIdInput)
    .output(taskWithPane)
    .mutation(({ ctx, input }) => ctx.services.tasks.startBacklog(input.id)),
  get: callerProcedure
    .input(taskIdInput)
    .output(taskView)
    .query(({ ctx, input }) => ctx.services.tasks.get(input.id)),
  list: callerProcedure
    .input(listInput)
    .output(taskList)
    .query(async ({ ctx, input }) => {
      const tasks = await ctx.services.tasks.list(input ?? {});
      // A pane sees the tasks its role reaches (an orchestrator: those it started, their subtasks, its context).
      return ctx.pane ? ctx.services.access.visible(ctx.pane, tasks) : tasks;
    }),
  wait: callerProcedure
    .input(waitInput)
    .output(waitOutput)
    .query(async ({ ctx, input, signal }) => {
      // A pane waits on (and is shown) only the context's tasks its role reaches, as in list. A
      // caller that goes away ends its wait (signal) and gets its slot back at once.
      const pane = ctx.pane;
      const release = waitLimit.acquire(waitCaller(pane));
      try {
        return {
          tasks: await ctx.services.tasks.wait({
            taskId: input.id,
            contextId: input.contextId,
            until: input.until,
            timeoutMs: input.timeoutMs,
            signal,
            visible: pane ? (tasks) => ctx.services.access.visible(pane, tasks) : undefined,
          }),
        };
      } finally {
        release();
      }
    }),
  report: callerProcedure
    .input(reportInput)
    .output(taskView)
    .mutation(({ ctx, input }) =>
      ctx.services.tasks.report(input, {
        paneId: ctx.pane?.id ?? null,
        paneTaskId: ctx.pane?.taskId ?? null,
        admin: ctx.principal.kind === "person",
      }),
    ),
  followUp: callerProcedure
    .input(followUpInput)
    .output(followUpOutput)
    .mutation(
      atOwner(
        "tasks.followUp",
        (i) => i.id,
        async ({ ctx, input }) => ctx.services.tasks.followUp(input.id, input.text, { stallMs: input.stallMs }),
      ),
    ),
  diff: callerProcedure
    .input(taskDiffInput)
    .output(taskDiffOutput)
    .query(async ({ ctx, input }) =>
      input.turn !== undefined
        ? { ...(await ctx.services.turns.diff(input.id, input.turn, input.since)), since: null }
        : input.since === "last_review"
          ? ctx.services.reviews.changesSinceLastReview(input.id)
          : { ...(await ctx.services.tasks.diff(input.id)), since: null },
    ),
  rounds: callerProcedure
    .input(taskIdInput)
    .output(roundsOutput)
    .query(async ({ ctx, input }) => ({ rounds: await ctx.services.reviews.rounds(input.id) })),
  cancel: callerProcedure
    .input(taskIdInput)
    .output(taskView)
    .mutation(
      atOwner(
        "tasks.cancel",
        (i) => i.id,
        async ({ ctx, input }) => ctx.services.tasks.cancel(input.id),
      ),
    ),
  /** A failed or canceled task's agent, continued in its recorded session in a fresh pane (a new round). */
  resume: callerProcedure
    .input(resumeInput)
    .output(taskWithPane)
    .mutation(({ ctx, input }) =>
      ctx.services.tasks.resume(input.id, { prompt: input.prompt, readyTimeoutMs: input.readyTimeoutMs }),
    ),
  finish: callerProcedure
    .input(finishInput)
    .output(finishOutput)
    .mutation(
      atOwner(
        "tasks.finish",
        (i) => i.id,
        async ({ ctx, input }) =>
          ctx.services.tasks.finish(
            input.id,
            { merge: input.merge, discard: input.discard },
            { paneId: ctx.pane?.id ?? null },
          ),
      ),
    ),
  /** What a discard would lose: the worktree's uncommitted files (the browser's and the CLI's confirmation list them). */
  uncommitted: callerProcedure
    .input(taskIdInput)
    .output(uncommittedOutput)
    .query(({ ctx, input }) => ctx.services.tasks.uncommitted(input.id)),
  events: callerProcedure
    .input(eventsInput)
    .output(taskEventsOutput)
    .query(async ({ ctx, input }) => ({ events: await ctx.services.tasks.events(input.id, input.since) })),
});
