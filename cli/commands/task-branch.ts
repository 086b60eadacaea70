// yard task update: keeping a task's branch current with its target (merge, or --rebase), and the
// line `yard task get` prints about it ("3 commits behind main"). Validates its flags and calls one
// procedure.
import type { Command } from "commander";
import type { MergeStrategy } from "../../server/wire/branches";
import { YardError } from "../../server/core/errors";
import type { CliContext } from "../context";
import { oneLine } from "../output";
import type { Task } from "../types";

const STRATEGIES: readonly MergeStrategy[] = ["merge", "squash", "rebase", "ff"];

/** `--strategy` checked (undefined when not given). */
export function strategyOption(s: string | undefined): MergeStrategy | undefined {
  if (s === undefined) return undefined;
  if (!STRATEGIES.includes(s as MergeStrategy))
    throw new YardError("BAD_PARAMS", `--strategy must be one of ${STRATEGIES.join(", ")} (got ${s})`);
  return s as MergeStrategy;
}

/** "3 commits behind main", or what an update waits for; "" when there is nothing to say. */
export function behindLine(t: Task): string {
  if (t.updating)
    return `updating from ${t.updating.target}: round ${t.updating.round} resolves conflicts in ${t.updating.files.map(oneLine).join(", ")}`;
  if (!t.behind) return "";
  const n = t.behind.count;
  return n === 0
    ? `up to date with ${oneLine(t.behind.target)}`
    : `${n} commit${n === 1 ? "" : "s"} behind ${oneLine(t.behind.target)}`;
}

export function registerTaskBranch(task: Command, ctx: CliContext) {
  task
    .command("update <id>")
    .description(
      "Bring the task's branch up to date with its target: merge its new commits in (--rebase: rebase onto them). Conflicts become the agent's next round when it runs, else nothing changes and they are named",
    )
    .option("--rebase", "rebase the branch onto the target instead of merging the target in")
    .action(async (id: string, o: { rebase?: boolean }) => {
      const r = await ctx.client().tasks.update.mutate({ id, rebase: o.rebase ? true : undefined });
      const u = r.update;
      const moved = u.comments ? `; comments: ${u.comments.moved} moved, ${u.comments.outdated} outdated` : "";
      ctx
        .out()
        .result(r, () =>
          u.outcome === "up_to_date"
            ? `${id}: ${oneLine(r.task.branch ?? "")} is up to date with ${oneLine(u.target)}${moved}`
            : u.outcome === "updated"
              ? `${id}: ${u.mode === "merge" ? "merged" : "rebased onto"} ${u.commits} new commit(s) of ${oneLine(u.target)}; base now ${u.base?.slice(0, 12)}${moved}`
              : `${id}: conflicts in ${u.files.map(oneLine).join(", ")}; round ${r.task.round} asks the agent to resolve them`,
        );
    });
}
