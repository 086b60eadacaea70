// Tasks whose agent runs on a runner (another machine, over SSH). Owns: which runner a start goes
// to (named, the first of some labels with room, or the project's default; else this machine),
// each runner's capacity, the task's worktree there, and bringing its work back: the runner's
// branch and a snapshot of its worktree are fetched into the board's repository and checked out
// in the board's own worktree of the task, which review, diff and merge read as for any task. Work
// comes back at each turn's end, whenever the diff is read, and before a merge.
import type { RunnerTeardown } from "../../wire/runners";
import { YardError } from "../errors";
import { runGit } from "../git";
import { inTurn } from "../serial";
import { type EngineState, taskRow } from "./engine-state";
import { ACTIVE_STATES } from "./state";

/** A task as git on a runner knows it: its repository's key there, its branch and base. */
type GitTask = { projectId: string; taskId: string; branch: string; baseSha: string };

/** What the task engine needs of the runners (core/runners/service.ts). */
export interface RunnerPort {
  list(): Promise<{ name: string; labels: string[]; capacity: number }[]>;
  get(name: string): Promise<{ name: string; labels: string[]; capacity: number }>;
  worktree(name: string, repo: string, t: GitTask): Promise<{ path: string }>;
  drop(name: string, repo: string, t: GitTask): Promise<void>;
  /** Copies the files in `dir` (on this machine) into the task's worktree there. */
  place(name: string, taskId: string, dir: string): Promise<{ files: number; bytes: number }>;
  collect(name: string, repo: string, t: GitTask): Promise<{ commit: string; worktree: string; changed: boolean }>;
  /** A finished task's teardown commands, run in its worktree there. */
  teardown(
    name: string,
    taskId: string,
    run: { commands: string[]; env: Record<string, string>; timeoutMs: number },
  ): Promise<RunnerTeardown>;
}

/** A project's default runner (null: none, or no such project). */
export async function projectRunner(eng: EngineState, projectId: string): Promise<string | null> {
  return (await eng.deps.projects.get(projectId).catch(() => null))?.defaultRunner ?? null;
}

/** Starts in flight per runner (the cap counts them with the running tasks). */
const launchingOn = new WeakMap<EngineState, Map<string, string>>();

function launching(eng: EngineState): Map<string, string> {
  let m = launchingOn.get(eng);
  if (!m) launchingOn.set(eng, (m = new Map()));
  return m;
}

function port(eng: EngineState): RunnerPort {
  if (!eng.deps.runners) throw new YardError("BAD_PARAMS", "This server has no runners");
  return eng.deps.runners;
}

async function activeOn(eng: EngineState, name: string): Promise<number> {
  const inFlight = [...launching(eng).values()].filter((r) => r === name).length;
  return (await eng.store.activeCount(ACTIVE_STATES, { runner: name })) + inFlight;
}

/**
 * The runner a start runs on, reserved for task `taskId` (call under the start lock; release()
 * once it is recorded or refused): `runner` by name, else the first runner carrying every label
 * with room, else `fallback` (the project's default runner), else none (this machine).
 * RATE_LIMITED when the runner named is full, or no runner with the labels has room.
 */
export async function reserveRunner(
  eng: EngineState,
  taskId: string,
  want: { runner?: string | null; labels?: readonly string[] | null; fallback?: string | null },
): Promise<string | null> {
  let chosen: string | null = null;
  if (want.runner) {
    const r = await port(eng).get(want.runner);
    const active = await activeOn(eng, r.name);
    if (active >= r.capacity)
      throw new YardError(
        "RATE_LIMITED",
        `runner ${r.name} runs ${active} tasks already (its capacity is ${r.capacity}); finish or wait for one, or start on another runner`,
        { runner: r.name, active, capacity: r.capacity },
      );
    chosen = r.name;
  } else if (want.labels?.length) {
    const fitting = (await port(eng).list()).filter((r) => want.labels!.every((l) => r.labels.includes(l)));
    if (!fitting.length)
      throw new YardError("NOT_FOUND", `No runner carries the labels ${want.labels.join(", ")} (yard runner list)`, {
        labels: [...want.labels],
      });
    for (const r of fitting)
      if ((await activeOn(eng, r.name)) < r.capacity) {
        chosen = r.name;
        break;
      }
    if (!chosen)
      throw new YardError(
        "RATE_LIMITED",
        `Every runner with the labels ${want.labels.join(", ")} is at its capacity (${fitting.map((r) => r.name).join(", ")})`,
        { labels: [...want.labels] },
      );
  } else if (want.fallback) {
    return reserveRunner(eng, taskId, { runner: want.fallback });
  }
  if (chosen) launching(eng).set(taskId, chosen);
  return chosen;
}

