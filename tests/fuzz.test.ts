// Fuzz: random, malformed and oversized input at every tRPC procedure (over raw HTTP, as the
// admin and as a worker pane) and every socket event. Each answer must be a success or a typed
// error from the registry — never a 5xx, never an INTERNAL — and the server must stay healthy.
// What must not be accepted is not: a hostile shape is refused by every procedure that takes
// input, and nothing the fuzz sends creates, changes or deletes a project, task, pane or agent.
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { io, type Socket } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { appRouter } from "../server/api/router";
import { ERROR_CODES } from "../server/core/errors";
import { mulberry32 } from "../server/core/panes/fixtures/prng";
import { adminClient } from "./helpers/client";
import { makeRepo } from "./helpers/git";
import { browserLogin, request } from "./helpers/http";
import { startTestServer, type TestServer } from "./helpers/server";
import { waitFor } from "./helpers/wait";

vi.setConfig({ testTimeout: 240_000 });

let server: TestServer;
let api: ReturnType<typeof adminClient>;
let workerToken: string;
const dirs: string[] = [];

// Field names the procedures use, so random objects get past the first layer of validation.
const FIELDS = [
  "id",
  "paneId",
  "taskId",
  "projectId",
  "argv",
  "agent",
  "cwd",
  "env",
  "label",
  "text",
  "mode",
  "lines",
  "cursor",
  "reader",
  "cols",
  "rows",
  "repoPath",
  "path",
  "objective",
  "constraints",
  "acceptanceCriteria",
  "outputFormat",
  "title",
  "contextId",
  "baseRef",
  "branch",
  "status",
  "summary",
  "artifacts",
  "changedFiles",
  "evidence",
  "merge",
  "discard",
  "until",
  "timeoutMs",
  "since",
  "type",
  "limit",
  "event",
  "payload",
  "name",
  "role",
  "supportsHooks",
  "enter",
  "data",
  "keepBranch",
  "deleteBranch",
  "target",
  "states",
  "live",
  "parentPaneId",
  "stallMs",
];

function randomValue(rand: () => number, depth = 0): unknown {
  const r = rand();
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)]!;
  if (depth > 4 || r < 0.3) {
    return pick([
      () => null,
      () => rand() < 0.5,
      () => Math.floor(rand() * 2 ** 40) * (rand() < 0.5 ? -1 : 1),
      () => rand() * 1e308,
      () => 0,
      () => "",
      () => "x".repeat(Math.floor(rand() * 300)),
      () =>
        pick([
          "pane",
          "tsk",
          "paneabcd1234",
          "tskabcd1234",
          "*",
          "**.*",
          "../../etc/passwd",
          "/",
          "/tmp",
          "{{node}}",
          "{{x}}",
          "a\0b",
          "\u202e\u0000\uffff",
          "completed",
          "screen",
          "delta",
          "settled",
        ]),
      () => String.fromCharCode(...Array.from({ length: 20 }, () => Math.floor(rand() * 0xffff))),
    ])();
  }
  if (r < 0.55) return Array.from({ length: Math.floor(rand() * 6) }, () => randomValue(rand, depth + 1));
  const o: Record<string, unknown> = {};
  for (let i = Math.floor(rand() * 6); i > 0; i--)
    o[rand() < 0.85 ? pick(FIELDS) : `k${Math.floor(rand() * 100)}`] = randomValue(rand, depth + 1);
  return o;
}

/** Hostile shapes that every procedure must refuse calmly. */
function hostileValues(): unknown[] {
  let deep: unknown = "bottom";
  for (let i = 0; i < 60; i++) deep = { id: deep };
  return [
    deep,
    { id: "x".repeat(300 * 1024) },
    { argv: Array.from({ length: 20_000 }, () => "a") },
    Object.fromEntries(Array.from({ length: 12_000 }, (_, i) => [`k${i}`, i])),
    { text: "y".repeat(260 * 1024), id: "paneabcd1234" },
    { type: `${"*".repeat(99)}z` },
    "a plain string",
    42,
    [],
  ];
}

/** hostileValues() entries a procedure may accept: a pathological glob (#5) need only be answered, quickly. */
const MAY_ACCEPT = new Set([5]);

type Procedure = { _def: { type: "query" | "mutation" | "subscription"; inputs: unknown[] } };
const procedures = Object.entries(
  (appRouter as unknown as { _def: { procedures: Record<string, Procedure> } })._def.procedures,
);

