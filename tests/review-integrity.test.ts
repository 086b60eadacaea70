// What is approved is what merges, end to end against the real server, real git and real panes:
// an approval is of a commit (a commit after it makes it outdated and the merge refuses, naming
// both commits, until a new approval), an agent reviewer's approval likewise; a finished task's
// agent stops whatever the disposition; a discard says which uncommitted files it deletes and a
// pane must force it; a server killed in the middle of a merge leaves no half-merged checkout
// (git finishes on its own; the restart records it); an approved plan whose task's round was
// never ended by a crash is ended at the next start.
import Database from "better-sqlite3";
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { adminClient, clientWithToken, errorOf } from "./helpers/client";
import { git, makeRepo } from "./helpers/git";
import { orchestratorPane } from "./helpers/orchestrator";
import { startTestServer, type TestServer } from "./helpers/server";
import { waitFor } from "./helpers/wait";

vi.setConfig({ testTimeout: 90_000 });

const scratch = mkdtempSync(path.join(os.tmpdir(), "yard-integrity-"));
let server: TestServer;
let api: ReturnType<typeof adminClient>;
const repos: string[] = [];

beforeAll(async () => {
  server = await startTestServer();
  api = adminClient(server);
});
afterAll(async () => {
  await server?.dispose();
  for (const r of repos) rmSync(r, { recursive: true, force: true });
  rmSync(scratch, { recursive: true, force: true });
});

const repo = () => {
  const r = makeRepo();
  repos.push(r);
  return r;
};

/** A task whose agent commits one file, reports completed and stays running (as an agent that is not asked to exit). */
async function completedTask(repoPath: string, opts: { projectId?: string } = {}) {
  const script =
    "echo work > work.txt && git add work.txt && git -c user.name=Agent -c user.email=a@example.com commit -qm work && yard task report --status completed --summary done >/dev/null && exec sleep 600";
  const where = opts.projectId ? { projectId: opts.projectId } : { repoPath };
  const { task, pane } = await api.tasks.start.mutate({ ...where, objective: "work", argv: ["sh", "-c", script] });
  await api.tasks.wait.query({ id: task.id, until: "terminal", timeoutMs: 30_000 });
  return { task: await api.tasks.get.query({ id: task.id }), pane: pane! };
}

/** The agent commits again, in its worktree, after the review. */
function agentCommits(worktree: string, file: string) {
  writeFileSync(path.join(worktree, file), "after the review\n");
  git(worktree, "add", file);
  git(worktree, "commit", "-qm", "after the review");
  return git(worktree, "rev-parse", "HEAD");
}

const paneLive = async (id: string) => (await api.panes.get.query({ id })).live;

describe("an approval is of a commit", () => {
  it("a commit after the approval makes it outdated: the merge refuses naming both commits and merges nothing, until a new approval", async () => {
    const r = repo();
    const project = await api.projects.add.mutate({ path: r });
    const { task } = await completedTask(r, { projectId: project.id });
    const approvedAt = git(task.worktreePath!, "rev-parse", "HEAD");
    const { review } = await api.reviews.submit.mutate({ taskId: task.id, verdict: "approve" });
    expect(review.reviewedCommit).toBe(approvedAt);
    expect((await api.tasks.get.query({ id: task.id })).reviewStatus).toBe("approved");

    const moved = agentCommits(task.worktreePath!, "sneaky.txt");
    expect((await api.tasks.get.query({ id: task.id })).reviewStatus).toBe("outdated");

    const mainBefore = git(r, "rev-parse", "main");
    const e = await errorOf(() => api.tasks.finish.mutate({ id: task.id, merge: {} }));
    expect(e).toMatchObject({ code: "CONFLICT", details: { approvedCommit: approvedAt, actualCommit: moved } });
    expect(e.message).toContain("review it again");
    expect(git(r, "rev-parse", "main")).toBe(mainBefore);
    expect((await api.tasks.get.query({ id: task.id })).disposition).toBeNull();

    // Approved again, at the new commit: it merges, with exactly that commit.
    await api.reviews.submit.mutate({ taskId: task.id, verdict: "approve" });
    expect((await api.tasks.get.query({ id: task.id })).reviewStatus).toBe("approved");
    const done = await api.tasks.finish.mutate({ id: task.id, merge: {} });
    expect(done.task.disposition).toBe("merged");
    expect(git(r, "rev-parse", `${done.task.mergeCommit}^2`)).toBe(moved);
    expect(readFileSync(path.join(r, "sneaky.txt"), "utf8")).toBe("after the review\n");
  });

  it("an approval that saw uncommitted work does not merge the commit without it", async () => {
    const r = repo();
    const { task } = await completedTask(r);
    writeFileSync(path.join(task.worktreePath!, "uncommitted.txt"), "seen in review, never committed\n");
    await api.reviews.submit.mutate({ taskId: task.id, verdict: "approve" });
    rmSync(path.join(task.worktreePath!, "uncommitted.txt"));
    const e = await errorOf(() => api.tasks.finish.mutate({ id: task.id, merge: {} }));
    expect(e).toMatchObject({
      code: "CONFLICT",
      details: { approvedCommit: git(task.worktreePath!, "rev-parse", "HEAD") },
    });
    expect(e.message).toContain("uncommitted");
  });

  it("an agent reviewer's approval (a pane's) holds for its commit too", async () => {
    const r = repo();
    const { task } = await completedTask(r);
    const orch = await orchestratorPane(api, scratch);
    // The orchestrator pane started nothing; the person lets it review by starting the task from it instead.
    const mine = await clientWithToken(server, orch.env.YARD_TOKEN!).tasks.start.mutate({
      repoPath: r,
      objective: "work",
      argv: [
        "sh",
        "-c",
        "echo w > w.txt && git add w.txt && git -c user.name=A -c user.email=a@example.com commit -qm w && yard task report --status completed --summary done >/dev/null && exec sleep 600",
      ],
    });
    await api.tasks.wait.query({ id: mine.task.id, until: "terminal", timeoutMs: 30_000 });
    const reviewer = clientWithToken(server, orch.env.YARD_TOKEN!);
    const { review } = await reviewer.reviews.submit.mutate({ taskId: mine.task.id, verdict: "approve" });
    expect(review.stage).toBe("agent");
    const wt = (await api.tasks.get.query({ id: mine.task.id })).worktreePath!;
    const moved = agentCommits(wt, "later.txt");
    expect((await api.tasks.get.query({ id: mine.task.id })).reviewStatus).toBe("outdated");
    const e = await errorOf(() => api.tasks.finish.mutate({ id: mine.task.id, merge: {} }));
    expect(e).toMatchObject({
      code: "CONFLICT",
      details: { approvedCommit: review.reviewedCommit, actualCommit: moved },
    });
    await api.tasks.finish.mutate({ id: task.id, discard: {} });
  });
});

