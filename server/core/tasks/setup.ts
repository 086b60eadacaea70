// Ready worktrees, the task engine's side of a start: the repository's config worked out under the
// start lock (`.switchyard.json` as committed at the base commit, the project's override on top;
// a bad one refuses the start before anything is created) with the task's ports reserved; its
// `copy`/`link` entries put into the new worktree; the environment the agent (and its setup)
// gets; the config recorded on the task (teardown runs from that record, never from the
// worktree). Then the setup commands' run in the task's pane: the wrapper's progress posts land
// here (SETUP_HOOK_EVENT), become the pending task's evidence through the reducer (applied once
// the task's row exists), and the runner waits for them to end before it waits for the agent. A
// pane that exits before setup said it was done fails the task (setup_failed, with the output's
// tail); cancel kills the pane like any. After a restart a task still setting up is picked up
// again from its evidence.
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { YardError } from "../errors";
import { type EffectiveConfig, type SetupProgress, setupProgress } from "../../wire/repo-config";
import type { PaneInfo } from "../panes/manager";
import { type CopyReport, copyEntries } from "../repo/copy";
import { effectiveConfig, readCommittedConfig } from "../repo/config";
import type { TaskRow } from "../../stores/tasks";
import { apply, type EngineState, json } from "./engine-state";
import type { TaskEvent } from "./state";
import { reservePorts, setupEnv, unreserve } from "./task-ports";

/** What a start sets up, worked out under the start lock before anything is created. */
export interface SetupPlan {
  config: EffectiveConfig;
  ports: number[];
}

interface SetupRun {
  paneId: string | null;
  progress: { step: number; total: number; command: string | null };
  /** The wrapper said which command failed (the task fails when the pane exits). */
  failed: { step: number; command: string | null; exitCode: number | null } | null;
  outcome: "running" | "done" | "failed";
  /** The setup_failed event, once the pane exited (its tail read). */
  failure: Extract<TaskEvent, { type: "setup_failed" }> | null;
  /** The task's row exists: what happened is applied to it (kept here until then). */
  recorded: boolean;
  applied: string;
  settled: Promise<boolean>;
  resolve: (ok: boolean) => void;
}

const runsOf = new WeakMap<EngineState, Map<string, SetupRun>>();
function runs(eng: EngineState): Map<string, SetupRun> {
  let m = runsOf.get(eng);
  if (!m) runsOf.set(eng, (m = new Map()));
  return m;
}

function newRun(total: number, recorded: boolean): SetupRun {
  let resolve!: (ok: boolean) => void;
  const settled = new Promise<boolean>((r) => (resolve = r));
  return {
    paneId: null,
    progress: { step: 0, total, command: null },
    failed: null,
    outcome: "running",
    failure: null,
    recorded,
    applied: "",
    settled,
    resolve,
  };
}

/**
 * Under the start lock, before the worktree: the task's config (null: the repository has none and
 * the project no override) with its ports reserved. BAD_PARAMS (naming the field) for a bad file,
 * CONFLICT when the port range has too few free.
 */
export async function planSetup(
  eng: EngineState,
  at: { repoRoot: string; baseSha: string; projectId: string | null },
): Promise<SetupPlan | null> {
  if (!eng.deps.setups) return null;
  const file = await readCommittedConfig(at.repoRoot, at.baseSha);
  const project = at.projectId ? await eng.deps.projects.get(at.projectId).catch(() => null) : null;
  const config = effectiveConfig(file, project?.repoConfig ?? null);
  if (!config) return null;
  return { config, ports: config.ports ? await reservePorts(eng, config.ports) : [] };
}

/**
 * After the worktree is created, before the agent: its copy/link entries, and its setup run
 * registered (the wrapper may post before the task's row exists). Returns what the spawn needs.
 */
export async function prepareSetup(
  eng: EngineState,
  taskId: string,
  plan: SetupPlan,
  where: { repoRoot: string; worktreePath: string; runner?: string | null },
): Promise<{ copy: CopyReport; env: Record<string, string>; setup: string[] | undefined }> {
  const c = plan.config;
  const copy = where.runner
    ? await copyToRunner(eng, taskId, where.runner, where.repoRoot, c)
    : await copyEntries({ from: where.repoRoot, to: where.worktreePath, patterns: c.copy, mode: "copy" });
  if (!where.runner)
    await copyEntries({ from: where.repoRoot, to: where.worktreePath, patterns: c.link, mode: "link", report: copy });
  if (c.setup.length) runs(eng).set(taskId, newRun(c.setup.length, false));
  const env = setupEnv(plan.ports, where.runner ? null : where.repoRoot);
  return { copy, env, setup: c.setup.length ? c.setup : undefined };
}

/** The task's row exists: the config and ports are recorded, and what setup did so far is applied. */
export async function recordSetup(
  eng: EngineState,
  taskId: string,
  plan: SetupPlan,
  copy: CopyReport,
  paneId: string,
): Promise<void> {
  await eng.deps.setups!.create(taskId, JSON.stringify(plan.config), plan.ports);
  unreserve(eng, plan.ports);
  await eng.deps.journal.append("task.setup", {
    taskId,
    paneId,
    payload: { config: plan.config, ports: plan.ports, ...copy },
  });
  const run = runs(eng).get(taskId);
  if (!run) return;
  run.paneId = paneId;
  run.recorded = true;
  await flush(eng, taskId, run);
}

