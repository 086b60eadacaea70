// The tRPC router: input validation (zod) and one call into the core per procedure.
import { z } from "zod";
import { agentProfileInput, agentProfileUpdate } from "../core/agents/profiles";
import { projectAddInput, projectUpdateInput } from "../core/projects/projects";
import type { Services } from "../composition";
import { listRefs } from "../core/git";
import { VERSION } from "../version";
import { githubProjectProcedures } from "./github";
import { eventsRouter, hooksRouter, panesRouter } from "./panes";
import { plansRouter } from "./plans";
import { pushRouter } from "./push";
import { reviewsRouter } from "./reviews";
import { tasksRouter } from "./tasks";
import { projectSetupProcedures } from "./repo-setup";
import { templatesRouter } from "./templates";
import { auditRouter, insightsRouter, peopleRouter } from "./people";
import { runnersRouter } from "./runners";
import { worktreesRouter } from "./worktrees";
import { whoamiReply } from "../wire/orchestration";
import { absolutePath, id, paneId, profileId } from "../wire/common";
import {
  profileList,
  profileRemoved,
  profileView,
  project,
  projectList,
  statusReply,
  stopInput,
  stopReply,
  trialStarted,
  trialStatus,
} from "../wire/projects";
import { boardOutput, doneInput, donePage } from "../wire/board";
import { projectRefsInput, projectRefsOutput } from "../wire/tasks";
import { YardError } from "../core/errors";
import { deliveriesInput, deliveryView, setWebhookInput, setWebhookOutput } from "../wire/webhooks";
import { callerProcedure, router } from "./trpc";

async function sandboxStatus(
  services: Services,
): Promise<{ available: boolean; reason: string | null; message: string | null }> {
  const a = await services.sandbox.availability();
  return a.ok
    ? { available: true, reason: null, message: null }
    : { available: false, reason: a.reason, message: a.message };
}

