// yard agent list|add|remove
import type { Command } from "commander";
import { collect, type CliContext } from "../context";
import { YardError } from "../../server/core/errors";
import { table } from "../output";

export function registerAgent(program: Command, ctx: CliContext) {
  const agent = program.command("agent").description("Agent profiles: how each kind of agent is launched");

  agent
    .command("list")
    .description("List agent profiles")
    .action(async () => {
      const agents = await ctx.client().agents.list.query();
      ctx.out().result({ agents }, () =>
        table([["ID", "ROLE", "HOOKS", "SANDBOX", "ENV", "ARGV"], ...agents.map((a) => [a.id, a.role, a.supportsHooks ? "yes" : "no", a.sandbox ? (a.sandboxNetwork ? "yes+net" : "yes") : "no", a.envNames.join(",") || "-", a.argv.map((x) => (x.length > 40 ? x.slice(0, 37) + "…" : x)).join(" ")])]),
      );
    });

  agent
    .command("remove <id>")
    .description("Remove a custom agent profile (refused for built-ins and while a running task uses it)")
    .action(async (id: string) => {
      const res = await ctx.client().agents.remove.mutate({ id });
      ctx.out().result(res, () => `Removed agent profile ${res.removed}`);
    });

  agent
    .command("add <id>")
    .description("Add a custom agent profile: yard agent add my-agent [options] -- PROGRAM ARGS...")
    .option("--name <name>", "display name")
    .option("--role <role>", "worker | reviewer | planner", "worker")
    .option("--hooks", "the program posts Claude-Code-style hooks through `yard hook`")
    .option("--env <KEY=VALUE>", "environment for the agent (repeatable)", collect, [])
    .option("--sandbox", "run its tasks in the OS sandbox (bubblewrap): writes only to the task's worktree, no network")
    .option("--sandbox-network", "with --sandbox: keep the host's network inside the sandbox")
    .argument("[argv...]", "the program and its arguments, after --")
    .action(async (id: string, argv: string[], opts: { name?: string; role: string; hooks?: boolean; env: string[]; sandbox?: boolean; sandboxNetwork?: boolean }) => {
      if (opts.sandboxNetwork && !opts.sandbox) throw new YardError("BAD_PARAMS", "--sandbox-network goes with --sandbox");
      const env: Record<string, string> = {};
      for (const kv of opts.env) {
        const i = kv.indexOf("=");
        if (i <= 0) throw new YardError("BAD_PARAMS", `--env expects KEY=VALUE, got ${JSON.stringify(kv)}`);
        env[kv.slice(0, i)] = kv.slice(i + 1);
      }
      const res = await ctx.client().agents.add.mutate({
        id,
        name: opts.name,
        role: opts.role as "worker",
        argv,
        supportsHooks: Boolean(opts.hooks),
        env,
        sandbox: Boolean(opts.sandbox),
        sandboxNetwork: Boolean(opts.sandboxNetwork),
      });
      ctx.out().result({ agent: res }, () => `Added agent profile ${res.id}: ${res.argv.join(" ")}`);
    });
}
