// Ready worktrees end to end, on a real Node project with a lockfile in a temp dir and the real
// server, git, PTYs and demo agent: `.switchyard.json`'s setup runs in the task's pane before the
// agent (a real `npm ci --offline`), `.env` is copied from the main checkout, the agent sees its
// ports; a failing setup fails the task with its output and starts no agent; cancel stops a setup;
// teardown runs at the finish from the config recorded at start even after the agent rewrote the
// file; ports are allocated (skipping one in use), shown with Preview, and released; a bad file
// refuses the start and creates nothing; a project's override replaces the file's fields; setup
// runs inside the OS sandbox for a sandboxed task; a server restart mid-setup picks it up again, and
// releases the ports of a task finished before it.
import { existsSync, lstatSync, readdirSync, readFileSync, rmSync, writeFileSync, mkdirSync } from "node:fs";
import net from "node:net";
import Database from "better-sqlite3";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { adminClient, errorOf } from "./helpers/client";
import { git } from "./helpers/git";
import { ROOT, startTestServer, type TestServer, yard } from "./helpers/server";
import { scratch } from "./helpers/scratch";
import { waitFor } from "./helpers/wait";

vi.setConfig({ testTimeout: 120_000 });

const DEMO = path.join(ROOT, "agents/demo/demo-agent.mjs");
// Outside the blocks other test servers get (tests/helpers/server.ts) and the ephemeral ports.
const RANGE = { first: 19310, last: 19339 };
let server: TestServer;
let api: ReturnType<typeof adminClient>;
const dirs = scratch("yard-setup-");

beforeAll(async () => {
  server = await startTestServer({ env: { YARD_PORT_RANGE: `${RANGE.first}-${RANGE.last}` } });
  api = adminClient(server);
});
afterAll(async () => {
  await server?.dispose();
  dirs.cleanup();
});

const LOCK = {
  name: "app",
  version: "1.0.0",
  lockfileVersion: 3,
  requires: true,
  packages: {
    "": { name: "app", version: "1.0.0", dependencies: { dep: "file:vendor/dep" } },
    "node_modules/dep": { resolved: "vendor/dep", link: true },
    "vendor/dep": { version: "1.0.0" },
  },
};
const NPM_CI = "npm ci --offline --ignore-scripts --no-audit --no-fund";

/** A Node project (package.json, its lockfile, a local dependency) with `.switchyard.json` committed and a gitignored `.env`. */
function nodeProject(config: unknown): string {
  const repo = dirs.repo();
  const put = (rel: string, text: string) => {
    mkdirSync(path.dirname(path.join(repo, rel)), { recursive: true });
    writeFileSync(path.join(repo, rel), text);
  };
  put("vendor/dep/package.json", JSON.stringify({ name: "dep", version: "1.0.0", main: "index.js" }));
  put("vendor/dep/index.js", "module.exports = 42;\n");
  put("package.json", JSON.stringify({ name: "app", version: "1.0.0", dependencies: { dep: "file:vendor/dep" } }));
  put("package-lock.json", `${JSON.stringify(LOCK, null, 2)}\n`);
  put(".gitignore", "node_modules\n.env*\n.agent-*\n.setup-*\n");
  if (config !== undefined) put(".switchyard.json", JSON.stringify(config, null, 2));
  git(repo, "add", "-A");
  git(repo, "commit", "-qm", "a node project");
  put(".env", "SECRET=from-the-main-checkout\n");
  return repo;
}

/** The demo agent behind a shell that first notes that it started and what its environment says. */
const noting = [
  "sh",
  "-c",
  `printenv PORT YARD_PORTS YARD_MAIN_CHECKOUT > .agent-env; touch .agent-started; exec node ${DEMO}`,
];

const waitState = (id: string, until: string, timeoutMs = 90_000) =>
  api.tasks.wait.query({ id, until, timeoutMs }).then((r) => r.tasks[0]!);
const tail = async (paneId: string) => (await api.panes.read.query({ id: paneId, mode: "tail", lines: 200 })).text;
const events = async (id: string) => (await api.tasks.events.query({ id })).events;

