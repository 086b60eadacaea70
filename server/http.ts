// The one HTTP server (HTTPS with --tls-cert/--tls-key): guards every request (Host, Origin,
// token or browser session), serves /api/health and /login (the session exchange) itself, tRPC at
// /api/trpc, socket.io at /socket.io, and hands the rest to Next.js. Connections are capped (security/connections.ts) and
// stalled ones closed, so slow clients cannot hold its file descriptors.
// The same request handler also answers on a Unix socket under the data dir (run/api.sock,
// dir 0700, socket 0600): sandboxed agents without network reach the API through it.
import { rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import { createHTTPHandler } from "@trpc/server/adapters/standalone";
import { paths } from "./config";
import { appRouter } from "./api/router";
import type { ApiCall } from "./api/trpc";
import { attachRealtime, type Realtime } from "./realtime/socket";
import { LIMITS, jsonDepthExceeds } from "./wire/common";
import {
  type Credentials,
  type GuardConfig,
  type Principal,
  authenticate,
  checkHost,
  checkOrigin,
  keylessSession,
  requestHost,
  sessionCookie,
  sessionCookieHeader,
} from "./security/guard";
import { SESSION_KEY_HEADER } from "./wire/session-key";
import { ConnectionLimiter, connectionCapsFrom } from "./security/connections";
import { SessionStore } from "./security/sessions";
import { loadOrCreateToken, safeEqual, sessionCookieName } from "./security/token";
import type { ApiSocketState } from "./core/sandbox/sandbox";
import { createServices, type Services } from "./composition";
import { escapeHtml, LOGIN_CSP, loginPage } from "./security/login-page";
import { createWebServer, listen, openApiSocket, portInUseMessage, schemeChange } from "./listen";
import { publishCert } from "./security/tls";
import { VERSION } from "./version";
import { type Actor, actingAs } from "./core/actor";
import { OWNER } from "./core/people/people";

export interface StartOptions {
  home: string;
  host: string;
  port: number;
  dev: boolean;
  /** Serve the Next.js UI (false for API-only integration tests). */
  ui: boolean;
  log?: (line: string) => void;
  /** The address people use (behind a reverse proxy): the links shown to them, and a Host accepted. */
  publicUrl?: string;
  /** The request's host is X-Forwarded-Host when the proxy sets it (it must then be the public URL's). */
  trustProxy?: boolean;
  databaseUrl?: string; // --database-url (postgresql://); else DATABASE_URL, read by the services
  /** Serve HTTPS on the TCP port with this certificate (PEM, chain after it) and key (security/tls.ts). */
  tls?: { cert: string; key: string };
}

export interface RunningServer {
  url: string;
  port: number;
  token: string;
  loginUrl: string;
  services: Services;
  /**
   * Stops serving. `stopPanes` (default true) also ends every agent and the pane host; false
   * leaves them running for the next server (what `yard serve` does on SIGTERM).
   */
  close(opts?: { stopPanes?: boolean }): Promise<void>;
}

type AdmittedRequest = http.IncomingMessage & { principal: Principal; pane: ApiCall["pane"]; body?: string };

type NextHandler = (req: http.IncomingMessage, res: http.ServerResponse) => Promise<void>;

function sendJson(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, { "content-type": "application/json; charset=utf-8", "cache-control": "no-store", ...headers });
  res.end(JSON.stringify(body));
}

