// The HTTP edge against the real server on a random port, measured with real sockets: slow and
// idle clients are disconnected and capped (on the TCP port and on run/api.sock), long polls are
// capped per caller, and a browser session needs its key as well as its cookie.
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, readlinkSync } from "node:fs";
import http from "node:http";
import net from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { io } from "socket.io-client";
import { adminClient, clientWithToken, errorOf } from "./helpers/client";
import { browserLogin, request, trpcPost } from "./helpers/http";
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
    const req = http.request(
      {
        ...("port" in to ? { host: "127.0.0.1", port: to.port } : { socketPath: to.path }),
        path: "/api/health",
        headers: { host: "127.0.0.1" },
        agent: false,
      },
      (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode ?? 0));
      },
    );
    req.on("error", reject);
    req.setTimeout(5_000, () => req.destroy(new Error("no answer in 5 s")));
    req.end();
  });
}

const CAP = 40;
const TOTAL = 60;
/** Item 7's server: short request timeout, small caps. Item 9's: the defaults. */
let s: TestServer;
let board: TestServer;

beforeAll(async () => {
  [s, board] = await Promise.all([
    startTestServer({
      env: {
        YARD_REQUEST_TIMEOUT_MS: "1000",
        YARD_MAX_CONNECTIONS: String(CAP),
        YARD_MAX_CONNECTIONS_TOTAL: String(TOTAL),
        YARD_MAX_WAITS: "3",
      },
    }),
    startTestServer(),
  ]);
});
afterAll(async () => {
  await Promise.all([s?.dispose(), board?.dispose()]);
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
        const left = await waitFor(() => (serverSockets(s) <= base ? serverSockets(s) : null), {
          timeoutMs: 8_000,
          what: "the server's socket count to go back down",
        });
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
      expect((await api.status.query()).principal).toBe("person");
    } finally {
      for (const sock of flood) sock.destroy();
    }
  });

  it("answers a caller over the long-poll cap with RATE_LIMITED at once; its earlier waits, and other callers', still work", async () => {
    const api = adminClient(s);
    const repo = dirs.repo();
    const { task } = await api.tasks.start.mutate({
      repoPath: repo,
      objective: "hold",
      argv: ["sleep", "600"],
      stallMs: 300,
    });
    // A pane of the person's (an orchestrator) with a task of its own.
    const envFile = path.join(dirs.tmp(), "env.txt");
    await api.panes.spawn.mutate({
      argv: ["sh", "-c", `env > ${envFile}.tmp && mv ${envFile}.tmp ${envFile}; exec sleep 600`],
      cwd: path.dirname(envFile),
    });
    const paneToken = await waitFor(
      () => (existsSync(envFile) ? /^YARD_TOKEN=(.*)$/m.exec(readFileSync(envFile, "utf8"))?.[1] : null),
      { what: "the pane's token" },
    );
    const asPane = clientWithToken(s, paneToken);
    const own = (
      await asPane.tasks.start.mutate({
        repoPath: dirs.repo(),
        objective: "hold",
        argv: ["sleep", "600"],
        stallMs: 300,
      })
    ).task;

    // Four at once from one caller: three are held, the one over the cap is refused at once.
    const fourWaits = (client: typeof api, id: string) =>
      [0, 1, 2, 3].map(() =>
        client.tasks.wait.query({ id, until: "terminal", timeoutMs: 20_000 }).then(
          (r) => ({ ok: r }),
          (e: unknown) => ({ err: e }),
        ),
      );
    const mine = fourWaits(api, task.id);
    const first = await Promise.race(mine);
    expect("err" in first && (await errorOf(() => Promise.reject(first.err)))).toMatchObject({
      code: "RATE_LIMITED",
      details: { max: 3 },
    });
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
    expect((await api.tasks.wait.query({ id: task.id, until: "terminal", timeoutMs: 1_000 })).tasks[0]!.state).toBe(
      "canceled",
    );
  });

  it("gives a wait's slot back as soon as its caller goes away, not at its timeout", async () => {
    const api = adminClient(s);
    const { task } = await api.tasks.start.mutate({
      repoPath: dirs.repo(),
      objective: "hold",
      argv: ["sleep", "600"],
      stallMs: 300,
    });
    const url = `${s.url}/api/trpc/tasks.wait?input=${encodeURIComponent(JSON.stringify({ id: task.id, until: "terminal", timeoutMs: 600_000 }))}`;
    // Three callers that send the request and hang up without reading the answer.
    const gone = [0, 1, 2].map(() => {
      const ac = new AbortController();
      const req = http.get(url, { headers: { authorization: `Bearer ${s.token}` }, signal: ac.signal });
      req.on("error", () => {});
      return ac;
    });
    await waitFor(
      async () =>
        (await errorOf(() => api.tasks.wait.query({ id: task.id, until: "terminal", timeoutMs: 1 }))).code ===
        "RATE_LIMITED",
      { what: "the three waits to hold every slot" },
    );
    for (const ac of gone) ac.abort();
    // Their slots come back at once: a wait gets in (and times out on its own short clock).
    const next = await waitFor(
      async () => {
        const e = await errorOf(() => api.tasks.wait.query({ id: task.id, until: "terminal", timeoutMs: 50 }));
        return e.code === "TIMEOUT" ? e : null;
      },
      { timeoutMs: 5_000, what: "a slot freed by a caller that went away" },
    );
    expect(next.code).toBe("TIMEOUT");
    await api.tasks.cancel.mutate({ id: task.id });
  });
});

