// yard task start|start-backlog|get|list|wait|report|follow-up|diff|uncommitted|cancel|finish|events|resume (and the review
// commands from ./review, the turn commands from ./turns, update from ./task-branch)
import path from "node:path";
import type { Command } from "commander";
import { YardError } from "../../server/core/errors";
import { collect, type CliContext, intOption } from "../context";
import { confirm, indented, oneLine, table } from "../output";
import { registerOrchestration } from "./orchestration";
import { portLines } from "./repo-config";
import { registerReview } from "./review";
import { registerTurns } from "./turns";
import { behindLine, registerTaskBranch, strategyOption } from "./task-branch";

import type { Task } from "../types";
const taskLine = (t: Task) => `${t.id}  ${t.disposition ?? t.state}  ${oneLine(t.branch ?? "-")}  ${oneLine(t.title)}`;

export function registerTask(program: Command, ctx: CliContext) {
  const task = program
    .command("task")
    .description("Worker tasks: each agent in its own worktree and branch; review, then merge or discard");

  task
    .command("start")
    .description("Start a task: yard task start --project ID --objective TEXT [--agent demo | -- CMD ARGS...]")
    .option("--project <id>", "project id (see yard project list)")
    .option("--repo <path>", "or a repository path")
    .requiredOption("--objective <text>", "what the worker must do")
    .option("--title <title>", "short title (default: the objective's first line)")
    .option("--constraint <text>", "a constraint (repeatable)", collect, [])
    .option("--accept <text>", "an acceptance criterion (repeatable)", collect, [])
    .option("--output-format <text>", "what the result should look like")
    .option("--label <label>", "a label for the board")
    .option("--context <id>", "group id tying related tasks together")
    .option("--agent <profile>", "agent profile (default demo)")
    .option("--base <ref>", "base commit (default: the repository's HEAD, no network)")
    .option("--fetch", "fetch before resolving --base")
    .option("--branch <name>", "branch name (default yard/<title>-<id>; an existing branch is adopted)")
    .option("--path <dir>", "worktree path (default under the data dir)")
    .option("--parent-pane <id>", "the orchestrator's pane (default: the pane you run this from)")
    .option("--sandbox", "run the agent in the OS sandbox (bubblewrap), whatever its profile says")
    .option("--no-sandbox", "run the agent without the OS sandbox, whatever its profile says")
    .option(
      "--runner <name>",
      "run the agent on this runner (yard runner list; default: the project's, else this machine)",
    )
    .option("--labels <list>", "or on the first runner carrying all these labels (a,b) with room")
    .option("--backlog", "only record the task in the backlog (start it later with yard task start-backlog)")
    .option(
      "--depends-on <id>",
      "a task this one waits for (repeatable): with any unmet it waits in the backlog and starts by itself",
      collect,
      [],
    )
    .option("--start-when <rule>", "when a dependency counts as met: merged (default) or completed")
    .option(
      "--reviewer <profile>",
      "an agent profile that reviews each completed round before you do (default: the project's)",
    )
    .option("--needs-plan", "plan first: a planner agent writes a plan, reviewed like code, that becomes the subtasks")
    .option("--planner <profile>", "with --needs-plan: the planner profile (default: the project's)")
    .option("--plan-reviewer <profile>", "with --needs-plan: an agent profile that reviews each plan version")
    .argument("[argv...]", "a custom agent command, after --")
    .action(async (argv: string[], o: Record<string, string | string[] | boolean | undefined>) => {
      const res = await ctx.client().tasks.start.mutate({
        projectId: o.project as string | undefined,
        repoPath: o.repo ? path.resolve(o.repo as string) : undefined,
        objective: o.objective as string,
        title: o.title as string | undefined,
        constraints: o.constraint as string[],
        acceptanceCriteria: o.accept as string[],
        outputFormat: o.outputFormat as string | undefined,
        label: o.label as string | undefined,
        contextId: o.context as string | undefined,
        agent: o.agent as string | undefined,
        argv: argv.length ? argv : undefined,
        baseRef: o.base as string | undefined,
        fetch: o.fetch ? true : undefined,
        branch: o.branch as string | undefined,
        path: o.path ? path.resolve(o.path as string) : undefined,
        parentPaneId: (o.parentPane as string | undefined) ?? undefined,
        sandbox: typeof o.sandbox === "boolean" ? o.sandbox : undefined,
        runner: o.runner as string | undefined,
        labels: o.labels
          ? (o.labels as string)
              .split(",")
              .map((l) => l.trim())
              .filter(Boolean)
          : undefined,
        backlog: o.backlog ? true : undefined,
        dependsOn: (o.dependsOn as string[]).length ? (o.dependsOn as string[]) : undefined,
        startWhen: o.startWhen as "merged" | "completed" | undefined,
        reviewer: o.reviewer as string | undefined,
        needsPlan: o.needsPlan ? true : undefined,
        planner: o.planner as string | undefined,
        planReviewer: o.planReviewer as string | undefined,
      });
      ctx
        .out()
        .result(res, () =>
          res.pane
            ? `Started task ${res.task.id} (${res.task.state}) on branch ${res.task.branch} in ${res.task.worktreePath}; pane ${res.pane.id}${res.task.sandboxed ? " (sandboxed)" : ""}${res.task.runner ? ` on runner ${res.task.runner}` : ""}`
            : res.task.waiting
              ? `Task ${res.task.id} waits in the backlog: ${res.task.waiting.reason ?? "its dependencies"}; it starts by itself once they are met`
              : `Saved task ${res.task.id} to the backlog; start it with yard task start-backlog ${res.task.id}`,
        );
    });

  task
    .command("get <id>")
    .description("Show a task")
    .action(async (id: string) => {
      const t = await ctx.client().tasks.get.query({ id });
      const tokens = t.agentSession?.tokens;
      const ports = t.setup?.ports.length ? await portLines(ctx, id) : null;
      ctx
        .out()
        .result({ task: t, ...(ports ? { ports: ports.ports } : {}) }, () =>
          [
            taskLine(t),
            oneLine(t.statusLine ?? ""),
            `sandboxed: ${t.sandboxed ? "yes" : "no"}`,
            behindLine(t),
            t.agentSession
              ? `agent session: ${oneLine(t.agentSession.id)}${tokens ? ` (tokens: ${tokens.inputTokens} in, ${tokens.outputTokens} out, ${tokens.cacheReadTokens} cache read, ${tokens.totalTokens} total)` : ""}`
              : "",
            ports?.text ?? "",
            t.result ? `result: ${t.result.status}: ${indented(t.result.summary)}` : "",
            t.evidence ? `evidence: ${JSON.stringify(t.evidence)}` : "",
          ]
            .filter(Boolean)
            .join("\n"),
        );
    });

  task
    .command("list")
    .description("List tasks")
    .option("--context <id>", "only this context")
    .option("--state <state>", "only these states (repeatable)", collect, [])
    .option("--project <id>", "only this project")
    .action(async (o: { context?: string; state: string[]; project?: string }) => {
      const tasks = await ctx
        .client()
        .tasks.list.query({ contextId: o.context, states: o.state.length ? o.state : undefined, projectId: o.project });
      ctx
        .out()
        .result({ tasks }, () =>
          tasks.length
            ? table([
                ["ID", "STATE", "BRANCH", "TITLE"],
                ...tasks.map((t) => [t.id, t.disposition ?? t.state, t.branch ?? "-", t.title]),
              ])
            : "No tasks.",
        );
    });

  task
    .command("wait [id]")
    .description("Wait until a task (or every task of --context) reaches --until (default settled)")
    .option("--context <id>", "wait for every task of this context")
    .option("--until <states>", "settled (default), terminal, working, or a comma-separated list of states")
    .option("--timeout-ms <n>", "give up after this long with TIMEOUT (default 600000)", intOption("--timeout-ms", 1))
    .action(async (id: string | undefined, o: { context?: string; until?: string; timeoutMs?: number }) => {
      if (!id === !o.context) throw new YardError("BAD_PARAMS", "Give a task id or --context, not both or neither");
      const res = await ctx
        .client()
        .tasks.wait.query({ id, contextId: o.context, until: o.until, timeoutMs: o.timeoutMs });
      ctx.out().result(res, () => res.tasks.map(taskLine).join("\n") || "No tasks in that context.");
    });

  task
    .command("report")
    .description("Report this task's result (run inside the worker's pane)")
    .option("--task <id>", "the task (default: $YARD_TASK)")
    .requiredOption("--status <status>", "completed | failed | rejected")
    .requiredOption("--summary <text>", "what was done")
    .option("--artifact <path>", "an artifact path (repeatable)", collect, [])
    .option("--changed-file <path>", "a changed file (repeatable)", collect, [])
    .option("--evidence <json>", "evidence as a JSON object")
    .action(
      async (o: {
        task?: string;
        status: string;
        summary: string;
        artifact: string[];
        changedFile: string[];
        evidence?: string;
      }) => {
        let evidence: Record<string, unknown> | undefined;
        if (o.evidence !== undefined) {
          try {
            evidence = JSON.parse(o.evidence) as Record<string, unknown>;
          } catch {
            throw new YardError("BAD_PARAMS", "--evidence must be a JSON object");
          }
          if (!evidence || typeof evidence !== "object" || Array.isArray(evidence))
            throw new YardError("BAD_PARAMS", "--evidence must be a JSON object");
        }
        if (!["completed", "failed", "rejected"].includes(o.status))
          throw new YardError("BAD_PARAMS", `--status must be completed, failed or rejected (got ${o.status})`);
        const t = await ctx.client().tasks.report.mutate({
          taskId: o.task ?? (process.env.YARD_TASK || undefined),
          status: o.status as "completed",
          summary: o.summary,
          artifacts: o.artifact,
          changedFiles: o.changedFile,
          evidence,
        });
        ctx.out().result({ task: t }, () => `Reported ${t.id}: ${t.state}`);
      },
    );

  task
    .command("diff <id>")
    .description("The task's changes against its base commit (tracked and untracked files)")
    .option("--stat", "file list with line counts only")
    .option("--turn <n>", "only what turn N changed (yard task turns lists them)", intOption("--turn", 1, 1_000_000))
    .action(async (id: string, o: { stat?: boolean; turn?: number }) => {
      const d = await ctx.client().tasks.diff.query({ id, turn: o.turn });
      if (o.stat)
        return ctx
          .out()
          .result({ files: d.files, baseSha: d.baseSha }, () =>
            table(d.files.map((f) => [f.status, `+${f.additions}`, `-${f.deletions}`, f.path])),
          );
      ctx.out().result(d, () => d.diff);
    });

  task
    .command("cancel <id>")
    .description("Stop the worker and mark the task canceled (worktree and branch are kept)")
    .action(async (id: string) => {
      const t = await ctx.client().tasks.cancel.mutate({ id });
      ctx.out().result({ task: t }, () => `Canceled ${t.id}`);
    });

  task
    .command("finish <id>")
    .description(
      "Finish a task: --merge [--strategy S] [--target B] [--keep-branch] [--ignore-dirty] | --discard [--delete-branch] [--force]",
    )
    .option("--merge", "merge the task's branch into the target branch")
    .option(
      "--strategy <s>",
      "with --merge: merge (a merge commit), squash (one commit), rebase (its commits on top) or ff (fast-forward only); default: the project's, else merge",
    )
    .option("--target <branch>", "target branch (default: the one recorded at start)")
    .option("--keep-branch", "keep the task's branch after merging")
    .option("--ignore-dirty", "merge the committed work even though the worktree has uncommitted changes")
    .option("--discard", "stop the worker and remove the worktree")
    .option("--delete-branch", "with --discard: delete the task's branch too (never a pre-existing one)")
    .option("--force", "with --discard: delete uncommitted work without asking (a pane must say so to discard any)")
    .action(
      async (
        id: string,
        o: {
          merge?: boolean;
          strategy?: string;
          target?: string;
          keepBranch?: boolean;
          ignoreDirty?: boolean;
          discard?: boolean;
          deleteBranch?: boolean;
          force?: boolean;
        },
      ) => {
        if (!o.merge === !o.discard) throw new YardError("BAD_PARAMS", "Give exactly one of --merge or --discard");
        if (o.discard && (o.target || o.keepBranch || o.ignoreDirty || o.strategy))
          throw new YardError("BAD_PARAMS", "--strategy, --target, --keep-branch and --ignore-dirty go with --merge");
        const strategy = strategyOption(o.strategy);
        if (o.merge && (o.deleteBranch || o.force))
          throw new YardError("BAD_PARAMS", "--delete-branch and --force go with --discard");
        // At a terminal, a discard that would delete uncommitted work asks first, listing it.
        if (o.discard && !o.force && !ctx.out().json && process.stdin.isTTY && process.stderr.isTTY) {
          const { files, truncated } = await ctx.client().tasks.uncommitted.query({ id });
          if (
            files.length &&
            !(await confirm(
              `Discarding ${id} deletes ${files.length}${truncated ? "+" : ""} uncommitted file(s):\n${files
                .slice(0, 50)
                .map((f) => `  ${oneLine(f)}`)
                .join("\n")}${files.length > 50 || truncated ? "\n  …" : ""}\nDiscard them? [y/N] `,
            ))
          ) {
            throw new YardError("DIRTY_SOURCE", "Nothing was discarded", { files });
          }
        }
        const res = await ctx.client().tasks.finish.mutate({
          id,
          merge: o.merge
            ? { target: o.target, keepBranch: o.keepBranch, ignoreDirty: o.ignoreDirty, strategy }
            : undefined,
          discard: o.discard ? { deleteBranch: o.deleteBranch, force: o.force } : undefined,
        });
        const lost = res.cleanup.uncommittedFiles ?? [];
        ctx
          .out()
          .result(res, () =>
            [
              `${res.task.id}: ${res.task.disposition}${res.task.mergeCommit ? ` as ${res.task.mergeCommit.slice(0, 12)}` : ""}${res.merge && res.merge.strategy !== "merge" ? ` (${res.merge.strategy})` : ""}`,
              lost.length
                ? `deleted ${lost.length} uncommitted file(s):\n${lost.map((f) => `  ${oneLine(f)}`).join("\n")}`
                : "",
              res.cleanup.ok ? "" : `cleanup failed: ${res.cleanup.error}`,
            ]
              .filter(Boolean)
              .join("\n"),
          );
      },
    );

  task
    .command("uncommitted <id>")
    .description("The task worktree's uncommitted files: what a discard would delete")
    .action(async (id: string) => {
      const r = await ctx.client().tasks.uncommitted.query({ id });
      ctx
        .out()
        .result(r, () =>
          r.files.length
            ? r.files.map((f) => oneLine(f)).join("\n") + (r.truncated ? "\n…" : "")
            : "(nothing uncommitted)",
        );
    });

  task
    .command("resume <id>")
    .description("Continue a failed or canceled task's agent in its recorded session, in a fresh pane (a new round)")
    .option("--prompt <text>", "what to tell the resumed agent (default: continue the task and report)")
    .action(async (id: string, o: { prompt?: string }) => {
      const res = await ctx.client().tasks.resume.mutate({ id, prompt: o.prompt });
      ctx
        .out()
        .result(
          res,
          () =>
            `Resumed ${res.task.id} (round ${res.task.round}, session ${res.task.agentSession?.id ?? "?"}) in pane ${res.pane.id}`,
        );
    });

  task
    .command("events <id>")
    .description("The task's event history")
    .option("--since <seq>", "only after this sequence number", intOption("--since", 0))
    .action(async (id: string, o: { since?: number }) => {
      const r = await ctx.client().tasks.events.query({ id, since: o.since });
      ctx
        .out()
        .result(r, () =>
          r.events.map((e) => `${e.seq}\t${e.time}\t${e.type}\t${JSON.stringify(e.payload)}`).join("\n"),
        );
    });

  task
    .command("start-backlog <id>")
    .description("Start a backlog task: worktree, branch and agent now (RATE_LIMITED at the cap, nothing changed)")
    .action(async (id: string) => {
      const res = await ctx.client().tasks.startBacklog.mutate({ id });
      ctx
        .out()
        .result(
          res,
          () =>
            `Started task ${res.task.id} (${res.task.state}) on branch ${res.task.branch} in ${res.task.worktreePath}; pane ${res.pane.id}`,
        );
    });

  task
    .command("follow-up <id> <text>")
    .description("Send a follow-up prompt to a task waiting for input (through the submit gate)")
    .option(
      "--stall-ms <n>",
      "how long the agent may take to start working on it (default 5000)",
      intOption("--stall-ms", 100),
    )
    .action(async (id: string, text: string, o: { stallMs?: number }) => {
      const res = await ctx.client().tasks.followUp.mutate({ id, text, stallMs: o.stallMs });
      ctx.out().result(res, () => `Sent the follow-up to ${res.task.id}`);
    });

  registerReview(task, ctx);
  registerTurns(task, ctx);
  registerTaskBranch(task, ctx);
  registerOrchestration(program, task, ctx);
}
