// Project webhooks: the notices a team wants where it talks (Slack or anything that takes JSON).
// Owns: which journal events are notices (needs_you: a task waits for input; review: a round is
// completed; failed; merged), coalescing a burst of them per project into one POST (one notice
// for twenty events, not twenty: posted once the project's notices have been quiet for the
// coalescing window, or five windows after the burst began), the Slack-compatible body (`text`, plus the events for
// machines), the HMAC signature (X-Switchyard-Signature-256 over "<timestamp>.<body>"), delivery
// with retries and exponential backoff (network errors, 5xx and 429; another 4xx is final), and the
// delivery log. Deliveries are rows before they are attempted, so a restart resumes the pending
// ones (after one base delay). Framework-free: the journal, a task lookup and the store are its ports.
import { createHmac, randomBytes } from "node:crypto";
import { YardError } from "../errors";
import type { EventJournal } from "../events/journal";
import { newId } from "../ids";
import type { YardEvent } from "../../wire/events";
import type { DeliveryRow, WebhookStore } from "../../stores/webhooks";

export const WEBHOOK_EVENTS = ["needs_you", "review", "failed", "merged"] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

export interface Notice {
  kind: WebhookEvent;
  taskId: string;
  title: string;
  at: string;
}

/** The notice a journal event is, or null. */
export function noticeKind(e: YardEvent): WebhookEvent | null {
  if (e.type === "task.state") {
    const to = (e.payload as { to?: string }).to;
    return to === "input_required" ? "needs_you" : to === "completed" ? "review" : to === "failed" ? "failed" : null;
  }
  if (e.type === "task.finished" && (e.payload as { disposition?: string }).disposition === "merged") return "merged";
  return null;
}

const WORDS: Record<WebhookEvent, string> = {
  needs_you: "needs you",
  review: "is ready for review",
  failed: "failed",
  merged: "was merged",
};

/** The POST body: Slack's `text` (one line per notice, linked), and the notices themselves. */
export function webhookBody(project: { id: string; name: string }, notices: Notice[], boardUrl: string) {
  // A title is text anyone who starts work can set (a planner agent's subtasks too): Slack's control
  // characters are escaped, so it cannot close the link or add one of its own.
  const text = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/\|/g, "¦");
  const link = (n: Notice) => (boardUrl ? `<${boardUrl}/tasks/${n.taskId}|${text(n.title)}>` : text(n.title));
  const lines = notices.map((n) => `• ${link(n)} ${WORDS[n.kind]}`);
  return {
    text: `Switchyard · ${project.name}: ${notices.length === 1 ? lines[0]!.slice(2) : `${notices.length} updates\n${lines.join("\n")}`}`,
    switchyard: {
      project,
      events: notices.map((n) => ({ ...n, url: boardUrl ? `${boardUrl}/tasks/${n.taskId}` : null })),
    },
  };
}

/** `sha256=<hex>`: HMAC-SHA256 of "<timestamp>.<body>" with the project's webhook key. */
export function webhookSignature(secret: string, timestamp: string, body: string): string {
  return `sha256=${createHmac("sha256", secret).update(`${timestamp}.${body}`).digest("hex")}`;
}

export interface WebhookOptions {
  /** How long a burst is gathered before it is posted. */
  coalesceMs: number;
  /** Attempts per delivery, the first included. */
  attempts: number;
  /** The first retry's delay; each next one doubles it. */
  retryBaseMs: number;
  timeoutMs: number;
}

export interface DeliveryView {
  id: string;
  url: string;
  events: number;
  status: "pending" | "delivered" | "failed";
  attempts: number;
  lastStatus: number | null;
  lastError: string | null;
  createdAt: string;
  deliveredAt: string | null;
  nextAttemptAt: string | null;
}

const view = (d: DeliveryRow): DeliveryView => ({
  id: d.id,
  url: d.url,
  events: d.events,
  status: d.status as DeliveryView["status"],
  attempts: d.attempts,
  lastStatus: d.lastStatus,
  lastError: d.lastError,
  createdAt: d.createdAt.toISOString(),
  deliveredAt: d.deliveredAt?.toISOString() ?? null,
  nextAttemptAt: d.nextAttemptAt?.toISOString() ?? null,
});

export class Webhooks {
  private readonly bursts = new Map<string, { notices: Notice[]; timer: NodeJS.Timeout | undefined; since: number }>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private unsubscribe: (() => void) | null = null;
  private stopped = false;

  constructor(
    private readonly deps: {
      store: WebhookStore;
      journal: EventJournal;
      task: (taskId: string) => Promise<{ projectId: string | null; title: string } | null>;
      boardUrl: () => string;
      log?: (line: string) => void;
      options: WebhookOptions;
    },
  ) {}

  /** Listens to the journal, and resumes the deliveries a previous run left pending. */
  async start(): Promise<void> {
    this.unsubscribe = this.deps.journal.subscribe((e) => void this.onEvent(e).catch((err) => this.log(err)));
    // A restart is a good time to try again: each pending delivery is retried after one base delay.
    for (const d of await this.deps.store.pending()) this.later(d, this.deps.options.retryBaseMs);
  }

