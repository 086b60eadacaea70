// A task's later rounds on the same worktree: the next round after a review asked for changes
// (feedback to the live pane, or the contract plus feedback to a fresh one), a follow-up prompt
// for a task waiting on input, resuming a failed or canceled task's agent session in a fresh pane,
// and the rounds' records. A round starts through the reducer (next_round, resume).
import { taskPaneRole } from "../agents/roles";
import { existsSync } from "node:fs";
import type { TaskRound } from "../../wire/reviews";
import { codexResumeArgv } from "../agents/codex";
import { agentKindOf } from "../agents/kinds";
import { YardError } from "../errors";
import type { PaneInfo } from "../panes/manager";
import { apply, contractOf, json, type EngineState, taskRow } from "./engine-state";
import { renderPrompt } from "./contract";
import { runInBackground } from "./runner";
import { sandboxFor, spawnWorker, trustDirOf } from "./spawn-worker";
import { type Disposition, type Evidence, type TaskState, transition } from "./state";
import { get, type TaskResult, type TaskView } from "./views";

/** What a resumed agent is told when no prompt is given. */
const RESUME_PROMPT =
  "Switchyard restarted you in the same session after your previous run stopped. Continue the task where you left off, and report when you are done (yard task report).";

/** A round's record: the rounds reply's round without the reviews the review service adds. */
export type RoundRecord = Omit<TaskRound, "reviews">;

/**
 * Starts round N+1 on the same worktree with `feedback` as its prompt (a review requested
 * changes). A live pane gets only the feedback: its agent holds the contract already, and
 * re-sending the objective would make it redo round 1. When the pane has exited, a fresh pane
 * with the same profile (or command) starts in the worktree and gets the contract followed by
 * the feedback. Either way the prompt goes through the submit gate in the background, as at
 * start, and the round's fate lands in the task's state through the reducer.
 */
export async function startNextRound(eng: EngineState, taskId: string, feedback: string): Promise<TaskView> {
  const { deps } = eng;
  const row = await taskRow(eng, taskId);
  if (row.disposition)
    throw new YardError("CONFLICT", `The task is already ${row.disposition}; it takes no more rounds`, {
      disposition: row.disposition,
    });
  transition(row.state as TaskState, { type: "next_round" }); // CONFLICT for other states, before anything is spawned
  if (!row.worktreePath || !existsSync(row.worktreePath))
    throw new YardError("CONFLICT", "The task's worktree is gone; another round cannot run", {
      taskId,
      worktreePath: row.worktreePath,
    });
  const live =
    row.paneId !== null && deps.panes.isLive(row.paneId) && deps.panes.state(row.paneId)?.lifecycle !== "exited";
  let paneId = row.paneId!;
  let prompt = feedback;
  if (!live) {
    const argv = json<string[] | null>(row.argv, null);
    const agentId = argv ? null : row.agent;
    const sandbox = row.sandboxed ? await sandboxFor(eng, true, agentId ? await deps.agents.get(agentId) : null) : null;
    const trustDir = await trustDirOf(eng, row);
    const launch = await deps.panes.resolveLaunch({ agent: agentId ?? undefined, argv: argv ?? undefined });
    const pane = await spawnWorker(
      eng,
      {
        id: row.id,
        title: row.title,
        agentId,
        argv,
        launch,
        parentPaneId: row.parentPaneId,
        sandbox,
        trustDir,
        onRunner: row,
      },
      row.worktreePath,
    );
    paneId = pane.id;
    prompt = `${renderPrompt(contractOf(row), { id: row.id, title: row.title, role: taskPaneRole(launch.profileRole) })}\n\n${feedback}`;
  }
  try {
    await apply(eng, taskId, { type: "next_round" }, { round: { prompt, paneId } });
  } catch (e) {
    if (!live) await deps.panes.kill(paneId).catch(() => {});
    throw e;
  }
  await deps.journal.append("task.round", { taskId, paneId, payload: { round: row.round + 1, freshPane: !live } });
  runInBackground(eng, taskId, paneId, prompt, { round: row.round + 1 });
  return get(eng, taskId);
}

