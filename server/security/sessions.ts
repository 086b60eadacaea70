// Browser sessions: each login link exchange mints a fresh random session of two halves, the
// cookie value and a key that is never a cookie (server/wire/session-key.ts), and the server keeps only their
// hashes, in a 0600 file under the data dir so sessions survive a restart. The API and sockets
// need both halves; a cookie alone (which any server on the host's other ports receives) opens
// only the pages' shell. Logging in again rotates the browser's session (the old one is revoked);
// sessions expire after MAX_AGE_MS; at most MAX_SESSIONS are kept (the oldest go first). Each
// session is a person's (the owner's from the login link, an invited person's from their invite);
// removing a person revokes all of theirs.
// Listeners hear about revocations so live sockets opened with a revoked session are closed.
import { createHash, randomBytes } from "node:crypto";
import { chmodSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { safeEqual } from "./token";

export const SESSION_MAX_AGE_MS = 30 * 24 * 3600_000;
const MAX_SESSIONS = 256;
/** Sessions written before people existed were the owner's (the login link's). */
const OWNER_ID = "usrowner";

interface Entry {
  /** SHA-256 of the cookie value. */
  hash: string;
  /** SHA-256 of the key. */
  keyHash: string;
  createdAt: number;
  /** Whose session it is (a person's id). */
  personId: string;
}

/** What a login hands the browser: the cookie's value and the key, neither of them stored. */
export interface NewSession {
  cookie: string;
  key: string;
}

const HEX64 = /^[0-9a-f]{64}$/;

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
      // Sessions from before keys existed (no keyHash) cannot be completed: they are dropped, and
      // that browser opens the login link once more.
      this.entries = (data.sessions ?? [])
        .filter(
          (e) =>
            typeof e.hash === "string" &&
            HEX64.test(e.hash) &&
            typeof e.keyHash === "string" &&
            HEX64.test(e.keyHash) &&
            Number.isFinite(e.createdAt),
        )
        .map((e) => ({ ...e, personId: typeof e.personId === "string" ? e.personId : OWNER_ID }));
    } catch {
      this.entries = [];
    }
    this.prune();
  }

  /** A new session of this person (neither half is stored, only their hashes). `replacing` (a cookie value) is revoked. */
  create(replacing: string | undefined, personId: string = OWNER_ID): NewSession {
    if (replacing) this.revoke(replacing, { save: false });
    const cookie = randomBytes(32).toString("base64url");
    const key = randomBytes(32).toString("base64url");
    this.entries.push({ hash: hashOf(cookie), keyHash: hashOf(key), createdAt: this.now(), personId });
    while (this.entries.length > MAX_SESSIONS) this.emitRevoked(this.entries.shift()!.hash);
    this.save();
    return { cookie, key };
  }

  /** The person of the live session with this cookie value and this key (what the API and sockets need), or null. */
  verify(cookie: string | undefined, key: string | undefined): string | null {
    const e = this.find(cookie);
    return e && key && key.length <= 200 && safeEqual(e.keyHash, hashOf(key)) ? e.personId : null;
  }

  /** The person of the live session with this cookie value, whatever the key (enough for the pages' shell only), or null. */
  verifyCookie(cookie: string | undefined): string | null {
    return this.find(cookie)?.personId ?? null;
  }

  /** Revokes every session of this person; returns how many there were. */
  revokePerson(personId: string): number {
    const gone = this.entries.filter((e) => e.personId === personId);
    if (!gone.length) return 0;
    this.entries = this.entries.filter((e) => e.personId !== personId);
    for (const e of gone) this.emitRevoked(e.hash);
    this.save();
    return gone.length;
  }

  private find(cookie: string | undefined): Entry | undefined {
    if (!cookie || cookie.length > 200) return undefined;
    const h = hashOf(cookie);
    const cutoff = this.now() - SESSION_MAX_AGE_MS;
    return this.entries.find((e) => e.createdAt > cutoff && safeEqual(e.hash, h));
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
    writeFileSync(tmp, `${JSON.stringify({ sessions: this.entries })}\n`, { mode: 0o600 });
    chmodSync(tmp, 0o600);
    renameSync(tmp, this.file);
  }
}
