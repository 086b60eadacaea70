// Orchestration end to end through the real server, the `yard` CLI and the demo agent:
// dependencies with auto-start (merged by default, so the dependent's base has the work), cycles
// refused, a failed dependency leaving its dependent waiting with the reason, waiting across a
// server restart; a worker's question answered through the thread; results acknowledged; the
// role gates as a pane token meets them; whoami, guide and registered worktrees.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { adminClient, clientWithToken, errorOf } from "./helpers/client";
import { git, makeRepo } from "./helpers/git";
import { orchestratorPane } from "./helpers/orchestrator";
import { type CliResult, startTestServer, type TestServer, yard } from "./helpers/server";
import { waitFor } from "./helpers/wait";

let server: TestServer;
let scratch: string;
const repos: string[] = [];

beforeAll(async () => {
  server = await startTestServer();
  scratch = mkdtempSync(path.join(os.tmpdir(), "yard-orchestration-"));
});
afterAll(async () => {
  await server?.dispose();
  for (const r of repos) rmSync(r, { recursive: true, force: true });
  rmSync(scratch, { recursive: true, force: true });
});

/** Stops the server (the agents keep running in the pane host) and starts it again on the same data dir. */
async function restart() {
  await server.stop();
  server = await startTestServer({ home: server.home });
}

const repo = () => {
  const r = makeRepo();
  repos.push(r);
  return r;
};

/** `yard --json …` that must succeed. */
async function ok(args: string[], env?: Record<string, string>): Promise<any> {
  const r = await yard(server, ["--json", ...args], { env });
  expect(r.code, r.stdout + r.stderr).toBe(0);
  expect(r.json, r.stdout).toBeDefined();
  return r.json;
}
/** `yard --json …` that must fail with `code`. */
async function refused(args: string[], code: string, env?: Record<string, string>): Promise<CliResult & { json: any }> {
  const r = await yard(server, ["--json", ...args], { env });
  expect(r.code, r.stdout + r.stderr).not.toBe(0);
  expect(r.json?.error?.code, r.stdout).toBe(code);
  return r as CliResult & { json: any };
}

/**
 * A task as `yard task get` shows it, read through the same tRPC client without starting a CLI
 * process: for polls, which would otherwise start one every 50 ms while they wait.
 */
const taskNow = async (id: string): Promise<any> => adminClient(server).tasks.get.query({ id });

const settled = async (id: string, env?: Record<string, string>) =>
  (await ok(["task", "wait", id, "--timeout-ms", "60000"], env)).tasks[0];

