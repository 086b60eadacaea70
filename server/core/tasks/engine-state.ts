// The task engine's shared internals, handed to the free functions of each concern (start, runner,
// wait, report, rounds, diff, finish, recovery, views): the dependencies, the store, the in-memory
// bookkeeping (runners, starts in flight, finishes in flight, the state cache, the per-task chain)
// and the one path for state changes, `apply`, which runs every event through the reducer in
// state.ts, persists what the transition says and journals it.
import { inTurn } from "../serial";
import type { RunnerPort } from "./on-runner";
import type { AgentProfiles } from "../agents/profiles";
import { YardError } from "../errors";
import type { EventJournal } from "../events/journal";
import type { PaneManager } from "../panes/manager";
import type { Launch } from "../panes/launch";
import type { Projects } from "../projects/projects";
import type { Sandbox } from "../sandbox/sandbox";
import type { TaskRow, TaskStore } from "../../stores/tasks";
import type { TaskSetupStore } from "../../stores/task-setup";
import type { PortRange } from "../repo/ports";
import type { BranchStore } from "../../stores/branches";
import type { BaseMove } from "../reviews/reanchor";
import type { Contract } from "./contract";
import type { TaskDependencies } from "./dependencies";
import { movesColumn } from "./board";
import { type Disposition, type TaskEvent, type TaskState, transition } from "./state";
import type { TaskResult } from "./views";

const DEFAULT_MAX_ACTIVE = 4;

/** What the launch hook is told before an agent starts for a task (any round, or a resume). */
export interface BeforeLaunch {
  taskId: string;
  launch: Launch;
  cwd: string;
  /** the repository to record the agent's workspace trust for; null when the project says no (or has none) */
  trustDir: string | null;
  /** the sandbox's private home, when the agent runs sandboxed */
  sandboxHome: string | null;
}

export interface TaskEngineDeps {
  journal: EventJournal;
  panes: PaneManager;
  agents: AgentProfiles;
  projects: Projects;
  home: string;
  maxActive?: number;
  readyTimeoutMs?: number;
  /** Persistence: tasks, rounds, the board's reads. */
  store: TaskStore;
  /** The OS sandbox for tasks that ask for it (none: such starts are SANDBOX_UNAVAILABLE). */
  sandbox?: Sandbox;
  /** How long a start-up dialog may wait for a human (YARD_DIALOG_TIMEOUT_MS; default: the ready timeout). */
  dialogTimeoutMs?: number;
  /** Prepares the agent's own config right before it launches (core/agents/launch-prep.ts). */
  beforeLaunch?: (b: BeforeLaunch) => Promise<void>;
  /** false when a start-up dialog is on the pane's screen (core/agents/screen-watch.ts): never type a prompt into one. */
  confirmReady?: (paneId: string) => Promise<boolean>;
  /** Dependencies between tasks (waiting, auto-start); without it a start with dependsOn is refused. */
  dependencies?: TaskDependencies;
  /** Ready worktrees: each task's recorded repository config and ports (none: `.switchyard.json` is not read). */
  setups?: TaskSetupStore;
  /** Where tasks' ports come from (YARD_PORT_RANGE; default 41000-41999). */
  portRange?: PortRange;
  /** How long one teardown command may run (YARD_TEARDOWN_TIMEOUT_MS; default 60 s). */
  teardownTimeoutMs?: number;
  /** What the round's latest review approved (the review store's): a merge takes exactly that commit, or refuses. */
  approval?: (taskId: string, round: number) => Promise<{ commit: string | null; tree: string | null } | null>;
  /** The people who approved the round at this commit (required approvals count them). */
  approvers?: (taskId: string, round: number, commit: string | null) => Promise<string[]>;
  /** Behind counts, updates in flight, moved bases, how merges landed (update-branch.ts); without it a branch is never updated. */
  branches?: BranchStore;
  /** Moves the line comments of a round when the task's base moves (the review service's). */
  reanchor?: (taskId: string, move: BaseMove) => Promise<{ moved: number; outdated: number }>;
  /** The runners tasks may run on (none: every task runs on this machine). */
  runners?: RunnerPort;
}

export interface EngineState {
  readonly deps: TaskEngineDeps;
  readonly store: TaskStore;
  /** Each task's background runner (wait for ready, submit the round's prompt) and the pane it waits on. */
  readonly runners: Map<string, { ac: AbortController; paneId: string }>;
  /** Starts past the cap check whose task is not recorded as pending yet (they count against the cap). */
  readonly launching: Set<string>;
  /** Tasks a merge or discard is finishing right now. */
  readonly finishing: Set<string>;
  readonly stateCache: Map<string, TaskState>;
  /** Serializes state changes per task so concurrent events apply in order. */
  readonly chains: Map<string, Promise<unknown>>;
  /** Serializes the cap check and worktree creation of starts. */
  startLock: Promise<unknown>;
  /** During shutdown panes are killed on purpose: their tasks are judged at the next start. */
  closing: boolean;
}

