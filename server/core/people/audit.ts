// The audit trail as people read it: the journal's events that a person's call appended (the
// journal stamps each with its actor), newest first, each with one line saying what was done.
// `since` takes an ISO time or a duration back from now (30m, 12h, 7d).
import { YardError } from "../errors";
import type { EventJournal } from "../events/journal";
import type { YardEvent } from "../../wire/events";

export interface AuditEntry {
  seq: number;
  time: string;
  actor: string;
  type: string;
  taskId: string | null;
  paneId: string | null;
  summary: string;
}

const UNITS: Record<string, number> = { m: 60_000, h: 3_600_000, d: 86_400_000 };

/**
 * The events that are a person's actions (what the trail lists); the others a call appends along
 * the way (a pane's lifecycle, setup steps) carry the actor too but are not listed.
 */
const ACTION_TYPES = [
  "task.created",
  "task.started",
  "task.state",
  "task.finished",
  "task.review",
  "task.comment",
  "task.answer",
  "task.acknowledged",
  "task.follow_up",
  "task.resumed",
  "task.plan",
  "task.pushed",
  "task.pull_request",
  "task.turn_reverted",
  "task.branch_update",
  "task.dependencies",
  "worktrees.gc",
] as const;

export function parseSince(since: string, now = Date.now()): Date {
  const d = /^(\d{1,6})([mhd])$/.exec(since.trim());
  if (d) return new Date(now - Number(d[1]) * UNITS[d[2]!]!);
  const t = Date.parse(since);
  if (Number.isNaN(t))
    throw new YardError("BAD_PARAMS", `--since takes an ISO time or a duration such as 30m, 12h or 7d (got ${since})`, {
      since,
    });
  return new Date(t);
}

/** One line for an event: what the person did. */
export function auditSummary(e: YardEvent): string {
  const p = e.payload as Record<string, unknown>;
  const task = e.taskId ? ` ${e.taskId}` : "";
  const s = (k: string) => (typeof p[k] === "string" ? (p[k] as string) : "");
  switch (e.type) {
    case "task.created":
      return `${p.backlog ? "saved to the backlog" : "started"} task${task}${s("title") ? ` "${s("title")}"` : ""}`;
    case "task.started":
      return `started backlog task${task}`;
    case "task.state":
      return s("to") === "canceled" ? `canceled task${task}` : `moved task${task} to ${s("to") || "a new state"}`;
    case "task.finished":
      return `${s("disposition") || "finished"} task${task}`;
    case "task.review":
      return `${s("verdict") === "approved" ? "approved" : s("verdict") === "changes_requested" ? "requested changes on" : "reviewed"} task${task}`;
    case "task.comment":
      return `${s("action") || "wrote"} a comment on task${task}`;
    case "task.answer":
      return `answered the question of task${task}`;
    case "task.follow_up":
      return `sent a follow-up to task${task}`;
    case "task.plan":
      return `${s("state") === "approved" ? "approved" : s("state") === "changes_requested" ? "requested changes on" : "updated"} the plan of task${task}`;
    case "task.pushed":
      return `pushed task${task}`;
    case "task.pull_request":
      return `opened a pull request for task${task}`;
    case "task.turn_reverted":
      return `reverted a turn of task${task}`;
    case "task.branch_update":
      return `updated the branch of task${task}`;
    case "worktrees.gc":
      return "cleaned up worktrees";
    default:
      return `${e.type}${task}${e.paneId && !e.taskId ? ` ${e.paneId}` : ""}`;
  }
}

export async function auditTrail(
  journal: EventJournal,
  q: { user?: string; since?: string; cursor?: number | null; limit?: number },
): Promise<{ entries: AuditEntry[]; next: number | null }> {
  const limit = q.limit ?? 200;
  const events = await journal.audit({
    actor: q.user,
    since: q.since ? parseSince(q.since) : undefined,
    before: q.cursor ?? undefined,
    types: ACTION_TYPES,
    limit,
  });
  // A state change is a person's action only when it is a cancel; the others follow from what they
  // did (a round that starts after a review, an agent at work) and are left out.
  const acts = events.filter((e) => e.type !== "task.state" || (e.payload as { to?: string }).to === "canceled");
  return {
    entries: acts.map((e) => ({
      seq: e.seq,
      time: e.time,
      actor: e.actor ?? "",
      type: e.type,
      taskId: e.taskId,
      paneId: e.paneId,
      summary: auditSummary(e),
    })),
    next: events.length === limit ? events.at(-1)!.seq : null,
  };
}
