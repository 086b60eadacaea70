// Turn snapshots and "Revert turn" end to end: the real server, real git repositories and the demo
// agent in real PTYs (its directives write files, commit, report and end turns). Each turn that
// changed files is recorded on a hidden ref, numbered across rounds, with the agent's index left
// byte-identical; a turn's diff is only what that turn changed; a revert puts the worktree's
// files back to the snapshot before the turn (untracked files too, files made since removed),
// keeps the branch and the agent's commits, records a person's edits first and itself after (so
// it can be undone), and is refused while the agent works and once the task is finished, when
// its refs and rows are gone.
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { adminClient, errorOf } from "./helpers/client";
import { git, makeRepo } from "./helpers/git";
import { startTestServer, type TestServer, yard } from "./helpers/server";
import { waitFor } from "./helpers/wait";

// Whole agent turns on a loaded 2-core machine.
vi.setConfig({ testTimeout: 240_000 });

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
});

const waitState = (id: string, until: string) =>
  api.tasks.wait.query({ id, until, timeoutMs: 120_000 }).then((r) => r.tasks[0]!);

/** The task's snapshots once there are `n` of them (they are taken in the background after a turn ends). */
const turnsWhen = (id: string, n: number) =>
  waitFor(
    async () => {
      const { turns } = await api.tasks.turns.query({ id });
      return turns.length >= n ? turns : null;
    },
    { timeoutMs: 60_000, what: `${n} turn snapshot(s) of ${id}` },
  );

/** A follow-up prompt, and its turn's end (the task back in input_required). */
async function followUpTurn(id: string, text: string) {
  const ends = async () =>
    (await api.tasks.events.query({ id })).events.filter(
      (e) => e.type === "task.state" && e.payload.to === "input_required",
    ).length;
  const before = await ends();
  await api.tasks.followUp.mutate({ id, text });
  await waitFor(async () => (await ends()) > before, { timeoutMs: 60_000, what: `the turn of "${text}" to end` });
}

const read = (wt: string, f: string) => (existsSync(path.join(wt, f)) ? readFileSync(path.join(wt, f), "utf8") : null);
const indexOf = (wt: string) => {
  const file = path.resolve(wt, git(wt, "rev-parse", "--git-path", "index"));
  return { bytes: readFileSync(file).toString("base64"), mtimeMs: statSync(file).mtimeMs };
};

/** A demo-agent task whose first turn commits a.txt and reports completed. */
async function demoTask() {
  const repo = makeRepo();
  repos.push(repo);
  const { task } = await api.tasks.start.mutate({
    repoPath: repo,
    agent: "demo",
    objective: "write a.txt one\ncommit add a\nreport completed round one",
  });
  await waitState(task.id, "completed");
  return { repo, id: task.id, wt: task.worktreePath! };
}

