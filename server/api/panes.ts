// tRPC procedures for panes, hooks, attention and the event journal: validate (the shared
// contract in server/wire/panes.ts, inputs and outputs), check who may act, call the core.
// Reads, keys, prompts, resizes and kills of a pane another server process sharing the board runs are
// passed to that process (server/peers/), after this one checked who may act.
import { z } from "zod";
import { paneId } from "../wire/common";
import { eventsListInput, eventsReply } from "../wire/events";
import {
  attentionReply,
  hookPostInput,
  hookPostReply,
  paneInfo,
  paneList,
  readInput,
  readReply,
  resizeInput,
  sendKeysInput,
  sendKeysReply,
  submitInput,
  submitReply,
} from "../wire/panes";
import { YardError } from "../core/errors";
import { spawnInput } from "../core/panes/manager";
import { currentActor } from "../core/actor";
import { callerProcedure, router } from "./trpc";

export const panesRouter = router({
  spawn: callerProcedure
    .input(spawnInput)
    .output(paneInfo)
    .mutation(async ({ ctx, input }) => {
      // A pane spawning a pane is its parent unless it says otherwise.
      const parentPaneId = input.parentPaneId ?? ctx.pane?.id;
      return ctx.services.panes.spawn({
        ...input,
        parentPaneId,
        relationship: input.relationship ?? (parentPaneId && !input.parentPaneId ? "subagent" : input.relationship),
      });
    }),
  list: callerProcedure
    .input(z.object({ taskId: z.string().max(64).optional(), live: z.boolean().optional() }).optional())
    .output(paneList)
    .query(async ({ ctx, input }) => {
      // Panes other processes sharing the board run are live too (their rows say so).
      const all = await ctx.services.peers.withOthersLive(await ctx.services.panes.list({ taskId: input?.taskId }));
      const panes = input?.live ? all.filter((p) => p.live) : all;
      // A pane sees the panes its role reaches.
      return ctx.pane ? ctx.services.access.visiblePanes(ctx.pane, panes) : panes;
    }),
  get: callerProcedure
    .input(z.object({ id: paneId }))
    .output(paneInfo)
    .query(
      async ({ ctx, input }) => (await ctx.services.peers.withOthersLive([await ctx.services.panes.get(input.id)]))[0]!,
    ),
  read: callerProcedure
    .input(readInput)
    .output(readReply)
    .query(async ({ ctx, input }) => {
      const remote = await ctx.services.peers.remote(input.id);
      return remote ? remote.read({ ...input, actor: currentActor() }) : ctx.services.panes.read(input.id, input);
    }),
  submit: callerProcedure
    .input(submitInput)
    .output(submitReply)
    .mutation(async ({ ctx, input }) => {
      const remote = await ctx.services.peers.remote(input.id);
      return remote
        ? remote.submit({ ...input, actor: currentActor() })
        : ctx.services.panes.submit(input.id, input.text, input);
    }),
  sendKeys: callerProcedure
    .input(sendKeysInput)
    .output(sendKeysReply)
    .mutation(async ({ ctx, input }) => {
      if (!input.text && !input.enter) throw new YardError("BAD_PARAMS", "Nothing to send: give text and/or --enter");
      const remote = await ctx.services.peers.remote(input.id);
      return remote
        ? remote.sendKeys({ ...input, actor: currentActor() })
        : ctx.services.panes.sendKeys(input.id, input.text, { enter: input.enter });
    }),
  resize: callerProcedure
    .input(resizeInput)
    .output(paneInfo)
    .mutation(async ({ ctx, input }) => {
      const remote = await ctx.services.peers.remote(input.id);
      return remote
        ? remote.resize(input.id, input.cols, input.rows)
        : ctx.services.panes.resize(input.id, input.cols, input.rows);
    }),
  kill: callerProcedure
    .input(z.object({ id: paneId }))
    .output(paneInfo)
    .mutation(async ({ ctx, input }) => {
      const remote = await ctx.services.peers.remote(input.id);
      return remote ? remote.kill({ id: input.id, actor: currentActor() }) : ctx.services.panes.kill(input.id);
    }),
  markSeen: callerProcedure
    .input(z.object({ id: paneId }))
    .output(paneInfo)
    .mutation(({ ctx, input }) => ctx.services.panes.markSeen(input.id)),
  attention: callerProcedure
    .input(z.object({ limit: z.number().int().min(1).max(1000).optional() }).optional())
    .output(attentionReply)
    // A pane sees the items about what its role reaches (and the results it has not acknowledged).
    .query(async ({ ctx, input }) => ({
      items: await ctx.services.attention(
        input?.limit,
        ctx.pane ? { paneId: ctx.pane.id, reach: await ctx.services.access.scope(ctx.pane) } : null,
      ),
    })),
});

export const hooksRouter = router({
  /** `yard hook <Event>`: a pane posts its own hooks (the user may post for any pane). */
  post: callerProcedure
    .input(hookPostInput)
    .output(hookPostReply)
    .mutation(({ ctx, input }) => {
      if (ctx.principal.kind === "pane" && ctx.pane?.id !== input.paneId)
        throw new YardError("FORBIDDEN", "A pane may only post its own hooks", { paneId: input.paneId });
      return ctx.services.hooks.post(input.paneId, { event: input.event, payload: input.payload });
    }),
});

export const eventsRouter = router({
  list: callerProcedure
    .input(eventsListInput)
    .output(eventsReply)
    .query(async ({ ctx, input }) => {
      const events = await ctx.services.journal.list(input ?? {});
      // A pane reads only the events about tasks and panes its role reaches.
      return {
        events: ctx.pane ? await ctx.services.access.visibleEvents(ctx.pane, events) : events,
        head: await ctx.services.journal.head(),
      };
    }),
});
