"use client";
// The worktrees as a table: one row per worktree (named by its path), what it is (a task's own, an
// extra one its agent registered, a leftover), its task with the task's state, where it stands
// for the clean-up (live, finished, leftover, missing) and why, its size on disk (≥ when the walk
// stopped at its bound, "not measured yet" before the first walk) and its age.
import Link from "next/link";
import type { WorktreeRow } from "../../lib/types";
import { formatSize } from "../../server/wire/sizes";
import { StateBadge, timeAgo } from "../ui";

const STATUS: Record<WorktreeRow["status"], { words: string; cls: string }> = {
  live: { words: "live", cls: "border-accent/40 bg-accent-muted text-accent" },
  finished: { words: "finished", cls: "border-done/40 bg-done-muted text-done" },
  leftover: { words: "leftover", cls: "border-attention/40 bg-attention-muted text-attention" },
  missing: { words: "missing", cls: "border-line bg-neutral-muted text-fg-muted" },
};

const KIND: Record<WorktreeRow["kind"], string> = {
  task: "task worktree",
  extra: "extra worktree",
  leftover: "no task",
};

function SizeText({ size }: { size: WorktreeRow["size"] }) {
  if (!size) return <span className="text-fg-subtle">not measured yet</span>;
  return (
    <span title={`${size.files} files; measured ${timeAgo(size.measuredAt)}`}>
      {size.truncated && <abbr title="The walk stopped at its bound: at least this much">≥ </abbr>}
      {formatSize(size.bytes)}
    </span>
  );
}

export function WorktreeTable({ rows }: { rows: WorktreeRow[] }) {
  if (!rows.length)
    return (
      <p className="rounded-md border border-dashed border-line px-4 py-6 text-center text-sm text-fg-muted">
        No worktrees on disk. Each task gets one when it starts.
      </p>
    );
  return (
    <div className="overflow-x-auto rounded-md border border-line">
      <table aria-label="Worktrees" className="w-full border-collapse text-sm">
        <thead className="bg-canvas-subtle text-left text-xs text-fg-muted">
          <tr>
            <th scope="col" className="px-3 py-2 font-semibold">
              Worktree
            </th>
            <th scope="col" className="px-3 py-2 font-semibold">
              Task
            </th>
            <th scope="col" className="px-3 py-2 font-semibold">
              Status
            </th>
            <th scope="col" className="px-3 py-2 text-right font-semibold">
              Size
            </th>
            <th scope="col" className="px-3 py-2 font-semibold">
              Age
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((w) => (
            <tr
              key={w.path}
              aria-label={w.path}
              data-status={w.status}
              className="border-t border-line align-top hover:bg-canvas-subtle/60"
            >
              <th scope="row" className="max-w-md px-3 py-2.5 text-left font-normal">
                <code className="font-mono text-xs text-fg [overflow-wrap:anywhere]">{w.path}</code>
                <div className="mt-0.5 text-xs text-fg-muted">
                  {KIND[w.kind]}
                  {w.branch && (
                    <>
                      {" · "}
                      <code className="font-mono">{w.branch}</code>
                    </>
                  )}
                </div>
              </th>
              <td className="px-3 py-2.5">
                {w.task ? (
                  <div className="flex flex-col items-start gap-1">
                    <Link href={`/tasks/${w.task.id}`} className="font-medium text-accent hover:underline">
                      {w.task.title}
                    </Link>
                    <StateBadge state={w.task.state} disposition={w.task.disposition} size="sm" />
                  </div>
                ) : (
                  <span className="text-fg-subtle">none</span>
                )}
              </td>
              <td className="max-w-xs px-3 py-2.5">
                <span
                  className={`inline-flex items-center rounded-full border px-1.5 text-[11px] font-medium leading-[18px] ${STATUS[w.status].cls}`}
                >
                  {STATUS[w.status].words}
                </span>
                <div className="mt-0.5 text-xs text-fg-muted">{w.note}</div>
              </td>
              <td className="whitespace-nowrap px-3 py-2.5 text-right tabular-nums">
                <SizeText size={w.size} />
              </td>
              <td className="whitespace-nowrap px-3 py-2.5 text-fg-muted" title={new Date(w.since).toLocaleString()}>
                {timeAgo(w.since)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