describe("dependencies", () => {
  it("a task waits in the backlog for its dependency, starts by itself once it is merged, on a base with its work", async () => {
    const root = repo();
    const a = await ok([
      "task",
      "start",
      "--repo",
      root,
      "--title",
      "A",
      "--objective",
      "write a.txt from-A\ncommit add a.txt\nreport completed wrote a.txt",
    ]);
    const b = await ok([
      "task",
      "start",
      "--repo",
      root,
      "--title",
      "B",
      "--depends-on",
      a.task.id,
      "--objective",
      "write b.txt from-B\ncommit add b.txt\nreport completed wrote b.txt",
    ]);
    expect(b.pane).toBeNull();
    expect(b.task).toMatchObject({ state: "backlog", statusLine: `Waits for ${a.task.id} to be merged` });
    expect(b.task.waiting).toMatchObject({ ready: false, dependencies: [{ id: a.task.id, met: false, stuck: null }] });

    expect(await settled(a.task.id)).toMatchObject({ state: "completed" });
    // Completed is not merged: B still waits.
    expect((await ok(["task", "get", b.task.id])).task.state).toBe("backlog");
    await ok(["task", "finish", a.task.id, "--merge"]);
    const started = await waitFor(
      async () => {
        const t = await taskNow(b.task.id);
        return t.state !== "backlog" ? t : null;
      },
      { timeoutMs: 30_000, what: "B to start by itself" },
    );
    expect(started.baseSha).toBe(git(root, "rev-parse", "main"));
    expect(readFileSync(path.join(started.worktreePath, "a.txt"), "utf8")).toBe("from-A\n");
    expect(await settled(b.task.id)).toMatchObject({ state: "completed", waiting: { ready: true } });
    const events = (await ok(["task", "events", b.task.id])).events.map((e: any) => e.type);
    expect(events).toContain("task.auto_started");
  });

  it("with --start-when completed it starts once the dependency completed", async () => {
    const root = repo();
    // A waits in the backlog until B is recorded: started at once, it could complete first.
    const a = await ok(["task", "start", "--repo", root, "--backlog", "--objective", "report completed nothing to do"]);
    const b = await ok([
      "task",
      "start",
      "--repo",
      root,
      "--depends-on",
      a.task.id,
      "--start-when",
      "completed",
      "--objective",
      "report completed after A",
    ]);
    expect(b.task.state).toBe("backlog");
    await ok(["task", "start-backlog", a.task.id]);
    expect(await settled(b.task.id)).toMatchObject({ state: "completed" });
    expect(await settled(a.task.id)).toMatchObject({ state: "completed" });
  });

  it("refuses a cycle with CONFLICT naming it, and an unknown dependency with NOT_FOUND, creating nothing", async () => {
    const root = repo();
    const x = await ok([
      "task",
      "start",
      "--repo",
      root,
      "--backlog",
      "--title",
      "X",
      "--objective",
      "report completed x",
    ]);
    const y = await ok([
      "task",
      "start",
      "--repo",
      root,
      "--depends-on",
      x.task.id,
      "--title",
      "Y",
      "--objective",
      "report completed y",
    ]);
    const r = await refused(["task", "depend", x.task.id, "--on", y.task.id], "CONFLICT");
    expect(r.json.error.message).toContain(`${x.task.id} → ${y.task.id} → ${x.task.id}`);
    expect(r.json.error.details.cycle).toEqual([x.task.id, y.task.id, x.task.id]);
    expect((await ok(["task", "get", x.task.id])).task.waiting).toBeNull();
    const before = (await ok(["task", "list"])).tasks.length;
    await refused(
      ["task", "start", "--repo", root, "--depends-on", "tsknosuchtask", "--objective", "never"],
      "NOT_FOUND",
    );
    expect((await ok(["task", "list"])).tasks.length).toBe(before);
    // Removing Y's dependency lets it start (its auto-start rule stays).
    const removed = await ok(["task", "depend", y.task.id, "--on", x.task.id, "--remove"]);
    expect(removed.started).toBe(true);
    expect(await settled(y.task.id)).toMatchObject({ state: "completed" });
  });

  it("the board's cards say what a backlog task waits for and list its dependencies", async () => {
    const root = repo();
    const project = (await ok(["project", "add", root, "--name", "deps-board"])).project;
    const x = await ok([
      "task",
      "start",
      "--project",
      project.id,
      "--backlog",
      "--title",
      "X",
      "--objective",
      "report completed x",
    ]);
    const y = await ok([
      "task",
      "start",
      "--project",
      project.id,
      "--depends-on",
      x.task.id,
      "--title",
      "Y",
      "--objective",
      "report completed y",
    ]);
    const board = await adminClient(server).board.get.query({ projectId: project.id });
    expect(board.backlog).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          id: y.task.id,
          waiting: `Waits for ${x.task.id} to be merged`,
          dependsOn: [x.task.id],
        }),
        expect.objectContaining({ id: x.task.id, waiting: null, dependsOn: [] }),
      ]),
    );
  });

  it("a failed dependency leaves its dependent waiting with the reason, never started", async () => {
    const root = repo();
    const f = await ok(["task", "start", "--repo", root, "--objective", "report failed could not"]);
    const d = await ok([
      "task",
      "start",
      "--repo",
      root,
      "--depends-on",
      f.task.id,
      "--objective",
      "report completed d",
    ]);
    expect(await settled(f.task.id)).toMatchObject({ state: "failed" });
    const t = await waitFor(async () => {
      const v = await taskNow(d.task.id);
      return v.waiting?.dependencies[0]?.stuck ? v : null;
    });
    expect(t.state).toBe("backlog");
    expect(t.statusLine).toMatch(new RegExp(`^Blocked: ${f.task.id} was failed`));
    expect(t.worktreePath).toBeNull();
  });

  it("keeps waiting across a server restart and starts after it", async () => {
    const root = repo();
    const a = await ok(["task", "start", "--repo", root, "--objective", "write a.txt A\ncommit a\nreport completed a"]);
    const b = await ok([
      "task",
      "start",
      "--repo",
      root,
      "--depends-on",
      a.task.id,
      "--objective",
      "report completed b",
    ]);
    expect(await settled(a.task.id)).toMatchObject({ state: "completed" });
    await restart();
    expect((await ok(["task", "get", b.task.id])).task).toMatchObject({ state: "backlog", waiting: { ready: false } });
    await ok(["task", "finish", a.task.id, "--merge"]);
    expect(await settled(b.task.id)).toMatchObject({ state: "completed" });
  });
});

describe("questions, answers and acknowledgements", () => {
  it("a worker asks, its orchestrator answers through the submit gate, and acknowledges the result", async () => {
    const root = repo();
    const api = adminClient(server);
    const { pane: orch, env } = await orchestratorPane(api, scratch);
    const answer = "write port.txt 8080; commit set the port; report completed port set";
    const t = await ok(
      ["task", "start", "--repo", root, "--objective", 'run-yard task ask "Which port should I use?"'],
      env,
    );
    const asked = await settled(t.task.id, env);
    expect(asked).toMatchObject({
      state: "input_required",
      evidence: { reason: "question", question: "Which port should I use?" },
    });
    const thread = await ok(["task", "thread", t.task.id], env);
    expect(thread.messages).toMatchObject([{ kind: "question", body: "Which port should I use?", author: t.pane.id }]);
    expect(thread.openQuestion).toBe(thread.messages[0].id);

    const a = await ok(["task", "answer", t.task.id, answer], env);
    expect(a.message).toMatchObject({ kind: "answer", replyTo: thread.messages[0].id, author: orch.id });
    expect(await settled(t.task.id, env)).toMatchObject({ state: "completed" });
    expect(readFileSync(path.join(t.task.worktreePath, "port.txt"), "utf8")).toBe("8080\n");
    expect((await ok(["task", "thread", t.task.id], env)).openQuestion).toBeNull();

    // The result waits in the orchestrator's attention until it acknowledges it.
    const items = (await ok(["attention"], env)).items;
    expect(items).toContainEqual(expect.objectContaining({ taskId: t.task.id, reason: "result_unacknowledged" }));
    expect((await ok(["attention"])).items.some((i: any) => i.reason === "result_unacknowledged")).toBe(false);
    const ack = await ok(["task", "ack", t.task.id], env);
    expect(ack).toMatchObject({ id: t.task.id, alreadyAcknowledged: false });
    expect(
      (await ok(["attention"], env)).items.some(
        (i: any) => i.taskId === t.task.id && i.reason === "result_unacknowledged",
      ),
    ).toBe(false);
    expect((await ok(["task", "get", t.task.id], env)).task.acknowledgedAt).toBe(ack.acknowledgedAt);

    // Kept across a restart.
    await restart();
    expect((await ok(["task", "thread", t.task.id])).messages.map((m: any) => m.kind)).toEqual(["question", "answer"]);
  });

  it("refuses an answer the worker cannot take (not waiting) and records nothing", async () => {
    const root = repo();
    const t = await ok(["task", "start", "--repo", root, "--objective", "report completed done"]);
    expect(await settled(t.task.id)).toMatchObject({ state: "completed" });
    await refused(["task", "answer", t.task.id, "too late"], "CONFLICT");
    expect((await ok(["task", "thread", t.task.id])).messages).toEqual([]);
    // ask is for a task's own pane
    await refused(["task", "ask", "anyone?"], "BAD_PARAMS");
  });
});