export const appRouter = router({
  status: callerProcedure.output(statusReply).query(async ({ ctx }) => ({
    ok: true as const,
    version: VERSION,
    home: ctx.principal.kind === "person" ? ctx.services.home : undefined,
    url: ctx.services.url(),
    principal: ctx.principal.kind,
    ...(ctx.principal.kind === "person"
      ? { person: { name: ctx.principal.person.name, role: ctx.principal.person.role } }
      : {}),
    ...(await ctx.services.counts()),
    /** Called from a pane: whether that pane runs in the OS sandbox. */
    sandboxed: ctx.pane ? (await ctx.services.panes.get(ctx.pane.id)).sandboxed : undefined,
    /** For the user: whether sandboxed tasks can start on this machine, and if not why. */
    sandbox: ctx.principal.kind === "person" ? await sandboxStatus(ctx.services) : undefined,
  })),

  /** Who is calling: role, pane, and for a task's pane its task, context and lineage. */
  whoami: callerProcedure.output(whoamiReply).query(async ({ ctx }) => ({
    ...(await ctx.services.access.whoami(ctx.pane)),
    ...(ctx.principal.kind === "person"
      ? { person: { name: ctx.principal.person.name, role: ctx.principal.person.role } }
      : {}),
  })),

  server: router({
    /** `yard stop [--all]`: answers, then stops the server (with `all`, every agent and the pane host too). */
    stop: callerProcedure
      .input(stopInput)
      .output(stopReply)
      .mutation(({ ctx, input }) => {
        const stop = ctx.services.requestStop;
        if (!stop)
          throw new YardError(
            "CONFLICT",
            "This server was not started by `yard serve`/`npm start` and cannot be stopped through the API",
          );
        const all = input?.all ?? false;
        setImmediate(() => stop(all));
        return {
          stopping: true as const,
          all,
          agents: ctx.services.panes.liveCount,
          serverPid: process.pid,
          hostPid: ctx.services.host.hello.hostPid,
        };
      }),
  }),

  projects: router({
    ...projectSetupProcedures,
    ...githubProjectProcedures,
    add: callerProcedure
      .input(projectAddInput)
      .output(project)
      .mutation(({ ctx, input }) => ctx.services.projects.add(input)),
    list: callerProcedure.output(projectList).query(({ ctx }) => ctx.services.projects.list()),
    get: callerProcedure
      .input(z.object({ id }))
      .output(project)
      .query(({ ctx, input }) => ctx.services.projects.get(input.id)),
    remove: callerProcedure
      .input(z.object({ id }))
      .output(project)
      .mutation(({ ctx, input }) => ctx.services.projects.remove(input.id)),
    /** Branches and recent commits to pick a task's base from. */
    refs: callerProcedure
      .input(projectRefsInput)
      .output(projectRefsOutput)
      .query(async ({ ctx, input }) =>
        listRefs((await ctx.services.projects.get(input.id)).path, { query: input.query, limit: input.limit }),
      ),
    /** A project's webhook: where its notices are posted, which ones, the key they are signed with. */
    setWebhook: callerProcedure
      .input(setWebhookInput)
      .output(setWebhookOutput)
      .mutation(async ({ ctx, input }) => {
        await ctx.services.projects.get(input.id);
        return ctx.services.webhooks.configure(input.id, input);
      }),
    /** The webhook's delivery log, newest first. */
    deliveries: callerProcedure
      .input(deliveriesInput)
      .output(z.array(deliveryView))
      .query(async ({ ctx, input }) => {
        await ctx.services.projects.get(input.id);
        return ctx.services.webhooks.deliveries(input.id, input.limit);
      }),
    /** Rename a project, or change its trust setting, reviewer, planner, merge rules or default runner. */
    update: callerProcedure
      .input(projectUpdateInput)
      .output(project)
      .mutation(async ({ ctx, input }) => {
        // A default runner must exist (NOT_FOUND otherwise, nothing changed).
        if (input.defaultRunner) await ctx.services.runners.get(input.defaultRunner);
        return ctx.services.projects.update(input, (id) =>
          ctx.services.agents.get(id).then(
            () => true,
            () => false,
          ),
        );
      }),
  }),

  board: router({
    get: callerProcedure
      .input(z.object({ projectId: id }))
      .output(boardOutput)
      .query(async ({ ctx, input }) => {
        await ctx.services.projects.get(input.projectId);
        return ctx.services.tasks.board(input.projectId);
      }),
    /** The project's Done cards, newest first, a page at a time (board.get carries the newest few). */
    done: callerProcedure
      .input(doneInput)
      .output(donePage)
      .query(async ({ ctx, input }) => {
        await ctx.services.projects.get(input.projectId);
        return ctx.services.tasks.donePage(input.projectId, { cursor: input.cursor, limit: input.limit });
      }),
  }),

  panes: panesRouter,
  tasks: tasksRouter,
  reviews: reviewsRouter,
  plans: plansRouter,
  hooks: hooksRouter,
  events: eventsRouter,
  worktrees: worktreesRouter,
  templates: templatesRouter,
  people: peopleRouter,
  runners: runnersRouter,
  audit: auditRouter,
  insights: insightsRouter,
  push: pushRouter,

  agents: router({
    list: callerProcedure.output(profileList).query(({ ctx }) => ctx.services.agents.list()),
    add: callerProcedure
      .input(agentProfileInput)
      .output(profileView)
      .mutation(({ ctx, input }) => ctx.services.agents.add(input)),
    /** Change a profile. env: {set: {NAME: value}, remove: [NAME]}; variables not named keep their (write-only) values. */
    update: callerProcedure
      .input(agentProfileUpdate)
      .output(profileView)
      .mutation(({ ctx, input }) => ctx.services.agents.update(input)),
    /** Start the profile in a scratch pane ("Try it"); read the outcome with agents.tryStatus. */
    try: callerProcedure
      .input(z.object({ id: profileId, cwd: absolutePath.optional() }))
      .output(trialStarted)
      .mutation(({ ctx, input }) => ctx.services.trials.try(input)),
    /** Whether the trial agent became ready, or which start-up dialog it waits at, and its screen. */
    tryStatus: callerProcedure
      .input(z.object({ paneId }))
      .output(trialStatus)
      .query(({ ctx, input }) => ctx.services.trials.status(input.paneId)),
    remove: callerProcedure
      .input(z.object({ id: profileId }))
      .output(profileRemoved)
      .mutation(async ({ ctx, input }) => {
        return ctx.services.agents.remove(input.id, await ctx.services.tasks.activeCount({ agent: input.id }));
      }),
  }),
});

export type AppRouter = typeof appRouter;
