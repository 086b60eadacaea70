// The install's secret: a random token in a mode-0600 file under the data dir, created on
// first start. Owns token creation, constant-time comparison, the session cookie's name, and
// pane-scoped tokens.
import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { chmodSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";

/**
 * The browser session cookie's name, scoped to this install (derived from its token, so stable
 * across restarts and different for every data dir: two boards on one host never overwrite each
 * other's session). `__Host-` makes the browser require Secure, Path=/ and no Domain; browsers
 * accept Secure cookies from http://127.0.0.1, localhost and [::1] (potentially trustworthy
 * origins). Cookies ignore ports, so any server on the same host still receives it: what makes
 * a session usable is the key beside it (server/wire/session-key.ts), which is never a cookie.
 */
export function sessionCookieName(token: string): string {
  return `__Host-yard-${createHmac("sha256", token).update("switchyard session cookie name").digest("hex").slice(0, 12)}`;
}

export function loadOrCreateToken(file: string): string {
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  try {
    const existing = readFileSync(file, "utf8").trim();
    if (/^[A-Za-z0-9_-]{32,}$/.test(existing)) {
      if ((statSync(file).mode & 0o077) !== 0) chmodSync(file, 0o600);
      return existing;
    }
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "ENOENT") throw e;
  }
  const token = randomBytes(32).toString("base64url");
  writeFileSync(file, `${token}\n`, { mode: 0o600 });
  chmodSync(file, 0o600); // the umask may have widened it
  return token;
}

export function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** Pane tokens look like `yp_<paneId>_<secret>`; the server stores only a hash of the secret. */
export function newPaneToken(paneId: string): { token: string; hash: string } {
  const secret = randomBytes(24).toString("base64url");
  return { token: `yp_${paneId}_${secret}`, hash: hashSecret(secret) };
}

export function parsePaneToken(token: string): { paneId: string; secret: string } | null {
  const m = /^yp_([A-Za-z0-9]+)_([A-Za-z0-9_-]{20,})$/.exec(token);
  return m ? { paneId: m[1]!, secret: m[2]! } : null;
}

export function hashSecret(secret: string): string {
  return createHash("sha256").update(secret).digest("hex");
}