describe("role gates, whoami, guide and extra worktrees", () => {
  it("a worker may read only itself and report; it is refused the orchestrator's procedures; whoami says who it is", async () => {
    const root = repo();
    const api = adminClient(server);
    const { env: orchEnv } = await orchestratorPane(api, scratch);
    const other = await ok(["task", "start", "--repo", root, "--objective", "report completed other"]);
    // The worker records its own environment and whoami, makes an extra worktree and registers it, then waits.
    const wt = path.join(scratch, `extra-${Date.now()}`);
    git(root, "worktree", "add", "-q", "-b", "extra-branch", wt);
    const t = await ok(
      [
        "task",
        "start",
        "--repo",
        root,
        "--context",
        "gates",
        "--objective",
        `run-yard --json whoami\nrun-yard task register-worktree ${wt} --branch extra-branch\nrun-yard task register-worktree ${root}\nrun-yard task get ${other.task.id}\nrun-yard task list\nreport completed checked`,
      ],
      orchEnv,
    );
    expect(await settled(t.task.id, orchEnv)).toMatchObject({ state: "completed" });
    const screen = (await ok(["pane", "read", t.pane.id, "--mode", "tail", "--lines", "200"])).text as string;
    expect(screen).toContain(`{"role":"worker","paneId":"${t.pane.id}","task":{"id":"${t.task.id}"`);
    expect(screen).toContain(`A worker pane may not touch task ${other.task.id} [FORBIDDEN]`);
    expect(screen).toContain("A worker pane may not call tasks.list (open to: person, orchestrator) [FORBIDDEN]");
    expect(screen).toContain("the repository's main checkout, not an extra worktree [BAD_PARAMS]");
    const listed = await ok(["task", "worktrees", t.task.id], orchEnv);
    expect(listed.worktrees).toEqual([{ path: wt, branch: "extra-branch", createdAt: expect.any(String) }]);

    // An orchestrator pane may not touch a task it did not start.
    const r = await refused(["task", "cancel", other.task.id], "FORBIDDEN", orchEnv);
    expect(r.json.error.message).toContain(other.task.id);
    // Nor see it in its list: it lists what it started.
    const visible = (await ok(["task", "list"], orchEnv)).tasks.map((x: any) => x.id);
    expect(visible).toContain(t.task.id);
    expect(visible).not.toContain(other.task.id);
    // Nor wait on it: a wait on a context waits on, and returns, only the tasks the pane may see.
    const byPerson = await ok([
      "task",
      "start",
      "--repo",
      root,
      "--context",
      "gates",
      "--objective",
      "report completed by the person",
    ]);
    expect(
      (await ok(["task", "wait", "--context", "gates", "--timeout-ms", "30000"], orchEnv)).tasks.map((x: any) => x.id),
    ).toEqual([t.task.id]);
    const { env: otherOrchEnv } = await orchestratorPane(api, scratch);
    expect((await ok(["task", "wait", "--context", "gates", "--timeout-ms", "30000"], otherOrchEnv)).tasks).toEqual([]);
    expect(
      (await ok(["task", "wait", "--context", "gates", "--timeout-ms", "30000"])).tasks.map((x: any) => x.id).sort(),
    ).toEqual([t.task.id, byPerson.task.id].sort());
    // The same for panes and the event journal.
    const panes = (await ok(["pane", "list"], orchEnv)).panes.map((p: any) => p.id);
    expect(panes).toContain(t.pane.id);
    expect(panes).not.toContain(other.pane.id);
    const events = (await ok(["events", "--type", "task.*"], orchEnv)).events;
    expect(events.some((e: any) => e.taskId === t.task.id)).toBe(true);
    expect(events.some((e: any) => e.taskId === other.task.id)).toBe(false);
    // The person sees everything, and whoami says so.
    expect(await ok(["whoami"])).toMatchObject({ role: "person", paneId: null, task: null });
    expect(await ok(["whoami"], orchEnv)).toMatchObject({ role: "orchestrator", task: null });
  });

  it("installs the orchestrator skill for Claude Code in one command", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "yard-skill-"));
    try {
      const r = await ok(["skill", "install"], { CLAUDE_CONFIG_DIR: dir });
      expect(r.installed).toBe(path.join(dir, "skills", "switchyard-orchestrator", "SKILL.md"));
      const text = readFileSync(r.installed, "utf8");
      expect(text).toMatch(/^---\nname: switchyard-orchestrator\ndescription: .+\n---\n/);
      expect(text).toContain("yard task start");
      expect(text).toContain("yard plan review");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("prints the guide per role and refuses an unknown one", async () => {
    const g = await ok(["guide", "worker"]);
    expect(g.guide).toContain("yard task ask");
    expect(g.guide).toContain("FORBIDDEN");
    expect((await ok(["guide"])).role).toBe("orchestrator");
    await refused(["guide", "boss"], "BAD_PARAMS");
  });
});

