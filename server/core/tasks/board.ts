// The board view of a project: its tasks grouped into the derived columns, each card with what a
// reviewer scans for (its diff size, whether it needs a person, where its review stands, how long
// it has been in its column) and the one line that says what needs attention (card-line.ts; live
// panes give the dialog or note). Three queries whatever the number of tasks: the tasks with their
// derived columns and stored diff sizes (diff-stats.ts takes them off the request path), the
// blocked panes, and every card's dependencies (one batched read); live panes are asked in memory,
// and the branches of approved cards are read with one git call per repository (an approval of a
// branch that has moved since shows as outdated).
import type { BoardCard } from "../../wire/board";
import { reviewStatuses } from "../reviews/approval";
import type { TaskStore } from "../../stores/tasks";
import type { PaneInfo } from "../panes/manager";
import { cardLine, setupOf } from "./card-line";
import type { AutoStartWhen, Waiting } from "./dependencies";
import { COLUMNS, type Column, type ColumnInput, columnFor } from "./columns";
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

/** Whether a change of state or disposition moves the task's card to another column (a blocked pane aside). */
export function movesColumn(from: ColumnInput, to: ColumnInput): boolean {
  return columnFor(from) !== columnFor(to);
}

/**
 * When the card entered its column: the time its state or disposition last moved it (a task
 * recorded before that was kept: its last change), or, in Needs you because its pane is blocked,
 * when the pane blocked (if later).
 */
export function columnSince(t: { columnSince: Date | null; updatedAt: Date }, paneBlockedAt?: Date): Date {
  const moved = t.columnSince ?? t.updatedAt;
  return paneBlockedAt && paneBlockedAt > moved ? paneBlockedAt : moved;
}

export async function loadBoard(
  store: TaskStore,
  projectId: string,
  panes?: LivePanes,
  waitingMany?: WaitingMany,
): Promise<Board> {
  const [tasks, blocked] = await Promise.all([store.boardRows(projectId), store.blockedPanes()]);
  const waiting = waitingMany
    ? await waitingMany(tasks.map((t) => ({ id: t.id, autoStartWhen: t.autoStartWhen as AutoStartWhen | null })))
    : new Map<string, Waiting>();
  const statuses = await reviewStatuses(tasks);
  const board = Object.fromEntries(COLUMNS.map((c) => [c, [] as BoardCard[]])) as Board;
  for (const t of tasks) {
    const blockedAt = t.paneId !== null ? blocked.get(t.paneId) : undefined;
    const paneBlocked = blockedAt !== undefined;
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
      diffStat: t.diffStat,
      needsUser: !t.disposition && (paneBlocked || t.state === "input_required"),
      reviewStatus: statuses.get(t.id) ?? "none",
      line: cardLine({ state: t.state, evidence: parseEvidence(t.evidence), pane }),
      setup: setupOf(t.state, parseEvidence(t.evidence)),
      waiting: t.state === "backlog" ? (waiting.get(t.id)?.reason ?? null) : null,
      dependsOn: waiting.get(t.id)?.dependencies.map((d) => d.id) ?? [],
      startedBy: t.startedBy,
      createdAt: t.createdAt.toISOString(),
      updatedAt: t.updatedAt.toISOString(),
      columnSince: columnSince(t, blockedAt).toISOString(),
    });
  }
  return board;
}
