// Events across server processes on one PostgreSQL database (LISTEN/NOTIFY). Each process that
// appends an event announces its seq on the `yard_events` channel, tagged with the process's
// origin id; every other process listening hears it and reads the event from the journal (the
// database is the source, the notice only a doorbell: a notice carries no payload a listener
// trusts). Owns one dedicated connection (LISTEN needs a session of its own, outside Prisma's
// pool), its reconnects, and batching a burst of appends into few notices. Nothing is lost to a
// dropped connection: this process's announcements wait for the next one, and once it listens
// again the journal is told to read what others appended meanwhile (onDrop, onReconnect).
import { randomBytes } from "node:crypto";
import type pg from "pg";

const EVENTS_CHANNEL = "yard_events";
/** The relay's connection as pg_stat_activity names it. */
export const RELAY_APPLICATION = "switchyard-events";
/** PostgreSQL refuses notices over 8000 bytes: a notice carries at most this many seqs. */
const MAX_SEQS = 500;
/** Seqs kept to announce while the connection is down (beyond it the oldest go: readers catch up). */
const MAX_QUEUED = 10_000;

export interface EventRelayOptions {
  url: string;
  /** Called with other processes' new seqs, in the order their notices arrived. */
  onRemote(seqs: number[]): void;
  /** The connection dropped: notices sent until it is back are not heard. */
  onDrop?(): void;
  /** The connection is back and listening again: time to read what was missed. */
  onReconnect?(): void;
  log?: (line: string) => void;
}

export class PgEventRelay {
  /** This process's tag on its notices (its own are ignored when heard back). */
  readonly origin = randomBytes(6).toString("hex");
  private client: pg.Client | null = null;
  private queued: number[] = [];
  private flushing: Promise<void> | null = null;
  private closed = false;
  private retryMs = 250;
  private reconnecting = false;

  private constructor(private readonly opts: EventRelayOptions) {}

  static async start(opts: EventRelayOptions): Promise<PgEventRelay> {
    const relay = new PgEventRelay(opts);
    await relay.connect();
    return relay;
  }

  private async connect(): Promise<void> {
    // Loaded here, not at the top: a board on SQLite never starts a relay, and pg's modules cost
    // ~45 ms of every server's start.
    const { default: pgModule } = await import("pg");
    const client = new pgModule.Client({
      connectionString: this.opts.url,
      connectionTimeoutMillis: 10_000,
      application_name: RELAY_APPLICATION,
    });
    client.on("notification", (n) => {
      if (n.channel !== EVENTS_CHANNEL || !n.payload) return;
      const [origin, list] = n.payload.split(":");
      if (origin === this.origin || !list) return;
      const seqs = list
        .split(",")
        .map(Number)
        .filter((x) => Number.isSafeInteger(x) && x > 0);
      if (seqs.length) this.opts.onRemote(seqs);
    });
    client.on("error", (e) => this.lost(client, e));
    client.on("end", () => this.lost(client, new Error("connection ended")));
    await client.connect();
    await client.query(`LISTEN ${EVENTS_CHANNEL}`);
    const again = this.reconnecting;
    this.client = client;
    this.reconnecting = false;
    this.retryMs = 250;
    if (again) {
      this.opts.onReconnect?.();
      // What this process appended meanwhile, announced now.
      if (this.queued.length) this.flushing ??= this.flush();
    }
  }

  /** The connection dropped: reconnect with backoff (up to 10 s between tries) until closed. */
  private lost(client: pg.Client, e: Error): void {
    if (this.client !== client || this.closed) return;
    this.client = null;
    this.reconnecting = true;
    this.opts.onDrop?.();
    client.end().catch(() => {});
    this.opts.log?.(`switchyard: lost the database's event channel (${e.message}); reconnecting`);
    const retry = () => {
      if (this.closed) return;
      this.connect().catch(() => {
        this.retryMs = Math.min(this.retryMs * 2, 10_000);
        setTimeout(retry, this.retryMs).unref();
      });
    };
    setTimeout(retry, this.retryMs).unref();
  }

  /** Adds seqs to announce, after or before those waiting; past MAX_QUEUED the oldest go. */
  private queue(seqs: number[], where: "first" | "last"): void {
    if (where === "last") this.queued.push(...seqs);
    else this.queued.unshift(...seqs);
    if (this.queued.length > MAX_QUEUED) this.queued.splice(0, this.queued.length - MAX_QUEUED);
  }

  /** Tells the other processes this one appended `seq` (batched with the appends of the same tick). */
  announce(seq: number): void {
    this.queue([seq], "last");
    this.flushing ??= new Promise<void>((resolve) => setImmediate(resolve)).then(() => this.flush());
  }

  private async flush(): Promise<void> {
    while (this.queued.length) {
      const client = this.client;
      if (!client) break; // reconnecting: kept, and announced once the connection is back
      const batch = this.queued.splice(0, MAX_SEQS);
      const sent = await client
        .query("SELECT pg_notify($1, $2)", [EVENTS_CHANNEL, `${this.origin}:${batch.join(",")}`])
        .then(
          () => true,
          (e: Error) => {
            // Most likely the connection went under it: kept, and sent again with the next
            // announcement or once the connection is back.
            this.queue(batch, "first");
            this.opts.log?.(`switchyard: could not announce events yet (${e.message}); kept to send again`);
            return false;
          },
        );
      if (!sent) break;
    }
    this.flushing = null;
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.flushing;
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => {});
  }
}