describe("turn snapshots", () => {
  it("records each turn across rounds on a hidden ref, without touching the agent's index; a turn's diff is only its own", async () => {
    const { repo, id, wt } = await demoTask();
    const [t1] = await turnsWhen(id, 1);
    expect(t1).toMatchObject({ number: 1, round: 1, kind: "turn", revertOf: null, files: 1, additions: 1 });
    expect(git(repo, "rev-parse", `refs/switchyard/tasks/${id}/turn-1`)).toBe(t1!.commit);
    expect(git(repo, "rev-parse", `${t1!.commit}^`)).toBe((await api.tasks.get.query({ id })).baseSha);
    const index = indexOf(wt);

    // Round 2 (changes requested): an edit and an untracked file, nothing committed or staged.
    await api.reviews.submit.mutate({
      taskId: id,
      verdict: "request_changes",
      summary: "append a.txt two\nuntracked loose.txt\nnoreport",
    });
    await waitState(id, "input_required");
    const [, t2] = await turnsWhen(id, 2);
    expect(t2).toMatchObject({ number: 2, round: 2, kind: "turn", files: 2 });
    expect(git(repo, "rev-parse", `${t2!.commit}^`)).toBe(t1!.commit);
    expect(git(repo, "ls-tree", "--name-only", t2!.commit).split("\n")).toEqual(["README.md", "a.txt", "loose.txt"]);
    // The agent's index is exactly as the agent left it: the snapshots read a private copy.
    expect(indexOf(wt)).toEqual(index);
    // A turn that changes nothing records nothing.
    await followUpTurn(id, "print nothing to change");
    await followUpTurn(id, "write b.txt bee");
    const turns = await turnsWhen(id, 3);
    expect(turns.map((t) => [t.number, t.round, t.files])).toEqual([
      [1, 1, 1],
      [2, 2, 2],
      [3, 2, 1],
    ]);

    const d2 = await api.tasks.diff.query({ id, turn: 2 });
    expect(d2.source).toBe("turn");
    expect(d2.files).toEqual([
      { path: "a.txt", status: "modified", additions: 1, deletions: 0, binary: false },
      { path: "loose.txt", status: "added", additions: 1, deletions: 0, binary: false },
    ]);
    expect(d2.diff).toContain("+two");
    expect(d2.diff).not.toContain("+one");
    expect((await api.tasks.diff.query({ id, turn: 1 })).files.map((f) => f.path)).toEqual(["a.txt"]);
    // The same through the CLI.
    const cli = await yard(server, ["--json", "task", "diff", id, "--turn", "3", "--stat"]);
    expect(cli.json.files.map((f: { path: string }) => f.path)).toEqual(["b.txt"]);
    const listed = await yard(server, ["task", "turns", id]);
    expect(listed.stdout.split("\n")[0]).toMatch(/^TURN\s+ROUND\s+KIND\s+FILES/);
    expect(listed.stdout.trim().split("\n")).toHaveLength(4);

    expect((await errorOf(() => api.tasks.diff.query({ id, turn: 9 }))).code).toBe("NOT_FOUND");
    expect((await errorOf(() => api.tasks.diff.query({ id, turn: 1, since: "last_review" }))).code).toBe("BAD_PARAMS");
  });
});

