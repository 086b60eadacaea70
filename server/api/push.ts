// tRPC procedures for Web Push (push.*): the board's public VAPID key, and the calling person's own
// subscriptions (subscribe, unsubscribe, list). Thin: the schemas of server/wire/push.ts, one call
// into core/notify/push.ts. People only (the gate table refuses panes); nobody sees another
// person's subscriptions, nor any subscription's keys.
import { z } from "zod";
import {
  pushKeyOutput,
  pushSubscribeInput,
  pushSubscriptionView,
  pushUnsubscribeInput,
  pushUnsubscribeOutput,
} from "../wire/push";
import { personOf } from "./people";
import { callerProcedure, router } from "./trpc";

export const pushRouter = router({
  /** The key a browser subscribes with (its applicationServerKey). */
  key: callerProcedure.output(pushKeyOutput).query(({ ctx }) => ({ publicKey: ctx.services.push.publicKey() })),
  /** This browser, for the caller: notices of the kinds asked for, even while no board tab is open. */
  subscribe: callerProcedure
    .input(pushSubscribeInput)
    .output(pushSubscriptionView)
    .mutation(({ ctx, input }) => ctx.services.push.subscribe(personOf(ctx), input)),
  unsubscribe: callerProcedure
    .input(pushUnsubscribeInput)
    .output(pushUnsubscribeOutput)
    .mutation(({ ctx, input }) => ctx.services.push.unsubscribe(personOf(ctx), input.endpoint)),
  list: callerProcedure.output(z.array(pushSubscriptionView)).query(({ ctx }) => ctx.services.push.list(personOf(ctx))),
});