/** Listens on 127.0.0.1:port until closed. */
async function listen(port: number): Promise<net.Server> {
  const s = net.createServer((c) => {
    c.on("error", () => {}); // the server's check connects and hangs up at once
    c.end();
  });
  await new Promise<void>((r) => s.listen(port, "127.0.0.1", r));
  return s;
}
const close = (s: net.Server) => new Promise((r) => s.close(r));

describe("setup before the agent", () => {
  it("runs npm ci in the task's pane, copies .env, and the agent sees its ports; Preview once something listens", async () => {
    const repo = nodeProject({ setup: [NPM_CI, "printenv PORT YARD_PORTS > .setup-env"], copy: [".env*"], ports: 2 });
    const busy = await listen(RANGE.first); // a port in use on the machine is skipped
    let task: Awaited<ReturnType<typeof api.tasks.start.mutate>>["task"];
    try {
      ({ task } = await api.tasks.start.mutate({ repoPath: repo, objective: "report completed ready", argv: noting }));
    } finally {
      await close(busy);
    }
    const done = await waitState(task.id, "completed");
    const ports = done.setup!.ports;
    expect(ports).toHaveLength(2);
    expect(ports).not.toContain(RANGE.first);
    for (const p of ports) expect(p).toBeGreaterThan(RANGE.first);
    const wt = done.worktreePath!;
    expect(lstatSync(path.join(wt, "node_modules/dep")).isSymbolicLink()).toBe(true); // npm ci ran
    expect(readFileSync(path.join(wt, ".env"), "utf8")).toBe("SECRET=from-the-main-checkout\n");
    expect(lstatSync(path.join(wt, ".env")).isFile()).toBe(true); // a copy, not a link
    expect(readFileSync(path.join(wt, ".setup-env"), "utf8")).toBe(`${ports[0]}\n${ports.join(",")}\n`);
    expect(readFileSync(path.join(wt, ".agent-env"), "utf8")).toBe(`${ports[0]}\n${ports.join(",")}\n${repo}\n`);

    // The pane showed each command and its output, then the agent.
    const screen = await tail(done.paneId!);
    expect(screen).toContain(`[setup 1/2] $ ${NPM_CI}`);
    expect(screen).toMatch(/added 1 package/);
    expect(screen).toContain("[setup 2/2] $ printenv PORT YARD_PORTS > .setup-env");
    expect(screen).toMatch(/\[setup\] done in [\d.]+ s; starting the agent/);

    // Setup was the pending task's evidence, step by step, before the agent took the contract.
    const states = (await events(task.id)).filter((e) => e.type === "task.state").map((e) => e.payload);
    expect(states.map((s) => [s.cause, s.to])).toEqual([
      ["setup_progress", "pending"],
      ["setup_progress", "pending"],
      ["setup_done", "pending"],
      ["submitted", "working"],
      ["report", "completed"],
    ]);
    expect(states[1]!.evidence).toEqual({
      stage: "setup",
      step: 2,
      total: 2,
      command: "printenv PORT YARD_PORTS > .setup-env",
    });
    const setupEvent = (await events(task.id)).find((e) => e.type === "task.setup")!;
    expect(setupEvent.payload).toMatchObject({ ports, copied: [".env"], files: 1 });

    // Preview: nothing listens yet; once something does, its link.
    expect((await api.tasks.ports.query({ id: task.id })).ports.map((p) => p.listening)).toEqual([false, false]);
    const app = await listen(ports[0]!);
    try {
      const r = await api.tasks.ports.query({ id: task.id });
      expect(r.ports[0]).toEqual({ port: ports[0], listening: true, url: `http://127.0.0.1:${ports[0]}/` });
      const cli = await yard(server, ["task", "get", task.id]);
      expect(cli.stdout).toContain(
        `ports: ${ports[0]} (listening: Preview http://127.0.0.1:${ports[0]}/), ${ports[1]}`,
      );
    } finally {
      await close(app);
    }

    // Finished: the ports go back to the pool.
    await api.tasks.finish.mutate({ id: task.id, discard: {} });
    const after = await api.tasks.get.query({ id: task.id });
    expect(after.setup).toMatchObject({ ports, portsReleased: true });
    expect((await events(task.id)).some((e) => e.type === "task.ports" && e.payload.released === true)).toBe(true);
  });

  it("a failing setup fails the task with its output's tail, and no agent starts", async () => {
    const repo = nodeProject({ setup: ["echo preparing the worktree", "exit 7", "echo never"] });
    const { task } = await api.tasks.start.mutate({ repoPath: repo, objective: "report completed no", argv: noting });
    const t = await waitState(task.id, "terminal");
    expect(t.state).toBe("failed");
    expect(t.evidence).toMatchObject({ reason: "setup_failed", step: 2, total: 3, command: "exit 7", exitCode: 7 });
    expect(t.evidence!.tail).toContain("preparing the worktree");
    expect(t.evidence!.tail).toContain("[setup 2/3] failed: exit 7 exited with 7; the agent does not start");
    expect(t.evidence!.tail).not.toContain("[setup 3/3]");
    expect(t.statusLine).toBe("Failed: setup 2/3: exit 7 exited with 7; no agent started");
    expect(existsSync(path.join(t.worktreePath!, ".agent-started"))).toBe(false);
    const evs = await events(task.id);
    expect(evs.filter((e) => e.type === "pane.hook")).toEqual([]); // the agent never posted a hook
  });

  it("cancel stops a setup that is running: its commands end, the ports are released", async () => {
    const repo = nodeProject({ setup: ["sleep 31.4159"], ports: 1 });
    const { task } = await api.tasks.start.mutate({ repoPath: repo, objective: "report completed no", argv: noting });
    await waitFor(async () => (await api.tasks.get.query({ id: task.id })).evidence?.stage === "setup", {
      timeoutMs: 30_000,
      what: "setup running",
    });
    expect((await api.tasks.get.query({ id: task.id })).statusLine).toBe("Setting up… setup 1/1: sleep 31.4159");
    const sleeping = () =>
      readdirSync("/proc")
        .filter((p) => /^\d+$/.test(p))
        .some((p) => {
          try {
            return readFileSync(`/proc/${p}/cmdline`, "utf8").includes("31.4159");
          } catch {
            return false;
          }
        });
    expect(sleeping()).toBe(true);
    const canceled = await api.tasks.cancel.mutate({ id: task.id });
    expect(canceled.state).toBe("canceled");
    await waitFor(() => !sleeping(), { timeoutMs: 10_000, what: "the setup command to end" });
    const t = await api.tasks.get.query({ id: task.id });
    expect(t).toMatchObject({ state: "canceled", setup: { portsReleased: true } });
    expect(existsSync(path.join(t.worktreePath!, ".agent-started"))).toBe(false);
  });
  it("an agent without hooks is judged by its own screen only after setup: setup's output and quiet are not its", async () => {
    // Setup prints, then stays quiet longer than the screen heuristic's quiescence (1.5 s).
    const repo = nodeProject({ setup: ["echo preparing; sleep 2.2"] });
    const { task } = await api.tasks.start.mutate({
      repoPath: repo,
      objective: "hello",
      argv: ["sh", "-c", 'echo agent ready; IFS= read -r line; printf "%s\\n" "$line" > .agent-prompt; exec sleep 600'],
    });
    const t = await waitState(task.id, ["working", "input_required", "failed"].join(","), 60_000);
    expect(t.state).not.toBe("failed");
    const evs = await events(task.id);
    const done = evs.find((e) => e.type === "task.state" && e.payload.cause === "setup_done")!;
    const moved = evs.filter((e) => e.type === "pane.lifecycle" && e.payload.to !== "starting");
    expect(moved.length).toBeGreaterThan(0);
    expect(moved[0]!.seq).toBeGreaterThan(done.seq); // nothing moved the pane while setup ran
    await waitFor(() => existsSync(path.join(t.worktreePath!, ".agent-prompt")), {
      what: "the prompt to reach the agent",
    });
    expect(readFileSync(path.join(t.worktreePath!, ".agent-prompt"), "utf8")).toContain("hello");
    await api.tasks.cancel.mutate({ id: task.id });
  });
});

