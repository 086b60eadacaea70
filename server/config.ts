// Where Switchyard keeps its data and which address it serves on. Pure: reads only the
// environment and argv it is handed, so tests and the CLI resolve exactly what the server does.
import { randomBytes } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseDatabaseUrl } from "./database-url";

const DEFAULT_PORT = 7420;
const DEFAULT_HOST = "127.0.0.1";

export function yardHome(env: NodeJS.ProcessEnv = process.env): string {
  if (env.YARD_HOME) return path.resolve(env.YARD_HOME);
  if (env.XDG_DATA_HOME) return path.join(path.resolve(env.XDG_DATA_HOME), "switchyard");
  return path.join(os.homedir(), ".local", "share", "switchyard");
}

export const paths = (home: string) => ({
  home,
  db: path.join(home, "yard.db"),
  token: path.join(home, "token"),
  sessions: path.join(home, "sessions.json"), // hashes of the browser sessions' cookie values
  server: path.join(home, "server.json"), // {url, pid, cert?} of the running server, for the CLI
  /** The certificate an https server presents (PEM, 0600): `yard` trusts exactly it (cli/bin/tls-pin.mjs). */
  serverCert: path.join(home, "server-cert.pem"),
  worktrees: path.join(home, "worktrees"),
  /** The API on a Unix socket too (same handler and guards), for sandboxed agents without network. */
  socket: path.join(home, "run", "api.sock"),
  /** The pane host's hook relay (`yard hook` posts there while the server is unreachable). */
  hookSocket: path.join(home, "run", "hook.sock"),
  screens: path.join(home, "screens"), // final screen of every exited pane, <paneId>.json (0600)
  /** This data dir's id on the panes its pane host runs (servers sharing a PostgreSQL board tell theirs apart). */
  instance: path.join(home, "instance-id"),
});

/** The data dir's instance id (made at its first start: 12 hex digits); see paths().instance. */
export function loadOrCreateInstanceId(file: string): string {
  try {
    const existing = readFileSync(file, "utf8").trim();
    if (/^[0-9a-f]{12}$/.test(existing)) return existing;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "ENOENT") throw e;
  }
  const id = randomBytes(6).toString("hex");
  writeFileSync(file, `${id}\n`, { mode: 0o600 });
  return id;
}

/** The longest path a Unix socket address holds (sun_path, with its terminating NUL). */
export const MAX_SOCKET_PATH = 107;
export const socketPathFits = (file: string) => Buffer.byteLength(file) <= MAX_SOCKET_PATH;

const LOOPBACK = new Set(["127.0.0.1", "localhost", "::1", "[::1]"]);
export function isLoopbackHost(host: string): boolean {
  return LOOPBACK.has(host) || /^127(\.\d{1,3}){3}$/.test(host);
}

export interface ServeOptions {
  host: string;
  port: number;
  dev: boolean;
  allowRemote: boolean;
  /** `npm start`: run the server detached, return once it serves (server/background.ts). */
  background?: boolean;
  /** The address people use (behind a reverse proxy): the links it prints and the Host it accepts. */
  publicUrl?: string;
  /** Take the request's host from X-Forwarded-Host (set by the reverse proxy in front). */
  trustProxy?: boolean;
  /** `--database-url`: the board in PostgreSQL instead of the data dir's SQLite file. */
  databaseUrl?: string;
  /** Serve HTTPS with this certificate (PEM file; a chain may follow it) and its key: both or neither. */
  tlsCert?: string;
  tlsKey?: string;
}

/** A public URL's origin (scheme, host, port), or an error saying what is wrong with it. */
function parsePublicUrl(value: string): string {
  let u: URL;
  try {
    u = new URL(value);
  } catch {
    throw new Error(`--public-url ${JSON.stringify(value)} is not a URL (e.g. https://board.example.com)`);
  }
  if (u.protocol !== "https:" && u.protocol !== "http:")
    throw new Error("--public-url must be an http:// or https:// URL");
  if (u.username || u.password) throw new Error("--public-url must not carry a user name or password");
  if ((u.pathname !== "/" && u.pathname !== "") || u.search || u.hash)
    throw new Error("--public-url is the board's origin only (no path, query or fragment)");
  return u.origin;
}

/**
 * Parses `--port N`, `--host H`, `--dev`, `--allow-remote`, `--public-url URL`, `--trust-proxy`,
 * `--tls-cert FILE`, `--tls-key FILE` and `--background` over their environment twins (PORT,
 * HOST, YARD_ALLOW_REMOTE, YARD_PUBLIC_URL, YARD_TRUST_PROXY, YARD_TLS_CERT, YARD_TLS_KEY).
 */
