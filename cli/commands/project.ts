// yard project add|set|list|remove (set --config and `project config`: ./repo-config.ts)
import path from "node:path";
import type { Command } from "commander";
import { type CliContext, intOption } from "../context";
import { table } from "../output";
import { configOption, registerProjectConfig } from "./repo-config";
import { strategyOption } from "./task-branch";

export function registerProject(program: Command, ctx: CliContext) {
  const project = program.command("project").description("Register local git repositories on the board");

  project
    .command("add <path>")
    .description("Add a local git repository (a work tree, not bare)")
    .option("--name <name>", "display name (default: the folder name)")
    .option(
      "--no-trust-agents",
      "do not record Claude Code's / Codex's workspace trust for it (their trust dialog then shows in each task)",
    )
    .action(async (p: string, opts: { name?: string; trustAgents: boolean }) => {
      const res = await ctx
        .client()
        .projects.add.mutate({ path: path.resolve(p), name: opts.name, trustAgents: opts.trustAgents });
      ctx
        .out()
        .result(
          { project: res },
          () =>
            `Added project ${res.name} (${res.id}) at ${res.path}${res.trustAgents ? "; agents work in it without their trust prompt" : ""}`,
        );
    });

  project
    .command("set <id>")
    .description("Change a project's settings: --trust-agents | --no-trust-agents, --name N, --merge-strategy S")
    .option("--name <name>", "display name")
    .option("--trust-agents", "record Claude Code's / Codex's workspace trust for it before launching them")
    .option("--no-trust-agents", "do not (their trust dialog then shows in each task)")
    .option(
      "--reviewer <profile>",
      "an agent profile that reviews each task's work before a person does ('none' to turn it off)",
    )
    .option("--planner <profile>", "the agent profile that plans tasks started with --needs-plan ('none' to unset)")
    .option(
      "--config <json|@file>",
      "fields that replace the repository's .switchyard.json for this project's tasks (setup, teardown, copy, link, ports); '' or 'none' clears them",
    )
    .option(
      "--merge-strategy <s>",
      "how its tasks land by default: merge, squash, rebase or ff ('none': a merge commit)",
    )
    .option(
      "--required-approvals <n>",
      "distinct people who must approve a task's current tip before it merges (0: none)",
      intOption("--required-approvals", 0, 10),
    )
    .option("--no-self-approval", "the person who started a task does not count among its approvers")
    .option("--self-approval", "the person who started a task counts among its approvers (the default)")
    .option("--runner <name>", "its tasks run on this runner when a start names none ('none': this machine)")
    .option("--webhook <url>", "post its notices here (Slack-compatible JSON, HMAC-signed); 'none' removes it")
    .option("--events <list>", "which notices the webhook gets: needs_you,review,failed,merged (default: all)")
    .option("--webhook-secret <key>", "sign with this key instead of a new random one")
    .action(
      async (
        id: string,
        opts: {
          name?: string;
          trustAgents?: boolean;
          reviewer?: string;
          planner?: string;
          config?: string;
          mergeStrategy?: string;
          requiredApprovals?: number;
          selfApproval?: boolean;
          webhook?: string;
          events?: string;
          webhookSecret?: string;
          runner?: string;
        },
      ) => {
        const unset = (v: string | undefined) => (v === undefined ? undefined : v === "none" ? null : v);
        const mergeStrategy = opts.mergeStrategy === "none" ? null : strategyOption(opts.mergeStrategy);
        const res = await ctx.client().projects.update.mutate({
          id,
          name: opts.name,
          trustAgents: opts.trustAgents,
          reviewerProfile: unset(opts.reviewer),
          plannerProfile: unset(opts.planner),
          ...(opts.config !== undefined ? { repoConfig: configOption(opts.config) as never } : {}),
          mergeStrategy,
          requiredApprovals: opts.requiredApprovals,
          noSelfApproval: opts.selfApproval === undefined ? undefined : !opts.selfApproval,
          defaultRunner: unset(opts.runner),
        });
        if (opts.webhook === undefined && (opts.events !== undefined || opts.webhookSecret !== undefined))
          throw new Error("--events and --webhook-secret go with --webhook URL");
        const hook =
          opts.webhook === undefined
            ? null
            : await ctx.client().projects.setWebhook.mutate({
                id,
                url: opts.webhook === "none" ? null : opts.webhook,
                events: opts.events ? (opts.events.split(",").map((e) => e.trim()) as never) : undefined,
                secret: opts.webhookSecret,
              });
        ctx
          .out()
          .result(
            { project: res, ...(hook ? { webhook: hook.webhook, webhookSecret: hook.secret } : {}) },
            () =>
              (hook
                ? hook.webhook
                  ? `Webhook: ${hook.webhook.url} (${hook.webhook.events.join(", ")})${hook.secret ? `\nIts signing key, shown only now: ${hook.secret}` : ""}\n`
                  : "Webhook removed\n"
                : "") +
              `${res.name} (${res.id}): trust agents ${res.trustAgents ? "on" : "off"}; reviewer ${res.reviewerProfile ?? "none"}; planner ${res.plannerProfile ?? "none"}; merge strategy ${res.mergeStrategy ?? "merge"}; required approvals ${res.requiredApprovals}${res.noSelfApproval ? " (not the starter's)" : ""}; runner ${res.defaultRunner ?? "this machine"}; config override ${res.repoConfig ? JSON.stringify(res.repoConfig) : "none"}`,
          );
      },
    );

  project
    .command("deliveries <id>")
    .description("The project's webhook deliveries, newest first: status, attempts, the last answer")
    .option("--limit <n>", "at most this many (default 50)", intOption("--limit", 1, 500))
    .action(async (id: string, o: { limit?: number }) => {
      const deliveries = await ctx.client().projects.deliveries.query({ id, limit: o.limit });
      ctx
        .out()
        .result({ deliveries }, () =>
          deliveries.length
            ? table([
                ["ID", "STATUS", "EVENTS", "ATTEMPTS", "LAST", "WHEN"],
                ...deliveries.map((d) => [
                  d.id,
                  d.status,
                  String(d.events),
                  String(d.attempts),
                  d.lastError ?? (d.lastStatus ? `HTTP ${d.lastStatus}` : "-"),
                  d.createdAt.replace("T", " ").slice(0, 19),
                ]),
              ])
            : "No deliveries yet.",
        );
    });

  registerProjectConfig(project, ctx);

  project
    .command("list")
    .description("List projects")
    .action(async () => {
      const projects = await ctx.client().projects.list.query();
      ctx
        .out()
        .result({ projects }, () =>
          projects.length === 0
            ? "No projects yet: yard project add <path>"
            : table([
                ["ID", "NAME", "TARGET", "PATH"],
                ...projects.map((p) => [p.id, p.name, p.defaultTarget ?? "-", p.path]),
              ]),
        );
    });

  project
    .command("remove <id>")
    .description("Remove a project from the board (the repository is not touched)")
    .action(async (id: string) => {
      const res = await ctx.client().projects.remove.mutate({ id });
      ctx.out().result({ project: res }, () => `Removed project ${res.name} (${res.id}); ${res.path} is untouched`);
    });
}
