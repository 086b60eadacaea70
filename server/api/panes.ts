// tRPC procedures for panes, hooks, attention and the event journal.
import { z } from "zod";
import { YardError } from "../core/errors";
import { spawnInput } from "../core/panes/manager";
import { callerProcedure, type Context, orchestratorProcedure, router } from "./trpc";

export const paneId = z.string().regex(/^pane[a-z0-9]{4,40}$/, "not a pane id");

/** A worker pane may act on its own pane only; everyone else on any pane. */
function ownPaneOnly(ctx: Context, id: string) {
  if (ctx.pane?.taskId && ctx.pane.id !== id) throw new YardError("FORBIDDEN", "A worker pane may only act on its own pane", { paneId: id });
}

export const panesRouter = router({
  spawn: orchestratorProcedure.input(spawnInput).mutation(async ({ ctx, input }) => {
    // A pane spawning a pane is its parent unless it says otherwise.
    const parentPaneId = input.parentPaneId ?? ctx.pane?.id;
    return ctx.services.panes.spawn({ ...input, parentPaneId, relationship: input.relationship ?? (parentPaneId && !input.parentPaneId ? "subagent" : input.relationship) });
  }),
  list: orchestratorProcedure.input(z.object({ taskId: z.string().max(64).optional(), live: z.boolean().optional() }).optional()).query(({ ctx, input }) =>
    ctx.services.panes.list({ taskId: input?.taskId, liveOnly: input?.live }),
  ),
  get: callerProcedure.input(z.object({ id: paneId })).query(({ ctx, input }) => {
    ownPaneOnly(ctx, input.id);
    return ctx.services.panes.get(input.id);
  }),
  read: callerProcedure
    .input(
      z.object({
        id: paneId,
        mode: z.enum(["screen", "tail", "delta"]).default("screen"),
        lines: z.number().int().min(1).max(10_000).optional(),
        cursor: z.number().int().min(0).optional(),
        reader: z.string().max(64).optional(),
      }),
    )
    .query(({ ctx, input }) => {
      ownPaneOnly(ctx, input.id);
      return ctx.services.panes.read(input.id, input);
    }),
  submit: orchestratorProcedure
    .input(
      z.object({
        id: paneId,
        text: z.string().max(256 * 1024),
        enterDelayMs: z.number().int().min(0).max(10_000).optional(),
        stallMs: z.number().int().min(100).max(600_000).optional(),
      }),
    )
    .mutation(({ ctx, input }) => ctx.services.panes.submit(input.id, input.text, input)),
  sendKeys: orchestratorProcedure
    .input(z.object({ id: paneId, text: z.string().max(64 * 1024), enter: z.boolean().optional() }))
    .mutation(({ ctx, input }) => {
      if (!input.text && !input.enter) throw new YardError("BAD_PARAMS", "Nothing to send: give text and/or --enter");
      return ctx.services.panes.sendKeys(input.id, input.text, { enter: input.enter });
    }),
  resize: orchestratorProcedure
    .input(z.object({ id: paneId, cols: z.number().int(), rows: z.number().int() }))
    .mutation(({ ctx, input }) => ctx.services.panes.resize(input.id, input.cols, input.rows)),
  kill: orchestratorProcedure.input(z.object({ id: paneId })).mutation(({ ctx, input }) => ctx.services.panes.kill(input.id)),
  markSeen: orchestratorProcedure.input(z.object({ id: paneId })).mutation(({ ctx, input }) => ctx.services.panes.markSeen(input.id)),
  attention: orchestratorProcedure
    .input(z.object({ limit: z.number().int().min(1).max(1000).optional() }).optional())
    .query(async ({ ctx, input }) => ({ items: await ctx.services.attention(input?.limit) })),
});

export const hooksRouter = router({
  /** `yard hook <Event>`: a pane posts its own hooks (the user may post for any pane). */
  post: callerProcedure
    .input(z.object({ paneId, event: z.string().max(64), payload: z.unknown() }))
    .mutation(({ ctx, input }) => {
      if (ctx.principal.kind === "pane" && ctx.pane?.id !== input.paneId) throw new YardError("FORBIDDEN", "A pane may only post its own hooks", { paneId: input.paneId });
      return ctx.services.panes.hook(input.paneId, { event: input.event, payload: input.payload });
    }),
});

export const eventsRouter = router({
  list: orchestratorProcedure
    .input(
      z
        .object({
          since: z.number().int().min(0).optional(),
          type: z.string().max(100).regex(/^[A-Za-z0-9_.*-]+$/, "type is a glob of letters, digits, . and *").optional(),
          taskId: z.string().max(64).optional(),
          paneId: z.string().max(64).optional(),
          limit: z.number().int().min(1).max(10_000).optional(),
        })
        .optional(),
    )
    .query(async ({ ctx, input }) => ({ events: await ctx.services.journal.list(input ?? {}), head: await ctx.services.journal.head() })),
});
