// The deterministic orchestration scenario, end to end with no LLM: the demo agent is the
// orchestrator (a pane running directives), the planner and the agent reviewer (profiles with
// scripted replies). Goal → plan → approved → three subtasks in a dependency chain → workers
// run, one asks a question the orchestrator answers → the agent reviewer requests changes once →
// round 2 → a person approves and merges in order → the parent's result lists its children; the
// server is restarted in the middle and nothing is lost. Run on both databases.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminClient } from "./helpers/client";
import { git, makeRepo } from "./helpers/git";
import { ROOT, startTestServer, type TestServer, yard } from "./helpers/server";
import { createPgDatabase, dropPgDatabase, PROVIDERS } from "./helpers/pg";
import { PLAN, scenarioScripts } from "./helpers/scenario";
import { waitFor } from "./helpers/wait";

let server: TestServer;
let scratch: string;
let root: string;
let dbEnv: Record<string, string> = {};

async function ok(args: string[]): Promise<any> {
  const r = await yard(server, ["--json", ...args]);
  expect(r.code, `yard ${args.join(" ")}\n${r.stdout}${r.stderr}`).toBe(0);
  return r.json;
}

// On both databases: the embedded SQLite and PostgreSQL (when the run has a cluster).
describe.each(PROVIDERS)("the orchestration scenario (%s)", (provider) => {
  beforeAll(async () => {
    dbEnv = provider === "postgresql" ? { DATABASE_URL: await createPgDatabase() } : {};
    server = await startTestServer({ env: dbEnv });
    if (provider === "postgresql")
      expect(server.output()).toContain("the board's database is PostgreSQL at postgresql://");
    scratch = mkdtempSync(path.join(os.tmpdir(), "yard-scenario-"));
    root = makeRepo();
  });
  afterAll(async () => {
    await server?.dispose();
    if (dbEnv.DATABASE_URL) await dropPgDatabase(dbEnv.DATABASE_URL);
    rmSync(root, { recursive: true, force: true });
    rmSync(scratch, { recursive: true, force: true });
  });

  it("goal → plan → subtasks in order with a question, an agent review round and human merges, across a restart", async () => {
    // The planner's one reply submits the plan; the reviewer requests changes of A once, then approves.
    const scripts = scenarioScripts(scratch, [PLAN]);
    await ok(["agent", "add", "scripted-planner", "--role", "planner", "--hooks", "--", ...scripts.planner]);
    await ok(["agent", "add", "scripted-reviewer", "--role", "reviewer", "--hooks", "--", ...scripts.reviewer]);
    const project = (await ok(["project", "add", root])).project;
    await ok(["project", "set", project.id, "--reviewer", "scripted-reviewer", "--planner", "scripted-planner"]);

    // The orchestrator: a demo agent in a pane the person started, driving everything through yard.
    const orchestrator = [
      `run-yard --json task start --project ${project.id} --needs-plan --title Greetings --objective "Write three greeting files" => goal`,
      "run-yard --json task wait {goal.task.id} --until input_required --timeout-ms 120000",
      'run-yard --json plan review {goal.task.id} --approve --summary "good plan" => plan',
      "run-yard --json task wait {plan.plan.subtasks.b} --until input_required --timeout-ms 300000",
      'run-yard task answer {plan.plan.subtasks.b} "report completed greeting is B"',
      "run-yard --json task wait {plan.plan.subtasks.c} --until completed --timeout-ms 300000",
      "run-yard task ack {plan.plan.subtasks.a}",
      "run-yard task ack {plan.plan.subtasks.b}",
      "run-yard task ack {plan.plan.subtasks.c}",
      "print orchestration done",
    ].join("\n");
    const api = adminClient(server);
    const orch = await api.panes.spawn.mutate({
      argv: [process.execPath, path.join(ROOT, "agents/demo/demo-agent.mjs"), "--prompt", orchestrator],
      cwd: scratch,
      label: "orchestrator",
    });

    // The goal task: planned, approved, decomposed into three subtasks (the orchestrator approved it).
    // On a failure, what the orchestrator's and the tasks' panes showed.
    const screens = async () => {
      const panes = [
        orch.id,
        ...(await ok(["pane", "list"])).panes.map((p: any) => p.id).filter((id: string) => id !== orch.id),
      ];
      const out: string[] = [];
      for (const id of panes)
        out.push(`--- ${id}\n${(await ok(["pane", "read", id, "--mode", "tail", "--lines", "40"])).text}`);
      return out.join("\n");
    };
    const explain = async (e: Error) => {
      throw new Error(`${e.message}\n${await screens()}`);
    };
    // Polls read through the tRPC client the CLI uses: a CLI process every 50 ms costs a core.
    const goal = await waitFor(
      async () =>
        (await adminClient(server).tasks.list.query({ projectId: project.id })).find(
          (t: any) => t.title === "Greetings" && t.state === "completed",
        ),
      { timeoutMs: 120_000, what: "the plan to be approved" },
    ).catch(explain);
    const plans = (await ok(["plan", "show", goal.id])).plans;
    expect(plans).toHaveLength(1);
    expect(plans[0]).toMatchObject({
      version: 1,
      state: "decomposed",
      reviews: [{ verdict: "approved", reviewer: orch.id }],
    });
    const ids = plans[0].subtasks as Record<string, string>;
    expect(goal.result).toMatchObject({
      artifacts: [ids.a, ids.b, ids.c],
      summary: expect.stringContaining("3 subtasks"),
    });
    const sub = async (k: string) => (await ok(["task", "get", ids[k]!])).task;
    expect(await sub("b")).toMatchObject({
      state: "backlog",
      parentTaskId: goal.id,
      waiting: { dependencies: [{ id: ids.a, met: false }] },
    });

    // A runs, the agent reviewer requests changes once, round 2, the reviewer approves.
    const agentApproved = async (k: string) => {
      await waitFor(
        async () => (await adminClient(server).tasks.get.query({ id: ids[k]! })).agentReview.state === "approved",
        { timeoutMs: 180_000, what: `the agent reviewer to approve ${k}` },
      ).catch(explain);
      return sub(k);
    };
    const a = await agentApproved("a");
    expect(a.round).toBe(2);
    const aReviews = (await ok(["task", "reviews", ids.a!])).reviews.map((r: any) => [r.round, r.stage, r.verdict]);
    expect(aReviews).toEqual([
      [1, "agent", "changes_requested"],
      [2, "agent", "approved"],
    ]);

    // The server restarts (the agents keep running in the pane host); nothing is lost.
    await server.stop();
    server = await startTestServer({ home: server.home, env: dbEnv });
    expect((await sub("a")).agentReview.state).toBe("approved");
    expect((await sub("b")).state).toBe("backlog");

    // The person approves and merges A; B starts by itself on a base with A's work.
    await ok(["task", "review", ids.a!, "--approve"]);
    await ok(["task", "finish", ids.a!, "--merge"]);
    const b = await agentApproved("b");
    expect(readFileSync(path.join(b.worktreePath, "a.txt"), "utf8")).toBe("AA\n");
    const thread = (await ok(["task", "thread", ids.b!])).messages;
    expect(thread.map((m: any) => [m.kind, m.body])).toEqual([
      ["question", "Which greeting goes in b?"],
      ["answer", "report completed greeting is B"],
    ]);
    expect(thread[1].author).toBe(orch.id);
    await ok(["task", "review", ids.b!, "--approve"]);
    await ok(["task", "finish", ids.b!, "--merge"]);
    await agentApproved("c");
    await ok(["task", "review", ids.c!, "--approve"]);
    await ok(["task", "finish", ids.c!, "--merge"]);

    // Merged in order on main; the orchestrator acknowledged every result.
    expect(git(root, "show", "main:a.txt")).toBe("AA");
    expect(git(root, "show", "main:b.txt")).toBe("B");
    expect(git(root, "show", "main:c.txt")).toBe("C");
    const log = git(root, "log", "--format=%s", "main").split("\n");
    expect(log.findIndex((s) => s.includes("File C"))).toBeLessThan(log.findIndex((s) => s.includes("File B")));
    expect(log.findIndex((s) => s.includes("File B"))).toBeLessThan(log.findIndex((s) => s.includes("File A")));
    await waitFor(
      async () =>
        (await adminClient(server).panes.read.query({ id: orch.id, mode: "tail", lines: 80 })).text.includes(
          "orchestration done",
        ),
      { timeoutMs: 60_000, what: "the orchestrator to finish" },
    );
    for (const k of ["a", "b", "c"]) expect((await sub(k)).acknowledgedAt).not.toBeNull();
  }, 600_000);
});
