// retryWhileDown (cli/http.ts): inside a pane, a request made while the server is restarting (its
// socket gone, nothing listening) waits for the server instead of failing; other failures and an
// expired window fail as before.
import { mkdtempSync, rmSync } from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { retryWhileDown, socketFetch } from "./http";

const dir = mkdtempSync(path.join(os.tmpdir(), "yard-retry-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("retryWhileDown", () => {
  it("sends the request once a server listens again", async () => {
    const sock = path.join(dir, "late.sock");
    let attempts = 0;
    const direct = socketFetch(sock);
    const fetch = retryWhileDown((input, init) => {
      attempts++;
      return direct(input, init);
    }, 30_000);
    const pending = fetch("http://localhost/api/health", { method: "POST", body: "{}" });
    const server = http.createServer((req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ path: req.url }));
    });
    // Start listening only after the first attempt found nothing there.
    await new Promise((r) => setTimeout(r, 300));
    await new Promise<void>((r) => server.listen(sock, r));
    try {
      const res = await pending;
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ path: "/api/health" });
      expect(attempts).toBeGreaterThan(1); // it found nothing listening first
    } finally {
      await new Promise((r) => server.close(r));
    }
  });

  it("gives up when the window has passed, with the original error", async () => {
    const fetch = retryWhileDown(socketFetch(path.join(dir, "never.sock")), 200);
    await expect(fetch("http://localhost/api/health")).rejects.toMatchObject({ code: "ENOENT" });
  });

  it("does not retry a mutation the server may have received before it went away", async () => {
    let calls = 0;
    const fetch = retryWhileDown(async () => {
      calls++;
      throw Object.assign(new Error("socket hang up"), { code: "ECONNRESET" });
    }, 10_000);
    await expect(fetch("http://localhost/", { method: "POST" })).rejects.toMatchObject({ code: "ECONNRESET" });
    expect(calls).toBe(1);
  });

  it("sends a query again when a restart cut it off (a long task wait)", async () => {
    let calls = 0;
    const fetch = retryWhileDown(async () => {
      calls++;
      if (calls < 3) throw Object.assign(new Error("socket hang up"), { code: "ECONNRESET" });
      return { ok: true, status: 200, statusText: "OK", headers: {}, json: async () => ({}), text: async () => "{}" };
    }, 10_000);
    expect((await fetch("http://localhost/api/trpc/tasks.wait", { method: "GET" })).status).toBe(200);
    expect(calls).toBe(3);
  });
});
