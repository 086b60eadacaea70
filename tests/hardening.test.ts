// The hardening defects, one test each, against the real server on a random port: forged and
// dead pane tokens, write-only profile env, the pane CLI never falling back to the install
// token, glob and input caps, refusals that leave nothing behind, file modes, body limits,
// relative paths, typed errors for malformed requests, security headers, session rotation.
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import { io } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { adminClient, clientWithToken, errorOf } from "./helpers/client";
import { git, makeRepo, removeRepo } from "./helpers/git";
import { browserLogin, request, trpcPost } from "./helpers/http";
import { startDemoTask, startTestServer, type TestServer, yard } from "./helpers/server";
import { scratch } from "./helpers/scratch";
import { waitFor } from "./helpers/wait";

vi.setConfig({ testTimeout: 60_000 });

let server: TestServer;
let api: ReturnType<typeof adminClient>;
const dirs = scratch("yard-hard-");
const tmp = dirs.tmp;
const repoWith = dirs.repo;
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const yardCode = (body: string) => JSON.parse(body).error?.data?.yard?.code as string | undefined;

beforeAll(async () => {
  server = await startTestServer();
  api = adminClient(server);
});
afterAll(async () => {
  await server?.dispose();
  dirs.cleanup();
});

/** Spawns a pane that writes its environment to a file and stays alive; returns its env. */
async function paneWithEnv(extra: { taskRepo?: string } = {}) {
  const dir = tmp();
  const envFile = path.join(dir, "env.txt");
  const argv = ["sh", "-c", `env > ${envFile}.tmp && mv ${envFile}.tmp ${envFile}; exec sleep 600`];
  const paneId = extra.taskRepo
    ? (await api.tasks.start.mutate({ repoPath: extra.taskRepo, objective: "hold", argv, stallMs: 300 })).pane!.id
    : (await api.panes.spawn.mutate({ argv, cwd: dir })).id;
  const text = await waitFor(() => (existsSync(envFile) ? readFileSync(envFile, "utf8") : null), {
    what: "the pane's env file",
  });
  const env = Object.fromEntries(
    text
      .split("\n")
      .filter((l) => l.includes("="))
      .map((l) => [l.slice(0, l.indexOf("=")), l.slice(l.indexOf("=") + 1)]),
  );
  return { paneId, env, dir };
}

