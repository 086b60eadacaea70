// tRPC procedures for a task's turn snapshots: turns (the list), revertPreview (what reverting a
// turn would change) and revertTurn. A turn's own diff is `tasks.diff` with `turn`. Thin: the
// contract in and out (server/wire/turns.ts), one core call each (core/tasks/turns.ts).
import { revertPreviewOutput, revertTurnInput, revertTurnOutput, turnsOutput } from "../wire/turns";
import { taskIdInput } from "../wire/tasks";
import { callerProcedure } from "./trpc";
import { atOwner } from "./at-owner";

export const turnProcedures = {
  turns: callerProcedure
    .input(taskIdInput)
    .output(turnsOutput)
    .query(async ({ ctx, input }) => ({ turns: await ctx.services.turns.list(input.id) })),
  revertPreview: callerProcedure
    .input(revertTurnInput)
    .output(revertPreviewOutput)
    .query(({ ctx, input }) => ctx.services.turns.preview(input.id, input.turn)),
  /** The worktree's files back to the snapshot before the turn (a working-tree restore: the branch stays). */
  revertTurn: callerProcedure
    .input(revertTurnInput)
    .output(revertTurnOutput)
    .mutation(
      atOwner(
        "tasks.revertTurn",
        (i) => i.id,
        async ({ ctx, input }) => ctx.services.turns.revert(input.id, input.turn, { paneId: ctx.pane?.id ?? null }),
      ),
    ),
};
