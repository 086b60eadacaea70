// Raw HTTP requests with full control of Host, Origin and cookies (fetch forbids some of them),
// and a browser's login (the session cookie and the session key the login page delivers).
import http from "node:http";
import https from "node:https";
import { SESSION_KEY_HEADER } from "../../server/wire/session-key";

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** One request (https when the URL says so, trusting only `ca` then), with full control of the headers. */
export function request(
  url: string,
  opts: { method?: string; headers?: Record<string, string>; body?: string; ca?: string } = {},
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const u = new URL(url);
    const target = {
      hostname: u.hostname,
      port: u.port,
      path: u.pathname + u.search,
      method: opts.method ?? "GET",
      headers: opts.headers,
    };
    const done = (res: http.IncomingMessage) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (d) => (body += d));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    };
    const req =
      u.protocol === "https:"
        ? https.request({ ...target, ca: opts.ca, agent: false }, done)
        : http.request(target, done);
    req.on("error", reject);
    if (opts.body) req.write(opts.body);
    req.end();
  });
}

/** A tRPC mutation over raw HTTP. */
export function trpcPost(
  base: string,
  proc: string,
  input: unknown,
  headers: Record<string, string> = {},
): Promise<RawResponse> {
  return request(`${base}/api/trpc/${proc}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(input),
  });
}

export interface BrowserSession {
  /** `name=value`, as a browser sends it (and as every other port of the host receives it). */
  cookie: string;
  /** The session key the login page leaves in the board origin's localStorage. */
  key: string;
  /** Both, as the board's own clients send them: for raw requests and socket.io's extraHeaders. */
  headers: Record<string, string>;
  /** The raw Set-Cookie header of the login answer. */
  setCookie: string;
}

/**
 * Opens the login link as a browser would (`previous` is the cookie it already holds) and
 * returns the session: the cookie from Set-Cookie and the key from the login page.
 */
export async function browserLogin(loginUrl: string, previous?: string): Promise<BrowserSession> {
  const res = await request(loginUrl, previous ? { headers: { cookie: previous } } : {});
  const setCookie = ([] as string[]).concat(res.headers["set-cookie"] ?? [])[0];
  const key = /<meta name="yard-session-key" content="([^"]+)">/.exec(res.body)?.[1];
  if (res.status !== 200 || !setCookie || !key)
    throw new Error(`login answered ${res.status} without a session: ${res.body.slice(0, 300)}`);
  const cookie = setCookie.split(";")[0]!;
  return { cookie, key, headers: { cookie, [SESSION_KEY_HEADER]: key }, setCookie };
}