describe("1 and 4: pane tokens", () => {
  it("refuses a forged pane token on every procedure, including the ones open to any caller", async () => {
    const live = await paneWithEnv();
    const forged = `yp_${live.paneId}_${"A".repeat(32)}`;
    for (const proc of [
      "status",
      "agents.list",
      `panes.get?input=${encodeURIComponent(JSON.stringify({ id: live.paneId }))}`,
    ]) {
      const res = await request(`${server.url}/api/trpc/${proc}`, { headers: bearer(forged) });
      expect([proc, res.status, yardCode(res.body)]).toEqual([proc, 401, "UNAUTHORIZED"]);
    }
    const unknownPane = await request(`${server.url}/api/trpc/status`, {
      headers: bearer(`yp_panedoesnotexist_${"B".repeat(32)}`),
    });
    expect(unknownPane.status).toBe(401);
    // The real token of the same pane works.
    expect((await request(`${server.url}/api/trpc/status`, { headers: bearer(live.env.YARD_TOKEN!) })).status).toBe(
      200,
    );
    await api.panes.kill.mutate({ id: live.paneId });
  });

  it("never shows profile env values, to a pane or to the user", async () => {
    await api.agents.add.mutate({ id: "secretive", argv: ["sh"], env: { API_KEY: "sk-very-secret-value" } });
    const live = await paneWithEnv();
    for (const token of [server.token, live.env.YARD_TOKEN!]) {
      const res = await request(`${server.url}/api/trpc/agents.list`, { headers: bearer(token) });
      expect(res.status).toBe(200);
      expect(res.body).not.toContain("sk-very-secret-value");
      const profile = JSON.parse(res.body).result.data.find((a: { id: string }) => a.id === "secretive");
      expect(profile).toMatchObject({ envNames: ["API_KEY"] });
      expect(profile.env).toBeUndefined();
    }
    await api.panes.kill.mutate({ id: live.paneId });
    await api.agents.remove.mutate({ id: "secretive" });
  });

  it("a killed pane's token dies with it: no reads, no spawns", async () => {
    const free = await paneWithEnv();
    const asPane = clientWithToken(server, free.env.YARD_TOKEN!);
    expect((await asPane.status.query()).principal).toBe("pane");
    await api.panes.kill.mutate({ id: free.paneId });
    expect((await errorOf(() => asPane.status.query())).code).toBe("UNAUTHORIZED");
    expect((await errorOf(() => asPane.panes.spawn.mutate({ argv: ["true"], cwd: free.dir }))).code).toBe(
      "UNAUTHORIZED",
    );
    expect((await request(`${server.url}/api/trpc/status`, { headers: bearer(free.env.YARD_TOKEN!) })).status).toBe(
      401,
    );
  });

  it("a discarded task's worker token dies with its pane", async () => {
    const worker = await paneWithEnv({ taskRepo: repoWith() });
    const asWorker = clientWithToken(server, worker.env.YARD_TOKEN!);
    const taskId = worker.env.YARD_TASK!;
    expect((await asWorker.tasks.get.query({ id: taskId })).id).toBe(taskId);
    await api.tasks.finish.mutate({ id: taskId, discard: {} });
    expect((await errorOf(() => asWorker.tasks.get.query({ id: taskId }))).code).toBe("UNAUTHORIZED");
    expect((await errorOf(() => asWorker.tasks.report.mutate({ status: "completed", summary: "late" }))).code).toBe(
      "UNAUTHORIZED",
    );
  });
});

describe("3: the role gate inside a pane", () => {
  it("gives panes no YARD_HOME, and their yard never falls back to the install token", async () => {
    const worker = await paneWithEnv({ taskRepo: repoWith() });
    expect(worker.env.YARD_HOME).toBeUndefined();
    expect(worker.env.YARD_PANE).toBe(worker.paneId);
    // `env -u YARD_TOKEN yard status` inside the pane, with the data dir in reach: refused.
    const { YARD_TOKEN: _dropped, ...withoutToken } = worker.env;
    const res = await yard(server, ["--json", "status"], {
      env: { ...withoutToken, YARD_TOKEN: "", YARD_HOME: server.home },
    });
    expect(res.code).toBe(1);
    expect(res.json.error).toMatchObject({ code: "UNAUTHORIZED" });
    expect(res.json.error.message).toContain("never used inside a pane");
    // With its own token it is a pane, not the admin.
    const own = await yard(server, ["--json", "status"], { env: worker.env });
    expect(own.code, own.stdout).toBe(0);
    expect(own.json.principal).toBe("pane");
    expect(own.json.home).toBeUndefined();
    await api.tasks.cancel.mutate({ id: worker.env.YARD_TASK! });
  });
});

