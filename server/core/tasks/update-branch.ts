// Update branch: the task branch takes its target's new commits (merged in, or rebased onto on
// request) in the task's worktree, under the repository lock (git/update.ts). Refused while the
// agent is busy, while the worktree has uncommitted work (DIRTY_SOURCE) and while an earlier
// update has not settled. A conflict never leaves a half state nobody owns: with a live, idle
// agent it becomes the task's next round (rounds.ts), whose prompt names the conflicted files;
// otherwise git aborted it and the files are named in a CONFLICT error. Once the branch has the
// target's commits, the task's base moves to the merge-base (its diff and review compare against
// it) and the round's line comments move with their lines or become outdated (the reanchor dep).
//
// An update in flight is noted on the task (JSON): phase "git" while git runs (a restart undoes
// what git left: recoverUpdates), phase "agent" while the agent resolves; the agent's round is
// settled by settleUpdate after each state change (the branch watch calls it): committed, the
// base moves; still mid-merge, it waits; the task failed, canceled or rejected meanwhile, the
// operation is aborted; the agent undid it, the note goes.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import type { z } from "zod";
import type { branchUpdate } from "../../wire/branches";
import { YardError, isYardError } from "../errors";
import { abortUpdate, type UpdateMode, updateBranch, updateProgress } from "../git";
import type { BaseMove } from "../reviews/reanchor";
import { type EngineState, json, taskRow } from "./engine-state";
import { startNextRound } from "./rounds";
import { get, type TaskView } from "./views";

type BranchUpdate = z.infer<typeof branchUpdate>;

/** The note kept on a task while its update has not settled. */
export interface UpdateNote {
  phase: "git" | "agent";
  mode: UpdateMode;
  target: string;
  targetCommit: string;
  /** The branch's commit before the update, and the base then. */
  from: string;
  oldBase: string;
  /** The round whose line comments move with the base; resolveRound: the round that resolves the conflicts. */
  round: number;
  resolveRound?: number;
  commits: number;
  files?: string[];
  pid?: number;
  at: number;
}

function branchesOf(eng: EngineState) {
  const b = eng.deps.branches;
  if (!b) throw new YardError("INTERNAL", "This server keeps no branch records; branches cannot be updated");
  return b;
}

