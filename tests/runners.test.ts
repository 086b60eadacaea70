// Runners over SSH, against a real OpenSSH server (tests/helpers/sshd.ts): a runner is added, its
// unknown host key refused with the fingerprints it presents (never accepted blindly), a wrong
// fingerprint refused with nothing trusted, the right one trusted, then the check logs in with the
// given key and finds node there; a changed host key (a reinstalled machine) is refused as such.
// `install` copies the pane host kit there (node is all it needs), whose host then runs a terminal,
// also when started there and reached over SSH (a forwarded socket): a cut connection is reopened
// and the same pane found running; a host that dies there is reported lost. Git there: a task's
// worktree from its base commit, its branch back into the board's repository (a rewritten one refused).
// A task started with --runner runs its agent there end to end (its `yard` reaching the board
// through the socket forwarded there), its work comes back for the diff and the merge, it survives a
// cut connection, and fails as runner_lost when the runner's pane host dies.
// Input that ssh could read as an option, unknown runners and non-admin callers are refused.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { RunnerGit } from "../server/core/runners/git";
import { RemoteHost } from "../server/core/runners/remote-host";
import type { SshTarget } from "../server/core/runners/ssh";
import { PaneHostClient } from "../server/panehost/client";
import { adminClient, clientWithToken, errorOf } from "./helpers/client";
import { git, makeRepo, removeRepo } from "./helpers/git";
import { hostStatus } from "./helpers/panehost";
import { startTestServer, type TestServer, yard } from "./helpers/server";
import { SSHD_AVAILABLE, startSshd, type TestSshd } from "./helpers/sshd";
import { waitFor } from "./helpers/wait";

/** A runner out of reach keeps its tasks for 3 s (not the default minute): the grace test waits on it. */
const SERVER_ENV = { YARD_RUNNER_GRACE_MS: "3000" };

