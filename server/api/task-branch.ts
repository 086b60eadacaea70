// tRPC procedure for keeping a task branch current: update (the target's new commits merged in,
// or rebased onto with `rebase`; conflicts become the live agent's round, else a CONFLICT naming
// the files). Thin: the contract in and out (server/wire/branches.ts), one core call; who may call
// it is the role gate table's (roles.ts).
import { updateInput } from "../wire/branches";
import { updateOutput } from "../wire/tasks";
import { callerProcedure } from "./trpc";
import { atOwner } from "./at-owner";

export const taskBranchProcedures = {
  update: callerProcedure
    .input(updateInput)
    .output(updateOutput)
    .mutation(
      atOwner(
        "tasks.update",
        (i) => i.id,
        async ({ ctx, input }) => ctx.services.tasks.updateBranch(input.id, { rebase: input.rebase }),
      ),
    ),
};