/** A start that failed after planSetup: its reserved ports and its setup run go. */
export function abandonSetup(eng: EngineState, taskId: string, plan: SetupPlan | null): void {
  if (plan) unreserve(eng, plan.ports);
  runs(eng).get(taskId)?.resolve(false);
  runs(eng).delete(taskId);
}

/** A `.catch` for a start's step after planSetup: abandons the setup, throws the error on. */
export const abandoning =
  (eng: EngineState, taskId: string, plan: SetupPlan | null) =>
  (error: unknown): never => {
    abandonSetup(eng, taskId, plan);
    throw error;
  };

/** The wrapper's progress post (a hook of the task's pane): a step, done, or which command failed. */
export function onSetupHook(eng: EngineState, info: PaneInfo, payload: Record<string, unknown>): void {
  const parsed = setupProgress.safeParse(payload);
  const run = info.taskId ? runs(eng).get(info.taskId) : undefined;
  // Only while setup runs, from its pane: once done, the agent posting this event changes nothing.
  if (!parsed.success || !run || run.outcome !== "running" || (run.paneId && run.paneId !== info.id)) return;
  const p: SetupProgress = parsed.data;
  if (p.phase === "step") run.progress = { step: p.step, total: p.total, command: p.command };
  else if (p.phase === "failed") run.failed = { step: p.step, command: p.command, exitCode: p.exitCode };
  else {
    run.outcome = "done";
    eng.deps.panes.markSetup(info.id, false);
    run.resolve(true);
  }
  void flush(eng, info.taskId!, run).catch(() => {});
}

/** The runner waits here before it waits for the agent: true once setup is done (or there is none). */
export async function awaitSetup(eng: EngineState, taskId: string, signal: AbortSignal): Promise<boolean> {
  const run = runs(eng).get(taskId);
  if (!run) return true;
  if (signal.aborted) return false;
  return Promise.race([
    run.settled,
    new Promise<boolean>((resolve) => signal.addEventListener("abort", () => resolve(false), { once: true })),
  ]);
}

/**
 * The task's pane exited: while its setup still ran, that is setup_failed (its output's tail as
 * evidence) and no agent ever started. False when setup was not running (an ordinary exit).
 */
export function setupExited(eng: EngineState, info: PaneInfo): boolean {
  const run = info.taskId ? runs(eng).get(info.taskId) : undefined;
  if (run?.outcome !== "running" || (run.paneId && run.paneId !== info.id)) return false;
  run.outcome = "failed";
  run.resolve(false);
  const taskId = info.taskId!;
  void (async () => {
    const tail = await eng.deps.panes
      .read(info.id, { mode: "tail", lines: 40 })
      .then((r) => r.text.trimEnd())
      .catch(() => "");
    const f = run.failed;
    run.failure = {
      type: "setup_failed",
      step: f?.step ?? run.progress.step,
      total: run.progress.total,
      command: f?.command ?? run.progress.command,
      exitCode: f?.exitCode ?? info.exitCode,
      signal: info.signal,
      tail,
    };
    run.paneId ??= info.id;
    await flush(eng, taskId, run);
  })().catch(() => {});
  return true;
}

/** What happened is applied to the task once its row exists, each change once, in order. */
async function flush(eng: EngineState, taskId: string, run: SetupRun): Promise<void> {
  if (!run.recorded) return;
  const forPane = run.paneId ?? undefined;
  if (run.outcome === "failed") {
    if (!run.failure) return;
    runs(eng).delete(taskId);
    await apply(eng, taskId, run.failure, { forPane });
    return;
  }
  if (run.outcome === "done") {
    runs(eng).delete(taskId);
    await apply(eng, taskId, { type: "setup_done" }, { forPane });
    return;
  }
  const { step, total, command } = run.progress;
  const key = `${step}/${total}:${command}`;
  if (step === 0 || key === run.applied) return;
  run.applied = key;
  await apply(eng, taskId, { type: "setup_progress", step, total, command }, { forPane });
}

/**
 * After a restart: a pending task whose evidence says its setup was running gets its run back (its
 * pane's heuristics stay off until it ends). True when it was setting up.
 */
export function resumeSetup(eng: EngineState, r: Pick<TaskRow, "id" | "evidence">, paneId: string): boolean {
  const e = json<{ stage?: string; step?: number; total?: number; command?: string | null } | null>(r.evidence, null);
  if (e?.stage !== "setup") return false;
  const run = newRun(e.total ?? 0, true);
  run.paneId = paneId;
  run.progress = { step: e.step ?? 0, total: e.total ?? 0, command: e.command ?? null };
  run.applied = `${run.progress.step}/${run.progress.total}:${run.progress.command}`;
  runs(eng).set(r.id, run);
  eng.deps.panes.markSetup(paneId, true);
  return true;
}

/**
 * A runner task's setup files: gathered here from the repository (a `link` entry copied too: a link
 * there would point into this machine), then written into its worktree on the runner.
 */
async function copyToRunner(
  eng: EngineState,
  taskId: string,
  runner: string,
  repoRoot: string,
  c: { copy: readonly string[]; link: readonly string[] },
): Promise<CopyReport> {
  if (!c.copy.length && !c.link.length) return { copied: [], linked: [], skipped: [], files: 0, bytes: 0 };
  const dir = mkdtempSync(path.join(os.tmpdir(), "yard-runner-setup-"));
  try {
    const copy = await copyEntries({ from: repoRoot, to: dir, patterns: [...c.copy, ...c.link], mode: "copy" });
    if (!eng.deps.runners) throw new YardError("BAD_PARAMS", "This server has no runners");
    await eng.deps.runners.place(runner, taskId, dir);
    return copy;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