/** A socket.io handshake with these headers: "connected", or the refusal's HTTP status and body. */
function socketHandshake(
  server: TestServer,
  extraHeaders: Record<string, string>,
  transport: "polling" | "websocket",
): Promise<string> {
  return new Promise((resolve) => {
    const sock = io(server.url, {
      path: "/socket.io",
      transports: [transport],
      extraHeaders,
      reconnection: false,
      timeout: 5_000,
    });
    sock.on("connect", () => {
      sock.close();
      resolve("connected");
    });
    sock.on("connect_error", (e: Error & { context?: { status?: number; responseText?: string } }) => {
      sock.close();
      resolve(`refused: ${e.message}`);
    });
  });
}

const yardCode = (body: string) =>
  (JSON.parse(body) as { error?: { data?: { yard?: { code?: string } } } }).error?.data?.yard?.code;

describe("item 9: a browser session is a cookie plus a key that no other local server receives", () => {
  it("logs in with a per-install __Host- cookie (Secure, HttpOnly, SameSite=Strict) and a page that keeps the key in the origin's storage", async () => {
    const res = await request(board.loginUrl);
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toMatch(/^text\/html/);
    expect(res.headers["cache-control"]).toBe("no-store");
    const setCookie = ([] as string[]).concat(res.headers["set-cookie"] ?? [])[0] ?? "";
    const [pair, ...attrs] = setCookie.split(";").map((a) => a.trim());
    expect(pair).toMatch(/^__Host-yard-[0-9a-f]{12}=[A-Za-z0-9_-]{43}$/);
    expect(attrs.sort()).toEqual(["HttpOnly", "Max-Age=2592000", "Path=/", "SameSite=Strict", "Secure"]);
    // The key is in the page (for its one script, allowed by hash), never in the cookie.
    const key = /<meta name="yard-session-key" content="([A-Za-z0-9_-]{43})">/.exec(res.body)?.[1];
    expect(key).toBeTruthy();
    expect(setCookie).not.toContain(key!);
    expect(res.body).toContain(`localStorage.setItem("switchyard.sessionKey"`);
    expect(res.body).toContain(`location.replace(`);
    expect(res.headers["content-security-policy"]).toMatch(
      /^default-src 'none'; script-src 'sha256-[A-Za-z0-9+/]+=*';.*frame-ancestors 'none'/,
    );
    expect(res.body).not.toContain(board.token);
    // sessions.json keeps hashes of both halves only.
    const stored = readFileSync(path.join(board.home, "sessions.json"), "utf8");
    expect(stored).not.toContain(pair!.split("=")[1]!);
    expect(stored).not.toContain(key!);
    expect(JSON.parse(stored).sessions.at(-1)).toEqual({
      hash: expect.stringMatching(/^[0-9a-f]{64}$/),
      keyHash: expect.stringMatching(/^[0-9a-f]{64}$/),
      createdAt: expect.any(Number),
      personId: "usrowner",
    });
    // The name is this install's: the same at every login, another install's differs.
    const name = pair!.split("=")[0];
    expect((await browserLogin(board.loginUrl)).cookie.split("=")[0]).toBe(name);
    expect((await browserLogin(s.loginUrl)).cookie.split("=")[0]).not.toBe(name);
  });

  it("refuses the cookie alone (what a dev server on another port receives) on tRPC and on the socket handshake", async () => {
    // What the browser sends to every port of 127.0.0.1 once logged in: the cookie.
    const login = await request(board.loginUrl);
    const cookie = String(([] as string[]).concat(login.headers["set-cookie"] ?? [])[0]).split(";")[0]!;
    const query = await request(`${board.url}/api/trpc/projects.list`, { headers: { cookie } });
    expect([query.status, yardCode(query.body)]).toEqual([401, "UNAUTHORIZED"]);
    expect(JSON.parse(query.body).error.message).toContain("open the login link again");
    const mutation = await trpcPost(board.url, "projects.add", { path: dirs.repo() }, { cookie });
    expect([mutation.status, yardCode(mutation.body)]).toEqual([401, "UNAUTHORIZED"]);
    // The socket.io handshake, raw (engine.io's first request) and through the client on both transports.
    const raw = await request(`${board.url}/socket.io/?EIO=4&transport=polling`, { headers: { cookie } });
    expect([raw.status, yardCode(raw.body)]).toEqual([401, "UNAUTHORIZED"]);
    expect(await socketHandshake(board, { cookie }, "polling")).toMatch(/^refused/);
    expect(await socketHandshake(board, { cookie }, "websocket")).toMatch(/^refused/);
    // A key of another session does not complete it either.
    const other = await browserLogin(board.loginUrl);
    expect(
      (await request(`${board.url}/api/trpc/projects.list`, { headers: { cookie, "x-yard-session-key": other.key } }))
        .status,
    ).toBe(401);
    expect(await socketHandshake(board, { cookie, "x-yard-session-key": other.key }, "websocket")).toMatch(/^refused/);
    // The cookie alone still passes the pages' gate (their shell carries no data); nothing does without it.
    const page = await request(`${board.url}/`, { headers: { cookie, accept: "text/html" } });
    expect(page.body).toContain("This server runs without the UI");
    expect((await request(`${board.url}/`, { headers: { accept: "text/html" } })).status).toBe(401);

    // Cookie and key together, as the board's own clients send them: admitted everywhere.
    const session = await browserLogin(board.loginUrl);
    expect((await request(`${board.url}/api/trpc/projects.list`, { headers: session.headers })).status).toBe(200);
    expect(
      (await request(`${board.url}/socket.io/?EIO=4&transport=polling`, { headers: session.headers })).status,
    ).toBe(200);
    expect(await socketHandshake(board, session.headers, "websocket")).toBe("connected");
    expect(await socketHandshake(board, session.headers, "polling")).toBe("connected");
    // The browser's WebSocket cannot set headers: the key rides in the handshake's query there.
    const viaQuery = await new Promise<string>((resolve) => {
      const sock = io(board.url, {
        path: "/socket.io",
        transports: ["websocket"],
        extraHeaders: { cookie: session.cookie },
        query: { yardSessionKey: session.key },
        reconnection: false,
      });
      sock.on("connect", () => {
        sock.close();
        resolve("connected");
      });
      sock.on("connect_error", (e) => {
        sock.close();
        resolve(`refused: ${e.message}`);
      });
    });
    expect(viaQuery).toBe("connected");
    // The install token (the CLI) is unchanged.
    expect(
      (await request(`${board.url}/api/trpc/projects.list`, { headers: { authorization: `Bearer ${board.token}` } }))
        .status,
    ).toBe(200);
  });
});
