// yard task review|comment|comments|comment-edit|comment-resolve|comment-delete|reviews|rounds|changes:
// the review loop from a terminal, so an orchestrator agent can run it without a browser.
import type { inferRouterOutputs } from "@trpc/server";
import type { Command } from "commander";
import type { AppRouter } from "../../server/api/router";
import { YardError } from "../../server/core/errors";
import { type CliContext, intOption } from "../context";
import { oneLine, table } from "../output";

type Out = inferRouterOutputs<AppRouter>;
type Comment = Out["reviews"]["listComments"]["comments"][number];
type Review = Out["reviews"]["list"]["reviews"][number];

const lines = (c: Pick<Comment, "startLine" | "endLine">) =>
  c.startLine === c.endLine ? `${c.startLine}` : `${c.startLine}-${c.endLine}`;
const commentLine = (c: Comment) =>
  `${c.id}  round ${c.round}  ${oneLine(c.path)}:${lines(c)}${c.side === "old" ? " (old)" : ""}  ${c.reviewId ? "submitted" : "draft"}${c.resolved ? ", resolved" : ""}  ${oneLine(c.author)}\n  ${c.body.split("\n").join("\n  ")}`;
const reviewLine = (r: Review) =>
  `${r.id}  round ${r.round}  ${r.verdict}  by ${oneLine(r.reviewer)}  ${r.comments.length} comment(s)${r.summary ? `\n  ${r.summary.split("\n").join("\n  ")}` : ""}`;

export function registerReview(task: Command, ctx: CliContext) {
  task
    .command("review <id>")
    .description(
      "Review the task's current round: --approve, or --request-changes (starts the next round with the summary and the unresolved comments)",
    )
    .option("--approve", "approve the round (the task must be completed)")
    .option("--request-changes", "send the summary and the round's unresolved comments to the agent as the next round")
    .option("--summary <text>", "what the reviewer says about the round")
    .action(async (id: string, o: { approve?: boolean; requestChanges?: boolean; summary?: string }) => {
      if (!o.approve === !o.requestChanges)
        throw new YardError("BAD_PARAMS", "Give exactly one of --approve or --request-changes");
      const res = await ctx
        .client()
        .reviews.submit.mutate({ taskId: id, verdict: o.approve ? "approve" : "request_changes", summary: o.summary });
      ctx
        .out()
        .result(res, () =>
          res.review.verdict === "approved"
            ? `Approved round ${res.review.round} of ${id} (${res.review.comments.length} comment(s))`
            : `Requested changes on round ${res.review.round} of ${id} (${res.review.comments.length} comment(s)); round ${res.task.round} is ${res.task.state}`,
        );
    });

  task
    .command("comment <id> <body...>")
    .description("Comment on lines of the task's current diff: --path P --line N [--end-line M] [--side old|new] BODY")
    .requiredOption("--path <path>", "a file in the diff, relative to the repository root")
    .requiredOption("--line <n>", "the first line", intOption("--line", 1))
    .option("--end-line <n>", "the last line (default: --line)", intOption("--end-line", 1))
    .option("--side <side>", "new (the task's version, default) or old (the base's)", "new")
    .action(async (id: string, body: string[], o: { path: string; line: number; endLine?: number; side: string }) => {
      if (o.side !== "new" && o.side !== "old")
        throw new YardError("BAD_PARAMS", `--side must be new or old (got ${o.side})`);
      const res = await ctx.client().reviews.addComment.mutate({
        taskId: id,
        path: o.path,
        startLine: o.line,
        endLine: o.endLine,
        side: o.side,
        body: body.join(" "),
      });
      ctx
        .out()
        .result(res, () => `Added comment ${res.comment.id} on ${oneLine(res.comment.path)}:${lines(res.comment)}`);
    });

  task
    .command("comments <id>")
    .description("The task's review comments, every round or one")
    .option("--round <n>", "only this round", intOption("--round", 1))
    .action(async (id: string, o: { round?: number }) => {
      const res = await ctx.client().reviews.listComments.query({ taskId: id, round: o.round });
      ctx.out().result(res, () => (res.comments.length ? res.comments.map(commentLine).join("\n") : "No comments."));
    });

  task
    .command("comment-edit <commentId> <body...>")
    .description("Change a draft comment's text (its author or the user)")
    .action(async (commentId: string, body: string[]) => {
      const res = await ctx.client().reviews.editComment.mutate({ id: commentId, body: body.join(" ") });
      ctx.out().result(res, () => `Edited comment ${res.comment.id}`);
    });

  task
    .command("comment-resolve <commentId>")
    .description("Resolve a comment (or --reopen it)")
    .option("--reopen", "mark it unresolved again")
    .action(async (commentId: string, o: { reopen?: boolean }) => {
      const res = await ctx.client().reviews.resolveComment.mutate({ id: commentId, resolved: !o.reopen });
      ctx.out().result(res, () => `Comment ${res.comment.id} is ${res.comment.resolved ? "resolved" : "open"}`);
    });

  task
    .command("comment-delete <commentId>")
    .description("Delete a draft comment (submitted ones stay with their review)")
    .action(async (commentId: string) => {
      const res = await ctx.client().reviews.deleteComment.mutate({ id: commentId });
      ctx.out().result(res, () => `Deleted comment ${res.comment.id}`);
    });

  task
    .command("reviews <id>")
    .description("The task's reviews and where its current round's review stands")
    .option("--round <n>", "only this round", intOption("--round", 1))
    .action(async (id: string, o: { round?: number }) => {
      const res = await ctx.client().reviews.list.query({ taskId: id, round: o.round });
      ctx.out().result(res, () => [`round ${res.round}: ${res.status}`, ...res.reviews.map(reviewLine)].join("\n"));
    });

  task
    .command("rounds <id>")
    .description("Every round of the task: state, prompt, result and reviews")
    .action(async (id: string) => {
      const res = await ctx.client().tasks.rounds.query({ id });
      ctx
        .out()
        .result(res, () =>
          table([
            ["ROUND", "STATE", "REVIEWS", "RESULT"],
            ...res.rounds.map((r) => [
              String(r.number),
              r.state,
              r.reviews.map((v) => v.verdict).join(",") || "-",
              r.result ? `${r.result.status}: ${r.result.summary}` : "-",
            ]),
          ]),
        );
    });

  task
    .command("changes <id>")
    .description("What changed since the task's last review (the same diff shape as yard task diff)")
    .option("--stat", "file list with line counts only")
    .action(async (id: string, o: { stat?: boolean }) => {
      const d = await ctx.client().tasks.diff.query({ id, since: "last_review" });
      if (o.stat)
        return ctx
          .out()
          .result(
            { files: d.files, since: d.since },
            () =>
              table(d.files.map((f) => [f.status, `+${f.additions}`, `-${f.deletions}`, f.path])) ||
              "No changes since the last review.",
          );
      ctx.out().result(d, () => d.diff || "No changes since the last review.");
    });
}
