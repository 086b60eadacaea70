// yard task turns|revert-turn: a task's turn snapshots (the worktree at the end of each of the
// agent's turns) and restoring the worktree's files to the one before a turn. A turn's own diff
// is `yard task diff ID --turn N` (task.ts).
import type { inferRouterOutputs } from "@trpc/server";
import type { Command } from "commander";
import type { AppRouter } from "../../server/api/router";
import { YardError } from "../../server/core/errors";
import { type CliContext, intOption } from "../context";
import { confirm, oneLine, table } from "../output";

type Out = inferRouterOutputs<AppRouter>;
type Preview = Out["tasks"]["revertPreview"];
type Turn = Out["tasks"]["turns"]["turns"][number];

const KIND_WORDS: Record<Turn["kind"], string> = {
  turn: "turn",
  edits: "changes between turns",
  revert: "revert",
};
const ACTION_WORDS: Record<Preview["files"][number]["action"], string> = {
  restore: "restored",
  remove: "removed",
  recreate: "re-created",
};

/** "turn 3" or "the base commit": what a revert of turn n restores. */
const restoresWords = (p: Pick<Preview, "restores">) => (p.restores ? `turn ${p.restores}` : "the task's base commit");

/** The files a revert changes, one per line, at most 50 (the rest counted). */
function fileLines(p: Pick<Preview, "files" | "truncated">): string {
  const shown = p.files.slice(0, 50).map((f) => `  ${ACTION_WORDS[f.action].padEnd(10)}  ${oneLine(f.path)}`);
  if (p.files.length > 50 || p.truncated) shown.push("  …");
  return shown.join("\n");
}

export function registerTurns(task: Command, ctx: CliContext) {
  task
    .command("turns <id>")
    .description("The task's turn snapshots: the worktree at the end of each of the agent's turns, across rounds")
    .action(async (id: string) => {
      const r = await ctx.client().tasks.turns.query({ id });
      ctx
        .out()
        .result(r, () =>
          r.turns.length
            ? table([
                ["TURN", "ROUND", "KIND", "FILES", "+", "-", "AT"],
                ...r.turns.map((t) => [
                  String(t.number),
                  String(t.round),
                  t.revertOf ? `revert of turn ${t.revertOf}` : KIND_WORDS[t.kind],
                  String(t.files),
                  `+${t.additions}`,
                  `-${t.deletions}`,
                  t.createdAt,
                ]),
              ])
            : "No turns recorded yet (a snapshot is taken when a turn that changed files ends).",
        );
    });

  task
    .command("revert-turn <id> <n>")
    .description(
      "Restore the worktree's files to how they were before turn N (tracked and untracked); the branch and the agent's commits stay",
    )
    .option("--yes", "do not ask first (at a terminal, the files that change are listed and confirmed)")
    .action(async (id: string, n: string, o: { yes?: boolean }) => {
      const turn = intOption("N", 1, 1_000_000)(n);
      if (!o.yes && !ctx.out().json && process.stdin.isTTY && process.stderr.isTTY) {
        const p = await ctx.client().tasks.revertPreview.query({ id, turn });
        if (!p.files.length)
          throw new YardError("CONFLICT", `Nothing to revert: the worktree already matches ${restoresWords(p)}`);
        const question = [
          `Reverting turn ${turn} of ${id} puts the worktree's files back to ${restoresWords(p)}; ${p.files.length}${p.truncated ? "+" : ""} file(s) change:`,
          fileLines(p),
          "The branch and the agent's commits stay as they are: what they hold from those turns shows as uncommitted changes undoing it.",
          "Revert? [y/N] ",
        ].join("\n");
        if (!(await confirm(question))) throw new YardError("CONFLICT", "Nothing was reverted");
      }
      const r = await ctx.client().tasks.revertTurn.mutate({ id, turn });
      ctx
        .out()
        .result(r, () =>
          r.files.length
            ? [
                `Reverted turn ${turn} of ${id}: the worktree is back to ${restoresWords(r)}; ${r.files.length}${r.truncated ? "+" : ""} file(s) changed:`,
                fileLines(r),
                r.snapshot
                  ? `Recorded as turn ${r.snapshot.number} (yard task revert-turn ${id} ${r.snapshot.number} undoes it).`
                  : "",
              ]
                .filter(Boolean)
                .join("\n")
            : `Nothing to revert: the worktree already matches ${restoresWords(r)}.`,
        );
    });
}
