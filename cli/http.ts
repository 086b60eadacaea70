// The tRPC client's HTTP transport: a minimal fetch over node:http. Node's global fetch
// (undici) is loaded lazily on first use and costs about 30 ms of every `yard` call (its
// JavaScript plus a WebAssembly HTTP parser), and it keeps the connection alive after the
// answer, which holds the process open for a while after it printed. A CLI makes a request or
// two and exits, so this sends each request on its own connection (Connection: close) and gives
// tRPC what it reads from a response: `ok` and `json()`. No client-side timeout: `yard task
// wait` long-polls for as long as its --timeout says. `socketFetch(path)` sends the same requests
// over a Unix socket (YARD_SOCKET: a sandboxed pane has no network), with Host: localhost for the
// server's Host guard. `pinnedFetch(file)` sends them to an https URL trusting only the
// certificate(s) in that PEM file (bin/tls-pin.mjs, loaded at the first https request). `retryWhileDown(fetch, ms)` tries a request again
// while nothing listens (the server is restarting; agents in panes outlive it).
import http from "node:http";
import type { RequestOptions } from "node:https";
import type { pinnedTls } from "./bin/tls-pin.mjs";

/** How a connection to an https board is verified: exactly its certificate (bin/tls-pin.mjs). */
type PinnedTls = Awaited<ReturnType<typeof pinnedTls>>;

export interface NodeResponse {
  readonly ok: boolean;
  readonly status: number;
  readonly statusText: string;
  readonly headers: http.IncomingHttpHeaders;
  json(): Promise<unknown>;
  text(): Promise<string>;
}

interface Init {
  method?: string;
  headers?: [string, string][] | Record<string, string> | Headers;
  body?: unknown;
  signal?: AbortSignal | null;
}

/** fetch(url, {method, headers, body, signal}) for string bodies, over http: or https:. */
export function nodeFetch(input: RequestInfo | URL | string, init: Init = {}): Promise<NodeResponse> {
  return send(input, init, null);
}

/**
 * The same fetch, trusting for an https: URL only the certificates of the PEM file `certFile`
 * (read once, at the first https request; a file that cannot be read fails that request).
 */
export function pinnedFetch(certFile: string) {
  let tls: Promise<PinnedTls> | null = null;
  return async (input: RequestInfo | URL | string, init: Init = {}): Promise<NodeResponse> => {
    const href = typeof input === "string" ? input : input instanceof URL ? input.href : "";
    if (!href.startsWith("https:")) return send(input, init, null);
    tls ??= import("./bin/tls-pin.mjs").then((m) => m.pinnedTls(certFile));
    return send(input, init, null, await tls);
  };
}

/** The same fetch, over the server's Unix socket instead of the URL's host and port. */
export function socketFetch(socketPath: string) {
  return (input: RequestInfo | URL | string, init: Init = {}): Promise<NodeResponse> => send(input, init, socketPath);
}

async function send(
  input: RequestInfo | URL | string,
  init: Init,
  socketPath: string | null,
  tls?: PinnedTls,
): Promise<NodeResponse> {
  if (typeof input !== "string" && !(input instanceof URL)) throw new TypeError("nodeFetch takes a URL, not a Request");
  const url = new URL(input);
  if (init.body != null && typeof init.body !== "string") throw new TypeError("nodeFetch sends string bodies only");
  const body = init.body as string | undefined;
  const headers: Record<string, string> = {};
  const given = init.headers ?? {};
  // (no `instanceof Headers`: touching that global loads undici)
  const pairs: Iterable<[string, string]> =
    Symbol.iterator in given ? (given as Iterable<[string, string]>) : Object.entries(given);
  for (const [k, v] of pairs) headers[k.toLowerCase()] = v;
  headers.connection = "close";
  if (socketPath) headers.host = "localhost";
  if (body !== undefined) headers["content-length"] = String(Buffer.byteLength(body));

  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw new TypeError(`unsupported URL scheme ${url.protocol}`);
  const options: RequestOptions = {
    method: init.method ?? "GET",
    headers,
    agent: false,
    signal: init.signal ?? undefined,
    ...(tls && url.protocol === "https:" ? tls : {}),
  };
  // https only when asked for: loading TLS costs start-up time that the loopback server never needs
  const transport: Pick<typeof http, "request"> =
    url.protocol === "https:" && !socketPath ? await import("node:https") : http;
  const target = socketPath ? { ...options, socketPath, path: url.pathname + url.search } : options;

  return new Promise<NodeResponse>((resolve, reject) => {
    const req = socketPath ? transport.request(target, onResponse) : transport.request(url, target, onResponse);
    function onResponse(res: http.IncomingMessage) {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("error", reject);
      res.on("end", () => {
        const text = Buffer.concat(chunks).toString("utf8");
        const status = res.statusCode ?? 0;
        resolve({
          ok: status >= 200 && status < 300,
          status,
          statusText: res.statusMessage ?? "",
          headers: res.headers,
          json: async () => JSON.parse(text) as unknown,
          text: async () => text,
        });
      });
    }
    req.on("error", reject);
    req.end(body);
  });
}

type Fetch = (input: RequestInfo | URL | string, init?: Init) => Promise<NodeResponse>;

/** Nothing listens there: the request never reached a server, so sending it again is safe. */
const NOTHING_LISTENS = new Set(["ECONNREFUSED", "ENOENT"]);
/** The server went away mid-request: safe to send again only for a query (GET reads nothing changes). */
const CUT_OFF = new Set(["ECONNRESET", "EPIPE"]);

/**
 * A fetch that, while nothing listens at the server's address, tries again every 250 ms for up
 * to `windowMs`: inside a pane, a `yard` call made while the server restarts waits for it
 * instead of failing (the pane host keeps the agent running meanwhile). A query the restart cut
 * off (a long `yard task wait`) is sent again too; a mutation that was cut off is not.
 */
export function retryWhileDown(fetch: Fetch, windowMs: number): Fetch {
  return async (input, init) => {
    const deadline = Date.now() + windowMs;
    for (;;) {
      try {
        return await fetch(input, init);
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code ?? "";
        const isQuery = !init?.method || init.method.toUpperCase() === "GET";
        const again = NOTHING_LISTENS.has(code) || (isQuery && CUT_OFF.has(code));
        if (!again || Date.now() >= deadline || init?.signal?.aborted) throw e;
        await new Promise((r) => setTimeout(r, Math.min(250, Math.max(0, deadline - Date.now()))));
      }
    }
  };
}
