// The HTTP edge against the real server on a random port, measured with real sockets: slow and
// idle clients are disconnected and capped (on the TCP port and on run/api.sock), and long polls
// are capped per caller.
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, readlinkSync } from "node:fs";
import http from "node:http";
import net from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { adminClient, clientWithToken, errorOf } from "./helpers/client";
import { scratch } from "./helpers/scratch";
import { startTestServer, type TestServer } from "./helpers/server";
import { waitFor } from "./helpers/wait";

vi.setConfig({ testTimeout: 60_000 });

const dirs = scratch("yard-edge-");

/** Sockets the server process holds open (its TCP and Unix-socket connections, listeners, pane host link). */
function serverSockets(s: TestServer): number {
  let n = 0;
  for (const fd of readdirSync(`/proc/${s.proc.pid}/fd`)) {
    try {
      if (readlinkSync(`/proc/${s.proc.pid}/fd/${fd}`).startsWith("socket:")) n++;
    } catch {
      // closed while we looked
    }
  }
  return n;
}

type Target = { port: number } | { path: string };
const apiSocket = (s: TestServer) => ({ path: path.join(s.home, "run", "api.sock") });
const tcp = (s: TestServer) => ({ port: s.port });

/**
 * `count` clients that each send half a request (headers never finished) and then never read:
 * the kind of client that held a socket forever. Resolves once all are connected.
 */
async function halfRequests(to: Target, count: number): Promise<net.Socket[]> {
  const socks = await Promise.all(
    Array.from(
      { length: count },
      () =>
        new Promise<net.Socket>((resolve, reject) => {
          const sock = "port" in to ? net.connect(to.port, "127.0.0.1") : net.connect(to.path);
          sock.once("connect", () => {
            sock.write("GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ");
            sock.pause(); // never reads
            resolve(sock);
          });
          sock.once("error", reject);
        }),
    ),
  );
  for (const s of socks) s.on("error", () => {}); // a reset by the server is what we want
  return socks;
}

function health(to: Target): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request({ ...("port" in to ? { host: "127.0.0.1", port: to.port } : { socketPath: to.path }), path: "/api/health", headers: { host: "127.0.0.1" }, agent: false }, (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode ?? 0));
    });
    req.on("error", reject);
    req.setTimeout(5_000, () => req.destroy(new Error("no answer in 5 s")));
    req.end();
  });
}

const CAP = 40;
const TOTAL = 60;
/** A server with a short request timeout and small caps. */
let s: TestServer;

beforeAll(async () => {
  s = await startTestServer({ env: { YARD_REQUEST_TIMEOUT_MS: "1000", YARD_MAX_CONNECTIONS: String(CAP), YARD_MAX_CONNECTIONS_TOTAL: String(TOTAL), YARD_MAX_WAITS: "3" } });
});
afterAll(async () => {
  await s?.dispose();
  dirs.cleanup();
});

describe("item 7: slow clients are disconnected, connections and long polls are capped", () => {
  let base: number;

  beforeAll(async () => {
    await waitFor(() => existsSync(apiSocket(s).path), { what: "run/api.sock" });
    base = serverSockets(s);
  });

  for (const [name, where] of [
    ["the TCP port", tcp],
    ["run/api.sock", apiSocket],
  ] as const) {
    it(`disconnects clients that send half a request and never read, after the request timeout (${name})`, async () => {
      const socks = await halfRequests(where(s), 10);
      try {
        await waitFor(() => serverSockets(s) >= base + 10, { what: "the server to hold the 10 connections" });
        // The request timeout is 1 s, checked every 2 s: every one of them is gone within ~3 s.
        const left = await waitFor(() => (serverSockets(s) <= base ? serverSockets(s) : null), { timeoutMs: 8_000, what: "the server's socket count to go back down" });
        expect(left).toBeLessThanOrEqual(base);
      } finally {
        for (const sock of socks) sock.destroy();
      }
    });
  }

  it("keeps answering /api/health with far more idle half-open connections than the cap, on both sockets", async () => {
    // With few descriptors left, unbounded connections would exhaust them (20,000 did at the default limit).
    execFileSync("prlimit", ["--pid", String(s.proc.pid), `--nofile=${base + 200}:${base + 200}`]);
    const flood = [...(await halfRequests(tcp(s), 300)), ...(await halfRequests(apiSocket(s), 300))];
    try {
      expect(await health(tcp(s))).toBe(200);
      expect(await health(apiSocket(s))).toBe(200);
      // Held at most: the caps (per socket and in total), never one descriptor per client.
      expect(serverSockets(s)).toBeLessThanOrEqual(base + TOTAL + 2);
      // The API itself answers too, through either socket.
      const api = adminClient(s);
      expect((await api.status.query()).principal).toBe("admin");
    } finally {
      for (const sock of flood) sock.destroy();
    }
  });

  it("answers a caller over the long-poll cap with RATE_LIMITED at once; its earlier waits, and other callers', still work", async () => {
    const api = adminClient(s);
    const repo = dirs.repo();
    const { task } = await api.tasks.start.mutate({ repoPath: repo, objective: "hold", argv: ["sleep", "600"], stallMs: 300 });
    // A pane of the person's (an orchestrator) with a task of its own.
    const envFile = path.join(dirs.tmp(), "env.txt");
    await api.panes.spawn.mutate({ argv: ["sh", "-c", `env > ${envFile}.tmp && mv ${envFile}.tmp ${envFile}; exec sleep 600`], cwd: path.dirname(envFile) });
    const paneToken = await waitFor(() => (existsSync(envFile) ? /^YARD_TOKEN=(.*)$/m.exec(readFileSync(envFile, "utf8"))?.[1] : null), { what: "the pane's token" });
    const asPane = clientWithToken(s, paneToken);
    const own = (await asPane.tasks.start.mutate({ repoPath: dirs.repo(), objective: "hold", argv: ["sleep", "600"], stallMs: 300 })).task;

    // Four at once from one caller: three are held, the one over the cap is refused at once.
    const fourWaits = (client: typeof api, id: string) => [0, 1, 2, 3].map(() => client.tasks.wait.query({ id, until: "terminal", timeoutMs: 20_000 }).then((r) => ({ ok: r }), (e: unknown) => ({ err: e })));
    const mine = fourWaits(api, task.id);
    const first = await Promise.race(mine);
    expect("err" in first && (await errorOf(() => Promise.reject(first.err)))).toMatchObject({ code: "RATE_LIMITED", details: { max: 3 } });
    // The pane is another caller, with slots of its own.
    const panes = fourWaits(asPane, own.id);
    const paneFirst = await Promise.race(panes);
    expect("err" in paneFirst && (await errorOf(() => Promise.reject(paneFirst.err))).code).toBe("RATE_LIMITED");

    // The held waits are answered when their tasks end, and the slots are free again.
    await api.tasks.cancel.mutate({ id: task.id });
    await asPane.tasks.cancel.mutate({ id: own.id });
    for (const [waits, id] of [
      [mine, task.id],
      [panes, own.id],
    ] as const) {
      const results = await Promise.all(waits);
      expect(results.filter((r) => "err" in r)).toHaveLength(1);
      for (const r of results) if ("ok" in r) expect(r.ok.tasks[0]).toMatchObject({ id, state: "canceled" });
    }
    expect((await api.tasks.wait.query({ id: task.id, until: "terminal", timeoutMs: 1_000 })).tasks[0]!.state).toBe("canceled");
  });
});

