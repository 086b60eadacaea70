// yard pane spawn|list|get|read|submit|send-keys|kill, yard attention, yard events
import type { Command } from "commander";
import { YardError } from "../../server/core/errors";
import { type CliContext, intOption } from "../context";
import { oneLine, table } from "../output";

import type { Pane, YardEvent } from "../types";

const paneLine = (p: Pane) =>
  `${p.id}  ${p.lifecycle}${p.exitCode !== null ? ` (exit ${p.exitCode})` : ""}  ${oneLine(p.label ?? p.argv.join(" "))}`;

export function registerPane(program: Command, ctx: CliContext) {
  const pane = program.command("pane").description("Terminals: spawn, read, submit prompts, send keys, kill");

  pane
    .command("spawn")
    .description("Start a pane: --agent PROFILE, or -- CMD ARGS...")
    .option("--cwd <dir>", "working directory (default: the current one)")
    .option("--label <label>", "a name to show")
    .option("--parent <paneId>", "parent pane (default: the pane you run this from)")
    .option("--relationship <kind>", "fork | subagent")
    .option("--cols <n>", "terminal columns", intOption("--cols", 10, 1000))
    .option("--rows <n>", "terminal rows", intOption("--rows", 4, 500))
    .option("--agent <profile>", "agent profile id (see yard agent list)")
    .argument("[argv...]", "the command to run, after --")
    .action(
      async (
        argv: string[],
        o: {
          cwd?: string;
          label?: string;
          parent?: string;
          relationship?: string;
          cols?: number;
          rows?: number;
          agent?: string;
        },
      ) => {
        if (o.agent && argv.length)
          throw new YardError("BAD_PARAMS", "Give either --agent or a command after --, not both");
        if (!o.agent && !argv.length)
          throw new YardError("BAD_PARAMS", "Nothing to run: give --agent PROFILE or -- CMD ARGS...");
        const res = await ctx.client().panes.spawn.mutate({
          argv: argv.length ? argv : undefined,
          agent: o.agent,
          cwd: o.cwd ? (await import("node:path")).resolve(o.cwd) : process.cwd(),
          label: o.label,
          parentPaneId: o.parent,
          relationship: o.relationship as "fork" | "subagent" | undefined,
          cols: o.cols,
          rows: o.rows,
        });
        ctx.out().result({ pane: res }, () => `Started pane ${res.id} (pid ${res.pid}) in ${res.cwd}`);
      },
    );

  pane
    .command("list")
    .description("List panes")
    .option("--live", "only running panes")
    .action(async (o: { live?: boolean }) => {
      const panes = await ctx.client().panes.list.query({ live: o.live });
      ctx
        .out()
        .result({ panes }, () =>
          panes.length
            ? table([
                ["ID", "STATE", "PID", "TASK", "LABEL / COMMAND"],
                ...panes.map((p) => [
                  p.id,
                  p.lifecycle + (p.exitCode !== null ? ` (${p.exitCode})` : ""),
                  String(p.pid ?? "-"),
                  p.taskId ?? "-",
                  p.label ?? p.argv.join(" "),
                ]),
              ])
            : "No panes.",
        );
    });

  pane
    .command("get <id>")
    .description("Show one pane")
    .action(async (id: string) => {
      const p = await ctx.client().panes.get.query({ id });
      ctx.out().result({ pane: p }, () => paneLine(p));
    });

  pane
    .command("read <id>")
    .description("Read the rendered screen: --mode screen (default), tail --lines N, or delta --cursor C")
    .option("--mode <mode>", "screen | tail | delta", "screen")
    .option("--lines <n>", "lines for tail (default 50)", intOption("--lines", 1, 10_000))
    .option("--cursor <n>", "cursor for delta (from the previous read; 0 = from the start)", intOption("--cursor", 0))
    .option("--reader <name>", "a stable reader name for delta reads (exact rewrites for concurrent readers)")
    .action(async (id: string, o: { mode: string; lines?: number; cursor?: number; reader?: string }) => {
      if (!["screen", "tail", "delta"].includes(o.mode))
        throw new YardError("BAD_PARAMS", `--mode must be screen, tail or delta (got ${o.mode})`);
      const r = await ctx
        .client()
        .panes.read.query({ id, mode: o.mode as "screen", lines: o.lines, cursor: o.cursor, reader: o.reader });
      ctx.out().result(r, () => r.text.replace(/\n$/, ""));
    });

  pane
    .command("submit <id> <text>")
    .description(
      "Submit a prompt safely: refused when the agent is busy, not ready or gone; confirmed by the agent starting work",
    )
    .option(
      "--enter-delay-ms <n>",
      "delay between the text and Enter (default 300)",
      intOption("--enter-delay-ms", 0, 10_000),
    )
    .option(
      "--stall-ms <n>",
      "how long to wait for the agent to start working (default 5000)",
      intOption("--stall-ms", 100, 600_000),
    )
    .action(async (id: string, text: string, o: { enterDelayMs?: number; stallMs?: number }) => {
      const r = await ctx.client().panes.submit.mutate({ id, text, enterDelayMs: o.enterDelayMs, stallMs: o.stallMs });
      ctx.out().result(r, () => `Submitted to ${id}; the agent is ${r.lifecycle}`);
    });

  pane
    .command("send-keys <id> [text]")
    .description("Type raw keys into a pane (e.g. answer a prompt with y); --enter presses Enter after")
    .option("--enter", "press Enter after the text")
    .action(async (id: string, text: string | undefined, o: { enter?: boolean }) => {
      const r = await ctx.client().panes.sendKeys.mutate({ id, text: text ?? "", enter: o.enter });
      ctx.out().result(r, () => `Sent ${r.bytes} byte(s) to ${id}`);
    });

  pane
    .command("kill <id>")
    .description("Stop a pane's whole process group")
    .action(async (id: string) => {
      const p = await ctx.client().panes.kill.mutate({ id });
      ctx.out().result({ pane: p }, () => `Stopped ${paneLine(p)}`);
    });

  program
    .command("attention")
    .description("Panes that need you: blocked, turn done and unseen, crashed, input required")
    .option("--limit <n>", "at most this many (default 50)", intOption("--limit", 1, 1000))
    .action(async (o: { limit?: number }) => {
      const r = await ctx.client().panes.attention.query({ limit: o.limit });
      ctx
        .out()
        .result(r, () =>
          r.items.length
            ? table([["PANE", "TASK", "REASON"], ...r.items.map((i) => [i.paneId, i.taskId ?? "-", i.reason])])
            : "Nothing needs you.",
        );
    });

  program
    .command("events")
    .description("The event journal; --follow streams new events (JSON lines with --json)")
    .option("--type <glob>", "e.g. 'task.*' or pane.lifecycle")
    .option("--since <seq>", "only events after this sequence number", intOption("--since", 0))
    .option("--task <id>", "only this task's events")
    .option("--pane <id>", "only this pane's events")
    .option("--follow", "keep streaming new events")
    .action(async (o: { type?: string; since?: number; task?: string; pane?: string; follow?: boolean }) => {
      const client = ctx.client();
      const out = ctx.out();
      const q = { type: o.type, taskId: o.task, paneId: o.pane };
      const fmt = (e: YardEvent) =>
        `${e.seq}\t${e.time}\t${e.type}\t${e.taskId ?? e.paneId ?? ""}\t${JSON.stringify(e.payload)}`;
      if (!o.follow) {
        const r = await client.events.list.query({ ...q, since: o.since });
        return out.result(r, () => r.events.map(fmt).join("\n"));
      }
      let since = o.since ?? (await client.events.list.query({ limit: 1, type: "__none__" })).head;
      for (;;) {
        const r = await client.events.list.query({ ...q, since, limit: 1000 });
        for (const e of r.events) out.line(e, () => fmt(e));
        since = r.events.length ? r.events[r.events.length - 1]!.seq : Math.max(since, r.head);
        await new Promise((res) => setTimeout(res, 250));
      }
    });
}
