// This process's presence among the server processes sharing one board database: its BoardProcess
// row (its instance id, the internal address the others reach it at, a secret made fresh at every
// start), touched every 10 s while it runs and removed at a clean shutdown; the check of the
// secret a peer presents (constant-time); and the look-up of another process by instance id (a
// row not touched for 45 s is taken for a process that died without removing it).
// Only on a database other processes can share (PostgreSQL): on SQLite one process owns the
// board, so nothing is written and nobody is looked up.
import { randomBytes } from "node:crypto";
import { z } from "zod";
import { YardError } from "../core/errors";
import { safeEqual } from "../security/token";
import type { BoardProcessStore } from "../stores/board-processes";

const HEARTBEAT_MS = 10_000;
const STALE_MS = 45_000;

/** Another process: where to reach it, and the secret it admits peers with. */
export interface PeerAddress {
  instanceId: string;
  address: string;
  secret: string;
}

/** An internal base URL: http(s), an origin only (no credentials, path, query or fragment). */
const internalUrl = z
  .string()
  .max(2048)
  .transform((s, ctx) => {
    let u: URL;
    try {
      u = new URL(s);
    } catch {
      ctx.addIssue({ code: "custom", message: `${JSON.stringify(s)} is not a URL (e.g. http://10.0.0.5:4000)` });
      return z.NEVER;
    }
    if ((u.protocol !== "http:" && u.protocol !== "https:") || u.username || u.password || u.search || u.hash)
      ctx.addIssue({ code: "custom", message: "must be an http:// or https:// origin without credentials or query" });
    else if (u.pathname !== "/") ctx.addIssue({ code: "custom", message: "must be an origin only (no path)" });
    return u.origin;
  });

/** YARD_INTERNAL_URL, read and checked (a wrong one stops the start), or undefined. */
export function internalUrlFromEnv(env: Record<string, string | undefined> = process.env): string | undefined {
  const raw = env.YARD_INTERNAL_URL;
  if (!raw) return undefined;
  const r = internalUrl.safeParse(raw);
  if (!r.success) throw new YardError("BAD_PARAMS", `YARD_INTERNAL_URL ${r.error.issues[0]?.message ?? "is invalid"}`);
  return r.data;
}

export class BoardPresence {
  private secret: string | null = null;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly opts: {
      store: BoardProcessStore;
      instanceId: string;
      /** Whether other processes may share the database (PostgreSQL). */
      shared: boolean;
      /** YARD_INTERNAL_URL: the address to publish instead of the listen URL (behind a load balancer). */
      internalUrl?: string;
      log?: (line: string) => void;
      heartbeatMs?: number;
    },
  ) {}

  get instanceId(): string {
    return this.opts.instanceId;
  }

  get shared(): boolean {
    return this.opts.shared;
  }

  /** Publishes this process at `listenUrl` (or YARD_INTERNAL_URL) with a fresh secret, and keeps it fresh. */
  async register(listenUrl: string): Promise<void> {
    if (!this.opts.shared) return;
    const secret = randomBytes(32).toString("base64url");
    const address = this.opts.internalUrl ?? listenUrl;
    this.secret = secret;
    // Not written now (the database hiccuped): the heartbeat writes it.
    await this.opts.store.register({ instanceId: this.opts.instanceId, address, secret }).catch((e: Error) => {
      this.opts.log?.(`switchyard: could not register this process on the board's database: ${e.message}`);
    });
    this.timer = setInterval(() => void this.beat(address), this.opts.heartbeatMs ?? HEARTBEAT_MS);
    this.timer.unref();
  }

  private async beat(address: string): Promise<void> {
    const secret = this.secret;
    if (!secret) return;
    try {
      // Gone (removed by hand, or a cleanup): written again, with the same secret.
      if (!(await this.opts.store.seen(this.opts.instanceId)))
        await this.opts.store.register({ instanceId: this.opts.instanceId, address, secret });
    } catch (e) {
      this.opts.log?.(`switchyard: could not refresh this process's board registration: ${(e as Error).message}`);
    }
  }

  /** Whether `presented` is this process's current secret (compared in constant time). */
  verify(presented: string | undefined): boolean {
    return this.secret !== null && typeof presented === "string" && safeEqual(presented, this.secret);
  }

  /** Another running process by instance id; null for this one, an unknown one, or one not seen lately. */
  async lookup(instanceId: string): Promise<PeerAddress | null> {
    if (!this.opts.shared || instanceId === this.opts.instanceId) return null;
    const row = await this.opts.store.live(instanceId, new Date(Date.now() - STALE_MS));
    return row ? { instanceId: row.instanceId, address: row.address, secret: row.secret } : null;
  }

  /** Stops the heartbeat and removes this process's row (another start of the same data dir keeps its own). */
  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    const secret = this.secret;
    this.secret = null;
    if (secret) await this.opts.store.remove(this.opts.instanceId, secret).catch(() => {});
  }
}