describe("teardown at the finish", () => {
  it("runs the config recorded at start, even after the agent rewrote .switchyard.json", async () => {
    const repo = nodeProject({ teardown: ['echo "teardown from the record, PORT=$PORT"'], ports: 1 });
    const { task } = await api.tasks.start.mutate({
      repoPath: repo,
      agent: "demo",
      objective: `write .switchyard.json {"teardown":["echo rewritten by the agent"]}\ncommit rewrite the config\nreport completed done`,
    });
    const t = await waitState(task.id, "completed");
    const port = t.setup!.ports[0]!;
    const res = await api.tasks.finish.mutate({ id: task.id, merge: {} });
    expect(res.task.disposition).toBe("merged");
    expect(res.task.setup!.teardown).toMatchObject({
      ok: true,
      skipped: null,
      commands: [{ command: 'echo "teardown from the record, PORT=$PORT"', exitCode: 0, timedOut: false }],
    });
    expect(res.task.setup!.teardown!.tail).toContain(`teardown from the record, PORT=${port}`);
    expect(res.task.setup!.teardown!.tail).not.toContain("rewritten by the agent");
    expect(res.task.setup!.portsReleased).toBe(true);
    const ev = (await events(task.id)).find((e) => e.type === "task.teardown")!;
    expect(ev.payload.ok).toBe(true);
  });

  it("records a failing teardown and still finishes", async () => {
    const repo = nodeProject({ teardown: ["echo bye", "exit 3"] });
    const { task } = await api.tasks.start.mutate({
      repoPath: repo,
      agent: "demo",
      objective: "report completed done",
    });
    await waitState(task.id, "completed");
    const res = await api.tasks.finish.mutate({ id: task.id, discard: {} });
    expect(res.cleanup.ok).toBe(true);
    expect(res.task.disposition).toBe("discarded");
    expect(res.task.setup!.teardown).toMatchObject({
      ok: false,
      commands: [
        { command: "echo bye", exitCode: 0 },
        { command: "exit 3", exitCode: 3 },
      ],
    });
    expect(existsSync(res.task.worktreePath!)).toBe(false);
  });
});

