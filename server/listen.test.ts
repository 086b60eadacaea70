// The API socket's gate (listen.ts): a request that arrives while the server starts is answered
// once it is ready, bytes intact, instead of being refused or cut.
import { mkdtempSync, rmSync } from "node:fs";
import http from "node:http";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { listenSocket, SocketGate } from "./listen";

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0).reverse()) c();
});

async function gateAt(maxWaiting?: number) {
  const dir = mkdtempSync(path.join(os.tmpdir(), "yard-gate-"));
  const gate = new SocketGate(maxWaiting);
  const file = await listenSocket(gate.listener, path.join(dir, "api.sock"));
  const server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (d) => (body += d));
    req.on("end", () => res.end(`${req.method} ${req.url} ${body}`));
  });
  cleanups.push(() => {
    gate.close();
    server.closeAllConnections();
    rmSync(dir, { recursive: true, force: true });
  });
  return { gate, file, server };
}

function post(file: string, body: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = http.request({ socketPath: file, method: "POST", path: "/api/trpc/tasks.report" }, (res) => {
      let d = "";
      res.on("data", (c) => (d += c));
      res.on("end", () => resolve(d));
    });
    req.on("error", reject);
    req.end(body);
  });
}

/** Resolves once the connection is closed by the other end, with whatever it had sent. */
function closedBy(file: string): Promise<string> {
  return new Promise((resolve) => {
    const c = net.connect(file);
    let got = "";
    c.on("data", (d) => (got += d));
    c.on("close", () => resolve(got));
    c.on("error", () => {});
  });
}

describe("SocketGate", () => {
  it("holds a request sent before the server is ready and hands it over whole; later ones go straight through", async () => {
    const { gate, file, server } = await gateAt();
    let answered = false;
    const early = post(file, '{"status":"completed"}').then((r) => {
      answered = true;
      return r;
    });
    await new Promise((r) => setTimeout(r, 200));
    expect(answered).toBe(false); // accepted and waiting, not refused or cut
    gate.open(server);
    expect(await early).toBe('POST /api/trpc/tasks.report {"status":"completed"}');
    expect(await post(file, "again")).toBe("POST /api/trpc/tasks.report again");
  });

  it("closes connections beyond the ones it may hold, and those it holds when it closes", async () => {
    const { gate, file } = await gateAt(2);
    const held = [closedBy(file), closedBy(file)];
    await new Promise((r) => setTimeout(r, 100));
    expect(await closedBy(file)).toBe(""); // the third is closed at once
    gate.close();
    expect(await Promise.all(held)).toEqual(["", ""]);
  });
});
