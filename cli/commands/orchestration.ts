// yard task depend|ask|answer|ack|thread|register-worktree|worktrees, yard whoami and yard guide:
// the orchestration commands (dependencies, the worker/orchestrator thread, extra worktrees)
// and the usage guide for agents. Each validates its flags and calls one procedure.
import path from "node:path";
import type { Command } from "commander";
import { fullGuide, GUIDE_ROLES, type GuideRole } from "../../server/core/agents/guide";
import { YardError } from "../../server/core/errors";
import type { CliContext } from "../context";
import { intOption } from "../context";
import { indented, oneLine } from "../output";

export function registerOrchestration(program: Command, task: Command, ctx: CliContext) {
  task
    .command("depend <id>")
    .description(
      "Make a task that has not started wait for another (it starts by itself once all are met), or --remove a dependency",
    )
    .requiredOption("--on <other>", "the task it waits for")
    .option("--remove", "remove that dependency")
    .option("--start-when <rule>", "merged (default: its base then has their work) or completed")
    .action(async (id: string, o: { on: string; remove?: boolean; startWhen?: string }) => {
      if (o.startWhen && o.startWhen !== "merged" && o.startWhen !== "completed")
        throw new YardError("BAD_PARAMS", `--start-when must be merged or completed (got ${o.startWhen})`);
      const r = await ctx.client().tasks.depend.mutate({
        id,
        on: o.on,
        remove: o.remove ? true : undefined,
        startWhen: o.startWhen as "merged" | undefined,
      });
      ctx
        .out()
        .result(r, () =>
          r.started ? `${id}: every dependency is met; started` : `${id}: ${r.waiting.reason ?? "no dependencies"}`,
        );
    });

  task
    .command("ask <question>")
    .description(
      "Ask whoever started your task a question (inside a task's pane); end your turn: the answer arrives as your next prompt",
    )
    .action(async (question: string) => {
      const r = await ctx.client().tasks.ask.mutate({ question });
      ctx.out().result(r, () => `Asked (${r.message.id}); end your turn, the answer comes as your next prompt.`);
    });

  task
    .command("answer <id> <text>")
    .description("Answer a worker's question: typed to it through the submit gate, kept in the task's thread")
    .option(
      "--stall-ms <n>",
      "how long the agent may take to start working on it (default 5000)",
      intOption("--stall-ms", 100),
    )
    .action(async (id: string, text: string, o: { stallMs?: number }) => {
      const r = await ctx.client().tasks.answer.mutate({ id, text, stallMs: o.stallMs });
      ctx.out().result(r, () => `Answered ${id}${r.message.replyTo ? ` (question ${r.message.replyTo})` : ""}`);
    });

  task
    .command("ack <id>")
    .description("Acknowledge a task's result; until then it stays in your yard attention (result_unacknowledged)")
    .action(async (id: string) => {
      const r = await ctx.client().tasks.ack.mutate({ id });
      ctx.out().result(r, () => `${id}: result acknowledged${r.alreadyAcknowledged ? " (already)" : ""}`);
    });

  task
    .command("agent-review <id>")
    .description("The agent reviewer stage: --skip it (the task goes to a person) or --rerun it on the current round")
    .option("--skip", "stop the reviewer agent and skip the stage")
    .option("--rerun", "run the reviewer agent again")
    .action(async (id: string, o: { skip?: boolean; rerun?: boolean }) => {
      if (!o.skip === !o.rerun) throw new YardError("BAD_PARAMS", "Give exactly one of --skip or --rerun");
      const t = await ctx.client().tasks.agentReview.mutate({ id, action: o.skip ? "skip" : "rerun" });
      ctx.out().result({ task: t }, () => `${t.id}: agent review ${t.agentReview.state ?? "not run"}`);
    });

  task
    .command("thread <id>")
    .description("The task's questions and answers")
    .action(async (id: string) => {
      const r = await ctx.client().tasks.thread.query({ id });
      ctx
        .out()
        .result(
          r,
          () =>
            r.messages
              .map((m) => `${m.createdAt}  ${m.kind.padEnd(11)} ${oneLine(m.author)}: ${indented(m.body, "    ")}`)
              .join("\n") || "No messages.",
        );
    });

  task
    .command("register-worktree <path>")
    .description(
      "List an extra git worktree you made for your task on its page (inside a task's pane; the task is yours)",
    )
    .option("--branch <name>", "the branch it is on (checked against git)")
    .action(async (p: string, o: { branch?: string }) => {
      const r = await ctx.client().tasks.registerWorktree.mutate({ path: path.resolve(p), branch: o.branch });
      ctx.out().result(r, () => `Registered; ${r.taskId} has ${r.worktrees.length} extra worktree(s)`);
    });

  task
    .command("worktrees <id>")
    .description("Extra worktrees the task's agent registered")
    .action(async (id: string) => {
      const r = await ctx.client().tasks.worktrees.query({ id });
      ctx
        .out()
        .result(
          r,
          () => r.worktrees.map((w) => `${oneLine(w.path)}  ${oneLine(w.branch ?? "-")}`).join("\n") || "None.",
        );
    });

  program
    .command("whoami")
    .description("Who this caller is: role, pane, and (for a task's pane) the task, its context and lineage")
    .action(async () => {
      const r = await ctx.client().whoami.query();
      ctx
        .out()
        .result(r, () =>
          [
            r.person ? `person: ${r.person.name} (${r.person.role})` : `role: ${r.role}`,
            r.paneId ? `pane: ${r.paneId}` : "",
            r.task ? `task: ${r.task.id} (${r.task.state}, round ${r.task.round}) ${oneLine(r.task.title)}` : "",
            r.task?.contextId ? `context: ${r.task.contextId}` : "",
            r.task && r.task.lineage.length > 1 ? `lineage: ${r.task.lineage.join(" → ")}` : "",
          ]
            .filter(Boolean)
            .join("\n"),
        );
    });

  program
    .command("guide [role]")
    .description(`How an agent uses yard, per role: ${GUIDE_ROLES.join(", ")} (default: orchestrator)`)
    .action((role: string | undefined) => {
      const r = (role ?? "orchestrator") as GuideRole;
      if (!GUIDE_ROLES.includes(r))
        throw new YardError("BAD_PARAMS", `No guide for ${role}: use ${GUIDE_ROLES.join(", ")}`);
      const text = fullGuide(r);
      ctx.out().result({ role: r, guide: text }, () => text);
    });
}