describe("the config and its override", () => {
  it("refuses a bad .switchyard.json naming the field, and creates nothing", async () => {
    const repo = nodeProject({ setup: ["npm ci", ""], copy: [".env"] });
    const err = await errorOf(() => api.tasks.start.mutate({ repoPath: repo, agent: "demo", objective: "x" }));
    expect(err).toMatchObject({ code: "BAD_PARAMS", details: { file: ".switchyard.json", path: "setup.1" } });
    expect(git(repo, "branch", "--list", "yard/*")).toBe("");
    expect(git(repo, "worktree", "list").split("\n")).toHaveLength(1);
    expect((await api.tasks.list.query({})).some((t) => t.repoPath === repo)).toBe(false);
  });

  it("a project's override replaces the file's fields; --config none clears it", async () => {
    const repo = nodeProject({ setup: ["echo from the file"], ports: 1 });
    const project = await api.projects.add.mutate({ path: repo });
    const bad = await yard(server, ["--json", "project", "set", project.id, "--config", '{"copy":["../x"]}']);
    expect(bad.code).toBe(1);
    expect(bad.json.error).toMatchObject({ code: "BAD_PARAMS", details: { issues: [{ path: "repoConfig.copy.0" }] } });
    const file = path.join(dirs.tmp(), "override.json");
    writeFileSync(file, JSON.stringify({ setup: ["echo from the project"] }));
    const set = await yard(server, ["--json", "project", "set", project.id, "--config", `@${file}`]);
    expect(set.json.project.repoConfig).toEqual({ setup: ["echo from the project"] });
    const shown = await api.projects.repoConfig.query({ id: project.id });
    expect(shown.effective).toMatchObject({
      setup: ["echo from the project"],
      ports: 1,
      sources: { setup: "project", ports: "file" },
    });

    const { task } = await api.tasks.start.mutate({
      projectId: project.id,
      agent: "demo",
      objective: "report completed ok",
    });
    const t = await waitState(task.id, "completed");
    const screen = await tail(t.paneId!);
    expect(screen).toContain("[setup 1/1] $ echo from the project");
    expect(screen).not.toContain("from the file");
    expect(t.setup!.config.sources).toEqual({ setup: "project", ports: "file" });

    const cleared = await yard(server, ["--json", "project", "set", project.id, "--config", "none"]);
    expect(cleared.json.project.repoConfig).toBeNull();
    expect((await api.projects.repoConfig.query({ id: project.id })).effective?.setup).toEqual(["echo from the file"]);
  });
});

