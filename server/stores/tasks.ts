// Persistence for the task engine's newer paths: creating started and backlog tasks, starting a
// review round (a new TaskRound row; the old round's record is left as it was), the rounds read,
// the batched per-task reads that list views need (current round's result and review verdict,
// never one query per task), the board's single task query and the diff sizes it shows (taken by
// core/tasks/diff-stats.ts). The engine's older queries still call Prisma directly and move here
// over time.
import type { Db } from "../db";
import { newId } from "../core/ids";
import { PaneStore } from "./panes";
import { BoardStore } from "./board";

export type TaskRow = NonNullable<Awaited<ReturnType<Db["task"]["findUnique"]>>>;
export type RoundRow = NonNullable<Awaited<ReturnType<Db["taskRound"]["findUnique"]>>>;
export type DiffStatRow = NonNullable<Awaited<ReturnType<Db["taskDiffStat"]["findUnique"]>>>;

/** The columns a task is created with, whether it starts now or waits in the backlog. */
/** Which tasks Insights counts. */
export interface InsightQuery {
  projectId?: string;
  agent?: string;
  /** Who started them (a person's name). */
  person?: string;
  from: Date;
  to: Date;
}

export interface TaskFields {
  id: string;
  title: string;
  label: string | null;
  contextId: string | null;
  projectId: string | null;
  repoPath: string;
  agent: string;
  argv: string | null;
  objective: string;
  constraints: string;
  acceptanceCriteria: string;
  outputFormat: string | null;
  parentTaskId: string | null;
  rootTaskId: string;
  parentPaneId: string | null;
  baseRef: string | null;
  /** The agent runs (or will run) in the OS sandbox. */
  sandboxed: boolean;
  /** The agent reviewer named at start (else the project's), and the planner of a --needs-plan task. */
  reviewerProfile?: string | null;
  plannerProfile?: string | null;
  planReviewerProfile?: string | null;
  requiresPlanning?: boolean;
  /** Who started it: a person's name, or the starting pane's id. */
  startedBy?: string | null;
  /** The runner it runs on (a backlog task: the one it was asked to run on); null: this machine. */
  runner?: string | null;
}

/** Where a started task runs: recorded when its worktree and pane exist. */
export interface LaunchFields {
  baseSha: string;
  targetBranch: string | null;
  branch: string;
  branchPreexisting: boolean;
  worktreePath: string;
  paneId: string;
  /** Round 1's prompt: the rendered contract. */
  prompt: string;
  /** The runner its agent runs on (null: this machine). */
  runner: string | null;
}

/** One board row: the task's card columns plus what the card derives from its rounds and reviews. */
export interface BoardRow {
  id: string;
  title: string;
  label: string | null;
  state: string;
  disposition: string | null;
  agent: string;
  round: number;
  branch: string | null;
  repoPath: string;
  contextId: string | null;
  paneId: string | null;
  /** JSON: why the task is where it is (for the card's line). */
  evidence: string | null;
  createdAt: Date;
  updatedAt: Date;
  /** When the task entered its column (null: recorded before this was kept). */
  columnSince: Date | null;
  /** The task's diff size, as last taken (null: not taken yet). */
  diffStat: { files: number; additions: number; deletions: number } | null;
  /** The current round's latest review verdict (null: none). */
  verdict: string | null;
  /** The branch commit that review saw (null: none, or recorded before reviews were pinned). */
  reviewedCommit: string | null;
  /** When the task starts by itself once its dependencies are met (null: by hand). */
  autoStartWhen: string | null;
  /** Who started it: a person's name, or the starting pane's id. */
  startedBy: string | null;
  /** The runner its agent runs on (null: this machine). */
  runner: string | null;
}

export class TaskStore {
  /** The board's blocked-pane read goes through the pane store, the only code on the Pane table. */
  private readonly panes: PaneStore;

