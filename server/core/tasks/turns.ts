// A task's turn snapshots and "Revert turn". At the end of each of the agent's turns (a pane of
// the task goes to done, or exits) and of each round (the task settles: input_required,
// completed, failed, canceled, rejected; while the agent still runs, at the end of the turn that
// follows), the worktree's state is recorded as a commit on a hidden ref
// (core/git/turn-snapshots.ts), numbered 1, 2, … across rounds, its parent the previous snapshot
// (or the base commit), and stored as a TaskTurn row: the rows are the record, the refs keep the
// commits alive. A turn that changed nothing records nothing. Snapshots are taken off the request
// path (the journal's events schedule them), one at a time per task: a burst of events for one
// task costs one snapshot, and a revert waits for the snapshot before it.
//
//   list(taskId)            the snapshots, oldest first
//   diff(taskId, n)         what turn n changed: snapshot n-1 (or the base) to snapshot n (the
//                           commits, so it reads the same whatever the worktree holds now)
//   preview(taskId, n)      what reverting turn n would change in the worktree, file by file
//   revert(taskId, n, by)   the worktree's files back to snapshot n-1 (or the base): tracked and
//                           untracked files as recorded, files made since removed. Refused
//                           (PANE_BUSY) while the agent works, starts, or waits on a prompt, or
//                           the round's prompt is on its way; CONFLICT for a task that is finished
//                           or has no worktree. Changes made since the last snapshot (a person's
//                           edits) are recorded first ("edits"), the revert itself after ("revert"),
//                           so a revert can be reverted. The branch, HEAD, the agent's commits and
//                           its index are not touched. Journaled as task.turn_reverted.
//   prune(taskId)           the refs and rows go: when the task is finished (merged or
//                           discarded: its worktree is removed), and at start-up for finished
//                           tasks that still have some and tasks whose worktree is gone (a
//                           worktree removed by other means can call it too).
import { inTurn } from "../serial";
import { existsSync } from "node:fs";
import path from "node:path";
import type { TaskRow } from "../../stores/tasks";
import type { TurnRow, TurnStore } from "../../stores/turns";
import type { TurnView } from "../../wire/turns";
import { authorOf } from "../authors";
import { YardError } from "../errors";
import type { EventJournal, YardEvent } from "../events/journal";
import {
  commitSnapshot,
  type DiffFile,
  diffCommits,
  diffCommitsStat,
  diffWorktreeSince,
  pruneTurnRefs,
  restoreWorktree,
  totalsOf,
  treeOfCommit,
  turnRef,
  worktreeTree,
} from "../git";
import type { TaskDiff } from "./diff";

export interface TaskTurnsDeps {
  journal: EventJournal;
  store: TurnStore;
  /** The task's row; NOT_FOUND when there is none (TaskEngine.row). */
  task(id: string): Promise<TaskRow>;
  /** A running pane's lifecycle (idle, working, done, …); null when it does not run. */
  lifecycle(paneId: string): string | null;
  log?: (line: string) => void;
}

type Kind = TurnView["kind"];

/** The task states that end a round: the worktree is snapshotted then. */
const ROUND_ENDS = new Set(["input_required", "completed", "failed", "canceled", "rejected"]);
/** A running pane in these states is not busy: its agent waits for a prompt. */
const AT_REST = new Set(["idle", "done"]);
/** At most this many files are listed in a revert's preview and answer. */
const MAX_LISTED = 1000;

type Change = { path: string; action: "restore" | "remove" | "recreate" };

/**
 * What a journal event asks of a task's snapshots: "snapshot" when a turn ended or the agent is
 * gone (its pane went to done, or exited: a crash, a cancel, a kill) and when a round ended with
 * no agent running (while it still runs, as with a report in the middle of a turn, the turn's end
 * comes next and is the snapshot: one taken now would race the rest of the turn); "prune" when
 * the task is finished. `running`: whether a pane still runs. Pure.
 */
export function turnTrigger(
  e: Pick<YardEvent, "type" | "taskId" | "paneId"> & { payload: Record<string, unknown> },
  running: (paneId: string) => boolean,
): "snapshot" | "prune" | null {
  if (!e.taskId) return null;
  switch (e.type) {
    case "pane.lifecycle":
      return e.payload.to === "done" || e.payload.to === "exited" ? "snapshot" : null;
    case "task.state":
      return ROUND_ENDS.has(String(e.payload.to)) && !(e.paneId && running(e.paneId)) ? "snapshot" : null;
    case "task.finished":
      return "prune";
    default:
      return null;
  }
}

export class TaskTurns {
  private readonly chains = new Map<string, Promise<unknown>>();
  private readonly queued = new Set<string>();
  private offs: Array<() => void> = [];

  constructor(private readonly deps: TaskTurnsDeps) {}

