// Persistence for a task's turn snapshots (TaskTurn rows, taken by core/tasks/turns.ts): the only
// code that reads or writes them. The rows are the record the board trusts; the hidden refs in
// the repository (which an agent can rewrite) only keep the snapshot commits alive.
import type { Db } from "../db";

export type TurnRow = NonNullable<Awaited<ReturnType<Db["taskTurn"]["findUnique"]>>>;

export class TurnStore {
  constructor(private readonly db: Db) {}

  /** Every snapshot of the task, oldest first. */
  list(taskId: string): Promise<TurnRow[]> {
    return this.db.taskTurn.findMany({ where: { taskId }, orderBy: { number: "asc" } });
  }

  get(taskId: string, number: number): Promise<TurnRow | null> {
    return this.db.taskTurn.findUnique({ where: { taskId_number: { taskId, number } } });
  }

  /** The task's latest snapshot (null: none yet). */
  last(taskId: string): Promise<TurnRow | null> {
    return this.db.taskTurn.findFirst({ where: { taskId }, orderBy: { number: "desc" } });
  }

  async add(row: Omit<TurnRow, "createdAt">): Promise<TurnRow> {
    return this.db.taskTurn.create({ data: row });
  }

  async removeAll(taskId: string): Promise<number> {
    return (await this.db.taskTurn.deleteMany({ where: { taskId } })).count;
  }

  /** Tasks that have snapshots: whether each is finished, and where its worktree is. */
  async tasksWithTurns(): Promise<Array<{ id: string; disposition: string | null; worktreePath: string | null }>> {
    return this.db.task.findMany({
      where: { turns: { some: {} } },
      select: { id: true, disposition: true, worktreePath: true },
    });
  }
}
