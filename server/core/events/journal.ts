// The append-only event journal: every `task.*` / `pane.*` / `journal.*` fact gets a row with a
// monotonic sequence number, then goes to live subscribers (socket.io, `yard events --follow`,
// waiters). Readers replay by sequence number, type glob, task or pane. Every payload is bounded
// before it is stored (bound.ts); old events are removed by retention (retention.ts), which
// leaves a `journal.pruned` marker saying through which seq. On PostgreSQL several server
// processes share one journal: each announces its appends through the database
// (stores/event-relay.ts) and hands the others' to the subscribers that ask for them.
//
// Events are typed: each type has its payload's schema (server/wire/events.ts), append takes
// only that payload (compile time) and checks it (run time). A payload that does not match is a
// bug in the code that appends it:
//   - strict (tests, `npm run dev`: NODE_ENV is not production; or YARD_STRICT_EVENTS=1): append
//     throws an INTERNAL YardError and nothing is written;
//   - production: the event is written anyway, its mismatched fields dropped and named (with
//     why and their values, cut) in the payload's `_invalid`, and the server log says so. The
//     append records a change that has already happened (a task row moved, a pane exited), and
//     readers wait for it (tasks.wait, the board, the agent reviewer, dependencies): refusing the
//     event would leave them waiting on a change they are never told of, so it is kept, marked.
import { EventEmitter } from "node:events";
import type { EventStore } from "../../stores/events";
import {
  type EventOf,
  type EventPayload,
  type EventType,
  isEventType,
  payloadProblems,
  storedPayload,
  type YardEvent,
} from "../../wire/events";
import { globMatch } from "../../wire/glob";
import { YardError } from "../errors";
import { boundPayload } from "./bound";
import { actingPerson } from "../actor";

export type { EventOf, EventPayload, EventType, YardEvent };

/** Whether a payload that does not match its schema throws (see the top). */
export const strictEventsDefault = (env: Record<string, string | undefined> = process.env): boolean =>
  env.NODE_ENV !== "production" || env.YARD_STRICT_EVENTS === "1";

export interface EventQuery {
  since?: number; // exclusive: events with seq > since
  type?: string; // glob: `task.*`, `pane.lifecycle`
  taskId?: string;
  paneId?: string;
  limit?: number;
}

function matches(e: YardEvent, q: EventQuery): boolean {
  if (q.since !== undefined && e.seq <= q.since) return false;
  if (q.taskId && e.taskId !== q.taskId) return false;
  if (q.paneId && e.paneId !== q.paneId) return false;
  if (q.type && !globMatch(q.type, e.type)) return false;
  return true;
}

const LIST_PAGE = 1000;

export interface JournalOptions {
  /** Throw on a payload that does not match its schema (default: strictEventsDefault()). */
  strict?: boolean;
  /** Where a production journal reports such a payload (default: stderr, the server log). */
  log?: (line: string) => void;
}

export class EventJournal {
  private readonly bus = new EventEmitter();
  private tail: Promise<unknown> = Promise.resolve();
  private readonly strict: boolean;
  private readonly log: (line: string) => void;
  /** Tells other server processes on the same database of a local append (PostgreSQL only). */
  private announce: ((seq: number) => void) | null = null;
  private remoteTail: Promise<unknown> = Promise.resolve();
  /** The latest seqs appended here or delivered from elsewhere (a bounded window): none goes out twice. */
  private readonly seen = new Set<number>();
  private maxSeen = 0;
  /** While the channel to other processes is down: the highest seq known when it went. */
  private dropMark: number | null = null;

  constructor(
    private readonly store: EventStore,
    opts: JournalOptions = {},
  ) {
    this.bus.setMaxListeners(0);
    this.strict = opts.strict ?? strictEventsDefault();
    this.log = opts.log ?? ((line) => console.error(line));
  }

  /**
   * Appends in call order (serialized), then notifies subscribers. The payload is checked
   * against its type's schema first (see the top for what a mismatch does), then bounded.
   */
  append<T extends EventType>(
    type: T,
    opts: { taskId?: string | null; paneId?: string | null; payload: EventPayload<T> },
  ): Promise<EventOf<T>> {
    let payload: Record<string, unknown> = opts.payload;
    const problems = isEventType(type) ? payloadProblems(type, payload) : [`no schema for event type ${type}`];
    if (problems.length) {
      const why = `journal event ${type} does not match its schema: ${problems.join("; ")}`;
      if (this.strict) return Promise.reject(new YardError("INTERNAL", why, { type, problems }));
      this.log(`switchyard: BUG: ${why} (kept, marked)`);
      if (isEventType(type)) payload = storedPayload(type, payload, { strictAgainstWrite: true });
    }
    // The person whose call this is (read now: the serialized run below may start outside the call).
    const actor = actingPerson();
    const run = async (): Promise<EventOf<T>> => {
      const event = await this.store.append({
        type,
        taskId: opts.taskId ?? null,
        paneId: opts.paneId ?? null,
        actor,
        payload: boundPayload(payload),
      });
      this.note(event.seq);
      this.bus.emit("event", event);
      this.announce?.(event.seq);
      return event as EventOf<T>;
    };
    const p = this.tail.then(run, run);
    this.tail = p.catch(() => {});
    return p;
  }