  /** Follows the journal (turn and round ends, finishes); prunes what finished tasks left behind. */
  async attach(): Promise<void> {
    const { journal } = this.deps;
    const on = (e: YardEvent) => {
      const what = turnTrigger(e, (paneId) => this.deps.lifecycle(paneId) !== null);
      if (!e.taskId || !what) return;
      if (what === "snapshot") this.schedule(e.taskId);
      else void this.prune(e.taskId).catch(() => {});
    };
    this.offs = ["pane.lifecycle", "task.state", "task.finished"].map((type) => journal.subscribe(on, { type }));
    // What a server stopped before pruning left behind, and snapshots of worktrees removed meanwhile.
    for (const t of await this.deps.store.tasksWithTurns()) {
      if (t.disposition || !t.worktreePath || !existsSync(path.join(t.worktreePath, ".git")))
        void this.prune(t.id).catch(() => {});
    }
  }

  /** Stops following the journal; resolves once the work in progress has ended. */
  async detach(): Promise<void> {
    for (const off of this.offs) off();
    this.offs = [];
    this.queued.clear();
    await Promise.all([...this.chains.values()].map((p) => p.catch(() => {})));
  }

  /** Queues a snapshot of the task's worktree (once, however often it is asked for before it runs). */
  schedule(taskId: string): void {
    if (this.queued.has(taskId)) return;
    this.queued.add(taskId);
    void this.serial(taskId, async () => {
      if (!this.queued.delete(taskId)) return; // detached meanwhile
      await this.take(taskId, "turn").catch((e: unknown) =>
        this.deps.log?.(`turn snapshot of ${taskId} not taken: ${(e as Error)?.message ?? e}`),
      );
    }).catch(() => {});
  }

  async list(taskId: string): Promise<TurnView[]> {
    await this.deps.task(taskId);
    return (await this.deps.store.list(taskId)).map(viewOf);
  }

  /** What turn n changed: its snapshot against the one before (the base commit for turn 1). `since` is refused with it. */
  async diff(taskId: string, n: number, since?: string): Promise<TaskDiff> {
    if (since !== undefined)
      throw new YardError(
        "BAD_PARAMS",
        "Ask for one turn's changes or for the changes since the last review, not both",
      );
    const t = await this.deps.task(taskId);
    const turn = await this.turnOf(taskId, n);
    const from = n > 1 ? (await this.turnOf(taskId, n - 1)).commit : t.baseSha!;
    try {
      const d = await diffCommits({ repoRoot: t.repoPath, baseSha: from, tip: turn.commit });
      return { ...d, baseSha: t.baseSha!, source: "turn" };
    } catch (e) {
      if (e instanceof YardError && e.code === "GIT_FAILED") throw gone(n, e);
      throw e;
    }
  }

  /** What reverting turn n would change in the worktree now. */
  async preview(taskId: string, n: number) {
    const { t, tree } = await this.revertable(taskId, n);
    const files = await changesTo(t.worktreePath!, tree);
    return { turn: n, restores: n - 1, files: files.slice(0, MAX_LISTED), truncated: files.length > MAX_LISTED };
  }

  /** The worktree's files back to the snapshot before turn n; `by` is the calling pane (null: the person). */
  revert(taskId: string, n: number, by: { paneId: string | null }) {
    return this.serial(taskId, async () => {
      const { t, tree } = await this.revertable(taskId, n);
      await this.take(taskId, "edits");
      const files = await changesTo(t.worktreePath!, tree);
      const listed = {
        turn: n,
        restores: n - 1,
        files: files.slice(0, MAX_LISTED),
        truncated: files.length > MAX_LISTED,
      };
      if (!files.length) return { ...listed, snapshot: null };
      await restoreWorktree({ worktreePath: t.worktreePath!, tree });
      const snapshot = await this.take(taskId, "revert", n);
      await this.deps.journal.append("task.turn_reverted", {
        taskId,
        payload: {
          turn: n,
          restores: n - 1,
          files: files.length,
          paths: files.slice(0, 20).map((f) => f.path),
          snapshot: snapshot?.number ?? null,
          by: authorOf(by.paneId),
        },
      });
      return { ...listed, snapshot: snapshot && viewOf(snapshot) };
    });
  }

  /** Deletes the task's snapshot refs and rows (its worktree is gone). */
  prune(taskId: string): Promise<void> {
    return this.serial(taskId, async () => {
      const t = await this.deps.task(taskId).catch(() => null);
      if (t) {
        await pruneTurnRefs({ repoRoot: t.repoPath, taskId }).catch((e: unknown) =>
          this.deps.log?.(`turn snapshot refs of ${taskId} not pruned: ${(e as Error)?.message ?? e}`),
        );
      }
      await this.deps.store.removeAll(taskId);
    });
  }

  /** Runs `fn` after everything queued for the task before it. */
  private serial<T>(taskId: string, fn: () => Promise<T>): Promise<T> {
    return inTurn(this.chains, taskId, fn);
  }

