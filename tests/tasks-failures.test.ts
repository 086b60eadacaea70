// Task failure paths, each separate: refused merges (dirty target, dirty source, conflict),
// crashes, the concurrency cap, stalled submits, report permissions, validation, cancel,
// discard, and restart with completed and running tasks. Real server, git, PTYs, demo agent.
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { adminClient, clientWithToken, errorOf } from "./helpers/client";
import { git } from "./helpers/git";
import { ROOT, startTestServer, stopPaneHost, type TestServer, yard } from "./helpers/server";
import { scratch } from "./helpers/scratch";
import { waitFor } from "./helpers/wait";
import { startRecordingWorker } from "./helpers/worker";

// Each test drives real agents through whole turns; on a loaded 2-core machine that takes a while.
vi.setConfig({ testTimeout: 120_000 });

let server: TestServer;
let api: ReturnType<typeof adminClient>;
const dirs = scratch("yard-tf-");
const tmp = dirs.tmp;
const repoWith = dirs.repo;

beforeAll(async () => {
  server = await startTestServer({ env: { YARD_MAX_ACTIVE_TASKS: "3" } });
  api = adminClient(server);
});
afterAll(async () => {
  await server?.dispose();
  dirs.cleanup();
});

async function startDemo(repo: string, objective: string, extra: Record<string, unknown> = {}) {
  return api.tasks.start.mutate({ repoPath: repo, objective, agent: "demo", ...extra });
}
const waitState = (id: string, until: string, timeoutMs = 60_000) =>
  api.tasks.wait.query({ id, until, timeoutMs }).then((r) => r.tasks[0]!);

describe("merge refusals", () => {
  it("refuses a dirty target and changes nothing", async () => {
    const repo = repoWith();
    const { task } = await startDemo(repo, "write f.txt one\ncommit add f\nreport completed done");
    await waitState(task.id, "completed");
    writeFileSync(path.join(repo, "README.md"), "local edit\n");
    const head = git(repo, "rev-parse", "HEAD");
    const err = await errorOf(() => api.tasks.finish.mutate({ id: task.id, merge: {} }));
    expect(err.code).toBe("DIRTY_TARGET");
    expect(git(repo, "rev-parse", "HEAD")).toBe(head);
    expect(readFileSync(path.join(repo, "README.md"), "utf8")).toBe("local edit\n");
    expect((await api.tasks.get.query({ id: task.id })).disposition).toBeNull();
    expect(existsSync(task.worktreePath!)).toBe(true);
  });

  it("refuses a dirty source unless --ignore-dirty, and never commits the uncommitted work", async () => {
    const repo = repoWith();
    const { task } = await startDemo(
      repo,
      "write kept.txt committed\ncommit add kept\nuntracked loose.txt\nreport completed done",
    );
    await waitState(task.id, "completed");
    const cli = await yard(server, ["--json", "task", "finish", task.id, "--merge"]);
    expect(cli.code).toBe(1);
    expect(cli.json.error.code).toBe("DIRTY_SOURCE");
    const ok = await api.tasks.finish.mutate({ id: task.id, merge: { ignoreDirty: true, keepBranch: true } });
    expect(ok.task.disposition).toBe("merged");
    expect(existsSync(path.join(repo, "kept.txt"))).toBe(true);
    expect(existsSync(path.join(repo, "loose.txt"))).toBe(false);
    expect(git(repo, "branch", "--list", task.branch!)).toContain(task.branch!);
    expect(git(repo, "log", "--format=%s", "-3")).not.toMatch(/loose/);
  });

  it("aborts a conflicting merge, leaves the target clean and names the files", async () => {
    const repo = repoWith();
    const { task } = await startDemo(repo, "write README.md from the task\ncommit task readme\nreport completed done");
    await waitState(task.id, "completed");
    writeFileSync(path.join(repo, "README.md"), "from main\n");
    git(repo, "commit", "-qam", "main readme");
    const head = git(repo, "rev-parse", "HEAD");
    const err = await errorOf(() => api.tasks.finish.mutate({ id: task.id, merge: {} }));
    expect(err.code).toBe("MERGE_CONFLICT");
    expect(err.details).toMatchObject({ files: ["README.md"] });
    expect(git(repo, "status", "--porcelain")).toBe("");
    expect(git(repo, "rev-parse", "HEAD")).toBe(head);
    const t = await api.tasks.get.query({ id: task.id });
    expect(t).toMatchObject({ state: "completed", disposition: null });
    const ev = await api.tasks.events.query({ id: task.id });
    expect(ev.events.some((e) => e.type === "task.merge_failed" && e.payload.code === "MERGE_CONFLICT")).toBe(true);
  });

  it("refuses to merge a task that is not completed, or into a branch that is not checked out", async () => {
    const repo = repoWith();
    git(repo, "branch", "other");
    const { task } = await startDemo(repo, "ask wait here\nreport completed done");
    await waitState(task.id, "working");
    expect((await errorOf(() => api.tasks.finish.mutate({ id: task.id, merge: {} }))).code).toBe("TASK_NOT_COMPLETED");
    await api.panes.sendKeys.mutate({ id: task.paneId!, text: "y" });
    await waitState(task.id, "completed");
    const wrong = await errorOf(() => api.tasks.finish.mutate({ id: task.id, merge: { target: "other" } }));
    expect(wrong).toMatchObject({ code: "BAD_PARAMS", details: { expected: "other", actual: "main" } });
  });
});

