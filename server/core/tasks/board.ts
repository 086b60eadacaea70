// The board view of a project: its tasks grouped into the derived columns, each card with what a
// reviewer scans for (changed files, whether it needs a person, where its review stands). Two
// queries whatever the number of tasks: the tasks with their derived columns, and the blocked panes.
import type { BoardCard } from "../../contracts/tasks";
import { toStatus } from "../../stores/reviews";
import { COLUMNS, type Column, columnFor } from "./columns";
import type { TaskStore } from "../../stores/tasks";

export type { BoardCard } from "../../contracts/tasks";
export type Board = Record<Column, BoardCard[]>;

export async function loadBoard(store: TaskStore, projectId: string): Promise<Board> {
  const [tasks, blocked] = await Promise.all([store.boardRows(projectId), store.blockedPaneIds()]);
  const board = Object.fromEntries(COLUMNS.map((c) => [c, [] as BoardCard[]])) as Board;
  for (const t of tasks) {
    const paneBlocked = t.paneId !== null && blocked.has(t.paneId);
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
      reviewStatus: toStatus(t.verdict),
      createdAt: t.createdAt.toISOString(),
      updatedAt: t.updatedAt.toISOString(),
    });
  }
  return board;
}