  /** `owner`: this server's instance id, recorded on the merges it starts (see mergesInFlight). */
  /** The board's reads (cards not in Done, Done page by page): their own store, on the same table. */
  readonly board: BoardStore;

  constructor(
    private readonly db: Db,
    private readonly owner: string | null = null,
  ) {
    this.panes = new PaneStore(db, owner);
    this.board = new BoardStore(db);
  }

  row(id: string): Promise<TaskRow | null> {
    return this.db.task.findUnique({ where: { id } });
  }

  activeCount(states: readonly string[], filter: { agent?: string; runner?: string } = {}): Promise<number> {
    return this.db.task.count({ where: { agent: filter.agent, runner: filter.runner, state: { in: [...states] } } });
  }

  list(filter: { contextId?: string; states?: string[]; projectId?: string } = {}): Promise<TaskRow[]> {
    return this.db.task.findMany({
      where: {
        contextId: filter.contextId,
        projectId: filter.projectId,
        state: filter.states?.length ? { in: filter.states } : undefined,
      },
      orderBy: { createdAt: "asc" },
    });
  }

  /** Tasks that are completed and not finished (merged or discarded) yet. */
  unfinishedCompleted(): Promise<TaskRow[]> {
    return this.db.task.findMany({ where: { state: "completed", disposition: null } });
  }

  async allStates(): Promise<Array<{ id: string; state: string }>> {
    return this.db.task.findMany({ select: { id: true, state: true } });
  }

  /** Tasks with a pane, for attention: id, state, evidence and when it last changed. */
  withPanes(): Promise<Array<{ id: string; state: string; evidence: string | null; updatedAt: Date }>> {
    return this.db.task.findMany({
      where: { paneId: { not: null } },
      select: { id: true, state: true, evidence: true, updatedAt: true },
    });
  }

  count(): Promise<number> {
    return this.db.task.count();
  }

  /**
   * One reducer transition, written as one transaction: the task's state, evidence and
   * disposition (with what finishing recorded), and the current round's state, result,
   * evidence and end.
   */
  async applyTransition(
    taskId: string,
    round: number,
    t: {
      state: string;
      evidence?: string | null;
      result?: string;
      endsRoundAt?: Date;
      finished?: { disposition: string; at: Date; mergeCommit?: string | null; cleanupError?: string | null };
      /** The change moved the task to another board column. */
      columnSince?: Date;
    },
  ): Promise<void> {
    const evidence = t.evidence !== undefined ? { evidence: t.evidence } : {};
    const finished = t.finished
      ? {
          disposition: t.finished.disposition,
          finishedAt: t.finished.at,
          ...(t.finished.mergeCommit !== undefined ? { mergeCommit: t.finished.mergeCommit } : {}),
          cleanupError: t.finished.cleanupError ?? null,
        }
      : {};
    await this.db.$transaction([
      this.db.task.update({
        where: { id: taskId },
        data: { state: t.state, ...evidence, ...finished, ...(t.columnSince ? { columnSince: t.columnSince } : {}) },
      }),
      this.db.taskRound.update({
        where: { taskId_number: { taskId, number: round } },
        data: {
          state: t.state,
          ...(t.result !== undefined ? { result: t.result } : {}),
          ...evidence,
          ...(t.endsRoundAt ? { endedAt: t.endsRoundAt } : {}),
        },
      }),
    ]);
  }

  /** The task's pane and the agent session its hooks reported (null: no such task). */
  agentSession(
    taskId: string,
  ): Promise<{ paneId: string | null; agentSessionId: string | null; agentTranscriptPath: string | null } | null> {
    return this.db.task.findUnique({
      where: { id: taskId },
      select: { paneId: true, agentSessionId: true, agentTranscriptPath: true },
    });
  }

  /** Records the agent's session id (and its transcript, when known). */
  async recordAgentSession(taskId: string, sessionId: string, transcriptPath: string | null): Promise<void> {
    await this.db.task.update({
      where: { id: taskId },
      data: { agentSessionId: sessionId, ...(transcriptPath ? { agentTranscriptPath: transcriptPath } : {}) },
    });
  }