beforeAll(async () => {
  server = await startTestServer();
  api = adminClient(server);
  const repo = makeRepo();
  dirs.push(repo);
  const envDir = mkdtempSync(path.join(os.tmpdir(), "yard-fuzz-"));
  dirs.push(envDir);
  const envFile = path.join(envDir, "env");
  const { task } = await api.tasks.start.mutate({
    repoPath: repo,
    objective: "hold",
    argv: ["sh", "-c", `echo "$YARD_TOKEN" > ${envFile}.tmp && mv ${envFile}.tmp ${envFile}; exec sleep 600`],
    stallMs: 300,
  });
  workerToken = (await waitFor(() => (existsSync(envFile) ? readFileSync(envFile, "utf8").trim() : null))).trim();
  // The shell goes quiet, takes its prompt and ends its turn without a report: the board is still from then on.
  await waitFor(async () => (await api.tasks.get.query({ id: task.id })).state === "input_required", {
    what: "the held task to settle",
  });
});
afterAll(async () => {
  await server?.dispose();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

async function call(name: string, kind: string, input: unknown, token: string) {
  const headers = { authorization: `Bearer ${token}`, "content-type": "application/json" };
  if (kind === "query") {
    const q = JSON.stringify(input);
    // Query inputs travel in the URL; keep them under Node's 16 KiB header limit.
    const url =
      `${server.url}/api/trpc/${name}` +
      (q === undefined ? "" : `?input=${encodeURIComponent(q.length > 8000 ? q.slice(0, 8000) : q)}`);
    return request(url, { headers });
  }
  return request(`${server.url}/api/trpc/${name}`, { method: "POST", headers, body: JSON.stringify(input) ?? "" });
}

/** Everything the fuzz must leave as it found it. */
async function board() {
  return JSON.stringify({
    projects: await api.projects.list.query(),
    tasks: (await api.tasks.list.query({})).map((t) => [t.id, t.state, t.disposition, t.round, t.title]),
    panes: (await api.panes.list.query({})).map((p) => [p.id, p.live, p.label]),
    agents: await api.agents.list.query(),
  });
}

function expectTyped(name: string, res: { status: number; body: string }) {
  expect([name, res.status < 500]).toEqual([name, true]);
  if (res.status === 200) return;
  let code: string | undefined;
  try {
    code = JSON.parse(res.body).error?.data?.yard?.code;
  } catch {
    code = `unparsable ${res.status} body ${JSON.stringify(res.body.slice(0, 200))}`;
  }
  expect([name, String(code) in ERROR_CODES, code]).toEqual([name, true, code]);
  expect([name, code]).not.toEqual([name, "INTERNAL"]);
}

async function healthy() {
  expect((await request(`${server.url}/api/health`)).status).toBe(200);
  expect((await api.status.query()).ok).toBe(true);
}

describe("fuzz", () => {
  it("covers every procedure of the router", () => {
    expect(procedures.length).toBeGreaterThan(25);
  });

  it("answers random and hostile input to every procedure with a typed error, as admin and as a worker pane", async () => {
    const rand = mulberry32(20261201);
    const before = await board();
    const acceptedHostile: string[] = [];
    for (const [name, proc] of procedures) {
      if (name === "tasks.wait") continue; // covered below with a short timeout (it long-polls by design)
      if (name === "server.stop") continue; // valid input stops the server by design; covered below last
      const takesInput = proc._def.inputs.length > 0;
      for (const [i, input] of hostileValues().entries()) {
        for (const token of [server.token, workerToken]) {
          const res = await call(name, proc._def.type, input, token);
          expectTyped(name, res);
          if (takesInput && res.status === 200 && !MAY_ACCEPT.has(i)) acceptedHostile.push(`${name} #${i}`);
        }
      }
      for (const input of Array.from({ length: 25 }, () => randomValue(rand))) {
        for (const token of [server.token, workerToken])
          expectTyped(name, await call(name, proc._def.type, input, token));
      }
    }
    expect(acceptedHostile).toEqual([]);
    expect(await board()).toBe(before);
    for (const input of Array.from({ length: 20 }, () => randomValue(rand))) {
      const withTimeout =
        input && typeof input === "object" && !Array.isArray(input) ? { ...input, timeoutMs: 50 } : input;
      expectTyped("tasks.wait", await call("tasks.wait", "query", withTimeout, server.token));
    }
    await healthy();
  });

  it("answers hostile input to server.stop with typed errors (valid input would stop the server)", async () => {
    for (const input of [...hostileValues(), "x", { all: "yes" }, { all: 1 }, [true]]) {
      for (const token of [server.token, workerToken])
        expectTyped("server.stop", await call("server.stop", "mutation", input, token));
    }
    await healthy();
  });

  it("answers random and hostile payloads on every socket event and keeps the connection usable", async () => {
    const { headers } = await browserLogin(server.loginUrl);
    const sock: Socket = io(server.url, {
      path: "/socket.io",
      transports: ["websocket"],
      extraHeaders: headers,
      reconnection: false,
    });
    await new Promise<void>((resolve, reject) => {
      sock.on("connect", () => resolve());
      sock.on("connect_error", reject);
    });
    const rand = mulberry32(7);
    const withAck = ["pane:attach", "pane:input", "pane:resize"];
    for (const event of [...withAck, "pane:detach", "events:subscribe"]) {
      for (const input of [
        ...hostileValues().filter((v) => JSON.stringify(v).length < 900_000),
        ...Array.from({ length: 25 }, () => randomValue(rand)),
      ]) {
        if (withAck.includes(event)) {
          const reply = (await sock.timeout(5000).emitWithAck(event, input)) as {
            ok: boolean;
            error?: { code: string };
          };
          if (!reply.ok) {
            expect([event, reply.error!.code in ERROR_CODES]).toEqual([event, true]);
            expect(reply.error!.code).not.toBe("INTERNAL");
          }
        } else {
          sock.emit(event, input);
        }
      }
    }
    // Still connected and answering.
    const ping = (await sock.timeout(5000).emitWithAck("pane:attach", { paneId: "paneabcd1234" })) as {
      ok: boolean;
      error?: { code: string };
    };
    expect(ping).toMatchObject({ ok: false, error: { code: "NOT_FOUND" } });
    expect(sock.connected).toBe(true);
    sock.close();
    await healthy();
  });
});
