// The board view of a project: its tasks grouped into the derived columns (Done holds only its
// newest DONE_ON_BOARD cards; the rest are a page at a time: loadDonePage), each card with what a
// reviewer scans for (its diff size, whether it needs a person, where its review stands, how long
// it has been in its column) and the one line that says what needs attention (card-line.ts; live
// panes give the dialog or note). Three queries whatever the number of tasks: the tasks with their
// derived columns and stored diff sizes (diff-stats.ts takes them off the request path), the
// blocked panes, and every card's dependencies (one batched read); live panes are asked in memory,
// and the branches of approved cards are read with one git call per repository (an approval of a
// branch that has moved since shows as outdated).
import { type BoardCard, DONE_ON_BOARD, type DonePage } from "../../wire/board";
import { YardError } from "../errors";
import { reviewStatuses } from "../reviews/approval";
import type { BoardRow, TaskStore } from "../../stores/tasks";
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
  const [tasks, blocked] = await Promise.all([store.board.rows(projectId, DONE_ON_BOARD), store.blockedPanes()]);
  const board = Object.fromEntries(COLUMNS.map((c) => [c, [] as BoardCard[]])) as Board;
  for (const { column, card } of await toCards(tasks, blocked, panes, waitingMany)) board[column].push(card);
  return board;
}

/** Done cards, newest first, a page at a time: `cursor` is the previous page's `next`. */
export async function loadDonePage(
  store: TaskStore,
  projectId: string,
  q: { cursor?: string; limit: number },
): Promise<DonePage> {
  const before = q.cursor === undefined ? undefined : decodeCursor(q.cursor);
  const [rows, total] = await Promise.all([
    store.board.doneRows(projectId, { before, limit: q.limit }),
    store.board.doneCount(projectId),
  ]);
  const cards = (await toCards(rows, new Map())).map((c) => c.card);
  const last = rows.at(-1);
  return { cards, total, next: last && rows.length === q.limit ? encodeCursor(last) : null };
}

const encodeCursor = (r: { updatedAt: Date; id: string }) => `${r.updatedAt.getTime()}.${r.id}`;

function decodeCursor(cursor: string): { updatedAt: Date; id: string } {
  const m = /^(\d{1,15})\.([a-z0-9]{1,40})$/.exec(cursor);
  if (!m) throw new YardError("BAD_PARAMS", "That page cursor is not one board.done gave", { cursor });
  return { updatedAt: new Date(Number(m[1])), id: m[2]! };
}

/** Each row's card and the column it goes in (a blocked pane puts a running task in Needs you). */
async function toCards(
  tasks: BoardRow[],
  blocked: Map<string, Date>,
  panes?: LivePanes,
  waitingMany?: WaitingMany,
): Promise<Array<{ column: Column; card: BoardCard }>> {
  const waiting = waitingMany
    ? await waitingMany(tasks.map((t) => ({ id: t.id, autoStartWhen: t.autoStartWhen as AutoStartWhen | null })))
    : new Map<string, Waiting>();
  const statuses = await reviewStatuses(tasks);
  const out: Array<{ column: Column; card: BoardCard }> = [];
  for (const t of tasks) {
    const blockedAt = t.paneId !== null ? blocked.get(t.paneId) : undefined;
    const paneBlocked = blockedAt !== undefined;
    const pane = panes && t.paneId && panes.isLive(t.paneId) ? await panes.get(t.paneId).catch(() => null) : null;
    const evidence = parseEvidence(t.evidence);
    out.push({
      column: columnFor({ state: t.state, disposition: t.disposition, paneBlocked }),
      card: {
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
        line: cardLine({ state: t.state, evidence, pane }),
        setup: setupOf(t.state, evidence),
        waiting: t.state === "backlog" ? (waiting.get(t.id)?.reason ?? null) : null,
        dependsOn: waiting.get(t.id)?.dependencies.map((d) => d.id) ?? [],
        startedBy: t.startedBy,
        runner: t.runner,
        createdAt: t.createdAt.toISOString(),
        updatedAt: t.updatedAt.toISOString(),
        columnSince: columnSince(t, blockedAt).toISOString(),
      },
    });
  }
  return out;
}
