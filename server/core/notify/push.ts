// Web Push: notices that reach a person's browser even when no board tab is open.
// Owns: the board's VAPID key pair (made at the first start and kept in the Setting table, so every
// server process sharing one database signs with the same key; the private key stays in that row
// and in this module, never in an answer or a log line), people's subscriptions (an allowed push
// service's endpoint, real keys, at most MAX_PUSH_SUBSCRIPTIONS each: one more replaces the
// stalest), and sending. A journal subscriber (this process's events only, so a notice is sent
// once however many processes share the board) turns the same task events as the project webhooks
// into notices (needs_you, review, failed, merged), encrypts one for each subscription that asked
// for its kind (RFC 8291 aes128gcm, signed with VAPID: web-push builds the request) and posts it
// with bounded concurrency and a timeout, off the event path. A push service's 404 or 410 (the
// browser unsubscribed) deletes the subscription, as do MAX_FAILURES failures in a row.
// Framework-free: the journal, a task lookup and the stores are its ports.
import { YardError } from "../errors";
import type { EventJournal } from "../events/journal";
import { newId } from "../ids";
import type { Person } from "../people/people";
import type { YardEvent } from "../../wire/events";
import { MAX_PUSH_SUBSCRIPTIONS, PUSH_KINDS, type PushKind } from "../../wire/push";
import type { PushRow, PushStore } from "../../stores/push";
import { endpointRefusal, keysRefusal } from "./push-endpoint";
import { noticeKind } from "./webhooks";

/** web-push and its crypto modules, loaded when first needed (most boards send no push). */
let webPush: Promise<typeof import("web-push")> | null = null;
const loadWebPush = () => (webPush ??= import("web-push").then((m) => m.default ?? m));

/** The Setting row holding the key pair. */
const VAPID_KEY = "push.vapid";
/** Consecutive failed sends after which a subscription is dropped. */
const MAX_FAILURES = 5;
/** Sends waiting for a slot beyond this are dropped (and counted in the log), so a burst cannot grow memory. */
const MAX_QUEUE = 2_000;

export interface PushNotice {
  kind: PushKind;
  taskId: string;
  title: string;
  body: string;
  /** The task's page, absolute (the board's public address). */
  url: string;
  /** One per task: a later notice about the task replaces the one still showing. */
  tag: string;
}

const WORDS: Record<PushKind, { title: string; body: string }> = {
  needs_you: { title: "needs you", body: "The agent is waiting for you." },
  review: { title: "ready for review", body: "Ready for review." },
  failed: { title: "failed", body: "The task failed." },
  merged: { title: "merged", body: "Merged." },
};

const oneLine = (s: string, max: number): string => {
  const line = s.replace(/\s+/g, " ").trim();
  return line.length <= max ? line : `${line.slice(0, max - 1)}…`;
};

/**
 * The notice a task event is, for people's browsers: the task's title and what happened, a line
 * on why (the card's line, when it has one), the task page. Bounded: the encrypted message must
 * fit a push service's 4 KB (these are at most ~1.5 KB of JSON).
 */
export function pushNotice(
  kind: PushKind,
  task: { id: string; title: string; line: string | null },
  boardUrl: string,
): PushNotice {
  return {
    kind,
    taskId: task.id,
    title: `${oneLine(task.title, 120) || task.id}: ${WORDS[kind].title}`,
    body: task.line && (kind === "needs_you" || kind === "failed") ? oneLine(task.line, 240) : WORDS[kind].body,
    url: `${boardUrl.replace(/\/+$/, "")}/tasks/${encodeURIComponent(task.id)}`,
    // The in-page notifications use the same tag: a push and a page notice about a task replace each other.
    tag: `/tasks/${encodeURIComponent(task.id)}`,
  };
}

/** The VAPID subject: the board's https address, else YARD_PUSH_SUBJECT, else a mailto: placeholder. */
export function vapidSubject(boardUrl: string, configured: string | undefined): string {
  if (configured) return configured;
  try {
    const u = new URL(boardUrl);
    if (u.protocol === "https:" && u.hostname !== "localhost") return u.origin;
  } catch {}
  return "mailto:switchyard@localhost";
}

export interface PushSubscriptionView {
  id: string;
  endpoint: string;
  kinds: PushKind[];
  label: string | null;
  createdAt: string;
  lastOkAt: string | null;
  failures: number;
}

const asKinds = (k: string[]): PushKind[] => PUSH_KINDS.filter((x) => k.includes(x));

const view = (r: PushRow): PushSubscriptionView => ({
  id: r.id,
  endpoint: r.endpoint,
  kinds: asKinds(r.kinds),
  label: r.label,
  createdAt: r.createdAt.toISOString(),
  lastOkAt: r.lastOkAt?.toISOString() ?? null,
  failures: r.failures,
});

