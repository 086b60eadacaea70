// Browser sessions: each login link exchange mints a fresh random session value (the cookie),
// and the server keeps only its hash, in a 0600 file under the data dir so sessions survive a
// restart. Logging in again rotates the browser's value (the old one is revoked); sessions expire
// after MAX_AGE_MS; at most MAX_SESSIONS are kept (the oldest go first). Listeners hear about
// revocations so live sockets opened with a revoked session are closed.
import { createHash, randomBytes } from "node:crypto";
import { chmodSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { safeEqual } from "./token";

export const SESSION_MAX_AGE_MS = 30 * 24 * 3600_000;
const MAX_SESSIONS = 32;

interface Entry {
  hash: string;
  createdAt: number;
}

const hashOf = (value: string) => createHash("sha256").update(value).digest("hex");

export class SessionStore {
  private entries: Entry[] = [];
  private readonly listeners = new Set<(hash: string) => void>();

  constructor(
    private readonly file: string,
    private readonly now: () => number = Date.now,
  ) {
    try {
      const data = JSON.parse(readFileSync(file, "utf8")) as { sessions?: Entry[] };
      this.entries = (data.sessions ?? []).filter((e) => typeof e.hash === "string" && /^[0-9a-f]{64}$/.test(e.hash) && Number.isFinite(e.createdAt));
    } catch {
      this.entries = [];
    }
    this.prune();
  }

  /** A new session; returns the cookie value (never stored). `replacing` is revoked. */
  create(replacing?: string): string {
    if (replacing) this.revoke(replacing, { save: false });
    const value = randomBytes(32).toString("base64url");
    this.entries.push({ hash: hashOf(value), createdAt: this.now() });
    while (this.entries.length > MAX_SESSIONS) this.emitRevoked(this.entries.shift()!.hash);
    this.save();
    return value;
  }

  verify(value: string | undefined): boolean {
    if (!value || value.length > 200) return false;
    const h = hashOf(value);
    const cutoff = this.now() - SESSION_MAX_AGE_MS;
    return this.entries.some((e) => e.createdAt > cutoff && safeEqual(e.hash, h));
  }

  revoke(value: string, opts: { save?: boolean } = {}): boolean {
    const h = hashOf(value);
    const before = this.entries.length;
    this.entries = this.entries.filter((e) => !safeEqual(e.hash, h));
    if (this.entries.length === before) return false;
    this.emitRevoked(h);
    if (opts.save !== false) this.save();
    return true;
  }

  /** Called with the hash of every revoked or expired session. */
  onRevoked(listener: (hash: string) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  static hash(value: string): string {
    return hashOf(value);
  }

  private emitRevoked(hash: string) {
    for (const l of this.listeners) l(hash);
  }

  private prune() {
    const cutoff = this.now() - SESSION_MAX_AGE_MS;
    this.entries = this.entries.filter((e) => e.createdAt > cutoff).slice(-MAX_SESSIONS);
  }

  private save() {
    this.prune();
    const tmp = `${this.file}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify({ sessions: this.entries }) + "\n", { mode: 0o600 });
    chmodSync(tmp, 0o600);
    renameSync(tmp, this.file);
  }
}