describe("a finished task's agent stops", () => {
  it("a merge stops the agent that was still running in the worktree", async () => {
    const { task, pane } = await completedTask(repo());
    expect(await paneLive(pane.id)).toBe(true);
    await api.tasks.finish.mutate({ id: task.id, merge: {} });
    await waitFor(async () => !(await paneLive(pane.id)), { what: "the merged task's agent to stop" });
    expect((await api.panes.get.query({ id: pane.id })).lifecycle).toBe("exited");
  });
});

describe("a discard says what it deletes", () => {
  it("lists the uncommitted files; a pane must force it, and is refused with nothing changed otherwise", async () => {
    const r = repo();
    const orch = await orchestratorPane(api, scratch);
    const asPane = clientWithToken(server, orch.env.YARD_TOKEN!);
    const { task, pane } = await asPane.tasks.start.mutate({
      repoPath: r,
      objective: "idle",
      argv: ["sh", "-c", "exec sleep 600"],
    });
    const wt = task.worktreePath!;
    writeFileSync(path.join(wt, "draft.txt"), "not committed\n");
    writeFileSync(path.join(wt, "README.md"), "changed, not committed\n");
    expect((await asPane.tasks.uncommitted.query({ id: task.id })).files.sort()).toEqual(["README.md", "draft.txt"]);

    const refused = await errorOf(() => asPane.tasks.finish.mutate({ id: task.id, discard: {} }));
    expect(refused).toMatchObject({
      code: "DIRTY_SOURCE",
      details: { files: expect.arrayContaining(["draft.txt", "README.md"]) },
    });
    expect(existsSync(path.join(wt, "draft.txt"))).toBe(true);
    expect((await api.tasks.get.query({ id: task.id })).disposition).toBeNull();
    expect(await paneLive(pane!.id)).toBe(true);

    const forced = await asPane.tasks.finish.mutate({ id: task.id, discard: { force: true } });
    expect(forced.task.disposition).toBe("discarded");
    expect(forced.cleanup.uncommittedFiles!.sort()).toEqual(["README.md", "draft.txt"]);
    expect(existsSync(wt)).toBe(false);
  });

  it("the person's discard goes ahead and its answer (and the CLI's) lists what was deleted", async () => {
    const r = repo();
    const { task } = await api.tasks.start.mutate({
      repoPath: r,
      objective: "idle",
      argv: ["sh", "-c", "exec sleep 600"],
    });
    writeFileSync(path.join(task.worktreePath!, "notes.txt"), "lost\n");
    const listed = execFileSync(
      process.execPath,
      [path.join(__dirname, "../cli/bin/yard.js"), "task", "uncommitted", task.id],
      { env: { ...process.env, YARD_HOME: server.home, YARD_URL: "", YARD_TOKEN: "" }, encoding: "utf8" },
    );
    expect(listed.trim()).toBe("notes.txt");
    const out = execFileSync(
      process.execPath,
      [path.join(__dirname, "../cli/bin/yard.js"), "task", "finish", task.id, "--discard"],
      {
        env: { ...process.env, YARD_HOME: server.home, YARD_URL: "", YARD_TOKEN: "" },
        encoding: "utf8",
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    expect(out).toContain("deleted 1 uncommitted file(s):\n  notes.txt");
    expect(existsSync(task.worktreePath!)).toBe(false);
    expect((await api.tasks.get.query({ id: task.id })).disposition).toBe("discarded");
  });
});

describe("a server killed during a merge", () => {
  it("leaves no half-merged checkout: git finishes on its own and the restart records the merge", async () => {
    const home = mkdtempSync(path.join(os.tmpdir(), "yard-crash-home-"));
    let s = await startTestServer({ home });
    const a = adminClient(s);
    try {
      const r = repo();
      // A slow checkout filter of the person's own (the merge checks slow.txt out through it).
      const started = path.join(scratch, `filter-started-${Date.now()}`);
      git(r, "config", "filter.slow.clean", "cat");
      git(r, "config", "filter.slow.smudge", `sh -c 'touch ${started}; sleep 2; cat'`);
      const script = `printf 'slow.txt filter=slow\\n' > .gitattributes && echo slow > slow.txt && git add -A && git -c user.name=A -c user.email=a@example.com commit -qm slow && yard task report --status completed --summary done >/dev/null && exec sleep 600`;
      const { task } = await a.tasks.start.mutate({ repoPath: r, objective: "slow", argv: ["sh", "-c", script] });
      await a.tasks.wait.query({ id: task.id, until: "terminal", timeoutMs: 30_000 });
      const before = git(r, "rev-parse", "main");

      void a.tasks.finish.mutate({ id: task.id, merge: {} }).catch(() => {});
      await waitFor(() => existsSync(started), { what: "the merge to reach the checkout filter" });
      s.proc.kill("SIGKILL");
      await new Promise((res) => s.proc.once("exit", res));

      // git, on its own, lands the merge and leaves no merge state behind (it moves main, then
      // removes MERGE_HEAD: wait for both; a merge left half done times out here).
      await waitFor(
        () =>
          git(r, "rev-parse", "main") !== before &&
          !existsSync(path.join(r, ".git/index.lock")) &&
          !existsSync(path.join(r, ".git/MERGE_HEAD")),
        { what: "git to finish the merge and remove MERGE_HEAD", timeoutMs: 20_000 },
      );
      expect(git(r, "status", "--porcelain", "--untracked-files=no")).toBe("");

      s = await startTestServer({ home });
      const b = adminClient(s);
      const t = await b.tasks.get.query({ id: task.id });
      expect(t.disposition).toBe("merged");
      expect(t.mergeCommit).toBe(git(r, "rev-parse", "main"));
      // The next merge of this repository is not refused as dirty.
      const next = await completedTaskOn(b, r);
      expect((await b.tasks.finish.mutate({ id: next, merge: {} })).task.disposition).toBe("merged");
    } finally {
      await s.dispose();
    }
  });

  it("an approved plan whose task's round the crash left open is ended at the next start", async () => {
    const home = mkdtempSync(path.join(os.tmpdir(), "yard-plan-home-"));
    let s = await startTestServer({ home });
    try {
      const a = adminClient(s);
      const sfx = Date.now().toString(36);
      await a.agents.add.mutate({ id: `planner-${sfx}`, role: "planner", argv: ["sh", "-c", "exec sleep 600"] });
      const t = await a.tasks.start.mutate({
        repoPath: repo(),
        needsPlan: true,
        planner: `planner-${sfx}`,
        objective: "plan it",
        argv: undefined,
      });
      await waitFor(async () => (await a.tasks.get.query({ id: t.task.id })).state !== "pending", {
        what: "the planner to get its prompt",
      });
      await a.plans.submit.mutate({
        taskId: t.task.id,
        plan: { goal: "g", steps: [], subtasks: [{ key: "one", title: "One", objective: "o" }] },
      });
      await a.plans.review.mutate({ taskId: t.task.id, verdict: "approve" });
      expect((await a.tasks.get.query({ id: t.task.id })).state).toBe("completed");
      await s.stop();
      // The state a crash right after the subtasks' transaction leaves: plan decomposed, subtasks
      // created, the task's round not ended.
      const db = new Database(path.join(home, "yard.db"));
      db.prepare(`UPDATE Task SET state = 'input_required', evidence = '{"reason":"plan_review"}' WHERE id = ?`).run(
        t.task.id,
      );
      db.prepare(`UPDATE TaskRound SET state = 'input_required', result = NULL, endedAt = NULL WHERE taskId = ?`).run(
        t.task.id,
      );
      db.close();

      s = await startTestServer({ home });
      const again = await adminClient(s).tasks.get.query({ id: t.task.id });
      expect(again.state).toBe("completed");
      expect(again.result?.summary).toMatch(/Plan version 1 approved: 1 subtasks/);
    } finally {
      await s.dispose();
    }
  });
});

async function completedTaskOn(a: ReturnType<typeof adminClient>, repoPath: string): Promise<string> {
  const script =
    "echo next > next.txt && git add next.txt && git -c user.name=A -c user.email=a@example.com commit -qm next && yard task report --status completed --summary done >/dev/null && exec sleep 600";
  const { task } = await a.tasks.start.mutate({ repoPath, objective: "next", argv: ["sh", "-c", script] });
  await a.tasks.wait.query({ id: task.id, until: "terminal", timeoutMs: 30_000 });
  return task.id;
}
