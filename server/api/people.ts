// tRPC procedures for the board's people (people.*), the audit trail (audit.list) and insights
// (insights.get: what the board's history says). Thin: the
// schemas of server/wire/people.ts, one call into the core. Who may call which is the gate table's
// (roles.ts); the service checks whose tokens a caller may see or revoke.
import { YardError } from "../core/errors";
import { boardInsights } from "../core/insights/service";
import { auditTrail } from "../core/people/audit";
import { insightsInput, insightsOutput } from "../wire/insights";
import type { Person } from "../core/people/people";
import {
  auditInput,
  auditOutput,
  inviteView,
  peopleAddInput,
  peopleAddOutput,
  peopleListInput,
  personInput,
  personView,
  removeOutput,
  setRoleInput,
  tokenCreateInput,
  tokenCreateOutput,
  tokenIdInput,
  tokensInput,
  tokenView,
} from "../wire/people";
import { z } from "zod";
import { type ApiCall, callerProcedure, router } from "./trpc";

/** The calling person (the gate table lets only people call these). */
export function personOf(ctx: ApiCall): Person {
  if (ctx.principal.kind !== "person") throw new YardError("FORBIDDEN", "Only a person may call this");
  return ctx.principal.person;
}

export const peopleRouter = router({
  list: callerProcedure
    .input(peopleListInput)
    .output(z.array(personView))
    .query(({ ctx, input }) => ctx.services.people.list({ removed: input?.removed })),
  add: callerProcedure
    .input(peopleAddInput)
    .output(peopleAddOutput)
    .mutation(({ ctx, input }) => ctx.services.people.add(input, personOf(ctx))),
  invite: callerProcedure
    .input(personInput)
    .output(inviteView)
    .mutation(({ ctx, input }) => ctx.services.people.invite(input.name)),
  setRole: callerProcedure
    .input(setRoleInput)
    .output(personView)
    .mutation(({ ctx, input }) => ctx.services.people.setRole(input.name, input.role)),
  remove: callerProcedure
    .input(personInput)
    .output(removeOutput)
    .mutation(({ ctx, input }) => ctx.services.people.remove(input.name, personOf(ctx))),
  tokens: callerProcedure
    .input(tokensInput)
    .output(z.array(tokenView))
    .query(({ ctx, input }) => ctx.services.people.tokens({ of: input?.user, all: input?.all }, personOf(ctx))),
  createToken: callerProcedure
    .input(tokenCreateInput)
    .output(tokenCreateOutput)
    .mutation(({ ctx, input }) =>
      ctx.services.people.createToken({ name: input?.name, for: input?.user }, personOf(ctx)),
    ),
  revokeToken: callerProcedure
    .input(tokenIdInput)
    .output(tokenView)
    .mutation(({ ctx, input }) => ctx.services.people.revokeToken(input.id, personOf(ctx))),
});

export const insightsRouter = router({
  get: callerProcedure
    .input(insightsInput)
    .output(insightsOutput)
    .query(({ ctx, input }) =>
      boardInsights({ tasks: ctx.services.tasks, journal: ctx.services.journal }, input ?? {}),
    ),
});

export const auditRouter = router({
  list: callerProcedure
    .input(auditInput)
    .output(auditOutput)
    .query(({ ctx, input }) => auditTrail(ctx.services.journal, input ?? {})),
});