export async function updateTaskBranch(
  eng: EngineState,
  taskId: string,
  opts: { rebase?: boolean },
): Promise<{ task: TaskView; update: BranchUpdate }> {
  const branches = branchesOf(eng);
  const t = await taskRow(eng, taskId);
  if (t.disposition)
    throw new YardError("CONFLICT", `The task is already ${t.disposition}; its branch is not updated any more`, {
      disposition: t.disposition,
    });
  if (!t.worktreePath || !t.branch || !t.baseSha)
    throw new YardError("CONFLICT", "The task has no worktree or branch yet (it has not started)", { state: t.state });
  if (!t.targetBranch)
    throw new YardError("BAD_PARAMS", "The task has no target branch (the repository was on a detached HEAD)", {
      taskId,
    });
  if (eng.finishing.has(taskId))
    throw new YardError("CONFLICT", "The task is being merged or discarded right now", { taskId, finishing: true });
  const pending = json<UpdateNote | null>(await branches.updateInFlight(taskId), null);
  if (pending)
    throw new YardError(
      "CONFLICT",
      pending.phase === "agent"
        ? `An update of the branch waits for the agent to resolve its conflicts (round ${pending.resolveRound}: ${(pending.files ?? []).join(", ")})`
        : "An update of the branch is running",
      { pending: true, files: pending.files ?? [] },
    );
  const lifecycle = t.paneId && eng.deps.panes.isLive(t.paneId) ? eng.deps.panes.state(t.paneId)?.lifecycle : undefined;
  const live = lifecycle !== undefined && lifecycle !== "exited";
  if (t.state === "pending" || t.state === "working" || (live && lifecycle !== "idle" && lifecycle !== "done"))
    throw new YardError("PANE_BUSY", "The agent is working; update the branch once its turn has ended", {
      state: t.state,
      lifecycle: lifecycle ?? null,
    });
  // A live agent that is not mid-round takes the conflicts as its next round.
  const agent = live && (t.state === "completed" || t.state === "input_required");
  const mode: UpdateMode = opts.rebase ? "rebase" : "merge";
  const target = t.targetBranch;
  const worktreePath = t.worktreePath;
  let note: UpdateNote | null = null;
  const keep = (n: UpdateNote | null) => branches.setUpdateInFlight(taskId, n ? JSON.stringify(n) : null);
  let r: Awaited<ReturnType<typeof updateBranch>>;
  try {
    r = await updateBranch({
      repoRoot: t.repoPath,
      worktreePath,
      branch: t.branch,
      target,
      mode,
      keepConflicts: agent,
      onStart: async (s) => {
        note = { phase: "git", mode, target, ...s, oldBase: t.baseSha!, round: t.round, at: Date.now() };
        await keep(note);
      },
      onPid: (pid) => void keep(note && { ...note, pid }).catch(() => {}),
    });
  } catch (e) {
    if (note) {
      await keep(null);
      if (isYardError(e))
        await eng.deps.journal.append("task.branch_update", {
          taskId,
          payload: { outcome: "failed", mode, target, code: e.code, message: e.message, files: filesOf(e) },
        });
    }
    throw e;
  }
  const base = { mode, target, targetCommit: r.targetCommit, from: r.from, commits: r.commits };
  if (r.outcome === "conflict") {
    const waiting: UpdateNote = { ...note!, phase: "agent", files: r.files, resolveRound: t.round + 1 };
    await keep(waiting);
    try {
      await startNextRound(eng, taskId, conflictPrompt(t.branch, waiting));
    } catch (e) {
      await abortUpdate(worktreePath).catch(() => null);
      await keep(null);
      throw e;
    }
    await eng.deps.journal.append("task.branch_update", {
      taskId,
      payload: { outcome: "conflict_round", ...base, files: r.files, round: t.round + 1 },
    });
    const update: BranchUpdate = {
      outcome: "conflict_round",
      ...base,
      to: null,
      base: null,
      files: r.files,
      comments: null,
    };
    return { task: await get(eng, taskId), update };
  }
  const comments = await moveBase(eng, taskId, {
    repoPath: t.repoPath,
    round: t.round,
    oldBase: t.baseSha,
    newBase: r.base,
    oldHead: r.from,
    newHead: r.to,
  });
  await keep(null);
  await eng.deps.journal.append("task.branch_update", {
    taskId,
    payload: { outcome: r.outcome, ...base, to: r.to, base: r.base, comments },
  });
  return {
    task: await get(eng, taskId),
    update: { outcome: r.outcome, ...base, to: r.to, base: r.base, files: [], comments },
  };
}

/** An update whose conflicts the agent was asked to resolve: settled once it committed the result (see the top). */
export async function settleUpdate(eng: EngineState, taskId: string): Promise<void> {
  const branches = eng.deps.branches;
  if (!branches) return;
  const note = json<UpdateNote | null>(await branches.updateInFlight(taskId), null);
  if (note?.phase !== "agent") return;
  const t = await eng.store.row(taskId);
  const wt = t?.worktreePath;
  const done = async (outcome: "resolved" | "abandoned", extra: Record<string, unknown> = {}) => {
    await branches.setUpdateInFlight(taskId, null);
    await eng.deps.journal.append("task.branch_update", {
      taskId,
      payload: {
        outcome,
        mode: note.mode,
        target: note.target,
        targetCommit: note.targetCommit,
        from: note.from,
        ...extra,
      },
    });
  };
  if (!t || !wt || t.disposition || !existsSync(path.join(wt, ".git"))) return done("abandoned");
  const p = await updateProgress(wt, note.targetCommit);
  if (p.operation) {
    // Nobody is left to finish it: undone, so the branch is as it was.
    if (["failed", "canceled", "rejected"].includes(t.state)) {
      await abortUpdate(wt);
      return done("abandoned", { aborted: true });
    }
    return; // the agent still works on it
  }
  if (!p.contains) return done("abandoned");
  const comments = await moveBase(eng, taskId, {
    repoPath: t.repoPath,
    round: note.round,
    oldBase: note.oldBase,
    newBase: p.base,
    oldHead: note.from,
    newHead: p.head,
  });
  await done("resolved", { to: p.head, base: p.base, comments });
}

