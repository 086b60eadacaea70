// The tRPC router: input validation (zod) and one call into the core per procedure.
import { z } from "zod";
import { agentProfileInput } from "../core/agents/profiles";
import { projectAddInput } from "../core/projects/projects";
import { loadBoard } from "../core/tasks/board";
import type { Services } from "../services";
import { VERSION } from "../version";
import { eventsRouter, hooksRouter, panesRouter } from "./panes";
import { tasksRouter } from "./tasks";
import { adminProcedure, anyCaller, router } from "./trpc";

async function sandboxStatus(services: Services): Promise<{ available: boolean; reason: string | null; message: string | null }> {
  const a = await services.sandbox.availability();
  return a.ok ? { available: true, reason: null, message: null } : { available: false, reason: a.reason, message: a.message };
}

const id = z.string().trim().min(1).max(64).regex(/^[A-Za-z0-9_-]+$/, "ids are letters, digits, _ and -");

export const appRouter = router({
  status: anyCaller.query(async ({ ctx }) => ({
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
    add: adminProcedure.input(projectAddInput).mutation(({ ctx, input }) => ctx.services.projects.add(input)),
    list: adminProcedure.query(({ ctx }) => ctx.services.projects.list()),
    get: adminProcedure.input(z.object({ id })).query(({ ctx, input }) => ctx.services.projects.get(input.id)),
    remove: adminProcedure.input(z.object({ id })).mutation(({ ctx, input }) => ctx.services.projects.remove(input.id)),
  }),

  board: router({
    get: adminProcedure.input(z.object({ projectId: id })).query(async ({ ctx, input }) => {
      await ctx.services.projects.get(input.projectId);
      return loadBoard(ctx.services.db, input.projectId);
    }),
  }),

  panes: panesRouter,
  tasks: tasksRouter,
  hooks: hooksRouter,
  events: eventsRouter,

  agents: router({
    list: anyCaller.query(({ ctx }) => ctx.services.agents.list()),
    add: adminProcedure.input(agentProfileInput).mutation(({ ctx, input }) => ctx.services.agents.add(input)),
  }),
});

export type AppRouter = typeof appRouter;
