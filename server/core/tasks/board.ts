// The board view of a project: its tasks grouped into the derived columns, each card with what a
// reviewer scans for (changed files, whether it needs a person, where its review stands) and the
// one line that says what needs attention (card-line.ts; live panes give the dialog or note).
// Three queries whatever the number of tasks: the tasks with their derived columns, the blocked
// panes, and every card's dependencies (one batched read); live panes are asked in memory, and
// the branches of approved cards are read with one git call per repository (an approval of a
// branch that has moved since shows as outdated).
import type { BoardCard } from "../../wire/board";
import { reviewStatuses } from "../reviews/approval";
import type { TaskStore } from "../../stores/tasks";
import type { PaneInfo } from "../panes/manager";
import { cardLine } from "./card-line";
import type { AutoStartWhen, Waiting } from "./dependencies";
import { COLUMNS, type Column, columnFor } from "./columns";

export type { BoardCard } from "../../wire/board";
export type Board = Record<Column, BoardCard[]>;

/** Live panes, for the lines of cards whose agent is running. */
export interface LivePanes {
  isLive(id: string): boolean;
  get(id: string): Promise<PaneInfo>;
}

function parseEvidence(s: string | null): Record<string, unknown> | null {
  if (!s) return null;
  try {
    return JSON.parse(s) as Record<string, unknown>;
  } catch {
    return null;
  }
}

/** The waiting status of many tasks at once (TaskDependencies.waitingMany); tasks without dependencies are absent. */
export type WaitingMany = (
  tasks: Array<{ id: string; autoStartWhen: AutoStartWhen | null }>,
) => Promise<Map<string, Waiting>>;

export async function loadBoard(
  store: TaskStore,
  projectId: string,
  panes?: LivePanes,
  waitingMany?: WaitingMany,
): Promise<Board> {
  const [tasks, blocked] = await Promise.all([store.boardRows(projectId), store.blockedPaneIds()]);
  const waiting = waitingMany
    ? await waitingMany(tasks.map((t) => ({ id: t.id, autoStartWhen: t.autoStartWhen as AutoStartWhen | null })))
    : new Map<string, Waiting>();
  const statuses = await reviewStatuses(tasks);
  const board = Object.fromEntries(COLUMNS.map((c) => [c, [] as BoardCard[]])) as Board;
  for (const t of tasks) {
    const paneBlocked = t.paneId !== null && blocked.has(t.paneId);
    const pane = panes && t.paneId && panes.isLive(t.paneId) ? await panes.get(t.paneId).catch(() => null) : null;
    board[columnFor({ state: t.state, disposition: t.disposition, paneBlocked })].push({
      id: t.id,
      title: t.title,
      label: t.label,
      state: t.state,
      disposition: t.disposition,
      agent: t.agent,
      round: t.round,
      branch: t.branch,
      contextId: t.contextId,
      changedFiles: t.changedFiles ? t.changedFiles : null,
      needsUser: !t.disposition && (paneBlocked || t.state === "input_required"),
      reviewStatus: statuses.get(t.id) ?? "none",
      line: cardLine({ state: t.state, evidence: parseEvidence(t.evidence), pane }),
      waiting: t.state === "backlog" ? (waiting.get(t.id)?.reason ?? null) : null,
      dependsOn: waiting.get(t.id)?.dependencies.map((d) => d.id) ?? [],
      createdAt: t.createdAt.toISOString(),
      updatedAt: t.updatedAt.toISOString(),
    });
  }
  return board;
}
