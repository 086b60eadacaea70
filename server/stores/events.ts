// The event store: the only code that reads or writes the append-only Event journal rows.
import type { YardEvent } from "../core/events/journal";
import type { Db } from "../db";

function toEvent(row: { seq: number; type: string; taskId: string | null; paneId: string | null; payload: string; time: Date }): YardEvent {
  let payload: Record<string, unknown> = {};
  try {
    payload = JSON.parse(row.payload) as Record<string, unknown>;
  } catch {
    payload = { raw: row.payload };
  }
  return { seq: row.seq, type: row.type, taskId: row.taskId, paneId: row.paneId, payload, time: row.time.toISOString() };
}

export interface EventPageQuery {
  /** Events with seq > after. */
  after?: number;
  taskId?: string;
  paneId?: string;
  /** Narrow by type prefix (a glob's literal start). */
  typePrefix?: string;
  take: number;
}

export class EventStore {
  constructor(private readonly db: Db) {}

  async append(e: { type: string; taskId: string | null; paneId: string | null; payload: Record<string, unknown> }): Promise<YardEvent> {
    return toEvent(await this.db.event.create({ data: { type: e.type, taskId: e.taskId, paneId: e.paneId, payload: JSON.stringify(e.payload) } }));
  }

  /** One page in sequence order. */
  async page(q: EventPageQuery): Promise<YardEvent[]> {
    const rows = await this.db.event.findMany({
      where: { seq: q.after !== undefined ? { gt: q.after } : undefined, taskId: q.taskId, paneId: q.paneId, type: q.typePrefix ? { startsWith: q.typePrefix } : undefined },
      orderBy: { seq: "asc" },
      take: q.take,
    });
    return rows.map(toEvent);
  }

  async head(): Promise<number> {
    const last = await this.db.event.findFirst({ orderBy: { seq: "desc" }, select: { seq: true } });
    return last?.seq ?? 0;
  }
}
