// A server restart, both ends: at start-up, tasks whose pane survived keep their state (a pending
// one gets its runner back), tasks whose pane is gone fail with evidence, and a merge that landed
// before its record was written is recorded; at shutdown, runners stop and pane exits are no
// longer judged. Every change goes through the reducer.
import { runGit, isMerged } from "../git";
import type { TaskRow } from "../../stores/tasks";
import { apply, contractOf, type TaskContext } from "./context";
import { renderPrompt } from "./contract";
import { DEFAULT_READY_TIMEOUT_MS, lastLifecycleBeforeExit, runInBackground } from "./runner";
import { ACTIVE_STATES, type TaskState } from "./state";

/**
 * On start-up: a task whose pane still runs in the pane host keeps its state (one still pending
 * gets its background runner back: wait for ready, submit the contract); a task whose pane is
 * gone becomes failed with evidence.
 */
export async function recover(ctx: TaskContext, lostPanes: Map<string, string>): Promise<void> {
  const { deps, store } = ctx;
  const rows = await store.list({ states: [...ACTIVE_STATES] });
  for (const r of rows) {
    if (r.paneId && deps.panes.isLive(r.paneId)) {
      ctx.stateCache.set(r.id, r.state as TaskState);
      if (r.state === "pending") await resumePending(ctx, r, r.paneId);
      continue;
    }
    await apply(ctx, r.id, { type: "restart", lastLifecycle: r.paneId ? (lostPanes.get(r.paneId) ?? (await lastLifecycleBeforeExit(ctx, r.paneId))) : null });
  }
  // A merge that landed before its record was written is recorded, never redone or undone.
  const unfinished = await store.unfinishedCompleted();
  for (const r of unfinished) {
    if (!r.branch || !r.targetBranch || !r.baseSha) continue;
    const tip = await runGit(["rev-parse", "--verify", "-q", `refs/heads/${r.branch}`], { cwd: r.repoPath, allowFail: true });
    const sha = tip.stdout.trim();
    if (tip.code !== 0 || !sha || sha === r.baseSha) continue;
    if (await isMerged(r.repoPath, sha, r.targetBranch).catch(() => false)) {
      const head = await runGit(["rev-parse", `refs/heads/${r.targetBranch}`], { cwd: r.repoPath, allowFail: true });
      await apply(ctx, r.id, { type: "merged" }, { finished: { mergeCommit: head.stdout.trim() || null, cleanupError: "merge found landed at start-up; run finish again to clean up" } });
      await deps.journal.append("task.finished", { taskId: r.id, payload: { disposition: "merged", recovered: true } });
    }
  }
  for (const r of await store.allStates()) ctx.stateCache.set(r.id, r.state as TaskState);
}

/**
 * A pending task whose pane survived a server restart: the previous server was waiting for the
 * agent to be ready, or was submitting the contract. A pane already working (or done) took it.
 */
async function resumePending(ctx: TaskContext, r: TaskRow, paneId: string): Promise<void> {
  const { deps } = ctx;
  const lifecycle = deps.panes.state(paneId)?.lifecycle;
  if (lifecycle === "working" || lifecycle === "blocked" || lifecycle === "done") {
    await apply(ctx, r.id, { type: "submitted" });
    if (lifecycle === "done") await apply(ctx, r.id, { type: "pane_done", lastMessage: deps.panes.state(paneId)?.lastMessage ?? null });
    return;
  }
  // The round's own prompt: the contract for round 1, the review feedback after.
  const prompt = (await ctx.store.rounds(r.id)).find((x) => x.number === r.round)?.prompt ?? renderPrompt(contractOf(r), { id: r.id, title: r.title });
  runInBackground(ctx, r.id, paneId, prompt, { readyTimeoutMs: deps.readyTimeoutMs ?? DEFAULT_READY_TIMEOUT_MS, round: r.round });
}

/** During shutdown panes are killed on purpose: their tasks are judged at the next start. */
export function shutdown(ctx: TaskContext): void {
  ctx.closing = true;
  for (const r of ctx.runners.values()) r.ac.abort();
}