export function releaseRunner(eng: EngineState, taskId: string): void {
  launching(eng).delete(taskId);
}

/** The key of the task's repository on runners: its project, else its path's. */
function repoKey(row: { projectId: string | null; repoPath: string }): string {
  if (row.projectId && /^[a-z0-9][a-z0-9_-]{0,63}$/.test(row.projectId)) return row.projectId;
  let h = 0;
  for (const c of row.repoPath) h = (Math.imul(h, 31) + c.charCodeAt(0)) >>> 0;
  return `repo-${h.toString(16)}`;
}

/** A task row's fields that say where on a runner it runs (a task on this machine: runner null). */
export interface RunnerTask {
  id: string;
  runner: string | null;
  projectId: string | null;
  repoPath: string;
  branch: string | null;
  baseSha: string | null;
}

/** With the board's own worktree of it (where its work comes back to). */
type RunnerTaskRow = RunnerTask & { worktreePath: string | null };

function gitTask(row: Omit<RunnerTaskRow, "worktreePath"> & { branch: string; baseSha: string }): GitTask {
  return { projectId: repoKey(row), taskId: row.id, branch: row.branch, baseSha: row.baseSha };
}

/** The task's worktree on its runner (made from its base when it is not there): where its agent runs. */
export async function runnerWorktree(
  eng: EngineState,
  row: Omit<RunnerTaskRow, "worktreePath"> & { runner: string; branch: string; baseSha: string },
): Promise<string> {
  return (await port(eng).worktree(row.runner, row.repoPath, gitTask(row))).path;
}

/** Serialized per task: two reads of the diff do not check out over each other. */
const syncing = new WeakMap<EngineState, Map<string, Promise<unknown>>>();

/**
 * Brings a runner task's work back into the board's worktree of it (nothing for a task on this
 * machine, or one already finished: its worktree there is gone). The runner's branch becomes the task's branch there, and its worktree's snapshot the
 * files, so uncommitted work shows in the diff as uncommitted. Journals `task.runner_synced` when
 * what came back differs from before, and a failure (the runner out of reach), keeping what came
 * back before.
 */
export async function syncFromRunner(
  eng: EngineState,
  row: RunnerTaskRow & { disposition: string | null },
): Promise<boolean> {
  const { runner, branch, baseSha, worktreePath: wt } = row;
  if (!runner || !branch || !baseSha || !wt || row.disposition) return false;
  let m = syncing.get(eng);
  if (!m) syncing.set(eng, (m = new Map()));
  return inTurn(m, row.id, async () => {
    try {
      const back = await port(eng).collect(runner, row.repoPath, gitTask({ ...row, branch, baseSha }));
      // The snapshot's files into the worktree (files it lacks removed), then the branch to the
      // runner's commit with the index at it: what was not committed there is not committed here.
      await runGit(["read-tree", "-u", "--reset", back.worktree], { cwd: wt });
      await runGit(["reset", "-q", back.commit], { cwd: wt });
      // What the board shows of the task (its card's diff size) is counted again.
      if (back.changed)
        await eng.deps.journal
          .append("task.runner_synced", { taskId: row.id, payload: { runner, commit: back.commit } })
          .catch(() => {});
      return true;
    } catch (e) {
      await journalFailure(eng, row.id, runner, e);
      return false;
    }
  });
}

/** Brings a runner task's work back on the task's chain: before the transitions queued after it. */
export function queueSync(eng: EngineState, taskId: string): void {
  void inTurn(eng.chains, taskId, async () => {
    await syncFromRunner(eng, await taskRow(eng, taskId));
  }).catch(() => {});
}

/** What went wrong with a runner task's git there (its work stays as it last came back). */
async function journalFailure(eng: EngineState, taskId: string, runner: string, e: unknown, doing = ""): Promise<void> {
  const err = e instanceof YardError ? e : new YardError("INTERNAL", (e as Error).message);
  await eng.deps.journal
    .append("task.runner_sync_failed", {
      taskId,
      payload: { runner, code: err.code, message: `${doing}${err.message}` },
    })
    .catch(() => {});
}

/**
 * A finished runner task's worktree there is removed (its work came back before the finish), as is
 * the one made for a start that then failed.
 * A failure (the runner out of reach) is journaled; the worktree stays there.
 */
export async function dropOnRunner(eng: EngineState, row: RunnerTask): Promise<void> {
  if (!row.runner || !row.branch || !row.baseSha) return;
  try {
    await port(eng).drop(row.runner, row.repoPath, gitTask({ ...row, branch: row.branch, baseSha: row.baseSha }));
  } catch (e) {
    await journalFailure(eng, row.id, row.runner, e, "removing its worktree there: ");
  }
}