  private async turnOf(taskId: string, n: number): Promise<TurnRow> {
    const row = await this.deps.store.get(taskId, n);
    if (row) return row;
    const last = await this.deps.store.last(taskId);
    throw new YardError(
      "NOT_FOUND",
      last ? `Task ${taskId} has no turn ${n} (its turns are 1-${last.number})` : `Task ${taskId} has no turns yet`,
      { taskId, turn: n, turns: last?.number ?? 0 },
    );
  }

  /** The task and the tree a revert of turn n restores, or the refusal. */
  private async revertable(taskId: string, n: number): Promise<{ t: TaskRow; tree: string }> {
    const t = await this.deps.task(taskId);
    if (t.disposition)
      throw new YardError(
        "CONFLICT",
        `The task is ${t.disposition}: its worktree is gone, there is nothing to revert`,
        {
          disposition: t.disposition,
        },
      );
    if (!t.worktreePath || !t.baseSha || !existsSync(path.join(t.worktreePath, ".git")))
      throw new YardError("CONFLICT", "The task has no worktree to revert", { taskId });
    const lifecycle = t.paneId ? this.deps.lifecycle(t.paneId) : null;
    if ((lifecycle && !AT_REST.has(lifecycle)) || t.state === "pending" || t.state === "working")
      throw new YardError(
        "PANE_BUSY",
        "The agent is busy (working, starting, or waiting on a prompt): revert a turn once its turn has ended",
        { state: t.state, lifecycle },
      );
    await this.turnOf(taskId, n);
    if (n === 1) return { t, tree: await treeOfCommit({ repoRoot: t.repoPath, commit: t.baseSha }) };
    const before = await this.turnOf(taskId, n - 1);
    return { t, tree: before.tree };
  }

  /** Records the worktree as the next snapshot unless it equals the last one; null when nothing changed. */
  private async take(taskId: string, kind: Kind, revertOf: number | null = null): Promise<TurnRow | null> {
    const t = await this.deps.task(taskId);
    if (t.disposition || !t.worktreePath || !t.baseSha) return null;
    if (!existsSync(path.join(t.worktreePath, ".git"))) return null;
    const last = await this.deps.store.last(taskId);
    const parent = last?.commit ?? t.baseSha;
    const previous = last?.tree ?? (await treeOfCommit({ repoRoot: t.repoPath, commit: t.baseSha }));
    const tree = await worktreeTree({ worktreePath: t.worktreePath });
    if (tree === previous) return null;
    const number = (last?.number ?? 0) + 1;
    const what = kind === "revert" ? `revert of turn ${revertOf}` : kind === "edits" ? "changes between turns" : "turn";
    const commit = await commitSnapshot({
      repoRoot: t.repoPath,
      tree,
      parent,
      ref: turnRef(taskId, number),
      message: `Switchyard snapshot ${number} of task ${taskId} (round ${t.round}): ${what}`,
    });
    const totals = totalsOf(await diffCommitsStat({ repoRoot: t.repoPath, baseSha: parent, tip: commit }));
    const row = await this.deps.store.add({
      taskId,
      number,
      round: t.round,
      kind,
      revertOf,
      commit,
      tree,
      files: totals.files,
      additions: totals.additions,
      deletions: totals.deletions,
    });
    await this.deps.journal.append("task.turn", {
      taskId,
      paneId: t.paneId,
      payload: { number, round: t.round, kind, revertOf, commit, ...totals },
    });
    return row;
  }
}

function viewOf(r: TurnRow): TurnView {
  return {
    number: r.number,
    round: r.round,
    kind: r.kind as Kind,
    revertOf: r.revertOf,
    commit: r.commit,
    tree: r.tree,
    files: r.files,
    additions: r.additions,
    deletions: r.deletions,
    createdAt: r.createdAt.toISOString(),
  };
}

function gone(n: number, e: YardError): YardError {
  return new YardError("CONFLICT", `The snapshot of turn ${n} is no longer in the repository`, {
    turn: n,
    git: e.message,
  });
}

/** The files that change when the worktree goes back to `tree`, and how (paths sorted). */
async function changesTo(worktreePath: string, tree: string): Promise<Change[]> {
  return revertChanges((await diffWorktreeSince({ worktreePath, tree })).files);
}

/**
 * What a revert does to each file of the diff from the restored snapshot to the worktree now:
 * a file added since is removed, one deleted since re-created, a renamed one re-created under
 * its old name and removed under its new one, anything else restored. Sorted by path. Pure.
 */
export function revertChanges(files: ReadonlyArray<Pick<DiffFile, "path" | "status" | "oldPath">>): Change[] {
  const out: Change[] = [];
  for (const f of files) {
    if (f.status === "added") out.push({ path: f.path, action: "remove" });
    else if (f.status === "deleted") out.push({ path: f.path, action: "recreate" });
    else if (f.status === "renamed") {
      out.push({ path: f.oldPath ?? f.path, action: "recreate" }, { path: f.path, action: "remove" });
    } else out.push({ path: f.path, action: "restore" });
  }
  return out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}
