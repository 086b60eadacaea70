// The diff size each board card shows (files changed, lines added and deleted), taken off the
// request path: after every change of a task's state (a turn or round ended, a new round started),
// an update of its branch, a runner task's work coming back changed, and when it is merged or discarded, and once at start-up for unfinished tasks that have none
// yet. One task at a time, in the background; a burst of changes to one task costs one count.
// The numbers are stored (TaskDiffStat, with the branch commit they were taken at) and a changed
// count is announced as `task.diff_stat`, so boards refetch; the board itself only reads the
// stored numbers and never runs git. A finished task's branch commit keys its numbers: once
// taken after the finish at that commit, they are not taken again. A task whose changes can no
// longer be read (discarded with its branch) keeps the numbers it had.
import type { TaskStore } from "../../stores/tasks";
import { YardError } from "../errors";
import type { EventJournal, YardEvent } from "../events/journal";
import { branchTip, type DiffTotals } from "../git";

export interface DiffStatsDeps {
  journal: EventJournal;
  store: TaskStore;
  /** The size of the task's changes against its base (TaskEngine.diffStat). */
  stat(taskId: string): Promise<DiffTotals>;
  log?: (line: string) => void;
}

/** Codes that mean "nothing to count now" (no worktree yet, the branch gone, a finish racing the read). */
const UNREADABLE = new Set(["CONFLICT", "NOT_FOUND", "BAD_PARAMS", "GIT_FAILED"]);

export class TaskDiffStats {
  private chain: Promise<void> = Promise.resolve();
  private readonly queued = new Set<string>();
  private unsubscribe: (() => void) | null = null;

  constructor(private readonly deps: DiffStatsDeps) {}

  /** Follows the journal and queues the unfinished tasks that have no numbers yet (counted in the background). */
  async attach(): Promise<void> {
    this.unsubscribe = this.deps.journal.subscribe((e) => this.onEvent(e), { type: "task.*" });
    for (const id of await this.deps.store.withoutDiffStat()) this.schedule(id);
  }

  /** Stops following the journal; resolves once the count in progress (if any) has ended. */
  async detach(): Promise<void> {
    this.unsubscribe?.();
    this.unsubscribe = null;
    this.queued.clear();
    await this.chain;
  }

  /** Queues a count of the task's changes (once, however often it is asked for before it runs). */
  schedule(taskId: string): void {
    if (this.queued.has(taskId)) return;
    this.queued.add(taskId);
    const run = async () => {
      if (!this.queued.delete(taskId)) return; // detached meanwhile
      await this.refresh(taskId).catch((e: unknown) =>
        this.deps.log?.(`diff stats of ${taskId} not taken: ${(e as Error)?.message ?? e}`),
      );
    };
    this.chain = this.chain.then(run, run);
  }

  private onEvent(e: YardEvent): void {
    if (
      e.taskId &&
      (e.type === "task.state" ||
        e.type === "task.finished" ||
        e.type === "task.branch_update" ||
        e.type === "task.runner_synced")
    )
      this.schedule(e.taskId);
  }

  private async refresh(taskId: string): Promise<void> {
    const { store } = this.deps;
    const t = await store.row(taskId);
    if (!t?.baseSha || !t.worktreePath) return; // not started: nothing to count
    const commit = t.branch ? await branchTip(t.repoPath, t.branch).catch(() => null) : null;
    const prev = await store.diffStat(taskId);
    if (
      t.disposition &&
      t.finishedAt &&
      prev &&
      commit !== null &&
      prev.commit === commit &&
      prev.computedAt >= t.finishedAt
    )
      return;
    let totals: DiffTotals;
    try {
      totals = await this.deps.stat(taskId);
    } catch (e) {
      if (e instanceof YardError && UNREADABLE.has(e.code)) return;
      throw e;
    }
    await store.saveDiffStat(taskId, { ...totals, commit, computedAt: new Date() });
    const same =
      prev && prev.files === totals.files && prev.additions === totals.additions && prev.deletions === totals.deletions;
    if (!same) await this.deps.journal.append("task.diff_stat", { taskId, payload: { ...totals } });
  }
}