export function parseServeArgs(argv: string[], env: NodeJS.ProcessEnv = process.env): ServeOptions {
  const opts: ServeOptions = {
    host: env.HOST || DEFAULT_HOST,
    port: env.PORT ? Number(env.PORT) : DEFAULT_PORT,
    dev: false,
    allowRemote: env.YARD_ALLOW_REMOTE === "1",
    ...(env.YARD_PUBLIC_URL ? { publicUrl: parsePublicUrl(env.YARD_PUBLIC_URL) } : {}),
    trustProxy: env.YARD_TRUST_PROXY === "1",
    ...(env.YARD_TLS_CERT ? { tlsCert: env.YARD_TLS_CERT } : {}),
    ...(env.YARD_TLS_KEY ? { tlsKey: env.YARD_TLS_KEY } : {}),
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const value = () => {
      const v = a.includes("=") ? a.slice(a.indexOf("=") + 1) : argv[++i];
      if (v === undefined) throw new Error(`${a.split("=")[0]} needs a value`);
      return v;
    };
    if (a === "--dev") opts.dev = true;
    else if (a === "--background") opts.background = true;
    else if (a === "--allow-remote") opts.allowRemote = true;
    else if (a === "--port" || a.startsWith("--port=")) opts.port = Number(value());
    else if (a === "--host" || a.startsWith("--host=")) opts.host = value();
    else if (a === "--public-url" || a.startsWith("--public-url=")) opts.publicUrl = parsePublicUrl(value());
    else if (a === "--trust-proxy") opts.trustProxy = true;
    else if (a === "--database-url" || a.startsWith("--database-url=")) opts.databaseUrl = parseDatabaseUrl(value());
    else if (a === "--tls-cert" || a.startsWith("--tls-cert=")) opts.tlsCert = value();
    else if (a === "--tls-key" || a.startsWith("--tls-key=")) opts.tlsKey = value();
    else
      throw new Error(
        `unknown option ${a} (options: --port N, --host H, --allow-remote, --public-url URL, --trust-proxy, --tls-cert FILE, --tls-key FILE, --database-url URL, --dev, --background)`,
      );
  }
  if (Boolean(opts.tlsCert) !== Boolean(opts.tlsKey))
    throw new Error(
      opts.tlsCert
        ? "--tls-cert needs --tls-key (YARD_TLS_KEY): the private key of the certificate"
        : "--tls-key needs --tls-cert (YARD_TLS_CERT): the certificate of the key",
    );
  if (opts.trustProxy && !opts.publicUrl)
    throw new Error(
      "--trust-proxy needs --public-url: the forwarded host is accepted only when it is the public URL's",
    );
  if (!Number.isInteger(opts.port) || opts.port < 0 || opts.port > 65535) {
    throw new Error(`invalid port ${JSON.stringify(String(opts.port))}: use a number from 0 to 65535`);
  }
  if (!isLoopbackHost(opts.host) && !opts.allowRemote) {
    throw new Error(
      `refusing to listen on non-loopback address ${opts.host}: pass --allow-remote if you really mean it`,
    );
  }
  return opts;
}

/**
 * What the server warns about at start when it listens beyond loopback (--allow-remote): that
 * whoever reaches the address with the token runs commands here; that without --public-url other
 * machines' Host names are refused; and, loudly, when nothing encrypts the traffic (no
 * --tls-cert, no https --public-url): the token, login links and session cookies then cross the
 * network in clear text. Empty on loopback.
 */
export function exposureWarnings(opts: Pick<ServeOptions, "host" | "publicUrl">, tls: boolean): string[] {
  if (isLoopbackHost(opts.host)) return [];
  const warnings = [
    `WARNING: listening on ${opts.host}: anyone who can reach this address and has the token can run commands on this machine.`,
  ];
  if (!opts.publicUrl)
    warnings.push(
      "Without --public-url only loopback Host names are admitted: browsers and yard on other machines are refused until you give the address they use (--public-url https://NAME:PORT).",
    );
  if (!tls && !opts.publicUrl?.startsWith("https:"))
    warnings.push(
      [
        "*".repeat(78),
        "WARNING: plain HTTP on a network address: the token, login links, session cookies and",
        "everything on the board cross the network in clear text, readable and changeable by",
        "anyone on the way. Serve HTTPS (--tls-cert FILE --tls-key FILE), or stay on loopback",
        "behind an HTTPS reverse proxy (--public-url https://... --trust-proxy).",
        "*".repeat(78),
      ].join("\n"),
    );
  return warnings;
}

/** Journal retention (YARD_JOURNAL_MAX_DAYS, YARD_JOURNAL_MAX_EVENTS): null is no limit of that kind. */
export interface JournalRetention {
  maxDays: number | null;
  maxEvents: number | null;
}

const DEFAULT_JOURNAL_MAX_DAYS = 30;
const DEFAULT_JOURNAL_MAX_EVENTS = 100_000;
/** Fewer would let a burst of events outrun a reader that polls the journal. */
const MIN_JOURNAL_MAX_EVENTS = 1000;

/**
 * The journal's retention settings: events older than YARD_JOURNAL_MAX_DAYS days (default 30)
 * go, and the oldest go while there are more than YARD_JOURNAL_MAX_EVENTS (default 100000, at
 * least 1000). `0` turns that limit off. Throws on a value that is not a whole number in range.
 */
export function journalRetention(env: NodeJS.ProcessEnv = process.env): JournalRetention {
  const read = (name: string, fallback: number, min: number, max: number): number | null => {
    const v = env[name]?.trim();
    if (!v) return fallback;
    const n = Number(v);
    if (!/^\d+$/.test(v) || (n !== 0 && (n < min || n > max)))
      throw new Error(
        `${name} must be 0 (no limit) or a whole number from ${min} to ${max} (got ${JSON.stringify(v)})`,
      );
    return n === 0 ? null : n;
  };
  return {
    maxDays: read("YARD_JOURNAL_MAX_DAYS", DEFAULT_JOURNAL_MAX_DAYS, 1, 36_500),
    maxEvents: read("YARD_JOURNAL_MAX_EVENTS", DEFAULT_JOURNAL_MAX_EVENTS, MIN_JOURNAL_MAX_EVENTS, 100_000_000),
  };
}

/** A positive whole number from the environment, or undefined when unset; anything else is an error naming the variable. */
export function envInt(name: string): number | undefined {
  const v = process.env[name];
  if (!v) return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || n <= 0)
    throw new Error(`${name} must be a positive whole number (got ${JSON.stringify(v)})`);
  return n;
}
