// Two `yard serve` processes on one PostgreSQL board (each with its own data dir and pane host):
// each shows the other's changes live (events cross processes through LISTEN/NOTIFY: a socket on
// one gets a task's events as the other runs it, `yard task wait` on one returns when the other's
// agent finishes), and a server starting on the shared database leaves the other's running agents
// alone (it recovers only the panes its own pane host runs). No agent inherits the database's URL.
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { io, type Socket } from "socket.io-client";
import { RELAY_APPLICATION } from "../server/stores/event-relay";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminClient } from "./helpers/client";
import { makeRepo, removeRepo } from "./helpers/git";
import { PG_URL } from "./helpers/pg";
import { startSharedBoard, stopSharedBoard } from "./helpers/shared-board";
import { startDemoTask, startTestServer, type TestServer, yard } from "./helpers/server";
import { waitFor } from "./helpers/wait";

type Ev = { seq: number; type: string; taskId: string | null; payload: Record<string, unknown> };

describe.runIf(PG_URL)("two servers on one PostgreSQL board", () => {
  let url: string;
  let a: TestServer;
  let b: TestServer;
  let repo: string;
  let projectId: string;
  const sockets: Socket[] = [];

  beforeAll(async () => {
    ({ url, a, b } = await startSharedBoard());
    repo = makeRepo("yard-shared-db-");
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

  /** A socket on `server` subscribed to task events; returns what it has received so far. */
  async function follow(server: TestServer): Promise<Ev[]> {
    const got: Ev[] = [];
    const sock = io(server.url, {
      path: "/socket.io",
      transports: ["websocket"],
      extraHeaders: { authorization: `Bearer ${server.token}` },
      reconnection: false,
    });
    sockets.push(sock);
    sock.on("event", (e: Ev) => got.push(e));
    await new Promise<void>((resolve, reject) => {
      sock.on("connect", () => resolve());
      sock.on("connect_error", reject);
    });
    const reply = await sock.timeout(10_000).emitWithAck("events:subscribe", { type: "task.*" });
    expect(reply).toMatchObject({ ok: true });
    return got;
  }

  it("each shows the other's changes live: the other's task on a socket, and `yard task wait` returning when it completes", async () => {
    projectId = (await ok(a, ["project", "add", repo])).project.id;
    expect((await adminClient(b).projects.list.query()).map((p: { id: string }) => p.id)).toContain(projectId);
    const onB = await follow(b);

    const started = await startDemoTask(a, {
      project: projectId,
      title: "Run on A",
      objective: "sleep 800\nwrite a.txt from A\ncommit add a.txt\nreport completed written on A",
    });
    const id: string = started.task.id;
    // B's `yard task wait` follows a task only A runs.
    const waited = await ok(b, ["task", "wait", id, "--until", "completed", "--timeout-ms", "60000"]);
    expect(JSON.stringify(waited)).toContain("completed");
    // B's socket got A's events for it as they happened, each once and in journal order per task.
    await waitFor(() => onB.some((e) => e.taskId === id && e.type === "task.state" && e.payload.to === "completed"), {
      what: "B's socket to hear A's task complete",
    });
    const mine = onB.filter((e) => e.taskId === id);
    expect(mine.map((e) => e.type)).toContain("task.created");
    expect(new Set(mine.map((e) => e.seq)).size).toBe(mine.length);
    // The other way round: B's review of A's task reaches a socket on A.
    const onA = await follow(a);
    await ok(b, ["task", "review", id, "--approve", "--summary", "looks right from B"]);
    await waitFor(() => onA.some((e) => e.taskId === id && e.type.startsWith("task.review")), {
      what: "A's socket to hear B's review",
    });
  }, 120_000);

  it("goes on showing the other's changes after the database drops the event connections", async () => {
    const onB = await follow(b);
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      const dropped = await admin.query(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1 AND datname = current_database()",
        [RELAY_APPLICATION],
      );
      expect(dropped.rowCount).toBe(2); // one per server
      // Both relays connect again by themselves (backoff from 250 ms).
      await waitFor(
        async () =>
          Number(
            (
              await admin.query(
                "SELECT count(*) AS n FROM pg_stat_activity WHERE application_name = $1 AND datname = current_database()",
                [RELAY_APPLICATION],
              )
            ).rows[0].n,
          ) === 2,
        { what: "both servers' event connections to come back" },
      );
    } finally {
      await admin.end();
    }
    const started = await startDemoTask(a, {
      project: projectId,
      title: "After the drop",
      objective: "report completed fine",
    });
    await waitFor(() => onB.some((e) => e.taskId === started.task.id && e.type === "task.created"), {
      what: "B's socket to hear A's new task after the reconnect",
    });
  }, 60_000);

  it("keeps the board's database URL from every agent: a pane's environment has no trace of it", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "yard-shared-env-"));
    try {
      const out = path.join(dir, "env.txt");
      const pane = await adminClient(a).panes.spawn.mutate({
        argv: ["sh", "-c", `env > ${out}.tmp; mv ${out}.tmp ${out}; sleep 30`],
        cwd: dir,
      });
      const env = await waitFor(() => (existsSync(out) ? readFileSync(out, "utf8") : null), { what: "the pane's env" });
      await adminClient(a).panes.kill.mutate({ id: pane.id });
      expect(env).toContain("YARD_PANE=");
      expect(env).not.toContain("DATABASE_URL");
      expect(env).not.toContain(new URL(url).pathname.slice(1)); // the database's name, under any variable
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("a server starting on the shared database leaves the other's running agent alone", async () => {
    const started = await startDemoTask(a, {
      project: projectId,
      title: "Long on A",
      objective: "sleep 6000\nreport completed still mine",
    });
    const id: string = started.task.id;
    await waitFor(async () => (await adminClient(a).tasks.get.query({ id })).state === "working", {
      what: "A's task to run",
    });
    const paneId = (await adminClient(a).tasks.get.query({ id })).paneId as string;
    // B restarts: its recovery must not take A's live pane for one of its own that died.
    await b.stop();
    b = await startTestServer({ home: b.home, env: { DATABASE_URL: url } });
    expect((await adminClient(b).tasks.get.query({ id })).state).toBe("working");
    const lost = await ok(b, ["events", "--pane", paneId, "--type", "pane.lost"]);
    expect(lost.events).toEqual([]);
    // …and A's agent finishes its task as if nothing happened.
    await ok(b, ["task", "wait", id, "--until", "completed", "--timeout-ms", "60000"]);
    expect((await adminClient(a).tasks.get.query({ id })).state).toBe("completed");
  }, 120_000);
});
