// tRPC procedures for worktrees and disk: the list with sizes (worktrees.list), the total against
// the disk budget for the board's banner (worktrees.usage), a fresh measurement (worktrees.measure),
// the budget setting (worktrees.setBudget) and the clean-up (worktrees.gc, `yard gc`). Thin: the
// schemas of server/wire/worktrees.ts, one call into the worktrees service. The person's only.
import { gcInput, gcOutput, listOutput, measureOutput, setBudgetInput, usageOutput } from "../wire/worktrees";
import { callerProcedure, router } from "./trpc";

export const worktreesRouter = router({
  list: callerProcedure.output(listOutput).query(({ ctx }) => ctx.services.worktrees.list()),
  usage: callerProcedure.output(usageOutput).query(({ ctx }) => ctx.services.worktrees.usage()),
  measure: callerProcedure.output(measureOutput).mutation(({ ctx }) => ctx.services.worktrees.measureNow()),
  setBudget: callerProcedure
    .input(setBudgetInput)
    .output(usageOutput)
    .mutation(({ ctx, input }) => ctx.services.worktrees.setBudget(input.budget)),
  gc: callerProcedure
    .input(gcInput)
    .output(gcOutput)
    .mutation(({ ctx, input }) => ctx.services.worktrees.gc(input, "user")),
});
