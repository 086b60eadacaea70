// The event store: the only code that reads or writes the append-only Event journal rows: appends,
// pages by sequence number, and the reads and deletes of retention (core/events/retention.ts).
// Rows come back as typed events (server/wire/events.ts): each payload read with its type's
// schema, a field that does not fit dropped and named in `_invalid`; a row of a type this server
// has no schema for, or whose payload is not JSON, comes back as a `journal.unreadable` event
// carrying its type and its text (cut), so one odd row never fails a whole read.
import type { Db } from "../db";
import { Prisma } from "../db/generated/client";
import { cutText, LIMITS } from "../wire/common";
import { type EventType, isEventType, type StoredPayload, storedPayload, type YardEvent } from "../wire/events";

function toEvent(row: {
  seq: number;
  type: string;
  taskId: string | null;
  paneId: string | null;
  actor: string | null;
  payload: string;
  time: Date;
}): YardEvent {
  const head = {
    seq: row.seq,
    taskId: row.taskId,
    paneId: row.paneId,
    actor: row.actor,
    time: row.time.toISOString(),
  };
  const unreadable = (problem: string): YardEvent => ({
    ...head,
    type: "journal.unreadable",
    payload: { type: row.type, problem, raw: cutText(row.payload, LIMITS.eventString) },
  });
  if (!isEventType(row.type)) return unreadable("no schema for this event type");
  let raw: unknown;
  try {
    raw = JSON.parse(row.payload);
  } catch {
    return unreadable("the payload is not JSON");
  }
  return { ...head, type: row.type, payload: storedPayload(row.type, raw) } as YardEvent;
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

  async append(e: {
    type: EventType;
    taskId: string | null;
    paneId: string | null;
    actor: string | null;
    payload: Record<string, unknown>;
  }): Promise<YardEvent> {
    return toEvent(
      await this.db.event.create({
        data: { type: e.type, taskId: e.taskId, paneId: e.paneId, actor: e.actor, payload: JSON.stringify(e.payload) },
      }),
    );
  }

  /** Events of one type appended in [from, to], oldest first (at most `take`). */
  ofTypeBetween(type: EventType, from: Date, to: Date, take: number): Promise<YardEvent[]> {
    return this.db.event
      .findMany({ where: { type, time: { gte: from, lte: to } }, orderBy: { seq: "asc" }, take })
      .then((rows) => rows.map(toEvent));
  }

  /** What people did (events their calls appended), newest first: of one person, since a time, before a seq. */
  async audit(q: {
    actor?: string;
    since?: Date;
    before?: number;
    types?: readonly string[];
    take: number;
  }): Promise<YardEvent[]> {
    const rows = await this.db.event.findMany({
      where: {
        actor: q.actor ?? { not: null },
        time: q.since ? { gte: q.since } : undefined,
        seq: q.before !== undefined ? { lt: q.before } : undefined,
        type: q.types ? { in: [...q.types] } : undefined,
      },
      orderBy: { seq: "desc" },
      take: q.take,
    });
    return rows.map(toEvent);
  }

  /** The events with these seqs, in sequence order (those retention removed are missing). */
  async at(seqs: readonly number[]): Promise<YardEvent[]> {
    if (seqs.length === 0) return [];
    const rows = await this.db.event.findMany({ where: { seq: { in: [...seqs] } }, orderBy: { seq: "asc" } });
    return rows.map(toEvent);
  }

  /** One page in sequence order. */
  async page(q: EventPageQuery): Promise<YardEvent[]> {
    const rows = await this.db.event.findMany({
      where: {
        seq: q.after !== undefined ? { gt: q.after } : undefined,
        taskId: q.taskId,
        paneId: q.paneId,
        type: q.typePrefix ? { startsWith: q.typePrefix } : undefined,
      },
      orderBy: { seq: "asc" },
      take: q.take,
    });
    return rows.map(toEvent);
  }

  async head(): Promise<number> {
    const last = await this.db.event.findFirst({ orderBy: { seq: "desc" }, select: { seq: true } });
    return last?.seq ?? 0;
  }

  count(): Promise<number> {
    return this.db.event.count();
  }

  /** Sequence numbers and times of up to `take` events after `after`, none above `upTo`, oldest first. */
  async scan(after: number, upTo: number, take: number): Promise<Array<{ seq: number; time: Date }>> {
    return this.db.event.findMany({
      where: { seq: { gt: after, lte: upTo } },
      orderBy: { seq: "asc" },
      take,
      select: { seq: true, time: true },
    });
  }

  /** Deletes these events (a batch: at most a few hundred); returns how many went. */
  async deleteSeqs(seqs: number[]): Promise<number> {
    if (!seqs.length) return 0;
    return (await this.db.event.deleteMany({ where: { seq: { in: seqs } } })).count;
  }

  /**
   * Events the server itself still reads back, whatever their age: the newest `pane.lifecycle`
   * of each pane that is not exited or belongs to a task in one of `activeStates` (what a
   * restart's recovery reads to know what the pane was doing), and the `task.plan` events of
   * tasks in `activeStates` (the agent plan reviewer counts its rounds from them). One statement
   * each, joined against the pane and task rows (not many at any time).
   */
  async retainedSeqs(activeStates: readonly string[]): Promise<number[]> {
    // Quoted identifiers and a bound list: the same SQL on SQLite and PostgreSQL.
    const states = Prisma.join(activeStates.length ? [...activeStates] : [""]);
    const rows = await this.db.$queryRaw<Array<{ seq: number | bigint | null }>>`
      SELECT MAX(e."seq") AS "seq" FROM "Event" e
      WHERE e."type" = 'pane.lifecycle' AND e."paneId" IN (
        SELECT p."id" FROM "Pane" p WHERE p."lifecycle" <> 'exited'
        UNION SELECT t."paneId" FROM "Task" t WHERE t."paneId" IS NOT NULL AND t."state" IN (${states}))
      GROUP BY e."paneId"
      UNION ALL
      SELECT e."seq" FROM "Event" e
      WHERE e."type" = 'task.plan' AND e."taskId" IN (SELECT t."id" FROM "Task" t WHERE t."state" IN (${states}))`;
    return rows.flatMap((r) => (r.seq === null ? [] : [Number(r.seq)]));
  }

  /** The payload of the newest event of `type`, or null (retention's `journal.pruned` marker). */
  async latestPayload<T extends EventType>(type: T): Promise<StoredPayload<T> | null> {
    const row = await this.db.event.findFirst({ where: { type }, orderBy: { seq: "desc" } });
    return row ? (toEvent(row).payload as StoredPayload<T>) : null;
  }
}