describe("worker failures", () => {
  it("a crashing worker fails its task with evidence, exactly once", async () => {
    const repo = repoWith();
    const { task } = await startDemo(repo, "crash 3");
    const t = await waitState(task.id, "terminal");
    expect(t.state).toBe("failed");
    expect(t.evidence).toMatchObject({ reason: "pane_exited", exitCode: 3, lastLifecycle: "working" });
    const states = (await api.tasks.events.query({ id: task.id })).events
      .filter((e) => e.type === "task.state")
      .map((e) => e.payload.to);
    expect(states).toEqual(["working", "failed"]);
    expect(existsSync(t.worktreePath!)).toBe(true);
  });

  it("a stalled submit leaves the task input_required with submit_unconfirmed evidence", async () => {
    const repo = repoWith();
    const { task } = await startDemo(repo, "ignore", { stallMs: 800 });
    const t = await waitState(task.id, "settled");
    expect(t.state).toBe("input_required");
    expect(t.evidence).toMatchObject({ stage: "submit_unconfirmed" });
  });

  it("a pending task's pane refuses prompts with AGENT_NOT_READY", async () => {
    const repo = repoWith();
    const demo = path.join(ROOT, "agents/demo/demo-agent.mjs");
    const { task, pane } = await api.tasks.start.mutate({
      repoPath: repo,
      objective: "print hi\nreport completed hi",
      argv: ["env", "DEMO_START_DELAY_MS=4000", process.execPath, demo],
    });
    await waitFor(async () => (await api.panes.get.query({ id: pane!.id })).lifecycle !== "unknown");
    const err = await errorOf(() => api.panes.submit.mutate({ id: pane!.id, text: "hello" }));
    expect(err.code).toBe("AGENT_NOT_READY");
    expect((await api.tasks.get.query({ id: task.id })).state).toBe("pending");
    await waitState(task.id, "terminal");
  });

  it("a ready timeout fails the task with its stage", async () => {
    const repo = repoWith();
    const { task } = await api.tasks.start.mutate({
      repoPath: repo,
      objective: "x",
      argv: ["sh", "-c", "while :; do echo busy; sleep 0.1; done"],
      readyTimeoutMs: 1000,
    });
    const t = await waitState(task.id, "terminal");
    expect(t).toMatchObject({ state: "failed", evidence: { stage: "ready_timeout" } });
    await api.panes.kill.mutate({ id: t.paneId! });
  });
});

describe("reports", () => {
  it("come from the worker's own pane: unknown → NOT_FOUND, foreign → FORBIDDEN, terminal → CONFLICT", async () => {
    const repo = repoWith();
    const { task, env } = await startRecordingWorker(api, repo);
    expect(env.YARD_TASK).toBe(task.id);
    const other = await startDemo(repoWith(), "ask hold\nreport completed x");
    const worker = clientWithToken(server, env.YARD_TOKEN!);
    expect(
      (
        await errorOf(() =>
          worker.tasks.report.mutate({ taskId: other.task.id, status: "completed", summary: "not mine" }),
        )
      ).code,
    ).toBe("FORBIDDEN");
    expect(
      (await errorOf(() => worker.tasks.report.mutate({ taskId: "tsknotthere00", status: "completed", summary: "x" })))
        .code,
    ).toBe("NOT_FOUND");
    expect((await errorOf(() => worker.tasks.start.mutate({ repoPath: repo, objective: "sneaky" }))).code).toBe(
      "FORBIDDEN",
    );
    const cli = await yard(
      server,
      [
        "--json",
        "task",
        "report",
        "--status",
        "completed",
        "--summary",
        "did it",
        "--changed-file",
        "x.txt",
        "--evidence",
        '{"tests":3}',
      ],
      { env },
    );
    expect(cli.code, cli.stdout).toBe(0);
    expect(cli.json.task).toMatchObject({
      id: task.id,
      state: "completed",
      result: {
        status: "completed",
        summary: "did it",
        changedFiles: ["x.txt"],
        artifacts: [],
        evidence: { tests: 3 },
      },
    });
    const again = await yard(
      server,
      ["--json", "task", "report", "--status", "failed", "--summary", "changed my mind"],
      { env },
    );
    expect(again.json.error.code).toBe("CONFLICT");
    expect((await api.tasks.get.query({ id: task.id })).result?.summary).toBe("did it");
    const events = await yard(server, ["--json", "events", "--type", "task.*", "--task", task.id]);
    expect(events.json.events.map((e: any) => e.type)).toEqual(
      expect.arrayContaining(["task.created", "task.result", "task.state"]),
    );
    await api.tasks.cancel.mutate({ id: other.task.id });
    await api.panes.kill.mutate({ id: task.paneId! });
  });
});

