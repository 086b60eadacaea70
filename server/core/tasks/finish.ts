// Finishing a task, once: merge (a completed task's branch into its target: exactly the commit
// its latest approval saw, when it has one) or discard (stop the agent, remove the worktree,
// saying which uncommitted files went with it; a pane must force that), a repeated finish that
// only retries cleanup, and tidying a removed worktree's leftovers on disk. Either way the
// task's agents stop (its worker, its agent reviewer). The journal's task.finished says who
// finished it (`user` or the pane). A merge is recorded as in flight while git runs, so that a
// restart can finish or undo it (recovery.ts). The disposition is the reducer's (`merged`,
// `discarded`).
import { rm } from "node:fs/promises";
import path from "node:path";
import { authorOf } from "../authors";
import { YardError } from "../errors";
import { discardWorktree, findWorktree, mergeTask, uncommittedFiles } from "../git";
import { rmdirUpTo } from "../git/paths";
import type { TaskRow } from "../../stores/tasks";
import { apply, type EngineState, taskRow } from "./engine-state";
import { dropOnRunner, syncFromRunner } from "./on-runner";
import { type TaskState, transition } from "./state";
import { releasePorts } from "./task-ports";
import { runTeardown } from "./teardown";
import { get } from "./views";
import type { MergeStrategy } from "../../wire/branches";
import { approvalState, requireApprovals } from "./approvals";

export type FinishOptions = {
  merge?: { target?: string; keepBranch?: boolean; ignoreDirty?: boolean; strategy?: MergeStrategy };
  discard?: { deleteBranch?: boolean; force?: boolean };
};

/** Who finishes: a pane (an orchestrator) must force a discard that loses uncommitted work; the person confirmed it in the UI. */
export type Finisher = { paneId: string | null };

/** At most this many lost files are listed in a discard's answer and journal entry. */
const MAX_LISTED = 1000;

export async function finish(eng: EngineState, taskId: string, opts: FinishOptions, by: Finisher = { paneId: null }) {
  // While a finish runs, a diff that trips over the worktree being removed answers CONFLICT, not a git error.
  eng.finishing.add(taskId);
  try {
    // A runner's latest work comes back before it is merged or discarded (on-runner.ts).
    const t = await taskRow(eng, taskId);
    await syncFromRunner(eng, t);
    const done = await finishNow(eng, taskId, opts, by);
    // Finished now: its worktree on the runner goes (the agent was stopped by the finish).
    if (!t.disposition && done.task.disposition) await dropOnRunner(eng, t);
    return done;
  } finally {
    eng.finishing.delete(taskId);
  }
}

/** The files a discard of the task would lose now (none when its worktree is gone). */
export async function uncommitted(eng: EngineState, taskId: string): Promise<{ files: string[]; truncated: boolean }> {
  const t = await taskRow(eng, taskId);
  if (!t.worktreePath || t.disposition || !(await findWorktree(t.repoPath, t.worktreePath).catch(() => null)))
    return { files: [], truncated: false };
  const files = await uncommittedFiles({ worktreePath: t.worktreePath });
  return { files: files.slice(0, MAX_LISTED), truncated: files.length > MAX_LISTED };
}

/** Stops whatever still runs for the task: its agent and its agent reviewer. */
export async function stopAgents(
  eng: EngineState,
  t: Pick<TaskRow, "id" | "paneId" | "agentReviewPaneId">,
): Promise<void> {
  eng.runners.get(t.id)?.ac.abort();
  for (const paneId of [t.paneId, t.agentReviewPaneId]) {
    if (paneId && eng.deps.panes.isLive(paneId)) await eng.deps.panes.kill(paneId).catch(() => {});
  }
}