  /** Events of one type appended between two times, oldest first (at most 100,000). */
  between<T extends EventType>(type: T, from: Date, to: Date): Promise<EventOf<T>[]> {
    return this.store.ofTypeBetween(type, from, to, 100_000) as Promise<EventOf<T>[]>;
  }

  /** The audit trail: events people's calls appended, newest first (see EventStore.audit). */
  audit(q: {
    actor?: string;
    since?: Date;
    before?: number;
    types?: readonly string[];
    limit?: number;
  }): Promise<YardEvent[]> {
    return this.store.audit({ ...q, take: Math.min(q.limit ?? 200, 1000) });
  }

  /** Events matching the query, in order; a query for one exact type gets that type's events. */
  list<T extends EventType>(q: EventQuery & { type: T }): Promise<EventOf<T>[]>;
  list(q?: EventQuery): Promise<YardEvent[]>;
  async list(q: EventQuery = {}): Promise<YardEvent[]> {
    const limit = Math.min(q.limit ?? 1000, 10_000);
    // Type globs are filtered in memory (narrowed by prefix in SQL when the glob has one), in
    // pages, so a broad glob over a long journal never loads the whole table at once.
    const typePrefix = q.type ? q.type.split("*")[0] : "";
    const out: YardEvent[] = [];
    let after = q.since;
    for (;;) {
      const take = q.type ? LIST_PAGE : limit;
      const page = await this.store.page({
        after,
        taskId: q.taskId,
        paneId: q.paneId,
        typePrefix: typePrefix || undefined,
        take,
      });
      for (const e of page) if (matches(e, q) && out.push(e) >= limit) return out;
      if (page.length < take || !q.type) return out;
      after = page.at(-1)!.seq;
    }
  }

  head(): Promise<number> {
    return this.store.head();
  }

  /**
   * Through which seq retention removed events (0: never): a reader whose cursor is below it
   * missed events it will not get (all of them but the few retention keeps for the server).
   */
  async prunedThrough(): Promise<number> {
    const through = (await this.store.latestPayload("journal.pruned"))?.through;
    return typeof through === "number" ? through : 0;
  }

  /**
   * Joins the journals of other server processes on the same database: `announce` is called with
   * each local append's seq, and `deliverRemote` is given theirs.
   */
  connectProcesses(announce: (seq: number) => void): void {
    this.announce = announce;
  }

  /**
   * Another server process appended these events (heard through the database): read them and pass
   * them to the subscribers that asked for other processes' events (in the order heard).
   */
  deliverRemote(seqs: number[]): void {
    this.onRemoteTail(async () => {
      for (const e of await this.store.at(seqs)) if (this.note(e.seq)) this.bus.emit("remote", e);
    });
  }

  /** The channel to other processes dropped: what they append until it is back, no notice tells. */
  remoteDropped(): void {
    this.dropMark ??= this.maxSeen;
  }

  /**
   * The channel is back: the events appended since it dropped that were neither made here nor
   * delivered already go to the subscribers now, in sequence order, as if heard.
   */
  remoteReconnected(): void {
    const mark = this.dropMark;
    this.dropMark = null;
    if (mark === null) return;
    this.onRemoteTail(async () => {
      for (let after = mark; ; ) {
        const page = await this.store.page({ after, take: 500 });
        for (const e of page) if (this.note(e.seq)) this.bus.emit("remote", e);
        if (page.length < 500) return;
        after = page.at(-1)!.seq;
      }
    });
  }

  private onRemoteTail(run: () => Promise<void>): void {
    this.remoteTail = this.remoteTail
      .then(run)
      .catch((e: Error) => this.log(`switchyard: could not read other processes' events: ${e.message}`));
  }

  /** Records `seq` as handed out; false when it already was. */
  private note(seq: number): boolean {
    if (this.seen.has(seq)) return false;
    this.seen.add(seq);
    if (this.seen.size > 10_000) this.seen.delete(this.seen.values().next().value as number);
    if (seq > this.maxSeen) this.maxSeen = seq;
    return true;
  }

  /**
   * Calls `listener` with each new event matching the query; a query for one exact type gets that
   * type's events. Only this process's events, unless `otherProcesses`: a subscriber that acts on an
   * event (starts a dependent task, posts a webhook, counts a diff) acts where the event was made;
   * one that shows or waits (the browser's live board, `yard task wait`) wants every process's.
   */
  subscribe<T extends EventType>(
    listener: (e: EventOf<T>) => void,
    q: EventQuery & { type: T },
    opts?: { otherProcesses?: boolean },
  ): () => void;
  subscribe(listener: (e: YardEvent) => void, q?: EventQuery, opts?: { otherProcesses?: boolean }): () => void;
  subscribe(listener: (e: YardEvent) => void, q: EventQuery = {}, opts: { otherProcesses?: boolean } = {}): () => void {
    const fn = (e: YardEvent) => {
      if (matches(e, q)) listener(e);
    };
    this.bus.on("event", fn);
    if (opts.otherProcesses) this.bus.on("remote", fn);
    return () => {
      this.bus.off("event", fn);
      this.bus.off("remote", fn);
    };
  }
}
