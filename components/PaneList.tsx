"use client";
// Pane listings: the lifecycle badge, the "Needs you" attention strip and the panes table.
import Link from "next/link";
import { timeAgo } from "./ui";
import type { AttentionItem, AttentionReason, PaneInfo } from "../lib/types";

export type { AttentionItem, PaneInfo };

/** argv as a shell would read it back: words with spaces or quotes get single quotes. */
export function commandLine(argv: string[]): string {
  return argv
    .map((a) => (a === "" ? "''" : /^[A-Za-z0-9_@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`))
    .join(" ");
}

/** What to call a pane: its label, else the program and the first arguments. */
export function paneTitle(p: Pick<PaneInfo, "label" | "argv" | "agent">): string {
  if (p.label) return p.label;
  const cmd = commandLine(p.argv);
  return cmd.length > 80 ? `${cmd.slice(0, 77)}…` : cmd || (p.agent ?? "pane");
}

const BADGE: Record<string, { text: string; className: string; dot: string }> = {
  starting: {
    text: "starting",
    className:
      "border-yellow-300 bg-yellow-50 text-yellow-800 dark:border-yellow-700/70 dark:bg-yellow-900/30 dark:text-yellow-300",
    dot: "bg-yellow-500",
  },
  idle: {
    text: "idle",
    className: "border-gray-300 bg-gray-50 text-gray-700 dark:border-gray-600 dark:bg-gray-800/60 dark:text-gray-300",
    dot: "bg-gray-400",
  },
  working: {
    text: "working",
    className:
      "border-blue-300 bg-blue-50 text-blue-800 dark:border-blue-700/70 dark:bg-blue-900/30 dark:text-blue-300",
    dot: "bg-blue-500 animate-pulse",
  },
  blocked: {
    text: "blocked",
    className:
      "border-orange-300 bg-orange-50 text-orange-800 dark:border-orange-700/70 dark:bg-orange-900/30 dark:text-orange-300",
    dot: "bg-orange-500",
  },
  done: {
    text: "done",
    className:
      "border-green-300 bg-green-50 text-green-800 dark:border-green-700/70 dark:bg-green-900/30 dark:text-green-300",
    dot: "bg-green-500",
  },
  exitedOk: {
    text: "exited",
    className: "border-gray-300 bg-gray-50 text-gray-600 dark:border-gray-600 dark:bg-gray-800/60 dark:text-gray-400",
    dot: "bg-gray-400",
  },
  exitedBad: {
    text: "exited",
    className: "border-red-300 bg-red-50 text-red-800 dark:border-red-700/70 dark:bg-red-900/30 dark:text-red-300",
    dot: "bg-red-500",
  },
  unknown: {
    text: "unknown",
    className: "border-gray-300 bg-gray-50 text-gray-600 dark:border-gray-600 dark:bg-gray-800/60 dark:text-gray-400",
    dot: "bg-gray-400",
  },
};

function exitText(p: Pick<PaneInfo, "exitCode" | "signal">): string {
  if (p.signal) return `exited (signal ${p.signal})`;
  if (p.exitCode !== null && p.exitCode !== undefined) return `exited (code ${p.exitCode})`;
  return "exited";
}

export function LifecycleBadge({ pane }: { pane: Pick<PaneInfo, "lifecycle" | "exitCode" | "signal"> }) {
  const failed = pane.lifecycle === "exited" && ((pane.exitCode ?? 0) !== 0 || Boolean(pane.signal));
  const b =
    pane.lifecycle === "exited"
      ? failed
        ? BADGE.exitedBad!
        : BADGE.exitedOk!
      : (BADGE[pane.lifecycle] ?? BADGE.unknown!);
  const text = pane.lifecycle === "exited" ? exitText(pane) : b.text;
  return (
    <span
      data-testid="lifecycle-badge"
      data-lifecycle={pane.lifecycle}
      className={`inline-flex shrink-0 items-center gap-1.5 whitespace-nowrap rounded-full border px-2 py-0.5 text-xs font-medium ${b.className}`}
    >
      <span aria-hidden className={`h-2 w-2 rounded-full ${b.dot}`} />
      {text}
    </span>
  );
}

export const REASON_TEXT: Record<AttentionReason, string> = {
  startup_dialog: "waiting at a start-up dialog",
  blocked: "waiting on a prompt",
  input_required: "needs your input",
  result_unacknowledged: "result not acknowledged",
  crashed: "crashed",
  turn_failed: "turn failed",
  done: "finished, not yet seen",
};

const REASON_DOT: Record<AttentionReason, string> = {
  startup_dialog: "bg-orange-500",
  blocked: "bg-orange-500",
  input_required: "bg-orange-500",
  result_unacknowledged: "bg-blue-500",
  crashed: "bg-red-500",
  turn_failed: "bg-red-500",
  done: "bg-green-500",
};

/** "Needs you": panes waiting on the user, in the server's order (severity, then recency). */
export function AttentionStrip({ items, panes }: { items: AttentionItem[]; panes: PaneInfo[] }) {
  if (items.length === 0) return null;
  const byId = new Map(panes.map((p) => [p.id, p]));
  return (
    <section aria-labelledby="needs-you" className="rounded-lg border border-severe/40 bg-severe-muted">
      <h2 id="needs-you" className="flex items-center gap-2 border-b border-severe/30 px-3 py-2 text-sm font-semibold">
        Needs you
        <span className="rounded-full bg-severe px-2 text-xs font-medium text-white">{items.length}</span>
      </h2>
      <ul className="flex flex-wrap gap-2 p-2">
        {items.map((it) => {
          const p = byId.get(it.paneId);
          return (
            <li key={it.paneId}>
              <Link
                href={`/panes/${it.paneId}`}
                data-attention={it.reason}
                className="flex max-w-sm items-center gap-2 rounded-md border border-line bg-canvas px-2.5 py-1.5 text-sm shadow-sm hover:border-fg-subtle"
              >
                <span aria-hidden className={`h-2 w-2 shrink-0 rounded-full ${REASON_DOT[it.reason]}`} />
                <span className="truncate font-medium">{p ? paneTitle(p) : it.paneId}</span>
                <span className="shrink-0 text-xs text-fg-muted">{REASON_TEXT[it.reason]}</span>
                {it.since !== null && <span className="shrink-0 text-xs text-fg-subtle">{timeAgo(it.since)}</span>}
              </Link>
            </li>
          );
        })}
      </ul>
    </section>
  );
}

/** The panes table: running panes first, newest first within each group. */
export function PaneTable({ panes }: { panes: PaneInfo[] }) {
  const sorted = [...panes].sort(
    (a, b) => Number(b.live) - Number(a.live) || Date.parse(b.createdAt) - Date.parse(a.createdAt),
  );
  return (
    <div className="overflow-hidden rounded-lg border border-line">
      <table className="w-full table-fixed text-sm">
        <thead className="bg-canvas-subtle text-left text-xs text-fg-muted">
          <tr>
            <th scope="col" className="px-3 py-2 font-medium">
              Pane
            </th>
            <th scope="col" className="w-36 px-3 py-2 font-medium">
              Status
            </th>
            <th scope="col" className="hidden w-[30%] px-3 py-2 font-medium md:table-cell">
              Directory
            </th>
            <th scope="col" className="hidden w-24 px-3 py-2 font-medium sm:table-cell">
              Started
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-line">
          {sorted.map((p) => (
            <tr key={p.id} data-pane-id={p.id} className="hover:bg-canvas-subtle">
              <td className="px-3 py-2">
                <Link
                  href={`/panes/${p.id}`}
                  className="block truncate font-medium text-accent hover:underline"
                  title={commandLine(p.argv)}
                >
                  {paneTitle(p)}
                </Link>
                <div className="mt-0.5 flex gap-2 truncate text-xs text-fg-muted">
                  <span className="font-mono">{p.id}</span>
                  {p.agent && <span>· {p.agent}</span>}
                  {p.label && <span className="truncate font-mono">· {commandLine(p.argv)}</span>}
                  {p.taskId && <span className="font-mono">· task {p.taskId}</span>}
                </div>
              </td>
              <td className="px-3 py-2">
                <LifecycleBadge pane={p} />
              </td>
              <td className="hidden truncate px-3 py-2 font-mono text-xs text-fg-muted md:table-cell" title={p.cwd}>
                {p.cwd}
              </td>
              <td className="hidden px-3 py-2 text-xs text-fg-muted sm:table-cell" title={p.createdAt}>
                {timeAgo(p.createdAt)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
