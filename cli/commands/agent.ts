// yard agent list|add|update|remove|try
import type { Command } from "commander";
import { collect, type CliContext, intOption } from "../context";
import { YardError } from "../../server/core/errors";
import { table } from "../output";

export function registerAgent(program: Command, ctx: CliContext) {
  const agent = program.command("agent").description("Agent profiles: how each kind of agent is launched");

  agent
    .command("list")
    .description("List agent profiles")
    .action(async () => {
      const agents = await ctx.client().agents.list.query();
      ctx
        .out()
        .result({ agents }, () =>
          table([
            ["ID", "ROLE", "HOOKS", "SANDBOX", "ENV", "ARGV"],
            ...agents.map((a) => [
              a.id,
              a.role,
              a.supportsHooks ? "yes" : "no",
              a.sandbox ? (a.sandboxNetwork ? "yes+net" : "yes") : "no",
              a.envNames.join(",") || "-",
              a.argv.map((x) => (x.length > 40 ? `${x.slice(0, 37)}…` : x)).join(" "),
            ]),
          ]),
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
    .command("update <id>")
    .description(
      "Change a profile: --env K=V sets a variable, --unset-env K removes one (the others keep their values); argv after --",
    )
    .option("--name <name>", "display name")
    .option("--role <role>", "worker | reviewer | planner")
    .option("--hooks", "the program posts Claude-Code-style hooks through `yard hook`")
    .option("--no-hooks", "it does not")
    .option("--env <KEY=VALUE>", "set a variable (repeatable)", collect, [])
    .option("--unset-env <KEY>", "remove a variable (repeatable)", collect, [])
    .argument("[argv...]", "a new program and arguments, after --")
    .action(
      async (
        id: string,
        argv: string[],
        o: { name?: string; role?: string; hooks?: boolean; env: string[]; unsetEnv: string[] },
      ) => {
        const set: Record<string, string> = {};
        for (const kv of o.env) {
          const i = kv.indexOf("=");
          if (i <= 0) throw new YardError("BAD_PARAMS", `--env expects KEY=VALUE, got ${JSON.stringify(kv)}`);
          set[kv.slice(0, i)] = kv.slice(i + 1);
        }
        const res = await ctx.client().agents.update.mutate({
          id,
          name: o.name,
          role: o.role as "worker" | undefined,
          supportsHooks: o.hooks,
          argv: argv.length ? argv : undefined,
          env: o.env.length || o.unsetEnv.length ? { set, remove: o.unsetEnv } : undefined,
        });
        ctx
          .out()
          .result(
            { agent: res },
            () => `Updated agent profile ${res.id}: ${res.argv.join(" ")} (env: ${res.envNames.join(", ") || "none"})`,
          );
      },
    );

  agent
    .command("try <id>")
    .description(
      "Start the profile in a scratch pane and report whether it got ready or which start-up dialog it stopped at",
    )
    .option("--cwd <dir>", "run it in this folder (default: an empty scratch folder)")
    .option("--wait-ms <n>", "how long to wait for it (default 20000)", intOption("--wait-ms", 100, 600_000))
    .action(async (id: string, o: { cwd?: string; waitMs?: number }) => {
      const client = ctx.client();
      const { paneId } = await client.agents.try.mutate({
        id,
        cwd: o.cwd ? (await import("node:path")).resolve(o.cwd) : undefined,
      });
      const deadline = Date.now() + (o.waitMs ?? 20_000);
      let s = await client.agents.tryStatus.query({ paneId });
      while (!s.ready && !s.dialog && !s.exited && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 250));
        s = await client.agents.tryStatus.query({ paneId });
      }
      ctx
        .out()
        .result(s, () =>
          s.ready
            ? `${id}: ready after ${s.readyAfterMs} ms (pane ${paneId}; yard pane kill ${paneId} when done)`
            : s.dialog
              ? `${id}: stopped at a start-up dialog: ${s.dialog.title}\n\n${s.dialog.text}\n\n(pane ${paneId}: answer it in the browser or with yard pane send-keys)`
              : s.exited
                ? `${id}: exited with code ${s.exitCode} before it was ready:\n${s.screen}`
                : `${id}: not ready after ${o.waitMs ?? 20_000} ms (${s.lifecycle}):\n${s.screen}`,
        );
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
    .action(
      async (
        id: string,
        argv: string[],
        opts: {
          name?: string;
          role: string;
          hooks?: boolean;
          env: string[];
          sandbox?: boolean;
          sandboxNetwork?: boolean;
        },
      ) => {
        if (opts.sandboxNetwork && !opts.sandbox)
          throw new YardError("BAD_PARAMS", "--sandbox-network goes with --sandbox");
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
      },
    );
}