describe("the agent reviewer stage", () => {
  it("a reviewer agent requests changes once (round 2 runs), then approves; the task waits for a person with the agent's reviews", async () => {
    const root = repo();
    // The reviewer is the demo agent with a script: its first run comments and requests changes
    // (the feedback's lines are directives the demo worker carries out), its second run approves.
    const script = path.join(scratch, `reviewer-${Date.now()}.txt`);
    writeFileSync(
      script,
      [
        'run-yard task comment {env.YARD_TASK} --path a.txt --line 1 "commit say hello"',
        'run-yard task comment {env.YARD_TASK} --path a.txt --line 1 "report completed said hello"',
        'run-yard task review {env.YARD_TASK} --request-changes --summary "write a.txt hello"',
        "---",
        'run-yard task review {env.YARD_TASK} --approve --summary "looks good"',
      ].join("\n"),
    );
    const profile = `rev-${Date.now().toString(36)}`;
    await ok([
      "agent",
      "add",
      profile,
      "--role",
      "reviewer",
      "--hooks",
      "--",
      "{{node}}",
      "{{yardRoot}}/agents/demo/demo-agent.mjs",
      "--script",
      script,
    ]);
    const project = (await ok(["project", "add", root])).project;
    expect((await ok(["project", "set", project.id, "--reviewer", profile])).project.reviewerProfile).toBe(profile);

    const t = await ok([
      "task",
      "start",
      "--project",
      project.id,
      "--objective",
      "write a.txt hi\ncommit a\nreport completed wrote a",
    ]);
    const approved = await waitFor(
      async () => {
        const v = await taskNow(t.task.id);
        return v.agentReview.state === "approved" ? v : null;
      },
      { timeoutMs: 90_000, what: "the agent reviewer to approve" },
    ).catch(async (e: Error) => {
      const events = (await ok(["task", "events", t.task.id])).events.map(
        (x: any) => `${x.type} ${JSON.stringify(x.payload).slice(0, 200)}`,
      );
      const rp = (await ok(["task", "get", t.task.id])).task.agentReview.paneId;
      const screen = rp ? (await ok(["pane", "read", rp, "--mode", "tail", "--lines", "60"])).text : "";
      throw new Error(`${e.message}\n${events.join("\n")}\n${screen}`);
    });
    expect(approved).toMatchObject({ state: "completed", round: 2, agentReview: { reviewer: profile, runs: 2 } });
    expect(readFileSync(path.join(approved.worktreePath, "a.txt"), "utf8")).toBe("hello\n");
    const reviews = (await ok(["task", "reviews", t.task.id])).reviews;
    expect(reviews.map((r: any) => [r.round, r.stage, r.verdict])).toEqual([
      [1, "agent", "changes_requested"],
      [2, "agent", "approved"],
    ]);
    expect(reviews[0].comments.map((c: any) => c.body)).toEqual(["commit say hello", "report completed said hello"]);
    // The reviewer panes are stopped once they reviewed.
    for (const r of reviews) expect((await ok(["pane", "get", r.reviewer])).pane.lifecycle).toBe("exited");
    // A person approves and merges.
    await ok(["task", "review", t.task.id, "--approve"]);
    await ok(["task", "finish", t.task.id, "--merge"]);
    expect(git(root, "show", "main:a.txt")).toBe("hello");
  }, 150_000);

  it("a reviewer pane may review but not report, start or finish; a person can skip the stage", async () => {
    const root = repo();
    const script = path.join(scratch, `idle-reviewer-${Date.now()}.txt`);
    writeFileSync(
      script,
      'run-yard task report --status completed --summary "not mine"\nrun-yard task finish {env.YARD_TASK} --merge\nrun-yard task start --repo /tmp --objective x\nprint waiting',
    );
    const profile = `idle-${Date.now().toString(36)}`;
    await ok([
      "agent",
      "add",
      profile,
      "--role",
      "reviewer",
      "--hooks",
      "--",
      "{{node}}",
      "{{yardRoot}}/agents/demo/demo-agent.mjs",
      "--script",
      script,
    ]);
    const t = await ok([
      "task",
      "start",
      "--repo",
      root,
      "--reviewer",
      profile,
      "--objective",
      "report completed fine",
    ]);
    const running = await waitFor(
      async () => {
        const v = await taskNow(t.task.id);
        return v.agentReview.state === "running" && v.agentReview.paneId ? v : null;
      },
      { timeoutMs: 60_000, what: "the reviewer to run" },
    );
    expect(running.statusLine).toBe("Agent review running");
    const screen = await waitFor(
      async () => {
        const s = (
          await adminClient(server).panes.read.query({ id: running.agentReview.paneId, mode: "tail", lines: 100 })
        ).text;
        return s.includes("waiting") ? s : null;
      },
      { timeoutMs: 30_000, what: "the reviewer's screen" },
    );
    expect(screen).toContain("A reviewer pane may not call tasks.report");
    expect(screen).toContain("A reviewer pane may not call tasks.finish");
    expect(screen).toContain("A reviewer pane may not call tasks.start");
    const skipped = (await ok(["task", "agent-review", t.task.id, "--skip"])).task;
    expect(skipped).toMatchObject({ state: "completed", disposition: null, agentReview: { state: "skipped" } });
    await waitFor(
      async () =>
        (await adminClient(server).panes.get.query({ id: running.agentReview.paneId })).lifecycle === "exited",
    );
    expect((await ok(["pane", "get", running.agentReview.paneId])).pane.lifecycle).toBe("exited");
  });
});