  /** Stops listening; what is gathered or pending stays in the store for the next start. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.unsubscribe?.();
    for (const t of this.timers) clearTimeout(t);
    const bursts = [...this.bursts.keys()];
    for (const b of this.bursts.values()) clearTimeout(b.timer);
    await Promise.all(bursts.map((p) => this.flush(p, { send: false })));
  }

  /** Sets (or with `url` null removes) a project's webhook; a new key is made unless one is given, and returned once. */
  async configure(
    projectId: string,
    c: { url: string | null; events?: WebhookEvent[]; secret?: string },
  ): Promise<{ webhook: { url: string; events: WebhookEvent[] } | null; secret: string | null }> {
    if (c.url === null) {
      await this.deps.store.setConfig(projectId, null);
      return { webhook: null, secret: null };
    }
    const current = await this.deps.store.config(projectId);
    const events = c.events ?? (current?.events as WebhookEvent[] | undefined) ?? [...WEBHOOK_EVENTS];
    const fresh = c.secret ?? (current && current.url === c.url ? null : randomBytes(24).toString("hex"));
    const secret = fresh ?? current!.secret;
    await this.deps.store.setConfig(projectId, { url: c.url, events, secret });
    return { webhook: { url: c.url, events }, secret: fresh };
  }

  async deliveries(projectId: string, limit = 50): Promise<DeliveryView[]> {
    return (await this.deps.store.list(projectId, limit)).map(view);
  }

  private async onEvent(e: YardEvent) {
    const kind = noticeKind(e);
    if (!kind || !e.taskId || this.stopped) return;
    const task = await this.deps.task(e.taskId);
    if (!task?.projectId) return;
    const config = await this.deps.store.config(task.projectId);
    if (!config?.events.includes(kind)) return;
    const notice: Notice = { kind, taskId: e.taskId, title: task.title, at: e.time };
    const projectId = task.projectId;
    const burst = this.bursts.get(projectId) ?? { notices: [], timer: undefined, since: Date.now() };
    burst.notices.push(notice);
    // A burst is posted once it has been quiet for coalesceMs, or at the latest 5 × coalesceMs after it began.
    if (burst.timer) clearTimeout(burst.timer);
    const { coalesceMs } = this.deps.options;
    const wait = Math.max(0, Math.min(coalesceMs, burst.since + 5 * coalesceMs - Date.now()));
    burst.timer = setTimeout(() => void this.flush(projectId).catch((err) => this.log(err)), wait);
    burst.timer.unref();
    this.bursts.set(projectId, burst);
  }

  /** The burst becomes one delivery (a row first), then its first attempt. */
  private async flush(projectId: string, opts: { send?: boolean } = {}) {
    const burst = this.bursts.get(projectId);
    this.bursts.delete(projectId);
    if (!burst?.notices.length) return;
    const config = await this.deps.store.config(projectId);
    if (!config) return;
    const body = JSON.stringify(
      webhookBody({ id: projectId, name: config.projectName }, burst.notices, this.deps.boardUrl()),
    );
    const row = await this.deps.store.create({
      id: newId("dlv"),
      projectId,
      url: config.url,
      body,
      events: burst.notices.length,
      status: "pending",
      nextAttemptAt: new Date(),
    });
    if (opts.send !== false) await this.attempt(row);
  }

  private later(d: DeliveryRow, ms: number) {
    if (this.stopped) return;
    const t = setTimeout(
      () => {
        this.timers.delete(t);
        void this.attempt(d).catch((err) => this.log(err));
      },
      Math.max(0, ms),
    );
    t.unref();
    this.timers.add(t);
  }

  private async attempt(d: DeliveryRow) {
    if (this.stopped) return;
    const config = await this.deps.store.config(d.projectId);
    const attempts = d.attempts + 1;
    let status: number | null = null;
    let error: string | null = null;
    if (!config || config.url !== d.url) error = "the project's webhook was changed or removed";
    else {
      const timestamp = String(Math.floor(Date.now() / 1000));
      try {
        const res = await fetch(d.url, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            "user-agent": "Switchyard-Webhook",
            "x-switchyard-delivery": d.id,
            "x-switchyard-timestamp": timestamp,
            "x-switchyard-signature-256": webhookSignature(config.secret, timestamp, d.body),
          },
          body: d.body,
          redirect: "manual",
          signal: AbortSignal.timeout(this.deps.options.timeoutMs),
        });
        status = res.status;
        await res.body?.cancel().catch(() => {});
        if (!res.ok) error = `HTTP ${res.status}`;
      } catch (e) {
        error =
          (e as Error).name === "TimeoutError"
            ? `no answer in ${this.deps.options.timeoutMs} ms`
            : (((e as Error).cause as Error | undefined)?.message ?? (e as Error).message);
      }
    }
    if (error === null) {
      await this.deps.store.update(d.id, {
        status: "delivered",
        attempts,
        lastStatus: status,
        lastError: null,
        nextAttemptAt: null,
        deliveredAt: new Date(),
      });
      return;
    }
    const retryable = config?.url === d.url && (status === null || status >= 500 || status === 429);
    if (retryable && attempts < this.deps.options.attempts) {
      const delay = this.deps.options.retryBaseMs * 2 ** (attempts - 1);
      const next = await this.deps.store.update(d.id, {
        attempts,
        lastStatus: status,
        lastError: error,
        nextAttemptAt: new Date(Date.now() + delay),
      });
      this.later(next, delay);
      return;
    }
    await this.deps.store.update(d.id, {
      status: "failed",
      attempts,
      lastStatus: status,
      lastError: error,
      nextAttemptAt: null,
    });
    this.log(`webhook delivery ${d.id} to ${d.url} failed after ${attempts} attempt(s): ${error}`);
  }

  private log(e: unknown) {
    this.deps.log?.(e instanceof YardError || e instanceof Error ? e.message : String(e));
  }
}