function sendError(req: http.IncomingMessage, res: http.ServerResponse, status: number, code: string, message: string) {
  const wantsHtml = !req.url?.startsWith("/api/") && (req.headers.accept ?? "").includes("text/html");
  if (req.url?.startsWith("/api/trpc")) {
    // The shape tRPC clients decode (numeric JSON-RPC code), carrying our error in data.yard.
    const yard = { code, message, details: null, retryable: false };
    return sendJson(res, status, {
      error: { message, code: JSONRPC_CODE[status] ?? -32603, data: { code, httpStatus: status, yard } },
    });
  }
  if (!wantsHtml) return sendJson(res, status, { error: { code, message, details: null } });
  res.writeHead(status, { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" });
  res.end(
    `<!doctype html><meta charset="utf-8"><title>Switchyard</title><body style="font-family:system-ui;max-width:40rem;margin:4rem auto;line-height:1.5">` +
      `<h1>Switchyard</h1><p>${escapeHtml(message)}</p>` +
      (code === "UNAUTHORIZED"
        ? `<p>Open the login link printed where the board was started, or run <code>yard status</code> to see it again.</p>`
        : "") +
      `</body>`,
  );
}

const JSONRPC_CODE: Record<number, number> = {
  400: -32600,
  401: -32001,
  403: -32003,
  404: -32004,
  405: -32005,
  413: -32013,
  500: -32603,
};

/** Sent with every response: no framing by other sites, no MIME sniffing, no referrer leaks. */
const SECURITY_HEADERS: Record<string, string> = {
  "x-frame-options": "DENY",
  "content-security-policy": "frame-ancestors 'none'",
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
};

type Refused = { status: number; code: string; message: string };

/**
 * Reads a request body up to LIMITS.bodyBytes; a larger one is refused without keeping it (the
 * rest is drained and discarded, so the client reads the 413 instead of a connection reset).
 */
function readBody(req: http.IncomingMessage): Promise<string | Refused> {
  const declared = Number(req.headers["content-length"] ?? "0");
  const tooLarge: Refused = {
    status: 413,
    code: "PAYLOAD_TOO_LARGE",
    message: `The request body is larger than ${LIMITS.bodyBytes} bytes`,
  };
  if (declared > LIMITS.bodyBytes) {
    req.resume();
    return Promise.resolve(tooLarge);
  }
  return new Promise((resolve) => {
    let chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    req.on("data", (c: Buffer) => {
      if (done) return;
      size += c.length;
      if (size > LIMITS.bodyBytes) {
        done = true;
        chunks = [];
        return resolve(tooLarge);
      }
      chunks.push(c);
    });
    req.on("end", () => {
      if (!done) resolve(Buffer.concat(chunks).toString("utf8"));
      done = true;
    });
    req.on("error", () => {
      if (!done) resolve({ status: 400, code: "BAD_PARAMS", message: "The request body could not be read" });
      done = true;
    });
  });
}

const headerValue = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

export async function startServer(opts: StartOptions): Promise<RunningServer> {
  const log = opts.log ?? ((l: string) => console.log(l));
  const p = paths(opts.home);
  const token = loadOrCreateToken(p.token);
  const sessions = new SessionStore(p.sessions);
  let url = "";
  // The API socket listens from here on: what arrives while the services start waits (SocketGate).
  const { gate, state, close: closeApiSocket } = await openApiSocket(p.socket);
  let apiSocket: ApiSocketState = state;
  const services = await createServices({
    home: opts.home,
    token,
    url: () => url,
    publicUrl: () => opts.publicUrl ?? url,
    apiSocket: () => apiSocket,
    log,
    sessions,
    databaseUrl: opts.databaseUrl,
  }).catch((e: unknown) => {
    closeApiSocket();
    throw e;
  });
  const guardCfg: GuardConfig = {
    token,
    sessions,
    people: services.people,
    cookieName: sessionCookieName(token),
    ...(opts.publicUrl ? { publicHost: new URL(opts.publicUrl).host, trustProxy: opts.trustProxy === true } : {}),
  };

  let nextHandler: NextHandler | null = null;
  let nextError: Error | null = null;
  let realtime: Realtime | null = null;

  const trpc = createHTTPHandler({
    router: appRouter,
    basePath: "/api/trpc/",
    createContext: async ({ req }): Promise<ApiCall> => {
      const r = req as AdmittedRequest;
      return { services, principal: r.principal, pane: r.pane };
    },
  });

  const onRequest = (req: http.IncomingMessage, res: http.ServerResponse) => {
    void handle(req, res).catch((e: unknown) => {
      log(`request ${req.method} ${req.url} failed: ${(e as Error)?.stack ?? String(e)}`);
      if (!res.headersSent) sendError(req, res, 500, "INTERNAL", "Internal error");
      else res.destroy();
    });
  };
  // The Unix socket stays plain HTTP (only this user's processes reach it); a TLS handshake that
  // stalls is dropped after 10 s, as a stalled request is.
  const server = createWebServer(onRequest, opts.tls && { ...opts.tls, handshakeTimeout: 10_000 });
  const socketServer = http.createServer({ connectionsCheckingInterval: 2_000 }, onRequest);

  // Requests Node's parser refuses (headers or URL too large, malformed HTTP) get a typed answer
  // too, in the shape tRPC clients decode, instead of a bare status line.
  const onClientError = (err: NodeJS.ErrnoException, socket: import("node:stream").Duplex) => {
    if (!socket.writable || (err as { code?: string }).code === "ECONNRESET") return socket.destroy();
    const timeout = err.code === "ERR_HTTP_REQUEST_TIMEOUT";
    const tooLarge = err.code === "HPE_HEADER_OVERFLOW";
    const [status, reason, code, message] = timeout
      ? [408, "Request Timeout", "TIMEOUT", "The request did not arrive in time"]
      : tooLarge
        ? [
            431,
            "Request Header Fields Too Large",
            "PAYLOAD_TOO_LARGE",
            "The request's URL or headers are too large (send large input in a POST body)",
          ]
        : [400, "Bad Request", "BAD_PARAMS", "Malformed HTTP request"];
    const body = JSON.stringify({
      error: {
        message,
        code: timeout ? -32008 : tooLarge ? -32013 : -32600,
        data: { code, httpStatus: status, yard: { code, message, details: null, retryable: timeout } },
      },
    });
    // Closed as soon as the answer is handed to the kernel: `end()` alone would keep the socket
    // half-open until the peer reads and closes, which a stalled client never does.
    socket.end(
      `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
      () => socket.destroy(),
    );
    setTimeout(() => socket.destroy(), 1_000).unref();
  };
  server.on("clientError", onClientError);
  socketServer.on("clientError", onClientError);
  // Connections are capped per listening socket and in total (YARD_MAX_CONNECTIONS,
  // YARD_MAX_CONNECTIONS_TOTAL): stalled clients hold at most the caps, a fresh request gets in.
  const connections = new ConnectionLimiter(connectionCapsFrom(process.env));
  connections.watch(server);
  connections.watch(socketServer);
  // The only WebSocket is socket.io's on the TCP port (and Next's own in development): any other
  // upgrade is closed at once instead of being left open with nobody answering.
  const closeOtherUpgrades =
    (realtimeHere: boolean) => (req: http.IncomingMessage, socket: import("node:stream").Duplex) => {
      const p = (req.url ?? "").split("?")[0]!;
      if (realtimeHere && (p.startsWith("/socket.io/") || p === "/socket.io" || (opts.dev && p.startsWith("/_next/"))))
        return;
      socket.destroy();
    };
  server.on("upgrade", closeOtherUpgrades(true));
  socketServer.on("upgrade", closeOtherUpgrades(false));

  async function handle(req: http.IncomingMessage, res: http.ServerResponse) {
    for (const [k, v] of Object.entries(SECURITY_HEADERS)) res.setHeader(k, v);
    const host = requestHost(req.headers, guardCfg);
    const refusedHost = checkHost(host, guardCfg);
    if (refusedHost) return sendError(req, res, refusedHost.status, refusedHost.code, refusedHost.message);
    const u = new URL(req.url ?? "/", "http://localhost");

    if (u.pathname === "/api/health") {
      if (req.method !== "GET" && req.method !== "HEAD") return sendError(req, res, 405, "BAD_PARAMS", "GET only");
      return sendJson(res, 200, { status: "ok", version: VERSION });
    }

    const refusedOrigin = checkOrigin(
      req.method ?? "GET",
      req.headers.origin,
      host,
      req.headers["sec-fetch-site"] as string | undefined,
    );
    if (refusedOrigin) return sendError(req, res, refusedOrigin.status, refusedOrigin.code, refusedOrigin.message);

    if (u.pathname === "/login" || u.pathname === "/invite") {
      // The login link signs in the owner; an invite link (once, before it expires) its person.
      let personId: string;
      if (u.pathname === "/login") {
        if (!safeEqual(u.searchParams.get("token") ?? "", token))
          return sendError(req, res, 401, "UNAUTHORIZED", "That login link is not valid for this board.");
        personId = OWNER.id;
      } else {
        const invited = await services.people.redeem(u.searchParams.get("code") ?? "");
        if (!invited)
          return sendError(
            req,
            res,
            401,
            "UNAUTHORIZED",
            "That invite link is not valid: it was used already, it expired, or it was revoked. Ask an admin for a new one (yard user invite NAME).",
          );
        personId = invited.id;
      }
      const next = u.searchParams.get("next") ?? "/";
      const target = /^\/(?!\/)[^\s\\]*$/.test(next) ? next : "/";
      // A fresh session at every login; the one this browser held before is revoked.
      const session = sessions.create(sessionCookie(req.headers.cookie, guardCfg.cookieName), personId);
      res.writeHead(200, {
        "content-type": "text/html; charset=utf-8",
        "set-cookie": sessionCookieHeader(guardCfg.cookieName, session.cookie),
        "cache-control": "no-store",
        "referrer-policy": "no-referrer",
        "content-security-policy": LOGIN_CSP,
      });
      return res.end(loginPage(session.key, target));
    }

    const credentials: Credentials = {
      authorization: req.headers.authorization,
      cookie: req.headers.cookie,
      sessionKey: headerValue(req.headers[SESSION_KEY_HEADER]),
    };
    // Pages (the HTML/JS shell, no data) take the session cookie alone; the API needs its key too.
    const principal = authenticate(credentials, guardCfg, { pages: !u.pathname.startsWith("/api/") });
    if (!principal) {
      if (keylessSession(credentials, guardCfg))
        return sendError(
          req,
          res,
          401,
          "UNAUTHORIZED",
          "This browser's session key is missing or stale: open the login link again (yard status prints it).",
        );
      return sendError(req, res, 401, "UNAUTHORIZED", "This board needs its login token.");
    }
    let pane: ApiCall["pane"] = null;
    if (principal.kind === "person" && principal.tokenId) services.people.used(principal.tokenId);
    if (principal.kind === "pane") {
      pane = await services.panes.authenticate(principal.paneId, principal.secret);
      if (!pane)
        return sendError(
          req,
          res,
          401,
          "UNAUTHORIZED",
          "This pane token is not valid (forged, or its pane has exited).",
        );
    }

    if (u.pathname.startsWith("/api/trpc/") || u.pathname === "/api/trpc") {
      const r = req as AdmittedRequest;
      r.principal = principal;
      r.pane = pane;
      if (req.method === "POST") {
        const body = await readBody(req);
        if (typeof body !== "string") return sendError(req, res, body.status, body.code, body.message);
        if (jsonDepthExceeds(body))
          return sendError(
            req,
            res,
            400,
            "BAD_PARAMS",
            `The request body is nested deeper than ${LIMITS.depth} levels`,
          );
        r.body = body;
      }
      // Everything the call does (and the journal events it appends) is this caller's doing.
      const actor: Actor =
        principal.kind === "person"
          ? { kind: "person", name: principal.person.name }
          : { kind: "pane", paneId: principal.paneId };
      return actingAs(actor, () => trpc(req, res));
    }
    if (Number(req.headers["content-length"] ?? "0") > LIMITS.bodyBytes) {
      req.resume();
      return sendError(req, res, 413, "PAYLOAD_TOO_LARGE", `The request body is larger than ${LIMITS.bodyBytes} bytes`);
    }
    if (u.pathname.startsWith("/api/")) return sendError(req, res, 404, "NOT_FOUND", `No API route ${u.pathname}`);
    if (principal.kind !== "person") return sendError(req, res, 403, "FORBIDDEN", "Pane tokens cannot open pages");

    if (!opts.ui) return sendError(req, res, 404, "NOT_FOUND", "This server runs without the UI");
    if (nextError) return sendError(req, res, 500, "INTERNAL", `The UI failed to start: ${nextError.message}`);
    if (!nextHandler) {
      res.writeHead(503, { "content-type": "text/html; charset=utf-8", "retry-after": "1", refresh: "1" });
      return res.end(
        `<!doctype html><meta charset="utf-8"><title>Switchyard</title><p style="font-family:system-ui">Starting the board…</p>`,
      );
    }
    return nextHandler(req, res);
  }

  // Slow or stalled clients cannot hold connections: the whole request (headers and body, not
  // the response: `tasks.wait` long-polls) must arrive within 20 s (YARD_REQUEST_TIMEOUT_MS; the
  // 408 is followed by closing the socket, not by waiting for the peer), an idle keep-alive
  // connection is closed after 5 s, and the connection caps bound how many they hold meanwhile.
  const requestTimeout =
    Number(process.env.YARD_REQUEST_TIMEOUT_MS) >= 1000 ? Number(process.env.YARD_REQUEST_TIMEOUT_MS) : 20_000;
  for (const srv of [server, socketServer]) {
    srv.requestTimeout = requestTimeout;
    srv.headersTimeout = Math.min(10_000, requestTimeout);
    srv.keepAliveTimeout = 5_000;
  }
  // Agents that outlived the previous server post hooks and call `yard` at the address in their
  // YARD_URL: listen there again.
  const reattach = services.panes.reattachAddress();
  let listenHost = opts.host;
  let listenPort = opts.port;
  if (reattach) {
    if ((opts.port !== 0 && opts.port !== reattach.port) || opts.host !== reattach.host) {
      log(
        `switchyard: ${services.panes.liveCount} agent(s) still running expect the server at ${reattach.url}; serving there instead of ${opts.host}:${opts.port}`,
      );
    }
    listenHost = reattach.host;
    listenPort = reattach.port;
    const otherScheme = schemeChange(reattach.url, Boolean(opts.tls));
    if (otherScheme) log(`switchyard: ${otherScheme}`);
  }
  let port: number;
  try {
    port = await listen(server, listenPort, listenHost);
  } catch (e) {
    closeApiSocket();
    await services.close({ stopPanes: false });
    if (reattach && (e as Error).message === portInUseMessage(listenPort)) {
      throw new Error(
        `Port ${listenPort} is already in use, and ${services.panes.liveCount} agent(s) still running in the pane host expect the server there (their YARD_URL is ${reattach.url}). Free that port, or stop the agents with \`yard stop --all\`.`,
      );
    }
    throw e;
  }
  gate.open(socketServer);
  if ("error" in apiSocket) log(`switchyard: no API socket (${apiSocket.error}); sandboxed tasks will be refused`);
  const hostForUrl = listenHost.includes(":") ? `[${listenHost}]` : listenHost === "0.0.0.0" ? "127.0.0.1" : listenHost;
  url = `${opts.tls ? "https" : "http"}://${hostForUrl}:${port}`;
  const cert = publishCert(opts.home, opts.tls?.cert ?? null);
  await services.host.serving({ url, host: listenHost, port });
  realtime = await attachRealtime(server, { services, guard: guardCfg, sessions, url });
  connections.trackRequests(server); // socket.io replaced the request listeners: count its requests too
  const discovery = { url, port, pid: process.pid, version: VERSION, ...(cert ? { cert } : {}) };
  writeFileSync(p.server, `${JSON.stringify(discovery)}\n`, { mode: 0o600 });

  if (opts.ui) {
    const ready = (async () => {
      const { default: next } = await import("next");
      const app = next({ dev: opts.dev, hostname: opts.host, port, dir: process.cwd() });
      await withoutConfigTiming(() => app.prepare());
      const handler = app.getRequestHandler();
      nextHandler = (req, res) => handler(req, res);
    })();
    await ready.catch((e: Error) => {
      nextError = e;
      log(`The UI failed to start: ${e.message}`);
    });
  }

  let closed = false;
  return {
    url,
    port,
    token,
    loginUrl: `${opts.publicUrl ?? url}/login?token=${encodeURIComponent(token)}`,
    services,
    async close(o = {}) {
      if (closed) return;
      closed = true;
      await realtime?.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      closeApiSocket();
      socketServer.close();
      socketServer.closeAllConnections();
      apiSocket = { error: "the server has shut down" };
      await services.close({ stopPanes: o.stopPanes ?? true });
      rmSync(p.server, { force: true });
    },
  };
}

/**
 * Runs `fn` without Next's "✓ Running next.config.mjs took 25ms" line, which it prints at every
 * start: the server's own output is what a user needs (the address, the login link, problems).
 */
async function withoutConfigTiming<T>(fn: () => Promise<T>): Promise<T> {
  const log = console.log;
  console.log = (...args: unknown[]) => {
    if (/Running next\.config\.\w+ took/.test(args.map(String).join(" "))) return;
    log(...args);
  };
  try {
    return await fn();
  } finally {
    console.log = log;
  }
}