  /** The agent reviewer stage of a task: its state, its pane, and one more run when it starts. */
  async setAgentReview(
    taskId: string,
    r: { state: string | null; paneId?: string | null; started?: boolean },
  ): Promise<void> {
    await this.db.task.update({
      where: { id: taskId },
      data: {
        agentReviewState: r.state,
        ...(r.paneId !== undefined ? { agentReviewPaneId: r.paneId } : {}),
        ...(r.started ? { agentReviewRuns: { increment: 1 } } : {}),
      },
    });
  }

  /** Tasks whose agent reviewer was running (checked after a restart). */
  agentReviewsRunning(): Promise<TaskRow[]> {
    return this.db.task.findMany({ where: { agentReviewState: "running" } });
  }

  /** Records (JSON) or clears the merge in flight: written before git merges, cleared once its outcome is recorded. */
  async setMergeInFlight(taskId: string, value: string | null): Promise<void> {
    const note =
      value === null || this.owner === null ? value : JSON.stringify({ ...JSON.parse(value), owner: this.owner });
    await this.db.task.update({ where: { id: taskId }, data: { mergeInFlight: note } });
  }

  /**
   * Tasks whose merge this server started and whose outcome was never recorded (it died
   * meanwhile); a merge another server sharing the database has in flight is that server's.
   */
  async mergesInFlight(): Promise<TaskRow[]> {
    const rows = await this.db.task.findMany({ where: { mergeInFlight: { not: null } } });
    return rows.filter((r) => {
      try {
        const owner = (JSON.parse(r.mergeInFlight!) as { owner?: unknown } | null)?.owner;
        return owner === undefined || owner === this.owner;
      } catch {
        return true;
      }
    });
  }

  async setCleanupError(taskId: string, error: string | null): Promise<void> {
    await this.db.task.update({ where: { id: taskId }, data: { cleanupError: error } });
  }

  /** A task that starts now: pending, with round 1 and its prompt. */
  async createStarted(t: TaskFields, l: LaunchFields): Promise<void> {
    const { prompt, ...where } = l;
    await this.db.task.create({
      data: {
        ...t,
        ...where,
        state: "pending",
        round: 1,
        columnSince: new Date(),
        rounds: { create: { id: newId("rnd"), number: 1, state: "pending", paneId: l.paneId, prompt } },
      },
    });
  }

  /** A task that waits in the backlog: its contract, project and agent, no worktree, branch or pane yet. */
  async createBacklog(t: TaskFields, startOptions: Record<string, unknown>): Promise<void> {
    await this.db.task.create({
      data: {
        ...t,
        state: "backlog",
        round: 1,
        columnSince: new Date(),
        startOptions: JSON.stringify(startOptions),
        rounds: { create: { id: newId("rnd"), number: 1, state: "backlog" } },
      },
    });
  }

  /** A backlog task got its worktree and pane (its state moves through the reducer next). */
  async recordLaunch(taskId: string, l: LaunchFields): Promise<void> {
    const { prompt, ...where } = l;
    await this.db.$transaction([
      this.db.task.update({ where: { id: taskId }, data: { ...where, startOptions: null } }),
      this.db.taskRound.update({
        where: { taskId_number: { taskId, number: 1 } },
        data: { paneId: l.paneId, prompt, startedAt: new Date() },
      }),
    ]);
  }

