// The board view of a project: its tasks grouped into the derived columns.
import type { Db } from "../../db";
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
}

export type Board = Record<Column, BoardCard[]>;

export async function loadBoard(db: Db, projectId: string): Promise<Board> {
  const tasks = await db.task.findMany({ where: { projectId }, orderBy: { updatedAt: "desc" } });
  const blocked = new Set(
    (await db.pane.findMany({ where: { taskId: { in: tasks.map((t) => t.id) }, lifecycle: "blocked" }, select: { taskId: true } })).map((p) => p.taskId),
  );
  const board = Object.fromEntries(COLUMNS.map((c) => [c, [] as BoardCard[]])) as Board;
  for (const t of tasks) {
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
    });
  }
  return board;
}
