// The board view of a project: its tasks grouped into the derived columns, each card with the
// one line that says what needs attention (card-line.ts; live panes give the dialog or note).
import type { Db } from "../../db";
import type { PaneInfo } from "../panes/manager";
import { cardLine } from "./card-line";
import { COLUMNS, type Column, columnFor } from "./columns";

export interface BoardCard {
  id: string;
  title: string;
  label: string | null;
  state: string;
  disposition: string | null;
  agent: string;
  round: number;
  branch: string | null;
  updatedAt: string;
  /** what needs attention or what is going on, in one line (null: nothing beyond the state) */
  line: string | null;
}

export type Board = Record<Column, BoardCard[]>;

/** Live panes, for the lines of cards whose agent is running. */
export interface LivePanes {
  isLive(id: string): boolean;
  get(id: string): Promise<PaneInfo>;
}

export async function loadBoard(db: Db, projectId: string, panes?: LivePanes): Promise<Board> {
  const tasks = await db.task.findMany({ where: { projectId }, orderBy: { updatedAt: "desc" } });
  const blocked = new Set(
    (await db.pane.findMany({ where: { taskId: { in: tasks.map((t) => t.id) }, lifecycle: "blocked" }, select: { taskId: true } })).map((p) => p.taskId),
  );
  const board = Object.fromEntries(COLUMNS.map((c) => [c, [] as BoardCard[]])) as Board;
  for (const t of tasks) {
    const pane = panes && t.paneId && panes.isLive(t.paneId) ? await panes.get(t.paneId).catch(() => null) : null;
    let evidence: Record<string, unknown> | null = null;
    try {
      evidence = t.evidence ? (JSON.parse(t.evidence) as Record<string, unknown>) : null;
    } catch {
      evidence = null;
    }
    board[columnFor({ state: t.state, disposition: t.disposition, paneBlocked: blocked.has(t.id) })].push({
      id: t.id,
      title: t.title,
      label: t.label,
      state: t.state,
      disposition: t.disposition,
      agent: t.agent,
      round: t.round,
      branch: t.branch,
      updatedAt: t.updatedAt.toISOString(),
      line: cardLine({ state: t.state, evidence, pane }),
    });
  }
  return board;
}
