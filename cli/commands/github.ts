// yard task push|pr|handoff and yard project github|github-token: the hand-off to GitHub.
import type { Command } from "commander";
import { YardError } from "../../server/core/errors";
import type { CliContext } from "../context";
import { oneLine } from "../output";

type Handoff = NonNullable<Awaited<ReturnType<ReturnType<CliContext["client"]>["tasks"]["handoff"]["query"]>>>;
type Pull = NonNullable<Handoff["pullRequest"]>;

const PUSHED: Record<string, string> = {
  new: "pushed (new branch)",
  updated: "pushed",
  forced: "force-pushed (with lease)",
  up_to_date: "already up to date",
};

function pullLine(p: Pull): string {
  const checks =
    p.checks && p.checks.state !== "none"
      ? `; checks ${p.checks.state} (${p.checks.passed}/${p.checks.total} passed${p.checks.failed ? `, ${p.checks.failed} failed` : ""}${p.checks.pending ? `, ${p.checks.pending} pending` : ""})`
      : "";
  return `pull request #${p.number} ${p.state}${p.draft ? " (draft)" : ""}: ${oneLine(p.url)}${checks}${p.pollError ? `\nlast poll failed: ${oneLine(p.pollError)}` : ""}`;
}

function sub(program: Command, name: string): Command {
  const c = program.commands.find((x) => x.name() === name);
  if (!c) throw new Error(`no '${name}' command to add to`);
  return c;
}

/** Adds the GitHub commands to `yard task` and `yard project` (registered before this). */
export function registerGithub(program: Command, ctx: CliContext) {
  const task = sub(program, "task");
  const project = sub(program, "project");

  task
    .command("push <id>")
    .description(
      "Push the task's branch with your git credentials (default remote: the target's upstream, else origin)",
    )
    .option("--remote <name>", "the remote to push to")
    .option(
      "--force-with-lease",
      "replace the remote branch, only while it still holds what Switchyard last pushed there",
    )
    .action(async (id: string, o: { remote?: string; forceWithLease?: boolean }) => {
      const r = await ctx.client().tasks.push.mutate({ id, remote: o.remote, forceWithLease: o.forceWithLease });
      ctx
        .out()
        .result(r, () =>
          [
            `${r.push.remote}/${oneLine(r.push.remoteBranch)}: ${PUSHED[r.push.status]} at ${r.push.commit.slice(0, 12)}`,
            r.push.uncommitted ? `${r.push.uncommitted} uncommitted file(s) in the worktree were not pushed` : "",
            r.handoff.pullRequest ? pullLine(r.handoff.pullRequest) : "",
          ]
            .filter(Boolean)
            .join("\n"),
        );
    });

  task
    .command("pr <id>")
    .description(
      "Open the task's pull request on GitHub (pushing its branch first); needs GITHUB_TOKEN or the project's token",
    )
    .option("--draft", "open it as a draft")
    .option("--remote <name>", "the remote to push to (default: where it was pushed, else as for push)")
    .action(async (id: string, o: { draft?: boolean; remote?: string }) => {
      const r = await ctx.client().tasks.pr.mutate({ id, draft: o.draft, remote: o.remote });
      ctx
        .out()
        .result(r, () =>
          [
            r.push
              ? `${r.push.remote}/${oneLine(r.push.remoteBranch)}: ${PUSHED[r.push.status]} at ${r.push.commit.slice(0, 12)}`
              : "",
            `${r.created ? "Opened" : "Already open:"} ${pullLine(r.pullRequest)}`,
          ]
            .filter(Boolean)
            .join("\n"),
        );
    });

  task
    .command("handoff <id>")
    .description("Where the task's branch was pushed, and its pull request's state and checks")
    .action(async (id: string) => {
      const h = await ctx.client().tasks.handoff.query({ id });
      ctx
        .out()
        .result({ handoff: h }, () =>
          h
            ? [
                `pushed to ${h.remote}/${oneLine(h.remoteBranch)}${h.pushedCommit ? ` at ${h.pushedCommit.slice(0, 12)}` : ""}`,
                h.pullRequest ? pullLine(h.pullRequest) : "no pull request (yard task pr ID opens one)",
              ].join("\n")
            : "Not pushed yet (yard task push ID)",
        );
    });

  project
    .command("github <id>")
    .description("Where the project's pull requests get their GitHub token (never shows it)")
    .action(async (id: string) => {
      const s = await ctx.client().projects.github.query({ id });
      ctx.out().result(s, () => describeToken(s));
    });

  project
    .command("github-token <id>")
    .description("Set the project's own GitHub token, read from stdin (write-only); --clear removes it")
    .option("--clear", "remove the project's token (GITHUB_TOKEN of the server, if any, serves it then)")
    .action(async (id: string, o: { clear?: boolean }) => {
      const token = o.clear ? null : await readToken();
      const s = await ctx.client().projects.setGithubToken.mutate({ id, token });
      ctx.out().result(s, () => describeToken(s));
    });
}

function describeToken(s: { tokenSource: "project" | "env" | null; apiUrl: string | null }): string {
  const where =
    s.tokenSource === "project"
      ? "the project's own token"
      : s.tokenSource === "env"
        ? "the server's GITHUB_TOKEN"
        : "no token (set GITHUB_TOKEN for the server, or yard project github-token ID)";
  return `GitHub token: ${where}; API: ${s.apiUrl ?? "https://api.github.com"}`;
}

/** The token from stdin: its first line (at a terminal, typed without echo). */
async function readToken(): Promise<string> {
  let text = "";
  if (process.stdin.isTTY) {
    const { createInterface } = await import("node:readline/promises");
    const { Writable } = await import("node:stream");
    process.stderr.write("GitHub token (not shown): ");
    const rl = createInterface({
      input: process.stdin,
      output: new Writable({ write: (_c, _e, cb) => cb() }),
      terminal: true,
    });
    try {
      text = await rl.question("");
    } finally {
      rl.close();
      process.stderr.write("\n");
    }
  } else {
    for await (const chunk of process.stdin) text += chunk;
  }
  const token = text.split(/\r?\n/)[0]!.trim();
  if (!token)
    throw new YardError(
      "BAD_PARAMS",
      "No token on stdin: pipe it in (yard project github-token ID < file), or pass --clear",
    );
  return token;
}
