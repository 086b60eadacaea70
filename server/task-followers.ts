// What follows each task's branch and worktree in the background, wired here for the composition
// root: the boards' diff sizes (after each state change), the worktree's snapshot at each turn's
// end, how far the branch is behind its target (and when a target moves), and the pull request
// opened for it (kept current by a poll; one merged on GitHub finishes its task).
import { DEFAULT_POLL_MS, PullRequestPoll } from "./core/github/poll";
import { GithubHandoff } from "./core/github/service";
import type { EventJournal } from "./core/events/journal";
import type { PaneManager } from "./core/panes/manager";
import type { Projects } from "./core/projects/projects";
import { TaskBranchWatch } from "./core/tasks/behind";
import { TaskDiffStats } from "./core/tasks/diff-stats";
import type { TaskEngine } from "./core/tasks/engine";
import { TaskTurns } from "./core/tasks/turns";
import type { BranchStore } from "./stores/branches";
import type { HandoffStore } from "./stores/handoff";
import type { ReviewStore } from "./stores/reviews";
import type { TaskStore } from "./stores/tasks";
import type { TurnStore } from "./stores/turns";

export async function startTaskFollowers(d: {
  handoffStore: HandoffStore;
  turnStore: TurnStore;
  journal: EventJournal;
  engine: TaskEngine;
  panes: PaneManager;
  projects: Projects;
  taskStore: TaskStore;
  reviewStore: ReviewStore;
  branchStore: BranchStore;
  /** YARD_GITHUB_POLL_MS */
  pollMs?: number;
  log?: (line: string) => void;
}): Promise<{ turns: TaskTurns; github: GithubHandoff; stop(): Promise<void> }> {
  const { journal, engine, log, handoffStore } = d;
  const diffStats = new TaskDiffStats({ journal, store: d.taskStore, stat: (id) => engine.diffStat(id), log });
  await diffStats.attach();
  const github = new GithubHandoff({
    store: handoffStore,
    journal,
    task: (id) => engine.row(id),
    view: (id) => engine.get(id),
    reviews: (id, round) => d.reviewStore.reviews(id, round),
    uncommitted: (id) => engine.uncommitted(id),
    finishViaPullRequest: (id, pr) => engine.finishViaPullRequest(id, pr),
    projectExists: async (id) => void (await d.projects.get(id)),
  });
  const prPoll = new PullRequestPoll({
    store: handoffStore,
    refresh: (row, next, signal) => github.refresh(row, next, signal),
    intervalMs: d.pollMs ?? DEFAULT_POLL_MS,
    log,
  });
  prPoll.start();
  const turns = new TaskTurns({
    journal,
    store: d.turnStore,
    task: (id) => engine.row(id),
    lifecycle: (paneId) => d.panes.state(paneId)?.lifecycle ?? null,
    log,
  });
  await turns.attach();
  const branchWatch = new TaskBranchWatch({
    journal,
    store: d.branchStore,
    settle: (id) => engine.settleUpdate(id),
    log,
  });
  await branchWatch.attach();
  return {
    turns,
    github,
    async stop() {
      await diffStats.detach();
      await prPoll.stop();
      await turns.detach();
      await branchWatch.detach();
    },
  };
}
