// The task engine's façade: `TaskEngine` keeps one shared state (engine-state.ts) and hands each call
// to the module that owns it — start.ts (validate, launch plan, worktree, pane, backlog starts),
// runner.ts (the background runner, the pane's lifecycle), wait.ts, report.ts (report, cancel),
// rounds.ts (next round, follow-up, resume, round records), diff.ts (diff, snapshot), finish.ts
// (merge, discard; finish-pr.ts: merged on GitHub), recovery.ts (restart, shutdown) and views.ts (TaskView, get, list, events,
// board). Every state change goes through the pure reducer in state.ts (engine-state.ts `apply`) and
// is journaled as task.* events.
import type { YardEvent } from "../events/journal";
import type { DiffTotals } from "../git";
import type { PaneInfo } from "../panes/manager";
import { type Board, loadDonePage } from "./board";
import type { DonePage } from "../../wire/board";
import {
  apply,
  type ApplyExtra,
  createEngineState,
  maxActive,
  type EngineState,
  type TaskEngineDeps,
  taskRow,
} from "./engine-state";
import type { TaskEvent } from "./state";
import type { TaskRow } from "../../stores/tasks";
import * as diffs from "./diff";
import { finish, type Finisher, type FinishOptions, uncommitted } from "./finish";
import { finishViaPullRequest, type MergedPullRequest } from "./finish-pr";
import { recover, shutdown } from "./recovery";
import { cancel, report } from "./report";
import { followUp, resume, roundRecords, type RoundRecord, startNextRound } from "./rounds";
import { onPaneTransition } from "./runner";
import { onSetupHook } from "./setup";
import { start, startBacklog, type StartCaller, type StartInput } from "./start";
import { taskPorts } from "./task-ports";
import * as views from "./views";
import type { TaskView } from "./views";
import type { InsightTask } from "../insights/insights";
import type { InsightQuery } from "../../stores/tasks";
import { wait, type WaitOptions } from "./wait";
import { recoverUpdates, settleUpdate, updateTaskBranch } from "./update-branch";
import type { ReportInput } from "../../wire/tasks";

export type { TaskEngineDeps } from "./engine-state";
export type { TaskDiff } from "./diff";
export type { FinishOptions } from "./finish";
export type { RoundRecord } from "./rounds";
export type { StartInput } from "./start";
export type { TaskView } from "./views";

export class TaskEngine {
  private readonly eng: EngineState;

  constructor(deps: TaskEngineDeps) {
    this.eng = createEngineState(deps);
  }

  get maxActive() {
    return maxActive(this.eng);
  }

  /** Applies one reducer event to a task, in order with its other changes (a worker's question). */
  applyEvent(taskId: string, event: TaskEvent, extra?: ApplyExtra): Promise<{ changed: boolean; state: string }> {
    return apply(this.eng, taskId, event, extra);
  }

  /** The task's row (NOT_FOUND when there is none), for services that read fields the view has no need of. */
  row(taskId: string): Promise<TaskRow> {
    return taskRow(this.eng, taskId);
  }

  /** Pane manager's view of a task's state (pending tasks refuse prompts). */
  cachedState(taskId: string): string | null {
    return this.eng.stateCache.get(taskId) ?? null;
  }

  /**
   * Starts a task now, or with `backlog: true` records it in the backlog (validated exactly like
   * a start; no worktree, branch or pane until startBacklog).
   */
  start(raw: StartInput, caller: StartCaller = {}): Promise<{ task: TaskView; pane: PaneInfo | null }> {
    return start(this.eng, raw, caller);
  }

  /** Starts a backlog task: the cap, then worktree, branch, pane and the contract, as any start. */
  startBacklog(taskId: string): Promise<{ task: TaskView; pane: PaneInfo }> {
    return startBacklog(this.eng, taskId);
  }

  /** The pane manager reports every lifecycle transition of a task's pane here (`lost`: its host died). */
  onPaneTransition(
    info: PaneInfo,
    to: string,
    from: string,
    lastMessage: string | undefined,
    lost?: string,
    lastStop?: { failed: boolean; error?: string } | null,
  ) {
    onPaneTransition(this.eng, info, to, from, lastMessage, lost, lastStop);
  }

  report(
    raw: ReportInput,
    caller: { paneId: string | null; paneTaskId: string | null; admin: boolean },
  ): Promise<TaskView> {
    return report(this.eng, raw, caller);
  }

  cancel(taskId: string): Promise<TaskView> {
    return cancel(this.eng, taskId);
  }

  /** Round N+1 on the same worktree with `feedback` as its prompt (a review requested changes). */
  startNextRound(taskId: string, feedback: string): Promise<TaskView> {
    return startNextRound(this.eng, taskId, feedback);
  }

