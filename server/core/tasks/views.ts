// The task engine's reads: a task row (plus its current round and live pane) mapped to the
// TaskView callers see, get and list (batched current-round reads), a task's events, the board
// and the active count.
import type { Same } from "../../wire/common";
import type { TaskResult, TaskView } from "../../wire/tasks";
import { type TranscriptDeps, transcriptRootsOf, transcriptUsage } from "../agents/sessions";
import type { YardEvent } from "../events/journal";
import type { ReviewStatus } from "../../wire/reviews";
import { reviewStatuses } from "../reviews/approval";
import type { InsightQuery, TaskRow } from "../../stores/tasks";
import type { InsightTask } from "../insights/insights";
import { type Board, loadBoard } from "./board";
import { cardLine } from "./card-line";
import { behindOf, updatingOf } from "./branch-view";
import type { BehindRow } from "../../stores/branches";
import type { MergeStrategy } from "../../wire/branches";
import type { AutoStartWhen, Waiting } from "./dependencies";
import { json, type EngineState, taskRow } from "./engine-state";
import { ACTIVE_STATES, type Evidence, type ReportStatus, type TaskState } from "./state";
import { setupViews } from "./task-ports";
import { type ApprovalRule, type ApprovalState, approvalShortfall, approvalState } from "./approvals";

export type { TaskResult, TaskView };

// The view's types come from the task contract; the part the core owns is checked equal to it, so
// the output schema never strips a value the core reports. (The task states need no check: the
// reducer takes its list from the wire schema.)
const checks: [Same<TaskResult["status"], ReportStatus>] = [true];
void checks;

export async function get(eng: EngineState, id: string): Promise<TaskView> {
  return (await views(eng, [await taskRow(eng, id)]))[0]!;
}

export async function list(
  eng: EngineState,
  filter: { contextId?: string; states?: string[]; projectId?: string } = {},
): Promise<TaskView[]> {
  return views(eng, await eng.store.list(filter));
}

/** Rows to views; each task's current round (result, review verdict) comes from one batched read, not one query per task. */
async function views(eng: EngineState, rows: TaskRow[]): Promise<TaskView[]> {
  const current = await eng.store.currentRounds(rows);
  const statuses = await reviewStatuses(
    rows.map((r) => ({
      ...r,
      verdict: current.get(r.id)?.verdict ?? null,
      reviewedCommit: current.get(r.id)?.reviewedCommit ?? null,
    })),
  );
  const waiting =
    (await eng.deps.dependencies?.waitingMany(
      rows.map((r) => ({ id: r.id, autoStartWhen: r.autoStartWhen as AutoStartWhen | null })),
    )) ?? new Map<string, Waiting>();
  const setups = await setupViews(
    eng,
    rows.map((r) => r.id),
  );
  // Each project's reviewer (a task without its own inherits it) and approval rule, read once for the whole list.
  const projects = new Map<string, { reviewer: string | null; rule: ApprovalRule | null }>();
  for (const id of new Set(rows.map((r) => r.projectId).filter((p): p is string => p !== null))) {
    const p = await eng.deps.projects.get(id).catch(() => null);
    projects.set(id, {
      reviewer: p?.reviewerProfile ?? null,
      rule: p?.requiredApprovals ? { required: p.requiredApprovals, noSelfApproval: p.noSelfApproval } : null,
    });
  }
  const behind = (await eng.deps.branches?.behindMany(rows.map((r) => r.id))) ?? new Map<string, BehindRow>();
  return Promise.all(
    rows.map((r) =>
      view(
        eng,
        r,
        { result: current.get(r.id)?.result ?? null, reviewStatus: statuses.get(r.id) ?? "none" },
        waiting.get(r.id) ?? null,
        r.reviewerProfile ?? (r.projectId ? (projects.get(r.projectId)?.reviewer ?? null) : null),
        setups.get(r.id) ?? null,
        behind.get(r.id),
        r.projectId ? (projects.get(r.projectId)?.rule ?? null) : null,
      ),
    ),
  );
}