describe("plans", () => {
  const plan = (n: number) => ({
    goal: `goal v${n}`,
    steps: ["one", "two"],
    subtasks: [
      { key: "x", title: `X v${n}`, objective: "report completed x" },
      { key: "y", title: `Y v${n}`, objective: "report completed y", dependsOn: ["x"] },
    ],
  });

  it("an agent reviewer requests changes to v1; the planner's v2 is approved and becomes its subtasks, all at once", async () => {
    const root = repo();
    const planner = path.join(scratch, `planner-${Date.now()}.txt`);
    writeFileSync(
      planner,
      [
        `run-yard plan submit --plan-json '${JSON.stringify(plan(1))}'`,
        "---",
        `run-yard plan submit --plan-json '${JSON.stringify(plan(2))}'`,
      ].join("\n"),
    );
    const reviewer = path.join(scratch, `plan-reviewer-${Date.now()}.txt`);
    writeFileSync(
      reviewer,
      [
        'run-yard plan review {env.YARD_TASK} --request-changes --summary "name them v2" --note "titles"',
        "---",
        'run-yard plan review {env.YARD_TASK} --approve --summary "ok"',
      ].join("\n"),
    );
    const suffix = Date.now().toString(36);
    await ok([
      "agent",
      "add",
      `planner-${suffix}`,
      "--role",
      "planner",
      "--hooks",
      "--",
      "{{node}}",
      "{{yardRoot}}/agents/demo/demo-agent.mjs",
      "--script",
      planner,
    ]);
    await ok([
      "agent",
      "add",
      `preview-${suffix}`,
      "--role",
      "reviewer",
      "--hooks",
      "--",
      "{{node}}",
      "{{yardRoot}}/agents/demo/demo-agent.mjs",
      "--script",
      reviewer,
    ]);
    const t = await ok([
      "task",
      "start",
      "--repo",
      root,
      "--needs-plan",
      "--planner",
      `planner-${suffix}`,
      "--plan-reviewer",
      `preview-${suffix}`,
      "--title",
      "Planned",
      "--objective",
      "two steps",
    ]);
    const done = await waitFor(
      async () => {
        const v = await taskNow(t.task.id);
        return v.state === "completed" ? v : null;
      },
      { timeoutMs: 90_000, what: "the plan to be approved" },
    );
    const plans = (await ok(["plan", "show", t.task.id])).plans;
    expect(plans.map((p: any) => [p.version, p.state, p.reviews.map((r: any) => r.verdict)])).toEqual([
      [1, "changes_requested", ["changes_requested"]],
      [2, "decomposed", ["approved"]],
    ]);
    expect(plans[0].reviews[0]).toMatchObject({ summary: "name them v2", notes: [{ body: "titles" }] });
    const ids = plans[1].subtasks;
    expect(done.result.artifacts).toEqual([ids.x, ids.y]);
    const y = (await ok(["task", "get", ids.y])).task;
    expect(y).toMatchObject({ title: "Y v2", parentTaskId: t.task.id, waiting: { dependencies: [{ id: ids.x }] } });
    // The reviewer's stage ends with its verdict once the decomposition is journaled.
    await waitFor(async () => (await taskNow(t.task.id)).agentReview.state === "approved", {
      what: "the plan reviewer's stage to end",
    });
    expect((await ok(["task", "get", t.task.id])).task.agentReview).toMatchObject({ state: "approved", runs: 2 });
    // The subtasks run in order by themselves (x has nothing to wait for).
    expect(await settled(ids.x)).toMatchObject({ state: "completed" });
  });

  it("refuses a plan with a cycle or an unknown dependency, and a plan for a task that was not started with --needs-plan", async () => {
    const root = repo();
    const t = await ok(["task", "start", "--repo", root, "--objective", "report completed plain"]);
    const r = await refused(
      ["plan", "submit", "--task", t.task.id, "--plan-json", JSON.stringify(plan(1))],
      "CONFLICT",
    );
    expect(r.json.error.message).toContain("--needs-plan");
    const cyclic = {
      goal: "g",
      subtasks: [
        { key: "a", title: "A", objective: "o", dependsOn: ["b"] },
        { key: "b", title: "B", objective: "o", dependsOn: ["a"] },
      ],
    };
    expect(
      (await refused(["plan", "submit", "--task", t.task.id, "--plan-json", JSON.stringify(cyclic)], "BAD_PARAMS")).json
        .error.message,
    ).toMatch(/cycle/);
    const unknown = { goal: "g", subtasks: [{ key: "a", title: "A", objective: "o", dependsOn: ["zz"] }] };
    expect(
      (await refused(["plan", "submit", "--task", t.task.id, "--plan-json", JSON.stringify(unknown)], "BAD_PARAMS"))
        .json.error.message,
    ).toMatch(/zz/);
    await refused(["task", "start", "--repo", root, "--needs-plan", "--objective", "no planner"], "BAD_PARAMS");
  });
});