interface VapidKeys {
  publicKey: string;
  privateKey: string;
}

const isKeys = (v: unknown): v is VapidKeys => {
  const k = v as Partial<VapidKeys> | null;
  return (
    typeof k?.publicKey === "string" &&
    typeof k.privateKey === "string" &&
    Buffer.from(k.publicKey, "base64url").length === 65 &&
    Buffer.from(k.privateKey, "base64url").length === 32
  );
};

export interface PushOptions {
  /** How long a push service keeps an undelivered message (seconds). */
  ttlSeconds: number;
  /** How long one send may take. */
  timeoutMs: number;
  /** Sends in flight at once. */
  concurrency: number;
}

export class WebPush {
  #keys: VapidKeys | null = null;
  private stopListening: (() => void) | null = null;
  private stopped = false;
  private readonly queue: Array<() => Promise<void>> = [];
  private readonly inFlight = new Set<Promise<void>>();
  private readonly abort = new AbortController();
  private dropped = 0;

  constructor(
    private readonly deps: {
      store: PushStore;
      /** The Setting table (the key pair). */
      settings: {
        get(key: string): Promise<unknown>;
        set(key: string, value: unknown): Promise<void>;
        setIfAbsent(key: string, value: unknown): Promise<unknown>;
      };
      journal: EventJournal;
      task: (taskId: string) => Promise<{ title: string; line: string | null } | null>;
      /** The board's address people use (the task pages notices link to). */
      boardUrl: () => string;
      /** YARD_PUSH_ALLOW_HOSTS, parsed. */
      allowHosts: readonly string[];
      /** YARD_PUSH_SUBJECT: the contact push services see (default: the board's https address). */
      subject?: string;
      log?: (line: string) => void;
      options: PushOptions;
    },
  ) {}

  /** Loads the key pair (making it on a board's first start), then listens to the journal. */
  async start(): Promise<void> {
    let keys = await this.deps.settings.get(VAPID_KEY);
    if (!isKeys(keys)) {
      const made = { ...(await loadWebPush()).generateVAPIDKeys(), createdAt: new Date().toISOString() };
      if (keys === null) keys = await this.deps.settings.setIfAbsent(VAPID_KEY, made);
      else {
        // Browsers subscribed with an unreadable key cannot be reached anyway: a fresh pair replaces it.
        this.log("push: the stored Web Push key pair was unreadable; a new one was made");
        await this.deps.settings.set(VAPID_KEY, made);
        keys = made;
      }
      if (!isKeys(keys)) throw new Error("The Web Push key pair in the Setting table is unreadable");
    }
    this.#keys = { publicKey: keys.publicKey, privateKey: keys.privateKey };
    this.stopListening = this.deps.journal.subscribe((e) => void this.onEvent(e).catch((err) => this.log(err)));
  }