describe("start validation and the cap", () => {
  it("refuses bad input synchronously and creates nothing", async () => {
    const repo = repoWith();
    const empty = tmp();
    git(empty, "init", "-q");
    const before = (await api.tasks.list.query()).length;
    const branchesBefore = git(repo, "branch", "--list");
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ repoPath: repo, objective: "" }, "BAD_PARAMS"],
      [{ objective: "no repo" }, "BAD_PARAMS"],
      [{ repoPath: repo, objective: "x", branch: "bad..name" }, "BAD_PARAMS"],
      [{ repoPath: repo, objective: "x", branch: "-oops" }, "BAD_PARAMS"],
      [{ repoPath: repo, objective: "x", baseRef: "no-such-ref" }, "BAD_PARAMS"],
      [{ repoPath: empty, objective: "x" }, "BAD_PARAMS"],
      [{ repoPath: tmp(), objective: "x" }, "BAD_PARAMS"],
      [{ repoPath: repo, objective: "x", agent: "nobody" }, "NOT_FOUND"],
      [{ projectId: "prjmissing000", objective: "x" }, "NOT_FOUND"],
    ];
    for (const [input, code] of cases) {
      const err = await errorOf(() => api.tasks.start.mutate(input as never));
      expect([JSON.stringify(input), err.code]).toEqual([JSON.stringify(input), code]);
    }
    expect((await api.tasks.list.query()).length).toBe(before);
    expect(git(repo, "branch", "--list")).toBe(branchesBefore);
    // Nothing under the worktree root belongs to this repository (its folder is <name>-<hash>).
    const wtRoot = path.join(server.home, "worktrees");
    expect(
      existsSync(wtRoot) ? readdirSync(wtRoot).filter((d) => d.startsWith(`${path.basename(repo)}-`)) : [],
    ).toEqual([]);
  });

  it("refuses a start over the cap with RATE_LIMITED and creates nothing", async () => {
    const s = await startTestServer({ env: { YARD_MAX_ACTIVE_TASKS: "2" } });
    try {
      const a = adminClient(s);
      const repo = repoWith();
      for (let i = 0; i < 2; i++)
        await a.tasks.start.mutate({ repoPath: repo, objective: "ask hold on\nreport completed ok", agent: "demo" });
      const branches = git(repo, "branch", "--list");
      const wtRoot = path.join(s.home, "worktrees");
      const wts = readdirSync(path.join(wtRoot, readdirSync(wtRoot)[0]!));
      const err = await errorOf(() => a.tasks.start.mutate({ repoPath: repo, objective: "third", agent: "demo" }));
      expect(err).toMatchObject({ code: "RATE_LIMITED", details: { active: 2, cap: 2 } });
      expect((await a.tasks.list.query()).length).toBe(2);
      expect(git(repo, "branch", "--list")).toBe(branches);
      expect(readdirSync(path.join(wtRoot, readdirSync(wtRoot)[0]!))).toEqual(wts);
    } finally {
      await s.dispose();
    }
  });
});

describe("wait", () => {
  it("an empty context succeeds at once, an unknown task is NOT_FOUND, and a timeout is TIMEOUT", async () => {
    expect(await api.tasks.wait.query({ contextId: "nobody-here" })).toEqual({ tasks: [] });
    expect((await errorOf(() => api.tasks.wait.query({ id: "tsknotthere00" }))).code).toBe("NOT_FOUND");
    expect((await errorOf(() => api.tasks.wait.query({ contextId: "x", until: "sideways" }))).code).toBe("BAD_PARAMS");
    const repo = repoWith();
    const { task } = await startDemo(repo, "ask hold on\nreport completed ok", { contextId: "waiting-ctx" });
    await waitState(task.id, "working");
    const cli = await yard(server, [
      "--json",
      "task",
      "wait",
      "--context",
      "waiting-ctx",
      "--until",
      "terminal",
      "--timeout-ms",
      "500",
    ]);
    expect(cli.code).toBe(1);
    expect(cli.json.error).toMatchObject({
      code: "TIMEOUT",
      details: { timeoutMs: 500, tasks: [{ id: task.id, state: "working" }] },
    });
    await api.tasks.cancel.mutate({ id: task.id });
  });
});

