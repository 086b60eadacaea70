// Review rounds end to end: the real server process, real git repositories, real PTYs running the
// demo agent, driven through the `yard` CLI from an orchestrator pane's environment (and the tRPC
// client for the refusals). What each agent received is read back from the demo agent's own
// transcript (DEMO_TRANSCRIPT_DIR), so the prompt checks are about what arrived, not what was sent.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { LIMITS } from "../server/wire/common";
import { toCliError } from "../cli/output";
import { adminClient, clientWithToken, errorOf } from "./helpers/client";
import { git, makeRepo } from "./helpers/git";
import { orchestratorPane } from "./helpers/orchestrator";
import { startTestServer, type TestServer, yard } from "./helpers/server";
import { startRecordingWorker } from "./helpers/worker";

// Whole agent turns (each report runs the CLI) on a loaded 2-core machine.
vi.setConfig({ testTimeout: 240_000 });

let server: TestServer;
let api: ReturnType<typeof adminClient>;
let orch: { pane: { id: string }; env: Record<string, string> };
const dirs: string[] = [];
const tmp = (p = "yard-rv-") => {
  const d = mkdtempSync(path.join(os.tmpdir(), p));
  dirs.push(d);
  return d;
};
const repoWith = () => {
  const r = makeRepo();
  dirs.push(r);
  return r;
};
const transcripts = tmp("yard-rv-transcripts-");

