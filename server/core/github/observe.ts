// What a poll of a pull request means, as pure functions (table-tested in observe.test.ts):
//
//   observePull(prev, seen) -> { state, changes, finish }
//     The recorded state (open | closed | merged) and what GitHub says now give the new state, the
//     changes worth a journal entry (merged, closed, reopened, draft, ready, head_moved) and whether
//     the task is to be finished (merged: a merged pull request stays merged, and keeps asking to
//     finish its task until it is finished). Closed unmerged is shown, never acted on.
//   summarizeChecks(checkRuns, statuses) -> PrChecks
//     Check runs (GitHub Actions and apps) and commit statuses (older CI), one list: failures
//     first, at most 50 items; the overall state is failure if any failed, else pending if any
//     runs, else success (none when nothing reported).
//   pollDelay(intervalMs, failures) -> ms until the next poll: the interval, doubled per failure
//     in a row, at most 32 times it (and at most 30 minutes unless the interval is longer).
import type { PrChecks, PrState } from "../../wire/github";

export interface SeenPull {
  state: "open" | "closed";
  merged: boolean;
  draft: boolean;
  headSha: string | null;
}

export type PullChange = "merged" | "closed" | "reopened" | "draft" | "ready" | "head_moved";

export function observePull(
  prev: { state: PrState; draft: boolean; headSha: string | null },
  seen: SeenPull,
): { state: PrState; changes: PullChange[]; finish: boolean } {
  if (prev.state === "merged") return { state: "merged", changes: [], finish: true };
  const state: PrState = seen.merged ? "merged" : seen.state;
  const changes: PullChange[] = [];
  if (state !== prev.state) changes.push(state === "open" ? "reopened" : state);
  if (state === "open" && seen.draft !== prev.draft) changes.push(seen.draft ? "draft" : "ready");
  if (seen.headSha && prev.headSha && seen.headSha !== prev.headSha) changes.push("head_moved");
  return { state, changes, finish: state === "merged" };
}

export interface CheckRun {
  name: string;
  status: string;
  conclusion: string | null;
  html_url?: string | null;
}

export interface CommitStatus {
  context: string;
  state: string;
  target_url?: string | null;
}

type ItemState = PrChecks["items"][number]["state"];

function runState(r: CheckRun): ItemState {
  if (r.status !== "completed") return "pending";
  switch (r.conclusion) {
    case "success":
      return "success";
    case "neutral":
      return "neutral";
    case "skipped":
    case "stale":
      return "skipped";
    default:
      return "failure"; // failure, cancelled, timed_out, action_required, startup_failure, null
  }
}

function statusState(s: CommitStatus): ItemState {
  return s.state === "success" ? "success" : s.state === "pending" ? "pending" : "failure";
}

const ORDER: Record<ItemState, number> = { failure: 0, pending: 1, success: 2, neutral: 3, skipped: 4 };
const MAX_ITEMS = 50;

export function summarizeChecks(runs: readonly CheckRun[], statuses: readonly CommitStatus[]): PrChecks {
  const items = [
    ...runs.map((r) => ({ name: r.name, state: runState(r), url: r.html_url ?? null })),
    ...statuses.map((s) => ({ name: s.context, state: statusState(s), url: s.target_url ?? null })),
  ].sort((a, b) => ORDER[a.state] - ORDER[b.state] || a.name.localeCompare(b.name));
  const count = (st: ItemState) => items.filter((i) => i.state === st).length;
  const failed = count("failure");
  const pending = count("pending");
  const passed = items.length - failed - pending;
  return {
    state: items.length === 0 ? "none" : failed ? "failure" : pending ? "pending" : "success",
    total: items.length,
    passed,
    failed,
    pending,
    items: items.slice(0, MAX_ITEMS),
  };
}

const MAX_BACKOFF_FACTOR = 32;
const MAX_BACKOFF_MS = 30 * 60_000;

export function pollDelay(intervalMs: number, failures: number): number {
  if (failures <= 0) return intervalMs;
  const factor = Math.min(2 ** Math.min(failures, 10), MAX_BACKOFF_FACTOR);
  return Math.min(intervalMs * factor, Math.max(intervalMs, MAX_BACKOFF_MS));
}
