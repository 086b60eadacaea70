// A server restart, both ends: at start-up, a merge the previous server had in flight is finished
// or undone in the checkout (git ran on without it: it is waited for, then a "still merging"
// state is settled), tasks whose pane survived keep their state (a pending one gets its runner
// back), tasks whose pane is gone fail with evidence, and a merge that landed before its record
// was written is recorded (its agents stopped); at shutdown, runners stop and pane exits are no
// longer judged. Every change goes through the reducer.
import { readFileSync } from "node:fs";
import { runGit, isMerged, settleInterruptedMerge } from "../git";
import type { TaskRow } from "../../stores/tasks";
import { apply, contractOf, json, type EngineState } from "./engine-state";
import { renderPrompt } from "./contract";
import { stopAgents } from "./finish";
import { DEFAULT_READY_TIMEOUT_MS, lastLifecycleBeforeExit, runInBackground } from "./runner";
import { resumeSetup } from "./setup";
import { ACTIVE_STATES, type TaskState } from "./state";
import { releaseFinishedPorts } from "./task-ports";
import type { MergeStrategy } from "../../wire/branches";

/**
 * On start-up: a task whose pane still runs in the pane host keeps its state (one still pending
 * gets its background runner back: wait for ready, submit the contract); a task whose pane is
 * gone becomes failed with evidence.
 */
export async function recover(eng: EngineState, lostPanes: Map<string, string>): Promise<void> {
  const { deps, store } = eng;
  await settleMergesInFlight(eng);
  const rows = await store.list({ states: [...ACTIVE_STATES] });
  for (const r of rows) {
    // Its agent runs under another server sharing the database: that server's to recover.
    if (r.paneId && deps.panes.isOthers(r.paneId)) continue;
    if (r.paneId && deps.panes.isLive(r.paneId)) {
      eng.stateCache.set(r.id, r.state as TaskState);
      if (r.state === "pending") await resumePending(eng, r, r.paneId);
      continue;
    }
    await apply(eng, r.id, {
      type: "restart",
      lastLifecycle: r.paneId ? (lostPanes.get(r.paneId) ?? (await lastLifecycleBeforeExit(eng, r.paneId))) : null,
    });
  }
  // A merge that landed before its record was written is recorded, never redone or undone.
  const unfinished = await store.unfinishedCompleted();
  for (const r of unfinished) {
    if (!r.branch || !r.targetBranch || !r.baseSha) continue;
    // A repository removed meanwhile has nothing to record; it must not stop the start.
    const tip = await runGit(["rev-parse", "--verify", "-q", `refs/heads/${r.branch}`], {
      cwd: r.repoPath,
      allowFail: true,
    }).catch(() => ({ code: 1, stdout: "" }));
    const sha = tip.stdout.trim();
    if (tip.code !== 0 || !sha || sha === r.baseSha) continue;
    if (await isMerged(r.repoPath, sha, r.targetBranch).catch(() => false)) {
      const head = await runGit(["rev-parse", `refs/heads/${r.targetBranch}`], { cwd: r.repoPath, allowFail: true });
      await apply(
        eng,
        r.id,
        { type: "merged" },
        {
          finished: {
            mergeCommit: head.stdout.trim() || null,
            cleanupError: "merge found landed at start-up; run finish again to clean up",
          },
        },
      );
      await deps.journal.append("task.finished", { taskId: r.id, payload: { disposition: "merged", recovered: true } });
      // A merged task's agents do not run on (its worktree is removed at the next finish).
      stopLater(eng, r);
    }
  }
  for (const r of await store.allStates()) eng.stateCache.set(r.id, r.state as TaskState);
  await releaseFinishedPorts(eng);
}

/**
 * Stops a merged task's agents without waiting: during recovery the pane host holds pane exits
 * back until the server serves, so waiting here for the kill to be confirmed would never end.
 */
function stopLater(eng: EngineState, r: Parameters<typeof stopAgents>[1]): void {
  void stopAgents(eng, r).catch(() => {});
}

/** How long start-up waits for a merge's git that outlived the previous server. */
const GIT_WAIT_MS = 60_000;

/**
 * Merges the previous server started and never recorded (its mergeInFlight note). git runs on
 * its own (it was started detached, with no pipe to the server), so it is waited for first;
 * then a checkout left "merging" the task's commit is settled: the merge commit landed, so the
 * leftover merge state goes, or it did not, so the merge is undone. The note is cleared either
 * way; whether the merge landed is recorded below, as for any unrecorded merge.
 */
