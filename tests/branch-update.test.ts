// Keeping a task branch current, end to end: the real server, real git repositories, the demo
// agent in real PTYs, driven through the `yard` CLI. How far a branch is behind its target
// (counted in the background, recounted when the target moves), Update branch by merge and by
// rebase (the base moves, line comments move with their lines or become outdated), a conflict
// with a live agent (a round naming the files, which the demo agent resolves) and without one
// (aborted, named), the refusals, and the merge strategies a finish lands with.
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { describeTask } from "./helpers/agent-tasks";
import { adminClient } from "./helpers/client";
import { git, makeRepo, removeRepo } from "./helpers/git";
import { ROOT, startTestServer, type TestServer, yard } from "./helpers/server";
import { waitFor } from "./helpers/wait";

// Whole agent turns (each report runs the CLI) on a loaded 2-core machine.
vi.setConfig({ testTimeout: 240_000 });

let server: TestServer;
let api: ReturnType<typeof adminClient>;
const dirs: string[] = [];
const tmp = (p = "yard-bu-") => {
  const d = mkdtempSync(path.join(os.tmpdir(), p));
  dirs.push(d);
  return d;
};

beforeAll(async () => {
  server = await startTestServer({ env: { YARD_MAX_ACTIVE_TASKS: "6" } });
  api = adminClient(server);
});
afterAll(async () => {
  await server?.dispose();
  for (const d of dirs) removeRepo(d);
});

async function ok(args: string[]) {
  const r = await yard(server, ["--json", ...args]);
  expect(r.code, `yard ${args.join(" ")}\n${r.stdout}${r.stderr}`).toBe(0);
  return r.json;
}
async function fails(args: string[], code: string) {
  const r = await yard(server, ["--json", ...args]);
  expect([r.code, r.json?.error?.code], `yard ${args.join(" ")}\n${r.stdout}${r.stderr}`).toEqual([1, code]);
  return r.json.error as { code: string; message: string; details: Record<string, unknown> | null };
}
const waitState = (id: string, until: string) =>
  api.tasks.wait.query({ id, until, timeoutMs: 120_000 }).then((r) => r.tasks[0]!);

/** A repository (README of ten lines) as a project. */
async function project(readme = Array.from({ length: 10 }, (_, i) => `l${i + 1}`).join("\n")) {
  const repo = makeRepo();
  dirs.push(repo);
  writeFileSync(path.join(repo, "README.md"), `${readme}\n`);
  git(repo, "commit", "-qam", "ten lines");
  return { repo, id: (await ok(["project", "add", repo])).project.id as string };
}

/** A demo-agent task whose objective is `directives`, once it is completed. */
async function completedTask(projectId: string, directives: string, agent = "demo") {
  const t = await ok(["task", "start", "--project", projectId, "--agent", agent, "--objective", directives]);
  await waitState(t.task.id, "completed");
  return api.tasks.get.query({ id: t.task.id });
}

function commitOnMain(repo: string, file: string, content: string) {
  writeFileSync(path.join(repo, file), content);
  git(repo, "add", file);
  git(repo, "commit", "-qm", `main: ${file}`);
  return git(repo, "rev-parse", "HEAD");
}

