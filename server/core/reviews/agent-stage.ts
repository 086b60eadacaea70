// The agent reviewer stage: when a task's worker completes a round and the task (or its project)
// names a reviewer profile, that agent runs in the task's worktree with the reviewer role (it may
// read the task and its diff and write reviews, nothing else; for a sandboxed task, or a reviewer
// profile that asks for the sandbox, it runs in the OS sandbox with the worktree read-only), sees the contract, the result and
// the diff, and records a review through the same review API (stage "agent"). Changes it
// requests start the next round (the review service does that); after `maxRounds` requests the
// task goes to human review with the agent's reviews visible. A person may skip the stage or run
// it again. The stage's state lives on the task row (running | approved | changes_requested |
// skipped | capped | failed), so a restart picks it up: a reviewer whose pane is gone is failed.
// A --needs-plan task started with --plan-reviewer PROFILE has that agent review its plan: each
// version in review, with the same cap on requested changes; its approval decomposes the plan
// (the plan service does that).
import { shortGuide } from "../agents/guide";
import { YardError } from "../errors";
import type { EventJournal, EventOf, EventPayload, YardEvent } from "../events/journal";
import type { PaneManager } from "../panes/manager";
import type { Projects } from "../projects/projects";
import { listSection } from "../tasks/contract";
import { waitForReady } from "../tasks/ready-wait";
import type { TaskView } from "../tasks/views";
import type { ReviewStore } from "../../stores/reviews";
import type { SandboxLaunch } from "../sandbox/sandbox";
import type { TaskRow, TaskStore } from "../../stores/tasks";

const DEFAULT_AGENT_REVIEW_ROUNDS = 3;
export type AgentReviewState = EventPayload<"task.agent_review">["state"];

export interface AgentReviewDeps {
  journal: EventJournal;
  panes: PaneManager;
  projects: Projects;
  store: TaskStore;
  reviews: ReviewStore;
  task: (id: string) => Promise<TaskView>;
  confirmReady?: (paneId: string) => Promise<boolean>;
  readyTimeoutMs?: number;
  /** How many times the agent may request changes before the task goes to a person (default 3). */
  maxRounds?: number;
  /** The OS sandbox the reviewer runs in (its worktree read-only), or null to run it unsandboxed. */
  sandbox?: (row: TaskRow, reviewer: string) => Promise<SandboxLaunch | null>;
}

/** The prompt the reviewer agent gets: the contract, the worker's result and how to review with yard. */
/** The prompt the reviewer agent gets for a plan version. */
function planReviewerPrompt(t: { id: string; title: string; objective: string }, version: number): string {
  return [
    `Review version ${version} of the plan for task ${t.id}: ${t.title}.`,
    "",
    "Goal:",
    t.objective,
    "",
    shortGuide("reviewer"),
    "",
    `Read it (yard --json plan show ${t.id}), then end with exactly one of:`,
    `  yard plan review ${t.id} --approve --summary "…"        (its subtasks are created)`,
    `  yard plan review ${t.id} --request-changes --summary "what to change" [--note "…"]...`,
  ].join("\n");
}

function reviewerPrompt(t: Pick<TaskView, "id" | "title" | "round" | "contract" | "result">): string {
  const lines = [`Review task ${t.id}: ${t.title} (round ${t.round}).`, "", "Objective:", t.contract.objective];
  lines.push(
    ...listSection("Acceptance criteria", t.contract.acceptanceCriteria),
    ...listSection("Constraints", t.contract.constraints),
  );
  lines.push(
    "",
    `The worker reported: ${t.result ? `${t.result.status}: ${t.result.summary}` : "no result"}`,
    "",
    shortGuide("reviewer"),
  );
  lines.push(
    "",
    `Read the changes (yard task diff ${t.id}), comment on lines (yard task comment ${t.id} --path FILE --line N "…"), then end with exactly one of:`,
    `  yard task review ${t.id} --approve --summary "…"`,
    `  yard task review ${t.id} --request-changes --summary "what to change"`,
  );
  return lines.join("\n");
}

export class AgentReviewStage {
  private unsubscribe: (() => void) | null = null;
  private chain: Promise<unknown> = Promise.resolve();
  private readonly aborts = new Map<string, AbortController>();

  constructor(private readonly deps: AgentReviewDeps) {}

  get maxRounds(): number {
    return this.deps.maxRounds ?? DEFAULT_AGENT_REVIEW_ROUNDS;
  }

  /** Follows the journal; a reviewer that was running before a restart and whose pane is gone is failed. */
  async attach(): Promise<void> {
    this.unsubscribe = this.deps.journal.subscribe((e) => this.onEvent(e));
    for (const r of await this.deps.store.agentReviewsRunning()) {
      if (r.agentReviewPaneId && this.deps.panes.isOthers(r.agentReviewPaneId)) continue; // another server's
      if (!r.agentReviewPaneId || !this.deps.panes.isLive(r.agentReviewPaneId))
        await this.finishStage(r.id, "failed", { reason: "reviewer_lost" });
    }
  }

