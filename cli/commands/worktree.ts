// yard worktree list|budget, yard gc: every Switchyard worktree with its task, state, size on disk
// and age; the disk budget setting; the clean-up of leftovers and finished tasks' worktrees (and,
// with --branches, their merged branches). gc asks before removing anything when run at a
// terminal (it shows its dry run first, then removes exactly what it showed).
import type { Command } from "commander";
import { YardError } from "../../server/core/errors";
import { formatSize, parseAge, parseSize } from "../../server/wire/sizes";
import type { GcOutput } from "../../server/wire/worktrees";
import type { CliContext } from "../context";
import { confirm, oneLine, table } from "../output";

/** "3m ago" for an ISO time. */
function since(iso: string | null, now = Date.now()): string {
  if (!iso) return "-";
  const s = Math.max(0, Math.round((now - Date.parse(iso)) / 1000));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m`;
  if (s < 86_400) return `${Math.floor(s / 3600)}h`;
  return `${Math.floor(s / 86_400)}d`;
}

const sizeText = (s: { bytes: number; truncated: boolean } | null) =>
  s ? `${s.truncated ? "≥" : ""}${formatSize(s.bytes)}` : "-";

export function registerWorktree(program: Command, ctx: CliContext) {
  const wt = program.command("worktree").description("Switchyard's worktrees: sizes on disk, the disk budget");

  wt.command("list")
    .description("Every Switchyard worktree: its task and state, size on disk and age, and the total")
    .option("--fresh", "measure every worktree now and wait for the sizes (else the last measurement is shown)")
    .action(async (o: { fresh?: boolean }) => {
      const client = ctx.client();
      if (o.fresh) {
        await client.worktrees.measure.mutate();
        const deadline = Date.now() + 120_000;
        while ((await client.worktrees.usage.query()).measuring) {
          if (Date.now() > deadline) throw new YardError("TIMEOUT", "The sizes were not measured within 120 s");
          await new Promise((r) => setTimeout(r, 200));
        }
      }
      const r = await client.worktrees.list.query();
      ctx.out().result(r, () => {
        const rows = r.worktrees.map((w) => [
          w.status,
          sizeText(w.size),
          since(w.since),
          w.task ? `${w.task.id} ${w.task.disposition ?? w.task.state}` : "-",
          w.kind,
          w.path,
        ]);
        const budget = r.budget
          ? `; budget ${formatSize(r.budget.bytes)} (${r.budget.source === "env" ? "YARD_DISK_BUDGET" : "setting"})${r.overBudget ? ": OVER BUDGET" : ""}`
          : "";
        const total = `Total ${r.partial ? "≥" : ""}${formatSize(r.totalBytes)} in ${r.worktrees.length} worktree${r.worktrees.length === 1 ? "" : "s"}${r.measuredAt ? ` (measured ${since(r.measuredAt)} ago)` : r.measuring ? " (measuring…)" : ""}${budget}`;
        return rows.length
          ? `${table([["STATUS", "SIZE", "AGE", "TASK", "KIND", "PATH"], ...rows])}\n${total}`
          : `No worktrees. ${total}`;
      });
    });

  wt.command("budget [size]")
    .description("Show or set the disk budget (e.g. 20GB; 'off' removes the setting): the board warns above it")
    .action(async (size: string | undefined) => {
      const client = ctx.client();
      if (size !== undefined && size !== "off" && parseSize(size) === null)
        throw new YardError("BAD_PARAMS", `Not a size: ${size} (use e.g. 20GB, 500MB, or off)`);
      const u =
        size === undefined
          ? await client.worktrees.usage.query()
          : await client.worktrees.setBudget.mutate({ budget: size === "off" ? null : size });
      ctx
        .out()
        .result(u, () =>
          u.budget
            ? `Disk budget ${formatSize(u.budget.bytes)} (${u.budget.source === "env" ? "from YARD_DISK_BUDGET" : "setting"}); worktrees use ${formatSize(u.totalBytes)}${u.overBudget ? ": over budget" : ""}`
            : `No disk budget; worktrees use ${formatSize(u.totalBytes)}`,
        );
    });

  program
    .command("gc")
    .description(
      "Remove leftover worktrees and finished tasks' worktrees (never a live task's; not one with uncommitted changes unless --force)",
    )
    .option("--older-than <age>", "only what was finished or left over longer ago than this (30m, 12h, 7d, 2w)")
    .option("--branches", "also delete finished tasks' branches Switchyard created that are merged into their target")
    .option("--force", "also remove worktrees with uncommitted changes (the changes are lost)")
    .option("--dry-run", "only show what would be removed")
    .option("--yes", "do not ask before removing")
    .action(async (o: { olderThan?: string; branches?: boolean; force?: boolean; dryRun?: boolean; yes?: boolean }) => {
      const olderThanMs = o.olderThan === undefined ? undefined : parseAge(o.olderThan);
      if (olderThanMs === null)
        throw new YardError("BAD_PARAMS", `--older-than takes an age such as 30m, 12h, 7d or 2w (got ${o.olderThan})`);
      const client = ctx.client();
      const input = { olderThanMs, branches: o.branches, force: o.force };
      const out = ctx.out();
      const ask = !o.dryRun && !o.yes && !out.json && process.stdin.isTTY && process.stderr.isTTY;
      if (ask) {
        const plan = await client.worktrees.gc.mutate({ ...input, dryRun: true });
        process.stderr.write(`${render(plan)}\n`);
        if (!plan.removed.length && !plan.branches.deleted.length) return;
        if (!(await confirm("Remove these? [y/N] "))) return void process.stderr.write("Nothing removed.\n");
        const r = await client.worktrees.gc.mutate({ ...input, paths: plan.removed.map((x) => x.path) });
        return out.result(r, () => render(r));
      }
      const r = await client.worktrees.gc.mutate({ ...input, dryRun: o.dryRun });
      out.result(r, () => render(r));
    });
}

function render(r: GcOutput): string {
  const lines: string[] = [];
  const verb = r.dryRun ? "Would remove" : "Removed";
  const task = (t: { id: string; title: string } | null) => (t ? ` (task ${t.id} ${oneLine(t.title)})` : "");
  lines.push(
    r.removed.length
      ? `${verb} ${r.removed.length} worktree${r.removed.length === 1 ? "" : "s"} (${formatSize(r.freedBytes)}):`
      : `${r.dryRun ? "Nothing would be removed" : "Nothing removed"}.`,
  );
  for (const x of r.removed) {
    lines.push(`  ${oneLine(x.path)}  ${x.bytes === null ? "" : formatSize(x.bytes)}${task(x.task)}`);
    if (x.uncommitted.length) lines.push(`    with ${x.uncommitted.length} uncommitted file(s)`);
  }
  if (r.kept.length) {
    lines.push(`Kept ${r.kept.length}:`);
    for (const k of r.kept) {
      lines.push(`  ${oneLine(k.path)}${task(k.task)}: ${oneLine(k.reason)}`);
      if (k.uncommitted.length) lines.push(`    uncommitted: ${k.uncommitted.map(oneLine).join(", ")}`);
    }
  }
  if (r.branches.deleted.length)
    lines.push(
      `${r.dryRun ? "Would delete" : "Deleted"} branch${r.branches.deleted.length === 1 ? "" : "es"}: ${r.branches.deleted.map((b) => oneLine(b.branch)).join(", ")}`,
    );
  for (const b of r.branches.kept) lines.push(`  branch ${oneLine(b.branch)} kept: ${oneLine(b.reason)}`);
  return lines.join("\n");
}
