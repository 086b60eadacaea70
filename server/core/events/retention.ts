// Journal retention: the journal is append-only for readers, and this is the one thing that
// removes rows from it. Events go when they are older than the age limit, or when the journal
// holds more than the count limit (the oldest first), in both cases never:
//   - an event younger than minAgeMs (10 minutes): a reader polling the journal by sequence
//     number (`yard events --follow`, a socket replaying from its last seq) is never outrun;
//   - an event the server still reads back (EventStore.retainedSeqs: the newest lifecycle event
//     of a live pane, the plan events of an unfinished task);
//   - the newest event: a run that deleted anything appends a `journal.pruned` marker, so the
//     head never goes backwards.
// It runs off the request path: once at start-up and then every intervalMs, in batches of
// `batch` rows with the event loop given back between them, so a long backlog (a data dir kept
// for years, a first start with retention) never holds the server up.
//
// What a reader whose cursor is below the pruned range gets: the events still held after it, in
// order, as always (nothing fails); the `journal.pruned` marker among them says through which
// sequence number events were removed (`through`, and `kept`: the retained ones below it), and
// EventJournal.prunedThrough() answers the same.
import type { EventStore } from "../../stores/events";
import { ACTIVE_STATES } from "../tasks/state";
import type { EventJournal } from "./journal";

export const PRUNED_EVENT = "journal.pruned";

/** The limits, as the settings give them (null: no limit of that kind). */
interface RetentionLimits {
  maxAgeMs: number | null;
  maxEvents: number | null;
}

export interface PrunerOptions extends RetentionLimits {
  store: EventStore;
  journal: EventJournal;
  /** Never prune an event younger than this (ms), whatever the limits. Default 10 minutes. */
  minAgeMs?: number;
  /** Rows read and deleted per step. Default 500. */
  batch?: number;
  /** Between runs (ms). Default 10 minutes. */
  intervalMs?: number;
  now?: () => number;
  log?: (line: string) => void;
}

export interface PruneResult {
  deleted: number;
  /** Every event up to this seq is gone but the `kept` ones; null when nothing was deleted. */
  through: number | null;
  kept: number;
  batches: number;
}

const DEFAULT_MIN_AGE_MS = 10 * 60_000;
const DEFAULT_INTERVAL_MS = 10 * 60_000;
const DEFAULT_BATCH = 500;
/** Task states whose events the server may still read back (recovery, the plan reviewer). */
const LIVE_TASK_STATES: readonly string[] = ["backlog", ...ACTIVE_STATES];

export class JournalPruner {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<PruneResult> | null = null;
  private stopped = false;

  constructor(private readonly o: PrunerOptions) {}

  /** The first run right away (not awaited: start-up does not wait for it), then one every intervalMs. */
  start(): void {
    if (this.o.maxAgeMs === null && this.o.maxEvents === null) return;
    const schedule = (ms: number) => {
      this.timer = setTimeout(tick, ms);
      this.timer.unref();
    };
    const tick = () => {
      this.timer = null;
      void this.run()
        .catch((e) => this.o.log?.(`journal retention failed: ${(e as Error).message}`))
        .finally(() => {
          if (!this.stopped) schedule(this.o.intervalMs ?? DEFAULT_INTERVAL_MS);
        });
    };
    schedule(0);
  }

  /** Stops the schedule and waits for a run in progress (it ends after its current batch). */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running?.catch(() => {});
  }

  /** One run (a run already in progress is joined, not doubled). */
  run(): Promise<PruneResult> {
    this.running ??= this.prune().finally(() => (this.running = null));
    return this.running;
  }

  private async prune(): Promise<PruneResult> {
    const { store, maxAgeMs, maxEvents } = this.o;
    const result: PruneResult = { deleted: 0, through: null, kept: 0, batches: 0 };
    const now = (this.o.now ?? Date.now)();
    const head = await store.head();
    if (!head) return result;
    const floor = now - (this.o.minAgeMs ?? DEFAULT_MIN_AGE_MS);
    const ageCutoff = maxAgeMs === null ? null : now - maxAgeMs;
    const over = maxEvents === null ? 0 : (await store.count()) - maxEvents;
    // One more than the excess: the marker this run appends is an event too.
    let excess = over > 0 ? over + 1 : 0;
    if (excess === 0 && ageCutoff === null) return result;
    const retained = new Set(await store.retainedSeqs(LIVE_TASK_STATES));
    const retainedSeen: number[] = [];
    const batch = this.o.batch ?? DEFAULT_BATCH;
    let after = 0;
    for (;;) {
      const rows = await store.scan(after, head, batch);
      result.batches++;
      const doomed: number[] = [];
      let done = rows.length < batch;
      for (const r of rows) {
        if (retained.has(r.seq)) {
          retainedSeen.push(r.seq);
          continue;
        }
        const t = r.time.getTime();
        const old = ageCutoff !== null && t < ageCutoff;
        // Sequence order is time order: the first event that stays ends the run.
        if (t >= floor || (!old && excess <= 0)) {
          done = true;
          break;
        }
        doomed.push(r.seq);
        if (excess > 0) excess--;
      }
      if (doomed.length) {
        result.deleted += await store.deleteSeqs(doomed);
        result.through = doomed.at(-1)!;
      }
      if (done || this.stopped || !rows.length) break;
      after = rows.at(-1)!.seq;
      await new Promise((r) => setImmediate(r)); // requests waiting on the event loop go first
    }
    if (result.deleted) {
      result.kept = retainedSeen.filter((s) => s < result.through!).length;
      await this.o.journal.append(PRUNED_EVENT, {
        payload: {
          through: result.through!,
          deleted: result.deleted,
          kept: result.kept,
          maxDays: maxAgeMs === null ? null : maxAgeMs / 86_400_000,
          maxEvents,
        },
      });
      this.o.log?.(`journal retention: removed ${result.deleted} event(s) through seq ${result.through}`);
    }
    return result;
  }
}
