// socketFetch (cli/http.ts) against a real HTTP server on a Unix socket: method, path, headers and body go
// through, Host is always localhost, the response keeps status and headers, aborts cancel, and
// an unreachable socket fails like fetch does (so the CLI says SERVER_UNAVAILABLE).
import { mkdtempSync, rmSync } from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { waitFor } from "../tests/helpers/wait";
import { makeClient } from "./connection";
import { toCliError } from "./output";
import { socketFetch } from "./http";

const dir = mkdtempSync(path.join(os.tmpdir(), "yard-sockfetch-"));
const sock = path.join(dir, "api.sock");
let server: http.Server;
const seen: { method?: string; url?: string; headers: http.IncomingHttpHeaders; body: string }[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (d) => (body += d));
    req.on("end", () => {
      seen.push({ method: req.method, url: req.url, headers: req.headers, body });
      if (req.url === "/slow") return; // never answers
      res.writeHead(req.url === "/missing" ? 404 : 200, { "content-type": "application/json", "x-yard": "1" });
      res.end(JSON.stringify({ echo: body }));
    });
  });
  await new Promise<void>((r) => server.listen(sock, r));
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((r) => server.close(() => r()));
  rmSync(dir, { recursive: true, force: true });
});

describe("socketFetch", () => {
  it("sends method, path, query, headers and body; forces Host: localhost; returns status and headers", async () => {
    const f = socketFetch(sock);
    const res = await f("http://127.0.0.1:7420/api/trpc/x?input=%7B%7D", {
      method: "POST",
      headers: { "content-type": "application/json", authorization: "Bearer t", host: "evil.example" },
      body: '{"a":1}',
    });
    expect(res.status).toBe(200);
    expect(res.headers["x-yard"]).toBe("1");
    expect(await res.json()).toEqual({ echo: '{"a":1}' });
    const req = seen.at(-1)!;
    expect(req).toMatchObject({ method: "POST", url: "/api/trpc/x?input=%7B%7D", body: '{"a":1}' });
    expect(req.headers).toMatchObject({
      host: "localhost",
      authorization: "Bearer t",
      "content-type": "application/json",
      "content-length": "7",
    });

    const nf = await f(new URL("http://localhost/missing"), { headers: [["x-a", "b"]] });
    expect(nf.status).toBe(404);
    expect(seen.at(-1)).toMatchObject({ method: "GET", url: "/missing", headers: { "x-a": "b" } });
  });

  it("cancels on abort", async () => {
    const ac = new AbortController();
    const p = socketFetch(sock)("http://localhost/slow", { signal: ac.signal });
    await waitFor(() => seen.some((r) => r.url === "/slow"), { what: "the request to arrive" });
    ac.abort();
    await expect(p).rejects.toThrow(/abort/i);
  });

  it("fails when the socket is not there, which the CLI reports as SERVER_UNAVAILABLE", async () => {
    const missing = path.join(dir, "nobody.sock");
    await expect(socketFetch(missing)("http://localhost/x")).rejects.toMatchObject({ code: "ENOENT" });
    const client = makeClient({ url: "http://127.0.0.1:9", token: "t", source: "env", home: dir, socket: missing });
    let err: unknown;
    try {
      await client.status.query();
    } catch (e) {
      err = e;
    }
    expect(toCliError(err).code).toBe("SERVER_UNAVAILABLE");
  });
});