  /** A follow-up prompt for an input_required task, through the submit gate to its live pane. */
  followUp(
    taskId: string,
    text: string,
    opts: { stallMs?: number } = {},
  ): Promise<{ task: TaskView; submit: { activitySeq: number; bracketed: boolean } }> {
    return followUp(this.eng, taskId, text, opts);
  }

  /** Every round's record, oldest first. */
  roundRecords(taskId: string): Promise<RoundRecord[]> {
    return roundRecords(this.eng, taskId);
  }

  /** A failed or canceled task's agent, continued in its recorded session in a fresh pane (a new round). */
  resume(
    taskId: string,
    opts: { prompt?: string; readyTimeoutMs?: number; stallMs?: number } = {},
  ): Promise<{ task: TaskView; pane: PaneInfo }> {
    return resume(this.eng, taskId, opts);
  }

  /** What a review sees: the worktree's state as a tree id (null when it is gone) and the branch's commit. */
  snapshot(taskId: string): Promise<{ tree: string | null; commit: string | null }> {
    return diffs.snapshot(this.eng, taskId);
  }

  /** The task's changes against its base commit: the live worktree, or its branch once the worktree is gone. */
  diff(taskId: string): Promise<diffs.TaskDiff> {
    return diffs.diff(this.eng, taskId);
  }

  /** The size of the task's changes against its base commit (files, lines added, lines deleted). */
  diffStat(taskId: string): Promise<DiffTotals> {
    return diffs.diffStat(this.eng, taskId);
  }

  /** The changes from a review's snapshot (a tree id) to the worktree now, in the same shape. */
  diffSince(taskId: string, tree: string): Promise<diffs.TaskDiff> {
    return diffs.diffSince(this.eng, taskId, tree);
  }

  /** The target's new commits into the task branch (merge, or rebase); conflicts become the live agent's round (update-branch.ts). */
  updateBranch(taskId: string, opts: { rebase?: boolean } = {}) {
    return updateTaskBranch(this.eng, taskId, opts);
  }

  /** Settles an update whose conflicts the agent was resolving, once it committed (or gave up). */
  settleUpdate(taskId: string): Promise<void> {
    return settleUpdate(this.eng, taskId);
  }

  /** At start-up: updates whose git outlived the previous server are settled or undone. */
  recoverUpdates(): Promise<void> {
    return recoverUpdates(this.eng);
  }

  finish(taskId: string, opts: FinishOptions, by?: Finisher) {
    return finish(this.eng, taskId, opts, by);
  }

  /** A task whose pull request merged on GitHub: finished as merged once it is completed (finish-pr.ts). */
  finishViaPullRequest(taskId: string, pr: MergedPullRequest) {
    return finishViaPullRequest(this.eng, taskId, pr);
  }

  /** The uncommitted files a discard of the task would lose now. */
  uncommitted(taskId: string) {
    return uncommitted(this.eng, taskId);
  }

  wait(opts: WaitOptions): Promise<TaskView[]> {
    return wait(this.eng, opts);
  }

  get(id: string): Promise<TaskView> {
    return views.get(this.eng, id);
  }

  list(filter: { contextId?: string; states?: string[]; projectId?: string } = {}): Promise<TaskView[]> {
    return views.list(this.eng, filter);
  }

  /** The tasks Insights counts (started in the window, or finished in it), each with its token use when known. */
  insightTasks(q: InsightQuery): Promise<InsightTask[]> {
    return views.insightTasks(this.eng, q);
  }

  events(taskId: string, since?: number): Promise<YardEvent[]> {
    return views.events(this.eng, taskId, since);
  }

  board(projectId: string): Promise<Board> {
    return views.board(this.eng, projectId);
  }

  /** One page of a project's Done cards, newest first. */
  donePage(projectId: string, q: { cursor?: string; limit: number }): Promise<DonePage> {
    return loadDonePage(this.eng.store, projectId, q);
  }

  /** Tasks not yet settled for good (pending, working, input_required), optionally of one profile. */
  activeCount(filter: { agent?: string } = {}): Promise<number> {
    return views.activeCount(this.eng, filter);
  }

  /** The setup wrapper's progress post from a task's pane (core/tasks/setup.ts). */
  onSetupProgress(info: PaneInfo, payload: Record<string, unknown>): void {
    onSetupHook(this.eng, info, payload);
  }

  /** The task's ports, each with whether something listens on 127.0.0.1 there (the Preview links). */
  ports(taskId: string) {
    return taskRow(this.eng, taskId).then(() => taskPorts(this.eng, taskId));
  }

  /** On start-up: tasks whose pane survived keep their state; those whose pane is gone fail with evidence. */
  recover(lostPanes: Map<string, string>): Promise<void> {
    return recover(this.eng, lostPanes);
  }

  async shutdown() {
    shutdown(this.eng);
  }
}
