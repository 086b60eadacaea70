// A `fetch` over the server's Unix socket (YARD_SOCKET), for the tRPC client inside a sandbox
// with no network. Sends the request's method, headers and body to the URL's path on the
// socket with Host: localhost (the server's Host guard wants a loopback name) and answers with
// a standard Response. Abort signals cancel the request.
import http from "node:http";

type Init = { method?: string; headers?: HeadersInit | [string, string][] | Record<string, string>; body?: unknown; signal?: AbortSignal | null };

export function socketFetch(socketPath: string) {
  return (input: string | URL | Request, init: Init = {}): Promise<Response> => {
    const url = new URL(typeof input === "string" ? input : input instanceof URL ? input.href : input.url);
    const headers: Record<string, string> = {};
    new Headers(init.headers as HeadersInit | undefined).forEach((v, k) => (headers[k] = v));
    headers.host = "localhost";
    const body = init.body === undefined || init.body === null ? null : typeof init.body === "string" ? Buffer.from(init.body) : init.body instanceof Uint8Array ? Buffer.from(init.body) : null;
    if (init.body !== undefined && init.body !== null && body === null) return Promise.reject(new TypeError("socketFetch sends string or byte bodies only"));
    if (body) headers["content-length"] = String(body.length);
    return new Promise<Response>((resolve, reject) => {
      const signal = init.signal ?? undefined;
      if (signal?.aborted) return reject(signal.reason ?? new DOMException("The operation was aborted", "AbortError"));
      const req = http.request({ socketPath, path: url.pathname + url.search, method: init.method ?? "GET", headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("error", (e) => reject(new TypeError("fetch failed", { cause: e })));
        res.on("end", () => {
          const h = new Headers();
          for (const [k, v] of Object.entries(res.headers)) {
            if (Array.isArray(v)) for (const x of v) h.append(k, x);
            else if (v !== undefined) h.set(k, v);
          }
          const status = res.statusCode ?? 502;
          const noBody = status === 204 || status === 304;
          resolve(new Response(noBody ? null : Buffer.concat(chunks), { status, statusText: res.statusMessage ?? "", headers: h }));
        });
      });
      const onAbort = () => req.destroy(signal?.reason instanceof Error ? signal.reason : new DOMException("The operation was aborted", "AbortError"));
      signal?.addEventListener("abort", onAbort, { once: true });
      req.on("close", () => signal?.removeEventListener("abort", onAbort));
      // Like the built-in fetch: a network failure is "fetch failed" with the cause attached.
      req.on("error", (e: NodeJS.ErrnoException) => reject(e.name === "AbortError" ? e : new TypeError("fetch failed", { cause: e })));
      req.end(body ?? undefined);
    });
  };
}