describe("what a pane may name and create: contexts, lineage, the sandbox, attention", () => {
  const suffix = () => Math.random().toString(36).slice(2, 8);
  /** A task's program that records its YARD_* environment in $TMPDIR/env (the sandbox's own /tmp when sandboxed) and waits. */
  const RECORD_ENV = [
    "sh",
    "-c",
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell script, not a template
    'd="${1:-$TMPDIR}"; env > "$d/env.tmp" && mv "$d/env.tmp" "$d/env"; exec sleep 600',
    "record-env",
  ];
  const envOf = (text: string) =>
    Object.fromEntries(
      text
        .split("\n")
        .filter((l) => l.startsWith("YARD_"))
        .map((l) => [l.slice(0, l.indexOf("=")), l.slice(l.indexOf("=") + 1)]),
    ) as Record<string, string>;
  const readEnv = (file: string) =>
    waitFor(
      () => {
        try {
          return envOf(readFileSync(file, "utf8"));
        } catch {
          return null;
        }
      },
      { what: `the environment in ${file}` },
    );
  // Each test's waiting agents are stopped after it (the server caps running tasks at 4).
  afterEach(async () => {
    const api = adminClient(server);
    for (const t of await api.tasks.list.query({ states: ["pending", "working", "input_required"] }))
      await api.tasks.cancel.mutate({ id: t.id }).catch(() => {});
  });
  const countRows = async () => {
    const api = adminClient(server);
    return { tasks: (await api.tasks.list.query({})).length, panes: (await api.panes.list.query({})).length };
  };

  /** An orchestrating task in `contextId` (an orchestrator profile), sandboxed or not; its pane's token. */
  async function orchestratingTask(contextId: string, opts: { sandbox?: boolean; network?: boolean } = {}) {
    const api = adminClient(server);
    const id = `orch-${suffix()}`;
    const dir = mkdtempSync(path.join(scratch, "orch-env-"));
    await api.agents.add.mutate({
      id,
      role: "orchestrator",
      argv: opts.sandbox ? RECORD_ENV : [...RECORD_ENV, dir],
      sandbox: opts.sandbox ?? false,
      sandboxNetwork: opts.network ?? false,
    });
    const { task, pane } = await api.tasks.start.mutate({
      repoPath: repo(),
      agent: id,
      contextId,
      objective: "orchestrate",
    });
    const file = opts.sandbox ? path.join(server.home, "sandbox", task.id, "tmp", "env") : path.join(dir, "env");
    const env = await readEnv(file);
    return { task, pane: pane!, env, api: clientWithToken(server, env.YARD_TOKEN!) };
  }

  it("a sandboxed orchestrator's starts run sandboxed: no --no-sandbox, no bare pane, no profile with more network than it has, nothing created when refused", async () => {
    const ctx = `sbx-${suffix()}`;
    const o = await orchestratingTask(ctx, { sandbox: true });
    expect(o.pane.sandboxed).toBe(true);
    const root = repo();
    const before = await countRows();

    // --no-sandbox is refused, creating nothing.
    const noSandbox = await errorOf(() =>
      o.api.tasks.start.mutate({
        repoPath: root,
        argv: ["sh", "-c", "exec sleep 600"],
        sandbox: false,
        objective: "escape",
      }),
    );
    expect(noSandbox).toMatchObject({ code: "FORBIDDEN", message: expect.stringMatching(/sandbox/) });
    // A bare pane has no worktree to sandbox into: refused.
    const bare = await errorOf(() => o.api.panes.spawn.mutate({ argv: ["sh", "-c", "exec sleep 600"], cwd: scratch }));
    expect(bare).toMatchObject({ code: "FORBIDDEN", message: expect.stringMatching(/sandbox/) });
    // A profile whose sandbox has the network: more than this caller has.
    const net = `net-${suffix()}`;
    await adminClient(server).agents.add.mutate({
      id: net,
      argv: ["sh", "-c", "exec sleep 600"],
      sandbox: true,
      sandboxNetwork: true,
    });
    const withNet = await errorOf(() =>
      o.api.tasks.start.mutate({ repoPath: root, agent: net, objective: "phone home" }),
    );
    expect(withNet).toMatchObject({ code: "FORBIDDEN", message: expect.stringMatching(/network/) });
    // Nor may it choose where the worktree goes: the sandbox could then write a directory of its choosing on the host.
    const placed = path.join(scratch, `placed-${suffix()}`);
    const withPath = await errorOf(() =>
      o.api.tasks.start.mutate({
        repoPath: root,
        argv: ["sh", "-c", "exec sleep 600"],
        sandbox: true,
        path: placed,
        objective: "write there",
      }),
    );
    expect(withPath).toMatchObject({ code: "FORBIDDEN", message: expect.stringMatching(/path/) });
    expect(existsSync(placed)).toBe(false);
    expect(await countRows()).toEqual(before);
    expect(git(root, "branch", "--list")).toBe("* main");

    // A start without a sandbox flag runs sandboxed (its profile does not ask for it), as does its pane.
    const started = await o.api.tasks.start.mutate({
      repoPath: root,
      argv: ["sh", "-c", "exec sleep 600"],
      objective: "inside",
    });
    expect(started.task.sandboxed).toBe(true);
    expect(started.pane!.sandboxed).toBe(true);
    expect((await adminClient(server).panes.get.query({ id: started.pane!.id })).sandboxed).toBe(true);
    await adminClient(server).tasks.cancel.mutate({ id: started.task.id });

    // One whose own sandbox has the network may start work with the network (sandboxed still).
    const o2 = await orchestratingTask(`sbx-${suffix()}`, { sandbox: true, network: true });
    const networked = await o2.api.tasks.start.mutate({ repoPath: root, agent: net, objective: "fetch" });
    expect(networked.task.sandboxed).toBe(true);
  });

  it("a sandboxed orchestrator may not start, or start a round of, unsandboxed work in its context", async () => {
    const ctx = `sbx-${suffix()}`;
    const o = await orchestratingTask(ctx, { sandbox: true });
    const api = adminClient(server);
    // The person's own work in the same context, outside the sandbox.
    const backlog = await api.tasks.start.mutate({
      repoPath: repo(),
      contextId: ctx,
      argv: ["sh", "-c", "exec sleep 600"],
      backlog: true,
      objective: "later",
    });
    const done = await api.tasks.start.mutate({
      repoPath: repo(),
      contextId: ctx,
      agent: "demo",
      objective: "report completed done",
    });
    expect(await settled(done.task.id)).toMatchObject({ state: "completed", sandboxed: false });
    const before = await countRows();

    const fromBacklog = await errorOf(() => o.api.tasks.startBacklog.mutate({ id: backlog.task.id }));
    expect(fromBacklog).toMatchObject({ code: "FORBIDDEN", message: expect.stringMatching(/sandbox/) });
    const round = await errorOf(() =>
      o.api.reviews.submit.mutate({ taskId: done.task.id, verdict: "request_changes", summary: "write b.txt b" }),
    );
    expect(round).toMatchObject({ code: "FORBIDDEN", message: expect.stringMatching(/sandbox/) });
    const rerun = await errorOf(() => o.api.tasks.agentReview.mutate({ id: done.task.id, action: "rerun" }));
    expect(rerun.code).toBe("FORBIDDEN");

    expect(await countRows()).toEqual(before);
    expect((await taskNow(backlog.task.id)).state).toBe("backlog");
    expect(await taskNow(done.task.id)).toMatchObject({ state: "completed", round: 1 });
  });

  it("a sandboxed orchestrator may not type into unsandboxed work in its context: no keys, prompts, follow-ups or answers reach it", async () => {
    const ctx = `sbx-${suffix()}`;
    const o = await orchestratingTask(ctx, { sandbox: true });
    const api = adminClient(server);
    // The person's shell task in the same context, outside the sandbox: keys typed there run on the host.
    const marker = path.join(scratch, `typed-${suffix()}`);
    const shell = await api.tasks.start.mutate({
      repoPath: repo(),
      contextId: ctx,
      argv: ["sh", "-c", "yard task ask 'go on?' >/dev/null; exec sh"],
      objective: "a shell",
    });
    await waitFor(async () => (await taskNow(shell.task.id)).state === "input_required", {
      what: "the shell task's question",
    });
    const refusals = [
      await errorOf(() => o.api.panes.sendKeys.mutate({ id: shell.pane!.id, text: `touch ${marker}`, enter: true })),
      await errorOf(() => o.api.panes.submit.mutate({ id: shell.pane!.id, text: `touch ${marker}` })),
      await errorOf(() => o.api.tasks.followUp.mutate({ id: shell.task.id, text: `touch ${marker}` })),
      await errorOf(() => o.api.tasks.answer.mutate({ id: shell.task.id, text: `touch ${marker}` })),
    ];
    for (const r of refusals) expect(r).toMatchObject({ code: "FORBIDDEN", message: expect.stringMatching(/sandbox/) });
    expect(existsSync(marker)).toBe(false);
    expect((await taskNow(shell.task.id)).state).toBe("input_required");
    // Its own sandboxed work it may steer as before.
    const inside = await o.api.tasks.start.mutate({
      repoPath: repo(),
      argv: ["sh", "-c", "exec cat"],
      objective: "inside",
    });
    await waitFor(async () => (await adminClient(server).panes.get.query({ id: inside.pane!.id })).live, {
      what: "the sandboxed task's pane",
    });
    expect((await o.api.panes.sendKeys.mutate({ id: inside.pane!.id, text: "hello" })).bytes).toBe(5);
  });

  it("a pane may not edit, resolve or delete a comment on a task it does not reach", async () => {
    const api = adminClient(server);
    const foreign = await api.tasks.start.mutate({
      repoPath: repo(),
      agent: "demo",
      objective: "write a.txt a\ncommit add a\nreport completed done",
    });
    await settled(foreign.task.id);
    const { comment } = await api.reviews.addComment.mutate({
      taskId: foreign.task.id,
      path: "a.txt",
      startLine: 1,
      body: "the person's note",
    });
    const { env } = await orchestratorPane(api, scratch);
    const other = clientWithToken(server, env.YARD_TOKEN!);
    for (const call of [
      () => other.reviews.resolveComment.mutate({ id: comment.id, resolved: true }),
      () => other.reviews.editComment.mutate({ id: comment.id, body: "mine now" }),
      () => other.reviews.deleteComment.mutate({ id: comment.id }),
    ]) {
      expect(await errorOf(call)).toMatchObject({ code: "FORBIDDEN", message: expect.stringContaining(comment.id) });
    }
    expect((await api.reviews.listComments.query({ taskId: foreign.task.id })).comments).toMatchObject([
      { id: comment.id, resolved: false, body: "the person's note" },
    ]);
  });

  it("an orchestrator may not start work in a context, under a pane or a task it does not reach; its own and new contexts are fine", async () => {
    const api = adminClient(server);
    const victimCtx = `victim-${suffix()}`;
    const victim = await orchestratingTask(victimCtx);
    const victimWork = await api.tasks.start.mutate({
      repoPath: repo(),
      contextId: victimCtx,
      argv: ["sh", "-c", "exec sleep 600"],
      objective: "uncommitted work",
    });
    const { pane: attackerPane, env } = await orchestratorPane(api, scratch);
    const attacker = clientWithToken(server, env.YARD_TOKEN!);
    // Refused on the foreign task itself…
    expect((await errorOf(() => attacker.tasks.get.query({ id: victimWork.task.id }))).code).toBe("FORBIDDEN");
    const before = await countRows();
    const root = repo();
    // …and on the ways around it: a task in that context (an orchestrator there reaches everything in it),
    const hijack = await errorOf(() =>
      attacker.tasks.start.mutate({
        repoPath: root,
        agent: victim.task.agent,
        contextId: victimCtx,
        objective: "discard the rest",
      }),
    );
    expect(hijack).toMatchObject({ code: "FORBIDDEN", message: expect.stringContaining(victimCtx) });
    // under the other orchestrator's pane (planting into its lineage), or under a task it started.
    const underPane = await errorOf(() =>
      attacker.tasks.start.mutate({
        repoPath: root,
        argv: ["true"],
        parentPaneId: victim.pane.id,
        objective: "planted",
      }),
    );
    expect(underPane).toMatchObject({ code: "FORBIDDEN", message: expect.stringContaining(victim.pane.id) });
    const underTask = await errorOf(() =>
      attacker.tasks.start.mutate({
        repoPath: root,
        argv: ["true"],
        parentTaskId: victimWork.task.id,
        objective: "planted",
      }),
    );
    expect(underTask).toMatchObject({ code: "FORBIDDEN", message: expect.stringContaining(victimWork.task.id) });
    const dependent = await errorOf(() =>
      attacker.tasks.start.mutate({
        repoPath: root,
        argv: ["true"],
        dependsOn: [victimWork.task.id],
        objective: "spy",
      }),
    );
    expect(dependent.code).toBe("FORBIDDEN");
    const paneUnder = await errorOf(() =>
      attacker.panes.spawn.mutate({ argv: ["sh", "-c", "exec sleep 600"], cwd: scratch, parentPaneId: victim.pane.id }),
    );
    expect(paneUnder).toMatchObject({ code: "FORBIDDEN", message: expect.stringContaining(victim.pane.id) });
    expect(await countRows()).toEqual(before);
    expect(git(root, "branch", "--list")).toBe("* main");

    // A fresh context of its own, again and again, and its own pane as the parent: fine.
    const mine = `mine-${suffix()}`;
    // (Recorded in the backlog: the checks are the same, and the cap of running tasks is not reached.)
    const a = await attacker.tasks.start.mutate({
      repoPath: root,
      argv: ["sh", "-c", "exec sleep 600"],
      contextId: mine,
      objective: "a",
      backlog: true,
    });
    const b = await attacker.tasks.start.mutate({
      repoPath: root,
      argv: ["sh", "-c", "exec sleep 600"],
      contextId: mine,
      parentPaneId: attackerPane.id,
      parentTaskId: a.task.id,
      objective: "b",
      backlog: true,
    });
    expect(b.task).toMatchObject({ contextId: mine, parentPaneId: attackerPane.id, parentTaskId: a.task.id });
    // The orchestrating task may start in its own context, where the person's tasks are too.
    const own = await victim.api.tasks.start.mutate({
      repoPath: repo(),
      argv: ["true"],
      contextId: victimCtx,
      objective: "own context",
      backlog: true,
    });
    expect(own.task.contextId).toBe(victimCtx);
    // Once someone else's task is in "mine", the attacker's other orchestrators cannot join it either.
    await api.tasks.start.mutate({
      repoPath: repo(),
      argv: ["true"],
      contextId: mine,
      objective: "the person's",
      backlog: true,
    });
    expect(
      (
        await errorOf(() =>
          victim.api.tasks.start.mutate({
            repoPath: repo(),
            argv: ["true"],
            contextId: mine,
            objective: "join",
            backlog: true,
          }),
        )
      ).code,
    ).toBe("FORBIDDEN");
  });

  it("attention shows an orchestrator only what it reaches", async () => {
    const api = adminClient(server);
    const { env } = await orchestratorPane(api, scratch);
    // Someone else's task that needs input (its turn ended without a report), and one of the orchestrator's own.
    const mine = await ok(["task", "start", "--repo", repo(), "--objective", "print waiting for me"], env);
    expect(await settled(mine.task.id)).toMatchObject({ state: "input_required" });
    // The foreign one is the newer: it would rank first.
    const foreign = await api.tasks.start.mutate({
      repoPath: repo(),
      agent: "demo",
      objective: "print waiting for you",
    });
    expect(await settled(foreign.task.id)).toMatchObject({ state: "input_required" });
    expect((await ok(["attention"])).items).toContainEqual(
      expect.objectContaining({ taskId: foreign.task.id, reason: "input_required" }),
    );
    const items = (await ok(["attention"], env)).items;
    expect(items).toContainEqual(expect.objectContaining({ taskId: mine.task.id, reason: "input_required" }));
    expect(items.filter((i: any) => i.taskId === foreign.task.id || i.paneId === foreign.pane!.id)).toEqual([]);
    // With a limit the orchestrator's own items are not crowded out by items it may not see.
    expect((await ok(["attention", "--limit", "1"], env)).items.map((i: any) => i.taskId)).toEqual([mine.task.id]);
  });

  it("a planner's subtasks run worker profiles: an orchestrator profile is refused at submit and again at approval, creating nothing", async () => {
    const api = adminClient(server);
    const s = suffix();
    await api.agents.add.mutate({ id: `sleeper-${s}`, role: "planner", argv: ["sh", "-c", "exec sleep 600"] });
    await api.agents.add.mutate({ id: `boss-${s}`, role: "orchestrator", argv: ["sh", "-c", "exec sleep 600"] });
    await api.agents.add.mutate({ id: `hand-${s}`, role: "worker", argv: ["sh", "-c", "exec sleep 600"] });
    const t = await api.tasks.start.mutate({
      repoPath: repo(),
      needsPlan: true,
      planner: `sleeper-${s}`,
      objective: "plan it",
    });
    await waitFor(async () => (await taskNow(t.task.id)).state !== "pending", {
      what: "the planner to get its prompt",
    });
    const plan = (agent: string) => ({ goal: "g", subtasks: [{ key: "lead", title: "Lead", objective: "o", agent }] });
    const refusedPlan = await errorOf(() => api.plans.submit.mutate({ taskId: t.task.id, plan: plan(`boss-${s}`) }));
    expect(refusedPlan).toMatchObject({
      code: "BAD_PARAMS",
      message: expect.stringMatching(new RegExp(`lead.*boss-${s}|boss-${s}.*lead`)),
    });
    expect((await api.plans.list.query({ id: t.task.id })).plans).toEqual([]);

    // A worker profile passes; one that became an orchestrator before the approval is refused then.
    await api.plans.submit.mutate({ taskId: t.task.id, plan: plan(`hand-${s}`) });
    await api.agents.update.mutate({ id: `hand-${s}`, role: "orchestrator" });
    const before = await countRows();
    const approve = await errorOf(() => api.plans.review.mutate({ taskId: t.task.id, verdict: "approve" }));
    expect(approve).toMatchObject({ code: "BAD_PARAMS", message: expect.stringContaining(`hand-${s}`) });
    expect(await countRows()).toEqual(before);
    expect((await api.plans.list.query({ id: t.task.id })).plans.map((p: any) => p.state)).toEqual(["in_review"]);
  });
});