describe("2 and 7: globs and input caps", () => {
  it("answers an events glob of many stars correctly (no regex backtracking)", async () => {
    const type = `${"*".repeat(16) + "a*".repeat(41)}z`;
    expect(type.length).toBeLessThanOrEqual(100);
    const res = await api.events.list.query({ type });
    expect(res.events).toEqual([]);
    const all = await api.events.list.query({ type: "*".repeat(99) });
    expect(all.events.length).toBeGreaterThan(0);
    expect((await errorOf(() => api.events.list.query({ type: "*".repeat(101) }))).code).toBe("BAD_PARAMS");
  });

  it("refuses oversized reports, evidence, prompts and strings with BAD_PARAMS", async () => {
    const worker = await paneWithEnv({ taskRepo: repoWith() });
    const asWorker = clientWithToken(server, worker.env.YARD_TOKEN!);
    const huge = "x".repeat(64 * 1024 + 1);
    expect((await errorOf(() => asWorker.tasks.report.mutate({ status: "completed", summary: huge }))).code).toBe(
      "BAD_PARAMS",
    );
    expect(
      (
        await errorOf(() =>
          asWorker.tasks.report.mutate({ status: "completed", summary: "ok", evidence: { log: huge } }),
        )
      ).code,
    ).toBe("BAD_PARAMS");
    let deep: unknown = 1;
    for (let i = 0; i < 200; i++) deep = { d: deep };
    const deepErr = await errorOf(() =>
      asWorker.tasks.report.mutate({ status: "completed", summary: "ok", evidence: deep as Record<string, unknown> }),
    );
    expect(deepErr.code).toBe("BAD_PARAMS");
    expect(
      (await errorOf(() => api.panes.submit.mutate({ id: worker.paneId, text: "y".repeat(256 * 1024 + 1) }))).code,
    ).toBe("BAD_PARAMS");
    expect(
      (await errorOf(() => api.tasks.start.mutate({ repoPath: repoWith(), objective: "z".repeat(300 * 1024) }))).code,
    ).toBe("BAD_PARAMS");
    // The task is untouched by all of that.
    expect((await api.tasks.get.query({ id: worker.env.YARD_TASK! })).state).not.toBe("completed");
    await api.tasks.cancel.mutate({ id: worker.env.YARD_TASK! });
  });

  it("refuses a body over the limit with a typed 413 and stays healthy", async () => {
    const big = JSON.stringify({ repoPath: "/tmp", objective: "x".repeat(5 * 1024 * 1024) });
    const res = await request(`${server.url}/api/trpc/tasks.start`, {
      method: "POST",
      headers: { ...bearer(server.token), "content-type": "application/json" },
      body: big,
    });
    expect(res.status).toBe(413);
    expect(yardCode(res.body)).toBe("PAYLOAD_TOO_LARGE");
    // Chunked (no Content-Length) is counted too.
    const chunked = await new Promise<number>((resolve, reject) => {
      const u = new URL(`${server.url}/api/trpc/tasks.start`);
      const req = http.request(
        {
          hostname: u.hostname,
          port: u.port,
          path: u.pathname,
          method: "POST",
          headers: { ...bearer(server.token), "content-type": "application/json", "transfer-encoding": "chunked" },
        },
        (r) => {
          r.resume();
          resolve(r.statusCode ?? 0);
        },
      );
      req.on("error", reject);
      for (let i = 0; i < 5; i++) req.write("x".repeat(1024 * 1024));
      req.end();
    });
    expect(chunked).toBe(413);
    expect((await request(`${server.url}/api/health`)).status).toBe(200);
  });

  it("refuses a deeply nested body before parsing it (400, not 500)", async () => {
    const body = "[".repeat(100_000) + "]".repeat(100_000);
    const res = await request(`${server.url}/api/trpc/tasks.report`, {
      method: "POST",
      headers: { ...bearer(server.token), "content-type": "application/json" },
      body,
    });
    expect(res.status).toBe(400);
    expect(yardCode(res.body)).toBe("BAD_PARAMS");
  });
});

