// The Tasks acceptance scenario, end to end and deterministic: the real server process, real git
// repositories, real PTYs running the demo agent, driven through the `yard` CLI from an
// orchestrator pane's environment.
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminClient } from "./helpers/client";
import { git, makeRepo } from "./helpers/git";
import { orchestratorPane } from "./helpers/orchestrator";
import { type CliResult, startTestServer, type TestServer, yard } from "./helpers/server";
import { waitFor } from "./helpers/wait";

let server: TestServer;
let repo: string;
let scratch: string;
const ctx = "batch-1";

beforeAll(async () => {
  server = await startTestServer();
  repo = makeRepo();
  scratch = mkdtempSync(path.join(os.tmpdir(), "yard-orch-"));
  git(repo, "branch", "feature/existing");
});
afterAll(async () => {
  await server?.dispose();
  rmSync(repo, { recursive: true, force: true });
  rmSync(scratch, { recursive: true, force: true });
});

describe("acceptance: three workers, review, restart, merge two, discard one", () => {
  it("runs the whole scenario", async () => {
    let api = adminClient(server);
    const existingTip = git(repo, "rev-parse", "feature/existing");
    const { pane: orch, env } = await orchestratorPane(api, scratch);
    // Every CLI call must succeed (exit 0, one JSON document) unless a test says otherwise.
    const ok = async (r: Promise<CliResult>) => {
      const res = await r;
      expect(res.code, res.stdout + res.stderr).toBe(0);
      expect(res.json, res.stdout).toBeDefined();
      return res;
    };
    const y = (args: string[]) => ok(yard(server, ["--json", ...args], { env }));

    // 2. three tasks, back to back, each pending on return
    const objectives = {
      A: "write a.txt from-A\ncommit add a.txt\nask ready to report?\nreport completed A wrote a.txt",
      B: "write b.txt from-B\ncommit add b.txt\nask may I report?\nreport completed B wrote b.txt",
      C: "untracked c-notes.txt\nask done?\nnoreport",
    };
    const started: Record<string, { task: any; pane: any }> = {};
    for (const [name, objective] of Object.entries(objectives)) {
      const res = await y([
        "task",
        "start",
        "--repo",
        repo,
        "--context",
        ctx,
        "--title",
        `worker ${name}`,
        "--objective",
        objective,
        "--constraint",
        "touch only your own file",
        "--accept",
        "the file exists",
        "--agent",
        "demo",
      ]);
      expect(res.code, res.stdout + res.stderr).toBe(0);
      expect(res.json.task).toMatchObject({
        state: "pending",
        contextId: ctx,
        parentPaneId: orch.id,
        targetBranch: "main",
        branchPreexisting: false,
        paneId: res.json.pane.id,
      });
      expect(res.json.task.contract).toEqual({
        objective,
        constraints: ["touch only your own file"],
        acceptanceCriteria: ["the file exists"],
        outputFormat: null,
      });
      expect(res.json.task.baseSha).toBe(git(repo, "rev-parse", "HEAD"));
      expect(existsSync(res.json.task.worktreePath)).toBe(true);
      started[name] = res.json;
    }
    const id = (n: string) => started[n]!.task.id as string;
    const paneOf = (n: string) => started[n]!.pane.id as string;

    const working = await y(["task", "wait", "--context", ctx, "--until", "working", "--timeout-ms", "60000"]);
    expect(working.code, working.stdout).toBe(0);
    expect(working.json.tasks.map((t: any) => t.state)).toEqual(["working", "working", "working"]);

    // Every worker now waits on a permission prompt: all three show up in attention.
    await waitFor(
      async () => {
        const att = await y(["attention"]);
        const blocked = att.json.items.filter((i: any) => i.reason === "blocked").map((i: any) => i.paneId);
        return ["A", "B", "C"].every((n) => blocked.includes(paneOf(n)));
      },
      { timeoutMs: 30_000, intervalMs: 250, what: "three blocked workers" },
    ); // polled as the orchestrator would: each poll is a CLI process

    // 4 (first half). a delta read of A's output while it waits
    const firstRead = await y(["pane", "read", paneOf("A"), "--mode", "delta", "--cursor", "0", "--reader", "orch"]);
    expect(firstRead.json.text).toContain("Switchyard demo agent");
    expect(firstRead.json.text).toContain("Allow? (y/n)");

    // 3. A reports completed once answered
    await y(["pane", "send-keys", paneOf("A"), "y"]);
    await y(["task", "wait", id("A"), "--until", "completed", "--timeout-ms", "30000"]);

    // B: answered through its terminal, then reports
    const att = await y(["attention"]);
    expect(att.json.items[0]).toMatchObject({ reason: "blocked" });
    expect(att.json.items.map((i: any) => i.paneId)).toContain(paneOf("B"));
    await y(["pane", "send-keys", paneOf("B"), "y"]);

    // C: ends its turn without reporting -> input_required, and the settled wait returns
    await y(["pane", "send-keys", paneOf("C"), "y"]);
    const settled = await y(["task", "wait", "--context", ctx, "--timeout-ms", "60000"]);
    expect(settled.code, settled.stdout).toBe(0);
    const byId = Object.fromEntries(settled.json.tasks.map((t: any) => [t.id, t]));
    expect(byId[id("A")].state).toBe("completed");
    expect(byId[id("C")].state).toBe("input_required");
    expect(byId[id("C")].evidence).toMatchObject({ reason: "turn_ended_without_report" });
    await y(["task", "wait", id("B"), "--until", "completed", "--timeout-ms", "30000"]);

    // a follow-up submit moves C back to working; C reports
    const followUp = await y(["pane", "submit", paneOf("C"), "report completed C wrote c-notes.txt"]);
    expect(followUp.code, followUp.stdout).toBe(0);
    const cDone = await y(["task", "wait", id("C"), "--until", "completed", "--timeout-ms", "30000"]);
    expect(cDone.json.tasks[0].result).toMatchObject({ status: "completed", summary: "C wrote c-notes.txt" });
    const cEvents = await y(["task", "events", id("C")]);
    const cStates = cEvents.json.events.filter((e: any) => e.type === "task.state").map((e: any) => e.payload.to);
    expect(cStates).toEqual(["working", "input_required", "working", "completed"]);

    // 4 (second half). the second delta read returns only what is new
    const secondRead = await y([
      "pane",
      "read",
      paneOf("A"),
      "--mode",
      "delta",
      "--cursor",
      String(firstRead.json.cursor),
      "--reader",
      "orch",
    ]);
    expect(secondRead.json.text).not.toContain("Switchyard demo agent");
    expect(secondRead.json.text).toContain("A wrote a.txt");
    expect(secondRead.json.start).toBeGreaterThan(0);
    for (const n of ["B", "C"]) {
      const r1 = await y(["pane", "read", paneOf(n), "--mode", "delta", "--cursor", "0", "--reader", "r"]);
      const r2 = await y([
        "pane",
        "read",
        paneOf(n),
        "--mode",
        "delta",
        "--cursor",
        String(r1.json.cursor),
        "--reader",
        "r",
      ]);
      expect(r1.json.text).toContain("Switchyard demo agent");
      expect(r2.json).toMatchObject({ text: "", cursor: r1.json.cursor });
    }
    // Each finished result stays in the orchestrator's attention until it acknowledges it.
    await waitFor(
      async () => {
        const items = (await y(["attention"])).json.items;
        return ["A", "B", "C"].every((n) =>
          items.some((i: any) => i.taskId === id(n) && i.reason === "result_unacknowledged"),
        );
      },
      { timeoutMs: 15_000, intervalMs: 250, what: "three unacknowledged results" },
    );
    for (const n of ["A", "B", "C"])
      expect((await y(["task", "ack", id(n)])).json).toMatchObject({ id: id(n), alreadyAcknowledged: false });
    await waitFor(async () => (await y(["attention"])).json.items.length === 0, {
      timeoutMs: 15_000,
      intervalMs: 250,
      what: "attention to empty",
    });

    // 5. each diff shows only its own change, including C's untracked file
    const diffs: Record<string, any> = {};
    for (const n of ["A", "B", "C"]) diffs[n] = (await y(["task", "diff", id(n)])).json;
    expect(diffs.A.files.map((f: any) => f.path)).toEqual(["a.txt"]);
    expect(diffs.B.files.map((f: any) => f.path)).toEqual(["b.txt"]);
    expect(diffs.C.files).toEqual([expect.objectContaining({ path: "c-notes.txt", status: "added" })]);
    expect(diffs.A.diff).toContain("+from-A");
    expect(diffs.B.diff).not.toContain("a.txt");

    // 6. restart the server process: results and diffs survive
    await server.stop();
    server = await startTestServer({ home: server.home });
    api = adminClient(server);
    const yy = (args: string[]) => ok(yard(server, ["--json", ...args]));
    for (const n of ["A", "B", "C"]) {
      const t = (await yy(["task", "get", id(n)])).json.task;
      expect(t.state).toBe("completed");
      expect(t.result.status).toBe("completed");
      const d = (await yy(["task", "diff", id(n)])).json;
      expect(d.files.map((f: any) => f.path)).toEqual(diffs[n].files.map((f: any) => f.path));
    }

    // 7. merge A and B, discard C
    for (const n of ["A", "B"]) {
      const m = await yy(["task", "finish", id(n), "--merge"]);
      expect(m.code, m.stdout).toBe(0);
      expect(m.json.task.disposition).toBe("merged");
      expect(m.json.cleanup).toMatchObject({ ok: true, worktreeRemoved: true, branchDeleted: true });
      expect(git(repo, "rev-parse", "HEAD")).toBe(m.json.task.mergeCommit);
      expect(existsSync(m.json.task.worktreePath)).toBe(false);
      expect(git(repo, "branch", "--list", m.json.task.branch)).toBe("");
    }
    expect(readFileSync(path.join(repo, "a.txt"), "utf8")).toBe("from-A\n");
    expect(readFileSync(path.join(repo, "b.txt"), "utf8")).toBe("from-B\n");
    const d = await yy(["task", "finish", id("C"), "--discard"]);
    expect(d.code, d.stdout).toBe(0);
    expect(d.json.task.disposition).toBe("discarded");
    expect(existsSync(started.C!.task.worktreePath)).toBe(false);
    expect(git(repo, "branch", "--list", started.C!.task.branch)).toContain(started.C!.task.branch);
    expect(existsSync(path.join(repo, "c-notes.txt"))).toBe(false);
    expect(git(repo, "rev-parse", "feature/existing")).toBe(existingTip);
    expect(git(repo, "status", "--porcelain")).toBe("");
    // a second finish is refused once everything is cleaned up
    const again = await yard(server, ["--json", "task", "finish", id("C"), "--discard"]);
    expect(again.code).toBe(1);
    expect(again.json.error.code).toBe("CONFLICT");
  }, 300_000);
});
