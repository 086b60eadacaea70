// The tRPC router: input validation (zod) and one call into the core per procedure.
import { z } from "zod";
import { agentProfileInput, agentProfileUpdate } from "../core/agents/profiles";
import { projectAddInput, projectUpdateInput } from "../core/projects/projects";
import { loadBoard } from "../core/tasks/board";
import type { Services } from "../services";
import { VERSION } from "../version";
import { eventsRouter, hooksRouter, panesRouter } from "./panes";
import { tasksRouter } from "./tasks";
import { absolutePath, id, paneId, profileId } from "../contracts/common";
import { profileList, profileRemoved, profileView, project, projectList, statusReply, trialStarted, trialStatus } from "../contracts/projects";
import { adminProcedure, callerProcedure, router } from "./trpc";

async function sandboxStatus(services: Services): Promise<{ available: boolean; reason: string | null; message: string | null }> {
  const a = await services.sandbox.availability();
  return a.ok ? { available: true, reason: null, message: null } : { available: false, reason: a.reason, message: a.message };
}

export const appRouter = router({
  status: callerProcedure.output(statusReply).query(async ({ ctx }) => ({
    ok: true as const,
    version: VERSION,
    home: ctx.principal.kind === "admin" ? ctx.services.home : undefined,
    url: ctx.services.url(),
    principal: ctx.principal.kind,
    projects: await ctx.services.db.project.count(),
    panes: await ctx.services.db.pane.count(),
    tasks: await ctx.services.db.task.count(),
    /** Called from a pane: whether that pane runs in the OS sandbox. */
    sandboxed: ctx.pane ? ((await ctx.services.db.pane.findUnique({ where: { id: ctx.pane.id }, select: { sandboxed: true } }))?.sandboxed ?? false) : undefined,
    /** For the user: whether sandboxed tasks can start on this machine, and if not why. */
    sandbox: ctx.principal.kind === "admin" ? await sandboxStatus(ctx.services) : undefined,
  })),

  projects: router({
    add: adminProcedure.input(projectAddInput).output(project).mutation(({ ctx, input }) => ctx.services.projects.add(input)),
    list: adminProcedure.output(projectList).query(({ ctx }) => ctx.services.projects.list()),
    get: adminProcedure.input(z.object({ id })).output(project).query(({ ctx, input }) => ctx.services.projects.get(input.id)),
    remove: adminProcedure.input(z.object({ id })).output(project).mutation(({ ctx, input }) => ctx.services.projects.remove(input.id)),
    /** Rename a project or change its trust setting. */
    update: adminProcedure.input(projectUpdateInput).output(project).mutation(({ ctx, input }) => ctx.services.projects.update(input)),
  }),

  board: router({
    get: adminProcedure.input(z.object({ projectId: id })).query(async ({ ctx, input }) => {
      await ctx.services.projects.get(input.projectId);
      return loadBoard(ctx.services.db, input.projectId, ctx.services.panes);
    }),
  }),

  panes: panesRouter,
  tasks: tasksRouter,
  hooks: hooksRouter,
  events: eventsRouter,

  agents: router({
    list: callerProcedure.output(profileList).query(({ ctx }) => ctx.services.agents.list()),
    add: adminProcedure.input(agentProfileInput).output(profileView).mutation(({ ctx, input }) => ctx.services.agents.add(input)),
    /** Change a profile. env: {set: {NAME: value}, remove: [NAME]}; variables not named keep their (write-only) values. */
    update: adminProcedure.input(agentProfileUpdate).output(profileView).mutation(({ ctx, input }) => ctx.services.agents.update(input)),
    /** Start the profile in a scratch pane ("Try it"); read the outcome with agents.tryStatus. */
    try: adminProcedure.input(z.object({ id: profileId, cwd: absolutePath.optional() })).output(trialStarted).mutation(({ ctx, input }) => ctx.services.trials.try(input)),
    /** Whether the trial agent became ready, or which start-up dialog it waits at, and its screen. */
    tryStatus: adminProcedure.input(z.object({ paneId })).output(trialStatus).query(({ ctx, input }) => ctx.services.trials.status(input.paneId)),
    remove: adminProcedure.input(z.object({ id: profileId })).output(profileRemoved).mutation(async ({ ctx, input }) => {
      return ctx.services.agents.remove(input.id, await ctx.services.tasks.activeCount({ agent: input.id }));
    }),
  }),
});

export type AppRouter = typeof appRouter;