describe("5: refusals leave nothing behind", () => {
  it("a start with a bad argv or program creates no row, branch or worktree", async () => {
    const repo = repoWith();
    const tasksBefore = (await api.tasks.list.query()).length;
    const branchesBefore = git(repo, "branch", "--list");
    const worktreeRoot = path.join(server.home, "worktrees");
    const wtBefore = existsSync(worktreeRoot) ? readdirSync(worktreeRoot) : [];
    const cases: Array<[string[], string]> = [
      [[""], "BAD_PARAMS"],
      [["sh", "-c", "echo \0 nul"], "BAD_PARAMS"],
      [["{{nope}}"], "BAD_PARAMS"],
      [["no-such-program-anywhere"], "BAD_PARAMS"],
      [["/nonexistent/bin/agent"], "BAD_PARAMS"],
      [["relative/agent"], "BAD_PARAMS"],
    ];
    for (const [argv, code] of cases) {
      const err = await errorOf(() => api.tasks.start.mutate({ repoPath: repo, objective: "x", argv }));
      expect([argv, err.code]).toEqual([argv, code]);
    }
    expect((await api.tasks.list.query()).length).toBe(tasksBefore);
    expect(git(repo, "branch", "--list")).toBe(branchesBefore);
    expect(git(repo, "worktree", "list").split("\n")).toHaveLength(1);
    expect(existsSync(worktreeRoot) ? readdirSync(worktreeRoot) : []).toEqual(wtBefore);
  });

  it("discard removes the worktree directory and its empty parent completely", async () => {
    const repo = repoWith();
    const { task } = await api.tasks.start.mutate({
      repoPath: repo,
      objective: "hold",
      argv: ["sh", "-c", "echo hi > untracked.txt; mkdir -p deep/er; echo x > deep/er/f; exec sleep 600"],
      stallMs: 300,
    });
    await waitFor(() => existsSync(path.join(task.worktreePath!, "deep/er/f")));
    const repoFolder = path.dirname(task.worktreePath!);
    expect(path.dirname(repoFolder)).toBe(path.join(server.home, "worktrees"));
    const res = await api.tasks.finish.mutate({ id: task.id, discard: {} });
    expect(res.cleanup.ok).toBe(true);
    expect(existsSync(task.worktreePath!)).toBe(false);
    expect(existsSync(repoFolder)).toBe(false);
    expect(git(repo, "branch", "--list", task.branch!)).toContain(task.branch!);
  });
});

describe("6: file modes", () => {
  it("keeps the database, its WAL files and the sessions file owner-only", async () => {
    await api.projects.list.query();
    await request(server.loginUrl);
    for (const f of ["yard.db", "yard.db-wal", "yard.db-shm", "token", "server.json", "sessions.json"]) {
      const p = path.join(server.home, f);
      expect([f, existsSync(p)]).toEqual([f, true]);
      expect([f, statSync(p).mode & 0o777]).toEqual([f, 0o600]);
    }
    expect(statSync(server.home).mode & 0o777).toBe(0o700);
    expect(statSync(path.join(server.home, "bin", "yard")).mode & 0o777).toBe(0o700);
  });

  it("tightens an existing, loose data dir at start", async () => {
    const home = tmp("yard-loose-home-");
    mkdirSync(home, { recursive: true });
    (await import("node:fs")).chmodSync(home, 0o755);
    writeFileSync(path.join(home, "stray.log"), "x", { mode: 0o644 });
    mkdirSync(path.join(home, "worktrees"), { mode: 0o755 });
    const s = await startTestServer({ home });
    try {
      expect(statSync(home).mode & 0o777).toBe(0o700);
      expect(statSync(path.join(home, "stray.log")).mode & 0o777).toBe(0o600);
      expect(statSync(path.join(home, "worktrees")).mode & 0o777).toBe(0o700);
      expect(statSync(path.join(home, "yard.db")).mode & 0o777).toBe(0o600);
    } finally {
      await s.stop();
    }
  });
});

describe("8: relative paths", () => {
  it("refuses relative repoPath, worktree path and cwd instead of resolving them against the server's cwd", async () => {
    expect((await errorOf(() => api.tasks.start.mutate({ repoPath: ".", objective: "x" }))).code).toBe("BAD_PARAMS");
    expect(
      (await errorOf(() => api.tasks.start.mutate({ repoPath: repoWith(), objective: "x", path: "wt/here" }))).code,
    ).toBe("BAD_PARAMS");
    expect((await errorOf(() => api.panes.spawn.mutate({ argv: ["true"], cwd: "tmp" }))).code).toBe("BAD_PARAMS");
    expect((await errorOf(() => api.projects.add.mutate({ path: "." }))).code).toBe("BAD_PARAMS");
  });
});

