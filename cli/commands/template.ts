// yard template add|list|remove: a project's saved task contracts (title, objective, constraints,
// acceptance criteria, output format, label, agent), added from flags or copied from a task
// (--from-task; flags given win over the task's), used by "Use template" in the New task dialog.
import type { Command } from "commander";
import { collect, type CliContext } from "../context";
import { indented, oneLine, table } from "../output";

export function registerTemplate(program: Command, ctx: CliContext) {
  const tpl = program.command("template").description("Saved task contracts per project (New task → Use template)");

  tpl
    .command("add")
    .description("Save a template: yard template add --project ID --name N --objective TEXT … | --from-task ID")
    .option("--project <id>", "the project (default: the task's, with --from-task)")
    .option("--from-task <id>", "copy this task's title, contract, label and agent")
    .option("--name <name>", "unique in the project (default: the title, else the objective's first line)")
    .option("--title <title>", "the task title it fills in")
    .option("--objective <text>", "what the worker must do")
    .option("--constraint <text>", "a constraint (repeatable)", collect, [])
    .option("--accept <text>", "an acceptance criterion (repeatable)", collect, [])
    .option("--output-format <text>", "what the result should look like")
    .option("--label <label>", "a label for the board")
    .option("--agent <profile>", "the agent profile it picks")
    .action(
      async (o: {
        project?: string;
        fromTask?: string;
        name?: string;
        title?: string;
        objective?: string;
        constraint: string[];
        accept: string[];
        outputFormat?: string;
        label?: string;
        agent?: string;
      }) => {
        const t = await ctx.client().templates.add.mutate({
          projectId: o.project,
          fromTaskId: o.fromTask,
          name: o.name,
          title: o.title,
          objective: o.objective,
          constraints: o.constraint.length ? o.constraint : undefined,
          acceptanceCriteria: o.accept.length ? o.accept : undefined,
          outputFormat: o.outputFormat,
          label: o.label,
          agent: o.agent,
        });
        ctx
          .out()
          .result({ template: t }, () => `Saved template "${oneLine(t.name)}" (${t.id}) in project ${t.projectId}`);
      },
    );

  tpl
    .command("list")
    .description("List templates (of one project with --project)")
    .option("--project <id>", "only this project's")
    .option("--long", "show each template's contract")
    .action(async (o: { project?: string; long?: boolean }) => {
      const templates = await ctx.client().templates.list.query({ projectId: o.project });
      ctx.out().result({ templates }, () => {
        if (!templates.length) return "No templates. Save one with yard template add.";
        if (!o.long)
          return table([
            ["ID", "PROJECT", "NAME", "AGENT", "LABEL", "TITLE"],
            ...templates.map((t) => [t.id, t.projectId, t.name, t.agent ?? "-", t.label ?? "-", t.title ?? "-"]),
          ]);
        return templates
          .map((t) =>
            [
              `${t.id}  ${oneLine(t.name)}  (project ${t.projectId})`,
              t.title ? `  title: ${oneLine(t.title)}` : "",
              `  objective: ${indented(t.objective, "    ")}`,
              ...t.constraints.map((c) => `  constraint: ${oneLine(c)}`),
              ...t.acceptanceCriteria.map((c) => `  accept: ${oneLine(c)}`),
              t.outputFormat ? `  output format: ${indented(t.outputFormat, "    ")}` : "",
              t.label ? `  label: ${oneLine(t.label)}` : "",
              t.agent ? `  agent: ${t.agent}` : "",
            ]
              .filter(Boolean)
              .join("\n"),
          )
          .join("\n\n");
      });
    });

  tpl
    .command("remove <template>")
    .description("Remove a template: by id, or by name with --project")
    .option("--project <id>", "the project whose template is named")
    .action(async (which: string, o: { project?: string }) => {
      const t = await ctx
        .client()
        .templates.remove.mutate(o.project ? { projectId: o.project, name: which } : { id: which });
      ctx.out().result({ template: t }, () => `Removed template "${oneLine(t.name)}" (${t.id})`);
    });
}