async function settleMergesInFlight(eng: EngineState): Promise<void> {
  for (const r of await eng.store.mergesInFlight()) {
    const m = json<{
      tip?: string;
      targetBefore?: string;
      target?: string;
      pid?: number;
      /** squash, rebase, ff: the commit the target was moving to. */
      strategy?: MergeStrategy;
      commit?: string | null;
    } | null>(r.mergeInFlight, null);
    try {
      if (m?.pid) await gitExited(m.pid);
      if (m?.tip && m.targetBefore) {
        const outcome = await settleInterruptedMerge({
          repoRoot: r.repoPath,
          tip: m.tip,
          targetBefore: m.targetBefore,
        });
        if (outcome !== "none")
          await eng.deps.journal.append("task.merge_recovered", { taskId: r.id, payload: { outcome, tip: m.tip } });
        // Landed, and perhaps cleaned up already (the branch gone): recorded from the commit merged.
        const landing = m.commit ?? m.tip;
        if (
          !r.disposition &&
          r.state === "completed" &&
          m.target &&
          (await isMerged(r.repoPath, landing, m.target).catch(() => false))
        ) {
          const merges = await runGit(
            ["rev-list", "--merges", "--ancestry-path", "--reverse", `${m.tip}..refs/heads/${m.target}`],
            { cwd: r.repoPath, allowFail: true },
          );
          const mergeCommit = m.commit ?? (merges.stdout.split("\n")[0]?.trim() || null);
          if (m.commit && m.strategy) {
            const moved = (m.strategy === "squash" || m.strategy === "rebase") && m.commit !== m.targetBefore;
            await eng.deps.branches?.recordLanding(r.id, {
              strategy: m.strategy,
              baseSha: moved ? m.targetBefore : null,
            });
          }
          await apply(
            eng,
            r.id,
            { type: "merged" },
            { finished: { mergeCommit, cleanupError: "merge found landed at start-up; run finish again to clean up" } },
          );
          await eng.deps.journal.append("task.finished", {
            taskId: r.id,
            payload: { disposition: "merged", mergeCommit, recovered: true },
          });
          stopLater(eng, r);
        }
      }
    } catch (e) {
      await eng.deps.journal.append("task.merge_recovered", {
        taskId: r.id,
        payload: { outcome: "failed", message: (e as Error).message },
      });
    }
    await eng.store.setMergeInFlight(r.id, null);
  }
}

/** Resolves once `pid` is no longer a running git (or after GIT_WAIT_MS). */
async function gitExited(pid: number): Promise<void> {
  const isGit = () => {
    try {
      return (
        readFileSync(`/proc/${pid}/cmdline`, "utf8")
          .split("\0")
          .some((a) => a === "merge") && !/^State:\s+Z/m.test(readFileSync(`/proc/${pid}/status`, "utf8"))
      );
    } catch {
      return false;
    }
  };
  const deadline = Date.now() + GIT_WAIT_MS;
  while (isGit() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
}

/**
 * A pending task whose pane survived a server restart: the previous server was waiting for the
 * agent to be ready, or was submitting the contract. A pane already working (or done) took it.
 */
async function resumePending(eng: EngineState, r: TaskRow, paneId: string): Promise<void> {
  const { deps } = eng;
  const lifecycle = deps.panes.state(paneId)?.lifecycle;
  if (lifecycle === "working" || lifecycle === "blocked" || lifecycle === "done") {
    await apply(eng, r.id, { type: "submitted" });
    if (lifecycle === "done")
      await apply(eng, r.id, { type: "pane_done", lastMessage: deps.panes.state(paneId)?.lastMessage ?? null });
    return;
  }
  // The round's own prompt: the contract for round 1, the review feedback after.
  const prompt =
    (await eng.store.rounds(r.id)).find((x) => x.number === r.round)?.prompt ??
    renderPrompt(contractOf(r), { id: r.id, title: r.title });
  runInBackground(eng, r.id, paneId, prompt, {
    readyTimeoutMs: deps.readyTimeoutMs ?? DEFAULT_READY_TIMEOUT_MS,
    round: r.round,
    setup: resumeSetup(eng, r, paneId),
  });
}

/** During shutdown panes are killed on purpose: their tasks are judged at the next start. */
export function shutdown(eng: EngineState): void {
  eng.closing = true;
  for (const r of eng.runners.values()) r.ac.abort();
}