beforeAll(async () => {
  server = await startTestServer({ env: { DEMO_TRANSCRIPT_DIR: transcripts, YARD_MAX_ACTIVE_TASKS: "4" } });
  api = adminClient(server);
  orch = await orchestratorPane(api, tmp());
});
afterAll(async () => {
  await server?.dispose();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** The CLI as the orchestrator pane runs it; the call must succeed. */
async function ok(args: string[], env: Record<string, string> = orch.env) {
  const r = await yard(server, ["--json", ...args], { env });
  expect(r.code, `yard ${args.join(" ")}\n${r.stdout}${r.stderr}`).toBe(0);
  return r.json;
}
/** The CLI call must fail with this error code (exit 1, one JSON document). */
async function fails(args: string[], code: string, env: Record<string, string> = orch.env) {
  const r = await yard(server, ["--json", ...args], { env });
  expect([r.code, r.json?.error?.code], `yard ${args.join(" ")}\n${r.stdout}${r.stderr}`).toEqual([1, code]);
  return r.json.error as { code: string; message: string; details: Record<string, unknown> | null };
}
const waitState = (id: string, until: string) =>
  api.tasks.wait.query({ id, until, timeoutMs: 120_000 }).then((r) => r.tasks[0]!);

/** Every prompt the demo agent started a turn with in this worktree, with the agent session that got it (in order within a session). */
function promptsReceived(worktree: string): Array<{ session: string; prompt: string }> {
  const out: Array<{ session: string; prompt: string }> = [];
  for (const f of readdirSync(transcripts).filter((n) => n.endsWith(".jsonl"))) {
    for (const line of readFileSync(path.join(transcripts, f), "utf8").split("\n").filter(Boolean)) {
      const e = JSON.parse(line) as { type: string; cwd: string; session_id: string; message?: { content: string } };
      if (e.type === "user" && e.cwd === worktree) out.push({ session: e.session_id, prompt: e.message!.content });
    }
  }
  return out;
}

describe("the review loop through the CLI, as an orchestrator runs it", () => {
  it("completes, takes a range comment, requests changes, runs round 2 on the same worktree and pane, approves and merges", async () => {
    const repo = repoWith();
    const project = (await ok(["project", "add", repo], {})).project;
    const objective =
      "write greet.txt hello\nappend greet.txt world\ncommit add greet\nreport completed wrote greet.txt";
    const started = await ok([
      "task",
      "start",
      "--project",
      project.id,
      "--agent",
      "demo",
      "--title",
      "greeting",
      "--objective",
      objective,
    ]);
    const id: string = started.task.id;
    const worktree: string = started.task.worktreePath;
    expect((await ok(["task", "wait", id, "--until", "completed", "--timeout-ms", "120000"])).tasks[0]).toMatchObject({
      state: "completed",
      round: 1,
      reviewStatus: "none",
    });

    // Nothing to compare with before the first review.
    expect((await fails(["task", "changes", id], "CONFLICT")).message).toMatch(/No review/);

    // A comment on a range: its quote is the code the diff shows there.
    const body = "write fix.txt from-review; commit apply review; report completed round 2 done";
    const added = (await ok(["task", "comment", id, "--path", "greet.txt", "--line", "1", "--end-line", "2", body]))
      .comment;
    expect(added).toMatchObject({
      taskId: id,
      round: 1,
      reviewId: null,
      path: "greet.txt",
      startLine: 1,
      endLine: 2,
      side: "new",
      body,
      quote: "hello\nworld",
      resolved: false,
      author: orch.pane.id,
    });

    const summary = "Round 1 is close; one thing to add.";
    const reviewed = await ok(["task", "review", id, "--request-changes", "--summary", summary]);
    expect(reviewed.review).toMatchObject({
      taskId: id,
      round: 1,
      verdict: "changes_requested",
      summary,
      stage: "agent",
      reviewer: orch.pane.id,
      comments: [{ id: added.id, reviewId: reviewed.review.id }],
    });
    expect(reviewed.task).toMatchObject({ id, round: 2, paneId: started.pane.id, reviewStatus: "none" });
    expect(["pending", "working"]).toContain(reviewed.task.state);
    const round2Started = Date.now();

    const done = (await ok(["task", "wait", id, "--until", "completed", "--timeout-ms", "120000"])).tasks[0];
    expect(done).toMatchObject({
      state: "completed",
      round: 2,
      paneId: started.pane.id,
      worktreePath: worktree,
      result: { status: "completed", summary: "round 2 done" },
    });

    // Round 2's prompt, as the agent got it: the feedback only, in the same agent session as round 1.
    const rounds = (await ok(["task", "rounds", id])).rounds;
    expect(rounds.map((r: any) => [r.number, r.state, r.paneId, r.result?.summary])).toEqual([
      [1, "completed", started.pane.id, "wrote greet.txt"],
      [2, "completed", started.pane.id, "round 2 done"],
    ]);
    const received = promptsReceived(worktree);
    expect(received.map((r) => r.prompt)).toEqual([rounds[0].prompt, rounds[1].prompt]);
    expect(received[1]!.session).toBe(received[0]!.session);
    const feedback: string = rounds[1].prompt;
    expect(feedback).toContain(summary);
    expect(feedback).toContain(body);
    expect(feedback).toContain("greet.txt:1-2");
    expect(feedback).toContain("hello\nworld");
    expect(feedback).not.toContain("write greet.txt hello");
    expect(feedback).not.toContain("Objective:");
    expect(rounds[0].prompt).toContain(`Objective:\n${objective}`);
    // Round 1 keeps its record and its review; round 2 has none yet.
    expect(rounds[0].reviews).toEqual([
      expect.objectContaining({
        id: reviewed.review.id,
        verdict: "changes_requested",
        comments: [expect.objectContaining({ id: added.id, body })],
      }),
    ]);
    expect(rounds[0].endedAt).not.toBeNull();
    expect(rounds[1].reviews).toEqual([]);

    // The agent acted on the feedback in the same worktree; "changes" shows only round 2's work.
    const diff = await ok(["task", "diff", id]);
    expect(diff.files.map((f: any) => f.path).sort()).toEqual(["fix.txt", "greet.txt"]);
    const changes = await ok(["task", "changes", id]);
    expect(changes.files.map((f: any) => f.path)).toEqual(["fix.txt"]);
    expect(changes.since).toMatchObject({ reviewId: reviewed.review.id, round: 1, verdict: "changes_requested" });
    expect(changes.diff).toContain("+from-review");

    const comments1 = (await ok(["task", "comments", id, "--round", "1"])).comments;
    expect(comments1).toEqual([
      expect.objectContaining({ id: added.id, reviewId: reviewed.review.id, quote: "hello\nworld" }),
    ]);
    expect((await ok(["task", "comments", id, "--round", "2"])).comments).toEqual([]);

    const approved = await ok(["task", "review", id, "--approve", "--summary", "Looks good."]);
    expect(approved.review).toMatchObject({ round: 2, verdict: "approved", summary: "Looks good." });
    expect(approved.task).toMatchObject({ state: "completed", round: 2, reviewStatus: "approved" });
    expect(await ok(["task", "reviews", id])).toMatchObject({
      round: 2,
      status: "approved",
      reviews: [{ verdict: "changes_requested" }, { verdict: "approved" }],
    });
    expect((await ok(["task", "get", id])).task.reviewStatus).toBe("approved");
    expect((await fails(["task", "review", id, "--approve"], "CONFLICT")).message).toMatch(/already approved/);

    // The card's diff size is counted in the background after the round ended; the card says
    // since when it is in Review (round 2 ending, not the approval after it).
    const cardOf = async (column: "review" | "done") =>
      (await api.board.get.query({ projectId: project.id }))[column].find((c) => c.id === id);
    const size = { files: 2, additions: 3, deletions: 0 };
    await vi.waitFor(async () => expect((await cardOf("review"))?.diffStat).toEqual(size), {
      timeout: 30_000,
      interval: 100,
    });
    const card = (await cardOf("review"))!;
    expect(card).toMatchObject({ id, round: 2, reviewStatus: "approved", needsUser: false, contextId: null });
    const reviewSince = Date.parse(card.columnSince);
    expect(reviewSince).toBeGreaterThanOrEqual(round2Started - 1000);
    expect(reviewSince).toBeLessThanOrEqual(Date.parse(approved.review.createdAt));

    const merged = await ok(["task", "finish", id, "--merge"]);
    expect(merged.task.disposition).toBe("merged");
    // Done since the merge, with the size of what merged (its worktree is gone: counted from the merge).
    await vi.waitFor(async () => expect(Date.parse((await cardOf("done"))!.columnSince)).toBeGreaterThan(reviewSince), {
      timeout: 10_000,
      interval: 100,
    });
    expect((await cardOf("done"))!.diffStat).toEqual(size);
    expect(readFileSync(path.join(repo, "fix.txt"), "utf8")).toBe("from-review\n");
    expect(readFileSync(path.join(repo, "greet.txt"), "utf8")).toBe("hello\nworld\n");
    expect(git(repo, "status", "--porcelain")).toBe("");
    // Every round keeps its result and review after the merge.
    expect(
      (await ok(["task", "rounds", id])).rounds.map((r: any) => [
        r.number,
        r.result.summary,
        r.reviews.map((v: any) => v.verdict),
      ]),
    ).toEqual([
      [1, "wrote greet.txt", ["changes_requested"]],
      [2, "round 2 done", ["approved"]],
    ]);
  });

  it("after the pane exited, a fresh pane with the same profile gets the contract followed by the feedback", async () => {
    const repo = repoWith();
    const objective = "write a.txt one\ncommit add a";
    const started = await ok(["task", "start", "--repo", repo, "--agent", "demo", "--objective", objective]);
    const id: string = started.task.id;
    expect((await ok(["task", "wait", id, "--timeout-ms", "120000"])).tasks[0].state).toBe("input_required");
    expect((await fails(["task", "review", id, "--approve"], "TASK_NOT_COMPLETED")).details).toMatchObject({
      state: "input_required",
    });
    await ok(["task", "report", "--task", id, "--status", "completed", "--summary", "round 1 by hand"], {});
    await ok(["pane", "kill", started.pane.id]);
    expect((await ok(["pane", "get", started.pane.id])).pane.lifecycle).toBe("exited");
    expect((await ok(["task", "get", id])).task.state).toBe("completed");

    const summary = "write b.txt two\ncommit add b\nreport completed round two";
    const reviewed = await ok(["task", "review", id, "--request-changes", "--summary", summary]);
    expect(reviewed.task).toMatchObject({ round: 2, state: "pending" });
    const freshPane: string = reviewed.task.paneId;
    expect(freshPane).not.toBe(started.pane.id);
    const done = await waitState(id, "completed");
    expect(done).toMatchObject({ round: 2, paneId: freshPane, result: { summary: "round two" } });
    expect(await api.panes.get.query({ id: freshPane })).toMatchObject({
      taskId: id,
      agent: "demo",
      cwd: started.task.worktreePath,
    });

    const rounds = (await ok(["task", "rounds", id])).rounds;
    expect(rounds.map((r: any) => [r.number, r.paneId, r.state])).toEqual([
      [1, started.pane.id, "completed"],
      [2, freshPane, "completed"],
    ]);
    const prompt: string = rounds[1].prompt;
    expect(prompt.startsWith(`${rounds[0].prompt}\n\n`)).toBe(true); // the contract, then the feedback
    expect(prompt).toContain(`Objective:\n${objective}`);
    expect(
      prompt.endsWith("Make these changes in this worktree, commit them, and report again with yard task report."),
    ).toBe(true);
    expect(prompt).toContain(summary);
    // Two agent sessions in this worktree (the sessions' files come in no particular order): round 1's, then the fresh pane's.
    const received = promptsReceived(started.task.worktreePath);
    expect(received).toHaveLength(2);
    const first = received.find((r) => r.prompt === rounds[0].prompt);
    const second = received.find((r) => r.prompt === prompt);
    expect(first && second && first.session !== second.session).toBe(true);
    expect((await ok(["task", "diff", id])).files.map((f: any) => f.path).sort()).toEqual(["a.txt", "b.txt"]);
  });
});

describe("comments: anchoring, validation and the edit/resolve/delete rules", () => {
  it("refuses bad anchors without creating anything, and keeps submitted comments as their round's record", async () => {
    const repo = repoWith();
    const { task } = await api.tasks.start.mutate({
      parentPaneId: orch.pane.id,
      repoPath: repo,
      agent: "demo",
      objective: "write notes.txt alpha\nappend notes.txt beta\nappend notes.txt gamma\ncommit notes\nnoreport",
    });
    expect((await waitState(task.id, "settled")).state).toBe("input_required");
    const pane = clientWithToken(server, orch.env.YARD_TOKEN!);

    const bad: Array<[Record<string, unknown>, string, RegExp]> = [
      [
        { path: "missing.txt", startLine: 1 },
        "BAD_PARAMS",
        /missing\.txt is not in round 1's diff \(it changes notes\.txt\)/,
      ],
      [
        { path: "notes.txt", startLine: 4 },
        "BAD_PARAMS",
        /notes\.txt: line 4 on the new side .*shows new-side lines 1-3/,
      ],
      [{ path: "notes.txt", startLine: 2, endLine: 9 }, "BAD_PARAMS", /notes\.txt: lines 2-9/],
      [{ path: "notes.txt", startLine: 1, side: "old" }, "BAD_PARAMS", /no old-side lines.*the file is new/],
      [{ path: "notes.txt", startLine: 3, endLine: 2 }, "BAD_PARAMS", /endLine must not be before startLine/],
      [{ path: "notes.txt", startLine: 1, body: "x".repeat(LIMITS.summary + 1) }, "BAD_PARAMS", /body/],
      [{ path: "notes.txt", startLine: 1, body: "   " }, "BAD_PARAMS", /a comment needs text/],
      [{ path: "../notes.txt", startLine: 1 }, "BAD_PARAMS", /relative to its root/],
      [{ path: "notes.txt", startLine: 0 }, "BAD_PARAMS", /startLine/],
      [{ taskId: "tsknotthere00", path: "notes.txt", startLine: 1 }, "NOT_FOUND", /No task/],
    ];
    for (const [input, code, message] of bad) {
      const err = await errorOf(() =>
        api.reviews.addComment.mutate({ taskId: task.id, body: "a note", ...input } as never),
      );
      expect([JSON.stringify(input).slice(0, 80), err.code, err.message]).toEqual([
        JSON.stringify(input).slice(0, 80),
        code,
        expect.stringMatching(message),
      ]);
    }
    expect((await api.reviews.listComments.query({ taskId: task.id })).comments).toEqual([]);
    expect(
      (await fails(["task", "comment", task.id, "--path", "notes.txt", "--line", "7", "hi"], "BAD_PARAMS")).message,
    ).toMatch(/line 7/);
    expect(
      (
        await fails(
          ["task", "comment", task.id, "--path", "notes.txt", "--line", "1", "--side", "both", "hi"],
          "BAD_PARAMS",
        )
      ).message,
    ).toMatch(/--side/);

    // The user's comment; the orchestrator pane's own comment.
    const mine = (
      await api.reviews.addComment.mutate({
        taskId: task.id,
        path: "notes.txt",
        startLine: 2,
        body: "use a better word",
      })
    ).comment;
    expect(mine).toMatchObject({ author: "owner", quote: "beta", endLine: 2 });
    const theirs = (
      await pane.reviews.addComment.mutate({
        taskId: task.id,
        path: "notes.txt",
        startLine: 1,
        endLine: 3,
        body: "sort these",
      })
    ).comment;
    expect(theirs).toMatchObject({ author: orch.pane.id, quote: "alpha\nbeta\ngamma" });

    // Drafts: their author (or the user) edits and deletes them; anyone resolves.
    expect((await errorOf(() => pane.reviews.editComment.mutate({ id: mine.id, body: "not yours" }))).code).toBe(
      "FORBIDDEN",
    );
    expect((await errorOf(() => pane.reviews.deleteComment.mutate({ id: mine.id }))).code).toBe("FORBIDDEN");
    expect((await pane.reviews.editComment.mutate({ id: theirs.id, body: "sort these, please" })).comment.body).toBe(
      "sort these, please",
    );
    expect((await api.reviews.editComment.mutate({ id: theirs.id, body: "sort these lines" })).comment.body).toBe(
      "sort these lines",
    );
    expect((await ok(["task", "comment-resolve", mine.id])).comment.resolved).toBe(true);
    expect((await ok(["task", "comment-resolve", mine.id, "--reopen"])).comment.resolved).toBe(false);
    const scratch = (await ok(["task", "comment", task.id, "--path", "notes.txt", "--line", "3", "typo?"])).comment;
    expect((await ok(["task", "comment-edit", scratch.id, "never mind"])).comment.body).toBe("never mind");
    expect((await ok(["task", "comment-delete", scratch.id])).comment.id).toBe(scratch.id);
    expect((await errorOf(() => api.reviews.editComment.mutate({ id: scratch.id, body: "gone" }))).code).toBe(
      "NOT_FOUND",
    );
    const resolvedDraft = (
      await api.reviews.addComment.mutate({ taskId: task.id, path: "notes.txt", startLine: 3, body: "fine after all" })
    ).comment;
    await api.reviews.resolveComment.mutate({ id: resolvedDraft.id });

    // Request changes on the input_required task: the unresolved drafts go with the review and to the agent.
    const reviewed = await api.reviews.submit.mutate({
      taskId: task.id,
      verdict: "request_changes",
      summary: "report completed tidied",
    });
    expect(reviewed.review).toMatchObject({ stage: "human", reviewer: "owner", round: 1 });
    expect(reviewed.review.comments.map((c) => c.id).sort()).toEqual([mine.id, theirs.id].sort());
    expect(reviewed.task.round).toBe(2);
    expect((await waitState(task.id, "completed")).result?.summary).toBe("tidied");
    const round2 = (await api.tasks.rounds.query({ id: task.id })).rounds[1]!;
    expect(round2.prompt).toContain("notes.txt:1-3\nsort these lines\n```\nalpha\nbeta\ngamma\n```");
    expect(round2.prompt).toContain("notes.txt:2\nuse a better word\n```\nbeta\n```");
    expect(round2.prompt).not.toContain("fine after all");
    expect(round2.prompt).not.toContain("write notes.txt alpha");

    // Submitted: part of round 1's record. They can be resolved, not edited or deleted.
    expect((await errorOf(() => api.reviews.editComment.mutate({ id: mine.id, body: "rewrite history" }))).code).toBe(
      "CONFLICT",
    );
    expect((await errorOf(() => pane.reviews.deleteComment.mutate({ id: theirs.id }))).code).toBe("CONFLICT");
    expect((await pane.reviews.resolveComment.mutate({ id: theirs.id })).comment).toMatchObject({
      resolved: true,
      reviewId: reviewed.review.id,
      body: "sort these lines",
    });
    // The resolved draft stayed a draft of round 1, never sent.
    expect(
      (await api.reviews.listComments.query({ taskId: task.id, round: 1 })).comments.find(
        (c) => c.id === resolvedDraft.id,
      ),
    ).toMatchObject({ reviewId: null, resolved: true });
    // New comments anchor to round 2's diff.
    expect(
      (
        await api.reviews.addComment.mutate({
          taskId: task.id,
          path: "notes.txt",
          startLine: 1,
          body: "round two note",
        })
      ).comment.round,
    ).toBe(2);
  });

  it("approve needs a completed task (TASK_NOT_COMPLETED), request changes a completed or input_required one (CONFLICT)", async () => {
    const repo = repoWith();
    const { task } = await api.tasks.start.mutate({
      parentPaneId: orch.pane.id,
      repoPath: repo,
      agent: "demo",
      objective: "write w.txt x\nask hold on\nreport completed ok",
    });
    await waitState(task.id, "working");
    expect(await errorOf(() => api.reviews.submit.mutate({ taskId: task.id, verdict: "approve" }))).toMatchObject({
      code: "TASK_NOT_COMPLETED",
      details: { state: "working" },
    });
    expect(
      await errorOf(() => api.reviews.submit.mutate({ taskId: task.id, verdict: "request_changes", summary: "stop" })),
    ).toMatchObject({ code: "CONFLICT", details: { state: "working" } });
    expect((await api.reviews.list.query({ taskId: task.id })).reviews).toEqual([]);
    await api.tasks.cancel.mutate({ id: task.id });
    expect((await errorOf(() => api.reviews.submit.mutate({ taskId: task.id, verdict: "approve" }))).code).toBe(
      "TASK_NOT_COMPLETED",
    );
    expect(
      (
        await errorOf(() =>
          api.reviews.submit.mutate({ taskId: task.id, verdict: "request_changes", summary: "again" }),
        )
      ).code,
    ).toBe("CONFLICT");
    expect((await errorOf(() => api.reviews.submit.mutate({ taskId: "tsknotthere00", verdict: "approve" }))).code).toBe(
      "NOT_FOUND",
    );
    expect((await api.tasks.rounds.query({ id: task.id })).rounds.map((r) => r.number)).toEqual([1]);
  });

  it("a request for changes with nothing to say is BAD_PARAMS and changes nothing", async () => {
    const repo = repoWith();
    const { task } = await api.tasks.start.mutate({
      parentPaneId: orch.pane.id,
      repoPath: repo,
      agent: "demo",
      objective: "write q.txt q\nreport completed ok",
    });
    await waitState(task.id, "completed");
    const err = await fails(["task", "review", task.id, "--request-changes"], "BAD_PARAMS");
    expect(err.message).toMatch(/needs a summary or at least one unresolved comment/);
    expect(await api.tasks.get.query({ id: task.id })).toMatchObject({ state: "completed", round: 1 });
    expect((await api.reviews.list.query({ taskId: task.id })).reviews).toEqual([]);
    expect((await fails(["task", "review", task.id], "BAD_PARAMS")).message).toMatch(
      /exactly one of --approve or --request-changes/,
    );
  });

  it("a worker pane may not review or comment on its own task (FORBIDDEN), and nothing is recorded", async () => {
    const repo = repoWith();
    const { task, env } = await startRecordingWorker(api, repo, { before: "echo hi > w.txt" });
    expect(env.YARD_TASK).toBe(task.id);
    await api.tasks.report.mutate({ taskId: task.id, status: "completed", summary: "done" });
    const worker = clientWithToken(server, env.YARD_TOKEN!);
    expect(
      (
        await errorOf(() =>
          worker.reviews.addComment.mutate({ taskId: task.id, path: "w.txt", startLine: 1, body: "self-review" }),
        )
      ).code,
    ).toBe("FORBIDDEN");
    expect((await errorOf(() => worker.reviews.submit.mutate({ taskId: task.id, verdict: "approve" }))).code).toBe(
      "FORBIDDEN",
    );
    // It may read its own task's review (the feedback it gets is from there), nothing else.
    expect((await worker.reviews.listComments.query({ taskId: task.id })).comments).toEqual([]);
    expect((await errorOf(() => worker.tasks.followUp.mutate({ id: task.id, text: "hi" }))).code).toBe("FORBIDDEN");
    await fails(["task", "review", task.id, "--approve"], "FORBIDDEN", env);
    await fails(["task", "comment", task.id, "--path", "w.txt", "--line", "1", "mine"], "FORBIDDEN", env);
    // It may still read its own rounds (like its own task), not another task's.
    expect((await worker.tasks.rounds.query({ id: task.id })).rounds).toHaveLength(1);
    expect(await api.reviews.list.query({ taskId: task.id })).toMatchObject({ reviews: [], status: "none" });
    expect((await api.reviews.listComments.query({ taskId: task.id })).comments).toEqual([]);
    await api.panes.kill.mutate({ id: task.paneId! });
  });
});

describe("follow-ups", () => {
  it("go to an input_required task's pane through the gate; other states are CONFLICT; a prompt the agent ignores is SUBMIT_STALLED", async () => {
    const repo = repoWith();
    const project = await api.projects.add.mutate({ path: repo });
    const { task } = await api.tasks.start.mutate({
      parentPaneId: orch.pane.id,
      projectId: project.id,
      agent: "demo",
      objective: "write f.txt f\nnoreport",
    });
    expect((await waitState(task.id, "settled")).state).toBe("input_required");
    expect((await api.board.get.query({ projectId: project.id })).needs_you).toEqual([
      expect.objectContaining({ id: task.id, state: "input_required", needsUser: true, reviewStatus: "none" }),
    ]);
    expect(
      (await fails(["task", "follow-up", task.id, "ignore", "--stall-ms", "800"], "SUBMIT_STALLED")).details,
    ).toMatchObject({ stage: "activity_gate" });
    expect((await api.tasks.get.query({ id: task.id })).state).toBe("input_required");
    expect((await errorOf(() => api.tasks.followUp.mutate({ id: task.id, text: "  " }))).code).toBe("BAD_PARAMS");
    expect((await errorOf(() => api.tasks.followUp.mutate({ id: "tsknotthere00", text: "hi" }))).code).toBe(
      "NOT_FOUND",
    );

    const sent = await ok(["task", "follow-up", task.id, "report completed followed up"]);
    expect(sent.task.id).toBe(task.id);
    expect((await waitState(task.id, "completed")).result?.summary).toBe("followed up");
    const err = await fails(["task", "follow-up", task.id, "more"], "CONFLICT");
    expect(err.details).toMatchObject({ state: "completed" });
    const events = (await api.tasks.events.query({ id: task.id })).events.filter((e) => e.type === "task.follow_up");
    expect(events.map((e) => e.payload.text)).toEqual(["report completed followed up"]);
  });
});

describe("tasks.diff while a merge cleans up the worktree", () => {
  it("answers every call with a diff or a typed CONFLICT, never an internal error", async () => {
    const repo = repoWith();
    const { task } = await api.tasks.start.mutate({
      parentPaneId: orch.pane.id,
      repoPath: repo,
      agent: "demo",
      objective: "write m.txt merged\ncommit add m\nreport completed ok",
    });
    await waitState(task.id, "completed");
    let finished = false;
    const finishing = api.tasks.finish.mutate({ id: task.id, merge: {} }).finally(() => (finished = true));
    const answers: string[] = [];
    do {
      try {
        const d = await api.tasks.diff.query({ id: task.id });
        answers.push(`${d.source}:${d.files.map((f) => f.path).join(",")}`);
      } catch (e) {
        answers.push(toCliError(e).code);
      }
    } while (!finished);
    expect((await finishing).task.disposition).toBe("merged");
    for (const a of answers) expect(["worktree:m.txt", "branch:m.txt", "CONFLICT"]).toContain(a);
    expect(await api.tasks.diff.query({ id: task.id })).toMatchObject({
      source: "branch",
      files: [expect.objectContaining({ path: "m.txt" })],
      since: null,
    });
  });
});

describe("backlog and the cap", () => {
  it("records a backlog task with nothing else created, refuses to start it at the cap with nothing changed, then starts it", async () => {
    const s = await startTestServer({ env: { YARD_MAX_ACTIVE_TASKS: "1" } });
    try {
      const a = adminClient(s);
      const y = async (args: string[]) => {
        const r = await yard(s, ["--json", ...args]);
        return r;
      };
      const repo = repoWith();
      const project = await a.projects.add.mutate({ path: repo });
      const branches = git(repo, "branch", "--list");

      // Validated like a start: a bad ref or profile creates nothing.
      expect(
        (
          await errorOf(() =>
            a.tasks.start.mutate({ projectId: project.id, objective: "x", baseRef: "no-such-ref", backlog: true }),
          )
        ).code,
      ).toBe("BAD_PARAMS");
      expect(
        (
          await errorOf(() =>
            a.tasks.start.mutate({ projectId: project.id, objective: "x", agent: "nobody", backlog: true }),
          )
        ).code,
      ).toBe("NOT_FOUND");
      expect(await a.tasks.list.query()).toEqual([]);

      const saved = await y([
        "task",
        "start",
        "--backlog",
        "--project",
        project.id,
        "--agent",
        "demo",
        "--base",
        "main",
        "--objective",
        "write x.txt from-backlog\ncommit add x\nreport completed from the backlog",
      ]);
      expect(saved.code, saved.stdout + saved.stderr).toBe(0);
      const id: string = saved.json.task.id;
      expect(saved.json.pane).toBeNull();
      expect(saved.json.task).toMatchObject({
        state: "backlog",
        projectId: project.id,
        agent: "demo",
        worktreePath: null,
        branch: null,
        paneId: null,
        baseSha: null,
        baseRef: "main",
      });
      expect(git(repo, "branch", "--list")).toBe(branches);
      expect(existsSync(path.join(s.home, "worktrees"))).toBe(false);
      expect(await a.panes.list.query({ taskId: id })).toEqual([]);
      expect((await a.board.get.query({ projectId: project.id })).backlog.map((c) => c.id)).toEqual([id]);
      expect((await errorOf(() => a.tasks.diff.query({ id }))).code).toBe("CONFLICT");

      // At the cap: RATE_LIMITED naming the cap and how many run; the backlog task is untouched.
      const holder = await a.tasks.start.mutate({
        repoPath: repoWith(),
        agent: "demo",
        objective: "ask hold on\nreport completed ok",
      });
      const capped = await y(["task", "start-backlog", id]);
      expect([capped.code, capped.json.error.code]).toEqual([1, "RATE_LIMITED"]);
      expect(capped.json.error.details).toEqual({ active: 1, cap: 1 });
      expect(capped.json.error.message).toMatch(/1 tasks are already running \(the cap is 1\)/);
      expect(await a.tasks.get.query({ id })).toMatchObject({
        state: "backlog",
        worktreePath: null,
        branch: null,
        paneId: null,
      });
      expect(git(repo, "branch", "--list")).toBe(branches);
      expect(await a.panes.list.query({ taskId: id })).toEqual([]);

      await a.tasks.cancel.mutate({ id: holder.task.id });
      const started = await y(["task", "start-backlog", id]);
      expect(started.code, started.stdout + started.stderr).toBe(0);
      expect(started.json.task).toMatchObject({
        id,
        state: "pending",
        baseSha: git(repo, "rev-parse", "main"),
        targetBranch: "main",
        paneId: started.json.pane.id,
      });
      expect(existsSync(started.json.task.worktreePath)).toBe(true);
      expect(git(repo, "branch", "--list", started.json.task.branch)).toContain(started.json.task.branch);
      const done = (await a.tasks.wait.query({ id, until: "completed", timeoutMs: 120_000 })).tasks[0]!;
      expect(done.result?.summary).toBe("from the backlog");
      expect((await a.tasks.diff.query({ id })).files.map((f) => f.path)).toEqual(["x.txt"]);
      const rounds = (await a.tasks.rounds.query({ id })).rounds;
      expect(rounds).toHaveLength(1);
      expect(rounds[0]!.prompt).toContain("Objective:\nwrite x.txt from-backlog");
      const states = (await a.tasks.events.query({ id })).events
        .filter((e) => e.type === "task.state")
        .map((e) => e.payload.to);
      expect(states).toEqual(["pending", "working", "completed"]);

      const again = await y(["task", "start-backlog", id]);
      expect([again.code, again.json.error.code]).toEqual([1, "CONFLICT"]);
    } finally {
      await s.dispose();
    }
  });
});

describe("the base-ref picker", () => {
  it("lists the project's branches and recent commits, filtered by a query", async () => {
    const repo = repoWith();
    git(repo, "branch", "feature/picker");
    const project = await api.projects.add.mutate({ path: repo });
    const refs = await api.projects.refs.query({ id: project.id });
    expect(refs.branches).toEqual([
      { name: "main", sha: git(repo, "rev-parse", "main"), current: true },
      { name: "feature/picker", sha: git(repo, "rev-parse", "main"), current: false },
    ]);
    expect(refs.commits).toEqual([{ sha: git(repo, "rev-parse", "HEAD"), subject: "initial commit" }]);
    expect((await api.projects.refs.query({ id: project.id, query: "pick" })).branches.map((b) => b.name)).toEqual([
      "feature/picker",
    ]);
    expect((await errorOf(() => api.projects.refs.query({ id: "prjmissing000" }))).code).toBe("NOT_FOUND");
  });
});

describe("restart", () => {
  it("keeps comments, reviews and rounds", async () => {
    const repo = repoWith();
    const { task } = await api.tasks.start.mutate({
      parentPaneId: orch.pane.id,
      repoPath: repo,
      agent: "demo",
      objective: "write r.txt one\nappend r.txt two\ncommit r\nreport completed ok",
    });
    await waitState(task.id, "completed");
    const draft = (
      await api.reviews.addComment.mutate({ taskId: task.id, path: "r.txt", startLine: 2, body: "keep me" })
    ).comment;
    const approved = await api.reviews.submit.mutate({ taskId: task.id, verdict: "approve", summary: "fine" });
    expect(approved.review.comments.map((c) => c.id)).toEqual([draft.id]);
    const later = (
      await api.reviews.addComment.mutate({
        taskId: task.id,
        path: "r.txt",
        startLine: 1,
        endLine: 2,
        body: "a draft after approval",
      })
    ).comment;
    const before = {
      comments: await api.reviews.listComments.query({ taskId: task.id }),
      reviews: await api.reviews.list.query({ taskId: task.id }),
      rounds: await api.tasks.rounds.query({ id: task.id }),
    };
    expect(before.comments.comments.map((c) => c.id).sort()).toEqual([draft.id, later.id].sort());

    await server.stop();
    server = await startTestServer({ home: server.home, env: { DEMO_TRANSCRIPT_DIR: transcripts } });
    api = adminClient(server);
    expect(await api.reviews.listComments.query({ taskId: task.id })).toEqual(before.comments);
    expect(await api.reviews.list.query({ taskId: task.id })).toEqual(before.reviews);
    expect(await api.tasks.rounds.query({ id: task.id })).toEqual(before.rounds);
    expect((await api.tasks.get.query({ id: task.id })).reviewStatus).toBe("approved");
    // A draft survives as a draft: it can still be edited.
    expect(
      (await api.reviews.editComment.mutate({ id: later.id, body: "edited after the restart" })).comment.body,
    ).toBe("edited after the restart");
  });
});
