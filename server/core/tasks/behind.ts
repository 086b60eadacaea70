// How far each unfinished task's branch is behind its target ("3 commits behind main"), counted
// off the request path like the board's diff sizes (diff-stats.ts): in the background, one task
// at a time, a burst of reasons to count one task costing one count. A task is counted after each
// change of its state and each update of its branch, once at start-up, and whenever its target
// moves: the repositories' target refs are watched (fs.watch on the directory holding the ref
// file, and on the common git dir for packed-refs), and a change there recounts every unfinished
// task of that repository. A count that changed is stored (TaskBehind, with the commits it was
// taken at) and announced as `task.behind`, so pages refetch the task; the view only reads the
// stored count. Before counting, an update whose conflicts the task's agent was resolving is
// settled (update-branch.ts settleUpdate), since the same state changes end it.
import { type FSWatcher, watch } from "node:fs";
import path from "node:path";
import type { BranchStore } from "../../stores/branches";
import type { EventJournal, YardEvent } from "../events/journal";
import { behindCount, inspectRepo } from "../git";

export interface BranchWatchDeps {
  journal: EventJournal;
  store: BranchStore;
  /** Settles an update the task's agent was resolving (the task engine's). */
  settle(taskId: string): Promise<void>;
  log?: (line: string) => void;
}

/** A target ref's change is acted on after this quiet spell (git writes a lock file, then renames it). */
const SETTLE_MS = 50;

export class TaskBranchWatch {
  private chain: Promise<void> = Promise.resolve();
  private readonly queued = new Set<string>();
  private unsubscribe: (() => void) | null = null;
  /** Per repository and ref directory: its watchers (none yet while the repository is being read). */
  private readonly watched = new Map<string, FSWatcher[]>();
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private closed = false;

  constructor(private readonly deps: BranchWatchDeps) {}

  /** Follows the journal and counts every unfinished task once (in the background). */
  async attach(): Promise<void> {
    this.unsubscribe = this.deps.journal.subscribe((e) => this.onEvent(e), { type: "task.*" });
    for (const id of await this.deps.store.updatesInFlight()) this.schedule(id);
    for (const t of await this.deps.store.unfinished()) this.schedule(t.id);
  }

  /** Stops following the journal and the refs; resolves once the count in progress (if any) has ended. */
  async detach(): Promise<void> {
    this.closed = true;
    this.unsubscribe?.();
    this.unsubscribe = null;
    this.queued.clear();
    for (const t of this.timers.values()) clearTimeout(t);
    this.timers.clear();
    for (const ws of this.watched.values()) for (const w of ws) w.close();
    this.watched.clear();
    await this.chain;
  }

  /** Queues a count of the task (once, however often it is asked for before it runs). */
  schedule(taskId: string): void {
    if (this.closed || this.queued.has(taskId)) return;
    this.queued.add(taskId);
    const run = async () => {
      if (!this.queued.delete(taskId)) return; // detached meanwhile
      await this.refresh(taskId).catch((e: unknown) =>
        this.deps.log?.(`behind count of ${taskId} not taken: ${(e as Error)?.message ?? e}`),
      );
    };
    this.chain = this.chain.then(run, run);
  }

  private onEvent(e: YardEvent): void {
    if (!e.taskId) return;
    // A finished task is not counted any more, but an update it left waiting is settled (abandoned).
    if (["task.state", "task.branch_update", "task.started", "task.finished"].includes(e.type)) this.schedule(e.taskId);
    // A merge moved its target: every unfinished task of the repository is recounted.
    if (e.type === "task.finished")
      void this.deps.store.branchRow(e.taskId).then(
        (t) => t && this.repoMoved(t.repoPath),
        () => {},
      );
  }

  private async refresh(taskId: string): Promise<void> {
    const { store, journal } = this.deps;
    await this.deps
      .settle(taskId)
      .catch((e: unknown) => this.deps.log?.(`update of ${taskId} not settled: ${(e as Error)?.message ?? e}`));
    const t = await store.branchRow(taskId);
    if (!t?.branch || !t.targetBranch || t.disposition) return;
    void this.watchTarget(t.repoPath, t.targetBranch);
    const c = await behindCount(t.repoPath, t.branch, t.targetBranch);
    if (!c) return;
    const prev = await store.behind(taskId);
    await store.saveBehind(taskId, {
      target: t.targetBranch,
      behind: c.behind,
      targetCommit: c.targetCommit,
      branchCommit: c.branchCommit,
      computedAt: new Date(),
    });
    if (!prev || prev.behind !== c.behind || prev.target !== t.targetBranch)
      await journal.append("task.behind", {
        taskId,
        payload: { target: t.targetBranch, behind: c.behind, targetCommit: c.targetCommit },
      });
  }

  /** Watches the directory of the target's ref file and the common dir (packed-refs) of the repository, once. */
  private async watchTarget(repoPath: string, target: string): Promise<void> {
    const key = `${repoPath}\0${path.posix.dirname(target)}`;
    if (this.watched.has(key) || this.closed) return;
    this.watched.set(key, []);
    try {
      const { commonDir } = await inspectRepo(repoPath);
      const refDir = path.join(commonDir, "refs", "heads", path.posix.dirname(target));
      const moved = () => this.repoMoved(repoPath);
      const ws = [
        watch(refDir, { persistent: false }, moved),
        watch(commonDir, { persistent: false }, (_e, name) => name === "packed-refs" && moved()),
      ];
      for (const w of ws) w.on("error", () => this.unwatch(key));
      if (this.closed) for (const w of ws) w.close();
      else this.watched.set(key, ws);
    } catch (e) {
      this.deps.log?.(`the target ${target} of ${repoPath} is not watched: ${(e as Error).message}`);
      this.watched.delete(key); // tried again at the next count
    }
  }

  private unwatch(key: string): void {
    for (const w of this.watched.get(key) ?? []) w.close();
    this.watched.delete(key);
  }

  /** A target of the repository moved (or may have): its unfinished tasks are recounted once things are quiet. */
  private repoMoved(repoPath: string): void {
    if (this.closed) return;
    clearTimeout(this.timers.get(repoPath));
    this.timers.set(
      repoPath,
      setTimeout(() => {
        this.timers.delete(repoPath);
        void this.deps.store.unfinished(repoPath).then(
          (ts) => {
            for (const t of ts) this.schedule(t.id);
          },
          () => {},
        );
      }, SETTLE_MS),
    );
  }
}