describe("revert turn", () => {
  it("restores the files before the turn, keeps the branch and the index, records edits and itself, and can be undone", async () => {
    const { repo, id, wt } = await demoTask();
    await turnsWhen(id, 1);
    await api.reviews.submit.mutate({
      taskId: id,
      verdict: "request_changes",
      summary: "append a.txt two\nuntracked loose.txt\nwrite docs/new.txt made in turn two\nnoreport",
    });
    await waitState(id, "input_required");
    await turnsWhen(id, 2);
    const head = git(wt, "rev-parse", "HEAD");
    const branch = (await api.tasks.get.query({ id })).branch!;
    const index = indexOf(wt);
    // A person's edit after the turn: recorded before the revert, so it can be brought back.
    writeFileSync(path.join(wt, "hand.txt"), "typed by a person\n");

    const preview = await api.tasks.revertPreview.query({ id, turn: 2 });
    expect(preview).toEqual({
      turn: 2,
      restores: 1,
      files: [
        { path: "a.txt", action: "restore" },
        { path: "docs/new.txt", action: "remove" },
        { path: "hand.txt", action: "remove" },
        { path: "loose.txt", action: "remove" },
      ],
      truncated: false,
    });

    const r = await yard(server, ["--json", "task", "revert-turn", id, "2", "--yes"]);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.json).toMatchObject({
      turn: 2,
      restores: 1,
      files: preview.files,
      snapshot: { number: 4, kind: "revert" },
    });
    expect(read(wt, "a.txt")).toBe("one\n");
    for (const gone of ["loose.txt", "hand.txt", "docs"]) expect(existsSync(path.join(wt, gone))).toBe(false);
    // A working-tree restore: branch, HEAD and the agent's index are as they were.
    expect(git(wt, "rev-parse", "HEAD")).toBe(head);
    expect(git(repo, "rev-parse", branch)).toBe(head);
    expect(indexOf(wt)).toEqual(index);
    expect((await api.tasks.diff.query({ id })).files.map((f) => f.path)).toEqual(["a.txt"]);

    const turns = await api.tasks.turns.query({ id });
    expect(turns.turns.map((t) => [t.number, t.kind, t.revertOf])).toEqual([
      [1, "turn", null],
      [2, "turn", null],
      [3, "edits", null],
      [4, "revert", 2],
    ]);
    expect(turns.turns[3]!.tree).toBe(turns.turns[0]!.tree);
    const events = (await api.tasks.events.query({ id })).events.filter((e) => e.type === "task.turn_reverted");
    expect(events.map((e) => e.payload)).toEqual([
      { turn: 2, restores: 1, files: 4, paths: preview.files.map((f) => f.path), snapshot: 4, by: "owner" },
    ]);

    // Reverting the revert brings back everything, the person's edit included.
    const undo = await api.tasks.revertTurn.mutate({ id, turn: 4 });
    expect(undo.snapshot).toMatchObject({ number: 5, kind: "revert", revertOf: 4, tree: turns.turns[2]!.tree });
    expect(read(wt, "a.txt")).toBe("one\ntwo\n");
    expect(read(wt, "hand.txt")).toBe("typed by a person\n");
    expect(read(wt, "docs/new.txt")).toBe("made in turn two\n");

    // Turn 1 goes back to the base commit: the committed a.txt is removed from the files, the commit stays.
    const base = await api.tasks.revertTurn.mutate({ id, turn: 1 });
    expect(base.restores).toBe(0);
    expect(existsSync(path.join(wt, "a.txt"))).toBe(false);
    expect(git(repo, "rev-parse", branch)).toBe(head);
    expect(git(wt, "status", "--porcelain")).toBe("D a.txt"); // (trimmed) " D": deleted, not staged
  });

  it("is refused while the agent works, for a turn that does not exist, and once the task is finished (its refs then gone)", async () => {
    const { repo, id } = await demoTask();
    await turnsWhen(id, 1);
    await api.reviews.submit.mutate({ taskId: id, verdict: "request_changes", summary: "sleep 3000\nnoreport" });
    await waitFor(
      async () =>
        (await api.panes.get.query({ id: (await api.tasks.get.query({ id })).paneId! })).lifecycle === "working",
      {
        what: "the agent to work",
      },
    );
    const busy = await errorOf(() => api.tasks.revertTurn.mutate({ id, turn: 1 }));
    expect(busy.code).toBe("PANE_BUSY");
    const cli = await yard(server, ["--json", "task", "revert-turn", id, "1", "--yes"]);
    expect([cli.code, cli.json?.error?.code]).toEqual([1, "PANE_BUSY"]);
    expect(existsSync(path.join((await api.tasks.get.query({ id })).worktreePath!, "a.txt"))).toBe(true);

    await waitState(id, "input_required");
    expect((await errorOf(() => api.tasks.revertTurn.mutate({ id, turn: 7 }))).code).toBe("NOT_FOUND");

    await api.tasks.finish.mutate({ id, discard: {} });
    const finished = await errorOf(() => api.tasks.revertTurn.mutate({ id, turn: 1 }));
    expect(finished.code).toBe("CONFLICT");
    expect(finished.message).toMatch(/discarded/);
    await waitFor(async () => (await api.tasks.turns.query({ id })).turns.length === 0, {
      what: "the finished task's turns to be pruned",
    });
    expect(git(repo, "for-each-ref", `refs/switchyard/tasks/${id}/`)).toBe("");
  });
});

describe("pruning", () => {
  it("a server that starts prunes the snapshots of a worktree removed while it was stopped", async () => {
    const home = mkdtempSync(path.join(os.tmpdir(), "yard-turns-home-"));
    let s = await startTestServer({ home });
    try {
      const a = adminClient(s);
      const repo = makeRepo();
      repos.push(repo);
      const { task } = await a.tasks.start.mutate({ repoPath: repo, agent: "demo", objective: "write a.txt one" });
      await waitFor(async () => (await a.tasks.turns.query({ id: task.id })).turns.length === 1, {
        timeoutMs: 60_000,
        what: "the first turn's snapshot",
      });
      expect(git(repo, "for-each-ref", "--format=%(refname)", `refs/switchyard/tasks/${task.id}/`)).toBe(
        `refs/switchyard/tasks/${task.id}/turn-1`,
      );
      await s.stop();
      git(repo, "worktree", "remove", "--force", task.worktreePath!);

      s = await startTestServer({ home });
      const b = adminClient(s);
      await waitFor(async () => (await b.tasks.turns.query({ id: task.id })).turns.length === 0, {
        what: "the removed worktree's snapshots to be pruned",
      });
      expect(git(repo, "for-each-ref", `refs/switchyard/tasks/${task.id}/`)).toBe("");
    } finally {
      await s.dispose();
    }
  });
});
