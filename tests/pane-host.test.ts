// Panes outlive the web server: real server processes, the real pane host, real PTYs, git, SQLite,
// the demo agent and `yard hook`. kill -9 of the server alone while tasks work, then a new server
// on the same data dir: every task is still working and completes, delta reads continue from the
// cursor taken before the kill, hooks fired while no server was up arrive, a pane that exited
// meanwhile is recorded with its exit code and final screen, a task still pending gets its
// contract, and the browser's terminal attach works. Then kill -9 of the pane host itself: its
// panes fail with evidence, and the next spawn gets a new host.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { io } from "socket.io-client";
import { afterAll, describe, expect, it, vi } from "vitest";
import { splitLines, TerminalMirror } from "../server/core/panes/mirror";
import { adminClient } from "./helpers/client";
import { git, makeRepo } from "./helpers/git";
import { browserLogin } from "./helpers/http";
import { hostStatus } from "./helpers/panehost";
import { isAlive, paneHostPid, ROOT, startTestServer, type TestServer, yard } from "./helpers/server";
import { waitFor } from "./helpers/wait";

vi.setConfig({ testTimeout: 300_000 });

const DEMO = path.join(ROOT, "agents/demo/demo-agent.mjs");
const GATED = path.join(ROOT, "tests/programs/gated-agent.mjs");
const dirs: string[] = [];
const servers: TestServer[] = [];
afterAll(async () => {
  for (const s of servers.reverse()) await s.dispose().catch(() => {});
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

type Api = ReturnType<typeof adminClient>;
const B_LINES = Array.from({ length: 30 }, (_, i) => `b${i + 1}`);

/** The whole rendered history of a pane, line by line. */
const everything = async (api: Api, id: string) =>
  splitLines((await api.panes.read.query({ id, mode: "tail", lines: 10_000 })).text);

describe("a server restart", () => {
  it("keeps every working task working to completion, with reads, hooks, exits and the browser reattached", async () => {
    const tmp = mkdtempSync(path.join(os.tmpdir(), "yard-ph-"));
    dirs.push(tmp);
    const repo = makeRepo();
    dirs.push(repo);
    const s1 = await startTestServer({ env: { YARD_MAX_ACTIVE_TASKS: "8" } });
    servers.push(s1);
    let api = adminClient(s1);

    // A: blocked on a permission prompt. B: printing. C: its next hook waits for a file.
    const A = await api.tasks.start.mutate({
      repoPath: repo,
      agent: "demo",
      objective: "write a.txt from-A\nask may I commit a?\ncommit add a\nreport completed A done",
    });
    const B = await api.tasks.start.mutate({
      repoPath: repo,
      agent: "demo",
      objective: [
        ...B_LINES.flatMap((l) => [`print ${l}`, "sleep 120"]),
        "ask finish b?",
        "report completed B done",
      ].join("\n"),
    });
    const gate = path.join(tmp, "gate");
    const C = await api.tasks.start.mutate({
      repoPath: repo,
      argv: [process.execPath, GATED, gate, "C done"],
      objective: "gated work",
    });
    // D: a plain pane that exits (code 4) once its file exists.
    const dGate = path.join(tmp, "d-gate");
    const D = await api.panes.spawn.mutate({
      argv: ["sh", "-c", `while [ ! -e ${dGate} ]; do sleep 0.05; done; echo bye-d; exit 4`],
      cwd: tmp,
    });

    await waitFor(async () => (await api.panes.get.query({ id: A.pane!.id })).lifecycle === "blocked", {
      timeoutMs: 60_000,
      what: "A blocked",
    });
    await api.tasks.wait.query({ id: C.task.id, until: "working", timeoutMs: 60_000 });
    // The reader's transcript of B, taken while B prints.
    const reader = "orchestrator";
    const first = await waitFor(
      async () => {
        const d = await api.panes.read.query({ id: B.pane!.id, mode: "delta", cursor: 0, reader });
        return splitLines(d.text).includes("b3") ? d : null;
      },
      { timeoutMs: 60_000, what: "B printing" },
    );
    const transcript = splitLines(first.text);
    // E: still pending (its agent takes a while to be ready) when the server dies.
    const E = await api.tasks.start.mutate({
      repoPath: repo,
      argv: ["env", "DEMO_START_DELAY_MS=1500", process.execPath, DEMO],
      objective: "write e.txt from-E\nreport completed E done",
    });
    expect((await api.tasks.get.query({ id: E.task.id })).state).toBe("pending");
    const before = new Map<string, number | null>();
    for (const p of [A.pane!, B.pane!, C.pane!, D]) before.set(p.id, (await api.panes.get.query({ id: p.id })).pid);
    const hostPid = paneHostPid(s1.home);

    s1.proc.kill("SIGKILL");
    await s1.stop();

    // While no server is up: C's gated hooks go to the host's relay, D exits.
    writeFileSync(gate, "");
    writeFileSync(dGate, "");
    const queued = await waitFor(
      async () => {
        const st = await hostStatus(s1.home);
        const cHook = st.queue.some(
          (q) => q.paneId === C.pane!.id && q.kind === "hook" && q.event === "PermissionRequest",
        );
        const dExit = st.queue.some((q) => q.paneId === D.id && q.kind === "exit" && q.exitCode === 4);
        return cHook && dExit ? st : null;
      },
      { timeoutMs: 30_000, what: "C's hook and D's exit queued in the host" },
    );
    expect(queued).toMatchObject({ hostPid, serverPid: null });

    const s2 = await startTestServer({ home: s1.home, env: { YARD_MAX_ACTIVE_TASKS: "8" } });
    servers.push(s2);
    api = adminClient(s2);
    expect(s2.port).toBe(s1.port); // the panes' YARD_URL still points at the server
    expect(paneHostPid(s2.home)).toBe(hostPid);

    // Every task is still alive; none failed; the running panes are the same processes.
    for (const t of [A, B, C, E]) expect((await api.tasks.get.query({ id: t.task.id })).state).not.toBe("failed");
    for (const p of [A.pane!, B.pane!, C.pane!])
      expect(await api.panes.get.query({ id: p.id })).toMatchObject({ live: true, pid: before.get(p.id) });
    // The hook fired while the server was down arrived, through the relay, and the lifecycle followed it.
    await waitFor(async () => (await api.panes.get.query({ id: C.pane!.id })).lifecycle === "blocked", {
      what: "C blocked",
    });
    const cHooks = (await api.events.list.query({ paneId: C.pane!.id, type: "pane.hook" })).events;
    expect(cHooks.find((e) => e.payload.name === "PermissionRequest")?.payload).toMatchObject({
      relayed: true,
      outcome: "transition",
    });
    // D's exit, which happened while no server was attached, is recorded with its final screen.
    expect(await api.panes.get.query({ id: D.id })).toMatchObject({ lifecycle: "exited", exitCode: 4, live: false });
    expect(await everything(api, D.id)).toEqual(["bye-d"]);

    // B's delta continues from the cursor taken before the kill: no gap, no repeat.
    await waitFor(async () => (await api.panes.get.query({ id: B.pane!.id })).lifecycle === "blocked", {
      timeoutMs: 60_000,
      what: "B at its question",
    });
    const next = await api.panes.read.query({ id: B.pane!.id, mode: "delta", cursor: first.cursor, reader });
    expect(next.dropped).toBeNull();
    expect(next.start).toBeLessThanOrEqual(first.cursor);
    transcript.length = next.start;
    transcript.push(...splitLines(next.text));
    expect(transcript).toEqual(await everything(api, B.pane!.id));
    expect(transcript.filter((l) => /^b\d+$/.test(l))).toEqual(B_LINES);

    // The browser reattaches: a snapshot of A, then its live output as A is answered.
    const { headers } = await browserLogin(s2.loginUrl);
    const sock = io(s2.url, {
      path: "/socket.io",
      transports: ["websocket"],
      extraHeaders: headers,
      reconnection: false,
    });
    let view: TerminalMirror | null = null;
    const early: string[] = [];
    let streamed = "";
    sock.on("pane:output", (m: { paneId: string; data: string }) => {
      if (m.paneId !== A.pane!.id) return;
      streamed += m.data;
      if (view) view.write(m.data);
      else early.push(m.data);
    });
    const attached = (await sock.timeout(10_000).emitWithAck("pane:attach", { paneId: A.pane!.id })) as {
      ok: boolean;
      snapshot: { data: string; cols: number; rows: number };
      pane: { live: boolean };
    };
    expect(attached).toMatchObject({ ok: true, pane: { live: true } });
    view = new TerminalMirror({ cols: attached.snapshot.cols, rows: attached.snapshot.rows });
    view.write(attached.snapshot.data);
    for (const d of early) view.write(d);
    expect((await view.screen()).text).toMatch(/may I commit a\?/);

    // Answer the blocked ones through panes.sendKeys: every task completes.
    for (const t of [A, B, C]) await api.panes.sendKeys.mutate({ id: t.pane!.id, text: "y" });
    const done = await Promise.all(
      [A, B, C, E].map((t) =>
        api.tasks.wait.query({ id: t.task.id, until: "terminal", timeoutMs: 120_000 }).then((r) => r.tasks[0]!),
      ),
    );
    expect(done.map((t) => [t.state, t.result?.summary])).toEqual([
      ["completed", "A done"],
      ["completed", "B done"],
      ["completed", "C done"],
      ["completed", "E done"],
    ]);
    expect(git(A.task.worktreePath!, "log", "--format=%s", "-1")).toBe("add a");
    expect(existsSync(path.join(E.task.worktreePath!, "e.txt"))).toBe(true);
    // What the browser was streamed after its snapshot renders what a read of the pane shows.
    expect(streamed).toContain("Allowed");
    const v = view;
    await waitFor(
      async () => (await v.screen()).text === (await api.panes.read.query({ id: A.pane!.id, mode: "screen" })).text,
      { what: "the streamed screen to match a read" },
    );
    sock.close();
    v.dispose();

    // kill -9 of the pane host itself: its panes fail with evidence, as a lost agent always did.
    const F = await api.tasks.start.mutate({
      repoPath: repo,
      agent: "demo",
      objective: "ask hold on\nreport completed F",
    });
    await waitFor(async () => (await api.panes.get.query({ id: F.pane!.id })).lifecycle === "blocked", {
      timeoutMs: 60_000,
      what: "F blocked",
    });
    process.kill(hostPid!, "SIGKILL");
    const failed = (await api.tasks.wait.query({ id: F.task.id, until: "terminal", timeoutMs: 30_000 })).tasks[0]!;
    expect(failed).toMatchObject({ state: "failed", evidence: { reason: "pane_host_died", lastLifecycle: "blocked" } });
    expect(await api.panes.get.query({ id: F.pane!.id })).toMatchObject({ lifecycle: "exited", live: false });
    const lost = (await api.events.list.query({ paneId: F.pane!.id, type: "pane.lost" })).events;
    expect(lost.map((e) => e.payload)).toEqual([{ lastLifecycle: "blocked", reason: "pane_host_died" }]);
    expect(existsSync(F.task.worktreePath!)).toBe(true);
    // The next spawn starts a new host.
    const after = await api.panes.spawn.mutate({ argv: ["sh", "-c", "echo after-host; sleep 30"], cwd: tmp });
    await waitFor(async () => (await api.panes.read.query({ id: after.id })).text.includes("after-host"), {
      what: "a pane on the new host",
    });
    const newHost = paneHostPid(s2.home);
    expect(newHost).not.toBe(hostPid);
    expect(isAlive(newHost!)).toBe(true);
    await api.panes.kill.mutate({ id: after.id });
    expect(readFileSync(path.join(s2.home, "host/host.pid"), "utf8").trim()).toBe(String(newHost));
  });
});

describe("a sandboxed agent across a server restart", () => {
  it("posts its hook to the relay while the server is down and reaches the restarted server's new API socket", async () => {
    const repo = makeRepo();
    dirs.push(repo);
    const s1 = await startTestServer();
    servers.push(s1);
    let api = adminClient(s1);
    const gateName = ".gate";
    const { task, pane } = await api.tasks.start.mutate({
      repoPath: repo,
      argv: [process.execPath, GATED, gateName, "sandboxed done"],
      objective: "gated work",
      sandbox: true,
    });
    expect(task.sandboxed).toBe(true);
    await api.tasks.wait.query({ id: task.id, until: "working", timeoutMs: 60_000 });

    s1.proc.kill("SIGKILL");
    await s1.stop();
    writeFileSync(path.join(task.worktreePath!, gateName), ""); // the agent's cwd is its worktree
    await waitFor(
      async () =>
        (await hostStatus(s1.home)).queue.some(
          (q) => q.paneId === pane!.id && q.kind === "hook" && q.event === "PermissionRequest",
        ),
      { timeoutMs: 30_000, what: "the sandboxed agent's hook queued in the host" },
    );

    const s2 = await startTestServer({ home: s1.home });
    servers.push(s2);
    api = adminClient(s2);
    await waitFor(async () => (await api.panes.get.query({ id: pane!.id })).lifecycle === "blocked", {
      what: "blocked by the relayed hook",
    });
    await api.panes.sendKeys.mutate({ id: pane!.id, text: "y" });
    // Its report goes through /run/switchyard/api.sock: the socket the new server created.
    const done = (await api.tasks.wait.query({ id: task.id, until: "terminal", timeoutMs: 60_000 })).tasks[0]!;
    expect(done).toMatchObject({ state: "completed", result: { summary: "sandboxed done" } });
  });
});

describe("a pane host that went idle while no server was up", () => {
  it("keeps the exits it could not deliver for the next host, so the next server records them", async () => {
    const tmp = mkdtempSync(path.join(os.tmpdir(), "yard-ph-idle-"));
    dirs.push(tmp);
    const env = { YARD_HOST_IDLE_MS: "300" }; // (the host inherits the server's environment)
    const s1 = await startTestServer({ env });
    servers.push(s1);
    const gateFile = path.join(tmp, "gate");
    const pane = await adminClient(s1).panes.spawn.mutate({
      argv: ["sh", "-c", `while [ ! -e ${gateFile} ]; do sleep 0.05; done; echo finished; exit 5`],
      cwd: tmp,
    });
    const hostPid = paneHostPid(s1.home)!;
    s1.proc.kill("SIGKILL");
    await s1.stop();
    writeFileSync(gateFile, "");
    // No pane, no server: the host saves what nobody took and exits.
    await waitFor(() => !isAlive(hostPid), { timeoutMs: 30_000, what: "the idle host to exit" });
    expect(JSON.parse(readFileSync(path.join(s1.home, "host/pending.json"), "utf8")).deliverables).toMatchObject([
      { kind: "exit", paneId: pane.id, exitCode: 5 },
    ]);

    const s2 = await startTestServer({ home: s1.home, env });
    servers.push(s2);
    const api = adminClient(s2);
    expect(await api.panes.get.query({ id: pane.id })).toMatchObject({ lifecycle: "exited", exitCode: 5, live: false });
    expect(await everything(api, pane.id)).toEqual(["finished"]);
    expect((await api.events.list.query({ paneId: pane.id, type: "pane.lost" })).events).toEqual([]);
    expect(existsSync(path.join(s1.home, "host/pending.json"))).toBe(false);
  });
});

describe("a new pane host", () => {
  it("waits for the server that started it, however short its idle time: a server slow to connect still finds it", async () => {
    const home = mkdtempSync(path.join(os.tmpdir(), "yard-ph-first-"));
    dirs.push(home);
    const env = { YARD_HOST_IDLE_MS: "200" };
    // Started as a server starts it, and then no server for five times its idle time.
    const host = spawn(process.execPath, [path.join(ROOT, "server/dist/panehost.mjs"), "--home", home], {
      env: { ...process.env, ...env },
      stdio: "ignore",
      detached: true,
    });
    host.unref();
    const hostPid = await waitFor(() => paneHostPid(home), { what: "the host's pid file" });
    expect(hostPid).toBe(host.pid);
    await new Promise((r) => setTimeout(r, 1000));
    expect(isAlive(hostPid)).toBe(true);

    const s = await startTestServer({ home, env });
    servers.push(s);
    expect(paneHostPid(home)).toBe(hostPid);
    expect(await hostStatus(home)).toMatchObject({ hostPid, serverPid: s.proc.pid });
    // Once a server has attached, the idle time applies: with no server and no pane it exits.
    await s.stop();
    await waitFor(() => !isAlive(hostPid), { timeoutMs: 10_000, what: "the host to go idle once its server left" });
  });
});

describe("stopping", () => {
  it("SIGTERM and `yard stop` leave the agents running; `yard stop --all` ends them and the pane host", async () => {
    const tmp = mkdtempSync(path.join(os.tmpdir(), "yard-ph-stop-"));
    dirs.push(tmp);
    const s1 = await startTestServer();
    servers.push(s1);
    let api = adminClient(s1);
    const pidFile = path.join(tmp, "agent.pid");
    const pane = await api.panes.spawn.mutate({
      argv: ["sh", "-c", `echo $$ > ${pidFile}; echo started; exec sleep 600`],
      cwd: tmp,
    });
    const agentPid = Number(
      await waitFor(() => (existsSync(pidFile) ? readFileSync(pidFile, "utf8").trim() || null : null), {
        what: "the agent's pid",
      }),
    );
    const hostPid = paneHostPid(s1.home)!;

    expect(await s1.stop()).toBe(0); // SIGTERM
    expect(isAlive(agentPid)).toBe(true);
    expect(await hostStatus(s1.home)).toMatchObject({ hostPid, serverPid: null, running: 1 });

    const s2 = await startTestServer({ home: s1.home });
    servers.push(s2);
    api = adminClient(s2);
    expect(await api.panes.get.query({ id: pane.id })).toMatchObject({ live: true, pid: agentPid });
    const stop = await yard(s2, ["--json", "stop"]);
    expect(stop.code, stop.stderr).toBe(0);
    expect(stop.json).toMatchObject({ stopped: { server: true, host: false }, agents: 1, all: false, exited: true });
    expect(await s2.stop()).toBe(0); // (already exited: this only collects its exit code)
    expect(isAlive(agentPid)).toBe(true);

    const s3 = await startTestServer({ home: s1.home });
    servers.push(s3);
    const all = await yard(s3, ["--json", "stop", "--all"]);
    expect(all.code, all.stderr).toBe(0);
    expect(all.json).toMatchObject({ stopped: { server: true, host: true }, agents: 1, all: true, exited: true });
    expect(isAlive(agentPid)).toBe(false);
    expect(isAlive(hostPid)).toBe(false);
    expect(existsSync(path.join(s1.home, "host/host.sock"))).toBe(false);
    // The agent's exit was recorded before the server stopped: the next server shows it, not a loss.
    const s4 = await startTestServer({ home: s1.home });
    servers.push(s4);
    const info = await adminClient(s4).panes.get.query({ id: pane.id });
    expect(info).toMatchObject({ lifecycle: "exited", live: false });
    expect((await adminClient(s4).events.list.query({ paneId: pane.id, type: "pane.lost" })).events).toEqual([]);
  });

  it("a restarted server refuses a port taken meanwhile (its agents' YARD_URL points there), saying so, and reattaches once it is free", async () => {
    const tmp = mkdtempSync(path.join(os.tmpdir(), "yard-ph-port-"));
    dirs.push(tmp);
    const s1 = await startTestServer();
    servers.push(s1);
    const pane = await adminClient(s1).panes.spawn.mutate({ argv: ["sleep", "600"], cwd: tmp });
    s1.proc.kill("SIGKILL");
    await s1.stop();
    const squatter = net.createServer();
    await new Promise<void>((resolve) => squatter.listen(s1.port, "127.0.0.1", () => resolve()));
    try {
      await expect(startTestServer({ home: s1.home })).rejects.toThrow(
        new RegExp(
          `Port ${s1.port} is already in use, and 1 agent\\(s\\) still running in the pane host expect the server there`,
        ),
      );
    } finally {
      await new Promise((r) => squatter.close(r));
    }
    const s2 = await startTestServer({ home: s1.home });
    servers.push(s2);
    expect(s2.port).toBe(s1.port);
    expect(await adminClient(s2).panes.get.query({ id: pane.id })).toMatchObject({ live: true });
  });
});