describe("behind count and Update branch", () => {
  it("counts how far behind, recounts when the target moves, merges the target in, moves the base and the comments", async () => {
    const p = await project();
    const t = await completedTask(
      p.id,
      "write notes.txt n1\nappend notes.txt n2\nappend README.md TASK11\ncommit task work\nreport completed done",
    );
    expect(t.behind).toMatchObject({ target: "main", count: 0 });

    // Comments on the round's diff: one on a line of the task's (it will move), one on a base line
    // main is about to change (outdated), one on a file main leaves alone (stays).
    const moving = (await ok(["task", "comment", t.id, "--path", "README.md", "--line", "11", "keep me"])).comment;
    const old = (await ok(["task", "comment", t.id, "--path", "README.md", "--line", "9", "--side", "old", "base"]))
      .comment;
    const staying = (await ok(["task", "comment", t.id, "--path", "notes.txt", "--line", "2", "n2?"])).comment;

    // main moves three times; the count follows without anyone asking for it.
    commitOnMain(p.repo, "m1.txt", "1\n");
    commitOnMain(p.repo, "m2.txt", "2\n");
    writeFileSync(path.join(p.repo, "README.md"), `m0\nl1\nl2\nl3\nl4\nl5\nl6\nl7\nl8\nMAIN9\nl10\n`);
    git(p.repo, "commit", "-qam", "main: README");
    const mainTip = git(p.repo, "rev-parse", "HEAD");
    const behind = await waitFor(
      async () => {
        const v = await api.tasks.get.query({ id: t.id });
        return v.behind?.count === 3 ? v : null;
      },
      { timeoutMs: 30_000, what: "3 commits behind main" },
    );
    expect(behind.behind).toMatchObject({ target: "main", targetCommit: mainTip });
    const shown = await yard(server, ["task", "get", t.id]);
    expect(shown.stdout).toContain("3 commits behind main");

    const r = await ok(["task", "update", t.id]);
    expect(r.update).toMatchObject({
      outcome: "updated",
      mode: "merge",
      target: "main",
      targetCommit: mainTip,
      commits: 3,
      base: mainTip,
      files: [],
      comments: { moved: 1, outdated: 1 },
    });
    expect(r.task).toMatchObject({ baseSha: mainTip, state: "completed", round: 1 });
    expect(git(t.worktreePath!, "log", "-1", "--format=%P").split(" ")).toEqual([r.update.from, mainTip]);
    // The diff and the count are against the new base: only the task's own changes, nothing behind.
    const diff = await ok(["task", "diff", t.id, "--stat"]);
    expect(diff.files.map((f: { path: string }) => f.path).sort()).toEqual(["README.md", "notes.txt"]);
    expect(diff.baseSha).toBe(mainTip);
    await waitFor(async () => (await api.tasks.get.query({ id: t.id })).behind?.count === 0, {
      timeoutMs: 30_000,
      what: "up to date",
    });

    const comments = (await ok(["task", "comments", t.id])).comments as Array<Record<string, unknown>>;
    const byId = new Map(comments.map((c) => [c.id, c]));
    expect(byId.get(moving.id)).toMatchObject({ startLine: 12, endLine: 12, outdated: false, quote: "TASK11" });
    expect(byId.get(old.id)).toMatchObject({ startLine: 9, outdated: true });
    expect(byId.get(staying.id)).toMatchObject({ startLine: 2, outdated: false });
    const events = (await ok(["task", "events", t.id])).events.map((e: { type: string }) => e.type);
    expect(events).toContain("task.behind");
    expect(events).toContain("task.branch_update");

    // Nothing new on main: up to date, nothing run.
    expect((await ok(["task", "update", t.id])).update).toMatchObject({ outcome: "up_to_date", commits: 0 });
  });

  it("--rebase replays the task's commits on the target: linear, the base is the target's commit", async () => {
    const p = await project();
    const t = await completedTask(p.id, "write a.txt A\ncommit add a\nreport completed done");
    const mainTip = commitOnMain(p.repo, "m.txt", "m\n");
    const r = await ok(["task", "update", t.id, "--rebase"]);
    expect(r.update).toMatchObject({ outcome: "updated", mode: "rebase", base: mainTip, commits: 1 });
    const wt = t.worktreePath!;
    expect(git(wt, "rev-parse", "HEAD~1")).toBe(mainTip);
    expect(git(wt, "log", "-1", "--format=%s")).toBe("add a");
    expect(git(wt, "rev-list", "--merges", "--count", `${t.baseSha}..HEAD`)).toBe("0");
    expect((await ok(["task", "diff", t.id, "--stat"])).files.map((f: { path: string }) => f.path)).toEqual(["a.txt"]);
  });

  it("a conflict with a live agent becomes its next round, naming the files; the demo agent resolves it and the base moves", async () => {
    const p = await project();
    const script = path.join(tmp(), "resolver.txt");
    writeFileSync(
      script,
      [
        "write c.txt from the task\ncommit add c\nreport completed wrote c",
        "---",
        "write c.txt resolved\ncommit resolve the conflict\nreport completed resolved",
      ].join("\n"),
    );
    const profile = `resolver-${Date.now().toString(36)}`;
    await api.agents.add.mutate({
      id: profile,
      argv: ["{{node}}", `${ROOT}/agents/demo/demo-agent.mjs`, "--script", script],
      supportsHooks: true,
    });
    const t = await completedTask(p.id, "the script says what", profile);
    const oldTip = git(t.worktreePath!, "rev-parse", "HEAD");
    const mainTip = commitOnMain(p.repo, "c.txt", "from main\n");

    const r = await ok(["task", "update", t.id]);
    expect(r.update).toMatchObject({ outcome: "conflict_round", files: ["c.txt"], to: null, base: null });
    expect(r.task.round).toBe(2);
    expect(r.task.updating).toMatchObject({ mode: "merge", target: "main", files: ["c.txt"], round: 2 });
    const rounds = (await api.tasks.rounds.query({ id: t.id })).rounds;
    expect(rounds[1]!.prompt).toContain("- c.txt");
    expect(rounds[1]!.prompt).toMatch(/conflicts in 1 file/);

    await waitState(t.id, "completed");
    const settled = await waitFor(
      async () => {
        const v = await api.tasks.get.query({ id: t.id });
        return v.updating === null && v.baseSha === mainTip ? v : null;
      },
      { timeoutMs: 30_000, what: "the update to settle" },
    ).catch(async (e: Error) => {
      const events = (await ok(["task", "events", t.id])).events.map(
        (x: { type: string; payload: unknown }) => `${x.type} ${JSON.stringify(x.payload).slice(0, 300)}`,
      );
      throw new Error(
        `${e.message}\n${events.join("\n")}\n${await describeTask(api, t.id)}\n${server.output().slice(-3000)}`,
      );
    });
    expect(settled.round).toBe(2);
    const wt = t.worktreePath!;
    expect(git(wt, "log", "-1", "--format=%P").split(" ")).toEqual([oldTip, mainTip]);
    expect(readFileSync(path.join(wt, "c.txt"), "utf8")).toBe("resolved\n");
    expect(git(wt, "status", "--porcelain")).toBe("");
    const outcomes = (await ok(["task", "events", t.id])).events
      .filter((e: { type: string }) => e.type === "task.branch_update")
      .map((e: { payload: { outcome: string } }) => e.payload.outcome);
    expect(outcomes).toEqual(["conflict_round", "resolved"]);
  });

  it("--rebase: a conflict with a live agent is its next round too; the agent resolves it and continues the rebase", async () => {
    const p = await project();
    const script = path.join(tmp(), "rebase-resolver.txt");
    writeFileSync(
      script,
      [
        "write r.txt from the task\ncommit add r\nreport completed wrote r",
        "---",
        "write r.txt resolved in the rebase\ncommit resolve the rebase\nreport completed resolved",
      ].join("\n"),
    );
    const profile = `rebaser-${Date.now().toString(36)}`;
    await api.agents.add.mutate({
      id: profile,
      argv: ["{{node}}", `${ROOT}/agents/demo/demo-agent.mjs`, "--script", script],
      supportsHooks: true,
    });
    const t = await completedTask(p.id, "the script says what", profile);
    const mainTip = commitOnMain(p.repo, "r.txt", "from main\n");

    const r = await ok(["task", "update", t.id, "--rebase"]);
    expect(r.update).toMatchObject({ outcome: "conflict_round", mode: "rebase", files: ["r.txt"] });
    expect(r.task.updating).toMatchObject({ mode: "rebase", target: "main", files: ["r.txt"], round: 2 });

    await waitState(t.id, "completed");
    const settled = await waitFor(
      async () => {
        const v = await api.tasks.get.query({ id: t.id });
        return v.updating === null && v.baseSha === mainTip ? v : null;
      },
      { timeoutMs: 30_000, what: "the rebase update to settle" },
    );
    expect(settled.round).toBe(2);
    const wt = t.worktreePath!;
    // Linear: the task's commit replayed on main's, with the agent's resolution and its own message.
    expect(git(wt, "rev-parse", "HEAD~1")).toBe(mainTip);
    expect(git(wt, "rev-list", "--merges", "--count", `${mainTip}..HEAD`)).toBe("0");
    expect(git(wt, "log", "-1", "--format=%s")).toBe("add r");
    expect(readFileSync(path.join(wt, "r.txt"), "utf8")).toBe("resolved in the rebase\n");
    expect(git(wt, "status", "--porcelain")).toBe("");
    const outcomes = (await ok(["task", "events", t.id])).events
      .filter((e: { type: string }) => e.type === "task.branch_update")
      .map((e: { payload: { outcome: string } }) => e.payload.outcome);
    expect(outcomes).toEqual(["conflict_round", "resolved"]);
  });

  it("a conflict without a live agent is aborted and named; uncommitted work and a busy agent are refused", async () => {
    const p = await project();
    const t = await completedTask(p.id, "write c.txt from the task\ncommit add c\nreport completed done\nexit");
    await waitFor(async () => (await api.panes.get.query({ id: t.paneId! })).lifecycle === "exited", {
      timeoutMs: 30_000,
      what: "the agent to exit",
    });
    const wt = t.worktreePath!;
    const tip = git(wt, "rev-parse", "HEAD");
    commitOnMain(p.repo, "c.txt", "from main\n");
    const e = await fails(["task", "update", t.id], "CONFLICT");
    expect(e.details).toMatchObject({ files: ["c.txt"], aborted: true, target: "main" });
    expect(git(wt, "rev-parse", "HEAD")).toBe(tip);
    expect(git(wt, "status", "--porcelain")).toBe("");
    expect((await api.tasks.get.query({ id: t.id })).round).toBe(1);

    writeFileSync(path.join(wt, "scratch.txt"), "not committed\n");
    expect((await fails(["task", "update", t.id, "--rebase"], "DIRTY_SOURCE")).details).toMatchObject({
      files: ["scratch.txt"],
    });

    const busy = await ok(["task", "start", "--project", p.id, "--agent", "demo", "--objective", "sleep 60000"]);
    await waitState(busy.task.id, "working");
    await fails(["task", "update", busy.task.id], "PANE_BUSY");
    await ok(["task", "cancel", busy.task.id]);
  });
});