/**
 * At start-up: an update whose git outlived the previous server is waited for; what it left
 * mid-way is aborted (no agent was told of it), one that landed moves the base. Updates waiting
 * on an agent are settled as after any state change.
 */
export async function recoverUpdates(eng: EngineState): Promise<void> {
  const branches = eng.deps.branches;
  if (!branches) return;
  for (const id of await branches.updatesInFlight()) {
    try {
      const note = json<UpdateNote | null>(await branches.updateInFlight(id), null);
      if (note?.phase === "agent") {
        await settleUpdate(eng, id);
        continue;
      }
      const t = await eng.store.row(id);
      if (note && t?.worktreePath && existsSync(path.join(t.worktreePath, ".git"))) {
        if (note.pid) await gitExited(note.pid);
        const p = await updateProgress(t.worktreePath, note.targetCommit);
        if (p.operation) await abortUpdate(t.worktreePath);
        else if (p.contains && p.head !== note.from)
          await moveBase(eng, id, {
            repoPath: t.repoPath,
            round: note.round,
            oldBase: note.oldBase,
            newBase: p.base,
            oldHead: note.from,
            newHead: p.head,
          });
      }
    } catch {
      // Left as git left it; the note goes so that the task can be updated again.
    }
    await branches.setUpdateInFlight(id, null);
  }
}

/** The base moves; the round's comments move with their lines (or become outdated). Null when nothing moved. */
async function moveBase(
  eng: EngineState,
  taskId: string,
  m: BaseMove,
): Promise<{ moved: number; outdated: number } | null> {
  if (m.oldBase === m.newBase && m.oldHead === m.newHead) return null;
  await branchesOf(eng).moveBase(taskId, m.newBase);
  return (await eng.deps.reanchor?.(taskId, m).catch(() => null)) ?? null;
}

/** The prompt of the round that resolves an update's conflicts: which files, and what finishing it takes. */
function conflictPrompt(branch: string, n: Pick<UpdateNote, "mode" | "target" | "commits" | "files">): string {
  const files = (n.files ?? []).map((f) => `- ${f.replace(/[\x00-\x1f\x7f]/g, "?")}`);
  const how =
    n.mode === "merge"
      ? "stage them and commit the merge (git add, then git commit --no-edit)"
      : "stage them and continue the rebase (git add, then GIT_EDITOR=true git rebase --continue) until it has finished";
  return [
    `Switchyard is updating branch ${branch} with ${n.commits} new commit(s) of ${n.target} (${n.mode === "merge" ? "a merge" : "a rebase"}), and git stopped at conflicts in ${files.length} file(s):`,
    ...files,
    "",
    `Resolve them in this worktree: edit each file so that both sides' changes are kept as intended and no conflict markers remain, then ${how}.`,
    "Do not abort it. Then report again with yard task report.",
  ].join("\n");
}

function filesOf(e: YardError): string[] {
  const f = e.details?.files;
  return Array.isArray(f) ? f.filter((x): x is string => typeof x === "string") : [];
}

/** Resolves once `pid` is no longer a running git merge or rebase (or after a minute). */
async function gitExited(pid: number): Promise<void> {
  const running = () => {
    try {
      const argv = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
      return (
        argv.some((a) => a === "merge" || a === "rebase") &&
        !/^State:\s+Z/m.test(readFileSync(`/proc/${pid}/status`, "utf8"))
      );
    } catch {
      return false;
    }
  };
  const deadline = Date.now() + 60_000;
  while (running() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
}