describe.runIf(SSHD_AVAILABLE)("runners over SSH", () => {
  let server: TestServer;
  let sshd: TestSshd;
  let scratch: string;
  let knownHosts: string;

  beforeAll(async () => {
    [server, sshd] = await Promise.all([startTestServer({ env: SERVER_ENV }), startSshd()]);
    scratch = mkdtempSync(path.join(os.tmpdir(), "yard-runners-"));
    knownHosts = path.join(scratch, "known_hosts"); // empty: the user's own known_hosts stays out of it
    writeFileSync(knownHosts, "");
  });
  // A failed test shows what the board printed (a server that died says why there).
  afterEach((ctx) => {
    if (ctx.task.result?.state === "fail") console.error(`board output:\n${server?.output().slice(-6000)}`);
  });
  afterAll(async () => {
    await Promise.all([server?.dispose(), sshd?.stop()]);
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  /** How the board reaches runner build-1 (its trusted key, the test's known_hosts). */
  const runnerTarget = (): SshTarget => ({
    user: sshd.user,
    host: "127.0.0.1",
    port: sshd.port,
    identityFile: sshd.identity,
    knownHostsFiles: [path.join(server.home, "runners", "build-1", "known_hosts"), knownHosts],
  });

  async function cli(args: string[]) {
    return yard(server, ["--json", ...args]);
  }

  type Started = {
    task: { id: string; runner: string | null };
    pane: { id: string; pid: number; cwd: string; runner: string };
  };
  /** A demo agent's task started on build-1 (`extra`: more start flags). */
  async function startOnRunner(project: string, objective: string, ...extra: string[]): Promise<Started> {
    const args = ["task", "start", "--project", project, "--runner", "build-1", "--objective", objective, ...extra];
    const r = await cli(args);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    return r.json as Started;
  }
  /** A project for `repo` on the current server (some tests restart it: `server` is read at each call). */
  const addProject = async (repo: string): Promise<string> =>
    (await adminClient(server).projects.add.mutate({ path: repo, trustAgents: false })).id;
  const stateOf = async (id: string): Promise<string> => (await adminClient(server).tasks.get.query({ id })).state;
  /** Waits for task `id` to be in `state`, as the current server says; a timeout names the state it was in. */
  const reach = async (id: string, state: string, what: string, timeoutMs?: number) => {
    let last = "";
    try {
      await waitFor(async () => (last = await stateOf(id)) === state, { what, timeoutMs });
    } catch (e) {
      const t = await adminClient(server)
        .tasks.get.query({ id })
        .catch(() => null);
      throw new Error(`${(e as Error).message}: the task is ${last}, evidence ${JSON.stringify(t?.evidence ?? null)}`);
    }
  };

  it("refuses an unknown host key with its fingerprint, a wrong fingerprint, then trusts the right one and finds node", async () => {
    const added = await cli([
      "runner",
      "add",
      "build-1",
      "--ssh",
      `${sshd.user}@127.0.0.1:${sshd.port}`,
      "--identity",
      sshd.identity,
      "--known-hosts",
      knownHosts,
      "--labels",
      "linux,big",
      "--capacity",
      "2",
    ]);
    expect(added.code, added.stdout + added.stderr).toBe(0);
    expect(added.json).toMatchObject({
      name: "build-1",
      port: sshd.port,
      labels: ["linux", "big"],
      capacity: 2,
      fingerprint: null,
    });

    const unknown = await cli(["runner", "check", "build-1"]);
    expect(unknown.code).toBe(1);
    expect(unknown.json.error.code).toBe("HOST_KEY_UNKNOWN");
    expect(unknown.json.error.message).toContain(sshd.fingerprint);
    expect(unknown.json.error.details.fingerprints).toContainEqual({ type: "ED25519", fingerprint: sshd.fingerprint });
    const trustedFile = path.join(server.home, "runners", "build-1", "known_hosts");
    expect(existsSync(trustedFile)).toBe(false); // nothing accepted on the way
    expect(readFileSync(knownHosts, "utf8")).toBe("");

    const wrong = await cli(["runner", "trust", "build-1", "--fingerprint", `SHA256:${"A".repeat(43)}`]);
    expect(wrong.json.error.code).toBe("CONFLICT");
    expect(wrong.json.error.message).toContain(sshd.fingerprint);
    expect(existsSync(trustedFile)).toBe(false);

    const trusted = await cli(["runner", "trust", "build-1", "--fingerprint", sshd.fingerprint]);
    expect(trusted.code, trusted.stdout + trusted.stderr).toBe(0);
    expect(trusted.json).toEqual({ name: "build-1", fingerprint: sshd.fingerprint, type: "ED25519" });

    const ok = await cli(["runner", "check", "build-1"]);
    expect(ok.code, ok.stdout + ok.stderr).toBe(0);
    expect(ok.json).toMatchObject({ ok: true, node: process.version, error: null });
    const listed = (await cli(["runner", "list"])).json.runners;
    expect(listed).toEqual([
      expect.objectContaining({
        name: "build-1",
        fingerprint: sshd.fingerprint,
        lastCheck: expect.objectContaining({ ok: true }),
      }),
    ]);
  }, 60_000);

  it("installs this board's pane host kit on the runner, whose host then runs a terminal from it", async () => {
    const before = (await cli(["runner", "check", "build-1"])).json;
    expect(before.kit).toMatchObject({ installed: false });
    const installed = await cli(["runner", "install", "build-1"]);
    expect(installed.code, installed.stdout + installed.stderr).toBe(0);
    const kit = installed.json;
    expect(kit).toMatchObject({ name: "build-1", kit: before.kit.name, already: false });
    expect(kit.dir).toBe(path.join(sshd.dataHome, "switchyard-runner", kit.kit));
    expect(kit.files).toBeGreaterThan(10);
    expect(existsSync(path.join(kit.dir, "panehost.mjs"))).toBe(true);
    expect(existsSync(path.join(kit.dir, "node_modules/node-pty/package.json"))).toBe(true);
    expect(existsSync(`${kit.dir}.partial`)).toBe(false);
    expect((await cli(["runner", "check", "build-1"])).json.kit).toEqual({ name: kit.kit, installed: true });
    expect((await cli(["runner", "install", "build-1"])).json).toMatchObject({ already: true });

    // The kit's pane host (with the kit's own node-pty and xterm, nothing from this repository)
    // starts, runs a program in a terminal and reads its screen.
    const home = mkdtempSync(path.join(os.tmpdir(), "yard-kit-home-"));
    const host = await PaneHostClient.open({ home, log: () => {}, entry: path.join(kit.dir, "panehost.mjs") });
    try {
      await host.ready();
      const paneId = "panekit0001";
      await host.request("spawn", {
        paneId,
        argv: ["sh", "-c", "echo from-the-kit; sleep 5"],
        env: { PATH: process.env.PATH ?? "/usr/bin:/bin" },
        cwd: home,
        cols: 80,
        rows: 24,
        scrollback: 1000,
      });
      await waitFor(
        async () => (await host.request("read", { paneId, mode: "screen" })).text.includes("from-the-kit"),
        {
          what: "the kit's terminal to show the program's output",
        },
      );
      expect(readFileSync(`/proc/${host.hello.hostPid}/cmdline`, "utf8")).toContain(kit.dir);
    } finally {
      await host.shutdown().catch(() => {});
      rmSync(home, { recursive: true, force: true });
    }
  }, 120_000);

  it("runs a terminal in the runner's pane host over SSH, keeps it through a cut connection, and says when the host dies", async () => {
    const kitName = (await cli(["runner", "check", "build-1"])).json.kit.name as string;
    const local = mkdtempSync(path.join(os.tmpdir(), "yard-remote-host-"));
    const access = new RemoteHost({
      target: runnerTarget(),
      kit: kitName,
      dir: path.join(local, "forward"),
      where: "runner build-1",
    });
    const events: string[] = [];
    const host = await PaneHostClient.open({ home: local, log: () => {}, access });
    host.events = {
      reattached: (panes) => events.push(`reattached:${panes.map((p) => p.paneId).join(",")}`),
      lost: (why) => events.push(`lost:${why}`),
    };
    try {
      await host.ready();
      // The host runs there: from the kit, with the runner's data dir.
      const cmdline = readFileSync(`/proc/${host.hello.hostPid}/cmdline`, "utf8").split("\0");
      expect(cmdline).toContain(path.join(sshd.dataHome, "switchyard-runner", kitName, "panehost.mjs"));
      expect(cmdline).toContain(path.join(sshd.dataHome, "switchyard-runner", "home"));
      const paneId = "paneremote001";
      await host.request("spawn", {
        paneId,
        argv: ["sh", "-c", "echo remote-$((6*7)); sleep 120"],
        env: { PATH: "/usr/bin:/bin" },
        cwd: sshd.dataHome,
        cols: 80,
        rows: 24,
        scrollback: 1000,
      });
      const screen = async () => (await host.request("read", { paneId, mode: "screen" })).text;
      await waitFor(async () => (await screen()).includes("remote-42"), { what: "the remote terminal's output" });

      // The connection is cut (the forward's ssh dies): the host lives on there, the client opens
      // a new forward, finds the same host and the same pane, still running.
      const forward = access.forwardPid!;
      process.kill(forward, "SIGKILL");
      await waitFor(() => events.some((e) => e.startsWith("reattached:")), { what: "the client to reattach" });
      expect(events).toEqual([`reattached:${paneId}`]);
      expect(access.forwardPid).not.toBe(forward);
      expect(await screen()).toContain("remote-42");
      expect((await host.request("list", {})).panes).toEqual([expect.objectContaining({ paneId, state: "running" })]);

      // The machine is out of reach for a while (its sshd down, the connection cut): the client
      // keeps asking with backoff, and once it is back finds the same pane still running.
      events.length = 0;
      await sshd.down();
      process.kill(access.forwardPid!, "SIGKILL");
      await new Promise((r) => setTimeout(r, 1500)); // a few refused tries (waiting on nothing to happen)
      expect(events).toEqual([]); // not declared lost
      await sshd.up();
      await waitFor(() => events.some((e) => e.startsWith("reattached:")), {
        what: "the client to reattach once the runner is back",
        timeoutMs: 30_000,
      });
      expect(events).toEqual([`reattached:${paneId}`]);
      expect(await screen()).toContain("remote-42");

      // The host itself dies there: its panes are gone, and the client says so.
      process.kill(host.hello.hostPid, "SIGKILL");
      await waitFor(() => events.includes("lost:pane_host_died"), { what: "the client to report the host lost" });
    } finally {
      await host.detach().catch(() => {});
      access.close();
      rmSync(local, { recursive: true, force: true });
    }
  }, 120_000);

  it("makes a task's worktree there from its base commit, brings its branch back, and refuses a rewritten one", async () => {
    const repo = makeRepo("yard-runner-board-");
    try {
      writeFileSync(path.join(repo, "base.txt"), "the board's base\n");
      git(repo, "add", "base.txt");
      git(repo, "commit", "-q", "-m", "base");
      const base = git(repo, "rev-parse", "HEAD");
      const rg = new RunnerGit({
        target: runnerTarget(),
        where: "runner build-1",
        repo,
      });
      const task = { projectId: "prjgit", taskId: "tskgit", branch: "yard/task-git", baseSha: base };
      const wt = await rg.prepare(task);
      expect(wt).toEqual({ path: path.join(sshd.dataHome, "switchyard-runner", "worktrees", "tskgit"), head: base });
      expect(readFileSync(path.join(wt.path, "base.txt"), "utf8")).toBe("the board's base\n");
      const first = await rg.collect(task); // nothing new yet: the base, and a snapshot of the same tree
      expect(first.commit).toBe(base);
      expect(git(repo, "rev-parse", `${first.worktree}^{tree}`)).toBe(git(repo, "rev-parse", `${base}^{tree}`));

      // The agent works there and commits, and leaves a file uncommitted; the board takes both back.
      writeFileSync(path.join(wt.path, "work.txt"), "done on the runner\n");
      git(wt.path, "add", "work.txt");
      git(wt.path, "commit", "-q", "-m", "work");
      writeFileSync(path.join(wt.path, "draft.txt"), "not committed yet\n");
      const back = await rg.collect(task);
      expect(back.commit).toBe(git(wt.path, "rev-parse", "HEAD"));
      expect(git(repo, "show", `${back.ref}:work.txt`)).toBe("done on the runner");
      expect(git(repo, "show", `${back.worktree}:draft.txt`)).toBe("not committed yet");
      expect(git(repo, "rev-parse", `${back.worktree}^`)).toBe(back.commit);

      // History rewritten there (the branch moved to an unrelated root) is refused; the ref stays.
      git(wt.path, "checkout", "-q", "--orphan", "elsewhere");
      git(wt.path, "commit", "-q", "-m", "not the task's work");
      git(wt.path, "branch", "-f", "yard/task-git", "HEAD");
      await expect(rg.collect(task)).rejects.toMatchObject({ code: "CONFLICT" });
      expect(git(repo, "rev-parse", back.ref)).toBe(back.commit);

      // A branch name the remote shell would run (backticks) travels encoded: nothing runs there.
      const marker = path.join(scratch, "pwned");
      const hostile = { ...task, taskId: "tskhostile", branch: `yard/p\`touch\${IFS}${marker}\`` };
      const made = await rg.prepare(hostile).then(
        (w) => git(w.path, "rev-parse", "--abbrev-ref", "HEAD"),
        (e: { code?: string }) => e.code,
      );
      expect([hostile.branch, "BAD_PARAMS"]).toContain(made);
      expect(existsSync(marker)).toBe(false);
    } finally {
      removeRepo(repo);
    }
  }, 120_000);

  it("runs a task's agent on the runner end to end: its work comes back for review and merges; a cut connection keeps it; a dead host fails it as runner_lost", async () => {
    const repo = makeRepo("yard-runner-task-");
    const api = adminClient(server);
    try {
      const project = await addProject(repo);
      const start = (title: string, objective: string) => startOnRunner(project, objective, "--title", title);

      // The agent runs there, in the task's worktree there, and reports through the board's
      // socket forwarded there (its `yard` is the kit's).
      const t1 = await start(
        "On the runner",
        "write notes.txt written on the runner; commit Add notes; report completed Done on the runner",
      );
      expect(t1.task.runner).toBe("build-1");
      expect(t1.pane.runner).toBe("build-1");
      expect(t1.pane.cwd).toBe(path.join(sshd.dataHome, "switchyard-runner", "worktrees", t1.task.id));
      await reach(t1.task.id, "completed", "the runner's agent to report completed", 60_000);
      const got = await api.tasks.get.query({ id: t1.task.id });
      expect(got.result?.summary).toBe("Done on the runner");
      // The turn's end brought the work back into the board's worktree of the task (no diff read yet).
      const mirrored = path.join(got.worktreePath!, "notes.txt");
      await waitFor(() => existsSync(mirrored), { what: "the turn's work in the board's worktree" });
      expect(readFileSync(mirrored, "utf8")).toBe("written on the runner\n");
      const cardOf = async () =>
        Object.values(await api.board.get.query({ projectId: project }))
          .flat()
          .find((c) => c.id === t1.task.id);
      expect((await cardOf())?.runner).toBe("build-1");
      // …and the card's diff size counts it (the work came back after the state change: counted again then).
      await waitFor(async () => (await cardOf())?.diffStat?.files === 1, {
        what: "the card to count the runner's file",
      });
      expect((await cardOf())?.diffStat).toMatchObject({ files: 1, additions: 1, deletions: 0 });

      // Its work came back: the board's diff shows the runner's commit, and the merge lands it.
      const d = await api.tasks.diff.query({ id: t1.task.id });
      expect(d.files.map((f: { path: string }) => f.path)).toEqual(["notes.txt"]);
      expect(existsSync(path.join(repo, "notes.txt"))).toBe(false);
      const merged = await cli(["task", "finish", t1.task.id, "--merge"]);
      expect(merged.code, merged.stdout + merged.stderr).toBe(0);
      expect(readFileSync(path.join(repo, "notes.txt"), "utf8")).toBe("written on the runner\n");
      // Finished: its worktree on the runner is gone too.
      expect(existsSync(t1.pane.cwd)).toBe(false);

      // The connection is cut (the forward's ssh killed): the agent keeps working there, and its
      // turn's end still reaches the board over the new forward.
      const t2 = await start("Through a cut", "sleep 3000; write cut.txt survived the cut; report completed Survived");
      await reach(t2.task.id, "working", "the second agent to work");
      const forwards = sshForwards(path.join(server.home, "runners", "build-1", "fwd"));
      expect(forwards.length).toBeGreaterThan(0);
      for (const pid of forwards) process.kill(pid, "SIGKILL");
      await reach(t2.task.id, "completed", "the agent to finish after the cut", 60_000);
      expect((await api.tasks.diff.query({ id: t2.task.id })).files.map((f: { path: string }) => f.path)).toEqual([
        "cut.txt",
      ]);

      // The runner's pane host dies: its task fails as runner_lost; the work that came back stays.
      const t3 = await start("Lost with its host", "sleep 600000");
      await reach(t3.task.id, "working", "the third agent to work");
      // The board keeps a copy of a runner pane's screen (taken at each change and every few seconds).
      await waitFor(
        async () => (await api.panes.read.query({ id: t3.pane.id, mode: "screen" })).text.includes("Working for"),
        { what: "the agent to show its work" },
      );
      const shown = Date.now();
      const copy = path.join(server.home, "screens", `${t3.pane.id}.json`);
      await waitFor(() => existsSync(copy) && Date.parse(JSON.parse(readFileSync(copy, "utf8")).savedAt) > shown, {
        what: "the board's copy of the runner pane's screen",
        timeoutMs: 20_000,
      });
      const hostPid = Number(
        readFileSync(path.join(sshd.dataHome, "switchyard-runner", "home", "host", "host.pid"), "utf8").trim(),
      );
      process.kill(hostPid, "SIGKILL");
      await reach(t3.task.id, "failed", "the task to fail as runner_lost");
      const failed = await api.tasks.get.query({ id: t3.task.id });
      expect(failed.evidence).toMatchObject({ reason: "runner_lost" });
      // Its last screen is the board's copy: the agent at work when the runner was lost.
      const last = await api.panes.read.query({ id: t3.pane.id, mode: "screen" });
      expect(last.text).toContain("Working for 600000 ms");
      expect((await api.tasks.get.query({ id: t2.task.id })).state).toBe("completed");
    } finally {
      await removeRepo(repo);
    }
  }, 180_000);

  it("places tasks by name, labels or the project's default runner, within each runner's capacity", async () => {
    const repo = makeRepo("yard-runner-place-");
    const api = adminClient(server);
    const started: string[] = [];
    try {
      const project = await addProject(repo);
      const start = (...extra: string[]) =>
        cli(["task", "start", "--project", project, "--agent", "demo", "--objective", "sleep 600000", ...extra]);
      const ok = async (...extra: string[]) => {
        const r = await start(...extra);
        expect(r.code, r.stdout + r.stderr).toBe(0);
        started.push(r.json.task.id);
        return r.json.task as { id: string; runner: string | null };
      };

      expect((await start("--runner", "nowhere")).json.error).toMatchObject({ code: "NOT_FOUND" });
      expect((await start("--labels", "gpu")).json.error).toMatchObject({ code: "NOT_FOUND" });
      expect((await start("--runner", "build-1", "--sandbox")).json.error).toMatchObject({ code: "BAD_PARAMS" });
      expect((await start("--runner", "build-1", "--labels", "linux")).json.error).toMatchObject({
        code: "BAD_PARAMS",
      });

      // Starts refused after build-1's place was reserved (a base that does not resolve) give it back.
      for (let i = 0; i < 2; i++)
        expect((await start("--runner", "build-1", "--base", "no-such-ref")).code).not.toBe(0);

      // By labels (build-1 carries linux and big), then by the project's default.
      expect((await ok("--labels", "linux,big")).runner).toBe("build-1");
      const set = await cli(["project", "set", project, "--runner", "build-1"]);
      expect(set.code, set.stdout + set.stderr).toBe(0);
      expect(set.json.project.defaultRunner).toBe("build-1");
      expect((await ok()).runner).toBe("build-1");

      // build-1's capacity is 2: a third start there is refused, naming it; nothing was created.
      const before = (await api.tasks.list.query({ projectId: project })).length;
      const full = await start("--runner", "build-1");
      expect(full.json.error).toMatchObject({ code: "RATE_LIMITED", details: { runner: "build-1", capacity: 2 } });
      expect((await start("--labels", "linux")).json.error).toMatchObject({ code: "RATE_LIMITED" });
      expect((await api.tasks.list.query({ projectId: project })).length).toBe(before);

      // A runner running tasks is not removed.
      expect((await cli(["runner", "remove", "build-1"])).json.error).toMatchObject({ code: "CONFLICT" });
      expect((await cli(["runner", "list"])).json.runners.map((r: { name: string }) => r.name)).toContain("build-1");

      // The project back on this machine: a start runs here, outside the runner's count.
      expect((await cli(["project", "set", project, "--runner", "none"])).json.project.defaultRunner).toBeNull();
      expect((await ok()).runner).toBeNull();
    } finally {
      for (const id of started) await cli(["task", "cancel", id]);
      await removeRepo(repo);
    }
  }, 120_000);

  it("runs a repository's setup on the runner: its files copied into the worktree there, its commands there before the agent", async () => {
    const repo = makeRepo("yard-runner-setup-");
    try {
      writeFileSync(path.join(repo, ".env.local"), "SECRET=from-the-board\n"); // untracked: setup copies it
      const project = await addProject(repo);
      const config = JSON.stringify({
        setup: ['echo "ran-there $PORT" > setup-ran.txt'],
        copy: [".env.local"],
        ports: 1,
        teardown: ['echo "torn down $PORT $YARD_TASK" > ../torn-down.txt'],
      });
      const set = await cli(["project", "set", project, "--config", config]);
      expect(set.code, set.stdout + set.stderr).toBe(0);
      const first = await startOnRunner(project, "report completed Set up");
      const id = first.task.id;
      await reach(id, "completed", "the agent after the setup", 60_000);
      const there = path.join(sshd.dataHome, "switchyard-runner", "worktrees", id);
      expect(readFileSync(path.join(there, ".env.local"), "utf8")).toBe("SECRET=from-the-board\n");
      // The task's port reaches its setup there.
      const ran = /^ran-there (\d+)\n$/.exec(readFileSync(path.join(there, "setup-ran.txt"), "utf8"));
      expect(ran).not.toBeNull();
      // Its agent ends: the next round runs in a new pane there, with the environment the task
      // recorded (its port again), and no path of the board's checkout (one on this machine, not there).
      process.kill(first.pane.pid, "SIGTERM");
      await waitFor(() => !alive(first.pane.pid), { what: "the first round's agent to exit" });
      const review = await cli(["task", "review", id, "--request-changes", "--summary", "One more round"]);
      expect(review.code, review.stdout + review.stderr).toBe(0);
      const round2 = await waitFor(
        async () => {
          const p = (await adminClient(server).tasks.get.query({ id })).paneId;
          return p && p !== first.pane.id ? p : null;
        },
        { what: "the second round's pane" },
      );
      const pid = (await adminClient(server).panes.get.query({ id: round2 })).pid!;
      const environ = readFileSync(`/proc/${pid}/environ`, "utf8").split("\0");
      expect(environ).toContain(`PORT=${ran![1]}`);
      expect(environ.filter((v) => v.startsWith("YARD_MAIN_CHECKOUT="))).toEqual([]);
      expect(readFileSync(`/proc/${pid}/cwd/setup-ran.txt`, "utf8")).toBe(`ran-there ${ran![1]}\n`); // there, in its worktree
      const boardWorktree = (await adminClient(server).tasks.get.query({ id })).worktreePath!;
      const discarded = await cli(["task", "finish", id, "--discard", "--force"]);
      expect(discarded.code, discarded.stdout + discarded.stderr).toBe(0);
      expect(existsSync(there)).toBe(false);
      // Its teardown ran where the agent ran, in its worktree there before it went, with its port.
      const teardown = await adminClient(server).events.list.query({ taskId: id, type: "task.teardown" });
      expect(teardown.events[0]?.payload).toMatchObject({ ok: true, skipped: null, commands: [{ exitCode: 0 }] });
      expect(readFileSync(path.join(there, "..", "torn-down.txt"), "utf8")).toBe(`torn down ${ran![1]} ${id}\n`);
      expect(existsSync(path.join(boardWorktree, "..", "torn-down.txt"))).toBe(false); // not run here instead

      // A start that fails after its worktree there was made (its setup file cannot be written
      // there: at the base asked for, that path is a directory) leaves no worktree there.
      mkdirSync(path.join(repo, "local.env"));
      writeFileSync(path.join(repo, "local.env", "keep"), "a directory at this commit\n");
      git(repo, "add", "local.env");
      git(repo, "commit", "-q", "-m", "local.env as a directory");
      const old = git(repo, "rev-parse", "HEAD");
      git(repo, "rm", "-q", "-r", "local.env");
      git(repo, "commit", "-q", "-m", "local.env no longer tracked");
      writeFileSync(path.join(repo, "local.env"), "FROM=the-board\n");
      expect((await cli(["project", "set", project, "--config", JSON.stringify({ copy: ["local.env"] })])).code).toBe(
        0,
      );
      const worktreesThere = () => readdirSync(path.join(sshd.dataHome, "switchyard-runner", "worktrees"));
      const before = worktreesThere();
      const refused = await cli([
        "task",
        "start",
        "--project",
        project,
        "--runner",
        "build-1",
        "--base",
        old,
        "--objective",
        "report completed No",
      ]);
      expect(refused.code, refused.stdout + refused.stderr).not.toBe(0);
      expect(refused.json.error.message).toContain("setup files were not written there");
      expect(worktreesThere()).toEqual(before);
    } finally {
      await removeRepo(repo);
    }
  }, 120_000);

  it("keeps a runner's agent through a board restart: the new server reattaches to it there", async () => {
    const repo = makeRepo("yard-runner-restart-");
    try {
      const project = await addProject(repo);
      const { task, pane } = await startOnRunner(
        project,
        "sleep 5000; write kept.txt kept through a restart; report completed Kept",
      );
      await reach(task.id, "working", "the agent to work");

      await server.stop();
      server = await startTestServer({ home: server.home, env: SERVER_ENV });
      const api = adminClient(server);
      const again = await api.panes.get.query({ id: pane.id });
      expect(again).toMatchObject({ live: true, runner: "build-1", pid: pane.pid });
      const reattached = await api.events.list.query({ paneId: pane.id, type: "pane.reattached" });
      expect(reattached.events.length).toBe(1);
      await reach(task.id, "completed", "the agent to finish after the restart", 60_000);
      expect((await api.tasks.diff.query({ id: task.id })).files.map((f: { path: string }) => f.path)).toEqual([
        "kept.txt",
      ]);
    } finally {
      await removeRepo(repo);
    }
  }, 120_000);

  it("keeps a hook the runner's agent posts while the board restarts in the host there, and the new board gets it", async () => {
    const repo = makeRepo("yard-runner-relay-");
    try {
      const project = await addProject(repo);
      // The question comes 10 s in: well after the board below has stopped.
      const { task, pane } = await startOnRunner(
        project,
        "sleep 10000; ask Deploy now?",
        "--title",
        "Asks while the board restarts",
      );
      const runnerHome = path.join(sshd.dataHome, "switchyard-runner", "home");
      await reach(task.id, "working", "the agent to work");
      const environ = readFileSync(`/proc/${pane.pid}/environ`, "utf8").split("\0");
      const relay = path.join(sshd.dataHome, "switchyard-runner", "home", "run", "hook.sock");
      expect(environ).toContain(`YARD_HOOK_SOCKET=${relay}`);
      await server.stop();
      try {
        // The permission hook, posted while no board listens, waits in the runner's pane host.
        await waitFor(
          async () => {
            const st = await hostStatus(runnerHome);
            return st.queue.some((q) => q.paneId === pane.id && q.kind === "hook" && q.event === "PermissionRequest");
          },
          { what: "the agent's hook kept by the runner's host", timeoutMs: 30_000 },
        );
      } finally {
        server = await startTestServer({ home: server.home, env: SERVER_ENV });
      }
      const api = adminClient(server);
      await waitFor(async () => (await api.panes.get.query({ id: pane.id })).lifecycle === "blocked", {
        what: "the pane blocked by the relayed hook",
      });
      await api.panes.sendKeys.mutate({ id: pane.id, text: "y" });
      await reach(task.id, "input_required", "the turn to end once answered", 30_000);
      expect((await hostStatus(runnerHome)).queue.filter((q) => q.paneId === pane.id)).toEqual([]);
    } finally {
      await removeRepo(repo);
    }
  }, 120_000);

  it("fails a runner's task as runner_lost once the runner is out of reach past the grace period, and ends its agent there when it is back", async () => {
    const repo = makeRepo("yard-runner-grace-");
    const api = adminClient(server);
    try {
      const project = await addProject(repo);
      const start = (objective: string) => startOnRunner(project, objective);
      const t = await start("sleep 600000");
      await reach(t.task.id, "working", "the agent to work");

      // The machine drops off the network: no new connection, and the board's forward is gone.
      await sshd.down();
      for (const pid of sshForwards(path.join(server.home, "runners", "build-1", "fwd"))) process.kill(pid, "SIGKILL");
      await reach(t.task.id, "failed", "the task to fail once the grace period is over", 30_000);
      expect((await api.tasks.get.query({ id: t.task.id })).evidence).toMatchObject({ reason: "runner_lost" });
      expect(alive(t.pane.pid)).toBe(true); // it ran on there, out of the board's reach

      // Back: the next task there runs, and the agent given up is ended there.
      await sshd.up();
      const next = await start("report completed Back");
      await reach(next.task.id, "completed", "a task on the runner once it is back", 60_000);
      await waitFor(() => !alive(t.pane.pid), { what: "the given-up agent to be ended there" });
    } finally {
      await removeRepo(repo);
    }
  }, 120_000);

  it("keeps a runner's task through a board start while the runner is out of reach, and fails it as runner_lost once the grace period ends", async () => {
    const repo = makeRepo("yard-runner-start-away-");
    try {
      const project = await addProject(repo);
      const { task } = await startOnRunner(project, "sleep 600000");
      await reach(task.id, "working", "the agent to work");

      await server.stop();
      await sshd.down();
      try {
        server = await startTestServer({ home: server.home, env: { YARD_RUNNER_GRACE_MS: "8000" } });
        expect(await stateOf(task.id)).toBe("working"); // not judged lost at start: the runner may be back in time
        await reach(task.id, "failed", "the task to fail once the grace period is over", 30_000);
        expect((await adminClient(server).tasks.get.query({ id: task.id })).evidence).toMatchObject({
          reason: "runner_lost",
        });
      } finally {
        await sshd.up();
      }
    } finally {
      await removeRepo(repo);
    }
  }, 120_000);

  it("refuses a changed host key as a changed one, and keeps the old trust", async () => {
    const before = sshd.fingerprint;
    const now = await sshd.rekey();
    expect(now).not.toBe(before);
    const changed = await cli(["runner", "check", "build-1"]);
    expect(changed.json.error.code).toBe("HOST_KEY_CHANGED");
    expect((await adminClient(server).runners.get.query({ name: "build-1" })).fingerprint).toBe(before);
    expect((await adminClient(server).runners.get.query({ name: "build-1" })).lastCheck).toMatchObject({
      ok: false,
      error: { code: "HOST_KEY_CHANGED" },
    });
  }, 60_000);

  it("says why an unreachable runner or a refused key fails", async () => {
    const stranger = path.join(scratch, "stranger");
    const { execFileSync } = await import("node:child_process");
    execFileSync("ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-f", stranger]);
    await cli([
      "runner",
      "add",
      "locked-out",
      "--ssh",
      `${sshd.user}@127.0.0.1:${sshd.port}`,
      "--identity",
      stranger,
      "--known-hosts",
      knownHosts,
    ]);
    expect((await cli(["runner", "trust", "locked-out", "--fingerprint", sshd.fingerprint])).code).toBe(0);
    const refused = await cli(["runner", "check", "locked-out"]);
    expect(refused.json.error).toMatchObject({ code: "RUNNER_UNAVAILABLE" });
    expect(refused.json.error.message).toMatch(/Permission denied/);

    await cli(["runner", "add", "nowhere", "--ssh", `${sshd.user}@127.0.0.1:1`, "--known-hosts", knownHosts]);
    const down = await cli(["runner", "check", "nowhere"]);
    expect(down.json.error.code).toBe("RUNNER_UNAVAILABLE");
    expect(down.json.error.message).toMatch(/cannot be reached|no SSH host key/);
  }, 60_000);

  it("refuses what ssh could read as an option, a missing key file, a duplicate, and non-admins", async () => {
    for (const ssh of [
      "-oProxyCommand=touch /tmp/pwned@x",
      "me@-oProxyCommand=x",
      "me@host:99999",
      "me@host name",
      "@host",
    ]) {
      const r = await cli(["runner", "add", "evil", "--ssh", ssh]);
      expect(r.json?.error?.code, ssh).toBe("BAD_PARAMS");
    }
    expect((await cli(["runner", "add", "-x", "--ssh", "me@host"])).code).not.toBe(0);
    const missing = await cli(["runner", "add", "nokey", "--ssh", "me@host", "--identity", "/nonexistent/key"]);
    expect(missing.json.error).toMatchObject({ code: "BAD_PARAMS" });
    expect((await cli(["runner", "add", "build-1", "--ssh", "me@host"])).json.error.code).toBe("CONFLICT");
    expect((await cli(["runner", "check", "ghost"])).json.error.code).toBe("NOT_FOUND");
    expect((await adminClient(server).runners.list.query()).map((r) => r.name).sort()).toEqual([
      "build-1",
      "locked-out",
      "nowhere",
    ]);

    const member = await adminClient(server).people.add.mutate({ name: "mo", role: "reviewer" });
    const token = (await adminClient(server).people.createToken.mutate({ user: member.person.name })).token;
    expect(await errorOf(() => clientWithToken(server, token).runners.list.query())).toMatchObject({
      code: "FORBIDDEN",
    });

    const removed = await cli(["runner", "remove", "build-1"]);
    expect(removed.json).toEqual({ removed: "build-1" });
    expect(existsSync(path.join(server.home, "runners", "build-1"))).toBe(false);
  }, 60_000);
});

/** The ssh processes forwarding a runner's host socket into `dir` (the board's connection to it). */
function sshForwards(dir: string): number[] {
  const pids: number[] = [];
  for (const e of readdirSync("/proc")) {
    if (!/^\d+$/.test(e)) continue;
    try {
      const argv = readFileSync(`/proc/${e}/cmdline`, "utf8").split("\0");
      if (path.basename(argv[0] ?? "") === "ssh" && argv.some((a) => a.startsWith(`${dir}/`))) pids.push(Number(e));
    } catch {}
  }
  return pids;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