describe("where setup runs", () => {
  it("inside the OS sandbox when the task is sandboxed", async () => {
    const repo = nodeProject({ setup: ['touch "/tmp/yard-setup-escape-$YARD_TASK" in-sandbox'] });
    const { task } = await api.tasks.start.mutate({
      repoPath: repo,
      agent: "demo",
      objective: "report completed ok",
      sandbox: true,
    });
    const t = await waitState(task.id, "completed");
    expect(t.sandboxed).toBe(true);
    expect(existsSync(path.join(t.worktreePath!, "in-sandbox"))).toBe(true);
    expect(existsSync(`/tmp/yard-setup-escape-${task.id}`)).toBe(false); // the sandbox's /tmp is its own
  });

  it("picks a setup up again after a server restart, and releases the ports of tasks finished before it", async () => {
    const home = path.join(dirs.tmp(), "home");
    mkdirSync(home);
    const s = await startTestServer({ home });
    try {
      const a = adminClient(s);
      // A finished task whose release was not recorded (the server died in between): simulated below.
      const finished = (
        await a.tasks.start.mutate({
          repoPath: nodeProject({ ports: 1 }),
          agent: "demo",
          objective: "report completed ok",
        })
      ).task;
      await a.tasks.wait.query({ id: finished.id, until: "completed", timeoutMs: 60_000 });
      await a.tasks.finish.mutate({ id: finished.id, discard: {} });
      const repo = nodeProject({ setup: ['while [ ! -e "$YARD_MAIN_CHECKOUT/.go" ]; do sleep 0.05; done'] });
      const { task } = await a.tasks.start.mutate({ repoPath: repo, agent: "demo", objective: "report completed ok" });
      await waitFor(async () => (await a.tasks.get.query({ id: task.id })).evidence?.stage === "setup", {
        timeoutMs: 30_000,
        what: "setup running",
      });
      await s.stop(); // the agents keep running in the pane host
      const db = new Database(path.join(home, "yard.db"));
      db.prepare('UPDATE "TaskSetup" SET "portsReleasedAt" = NULL WHERE "taskId" = ?').run(finished.id);
      db.close();
      const s2 = await startTestServer({ home });
      try {
        const b = adminClient(s2);
        expect((await b.tasks.get.query({ id: finished.id })).setup).toMatchObject({ portsReleased: true });
        expect((await b.tasks.get.query({ id: task.id })).state).toBe("pending");
        writeFileSync(path.join(repo, ".go"), "");
        const t = (await b.tasks.wait.query({ id: task.id, until: "completed", timeoutMs: 60_000 })).tasks[0]!;
        expect(t.state).toBe("completed");
        // The new server took the setup's end from the pane (not the agent's readiness alone).
        const causes = (await b.tasks.events.query({ id: task.id })).events
          .filter((e) => e.type === "task.state")
          .map((e) => e.payload.cause);
        expect(causes.slice(-3)).toEqual(["setup_done", "submitted", "report"]);
      } finally {
        await s2.dispose();
      }
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });
});