  /** Stops listening; sends in flight are aborted, queued ones dropped. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.stopListening?.();
    this.queue.length = 0;
    this.abort.abort();
    await Promise.allSettled([...this.inFlight]);
  }

  /** The public key browsers subscribe with (applicationServerKey). */
  publicKey(): string {
    if (!this.#keys) throw new YardError("SERVER_UNAVAILABLE", "Web Push is not started yet");
    return this.#keys.publicKey;
  }

  /** Stores (or renews) the caller's subscription for this browser. Refused endpoints and keys store nothing. */
  async subscribe(
    person: Person,
    input: { endpoint: string; keys: { p256dh: string; auth: string }; kinds?: PushKind[]; label?: string },
  ): Promise<PushSubscriptionView> {
    const refusal = endpointRefusal(input.endpoint, this.deps.allowHosts);
    if (refusal) throw new YardError("BAD_PARAMS", `Push endpoint refused: ${refusal}`, { field: "endpoint" });
    const bad = keysRefusal(input.keys);
    if (bad) throw new YardError("BAD_PARAMS", `Push keys refused: ${bad}`, { field: "keys" });
    const mine = await this.deps.store.ofPerson(person.id);
    if (!mine.some((s) => s.endpoint === input.endpoint) && mine.length >= MAX_PUSH_SUBSCRIPTIONS) {
      // The browser a person has not used longest goes (its sends succeeded longest ago, or never).
      const stalest = [...mine].sort(
        (a, b) => (a.lastOkAt ?? a.createdAt).getTime() - (b.lastOkAt ?? b.createdAt).getTime(),
      )[0]!;
      await this.deps.store.remove(stalest.id);
    }
    const row = await this.deps.store.put({
      id: newId("psh"),
      userId: person.id,
      endpoint: input.endpoint,
      p256dh: input.keys.p256dh,
      auth: input.keys.auth,
      kinds: asKinds(input.kinds ?? [...PUSH_KINDS]),
      label: input.label?.trim() || null,
    });
    return view(row);
  }

  /** Removes the caller's subscription for this endpoint (another person's is left alone). */
  async unsubscribe(person: Person, endpoint: string): Promise<{ removed: boolean }> {
    return { removed: await this.deps.store.removeOwn(person.id, endpoint) };
  }

  /** The caller's own subscriptions (never their keys). */
  async list(person: Person): Promise<PushSubscriptionView[]> {
    return (await this.deps.store.ofPerson(person.id)).map(view);
  }

  private async onEvent(e: YardEvent) {
    const kind = noticeKind(e);
    if (!kind || !e.taskId || this.stopped) return;
    const subs = (await this.deps.store.live()).filter((s) => s.kinds.includes(kind));
    if (!subs.length) return;
    const task = await this.deps.task(e.taskId);
    if (!task) return;
    const notice = pushNotice(kind, { id: e.taskId, ...task }, this.deps.boardUrl());
    for (const s of subs) this.enqueue(() => this.send(s, notice));
  }

  private enqueue(job: () => Promise<void>) {
    if (this.stopped) return;
    if (this.queue.length >= MAX_QUEUE) {
      if (this.dropped++ % 100 === 0) this.log(`push: ${this.dropped} notice(s) dropped, the send queue is full`);
      return;
    }
    this.queue.push(job);
    this.pump();
  }

  private pump() {
    while (!this.stopped && this.inFlight.size < this.deps.options.concurrency && this.queue.length) {
      const job = this.queue.shift()!;
      const p: Promise<void> = job()
        .catch((err) => this.log(err))
        .finally(() => {
          this.inFlight.delete(p);
          this.pump();
        });
      this.inFlight.add(p);
    }
  }

  private async send(s: PushRow, notice: PushNotice) {
    const keys = this.#keys;
    if (!keys || this.stopped) return;
    const where = originOf(s.endpoint);
    // The allowlist is applied again: YARD_PUSH_ALLOW_HOSTS may have changed since this was stored.
    if (endpointRefusal(s.endpoint, this.deps.allowHosts)) {
      await this.deps.store.remove(s.id);
      this.log(`push: a subscription to ${where} was removed: its push service is no longer allowed`);
      return;
    }
    const req = (await loadWebPush()).generateRequestDetails(
      { endpoint: s.endpoint, keys: { p256dh: s.p256dh, auth: s.auth } },
      JSON.stringify(notice),
      {
        vapidDetails: {
          subject: vapidSubject(this.deps.boardUrl(), this.deps.subject),
          publicKey: keys.publicKey,
          privateKey: keys.privateKey,
        },
        TTL: this.deps.options.ttlSeconds,
        urgency: notice.kind === "needs_you" ? "high" : "normal",
        topic: notice.tag.replace(/[^A-Za-z0-9_-]/g, "").slice(0, 32),
        contentEncoding: "aes128gcm",
      },
    );
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers)) if (k.toLowerCase() !== "content-length") headers[k] = String(v);
    let status: number | null = null;
    let error: string | null = null;
    try {
      const res = await fetch(s.endpoint, {
        method: "POST",
        headers,
        body: req.body ? new Uint8Array(req.body) : null,
        redirect: "manual",
        signal: AbortSignal.any([this.abort.signal, AbortSignal.timeout(this.deps.options.timeoutMs)]),
      });
      status = res.status;
      await res.body?.cancel().catch(() => {});
    } catch (e) {
      if (this.stopped) return;
      error =
        (e as Error).name === "TimeoutError"
          ? `no answer in ${this.deps.options.timeoutMs} ms`
          : (((e as Error).cause as Error | undefined)?.message ?? (e as Error).message);
    }
    if (status !== null && status >= 200 && status < 300) return this.deps.store.sent(s.id, new Date());
    if (status === 404 || status === 410) {
      // The browser unsubscribed, or the subscription expired: it will never be reachable again.
      await this.deps.store.remove(s.id);
      return;
    }
    const failures = await this.deps.store.failed(s.id);
    if (failures >= MAX_FAILURES) {
      await this.deps.store.remove(s.id);
      this.log(
        `push: a subscription to ${where} was removed after ${failures} failed sends (${error ?? `HTTP ${status}`})`,
      );
    }
  }

  private log(e: unknown) {
    this.deps.log?.(e instanceof Error ? e.message : String(e));
  }
}

/** Only the push service's origin goes into a log line (the rest of the endpoint names the browser). */
function originOf(endpoint: string): string {
  try {
    return new URL(endpoint).origin;
  } catch {
    return "an unreadable endpoint";
  }
}
