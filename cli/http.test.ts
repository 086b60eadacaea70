// nodeFetch, the CLI's transport for the tRPC client: what it sends and what it hands back.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { nodeFetch } from "./http";

let server: http.Server;
let base: string;
const seen: Array<{ method?: string; url?: string; headers: http.IncomingHttpHeaders; body: string }> = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      seen.push({ method: req.method, url: req.url, headers: req.headers, body });
      if (req.url === "/slow") return; // never answers
      const status = req.url === "/missing" ? 404 : 200;
      res.writeHead(status, { "content-type": "application/json" });
      res.end(req.url === "/bad-json" ? "{nope" : JSON.stringify({ echo: body, status }));
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

describe("nodeFetch", () => {
  it("sends method, headers and a string body on a connection of its own, and parses JSON", async () => {
    const res = await nodeFetch(`${base}/api/trpc/x?input=%7B%7D`, {
      method: "POST",
      headers: { Authorization: "Bearer t", "content-type": "application/json" },
      body: '{"a":"é"}',
    });
    expect(res.ok).toBe(true);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ echo: '{"a":"é"}', status: 200 });
    const req = seen.at(-1)!;
    expect(req).toMatchObject({ method: "POST", url: "/api/trpc/x?input=%7B%7D", body: '{"a":"é"}' });
    expect(req.headers).toMatchObject({
      authorization: "Bearer t",
      connection: "close",
      "content-length": String(Buffer.byteLength('{"a":"é"}')),
    });
  });

  it("GETs by default, takes header pairs, and says not ok for a non-2xx answer", async () => {
    const res = await nodeFetch(new URL(`${base}/missing`), { headers: [["x-one", "1"]] });
    expect(res.ok).toBe(false);
    expect(res.status).toBe(404);
    expect(seen.at(-1)).toMatchObject({ method: "GET", headers: { "x-one": "1" } });
  });

  it("rejects like fetch: bad JSON from json(), a refused connection with its code, an abort", async () => {
    await expect((await nodeFetch(`${base}/bad-json`)).json()).rejects.toThrow(SyntaxError);
    await expect(nodeFetch("http://127.0.0.1:9/")).rejects.toMatchObject({ code: "ECONNREFUSED" });
    const ac = new AbortController();
    const pending = nodeFetch(`${base}/slow`, { signal: ac.signal });
    ac.abort();
    await expect(pending).rejects.toMatchObject({ name: "AbortError" });
    await expect(nodeFetch("ftp://127.0.0.1/")).rejects.toThrow(/unsupported URL scheme/);
  });
});