  detach(): void {
    this.unsubscribe?.();
    this.unsubscribe = null;
    for (const ac of this.aborts.values()) ac.abort();
  }

  /** Resolves once every reaction queued so far has run (tests, shutdown). */
  idle(): Promise<void> {
    return this.chain.then(() => undefined);
  }

  /** The reviewer profile for a task: its own, else its project's; null when there is none. */
  async reviewerOf(row: Pick<TaskRow, "reviewerProfile" | "projectId">): Promise<string | null> {
    if (row.reviewerProfile) return row.reviewerProfile;
    const project = row.projectId ? await this.deps.projects.get(row.projectId).catch(() => null) : null;
    return project?.reviewerProfile ?? null;
  }

  /** A person skips the stage: a running reviewer is stopped; the task waits for human review. */
  async skip(taskId: string): Promise<TaskRow> {
    const row = await this.row(taskId);
    if (row.agentReviewState === "running" && row.agentReviewPaneId) await this.stopReviewer(row.agentReviewPaneId);
    await this.finishStage(taskId, "skipped", { by: "user" });
    return this.row(taskId);
  }

  /** A person runs the stage again on the current round (the task must be completed and not finished). */
  async rerun(taskId: string): Promise<TaskRow> {
    const row = await this.row(taskId);
    const reviewer = await this.reviewerOf(row);
    if (!reviewer)
      throw new YardError(
        "CONFLICT",
        "Neither the task nor its project names a reviewer profile (yard project set ID --reviewer PROFILE)",
        { taskId },
      );
    if (row.state !== "completed" || row.disposition)
      throw new YardError(
        "CONFLICT",
        `Only a completed, unfinished task can be reviewed; this one is ${row.disposition ?? row.state}`,
        { state: row.state },
      );
    if (row.agentReviewState === "running")
      throw new YardError("CONFLICT", "The agent reviewer is already running", { paneId: row.agentReviewPaneId });
    await this.launch(row, reviewer);
    return this.row(taskId);
  }

  private async row(taskId: string): Promise<TaskRow> {
    const r = await this.deps.store.row(taskId);
    if (!r) throw new YardError("NOT_FOUND", `No task ${taskId}`, { taskId });
    return r;
  }

  /** Runs reactions one at a time; a reaction that throws (the reviewer could not be spawned) fails the stage with its error. */
  private queue(fn: () => Promise<void>, taskId?: string): void {
    const run = () =>
      fn().catch(async (e: unknown) => {
        if (!taskId) return;
        const err =
          e instanceof YardError ? { code: e.code, message: e.message } : { code: "INTERNAL", message: String(e) };
        await this.finishStage(taskId, "failed", { reason: "reviewer_not_started", ...err }).catch(() => {});
      });
    this.chain = this.chain.then(run, run).catch(() => {});
  }

  private onEvent(e: YardEvent): void {
    if (e.type === "task.state" && e.taskId && e.payload.to === "completed") {
      const taskId = e.taskId;
      this.queue(() => this.maybeStart(taskId), taskId);
    } else if (e.type === "task.plan" && e.taskId) {
      const taskId = e.taskId;
      const payload = e.payload;
      this.queue(
        () =>
          payload.state === "in_review"
            ? this.maybeReviewPlan(taskId, Number(payload.version))
            : this.onPlanReview(taskId, payload),
        taskId,
      );
    } else if (e.type === "task.review" && e.taskId) {
      const taskId = e.taskId;
      this.queue(() => this.onReview(taskId, e.payload));
    } else if (e.type === "pane.lifecycle" && e.paneId && e.payload.to === "exited") {
      const paneId = e.paneId;
      const taskId = e.taskId;
      if (taskId) this.queue(() => this.onReviewerExit(taskId, paneId));
    }
  }

  /** The worker completed a round: run the reviewer, unless there is none, it was skipped, or the cap is reached. */
  private async maybeStart(taskId: string): Promise<void> {
    const row = await this.row(taskId);
    // A planned task's round is its plan (reviewed as a plan); its subtasks get their own reviews.
    if (
      row.requiresPlanning ||
      row.disposition ||
      row.state !== "completed" ||
      row.agentReviewState === "running" ||
      row.agentReviewState === "skipped"
    )
      return;
    const reviewer = await this.reviewerOf(row);
    if (!reviewer) return;
    const reviews = await this.deps.reviews.reviews(taskId);
    if (reviews.some((r) => r.round === row.round && r.stage === "agent")) return; // this round was reviewed already
    const requested = reviews.filter((r) => r.stage === "agent" && r.verdict === "changes_requested").length;
    if (requested >= this.maxRounds) {
      await this.finishStage(taskId, "capped", { requested, cap: this.maxRounds });
      return;
    }
    await this.launch(row, reviewer);
  }