async function finishNow(eng: EngineState, taskId: string, opts: FinishOptions, by: Finisher) {
  const { deps, store } = eng;
  if (!opts.merge === !opts.discard)
    throw new YardError("BAD_PARAMS", "Finish with exactly one of --merge or --discard");
  const t = await taskRow(eng, taskId);
  if (!t.worktreePath || !t.branch) throw new YardError("CONFLICT", "The task has no worktree to finish");
  const worktreeExists = Boolean(await findWorktree(t.repoPath, t.worktreePath));

  if (t.disposition) {
    // A second finish only retries cleanup, and only while there is something left to clean.
    if (!worktreeExists)
      throw new YardError("CONFLICT", `The task is already ${t.disposition} and cleaned up`, {
        disposition: t.disposition,
      });
    const cleanup = await discardWorktree({
      repoRoot: t.repoPath,
      worktreePath: t.worktreePath,
      branch: t.branch,
      branchPreexisting: t.branchPreexisting,
      deleteBranch: false,
    });
    await tidyWorktreeDir(eng, t);
    await store.setCleanupError(taskId, cleanup.error ?? null);
    await deps.journal.append("task.cleanup", { taskId, payload: { ...cleanup } });
    return { task: await get(eng, taskId), cleanup: { ok: !cleanup.error, ...cleanup } };
  }

  if (opts.merge) {
    transition(t.state as TaskState, { type: "merged" }); // TASK_NOT_COMPLETED before git is touched
    const target = opts.merge.target ?? t.targetBranch;
    if (!target)
      throw new YardError(
        "BAD_PARAMS",
        "The task has no recorded target branch (the repository was on a detached HEAD): pass --target BRANCH",
        { expected: null },
      );
    // An approval is of a commit: the merge takes that commit or refuses (an approval recorded
    // before approvals were pinned has none and merges the branch as it is).
    const approval = await deps.approval?.(taskId, t.round);
    const project = t.projectId ? await deps.projects.get(t.projectId).catch(() => null) : null;
    // A project that requires approvals: that many distinct people approved the commit the merge takes.
    if (project?.requiredApprovals) {
      const approvers = approval?.commit ? ((await deps.approvers?.(taskId, t.round, approval.commit)) ?? []) : [];
      requireApprovals(
        approvalState(
          { required: project.requiredApprovals, noSelfApproval: project.noSelfApproval },
          approvers,
          t.startedBy,
        ),
      );
    }
    // The merge dialog's (or --strategy's) choice, else the project's default, else a merge commit.
    const strategy: MergeStrategy = opts.merge.strategy ?? project?.mergeStrategy ?? "merge";
    let inFlight: Record<string, unknown> | null = null;
    let res;
    try {
      res = await mergeTask({
        repoRoot: t.repoPath,
        worktreePath: t.worktreePath,
        branch: t.branch,
        targetBranch: target,
        branchPreexisting: t.branchPreexisting,
        ignoreDirty: opts.merge.ignoreDirty,
        keepBranch: opts.merge.keepBranch,
        strategy,
        message: strategy === "squash" ? `${t.title}\n\nSquashed from ${t.branch}.` : `Merge ${t.branch}: ${t.title}`,
        ...(approval?.commit ? { approved: { commit: approval.commit, tree: approval.tree } } : {}),
        onMergeStart: async (m) => {
          inFlight = { target, targetBefore: m.targetBefore, tip: m.tip, strategy, commit: m.commit, at: Date.now() };
          await store.setMergeInFlight(taskId, JSON.stringify(inFlight));
        },
        onMergePid: (pid) => void store.setMergeInFlight(taskId, JSON.stringify({ ...inFlight, pid })).catch(() => {}),
        // The agents stop, then the recorded teardown runs, before the worktree goes.
        beforeCleanup: async () => {
          await stopAgents(eng, t);
          await runTeardown(eng, t);
        },
      });
    } catch (e) {
      if (inFlight) await store.setMergeInFlight(taskId, null);
      if (e instanceof YardError) {
        await deps.journal.append("task.merge_failed", {
          taskId,
          payload: { code: e.code, message: e.message, details: e.details ?? null },
        });
      }
      throw e;
    }
    if (res.cleanup.worktreeRemoved) await tidyWorktreeDir(eng, t);
    // A squash or rebase landed new commits on the target's: the task's changes are read from there on.
    const newBase = (strategy === "squash" || strategy === "rebase") && !res.alreadyUpToDate ? res.targetBefore : null;
    await deps.branches?.recordLanding(taskId, { strategy, baseSha: newBase });
    await apply(
      eng,
      taskId,
      { type: "merged" },
      {
        finished: {
          mergeCommit: res.mergeCommit,
          cleanupError: res.cleanup.ok ? null : (res.cleanup.error ?? "cleanup failed"),
        },
      },
    );
    await store.setMergeInFlight(taskId, null);
    await releasePorts(eng, taskId);
    await deps.journal.append("task.finished", {
      taskId,
      payload: {
        disposition: "merged",
        mergeCommit: res.mergeCommit,
        target,
        cleanup: res.cleanup,
        by: authorOf(by.paneId),
        strategy,
      },
    });
    return {
      task: await get(eng, taskId),
      merge: { mergeCommit: res.mergeCommit, alreadyUpToDate: res.alreadyUpToDate, target, strategy },
      cleanup: res.cleanup,
    };
  }

  // Discard: what it would lose is checked first (a pane must force it; nothing changes when it
  // did not). The task is recorded discarded (canceled when it still ran) before its worker is
  // stopped, so the pane's exit is not mistaken for a crash; then what is uncommitted is listed
  // once more (the agent may have written meanwhile) and only its worktree is removed.
  const lost = () => (worktreeExists ? uncommittedFiles({ worktreePath: t.worktreePath! }) : Promise.resolve([]));
  if (by.paneId && !opts.discard!.force) {
    const files = await lost();
    if (files.length) {
      throw new YardError(
        "DIRTY_SOURCE",
        `The task's worktree has ${files.length} uncommitted file(s) that a discard would delete: pass --force (force: true) to discard them`,
        { files: files.slice(0, MAX_LISTED), worktreePath: t.worktreePath },
      );
    }
  }
  await apply(eng, taskId, { type: "discarded" });
  await stopAgents(eng, t);
  const files = await lost().catch(() => []);
  if (worktreeExists) await runTeardown(eng, t);
  await releasePorts(eng, taskId);
  const cleanup = {
    ...(await discardWorktree({
      repoRoot: t.repoPath,
      worktreePath: t.worktreePath,
      branch: t.branch,
      branchPreexisting: t.branchPreexisting,
      deleteBranch: opts.discard!.deleteBranch,
    })),
    uncommittedFiles: files.slice(0, MAX_LISTED),
  };
  await tidyWorktreeDir(eng, t);
  await store.setCleanupError(taskId, cleanup.error ?? null);
  await deps.journal.append("task.finished", {
    taskId,
    payload: {
      disposition: "discarded",
      cleanup: { ...cleanup, uncommittedFiles: files.slice(0, 20) },
      uncommittedCount: files.length,
      by: authorOf(by.paneId),
    },
  });
  return { task: await get(eng, taskId), cleanup: { ok: !cleanup.error, ...cleanup } };
}

/**
 * After a worktree was removed: nothing of it stays on disk. Leftovers at its path and the
 * per-repository folder, once empty, go — only inside Switchyard's own worktree root, and
 * only when git no longer knows the path as a worktree.
 */
export async function tidyWorktreeDir(eng: EngineState, t: Pick<TaskRow, "repoPath" | "worktreePath">): Promise<void> {
  if (!t.worktreePath) return;
  const root = path.join(eng.deps.home, "worktrees");
  const rel = path.relative(root, t.worktreePath);
  if (!rel || rel.startsWith("..") || path.isAbsolute(rel)) return;
  if (await findWorktree(t.repoPath, t.worktreePath).catch(() => "unknown")) return;
  await rm(t.worktreePath, { recursive: true, force: true }).catch(() => {});
  await rmdirUpTo(path.dirname(t.worktreePath), path.join(root, rel.split(path.sep)[0]!));
}
