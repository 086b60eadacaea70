// yard user add|list|invite|set|remove, yard token create|list|revoke, yard audit: the board's
// people (an admin's), personal CLI tokens (anyone's own; send one as YARD_TOKEN), and who did what.
import type { Command } from "commander";
import { type CliContext, intOption } from "../context";
import { preciseSpan } from "../../lib/duration";
import { oneLine, table } from "../output";

const ROLES = ["member", "reviewer", "admin"] as const;
type Role = (typeof ROLES)[number];

function roleOption(value: string): Role {
  if (!(ROLES as readonly string[]).includes(value)) throw new Error(`--role must be one of ${ROLES.join(", ")}`);
  return value as Role;
}

const when = (iso: string | null) => (iso ? iso.replace("T", " ").slice(0, 16) : "-");

export function registerPeople(program: Command, ctx: CliContext) {
  const user = program
    .command("user")
    .description("The board's people: add (with an invite link), list, set roles, remove");

  user
    .command("add <name>")
    .description("Add a person; prints their one-time invite link (it signs them in with a session of their own)")
    .requiredOption("--role <role>", "member | reviewer | admin", roleOption)
    .action(async (name: string, o: { role: Role }) => {
      const r = await ctx.client().people.add.mutate({ name, role: o.role });
      ctx
        .out()
        .result(
          r,
          () =>
            `Added ${r.person.name} (${r.person.role}). Their invite link (once, until ${when(r.invite.expiresAt)} UTC):\n${r.invite.url}`,
        );
    });

  user
    .command("invite <name>")
    .description("A fresh one-time invite link for someone already on the board")
    .action(async (name: string) => {
      const r = await ctx.client().people.invite.mutate({ name });
      ctx.out().result(r, () => `Invite link for ${name} (once, until ${when(r.expiresAt)} UTC):\n${r.url}`);
    });

  user
    .command("list")
    .description("List the board's people")
    .option("--all", "also people who were removed")
    .action(async (o: { all?: boolean }) => {
      const people = await ctx.client().people.list.query({ removed: o.all });
      ctx
        .out()
        .result({ people }, () =>
          table([
            ["NAME", "ROLE", "TOKENS", "ADDED", "BY", ...(o.all ? ["REMOVED"] : [])],
            ...people.map((p) => [
              p.name,
              p.role,
              String(p.tokens),
              when(p.createdAt),
              p.createdBy ?? "-",
              ...(o.all ? [when(p.removedAt)] : []),
            ]),
          ]),
        );
    });

  user
    .command("set <name>")
    .description("Change a person's role")
    .requiredOption("--role <role>", "member | reviewer | admin", roleOption)
    .action(async (name: string, o: { role: Role }) => {
      const p = await ctx.client().people.setRole.mutate({ name, role: o.role });
      ctx.out().result({ person: p }, () => `${p.name} is now ${p.role === "admin" ? "an" : "a"} ${p.role}`);
    });

  user
    .command("remove <name>")
    .description("Remove a person: every session, token and invite of theirs stops working at once")
    .action(async (name: string) => {
      const r = await ctx.client().people.remove.mutate({ name });
      ctx.out().result(r, () => `Removed ${r.person.name}: ${r.sessions} session(s) and ${r.tokens} token(s) revoked`);
    });

  const token = program
    .command("token")
    .description("Personal CLI tokens: create (printed once; use it as YARD_TOKEN), list, revoke");

  token
    .command("create")
    .description("Create a personal token (an admin may create one for someone else with --user)")
    .option("--name <name>", "what it is for (e.g. laptop, ci)")
    .option("--user <name>", "an admin's: the person the token is for")
    .action(async (o: { name?: string; user?: string }) => {
      const r = await ctx.client().people.createToken.mutate({ name: o.name, user: o.user });
      ctx
        .out()
        .result(
          r,
          () =>
            `Token ${r.view.id} (${oneLine(r.view.name)}) for ${r.view.person}; it is shown only now:\n${r.token}\nUse it as YARD_TOKEN=… with YARD_URL set to this board's address.`,
        );
    });

  token
    .command("list")
    .description("Your tokens (an admin: --user NAME or --all)")
    .option("--user <name>", "this person's tokens")
    .option("--all", "everyone's tokens")
    .action(async (o: { user?: string; all?: boolean }) => {
      const tokens = await ctx.client().people.tokens.query({ user: o.user, all: o.all });
      ctx
        .out()
        .result({ tokens }, () =>
          tokens.length
            ? table([
                ["ID", "NAME", "PERSON", "CREATED", "LAST USED", "REVOKED"],
                ...tokens.map((t) => [
                  t.id,
                  t.name,
                  t.person,
                  when(t.createdAt),
                  when(t.lastUsedAt),
                  when(t.revokedAt),
                ]),
              ])
            : "No tokens. Create one with yard token create.",
        );
    });

  token
    .command("revoke <id>")
    .description("Revoke a token at once (yours; an admin: anyone's)")
    .action(async (id: string) => {
      const t = await ctx.client().people.revokeToken.mutate({ id });
      ctx.out().result({ token: t }, () => `Revoked token ${t.id} (${oneLine(t.name)}) of ${t.person}`);
    });

  program
    .command("insights")
    .description(
      "What the board's history says: tasks started and merged per day, time to merge, rounds, agents, waiting",
    )
    .option("--project <id>", "only this project's tasks")
    .option("--agent <profile>", "only this agent profile's")
    .option("--user <name>", "only tasks this person started")
    .option("--days <n>", "how many days back, today included (default 30)", intOption("--days", 1, 365))
    .action(async (o: { project?: string; agent?: string; user?: string; days?: number }) => {
      const r = await ctx
        .client()
        .insights.get.query({ projectId: o.project, agent: o.agent, person: o.user, days: o.days });
      const dur = (v: number | null) => (v === null ? "-" : preciseSpan(v));
      const pct = (v: number | null) => (v === null ? "-" : `${Math.round(v * 100)}%`);
      ctx
        .out()
        .result(r, () =>
          [
            `Last ${r.filter.days} day(s): ${r.perDay.reduce((s, d) => s + d.started, 0)} started, ${r.startToMerge.merged} merged`,
            `Start to merge: median ${dur(r.startToMerge.medianMs)}, p90 ${dur(r.startToMerge.p90Ms)}`,
            `Review rounds per finished task: ${r.rounds.mean === null ? "-" : r.rounds.mean.toFixed(2)} (${r.rounds.finished} finished)`,
            `Waited on people: ${r.waitingOnPeople.tasks} task(s), median ${dur(r.waitingOnPeople.medianMs)}, p90 ${dur(r.waitingOnPeople.p90Ms)}`,
            "",
            table([
              ["AGENT", "STARTED", "FINISHED", "MERGED", "FAILED", "SUCCESS", "TOKENS"],
              ...r.agents.map((a) => [
                a.agent,
                String(a.started),
                String(a.finished),
                String(a.merged),
                String(a.failed),
                pct(a.successRate),
                a.tasksWithTokens ? String(a.tokens) : "-",
              ]),
            ]),
          ].join("\n"),
        );
    });

  program
    .command("audit")
    .description("Who did what: the events people's calls made, newest first")
    .option("--user <name>", "only this person's")
    .option("--since <when>", "an ISO time, or a duration back from now: 30m, 12h, 7d")
    .option("--limit <n>", "at most this many (default 200)", intOption("--limit", 1, 1000))
    .action(async (o: { user?: string; since?: string; limit?: number }) => {
      const r = await ctx.client().audit.list.query({ user: o.user, since: o.since, limit: o.limit });
      ctx
        .out()
        .result(r, () =>
          r.entries.length
            ? table([["TIME", "WHO", "WHAT"], ...r.entries.map((e) => [when(e.time), e.actor, e.summary])])
            : "Nothing recorded.",
        );
    });
}
