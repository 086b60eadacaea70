// tRPC procedures for runners (runners.*): thin, the schemas of server/wire/runners.ts and one call
// into the service. Admins only (the gate table, roles.ts): a runner is where agents will run.
import { z } from "zod";
import { checkResult, installResult, runnerAddInput, runnerInput, runnerTrustInput, runnerView } from "../wire/runners";
import { callerProcedure, router } from "./trpc";

export const runnersRouter = router({
  list: callerProcedure.output(z.array(runnerView)).query(({ ctx }) => ctx.services.runners.list()),
  get: callerProcedure
    .input(runnerInput)
    .output(runnerView)
    .query(({ ctx, input }) => ctx.services.runners.get(input.name)),
  add: callerProcedure
    .input(runnerAddInput)
    .output(runnerView)
    .mutation(({ ctx, input }) => ctx.services.runners.add(input)),
  remove: callerProcedure
    .input(runnerInput)
    .output(z.object({ removed: z.string() }))
    .mutation(({ ctx, input }) => ctx.services.runners.remove(input.name)),
  check: callerProcedure
    .input(runnerInput)
    .output(checkResult)
    .mutation(({ ctx, input }) => ctx.services.runners.check(input.name)),
  install: callerProcedure
    .input(runnerInput)
    .output(installResult)
    .mutation(({ ctx, input }) => ctx.services.runners.install(input.name)),
  trust: callerProcedure
    .input(runnerTrustInput)
    .output(z.object({ name: z.string(), fingerprint: z.string(), type: z.string() }))
    .mutation(({ ctx, input }) => ctx.services.runners.trust(input.name, input.fingerprint)),
});
