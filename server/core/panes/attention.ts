// Attention ranking: which panes need the user, most urgent first. Pure.
// Owns: the needs-attention rules, the severity order and the sort.
//
// A pane needs attention (one item per pane, its most severe reason) when:
//   severity 0  startup_dialog  the agent waits at a start-up dialog (trust, login, ...) before
//                               it is ready: ranked first, ahead of blocked
//   severity 0  blocked         the agent waits on a permission prompt or a question
//   severity 1  input_required  its task is in input_required
//   severity 2  result_unacknowledged  (the calling orchestrator's own view) a task it started
//                               finished a round and it has not acknowledged the result (yard task ack)
//   severity 2  crashed         exited with a non-zero code or a signal, not yet seen/dismissed
//   severity 3  turn_failed     the turn ended with StopFailure (API error etc.), not yet seen
//   severity 4  done            the turn ended (Stop), not yet seen
// blocked and input_required cannot be dismissed or "seen" away: they need an action.
// Order: severity ascending, start-up dialogs before other blocked panes, then recency (`since` newer first, unknown times last), then
// paneId, then taskId, so equal inputs always rank the same.

import type { z } from "zod";
import type { attentionItem } from "../../wire/panes";
import { YardError } from "../errors";
import { isCrash, type Lifecycle } from "./lifecycle";

export interface AttentionCandidate {
  paneId: string;
  taskId?: string | null;
  lifecycle: Lifecycle;
  /** the user viewed the pane since it last entered done or exited */
  doneSeen: boolean;
  /** the user dismissed the item (treated like seen; does not clear blocked/input_required) */
  dismissed?: boolean;
  exitCode: number | null;
  signal?: number | string | null;
  /** the last turn ended with StopFailure (PaneState.lastStop?.failed) */
  stopFailed?: boolean;
  /** why a blocked pane is blocked (lifecycle.blockedReason) */
  blockedReason?: "startup_dialog" | "prompt" | null;
  /** one line saying what is wrong (the dialog's title, the API error), passed through */
  message?: string | null;
  /** the task's state, if the pane belongs to a task (A2A lifecycle names) */
  taskState?: string | null;
  /** ms since epoch the task entered taskState (falls back to lastTransitionAt) */
  taskStateAt?: number | null;
  /** ms since epoch of the pane's last lifecycle transition */
  lastTransitionAt: number | null;
}

/** One pane that needs the user, as the wire carries it (server/wire/panes.ts). */
export type AttentionItem = z.infer<typeof attentionItem>;
export type AttentionReason = AttentionItem["reason"];

export const ATTENTION_SEVERITY: Readonly<Record<AttentionReason, number>> = {
  startup_dialog: 0,
  blocked: 0,
  input_required: 1,
  result_unacknowledged: 2,
  crashed: 2,
  turn_failed: 3,
  done: 4,
};

export const DEFAULT_ATTENTION_LIMIT = 50;
export const MAX_ATTENTION_LIMIT = 1000;

/** The most severe reason this candidate needs attention, or null. */
export function attentionReason(c: AttentionCandidate): AttentionReason | null {
  const seen = c.doneSeen || c.dismissed === true;
  if (c.lifecycle === "blocked") return c.blockedReason === "startup_dialog" ? "startup_dialog" : "blocked";
  if (c.taskState === "input_required") return "input_required";
  if (c.lifecycle === "exited" && isCrash(c) && !seen) return "crashed";
  if (c.lifecycle === "done" && !seen) return c.stopFailed ? "turn_failed" : "done";
  return null;
}

function toItem(c: AttentionCandidate, reason: AttentionReason): AttentionItem {
  const since = reason === "input_required" ? (c.taskStateAt ?? c.lastTransitionAt) : c.lastTransitionAt;
  const item: AttentionItem = {
    paneId: c.paneId,
    reason,
    severity: ATTENTION_SEVERITY[reason],
    since: typeof since === "number" && Number.isFinite(since) ? since : null,
  };
  if (c.taskId) item.taskId = c.taskId;
  if (c.message) item.message = c.message.slice(0, 500);
  return item;
}

function cmpStr(a: string | undefined, b: string | undefined): number {
  const x = a ?? "";
  const y = b ?? "";
  return x < y ? -1 : x > y ? 1 : 0;
}

function compareAttention(a: AttentionItem, b: AttentionItem): number {
  if (a.severity !== b.severity) return a.severity - b.severity;
  const dialogFirst = Number(b.reason === "startup_dialog") - Number(a.reason === "startup_dialog");
  if (dialogFirst) return dialogFirst;
  if (a.since !== b.since) {
    if (a.since === null) return 1;
    if (b.since === null) return -1;
    return b.since - a.since;
  }
  return cmpStr(a.paneId, b.paneId) || cmpStr(a.taskId, b.taskId);
}

/**
 * Rank the candidates that need attention. `limit` (default 50, 1..1000) bounds the result;
 * anything else is BAD_PARAMS.
 */
export function rankAttention(items: readonly AttentionCandidate[], opts: { limit?: number } = {}): AttentionItem[] {
  const limit = opts.limit ?? DEFAULT_ATTENTION_LIMIT;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_ATTENTION_LIMIT) {
    throw new YardError("BAD_PARAMS", `limit must be an integer between 1 and ${MAX_ATTENTION_LIMIT}`, {
      field: "limit",
      value: limit,
    });
  }
  const out: AttentionItem[] = [];
  for (const c of items) {
    const reason = attentionReason(c);
    if (reason !== null) out.push(toItem(c, reason));
  }
  out.sort(compareAttention);
  return out.slice(0, limit);
}

/** What a calling pane reaches, per task and per pane id (true: it may touch it). */
export interface AttentionReach {
  task(id: string): Promise<boolean | null>;
  pane(id: string): Promise<boolean | null>;
}

/**
 * The items a calling pane may see, at most `limit` (default 50), in rank order: an item about a
 * task counts when the caller reaches the task, one about a bare pane when it reaches the pane.
 */
export async function visibleAttention(
  items: readonly AttentionItem[],
  reach: AttentionReach,
  limit = DEFAULT_ATTENTION_LIMIT,
): Promise<AttentionItem[]> {
  const out: AttentionItem[] = [];
  for (const item of items) {
    if (out.length >= limit) break;
    if ((await (item.taskId ? reach.task(item.taskId) : reach.pane(item.paneId))) === true) out.push(item);
  }
  return out;
}
