// Which URLs the server will POST Web Push messages to. A subscription's endpoint comes from a
// browser, so from whoever calls push.subscribe: taken as is, it would make the server send
// requests to any address it can reach (an internal service, the cloud metadata address: SSRF).
// Owns: the allowlist of the public push services browsers use (https only, default port, no
// credentials in the URL), the extra hosts YARD_PUSH_ALLOW_HOSTS adds (http allowed for exactly
// those: a push service of your own, or a test's receiver on loopback), and the check of a
// subscription's keys (a P-256 point, a 16-byte secret). Pure.
import { ECDH } from "node:crypto";

/** The push services of Chrome/Edge/Android (FCM), Firefox (Mozilla), Windows (WNS) and Safari (Apple). */
const PUSH_SERVICES = [
  "fcm.googleapis.com",
  "*.push.services.mozilla.com",
  "*.notify.windows.com",
  "web.push.apple.com",
  "*.push.apple.com",
] as const;

const matches = (pattern: string, hostname: string): boolean =>
  pattern.startsWith("*.")
    ? hostname.endsWith(pattern.slice(1)) && hostname.length > pattern.length - 1
    : hostname === pattern;

/**
 * YARD_PUSH_ALLOW_HOSTS: a comma list of `host[:port]` (read once at start), as URL hosts
 * (`127.0.0.1:8080`, `push.internal`, `[::1]:9000`), lowercased. An entry that is not a host
 * throws, naming it: a setting that says something else stops the start.
 */
export function parseAllowHosts(value: string | undefined): string[] {
  const out: string[] = [];
  for (const raw of (value ?? "").split(",")) {
    const entry = raw.trim().toLowerCase();
    if (!entry) continue;
    const m = /^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(?::(\d{1,5}))?$/.exec(entry);
    let hostname: string | null = null;
    try {
      hostname = m ? new URL(`http://${m[1]}`).hostname : null;
    } catch {
      hostname = null;
    }
    const port = m?.[2] === undefined ? null : Number(m[2]);
    if (!m || !hostname || (port !== null && (port < 1 || port > 65535)))
      throw new Error(`YARD_PUSH_ALLOW_HOSTS: "${raw.trim()}" is not a host or host:port`);
    out.push(port === null ? hostname : `${hostname}:${port}`);
  }
  return out;
}

/** Why the server will not send to this endpoint, or null when it may. */
export function endpointRefusal(endpoint: string, allowHosts: readonly string[]): string | null {
  let u: URL;
  try {
    u = new URL(endpoint);
  } catch {
    return "the endpoint is not a URL";
  }
  if (u.username || u.password) return "the endpoint must not carry credentials";
  const host = u.host.toLowerCase();
  // An extra host is named with its port, or without one for the scheme's default port.
  const extra = allowHosts.some(
    (h) => h === host || (u.port === "" && h === `${u.hostname}:${u.protocol === "https:" ? 443 : 80}`),
  );
  if (u.protocol !== "https:" && !(u.protocol === "http:" && extra))
    return `the endpoint must be https (http only for the hosts YARD_PUSH_ALLOW_HOSTS names); got ${u.protocol.replace(/:$/, "")} to ${host}`;
  if (extra) return null;
  if (!PUSH_SERVICES.some((p) => matches(p, u.hostname.toLowerCase())))
    return `${u.hostname} is not a known push service (${PUSH_SERVICES.join(", ")}; YARD_PUSH_ALLOW_HOSTS adds others)`;
  if (u.port !== "") return `the endpoint must use the push service's default port, not ${u.port}`;
  return null;
}

const decoded = (s: string): Buffer => Buffer.from(s.replace(/=+$/, ""), "base64url");

/** Why a subscription's keys cannot be encrypted to, or null when they can. */
export function keysRefusal(keys: { p256dh: string; auth: string }): string | null {
  const pub = decoded(keys.p256dh);
  if (pub.length !== 65 || pub[0] !== 4) return "keys.p256dh must be an uncompressed P-256 public key (65 bytes)";
  try {
    ECDH.convertKey(pub, "prime256v1");
  } catch {
    return "keys.p256dh is not a point on the P-256 curve";
  }
  if (decoded(keys.auth).length !== 16) return "keys.auth must be 16 bytes";
  return null;
}
