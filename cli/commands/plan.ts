// yard plan submit|show|review: a --needs-plan task's plan (versions written by its planner,
// reviewed like code; an approved plan becomes the task's subtasks). Each command validates its
// flags and calls one procedure.
import { readFileSync } from "node:fs";
import type { Command } from "commander";
import { YardError } from "../../server/core/errors";
import { collect, type CliContext } from "../context";
import { indented, oneLine } from "../output";

function readPlan(o: { file?: string; planJson?: string }): unknown {
  if (!o.file === !o.planJson)
    throw new YardError("BAD_PARAMS", "Give the plan with exactly one of --file PATH or --plan-json TEXT");
  let text: string;
  try {
    text = o.file ? readFileSync(o.file, "utf8") : o.planJson!;
  } catch (e) {
    throw new YardError("BAD_PARAMS", `Cannot read ${o.file}: ${(e as Error).message}`);
  }
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new YardError("BAD_PARAMS", `The plan is not JSON: ${(e as Error).message}`);
  }
}

export function registerPlan(program: Command, ctx: CliContext) {
  const plan = program
    .command("plan")
    .description(
      "Plans of --needs-plan tasks: the planner submits, a reviewer approves (the subtasks are created) or requests changes",
    );

  plan
    .command("submit")
    .description(
      'Submit the next version of your task\'s plan: JSON {"goal", "steps": [...], "subtasks": [{"key", "title", "objective", "acceptanceCriteria", "dependsOn": [keys]}]}',
    )
    .option("--file <path>", "the plan as a JSON file")
    .option("--plan-json <text>", "the plan as JSON text")
    .option("--task <id>", "the task (default: your pane's own)")
    .action(async (o: { file?: string; planJson?: string; task?: string }) => {
      const r = await ctx.client().plans.submit.mutate({ taskId: o.task, plan: readPlan(o) as never });
      ctx
        .out()
        .result(
          { plan: r },
          () =>
            `Plan version ${r.version} of ${r.taskId} submitted (${r.plan.subtasks.length} subtasks); it waits for review.`,
        );
    });

  plan
    .command("show <task>")
    .description("Every version of the task's plan with its reviews")
    .action(async (task: string) => {
      const r = await ctx.client().plans.list.query({ id: task });
      ctx
        .out()
        .result(
          r,
          () =>
            r.plans
              .map((p) =>
                [
                  `v${p.version} ${p.state}: ${indented(p.plan.goal)}`,
                  ...p.plan.subtasks.map(
                    (s) =>
                      `  ${oneLine(s.key)}: ${oneLine(s.title)}${s.dependsOn.length ? ` (after ${oneLine(s.dependsOn.join(", "))})` : ""}${p.subtasks?.[s.key] ? ` → ${p.subtasks[s.key]}` : ""}`,
                  ),
                  ...p.reviews.map(
                    (v) => `  review: ${v.verdict}${v.summary ? `: ${indented(v.summary, "    ")}` : ""}`,
                  ),
                ].join("\n"),
              )
              .join("\n") || "No plan yet.",
        );
    });

  plan
    .command("review <task>")
    .description(
      "Review the plan version in review: --approve (its subtasks are created) or --request-changes (the planner gets the summary and notes)",
    )
    .option("--approve", "approve it")
    .option("--request-changes", "send it back with --summary and/or --note")
    .option("--summary <text>", "what the reviewer says")
    .option("--note <text>", "a note for the planner (repeatable)", collect, [])
    .action(
      async (task: string, o: { approve?: boolean; requestChanges?: boolean; summary?: string; note: string[] }) => {
        if (!o.approve === !o.requestChanges)
          throw new YardError("BAD_PARAMS", "Give exactly one of --approve or --request-changes");
        const r = await ctx.client().plans.review.mutate({
          taskId: task,
          verdict: o.approve ? "approve" : "request_changes",
          summary: o.summary,
          notes: o.note.map((body) => ({ body })),
        });
        ctx
          .out()
          .result(r, () =>
            r.subtasks.length
              ? `Approved plan v${r.plan.version}: ${r.subtasks.map((s) => `${oneLine(s.key)} → ${s.id}`).join(", ")}`
              : `Requested changes to plan v${r.plan.version}`,
          );
      },
    );
}