describe("9: typed errors for malformed requests", () => {
  it("answers a wrong method, a wrong content type and an empty argv with typed BAD_PARAMS", async () => {
    const get = await request(`${server.url}/api/trpc/projects.add`, { headers: bearer(server.token) });
    expect([get.status, yardCode(get.body)]).toEqual([405, "BAD_PARAMS"]);
    const post = await trpcPost(server.url, "projects.list", {}, bearer(server.token));
    expect([post.status, yardCode(post.body)]).toEqual([405, "BAD_PARAMS"]);
    const text = await request(`${server.url}/api/trpc/projects.add`, {
      method: "POST",
      headers: { ...bearer(server.token), "content-type": "text/plain" },
      body: "hello",
    });
    expect(text.status).toBeLessThan(500);
    expect(yardCode(text.body)).toBe("BAD_PARAMS");
    const emptyArgv = await errorOf(() => api.agents.add.mutate({ id: "empty-argv", argv: [] }));
    expect(emptyArgv.code).toBe("BAD_PARAMS");
    expect(emptyArgv.message).toContain("argv");
  });

  it("answers an existing non-empty worktree path with CONFLICT", async () => {
    const dir = tmp();
    writeFileSync(path.join(dir, "mine.txt"), "keep");
    const err = await errorOf(() =>
      api.tasks.start.mutate({ repoPath: repoWith(), objective: "x", argv: ["true"], path: dir }),
    );
    expect(err.code).toBe("CONFLICT");
    expect(readdirSync(dir)).toEqual(["mine.txt"]);
  });
});

describe("10: agents.remove", () => {
  it("refuses to remove a profile while a running task uses it, and removes it once the task is finished", async () => {
    await api.agents.add.mutate({ id: "busy-agent", argv: ["sh", "-c", "exec sleep 600"] });
    const { task } = await api.tasks.start.mutate({
      repoPath: repoWith(),
      objective: "hold",
      agent: "busy-agent",
      readyTimeoutMs: 60_000,
    });
    const refused = await errorOf(() => api.agents.remove.mutate({ id: "busy-agent" }));
    expect(refused).toMatchObject({ code: "CONFLICT", details: { id: "busy-agent", activeTasks: 1 } });
    expect((await api.agents.list.query()).map((a) => a.id)).toContain("busy-agent");
    await api.tasks.cancel.mutate({ id: task.id });
    expect(await api.agents.remove.mutate({ id: "busy-agent" })).toEqual({ removed: "busy-agent" });
  });
});