describe("merge strategies through finish", () => {
  it("the project's default lands the branch rebased; a squash is one commit; ff is refused when the target moved", async () => {
    const p = await project();
    expect((await ok(["project", "set", p.id, "--merge-strategy", "rebase"])).project.mergeStrategy).toBe("rebase");
    const a = await completedTask(
      p.id,
      "write a.txt A\ncommit add a\nappend a.txt AA\ncommit more a\nreport completed done",
    );
    const b = await completedTask(
      p.id,
      "write b.txt B\ncommit add b\nappend b.txt BB\ncommit more b\nreport completed done",
    );
    const before = commitOnMain(p.repo, "m.txt", "m\n");

    const ra = await ok(["task", "finish", a.id, "--merge"]);
    expect(ra.merge).toMatchObject({ strategy: "rebase", alreadyUpToDate: false });
    expect(git(p.repo, "log", "--format=%s", `${before}..main`).split("\n")).toEqual(["more a", "add a"]);
    expect(ra.task).toMatchObject({ disposition: "merged", mergeStrategy: "rebase", baseSha: before });
    // With the branch gone, the diff is what landed.
    expect((await ok(["task", "diff", a.id, "--stat"])).files.map((f: { path: string }) => f.path)).toEqual(["a.txt"]);

    expect(
      (await fails(["task", "finish", b.id, "--merge", "--strategy", "ff"], "NOT_FAST_FORWARD")).details,
    ).toMatchObject({
      target: "main",
    });
    const mainNow = git(p.repo, "rev-parse", "main");
    const rb = await ok(["task", "finish", b.id, "--merge", "--strategy", "squash"]);
    expect(rb.merge.strategy).toBe("squash");
    expect(git(p.repo, "log", "-1", "--format=%P", "main")).toBe(mainNow);
    expect(git(p.repo, "diff", "--name-only", mainNow, "main")).toBe("b.txt");
    expect((await ok(["task", "diff", b.id, "--stat"])).files.map((f: { path: string }) => f.path)).toEqual(["b.txt"]);
  });
});

