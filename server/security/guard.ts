// Request admission, framework-free: Host must be a loopback name (DNS rebinding), state-changing
// requests and socket handshakes must not come from a foreign Origin, and every request except
// the open ones must carry the install token (bearer: the owner), a person's CLI token (bearer),
// a browser session (a person's: the owner's from the login link, others' from their invites)
// or a pane token. A
// browser session is its cookie and its key (server/wire/session-key.ts): both for the API and sockets, the
// cookie alone only for pages (the HTML/JS shell, which carries no data: the data comes through
// tRPC).
import { isLoopbackHost } from "../config";
import { OWNER, type People, type Person } from "../core/people/people";
import { SESSION_MAX_AGE_MS, type SessionStore } from "./sessions";
import { parsePaneToken, safeEqual } from "./token";

/**
 * Who is calling. A person (with their role): `session` is the browser session's cookie value
 * when they came through the browser, `tokenId` their CLI token's id when they came with one; a
 * pane principal is only a claim until the pane manager has checked its secret and liveness.
 */
export type Principal =
  | { kind: "person"; person: Person; session?: string; tokenId?: string }
  | { kind: "pane"; paneId: string; secret: string };

export interface GuardConfig {
  token: string;
  sessions: Pick<SessionStore, "verify" | "verifyCookie">;
  /** Who a session's person id or a personal token is (from memory: asked on every request). */
  people: Pick<People, "person" | "byToken">;
  /** This install's session cookie name (token.ts sessionCookieName). */
  cookieName: string;
  /** Extra Host names allowed besides loopback (only with --allow-remote). */
  extraHosts?: string[];
  /** The public URL's host (`name[:port]`, --public-url): a Host people's browsers send through a reverse proxy. */
  publicHost?: string;
  /** --trust-proxy: X-Forwarded-Host, when present, is the request's host (it must then be the public one). */
  trustProxy?: boolean;
}

/**
 * The host a request was sent to: its Host header, or with --trust-proxy the proxy's
 * X-Forwarded-Host when it set one (its first value).
 */
export function requestHost(
  headers: { host?: string; "x-forwarded-host"?: string | string[] },
  cfg: Pick<GuardConfig, "trustProxy">,
): string | undefined {
  const fwd = headers["x-forwarded-host"];
  const forwarded = (Array.isArray(fwd) ? fwd[0] : fwd)?.split(",")[0]?.trim();
  return cfg.trustProxy && forwarded ? forwarded : headers.host;
}

export type Refusal = { status: 400 | 401 | 403; code: "BAD_PARAMS" | "UNAUTHORIZED" | "FORBIDDEN"; message: string };

/** Host header → hostname without port; null when malformed. */
function hostName(host: string | undefined): string | null {
  if (!host) return null;
  const m = /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+)(?::(\d{1,5}))?$/.exec(host.trim());
  return m ? m[1]!.toLowerCase() : null;
}

export function checkHost(host: string | undefined, cfg: GuardConfig): Refusal | null {
  const name = hostName(host);
  if (name && (isLoopbackHost(name) || cfg.extraHosts?.includes(name))) return null;
  if (cfg.publicHost && host?.trim().toLowerCase() === cfg.publicHost.toLowerCase()) return null;
  return {
    status: 403,
    code: "FORBIDDEN",
    message: `Host ${JSON.stringify(host ?? "")} is not allowed: use ${cfg.publicHost ? `${cfg.publicHost}, ` : ""}127.0.0.1 or localhost`,
  };
}

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * A request may change state only if it has no Origin (a non-browser client: CLI, curl) or its
 * Origin is this server (same scheme-less host:port as the Host header, which checkHost vetted).
 */
export function checkOrigin(
  method: string,
  origin: string | undefined,
  host: string | undefined,
  fetchSite?: string,
): Refusal | null {
  if (SAFE_METHODS.has(method.toUpperCase())) return null;
  return checkSocketOrigin(origin, host, fetchSite);
}

export function checkSocketOrigin(
  origin: string | undefined,
  host: string | undefined,
  fetchSite?: string,
): Refusal | null {
  if (fetchSite === "cross-site") return { status: 403, code: "FORBIDDEN", message: "Cross-site requests are refused" };
  if (origin === undefined || origin === "") return null;
  let originHost: string;
  try {
    const u = new URL(origin);
    if (u.protocol !== "http:" && u.protocol !== "https:") throw new Error("scheme");
    originHost = u.host;
  } catch {
    return { status: 403, code: "FORBIDDEN", message: `Origin ${JSON.stringify(origin)} is refused` };
  }
  if (host && originHost.toLowerCase() === host.toLowerCase()) return null;
  return {
    status: 403,
    code: "FORBIDDEN",
    message: `Origin ${origin} is not this server; cross-origin requests are refused`,
  };
}

function parseCookies(header: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of (header ?? "").split(";")) {
    const i = part.indexOf("=");
    if (i <= 0) continue;
    const k = part.slice(0, i).trim();
    const v = part.slice(i + 1).trim();
    try {
      out[k] = decodeURIComponent(v);
    } catch {
      out[k] = v;
    }
  }
  return out;
}

export interface Credentials {
  authorization?: string;
  cookie?: string;
  /** The browser session's key (SESSION_KEY_HEADER, or the socket handshake's query). */
  sessionKey?: string;
}

/**
 * Who is calling, from `Authorization: Bearer` or the browser session; null when neither is
 * valid. A browser session needs its cookie and its key, except for `pages`: there the cookie
 * alone admits (the shell a page loads carries no data).
 */
export function authenticate(headers: Credentials, cfg: GuardConfig, opts: { pages?: boolean } = {}): Principal | null {
  const auth = headers.authorization;
  if (auth) {
    const m = /^Bearer\s+(\S+)$/i.exec(auth.trim());
    if (!m) return null;
    const presented = m[1]!;
    if (safeEqual(presented, cfg.token)) return { kind: "person", person: OWNER };
    const personal = cfg.people.byToken(presented);
    if (personal) return { kind: "person", person: personal.person, tokenId: personal.tokenId };
    const pane = parsePaneToken(presented);
    return pane ? { kind: "pane", paneId: pane.paneId, secret: pane.secret } : null;
  }
  const cookie = sessionCookie(headers.cookie, cfg.cookieName);
  if (!cookie) return null;
  const personId = opts.pages ? cfg.sessions.verifyCookie(cookie) : cfg.sessions.verify(cookie, headers.sessionKey);
  const person = personId ? cfg.people.person(personId) : null;
  return person ? { kind: "person", person, session: cookie } : null;
}

/** A live session's cookie without its key (or with a wrong one): worth its own message. */
export function keylessSession(headers: Credentials, cfg: GuardConfig): boolean {
  return !headers.authorization && cfg.sessions.verifyCookie(sessionCookie(headers.cookie, cfg.cookieName)) !== null;
}

export function sessionCookie(header: string | undefined, name: string): string | undefined {
  return parseCookies(header)[name];
}

/** `__Host-` (token.ts): Secure, Path=/ and no Domain; HttpOnly, SameSite=Strict, 30 days. */
export function sessionCookieHeader(name: string, value: string): string {
  return `${name}=${value}; Path=/; Secure; HttpOnly; SameSite=Strict; Max-Age=${Math.floor(SESSION_MAX_AGE_MS / 1000)}`;
}
