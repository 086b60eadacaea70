// The hand-off to GitHub end to end: the real server process and `yard` CLI, real git, the demo
// agent doing the task's work, a bare repository in a temp dir as the remote (the project's
// origin is https://github.com/acme/widgets.git, which `url.<bare>.insteadOf` sends to it, as a
// person's own git config may), and the GitHub API stub (tests/stubs/github-api.ts) as
// GITHUB_API_URL. Push (new branch; a rewritten branch refused, then forced with a lease), the
// missing token, the project's write-only token, opening a pull request (its body, draft), the poll
// keeping its state and checks current (and backing off when GitHub fails), a pull request merged
// on GitHub finishing its task, and one closed unmerged left as it is. The token is never printed.
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { adminClient } from "./helpers/client";
import { git, makeRepo } from "./helpers/git";
import { startTestServer, type TestServer, yard } from "./helpers/server";
import { waitFor } from "./helpers/wait";
import { type GithubStub, startGithubStub } from "./stubs/github-api";

vi.setConfig({ testTimeout: 120_000 });

const TOKEN = "ghp_stubtoken0123456789abcdef";
const REMOTE_URL = "https://github.com/acme/widgets.git";

let server: TestServer;
let api: ReturnType<typeof adminClient>;
let gh: GithubStub;
let repo: string;
let bare: string;
let projectId: string;
const dirs: string[] = [];
const outputs: string[] = [];