describe("a server killed while git runs", () => {
  /** A repository whose own config has a slow checkout filter; `started` appears once git checks a file out through it. */
  function slowRepo() {
    const r = makeRepo();
    dirs.push(r);
    const started = path.join(tmp(), "filter-started");
    git(r, "config", "filter.slow.clean", "cat");
    git(r, "config", "filter.slow.smudge", `sh -c 'touch ${started}; sleep 2; cat'`);
    return { repo: r, started };
  }
  const slowCommit = "printf 'slow.txt filter=slow\\n' > .gitattributes && echo slow > slow.txt && git add -A";
  const waitStarted = (started: string) =>
    waitFor(() => existsSync(started), { what: "git to reach the checkout filter", timeoutMs: 30_000 });

  it("a squash merge lands on its own and the restart records it as squashed", async () => {
    const home = tmp("yard-bu-home-");
    let s = await startTestServer({ home });
    try {
      const a = adminClient(s);
      const { repo, started } = slowRepo();
      const script = `${slowCommit} && git -c user.name=A -c user.email=a@example.com commit -qm slow && yard task report --status completed --summary done >/dev/null && exec sleep 600`;
      const { task } = await a.tasks.start.mutate({ repoPath: repo, objective: "slow", argv: ["sh", "-c", script] });
      await a.tasks.wait.query({ id: task.id, until: "terminal", timeoutMs: 30_000 });
      const before = git(repo, "rev-parse", "main");
      void a.tasks.finish.mutate({ id: task.id, merge: { strategy: "squash" } }).catch(() => {});
      await waitStarted(started);
      s.proc.kill("SIGKILL");
      await new Promise((res) => s.proc.once("exit", res));
      await waitFor(
        () => git(repo, "rev-parse", "main") !== before && !existsSync(path.join(repo, ".git/index.lock")),
        {
          what: "git to finish the fast-forward",
          timeoutMs: 20_000,
        },
      );

      s = await startTestServer({ home });
      const t = await adminClient(s).tasks.get.query({ id: task.id });
      expect(t).toMatchObject({
        disposition: "merged",
        mergeStrategy: "squash",
        mergeCommit: git(repo, "rev-parse", "main"),
      });
      expect(git(repo, "log", "-1", "--format=%P", "main")).toBe(before);
      expect(git(repo, "status", "--porcelain", "--untracked-files=no")).toBe("");
    } finally {
      await s.dispose();
    }
  });

  it("an update whose merge landed while no server ran moves the base at the next start", async () => {
    const home = tmp("yard-bu-home-");
    let s = await startTestServer({ home });
    try {
      const a = adminClient(s);
      const { repo, started } = slowRepo();
      const script = `echo t > t.txt && git add -A && git -c user.name=A -c user.email=a@example.com commit -qm t && yard task report --status completed --summary done >/dev/null && exit 0`;
      const { task } = await a.tasks.start.mutate({ repoPath: repo, objective: "t", argv: ["sh", "-c", script] });
      await a.tasks.wait.query({ id: task.id, until: "terminal", timeoutMs: 30_000 });
      execFileSync("sh", ["-c", `${slowCommit} && git -c user.name=A -c user.email=a@example.com commit -qm slow`], {
        cwd: repo,
      });
      const mainTip = git(repo, "rev-parse", "main");
      // The agent has gone (an update waits while it works).
      await waitFor(async () => (await a.panes.get.query({ id: task.paneId! })).lifecycle === "exited", {
        what: "the agent to exit",
        timeoutMs: 30_000,
      });
      const updating = a.tasks.update.mutate({ id: task.id }).catch((e: Error) => e);
      await Promise.race([
        waitStarted(started),
        updating.then((r) => {
          throw new Error(`the update ended before git reached the filter: ${r instanceof Error ? r.message : "ok"}`);
        }),
      ]);
      s.proc.kill("SIGKILL");
      await new Promise((res) => s.proc.once("exit", res));
      const wt = task.worktreePath!;
      await waitFor(() => git(wt, "log", "-1", "--format=%P").split(" ").includes(mainTip), {
        what: "the merge commit",
        timeoutMs: 20_000,
      });

      s = await startTestServer({ home });
      const t = await adminClient(s).tasks.get.query({ id: task.id });
      expect(t).toMatchObject({ baseSha: mainTip, updating: null });
      expect((await adminClient(s).tasks.diff.query({ id: task.id })).files.map((f) => f.path)).toEqual(["t.txt"]);
    } finally {
      await s.dispose();
    }
  });
});
