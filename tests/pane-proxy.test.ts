// Two `yard serve` processes on one PostgreSQL board, and a pane only one of them runs: each
// process registers itself (its address and a fresh secret, in the database), and the other
// serves that pane's terminal by proxy: a browser socket on B attaches to A's pane and sees its
// screen, types into it and resizes it; `yard pane read/send-keys/submit` on B reach A's agent.
// A's `/peer` endpoint admits only its current secret, never a browser or a person's token.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { io, type Socket } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminClient } from "./helpers/client";
import { makeRepo, removeRepo } from "./helpers/git";
import { PG_URL } from "./helpers/pg";
import { startSharedBoard, stopSharedBoard } from "./helpers/shared-board";
import { startDemoTask, startTestServer, type TestServer, yard } from "./helpers/server";
import { waitFor } from "./helpers/wait";

describe.runIf(PG_URL)("a pane's terminal through another server process on the same board", () => {
  let url: string;
  let a: TestServer;
  let b: TestServer;
  let repo: string;
  const sockets: Socket[] = [];

  beforeAll(async () => {
    ({ url, a, b } = await startSharedBoard());
    repo = makeRepo("yard-pane-proxy-");
  });
  afterAll(async () => {
    for (const s of sockets) s.close();
    await stopSharedBoard({ url, a, b });
    if (repo) removeRepo(repo);
  });

  async function ok(server: TestServer, args: string[]): Promise<any> {
    const r = await yard(server, ["--json", ...args]);
    expect(r.code, `yard ${args.join(" ")}\n${r.stdout}${r.stderr}`).toBe(0);
    return r.json;
  }

  async function rows(): Promise<Array<{ instanceId: string; address: string; secret: string }>> {
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    try {
      return (await c.query('SELECT "instanceId", address, secret FROM "BoardProcess"')).rows;
    } finally {
      await c.end();
    }
  }

  const contents = (file: string) => (existsSync(file) ? readFileSync(file, "utf8") : null);
  const instanceOf = (s: TestServer) => readFileSync(path.join(s.home, "instance-id"), "utf8").trim();

  /** Opens a socket.io client; resolves once connected, rejects with the refusal. */
  function connect(target: string, opts: Parameters<typeof io>[1]): Promise<Socket> {
    const sock = io(target, { path: "/socket.io", transports: ["websocket"], reconnection: false, ...opts });
    sockets.push(sock);
    return new Promise((resolve, reject) => {
      sock.on("connect", () => resolve(sock));
      sock.on("connect_error", (e) => reject(e));
    });
  }

  it("registers each process with its address and a secret of its own", async () => {
    const all = await rows();
    const byId = new Map(all.map((r) => [r.instanceId, r]));
    expect(byId.get(instanceOf(a))?.address).toBe(a.url);
    expect(byId.get(instanceOf(b))?.address).toBe(b.url);
    expect(byId.get(instanceOf(a))?.secret).toMatch(/^[\w-]{40,}$/);
    expect(byId.get(instanceOf(a))?.secret).not.toBe(byId.get(instanceOf(b))?.secret);
  });

  it("shows A's pane live on B: its screen, keystrokes and resizes through B, and B's CLI reads, keys, prompts and kills", async () => {
    const projectId = (await ok(a, ["project", "add", repo])).project.id;
    const started = await startDemoTask(a, {
      project: projectId,
      title: "Viewed from B",
      objective: "print marker-on-A\nreport completed first round",
    });
    const id: string = started.task.id;
    await ok(a, ["task", "wait", id, "--until", "completed", "--timeout-ms", "60000"]);
    const task = await adminClient(a).tasks.get.query({ id });
    const paneId = task.paneId as string;
    const worktree = task.worktreePath as string;
    expect((await adminClient(a).panes.get.query({ id: paneId })).live).toBe(true);
    // B reports it live too (its own pane manager does not run it; A, which does, is running).
    expect((await adminClient(b).panes.get.query({ id: paneId })).live).toBe(true);
    expect((await ok(b, ["pane", "list", "--live"])).panes.map((p: { id: string }) => p.id)).toContain(paneId);

    // A browser-like socket on B attaches to A's pane: A's screen comes back.
    const sock = await connect(b.url, { extraHeaders: { authorization: `Bearer ${b.token}` } });
    let seen = "";
    sock.on("pane:output", (m: { paneId: string; data: string }) => {
      if (m.paneId === paneId) seen += m.data;
    });
    const attached = await sock.timeout(10_000).emitWithAck("pane:attach", { paneId });
    expect(attached, JSON.stringify(attached)).toMatchObject({ ok: true, pane: { id: paneId } });
    expect(attached.snapshot.data).toContain("marker-on-A");

    // Keystrokes typed on B reach the agent on A: the composer echoes them, then Enter runs them.
    expect(
      await sock.timeout(10_000).emitWithAck("pane:input", { paneId, data: "write typed.txt via-socket" }),
    ).toEqual({
      ok: true,
    });
    await waitFor(() => seen.includes("via-socket"), { what: "B's stream to show the typed text" });
    expect(await sock.timeout(10_000).emitWithAck("pane:input", { paneId, data: "\r" })).toEqual({ ok: true });
    const typed = path.join(worktree, "typed.txt");
    await waitFor(() => contents(typed) === "via-socket\n", {
      what: "the agent on A to write typed.txt",
      timeoutMs: 20_000,
    });
    await waitFor(() => seen.includes("Wrote 1 line to typed.txt"), { what: "the turn's output on B's stream" });

    // A resize through B reaches A's pane.
    const resized = await sock.timeout(10_000).emitWithAck("pane:resize", { paneId, cols: 97, rows: 31 });
    expect(resized).toMatchObject({ ok: true, pane: { cols: 97, rows: 31 } });
    expect(await adminClient(a).panes.get.query({ id: paneId })).toMatchObject({ cols: 97, rows: 31 });

    // The CLI on B: read, send keys, submit, all reaching A's agent.
    const read = await ok(b, ["pane", "read", paneId]);
    expect(read.text).toContain("Wrote 1 line to typed.txt");
    await waitFor(async () => (await adminClient(a).panes.get.query({ id: paneId })).lifecycle !== "working", {
      what: "the typed turn to end",
    });
    await ok(b, ["pane", "send-keys", paneId, "write keys.txt via-send-keys"]);
    await waitFor(async () => (await ok(b, ["pane", "read", paneId])).text.includes("via-send-keys"), {
      what: "the keys in the composer, read through B",
    });
    await ok(b, ["pane", "send-keys", paneId, "--enter"]);
    await waitFor(() => contents(path.join(worktree, "keys.txt")) === "via-send-keys\n", {
      what: "the agent on A to write keys.txt",
      timeoutMs: 20_000,
    });
    await waitFor(async () => (await adminClient(a).panes.get.query({ id: paneId })).lifecycle !== "working", {
      what: "the keyed turn to end",
    });
    const submitted = await ok(b, ["pane", "submit", paneId, "write submitted.txt via-submit"]);
    expect(submitted.ok).toBe(true);
    await waitFor(() => contents(path.join(worktree, "submitted.txt")) === "via-submit\n", {
      what: "the agent on A to write submitted.txt",
      timeoutMs: 20_000,
    });

    // `yard pane kill` on B ends A's pane, and the viewer on B hears it exit.
    const exited = new Promise<{ pane: { id: string; lifecycle: string } }>((resolve) =>
      sock.on("pane:exit", (m: { pane: { id: string; lifecycle: string } }) => m.pane.id === paneId && resolve(m)),
    );
    const killed = await ok(b, ["pane", "kill", paneId]);
    expect(killed.pane.lifecycle).toBe("exited");
    expect((await exited).pane.lifecycle).toBe("exited");
    expect((await adminClient(a).panes.get.query({ id: paneId })).live).toBe(false);
    expect((await adminClient(b).panes.get.query({ id: paneId })).live).toBe(false);
  }, 120_000);

  it("shows B's pane live on A too: the other way round", async () => {
    const projectId = (await adminClient(b).projects.list.query()).find((p) => p.path === repo)!.id;
    const started = await startDemoTask(b, {
      project: projectId,
      title: "Viewed from A",
      objective: "print marker-on-B",
    });
    const id: string = started.task.id;
    await waitFor(async () => (await adminClient(b).tasks.get.query({ id })).paneId !== null, {
      what: "B's task to have its pane",
    });
    const paneId = (await adminClient(b).tasks.get.query({ id })).paneId as string;
    const sock = await connect(a.url, { extraHeaders: { authorization: `Bearer ${a.token}` } });
    let seen = "";
    sock.on("pane:output", (m: { paneId: string; data: string }) => {
      if (m.paneId === paneId) seen += m.data;
    });
    await waitFor(
      async () => {
        const r = await sock.timeout(10_000).emitWithAck("pane:attach", { paneId });
        return r.ok === true && String(r.snapshot.data).includes("marker-on-B");
      },
      { what: "A's view of B's pane to show B's screen" },
    );
    expect(await sock.timeout(10_000).emitWithAck("pane:input", { paneId, data: "from-A" })).toEqual({ ok: true });
    await waitFor(() => seen.includes("from-A"), { what: "A's stream to show what A typed into B's agent" });
  });

  it("acts on A's agent from B: a follow-up, a merge and a cancel called on B run on A, where the agent runs", async () => {
    const projectId = (await adminClient(a).projects.list.query()).find((p) => p.path === repo)!.id;
    const started = await startDemoTask(a, { project: projectId, title: "Driven from B", objective: "print waiting" });
    const id: string = started.task.id;
    const onA = adminClient(a);
    const onB = adminClient(b);
    await waitFor(async () => (await onA.tasks.get.query({ id })).state === "input_required", {
      what: "A's agent to end its turn waiting for input",
      timeoutMs: 30_000,
    });
    const { paneId, worktreePath } = await onA.tasks.get.query({ id });

    // The follow-up called on B reaches the agent on A (no second agent started on B).
    const followed = await onB.tasks.followUp.mutate({
      id,
      text: "write followed.txt via-B; commit Follow up; report completed Followed up from B",
    });
    expect(followed.task.id).toBe(id);
    await waitFor(async () => (await onA.tasks.get.query({ id })).state === "completed", {
      what: "the follow-up's turn on A to report completed",
      timeoutMs: 30_000,
    });
    expect(contents(path.join(worktreePath!, "followed.txt"))).toBe("via-B\n");
    expect((await onA.tasks.get.query({ id })).paneId).toBe(paneId);
    expect((await onB.panes.list.query({ taskId: id })).map((p) => p.id)).toEqual([paneId]);

    // The merge called on B lands the branch and ends the agent on A.
    const merged = await onB.tasks.finish.mutate({ id, merge: {} });
    expect(merged.task.disposition).toBe("merged");
    expect(contents(path.join(repo, "followed.txt"))).toBe("via-B\n");
    await waitFor(async () => !(await onA.panes.get.query({ id: paneId! })).live, {
      what: "the merged task's agent on A to end",
    });

    // A cancel called on B stops the agent on A, and the task is canceled.
    const busy = await startDemoTask(a, { project: projectId, title: "Canceled from B", objective: "sleep 600000" });
    await waitFor(async () => (await onA.tasks.get.query({ id: busy.task.id })).state === "working", {
      what: "the second agent on A to work",
    });
    const busyPane = (await onA.tasks.get.query({ id: busy.task.id })).paneId!;
    const canceled = await onB.tasks.cancel.mutate({ id: busy.task.id });
    expect(canceled.state).toBe("canceled");
    expect((await onA.panes.get.query({ id: busyPane })).live).toBe(false);
  }, 120_000);

  it("admits to A's peer endpoint only A's current secret: not a wrong one, a browser, or a person's token", async () => {
    const secretOfA = (await rows()).find((r) => r.instanceId === instanceOf(a))!.secret;
    const peer = `${a.url}/peer`;
    await expect(connect(peer, { extraHeaders: { "x-yard-peer-secret": "not-the-secret" } })).rejects.toThrow();
    await expect(connect(peer, { extraHeaders: { "x-yard-peer-secret": `${secretOfA}x` } })).rejects.toThrow();
    // B's secret is not A's.
    const secretOfB = (await rows()).find((r) => r.instanceId === instanceOf(b))!.secret;
    await expect(connect(peer, { extraHeaders: { "x-yard-peer-secret": secretOfB } })).rejects.toThrow();
    // A person's token opens the board's namespace, not the peers'.
    await expect(connect(peer, { extraHeaders: { authorization: `Bearer ${a.token}` } })).rejects.toThrow();
    // The right secret from a browser (an Origin) is refused too.
    await expect(connect(peer, { extraHeaders: { "x-yard-peer-secret": secretOfA, origin: a.url } })).rejects.toThrow();
    // The right secret alone opens the peer namespace, and nothing else.
    const admitted = await connect(peer, { extraHeaders: { "x-yard-peer-secret": secretOfA } });
    expect(admitted.connected).toBe(true);
    await expect(connect(a.url, { extraHeaders: { "x-yard-peer-secret": secretOfA } })).rejects.toThrow();
  });

  it("picks B's view of A's pane up again when A restarts (a new secret), and types into it", async () => {
    const pane = await adminClient(a).panes.spawn.mutate({
      argv: ["sh", "-c", "echo started-on-A; exec cat"],
      cwd: repo,
    });
    await waitFor(async () => (await adminClient(a).panes.read.query({ id: pane.id })).text.includes("started-on-A"), {
      what: "the pane on A to start",
    });
    const sock = await connect(b.url, { extraHeaders: { authorization: `Bearer ${b.token}` } });
    let seen = "";
    sock.on("pane:output", (m: { paneId: string; data: string }) => {
      if (m.paneId === pane.id) seen += m.data;
    });
    const attached = await sock.timeout(10_000).emitWithAck("pane:attach", { paneId: pane.id });
    expect(attached.snapshot.data).toContain("started-on-A");
    const resynced = new Promise<{ snapshot: { data: string }; pane: { live: boolean } }>((resolve) =>
      sock.on("pane:resync", (m: { paneId: string; snapshot: { data: string }; pane: { live: boolean } }) => {
        if (m.paneId === pane.id) resolve(m);
      }),
    );
    const before = (await rows()).find((r) => r.instanceId === instanceOf(a))!.secret;
    await a.stop(); // its agents keep running in its pane host
    a = await startTestServer({ home: a.home, env: { DATABASE_URL: url } });
    expect((await rows()).find((r) => r.instanceId === instanceOf(a))!.secret).not.toBe(before);
    const again = await resynced;
    expect(again.snapshot.data).toContain("started-on-A");
    expect(again.pane.live).toBe(true);
    expect(await sock.timeout(10_000).emitWithAck("pane:input", { paneId: pane.id, data: "after-restart\r" })).toEqual({
      ok: true,
    });
    await waitFor(() => seen.includes("after-restart"), { what: "the keys typed after A's restart, echoed" });
    await adminClient(a).panes.kill.mutate({ id: pane.id });
  }, 60_000);

  it("removes a process's row when it stops cleanly, and writes it again at its next start", async () => {
    const id = instanceOf(a);
    await a.stop();
    expect((await rows()).map((r) => r.instanceId)).not.toContain(id);
    a = await startTestServer({ home: a.home, env: { DATABASE_URL: url } });
    expect((await rows()).map((r) => r.instanceId)).toContain(id);
  }, 60_000);
});
