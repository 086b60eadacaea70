// The append-only event journal: every `task.*` / `pane.*` / `project.*` fact gets a row with a
// monotonic sequence number, then goes to live subscribers (socket.io, `yard events --follow`,
// waiters). Readers replay by sequence number, type glob, task or pane. Every payload is bounded
// before it is stored (bound.ts); old events are removed by retention (retention.ts), which
// leaves a `journal.pruned` marker saying through which seq.
import { EventEmitter } from "node:events";
import type { EventStore } from "../../stores/events";
import { boundPayload } from "./bound";
import { globMatch } from "../../wire/glob";

export interface YardEvent {
  seq: number;
  type: string;
  taskId: string | null;
  paneId: string | null;
  payload: Record<string, unknown>;
  time: string;
}

export interface EventQuery {
  since?: number; // exclusive: events with seq > since
  type?: string; // glob: `task.*`, `pane.lifecycle`
  taskId?: string;
  paneId?: string;
  limit?: number;
}

export function matches(e: YardEvent, q: EventQuery): boolean {
  if (q.since !== undefined && e.seq <= q.since) return false;
  if (q.taskId && e.taskId !== q.taskId) return false;
  if (q.paneId && e.paneId !== q.paneId) return false;
  if (q.type && !globMatch(q.type, e.type)) return false;
  return true;
}

const LIST_PAGE = 1000;

export class EventJournal {
  private readonly bus = new EventEmitter();
  private tail: Promise<unknown> = Promise.resolve();

  constructor(private readonly store: EventStore) {
    this.bus.setMaxListeners(0);
  }

  /** Appends in call order (serialized), then notifies subscribers. */
  append(
    type: string,
    opts: { taskId?: string | null; paneId?: string | null; payload?: Record<string, unknown> } = {},
  ): Promise<YardEvent> {
    const run = async (): Promise<YardEvent> => {
      const event = await this.store.append({
        type,
        taskId: opts.taskId ?? null,
        paneId: opts.paneId ?? null,
        payload: boundPayload(opts.payload ?? {}),
      });
      this.bus.emit("event", event);
      return event;
    };
    const p = this.tail.then(run, run);
    this.tail = p.catch(() => {});
    return p;
  }

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

  subscribe(listener: (e: YardEvent) => void, q: EventQuery = {}): () => void {
    const fn = (e: YardEvent) => {
      if (matches(e, q)) listener(e);
    };
    this.bus.on("event", fn);
    return () => this.bus.off("event", fn);
  }
}