/** A follow-up prompt for an input_required task, through the submit gate to its live pane. */
export async function followUp(
  eng: EngineState,
  taskId: string,
  text: string,
  opts: { stallMs?: number } = {},
): Promise<{ task: TaskView; submit: { activitySeq: number; bracketed: boolean } }> {
  const row = await taskRow(eng, taskId);
  if (row.state !== "input_required")
    throw new YardError("CONFLICT", `Only a task waiting for input takes a follow-up; this one is ${row.state}`, {
      state: row.state,
    });
  if (!row.paneId) throw new YardError("PANE_EXITED", "The task has no pane to take the follow-up", { taskId });
  const res = await eng.deps.panes.submit(row.paneId, text, { stallMs: opts.stallMs });
  await eng.deps.journal.append("task.follow_up", {
    taskId,
    paneId: row.paneId,
    payload: { round: row.round, bytes: Buffer.byteLength(text), text: text.slice(0, 4000) },
  });
  return { task: await get(eng, taskId), submit: { activitySeq: res.activitySeq, bracketed: res.bracketed } };
}

/** Every round's record, oldest first. */
export async function roundRecords(eng: EngineState, taskId: string): Promise<RoundRecord[]> {
  await taskRow(eng, taskId);
  return (await eng.store.rounds(taskId)).map((r) => ({
    number: r.number,
    state: r.state,
    paneId: r.paneId,
    prompt: r.prompt,
    result: json<TaskResult | null>(r.result, null),
    evidence: json<Evidence | null>(r.evidence, null),
    startedAt: r.startedAt.toISOString(),
    endedAt: r.endedAt?.toISOString() ?? null,
  }));
}

/**
 * Resumes a failed or canceled task's agent in a fresh pane that continues the same
 * conversation (`claude --resume <session>`, `codex resume <session>`), as a new round on the
 * same worktree, then submits `prompt` (default RESUME_PROMPT) once the agent is ready.
 */
export async function resume(
  eng: EngineState,
  taskId: string,
  opts: { prompt?: string; readyTimeoutMs?: number; stallMs?: number } = {},
): Promise<{ task: TaskView; pane: PaneInfo }> {
  const { deps } = eng;
  const t = await taskRow(eng, taskId);
  transition(
    t.state as TaskState,
    { type: "resume", sessionId: t.agentSessionId ?? "" },
    (t.disposition as Disposition | null) ?? null,
  ); // CONFLICT before anything is spawned
  if (!t.agentSessionId)
    throw new YardError(
      "CONFLICT",
      "The task's agent never reported a session (no hook arrived), so there is nothing to resume",
      { taskId },
    );
  if (!t.worktreePath || !existsSync(t.worktreePath))
    throw new YardError("CONFLICT", "The task's worktree is gone", { worktreePath: t.worktreePath });
  if (t.paneId && deps.panes.isLive(t.paneId))
    throw new YardError("CONFLICT", `The task's agent is still running in pane ${t.paneId}`, { paneId: t.paneId });
  if (t.agent === "custom")
    throw new YardError(
      "BAD_PARAMS",
      "The task runs a custom command, not an agent profile; only Claude Code and Codex sessions can be resumed",
    );
  const profile = await deps.agents.get(t.agent);
  const kind = agentKindOf({ profileId: profile.id, argv: profile.argv });
  if (!kind)
    throw new YardError(
      "BAD_PARAMS",
      `The agent profile ${profile.id} runs neither Claude Code nor Codex; its sessions cannot be resumed`,
      { agent: profile.id },
    );
  const sessionId = t.agentSessionId;
  const rewriteArgv =
    kind === "claude"
      ? (argv: string[]) => [...argv, "--resume", sessionId]
      : (argv: string[]) => codexResumeArgv(argv, sessionId);
  const sandbox = t.sandboxed ? await sandboxFor(eng, true, profile) : null;
  const trustDir = await trustDirOf(eng, t);
  const launch = await deps.panes.resolveLaunch({ agent: profile.id });
  const pane = await spawnWorker(
    eng,
    {
      id: taskId,
      title: t.title,
      agentId: profile.id,
      argv: null,
      launch,
      parentPaneId: t.parentPaneId,
      sandbox,
      trustDir,
      rewriteArgv,
      onRunner: t,
    },
    t.worktreePath,
  );
  const prompt = opts.prompt ?? RESUME_PROMPT;
  try {
    await apply(eng, taskId, { type: "resume", sessionId }, { round: { prompt, paneId: pane.id } });
  } catch (e) {
    await deps.panes.kill(pane.id).catch(() => {});
    throw e;
  }
  await deps.journal.append("task.resumed", {
    taskId,
    paneId: pane.id,
    payload: { round: t.round + 1, sessionId, agent: profile.id },
  });
  runInBackground(eng, taskId, pane.id, prompt, {
    readyTimeoutMs: opts.readyTimeoutMs,
    stallMs: opts.stallMs,
    round: t.round + 1,
  });
  return { task: await get(eng, taskId), pane };
}
