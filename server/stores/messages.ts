// Persistence for the question/answer thread between a task's worker and its orchestrator
// (Message rows) and the parent's acknowledgement of a result (Task.resultAckedAt): the only
// code that reads or writes them.
import type { z } from "zod";
import type { Db } from "../db";
import type { message } from "../wire/orchestration";

type MessageKind = z.infer<typeof message>["kind"];

export interface MessageRecord {
  id: string;
  taskId: string;
  author: string;
  kind: MessageKind;
  body: string;
  replyTo: string | null;
  round: number;
  createdAt: Date;
}

export class MessageStore {
  constructor(private readonly db: Db) {}

  async add(m: Omit<MessageRecord, "createdAt">): Promise<MessageRecord> {
    const row = await this.db.message.create({ data: m });
    return { ...row, kind: row.kind as MessageKind };
  }

  async thread(taskId: string): Promise<MessageRecord[]> {
    const rows = await this.db.message.findMany({ where: { taskId }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
    return rows.map((r) => ({ ...r, kind: r.kind as MessageKind }));
  }

  /** The latest question that has no answer yet, if any. */
  async openQuestion(taskId: string): Promise<MessageRecord | null> {
    const thread = await this.thread(taskId);
    const answered = new Set(thread.filter((m) => m.kind === "answer" && m.replyTo).map((m) => m.replyTo));
    const open = thread.filter((m) => m.kind === "question" && !answered.has(m.id));
    return open.at(-1) ?? null;
  }

  async acknowledge(taskId: string, at: Date): Promise<void> {
    await this.db.task.update({ where: { id: taskId }, data: { resultAckedAt: at } });
  }

  /** Tasks a parent pane started whose result it has not acknowledged (its attention). */
  async unacknowledged(
    parentPaneId: string,
    states: readonly string[],
  ): Promise<Array<{ id: string; title: string; state: string; updatedAt: Date; paneId: string | null }>> {
    return this.db.task.findMany({
      where: { parentPaneId, state: { in: [...states] }, resultAckedAt: null, disposition: null },
      select: { id: true, title: true, state: true, updatedAt: true, paneId: true },
      orderBy: { updatedAt: "desc" },
    });
  }
}