beforeAll(async () => {
  const parent = mkdtempSync(path.join(os.tmpdir(), "yard-gh-"));
  dirs.push(parent);
  bare = path.join(parent, "widgets.git");
  repo = makeRepo();
  dirs.push(repo);
  git(parent, "init", "-q", "--bare", bare);
  git(repo, "remote", "add", "origin", REMOTE_URL);
  git(repo, "config", `url.${bare}.insteadOf`, REMOTE_URL);
  git(repo, "-c", "protocol.file.allow=always", "push", "-q", "-u", "origin", "main");
  gh = await startGithubStub({ token: TOKEN, repos: { "acme/widgets": bare } });
  // The server has no GITHUB_TOKEN of its own (whatever this process has): the project's is set below.
  server = await startTestServer({ env: { GITHUB_API_URL: gh.apiUrl, GITHUB_TOKEN: "", YARD_GITHUB_POLL_MS: "200" } });
  api = adminClient(server);
  projectId = (await api.projects.add.mutate({ path: repo })).id;
});
afterAll(async () => {
  await server?.dispose();
  await gh?.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

async function run(args: string[], opts: { input?: string } = {}) {
  const r = await yard(server, ["--json", ...args], opts);
  outputs.push(r.stdout, r.stderr);
  return r;
}
async function ok(args: string[], opts: { input?: string } = {}) {
  const r = await run(args, opts);
  expect(r.code, `yard ${args.join(" ")}\n${r.stdout}${r.stderr}`).toBe(0);
  return r.json;
}
async function fails(args: string[], code: string) {
  const r = await run(args);
  expect([r.code, r.json?.error?.code], `yard ${args.join(" ")}\n${r.stdout}${r.stderr}`).toEqual([1, code]);
  return r.json.error as { code: string; message: string; details: Record<string, unknown> | null };
}

/** A task the demo agent completes: one file written and committed. */
async function completedTask(title: string, file: string) {
  const started = await ok([
    "task",
    "start",
    "--project",
    projectId,
    "--agent",
    "demo",
    "--title",
    title,
    "--objective",
    `write ${file} hello\ncommit add ${file}\nreport completed wrote ${file}`,
  ]);
  const id: string = started.task.id;
  const t = (await ok(["task", "wait", id, "--until", "completed", "--timeout-ms", "90000"])).tasks[0];
  expect(t.state).toBe("completed");
  return t as { id: string; branch: string; worktreePath: string; title: string };
}
const remoteTip = (branch: string) => git(bare, "rev-parse", `refs/heads/${branch}`);
const handoff = (id: string) => api.tasks.handoff.query({ id });

let first: { id: string; branch: string; worktreePath: string; title: string };

describe("push", () => {
  it("pushes a new branch, refuses a rewritten one without --force-with-lease, replaces it with the lease", async () => {
    first = await completedTask("greeting", "greet.txt");
    const tip = git(first.worktreePath, "rev-parse", "HEAD");
    const pushed = await ok(["task", "push", first.id]);
    expect(pushed.push).toEqual({
      remote: "origin",
      remoteBranch: first.branch,
      commit: tip,
      status: "new",
      uncommitted: 0,
    });
    expect(pushed.handoff).toMatchObject({
      remote: "origin",
      remoteBranch: first.branch,
      pushedCommit: tip,
      pullRequest: null,
    });
    expect(remoteTip(first.branch)).toBe(tip);

    // The branch is rewritten (an amended commit): a plain push would lose the remote's commit.
    git(first.worktreePath, "commit", "-q", "--amend", "-m", "add greet.txt (amended)");
    const amended = git(first.worktreePath, "rev-parse", "HEAD");
    const e = await fails(["task", "push", first.id], "CONFLICT");
    expect(e.message).toMatch(/--force-with-lease/);
    expect(e.details).toMatchObject({ remote: "origin", remoteBranch: first.branch });
    expect(remoteTip(first.branch)).toBe(tip);

    const forced = await ok(["task", "push", first.id, "--force-with-lease"]);
    expect(forced.push).toMatchObject({ commit: amended, status: "forced" });
    expect(remoteTip(first.branch)).toBe(amended);
    const events = (await api.tasks.events.query({ id: first.id })).events.filter((x) => x.type === "task.pushed");
    expect(events.map((x) => x.payload.status)).toEqual(["new", "forced"]);
  });

  it("names the remotes when the one asked for is missing", async () => {
    const e = await fails(["task", "push", first.id, "--remote", "upstream"], "NO_REMOTE");
    expect(e.details).toEqual({ remote: "upstream", remotes: ["origin"] });
  });
});

describe("pull requests", () => {
  it("without a token: GITHUB_TOKEN_MISSING saying how to set one; GitHub is not asked", async () => {
    const e = await fails(["task", "pr", first.id], "GITHUB_TOKEN_MISSING");
    expect(e.message).toContain(`yard project github-token ${projectId}`);
    expect(e.message).toContain("GITHUB_TOKEN");
    expect(gh.requests).toEqual([]);
    expect((await ok(["project", "github", projectId])).tokenSource).toBeNull();
  });

  it("the project's token is write-only: set from stdin, said to be set, never shown", async () => {
    expect(await ok(["project", "github-token", projectId], { input: `${TOKEN}\n` })).toEqual({
      tokenSource: "project",
      apiUrl: gh.apiUrl,
    });
    const listed = await run(["project", "list"]);
    expect(listed.stdout).not.toContain(TOKEN);
    expect(JSON.stringify(await api.projects.get.query({ id: projectId }))).not.toContain(TOKEN);
  });

  it("opens a draft pull request whose body has the contract, the result and the review's comments", async () => {
    await api.reviews.addComment.mutate({
      taskId: first.id,
      path: "greet.txt",
      startLine: 1,
      body: "Say hello to the world too",
    });
    await api.reviews.submit.mutate({ taskId: first.id, verdict: "approve", summary: "Good first step" });
    const r = await ok(["task", "pr", first.id, "--draft"]);
    expect(r).toMatchObject({
      created: true,
      push: null, // the remote already has the branch's commit
      pullRequest: {
        number: 1,
        url: "https://github.com/acme/widgets/pull/1",
        repo: "acme/widgets",
        state: "open",
        draft: true,
        base: "main",
      },
    });
    const create = gh.requests.find((q) => q.method === "POST")!;
    expect(create).toMatchObject({ path: "/api/v3/repos/acme/widgets/pulls", token: TOKEN, status: 201 });
    expect(create.body).toMatchObject({ title: "greeting", head: first.branch, base: "main", draft: true });
    const body = String(create.body!.body);
    for (const part of [
      "write greet.txt hello",
      "## Result",
      "**completed**",
      "wrote greet.txt",
      "**Approved**",
      "Good first step",
      "Say hello to the world too",
    ])
      expect(body).toContain(part);

    // Asked again: the same pull request, nothing new on GitHub.
    const again = await ok(["task", "pr", first.id]);
    expect(again).toMatchObject({ created: false, pullRequest: { number: 1 } });
    expect(gh.requests.filter((q) => q.method === "POST")).toHaveLength(1);
  });

  it("the poll keeps its state and checks current, and backs off while GitHub fails", async () => {
    const head = remoteTip(first.branch);
    gh.setChecks(head, {
      runs: [
        { name: "build", status: "completed", conclusion: "success", html_url: "https://ci.example/build" },
        { name: "test", status: "in_progress", conclusion: null },
      ],
    });
    const pending = await waitFor(
      async () => {
        const h = await handoff(first.id);
        return h?.pullRequest?.checks?.state === "pending" ? h.pullRequest : null;
      },
      { what: "pending checks" },
    );
    expect(pending.checks).toMatchObject({ total: 2, passed: 1, pending: 1, failed: 0 });
    expect(pending.headSha).toBe(head);

    gh.failNext(2, 503);
    const failed = await waitFor(async () => (await handoff(first.id))?.pullRequest?.pollError, {
      what: "a failed poll",
    });
    expect(failed).toMatch(/GITHUB_UNAVAILABLE/);

    gh.setChecks(head, {
      runs: [
        { name: "build", status: "completed", conclusion: "success" },
        { name: "test", status: "completed", conclusion: "failure", html_url: "https://ci.example/test" },
      ],
      statuses: [{ context: "legacy-ci", state: "success" }],
    });
    const done = await waitFor(
      async () => {
        const p = (await handoff(first.id))?.pullRequest;
        return p?.checks?.state === "failure" && p.pollError === null ? p : null;
      },
      { what: "failed checks after the outage" },
    );
    expect(done.checks).toMatchObject({ total: 3, passed: 2, failed: 1, pending: 0 });
    expect(done.checks!.items[0]).toEqual({ name: "test", state: "failure", url: "https://ci.example/test" });
    const text = await yard(server, ["task", "handoff", first.id]);
    outputs.push(text.stdout, text.stderr);
    expect(text.stdout).toMatch(
      /pull request #1 open \(draft\): https:\/\/github.com\/acme\/widgets\/pull\/1; checks failure \(2\/3 passed, 1 failed\)/,
    );
    const actions = (await api.tasks.events.query({ id: first.id })).events
      .filter((x) => x.type === "task.pull_request")
      .map((x) => x.payload.action);
    expect(actions[0]).toBe("opened");
    expect(actions.filter((a) => a === "checks").length).toBeGreaterThanOrEqual(2);
  });

  it("a pull request merged on GitHub finishes its task: merged with the merge commit, worktree and branch cleaned", async () => {
    const mergeCommit = gh.merge(1);
    // task.finished is journaled once the cleanup is done.
    const finished = await waitFor(
      async () => (await api.tasks.events.query({ id: first.id })).events.find((x) => x.type === "task.finished"),
      { what: "the task finished by the merged pull request" },
    );
    const t = await api.tasks.get.query({ id: first.id });
    expect(t).toMatchObject({ state: "completed", disposition: "merged", mergeCommit, cleanupError: null });
    expect(existsSync(first.worktreePath)).toBe(false);
    expect(git(repo, "branch", "--list", first.branch)).toBe(""); // it pointed at what GitHub merged
    expect(finished.payload).toMatchObject({
      disposition: "merged",
      mergeCommit,
      by: "github",
      pullRequest: { number: 1, url: "https://github.com/acme/widgets/pull/1" },
      cleanup: { worktreeRemoved: true, branchDeleted: true },
    });
    expect((await handoff(first.id))?.pullRequest).toMatchObject({ state: "merged", mergeCommit });
    // Finished: nothing more to push or open.
    expect((await fails(["task", "push", first.id], "CONFLICT")).message).toMatch(/already merged/);
  });

  it("merged while its task works on another round: the task finishes once that round is completed", async () => {
    const task = await completedTask("second round", "two.txt");
    const { pullRequest } = await ok(["task", "pr", task.id]);
    await api.reviews.submit.mutate({
      taskId: task.id,
      verdict: "request_changes",
      summary: "sleep 3000\nreport completed round two done",
    });
    await ok(["task", "wait", task.id, "--until", "working", "--timeout-ms", "60000"]);
    gh.merge(pullRequest.number);
    const merged = await waitFor(
      async () =>
        (await api.tasks.events.query({ id: task.id })).events.find(
          (x) => x.type === "task.pull_request" && x.payload.action === "merged",
        ),
      { what: "the merge seen by the poll" },
    );
    expect(merged.payload.waitingFor).toBe("working");
    expect((await api.tasks.get.query({ id: task.id })).disposition).toBeNull();
    await waitFor(
      async () => (await api.tasks.events.query({ id: task.id })).events.some((x) => x.type === "task.finished"),
      { timeoutMs: 60_000, what: "the task finished after its round" },
    );
    expect(await api.tasks.get.query({ id: task.id })).toMatchObject({
      round: 2,
      state: "completed",
      disposition: "merged",
    });
  });

  it("a pull request closed unmerged is shown, and the task is left as it is", async () => {
    const second = await completedTask("farewell", "bye.txt");
    const r = await ok(["task", "pr", second.id]);
    expect(r).toMatchObject({ created: true, push: { status: "new" }, pullRequest: { draft: false } });
    gh.closePull(r.pullRequest.number);
    await waitFor(async () => (await handoff(second.id))?.pullRequest?.state === "closed", {
      what: "the closed state",
    });
    const t = await api.tasks.get.query({ id: second.id });
    expect(t).toMatchObject({ state: "completed", disposition: null });
    expect(existsSync(second.worktreePath)).toBe(true);
    const closed = (await api.tasks.events.query({ id: second.id })).events.filter(
      (x) => x.type === "task.pull_request" && x.payload.action === "closed",
    );
    expect(closed).toHaveLength(1);
  });

  it("maps GitHub's refusals to typed errors with its message, and never prints the token", async () => {
    await ok(["project", "github-token", projectId], { input: "ghp_wrong_token_value\n" });
    const third = await completedTask("third", "third.txt");
    const e = await fails(["task", "pr", third.id], "GITHUB_AUTH");
    expect(e.message).toMatch(/Bad credentials/);
    for (const text of [...outputs, server.output()]) {
      expect(text).not.toContain(TOKEN);
      expect(text).not.toContain("ghp_wrong_token_value");
    }
    await ok(["project", "github-token", projectId, "--clear"]);
    expect((await ok(["project", "github", projectId])).tokenSource).toBeNull();
  });
});