  /** A plan version waits for review: the reviewer agent reviews it, up to the cap. */
  private async maybeReviewPlan(taskId: string, version: number): Promise<void> {
    const row = await this.row(taskId);
    if (!row.requiresPlanning || row.agentReviewState === "running" || row.agentReviewState === "skipped") return;
    // Plans are reviewed by the plan reviewer the task names (its code reviewer reviews code).
    const reviewer = row.planReviewerProfile;
    if (!reviewer) return;
    const requested = (await this.deps.journal.list({ taskId, type: "task.plan" })).filter(
      (e) => e.payload.state === "changes_requested" && e.payload.byAgent === true,
    ).length;
    if (requested >= this.maxRounds) {
      await this.finishStage(taskId, "capped", { requested, cap: this.maxRounds, plan: true });
      return;
    }
    await this.launch(row, reviewer, planReviewerPrompt(row, version));
  }

  /** The reviewer's verdict on a plan landed: the stage ends with it. */
  private async onPlanReview(taskId: string, payload: EventOf<"task.plan">["payload"]): Promise<void> {
    const row = await this.row(taskId);
    if (row.agentReviewState !== "running" || !row.agentReviewPaneId || payload.by !== row.agentReviewPaneId) return;
    await this.stopReviewer(row.agentReviewPaneId);
    await this.finishStage(taskId, payload.state === "changes_requested" ? "changes_requested" : "approved", {
      plan: true,
      version: payload.version,
    });
  }

  private async launch(row: TaskRow, reviewer: string, planPrompt?: string): Promise<void> {
    if (!row.worktreePath) throw new YardError("CONFLICT", "The task has no worktree to review", { taskId: row.id });
    const sandbox = (await this.deps.sandbox?.(row, reviewer)) ?? null;
    const pane = await this.deps.panes.spawn(
      { agent: reviewer, cwd: row.worktreePath, label: `review: ${row.title}`.slice(0, 120) },
      { taskId: row.id, role: "reviewer", sandbox },
    );
    await this.deps.store.setAgentReview(row.id, { state: "running", paneId: pane.id, started: true });
    await this.deps.journal.append("task.agent_review", {
      taskId: row.id,
      paneId: pane.id,
      payload: { state: "running", reviewer, round: row.round, sandboxed: sandbox !== null },
    });
    const view = await this.deps.task(row.id);
    const ac = new AbortController();
    this.aborts.set(row.id, ac);
    void (async () => {
      const ready = await waitForReady(
        { panes: this.deps.panes, journal: this.deps.journal, confirmReady: this.deps.confirmReady },
        pane.id,
        { timeoutMs: this.deps.readyTimeoutMs ?? 30_000, signal: ac.signal },
      );
      if (ac.signal.aborted) return;
      if (!ready.ready) {
        await this.stopReviewer(pane.id);
        await this.finishStage(row.id, "failed", {
          reason: ready.reason === "exited" ? "reviewer_exited" : "reviewer_not_ready",
          lifecycle: ready.lifecycle,
          dialog: ready.dialog,
          screen: ready.screen,
        });
        return;
      }
      try {
        await this.deps.panes.submit(pane.id, planPrompt ?? reviewerPrompt(view));
      } catch (e) {
        await this.stopReviewer(pane.id);
        await this.finishStage(row.id, "failed", {
          reason: "prompt_refused",
          code: e instanceof YardError ? e.code : "INTERNAL",
          message: (e as Error).message,
        });
      }
    })()
      .catch(() => {})
      .finally(() => {
        if (this.aborts.get(row.id) === ac) this.aborts.delete(row.id);
      });
  }

  /** The reviewer's review landed: the stage ends with its verdict and the reviewer is stopped. */
  private async onReview(taskId: string, payload: EventOf<"task.review">["payload"]): Promise<void> {
    const row = await this.row(taskId);
    if (row.agentReviewState !== "running" || !row.agentReviewPaneId) return;
    const review = (await this.deps.reviews.reviews(taskId)).find((r) => r.id === payload.reviewId);
    if (!review || review.reviewer !== row.agentReviewPaneId) return;
    await this.stopReviewer(row.agentReviewPaneId);
    await this.finishStage(taskId, review.verdict === "approved" ? "approved" : "changes_requested", {
      reviewId: review.id,
      round: review.round,
    });
  }

  /** The reviewer exited without a review: the task goes to a person. */
  private async onReviewerExit(taskId: string, paneId: string): Promise<void> {
    const row = await this.deps.store.row(taskId);
    if (row?.agentReviewState !== "running" || row.agentReviewPaneId !== paneId) return;
    await this.finishStage(taskId, "failed", { reason: "reviewer_exited_without_review" });
  }

  private async stopReviewer(paneId: string): Promise<void> {
    if (this.deps.panes.isLive(paneId)) await this.deps.panes.kill(paneId).catch(() => {});
  }

  private async finishStage(
    taskId: string,
    state: AgentReviewState,
    payload: Omit<EventPayload<"task.agent_review">, "state">,
  ): Promise<void> {
    this.aborts.get(taskId)?.abort();
    await this.deps.store.setAgentReview(taskId, { state });
    await this.deps.journal.append("task.agent_review", { taskId, payload: { state, ...payload } });
  }
}