  /**
   * Round `next` starts in `state`: the task moves to it and a new round row is written. The old
   * round keeps its state, result and evidence; only an open end time is closed.
   */
  async startRound(
    taskId: string,
    r: {
      previous: number;
      next: number;
      state: string;
      prompt: string;
      paneId: string;
      at: Date;
      /** The new round moved the task to another board column. */
      columnSince?: Date;
    },
  ): Promise<void> {
    await this.db.$transaction([
      // A new round's result needs its own acknowledgement.
      this.db.task.update({
        where: { id: taskId },
        data: {
          state: r.state,
          round: r.next,
          paneId: r.paneId,
          evidence: null,
          resultAckedAt: null,
          ...(r.columnSince ? { columnSince: r.columnSince } : {}),
        },
      }),
      this.db.taskRound.updateMany({ where: { taskId, number: r.previous, endedAt: null }, data: { endedAt: r.at } }),
      this.db.taskRound.create({
        data: {
          id: newId("rnd"),
          taskId,
          number: r.next,
          state: r.state,
          prompt: r.prompt,
          paneId: r.paneId,
          startedAt: r.at,
        },
      }),
    ]);
  }

  rounds(taskId: string): Promise<RoundRow[]> {
    return this.db.taskRound.findMany({ where: { taskId }, orderBy: { number: "asc" } });
  }

  /** For each task, its current round's result (JSON text) and latest review verdict: two reads for any number of tasks (Prisma splits very long id lists). */
  async currentRounds(
    tasks: Array<{ id: string; round: number }>,
  ): Promise<Map<string, { result: string | null; verdict: string | null; reviewedCommit: string | null }>> {
    const out = new Map<string, { result: string | null; verdict: string | null; reviewedCommit: string | null }>();
    if (tasks.length === 0) return out;
    const round = new Map(tasks.map((t) => [t.id, t.round]));
    const ids = [...round.keys()];
    const [rounds, reviews] = await Promise.all([
      this.db.taskRound.findMany({
        where: { taskId: { in: ids } },
        select: { taskId: true, number: true, result: true },
      }),
      // No orderBy: Prisma splits a long `in` list over several statements only for unordered reads.
      this.db.review.findMany({
        where: { taskId: { in: ids } },
        select: { id: true, taskId: true, round: true, verdict: true, reviewedCommit: true, createdAt: true },
      }),
    ]);
    for (const id of ids) out.set(id, { result: null, verdict: null, reviewedCommit: null });
    for (const r of rounds) if (round.get(r.taskId) === r.number) out.get(r.taskId)!.result = r.result;
    reviews.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    // oldest first: the last one wins
    for (const v of reviews)
      if (round.get(v.taskId) === v.round)
        Object.assign(out.get(v.taskId)!, { verdict: v.verdict, reviewedCommit: v.reviewedCommit });
    return out;
  }

  /** Tasks started in the window or finished in it, of a project, an agent or a person: for Insights. */
  insightRows(q: InsightQuery): Promise<TaskRow[]> {
    return this.db.task.findMany({
      where: {
        projectId: q.projectId,
        agent: q.agent,
        startedBy: q.person,
        OR: [{ createdAt: { gte: q.from, lte: q.to } }, { finishedAt: { gte: q.from, lte: q.to } }],
      },
      orderBy: { createdAt: "asc" },
      take: 100_000,
    });
  }

  /** The panes that are blocked on a prompt right now (few at any time), with when each last changed: one query, the pane store's. */
  blockedPanes(): Promise<Map<string, Date>> {
    return this.panes.blocked();
  }

  /** The task's stored diff size and the branch commit it was taken at (null: none taken yet). */
  diffStat(taskId: string): Promise<DiffStatRow | null> {
    return this.db.taskDiffStat.findUnique({ where: { taskId } });
  }

  async saveDiffStat(taskId: string, s: Omit<DiffStatRow, "taskId">): Promise<void> {
    await this.db.taskDiffStat.upsert({ where: { taskId }, create: { taskId, ...s }, update: s });
  }

  /** Started, unfinished tasks without a diff size yet: ids, oldest first. */
  async withoutDiffStat(): Promise<string[]> {
    const rows = await this.db.task.findMany({
      where: { worktreePath: { not: null }, diffStat: null, disposition: null },
      select: { id: true },
      orderBy: { createdAt: "asc" },
    });
    return rows.map((r) => r.id);
  }
}