export function createEngineState(deps: TaskEngineDeps): EngineState {
  return {
    deps,
    store: deps.store,
    runners: new Map(),
    launching: new Set(),
    finishing: new Set(),
    stateCache: new Map(),
    chains: new Map(),
    startLock: Promise.resolve(),
    closing: false,
  };
}

export const maxActive = (eng: EngineState): number => eng.deps.maxActive ?? DEFAULT_MAX_ACTIVE;

export async function taskRow(eng: EngineState, id: string): Promise<TaskRow> {
  const row = await eng.store.row(id);
  if (!row) throw new YardError("NOT_FOUND", `No task ${id}`, { taskId: id });
  return row;
}

/** How a task's worktree and agent start; kept with a backlog task until it starts. */
export interface LaunchOptions {
  branch: string;
  baseRef: string | null;
  fetch: boolean;
  path: string | null;
  readyTimeoutMs: number | null;
  stallMs: number | null;
  dialogTimeoutMs?: number | null;
}

/** A task's branch when none is given: yard/<title as a slug>-<part of its id>. */
export function defaultBranch(title: string, id: string): string {
  const slug =
    title
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-+|-+$/g, "")
      .slice(0, 40) || "task";
  return `yard/${slug}-${id.slice(3, 9)}`;
}

export const json = <T>(s: string | null | undefined, fallback: T): T => {
  if (!s) return fallback;
  try {
    return JSON.parse(s) as T;
  } catch {
    return fallback;
  }
};

export function contractOf(r: TaskRow): Contract {
  return {
    objective: r.objective,
    constraints: json<string[]>(r.constraints, []),
    acceptanceCriteria: json<string[]>(r.acceptanceCriteria, []),
    outputFormat: r.outputFormat ?? undefined,
  };
}

export type ApplyExtra = {
  result?: TaskResult;
  round?: { prompt: string; paneId: string };
  finished?: { mergeCommit?: string | null; cleanupError?: string | null };
  /** Only while this is the task's pane (an event from an old round's pane changes nothing). */
  forPane?: string;
};

/**
 * Applies one event through the reducer, persists it and journals it. Serialized per task.
 * A transition that starts a round (next_round, resume) writes a new round row with
 * `extra.round`'s prompt and pane instead of touching the current one. A transition that
 * finishes the task (merged, discarded) records the disposition the reducer decided, with
 * `extra.finished`.
 */
export function apply(
  eng: EngineState,
  taskId: string,
  event: TaskEvent,
  extra: ApplyExtra = {},
): Promise<{ changed: boolean; state: TaskState }> {
  const run = async () => {
    const row = await taskRow(eng, taskId);
    if (extra.forPane !== undefined && row.paneId !== extra.forPane)
      return { changed: false, state: row.state as TaskState };
    const t = transition(row.state as TaskState, event, (row.disposition as Disposition | null) ?? null);
    if (!t.changed) return { changed: false, state: t.state };
    const now = new Date();
    // The board shows how long a card has been in its column: noted when a change moves it.
    const moved = movesColumn(
      { state: row.state, disposition: row.disposition },
      { state: t.state, disposition: t.disposition ?? row.disposition },
    );
    const columnSince = moved ? now : undefined;
    let round = row.round;
    let paneId = row.paneId;
    if (t.startsRound) {
      if (!extra.round) throw new YardError("INTERNAL", "A new round needs its prompt and pane");
      round = row.round + 1;
      paneId = extra.round.paneId;
      await eng.store.startRound(taskId, {
        previous: row.round,
        next: round,
        state: t.state,
        prompt: extra.round.prompt,
        paneId,
        at: now,
        columnSince,
      });
    } else {
      await eng.store.applyTransition(taskId, row.round, {
        state: t.state,
        ...(t.evidence !== undefined ? { evidence: t.evidence ? JSON.stringify(t.evidence) : null } : {}),
        ...(extra.result ? { result: JSON.stringify(extra.result) } : {}),
        ...(t.endsRound ? { endsRoundAt: now } : {}),
        ...(t.disposition ? { finished: { disposition: t.disposition, at: now, ...extra.finished } } : {}),
        columnSince,
      });
    }
    eng.stateCache.set(taskId, t.state);
    if (extra.result)
      await eng.deps.journal.append("task.result", { taskId, paneId, payload: { round, ...extra.result } });
    if (t.state !== row.state || t.evidence !== undefined) {
      await eng.deps.journal.append("task.state", {
        taskId,
        paneId,
        payload: { from: row.state as TaskState, to: t.state, cause: event.type, round, evidence: t.evidence ?? null },
      });
    }
    // A failed task never leaves its agent running behind the card.
    if (t.state === "failed" && row.state !== "failed" && paneId && eng.deps.panes.isLive(paneId))
      void eng.deps.panes.kill(paneId).catch(() => {});
    return { changed: true, state: t.state };
  };
  return inTurn(eng.chains, taskId, run);
}