describe("10: headers, timeouts, sockets and sessions", () => {
  it("forbids framing on pages and API responses alike", async () => {
    for (const url of [`${server.url}/api/health`, `${server.url}/api/trpc/status`, `${server.url}/`]) {
      const res = await request(url, { headers: bearer(server.token) });
      expect(res.headers["x-frame-options"]).toBe("DENY");
      expect(res.headers["content-security-policy"]).toContain("frame-ancestors 'none'");
    }
  });

  it("answers 408 and closes a connection whose request never finishes", async () => {
    const s = await startTestServer({ env: { YARD_REQUEST_TIMEOUT_MS: "1500" } });
    try {
      const net = await import("node:net");
      const reply = await new Promise<string | null>((resolve) => {
        let got = "";
        const sock = net.connect(s.port, "127.0.0.1", () =>
          sock.write("GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: "),
        );
        sock.on("data", (d) => (got += d));
        sock.on("close", () => resolve(got));
        sock.on("error", () => resolve(got));
        sock.setTimeout(15_000, () => resolve(null));
      });
      expect(reply).toMatch(/^HTTP\/1\.1 408/);
    } finally {
      await s.dispose();
    }
  });

  it("rotates the session at every login and closes sockets of the revoked one", async () => {
    const login1 = await browserLogin(server.loginUrl);
    const login2 = await browserLogin(server.loginUrl, login1.cookie);
    expect(login2.cookie).not.toBe(login1.cookie);
    expect(login2.key).not.toBe(login1.key);
    expect((await request(`${server.url}/api/trpc/projects.list`, { headers: login2.headers })).status).toBe(200);
    expect((await request(`${server.url}/api/trpc/projects.list`, { headers: login1.headers })).status).toBe(401);

    // A socket opened with a session is closed when that session is rotated away.
    const login3 = await browserLogin(server.loginUrl);
    const sock = io(server.url, {
      path: "/socket.io",
      transports: ["websocket"],
      extraHeaders: login3.headers,
      reconnection: false,
    });
    await new Promise<void>((resolve, reject) => {
      sock.on("connect", () => resolve());
      sock.on("connect_error", reject);
    });
    const disconnected = new Promise<string>((resolve) => sock.on("disconnect", (reason) => resolve(reason)));
    await browserLogin(server.loginUrl, login3.cookie);
    expect(await disconnected).toBe("io server disconnect");
    // And the revoked session cannot open a new one.
    const again = io(server.url, {
      path: "/socket.io",
      transports: ["websocket"],
      extraHeaders: login3.headers,
      reconnection: false,
    });
    const refused = await new Promise<boolean>((resolve) => {
      again.on("connect", () => resolve(false));
      again.on("connect_error", () => resolve(true));
    });
    again.close();
    expect(refused).toBe(true);
  });

  it("acknowledges an event subscription with the seq it streams after: nothing after it is missed", async () => {
    const { headers } = await browserLogin(server.loginUrl);
    const sock = io(server.url, {
      path: "/socket.io",
      transports: ["websocket"],
      extraHeaders: headers,
      reconnection: false,
    });
    try {
      await new Promise<void>((resolve, reject) => {
        sock.on("connect", () => resolve());
        sock.on("connect_error", reject);
      });
      const seen: { seq: number; type: string; paneId?: string | null }[] = [];
      sock.on("event", (e) => seen.push(e));
      const subscribe = (msg: unknown) => new Promise<any>((resolve) => sock.emit("events:subscribe", msg, resolve));
      // A pane spawned before the subscription: its events are at or before the head.
      const before = (await api.panes.spawn.mutate({ argv: ["sleep", "600"], cwd: tmp() })).id;
      const ack = await subscribe({ type: "pane.spawned" });
      expect(ack).toEqual({ ok: true, head: expect.any(Number) });
      const after = (await api.panes.spawn.mutate({ argv: ["sleep", "600"], cwd: tmp() })).id;
      await waitFor(() => seen.some((e) => e.paneId === after) || null, {
        what: "the pane.spawned event of the pane spawned after the ack",
      });
      expect(seen.every((e) => e.seq > ack.head && e.type === "pane.spawned")).toBe(true);
      expect(seen.some((e) => e.paneId === before)).toBe(false);
      // A malformed subscription is refused in the ack and subscribes to nothing.
      expect(await subscribe({ type: 42 })).toMatchObject({ ok: false, error: { code: "BAD_PARAMS" } });
      await api.panes.kill.mutate({ id: before });
      await api.panes.kill.mutate({ id: after });
    } finally {
      sock.close();
    }
  });

  it("starts again after a completed task's repository was removed: the start-up check skips it", async () => {
    const home = tmp("yard-gone-home-");
    const repo = makeRepo("yard-gone-repo-");
    const s1 = await startTestServer({ home });
    try {
      const project = (await adminClient(s1).projects.add.mutate({ path: repo, trustAgents: false })).id;
      const { task } = await startDemoTask(s1, {
        project,
        title: "Completed, then its repository goes",
        objective: "write a.txt x; commit Add a; report completed Done",
      });
      await waitFor(async () => (await adminClient(s1).tasks.get.query({ id: task.id })).state === "completed", {
        what: "the task to complete",
      });
    } finally {
      await s1.stop();
    }
    removeRepo(repo);
    const s2 = await startTestServer({ home });
    try {
      expect((await adminClient(s2).tasks.list.query({})).map((t) => t.state)).toEqual(["completed"]);
    } finally {
      await s2.dispose();
    }
  });

  it("keeps sessions across a restart", async () => {
    const home = tmp("yard-sess-home-");
    const s1 = await startTestServer({ home });
    const { headers } = await browserLogin(s1.loginUrl);
    await s1.stop();
    const s2 = await startTestServer({ home });
    try {
      expect((await request(`${s2.url}/api/trpc/projects.list`, { headers })).status).toBe(200);
    } finally {
      await s2.stop();
    }
  });
});
