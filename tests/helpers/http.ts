// Raw HTTP requests with full control of Host, Origin and cookies (fetch forbids some of them).
import http from "node:http";

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export function request(url: string, opts: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const u = new URL(url);
    const req = http.request(
      { hostname: u.hostname, port: u.port, path: u.pathname + u.search, method: opts.method ?? "GET", headers: opts.headers },
      (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (d) => (body += d));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on("error", reject);
    if (opts.body) req.write(opts.body);
    req.end();
  });
}

/** A tRPC mutation over raw HTTP. */
export function trpcPost(base: string, proc: string, input: unknown, headers: Record<string, string> = {}): Promise<RawResponse> {
  return request(`${base}/api/trpc/${proc}`, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(input) });
}
