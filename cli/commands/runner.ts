// yard runner add|list|check|trust|install|remove: the machines agents may run on, reached with the
// system's OpenSSH client. A runner's host key is trusted only with the fingerprint a person
// checked (`check` shows what the host presents; `trust` accepts exactly that key).
import path from "node:path";
import type { Command } from "commander";
import { type CliContext, intOption } from "../context";
import { table } from "../output";

const when = (iso: string | null | undefined) => (iso ? iso.replace("T", " ").slice(0, 16) : "-");

export function registerRunner(program: Command, ctx: CliContext) {
  const runner = program
    .command("runner")
    .description("Machines agents may run on, over SSH: add, check, trust their host key, list, remove");

  runner
    .command("add <name>")
    .description("Register a runner (nothing is run yet: `yard runner check NAME` connects)")
    .requiredOption("--ssh <user@host[:port]>", "where to log in (the user's ~/.ssh/config and agent apply)")
    .option("--identity <file>", "a private key to log in with")
    .option("--known-hosts <file>", "a known_hosts file whose keys are trusted too (default ~/.ssh/known_hosts)")
    .option("--labels <a,b>", "labels tasks may ask for")
    .option("--capacity <n>", "tasks it runs at once (default 4)", intOption("--capacity", 1))
    .action(
      async (
        name: string,
        o: { ssh: string; identity?: string; knownHosts?: string; labels?: string; capacity?: number },
      ) => {
        const r = await ctx.client().runners.add.mutate({
          name,
          ssh: o.ssh,
          ...(o.identity ? { identityFile: path.resolve(o.identity) } : {}),
          ...(o.knownHosts ? { knownHostsFile: path.resolve(o.knownHosts) } : {}),
          labels: o.labels
            ? o.labels
                .split(",")
                .map((l) => l.trim())
                .filter(Boolean)
            : [],
          ...(o.capacity !== undefined ? { capacity: o.capacity } : {}),
        });
        ctx
          .out()
          .result(r, () => `Added runner ${r.name} (${r.user}@${r.host}:${r.port}). Next: yard runner check ${r.name}`);
      },
    );

  runner
    .command("list")
    .description("List the runners and how their last check went")
    .action(async () => {
      const runners = await ctx.client().runners.list.query();
      ctx
        .out()
        .result({ runners }, () =>
          table([
            ["NAME", "SSH", "LABELS", "CAPACITY", "HOST KEY", "LAST CHECK"],
            ...runners.map((r) => [
              r.name,
              `${r.user}@${r.host}:${r.port}`,
              r.labels.join(",") || "-",
              String(r.capacity),
              r.fingerprint ?? "not trusted",
              r.lastCheck
                ? `${when(r.lastCheck.at)} ${r.lastCheck.ok ? `ok, node ${r.lastCheck.node}` : r.lastCheck.error?.code}`
                : "-",
            ]),
          ]),
        );
    });

  runner
    .command("check <name>")
    .description("Connect (host key verified, never accepted blindly) and run `node --version` there")
    .action(async (name: string) => {
      const r = await ctx.client().runners.check.mutate({ name });
      ctx
        .out()
        .result(
          r,
          () =>
            `Runner ${name} answers; node ${r.node}; kit ${r.kit?.name} ${r.kit?.installed ? "installed" : "not installed (yard runner install)"}.`,
        );
    });

  runner
    .command("install <name>")
    .description("Copy this board's pane host kit to the runner (~/.local/share/switchyard-runner/<version>/)")
    .action(async (name: string) => {
      const r = await ctx.client().runners.install.mutate({ name });
      ctx
        .out()
        .result(r, () =>
          r.already
            ? `Runner ${name} has kit ${r.kit} already (${r.dir}).`
            : `Installed kit ${r.kit} on runner ${name}: ${r.files} files, ${(r.bytes / 1e6).toFixed(1)} MB in ${r.dir}.`,
        );
    });

  runner
    .command("trust <name>")
    .description("Trust the runner's host key with this fingerprint (compare it with its administrator's first)")
    .requiredOption("--fingerprint <SHA256:…>", "the fingerprint you checked")
    .action(async (name: string, o: { fingerprint: string }) => {
      const r = await ctx.client().runners.trust.mutate({ name, fingerprint: o.fingerprint });
      ctx.out().result(r, () => `Trusted ${r.type} host key ${r.fingerprint} for runner ${r.name}.`);
    });

  runner
    .command("remove <name>")
    .description("Forget a runner and the host key trusted for it")
    .action(async (name: string) => {
      const r = await ctx.client().runners.remove.mutate({ name });
      ctx.out().result(r, () => `Removed runner ${r.removed}.`);
    });
}