describe("cancel and discard", () => {
  it("cancel stops the worker and keeps worktree and branch; discard removes only the worktree", async () => {
    const repo = repoWith();
    const { task } = await startDemo(repo, "write w.txt x\nask hold\nreport completed ok");
    await waitState(task.id, "working");
    const c = await yard(server, ["--json", "task", "cancel", task.id]);
    expect(c.json.task.state).toBe("canceled");
    expect((await api.panes.get.query({ id: task.paneId! })).lifecycle).toBe("exited");
    expect(existsSync(task.worktreePath!)).toBe(true);
    expect(git(repo, "branch", "--list", task.branch!)).toContain(task.branch!);
    expect((await errorOf(() => api.tasks.cancel.mutate({ id: task.id }))).code).toBe("CONFLICT");
    const d = await api.tasks.finish.mutate({ id: task.id, discard: { deleteBranch: true } });
    expect(d.task.disposition).toBe("discarded");
    expect(existsSync(task.worktreePath!)).toBe(false);
    expect(git(repo, "branch", "--list", task.branch!)).toBe("");
  });

  it("discarding a running task stops its worker and records it canceled, not crashed", async () => {
    const repo = repoWith();
    const { task } = await startDemo(repo, "write w.txt x\nask hold\nreport completed ok");
    await waitState(task.id, "working");
    const d = await yard(server, ["--json", "task", "finish", task.id, "--discard"]);
    expect(d.code, d.stdout).toBe(0);
    expect(d.json.task).toMatchObject({ state: "canceled", disposition: "discarded", evidence: null });
    expect(existsSync(task.worktreePath!)).toBe(false);
    expect(git(repo, "branch", "--list", task.branch!)).toContain(task.branch!);
    expect((await api.panes.get.query({ id: task.paneId! })).lifecycle).toBe("exited");
  });

  it("adopts an existing branch as pre-existing and never deletes it", async () => {
    const repo = repoWith();
    git(repo, "branch", "feature/keep");
    const tip = git(repo, "rev-parse", "feature/keep");
    const { task } = await startDemo(repo, "report completed nothing to do", { branch: "feature/keep" });
    expect(task.branchPreexisting).toBe(true);
    await waitState(task.id, "completed");
    await api.tasks.finish.mutate({ id: task.id, discard: { deleteBranch: true } });
    expect(git(repo, "rev-parse", "feature/keep")).toBe(tip);
  });
});

describe("restart", () => {
  // A server restart alone keeps running tasks working (tests/pane-host.test.ts); here the pane host
  // dies with it (a crash of both, a reboot), so the running agents are gone.
  it("keeps completed tasks intact and fails running ones whose agents died with evidence, worktrees kept", async () => {
    const s = await startTestServer();
    const repo = repoWith();
    let a = adminClient(s);
    const done = await a.tasks.start.mutate({
      repoPath: repo,
      objective: "write done.txt ok\ncommit done\nreport completed finished",
      agent: "demo",
    });
    await a.tasks.wait.query({ id: done.task.id, until: "completed", timeoutMs: 60_000 });
    const running: Array<{ id: string; paneId: string | null; worktreePath: string | null }> = [];
    for (let i = 0; i < 2; i++)
      running.push(
        (
          await a.tasks.start.mutate({
            repoPath: repo,
            objective: `write r${i}.txt wip\nask hold\nreport completed ok`,
            agent: "demo",
          })
        ).task,
      );
    for (const t of running) await a.tasks.wait.query({ id: t.id, until: "working", timeoutMs: 60_000 });
    await waitFor(async () => (await a.panes.get.query({ id: running[1]!.paneId! })).lifecycle === "blocked");
    s.proc.kill("SIGKILL"); // a crash: no graceful shutdown
    await s.stop();
    await stopPaneHost(s.home, "SIGKILL"); // and the agents' pane host with it
    const s2 = await startTestServer({ home: s.home });
    try {
      a = adminClient(s2);
      const d = await a.tasks.get.query({ id: done.task.id });
      expect(d).toMatchObject({ state: "completed", result: { summary: "finished" } });
      expect((await a.tasks.diff.query({ id: done.task.id })).files.map((f) => f.path)).toEqual(["done.txt"]);
      for (const t of running) {
        const r = await a.tasks.get.query({ id: t.id });
        expect(r.state).toBe("failed");
        expect(r.evidence).toMatchObject({ reason: "server_restart" });
        expect(["working", "blocked"]).toContain(r.evidence!.lastLifecycle);
        expect(existsSync(t.worktreePath!)).toBe(true);
        expect((await a.tasks.diff.query({ id: t.id })).files.length).toBeGreaterThan(0);
      }
    } finally {
      await s2.dispose();
    }
  });
});