async function view(
  eng: EngineState,
  r: TaskRow,
  current: { result: string | null; reviewStatus: ReviewStatus },
  waiting: Waiting | null,
  reviewer: string | null,
  setup: TaskView["setup"],
  behind: BehindRow | undefined,
  rule: ApprovalRule | null,
): Promise<TaskView> {
  const evidence = json<Evidence | null>(r.evidence, null);
  // What the merge waits for under the project's required approvals (the commit the merge takes is the latest approval's).
  let approvals: ApprovalState | null = null;
  if (rule && !r.disposition) {
    const latest = await eng.deps.approval?.(r.id, r.round);
    const approvers = latest?.commit ? ((await eng.deps.approvers?.(r.id, r.round, latest.commit)) ?? []) : [];
    approvals = approvalState(rule, approvers, r.startedBy);
  }
  const pane =
    r.paneId && eng.deps.panes.isLive(r.paneId) ? await eng.deps.panes.get(r.paneId).catch(() => null) : null;
  return {
    id: r.id,
    title: r.title,
    state: r.state as TaskState,
    round: r.round,
    label: r.label,
    contextId: r.contextId,
    projectId: r.projectId,
    repoPath: r.repoPath,
    agent: r.agent,
    contract: {
      objective: r.objective,
      constraints: json(r.constraints, []),
      acceptanceCriteria: json(r.acceptanceCriteria, []),
      outputFormat: r.outputFormat,
    },
    baseRef: r.baseRef,
    baseSha: r.baseSha,
    targetBranch: r.targetBranch,
    branch: r.branch,
    branchPreexisting: r.branchPreexisting,
    worktreePath: r.worktreePath,
    paneId: r.paneId,
    parentPaneId: r.parentPaneId,
    parentTaskId: r.parentTaskId,
    rootTaskId: r.rootTaskId,
    startedBy: r.startedBy ?? null,
    approvals: approvals && { ...approvals, why: approvalShortfall(approvals) },
    result: json<TaskResult | null>(current.result, null),
    evidence,
    reviewStatus: current.reviewStatus,
    sandboxed: r.sandboxed,
    runner: r.runner,
    // The last known usage; the transcript (a file the agent controls) is read in the background, never here.
    agentSession: r.agentSessionId
      ? {
          id: r.agentSessionId,
          transcriptPath: r.agentTranscriptPath,
          tokens: transcriptUsage.peek(r.id, r.agentTranscriptPath, () => transcriptRootsOf(r, transcriptDeps(eng))),
        }
      : null,
    statusLine:
      r.state === "backlog" && waiting && !waiting.ready
        ? waiting.reason
        : r.state === "completed" && !r.disposition && r.agentReviewState === "running"
          ? "Agent review running"
          : cardLine({ state: r.state, evidence, pane }),
    disposition: (r.disposition as TaskView["disposition"]) ?? null,
    mergeCommit: r.mergeCommit,
    mergeStrategy: (r.mergeStrategy as MergeStrategy | null) ?? null,
    behind: behindOf(r, behind),
    updating: updatingOf(r),
    cleanupError: r.cleanupError,
    finishedAt: r.finishedAt?.toISOString() ?? null,
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
    waiting,
    acknowledgedAt: r.resultAckedAt?.toISOString() ?? null,
    agentReview: { reviewer, state: r.agentReviewState, paneId: r.agentReviewPaneId, runs: r.agentReviewRuns },
    setup,
  };
}

/** What finding a task's transcript directory needs (its agent's launch, its sandbox home). */
/** Tasks for Insights: the rows the store selects, with the last known token use of each (never read here). */
export async function insightTasks(eng: EngineState, q: InsightQuery): Promise<InsightTask[]> {
  const rows = await eng.store.insightRows(q);
  return rows.map((r) => ({
    id: r.id,
    agent: r.agent,
    createdAt: r.createdAt,
    finishedAt: r.finishedAt,
    disposition: r.disposition,
    state: r.state,
    round: r.round,
    tokens: r.agentSessionId
      ? (transcriptUsage.peek(r.id, r.agentTranscriptPath, () => transcriptRootsOf(r, transcriptDeps(eng)))
          ?.totalTokens ?? null)
      : null,
  }));
}

function transcriptDeps(eng: EngineState): TranscriptDeps {
  return {
    resolveLaunch: (o) => eng.deps.panes.resolveLaunch(o),
    sandboxHome: (taskId) => {
      try {
        return eng.deps.sandbox?.dirs(taskId).home ?? null;
      } catch {
        return null;
      }
    },
  };
}

export async function events(eng: EngineState, taskId: string, since?: number): Promise<YardEvent[]> {
  await taskRow(eng, taskId);
  return eng.deps.journal.list({ taskId, since });
}

export function board(eng: EngineState, projectId: string): Promise<Board> {
  const deps = eng.deps.dependencies;
  return loadBoard(
    eng.store,
    projectId,
    eng.deps.panes,
    deps ? (tasks) => deps.waitingMany(tasks) : undefined, // by id: the board holds a page of the project's history
  );
}

/** Tasks not yet settled for good (pending, working, input_required), optionally of one profile. */
export function activeCount(eng: EngineState, filter: { agent?: string } = {}): Promise<number> {
  return eng.store.activeCount(ACTIVE_STATES, filter);
}
