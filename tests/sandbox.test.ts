// The OS sandbox end to end: the real server, real bwrap, real git repositories and PTYs. A
// sandboxed worker can write its worktree (and commit) but not the data dir, the source
// repository, another task's worktree, git's config/hooks or the host's /tmp, cannot open a TCP
// connection without the network, and still reports through the API socket; the demo agent's
// whole scenario runs inside; signals reach the agent, not bwrap; a machine without bwrap
// refuses before creating anything; the socket keeps the server's guards and survives a crash.
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { adminClient, errorOf } from "./helpers/client";
import { git, makeRepo } from "./helpers/git";
import { ROOT, startTestServer, type TestServer, yard } from "./helpers/server";
import { waitFor } from "./helpers/wait";

vi.setConfig({ testTimeout: 120_000 });

const DEMO = path.join(ROOT, "agents/demo/demo-agent.mjs");
// Outside /tmp (which the sandbox replaces with an empty one), so the host's read-only view
// is what the agent meets in the source repository.
const base = mkdtempSync("/var/tmp/yard-sbx-");
let server: TestServer;
let api: ReturnType<typeof adminClient>;
const dirs: string[] = [base];

/** A repository on main with one commit, in `dir`. */
const repoIn = (dir: string) => makeRepo("repo-", dir);
const tmpRepo = () => {
  const r = makeRepo();
  dirs.push(r);
  return r;
};
const screen = async (paneId: string) => (await api.panes.read.query({ id: paneId, mode: "screen" })).text;
const mode = (p: string) => statSync(p).mode & 0o777;

beforeAll(async () => {
  mkdirSync(path.join(base, "home"));
  server = await startTestServer({ home: path.join(base, "home") });
  api = adminClient(server);
});
afterAll(async () => {
  await server?.dispose();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

// Each probe prints name=ok when the action succeeded inside the sandbox, name=blocked when not.
const PROBES = String.raw`
H="$YARD_HOME"; REPO="$1"; OTHER="$2"; PORT="$3"; OUT="$TMPDIR/probe.out"
probe() { name="$1"; shift; if "$@" >/dev/null 2>&1; then echo "$name=ok"; else echo "$name=blocked"; fi; }
{
probe read_token cat "$H/token"
probe read_db cat "$H/yard.db"
probe write_main sh -c 'echo pwned > "$1/README.md"' _ "$REPO"
probe create_in_main sh -c 'echo pwned > "$1/escape.txt"' _ "$REPO"
probe write_other sh -c 'echo pwned > "$1/escape.txt"' _ "$OTHER"
probe git_config sh -c 'printf "[core]\n\tfsmonitor = touch /tmp/pwned\n" >> "$1/.git/config"' _ "$REPO"
probe git_hook sh -c 'printf "#!/bin/sh\ntouch /tmp/pwned\n" > "$1/.git/hooks/post-merge"' _ "$REPO"
probe dotgit sh -c 'echo "gitdir: /tmp/evil" > .git'
probe commondir sh -c 'echo /tmp/evil > "$(git rev-parse --git-dir)/commondir"'
probe tcp node -e "require('net').connect(Number(process.argv[1]), '127.0.0.1').on('connect', () => process.exit(0)).on('error', () => process.exit(1))" "$PORT"
probe host_tmp sh -c 'echo pwned > "/tmp/yard-sbx-escape-$YARD_TASK"'
probe ctty sh -c '[ -t 0 ] && exec 3</dev/tty'
probe write_worktree sh -c 'echo from the sandbox > sandboxed.txt'
probe commit sh -c 'git add sandboxed.txt && git -c user.name=Sandboxed -c user.email=s@example.com commit -qm "sandboxed commit"'
echo "data_dir=$(ls -A "$H" | tr '\n' ' ')"
yard status > "$TMPDIR/status.out" 2>&1
} > "$OUT" 2>&1
yard task report --status completed --summary "probes done" > "$TMPDIR/report.out" 2>&1
echo "report_exit=$?" >> "$OUT"
exec sleep 600
`;

describe("a sandboxed worker", () => {
  it("writes and commits only in its worktree, sees no data dir, has no network, and reports through the socket", async () => {
    const repo = repoIn(base);
    const other = await api.tasks.start.mutate({
      repoPath: repo,
      objective: "stay idle",
      argv: ["sh", "-c", "exec sleep 600"],
    });
    expect(other.task.sandboxed).toBe(false);
    const otherWt = other.task.worktreePath!;
    const gitConfig = readFileSync(path.join(repo, ".git/config"), "utf8");

    const { task, pane: startedPane } = await api.tasks.start.mutate({
      repoPath: repo,
      objective: "run the probes",
      sandbox: true,
      argv: ["sh", "-c", PROBES, "probes", repo, otherWt, String(server.port)],
    });
    const pane = startedPane!; // a start that is not to the backlog always has a pane
    expect(task.sandboxed).toBe(true);
    expect(pane.sandboxed).toBe(true);
    expect(pane.argv[0]).toBe("sh"); // the record keeps the agent's own command line
    const wt = task.worktreePath!;
    const dotGit = readFileSync(path.join(wt, ".git"), "utf8");
    const wtGitDir = git(wt, "rev-parse", "--absolute-git-dir");
    const commondir = readFileSync(path.join(wtGitDir, "commondir"), "utf8");

    const done = await api.tasks.wait.query({ id: task.id, until: "terminal", timeoutMs: 60_000 });
    expect(done.tasks[0]).toMatchObject({
      state: "completed",
      sandboxed: true,
      result: { status: "completed", summary: "probes done" },
    });

    const sbx = path.join(server.home, "sandbox", task.id);
    const out = await waitFor(
      () => {
        const t = existsSync(path.join(sbx, "tmp/probe.out"))
          ? readFileSync(path.join(sbx, "tmp/probe.out"), "utf8")
          : "";
        return t.includes("report_exit=") ? t : null;
      },
      { what: "the probe results" },
    );
    const results = Object.fromEntries(
      out
        .trim()
        .split("\n")
        .map((l) => [l.slice(0, l.indexOf("=")), l.slice(l.indexOf("=") + 1)]),
    );
    expect(results).toMatchObject({
      read_token: "blocked",
      read_db: "blocked",
      write_main: "blocked",
      create_in_main: "blocked",
      write_other: "blocked",
      git_config: "blocked",
      git_hook: "blocked",
      dotgit: "blocked",
      commondir: "blocked",
      tcp: "blocked",
      host_tmp: "ok", // the sandbox's own /tmp; the host's stays untouched (below)
      ctty: "ok",
      write_worktree: "ok",
      commit: "ok",
      report_exit: "0",
    });
    for (const secret of ["token", "yard.db", "server.json", "run"])
      expect(results.data_dir!.split(" ")).not.toContain(secret);
    expect(readFileSync(path.join(sbx, "tmp/status.out"), "utf8")).toContain("this pane is sandboxed");

    // Nothing outside the worktree changed on the host.
    expect(readFileSync(path.join(repo, "README.md"), "utf8")).toBe("# test repo\n");
    expect(existsSync(path.join(repo, "escape.txt"))).toBe(false);
    expect(existsSync(path.join(otherWt, "escape.txt"))).toBe(false);
    expect(readFileSync(path.join(repo, ".git/config"), "utf8")).toBe(gitConfig);
    expect(existsSync(path.join(repo, ".git/hooks/post-merge"))).toBe(false);
    expect(readFileSync(path.join(wt, ".git"), "utf8")).toBe(dotGit);
    expect(readFileSync(path.join(wtGitDir, "commondir"), "utf8")).toBe(commondir);
    expect(existsSync(`/tmp/yard-sbx-escape-${task.id}`)).toBe(false);
    // The worktree write and the commit landed on the task's branch.
    expect(readFileSync(path.join(wt, "sandboxed.txt"), "utf8")).toBe("from the sandbox\n");
    expect(git(repo, "log", "-1", "--format=%s", task.branch!)).toBe("sandboxed commit");
    expect(git(repo, "rev-parse", "main")).toBe(task.baseSha);
    // The task's own home and temp dirs are private.
    for (const d of [sbx, path.join(sbx, "home"), path.join(sbx, "tmp")]) expect(mode(d)).toBe(0o700);

    const cliGet = await yard(server, ["task", "get", task.id]);
    expect(cliGet.stdout).toContain("sandboxed: yes");
    const cliOther = await yard(server, ["task", "get", other.task.id]);
    expect(cliOther.stdout).toContain("sandboxed: no");
    await api.tasks.cancel.mutate({ id: other.task.id });
  });

  it("runs the demo agent's whole scenario: write, permission prompt, commit, report; then diff and merge", async () => {
    const repo = tmpRepo();
    const objective =
      "write notes.txt written inside the sandbox\nask may I commit?\ncommit add notes from the sandbox\nreport completed wrote notes.txt";
    const { task, pane: startedPane } = await api.tasks.start.mutate({
      repoPath: repo,
      agent: "demo",
      sandbox: true,
      objective,
    });
    const pane = startedPane!; // a start that is not to the backlog always has a pane
    expect(task.sandboxed).toBe(true);
    // Blocked comes only from the agent's PermissionRequest hook, posted through the socket.
    await waitFor(async () => (await api.panes.get.query({ id: pane.id })).lifecycle === "blocked", {
      timeoutMs: 60_000,
      what: "the permission prompt",
    });
    expect(await screen(pane.id)).toContain("Allow? (y/n)");
    await api.panes.sendKeys.mutate({ id: pane.id, text: "y" });

    const done = (await api.tasks.wait.query({ id: task.id, until: "terminal", timeoutMs: 60_000 })).tasks[0]!;
    expect(done).toMatchObject({
      state: "completed",
      sandboxed: true,
      result: { status: "completed", summary: "wrote notes.txt" },
    });
    // The turn ends with the Stop hook (through the socket as well).
    await waitFor(async () => (await api.panes.get.query({ id: pane.id })).lifecycle === "done", {
      timeoutMs: 30_000,
      what: "the turn to end",
    });
    const text = await screen(pane.id);
    expect(text).toMatch(/Committed [0-9a-f]{7}: add notes from the sandbox/);
    expect(text).toContain("exit 0");

    const diff = await api.tasks.diff.query({ id: task.id });
    expect(diff.files.map((f) => f.path)).toEqual(["notes.txt"]);
    expect(diff.diff).toContain("+written inside the sandbox");

    const fin = await api.tasks.finish.mutate({ id: task.id, merge: {} });
    expect(fin.task.disposition).toBe("merged");
    expect(readFileSync(path.join(repo, "notes.txt"), "utf8")).toBe("written inside the sandbox\n");
    expect(git(repo, "log", "--format=%s", "main")).toContain("add notes from the sandbox");
  });

  it("gives Ctrl-C and the pane's SIGTERM to the agent, not to bwrap", async () => {
    const repo = tmpRepo();
    const int = await api.tasks.start.mutate({
      repoPath: repo,
      objective: "wait",
      sandbox: true,
      argv: ["sh", "-c", "trap 'echo GOT-INT; exit 5' INT; echo READY; while :; do sleep 0.1; done"],
    });
    const term = await api.tasks.start.mutate({
      repoPath: repo,
      objective: "wait",
      sandbox: true,
      argv: ["sh", "-c", "trap 'echo GOT-TERM; exit 6' TERM; echo READY; while :; do sleep 0.1; done"],
    });
    for (const t of [int, term])
      await waitFor(async () => (await screen(t.pane!.id)).includes("READY"), { what: "the agent to start" });

    await api.panes.sendKeys.mutate({ id: int.pane!.id, text: "\x03" });
    const intExit = await waitFor(
      async () => {
        const p = await api.panes.get.query({ id: int.pane!.id });
        return p.lifecycle === "exited" ? p : null;
      },
      { what: "the agent to handle Ctrl-C and exit" },
    );
    expect(intExit.exitCode).toBe(5);
    expect(await screen(int.pane!.id)).toContain("GOT-INT");

    const killed = await api.panes.kill.mutate({ id: term.pane!.id });
    expect(killed).toMatchObject({ lifecycle: "exited", exitCode: 6 });
    expect(await screen(term.pane!.id)).toContain("GOT-TERM");
  });

  it("opts in per profile (yard agent add --sandbox), yields to --no-sandbox, and keeps the network only when the profile allows it", async () => {
    const repo = tmpRepo();
    const added = await yard(server, [
      "--json",
      "agent",
      "add",
      "boxed-demo",
      "--hooks",
      "--sandbox",
      "--",
      process.execPath,
      DEMO,
    ]);
    expect(added.code, added.stdout + added.stderr).toBe(0);
    expect(added.json.agent).toMatchObject({ id: "boxed-demo", sandbox: true, sandboxNetwork: false });
    const lone = await yard(server, ["--json", "agent", "add", "loose", "--sandbox-network", "--", "true"]);
    expect(lone.json.error.code).toBe("BAD_PARAMS");
    expect(
      (await errorOf(() => api.agents.add.mutate({ id: "loose", argv: ["true"], sandboxNetwork: true }))).message,
    ).toMatch(/sandboxNetwork only applies/);

    const TCP = `node -e "const u = new URL(process.env.YARD_URL); require('net').connect(Number(u.port), u.hostname).on('connect', () => process.exit(0)).on('error', () => process.exit(1))"`;
    const REPORT = `if ${TCP}; then s=tcp-open; else s=tcp-closed; fi; yard task report --status completed --summary "$s"; exec sleep 600`;
    await api.agents.add.mutate({ id: "netbox", argv: ["sh", "-c", REPORT], sandbox: true, sandboxNetwork: true });
    await api.agents.add.mutate({ id: "nonetbox", argv: ["sh", "-c", REPORT], sandbox: true });

    const boxed = await yard(server, [
      "--json",
      "task",
      "start",
      "--repo",
      repo,
      "--agent",
      "boxed-demo",
      "--objective",
      "report completed boxed",
    ]);
    const unboxed = await yard(server, [
      "--json",
      "task",
      "start",
      "--repo",
      repo,
      "--agent",
      "boxed-demo",
      "--no-sandbox",
      "--objective",
      "report completed unboxed",
    ]);
    const net = await api.tasks.start.mutate({ repoPath: repo, agent: "netbox", objective: "x" });
    const nonet = await api.tasks.start.mutate({ repoPath: repo, agent: "nonetbox", objective: "x" });
    expect([boxed.json.task.sandboxed, unboxed.json.task.sandboxed, net.task.sandboxed, nonet.task.sandboxed]).toEqual([
      true,
      false,
      true,
      true,
    ]);

    const wait = async (id: string) =>
      (await api.tasks.wait.query({ id, until: "terminal", timeoutMs: 60_000 })).tasks[0]!;
    expect(await wait(boxed.json.task.id)).toMatchObject({ state: "completed", result: { summary: "boxed" } });
    expect(await wait(unboxed.json.task.id)).toMatchObject({ state: "completed", result: { summary: "unboxed" } });
    expect((await wait(net.task.id)).result?.summary).toBe("tcp-open");
    expect((await wait(nonet.task.id)).result?.summary).toBe("tcp-closed");
    expect((await api.panes.get.query({ id: boxed.json.pane.id })).sandboxed).toBe(true);
    expect((await api.panes.get.query({ id: unboxed.json.pane.id })).sandboxed).toBe(false);

    // A sandboxed profile needs a task's worktree: a bare pane of it is refused, not run unsandboxed.
    const bare = await errorOf(() => api.panes.spawn.mutate({ agent: "boxed-demo", cwd: repo }));
    expect(bare.code).toBe("BAD_PARAMS");
    expect(bare.message).toMatch(/needs a task's worktree/);
  });
});

describe("where the sandbox cannot start", () => {
  let s2: TestServer;
  beforeAll(async () => {
    s2 = await startTestServer({ env: { YARD_BWRAP: "/nonexistent/bwrap" } });
  });
  afterAll(async () => {
    await s2?.dispose();
  });

  it("refuses with SANDBOX_UNAVAILABLE and the reason, before creating a task, branch or worktree", async () => {
    const api2 = adminClient(s2);
    const repo = tmpRepo();
    const err = await errorOf(() =>
      api2.tasks.start.mutate({ repoPath: repo, objective: "x", agent: "demo", sandbox: true }),
    );
    expect(err.code).toBe("SANDBOX_UNAVAILABLE");
    expect(err.message).toMatch(/bubblewrap is not installed.*apt-get install bubblewrap/);
    expect(err.details).toMatchObject({ reason: "bwrap_missing" });

    // The same through a sandboxed profile, from the CLI.
    await api2.agents.add.mutate({
      id: "boxed",
      argv: ["{{node}}", "{{yardRoot}}/agents/demo/demo-agent.mjs"],
      supportsHooks: true,
      sandbox: true,
    });
    const cli = await yard(s2, [
      "--json",
      "task",
      "start",
      "--repo",
      repo,
      "--objective",
      "x",
      "--agent",
      "boxed",
      "--branch",
      "yard/refused",
    ]);
    expect(cli.code).toBe(1);
    expect(cli.json.error).toMatchObject({ code: "SANDBOX_UNAVAILABLE", details: { reason: "bwrap_missing" } });

    expect(await api2.tasks.list.query()).toEqual([]);
    expect(await api2.panes.list.query()).toEqual([]);
    expect(git(repo, "branch", "--format=%(refname:short)")).toBe("main");
    expect(git(repo, "worktree", "list", "--porcelain").match(/^worktree /gm)).toHaveLength(1);
    expect(existsSync(path.join(s2.home, "worktrees"))).toBe(false);
    expect(existsSync(path.join(s2.home, "sandbox"))).toBe(false);

    const status = await yard(s2, ["status"]);
    expect(status.stdout).toMatch(/sandbox: unavailable: bubblewrap is not installed/);

    // Asked explicitly, the same profile runs unsandboxed.
    const ok = await yard(s2, [
      "--json",
      "task",
      "start",
      "--repo",
      repo,
      "--objective",
      "report completed unboxed",
      "--agent",
      "boxed",
      "--no-sandbox",
    ]);
    expect(ok.code, ok.stdout + ok.stderr).toBe(0);
    expect(ok.json.task.sandboxed).toBe(false);
    expect(
      (await api2.tasks.wait.query({ id: ok.json.task.id, until: "terminal", timeoutMs: 60_000 })).tasks[0],
    ).toMatchObject({ state: "completed" });
  });
});

describe("without the API socket", () => {
  it("refuses sandboxed tasks (the agent could not reach the server) and still runs unsandboxed ones", async () => {
    // A data dir so deep that run/api.sock exceeds the length a Unix socket path may have.
    const home = path.join(mkdtempSync("/var/tmp/yard-long-"), "d".repeat(100));
    dirs.push(path.dirname(home));
    mkdirSync(home);
    const s5 = await startTestServer({ home });
    try {
      expect(s5.output()).toMatch(/no API socket \(.*longer than the 107 bytes/);
      const api5 = adminClient(s5);
      const repo = tmpRepo();
      const err = await errorOf(() =>
        api5.tasks.start.mutate({ repoPath: repo, objective: "x", agent: "demo", sandbox: true }),
      );
      expect(err).toMatchObject({ code: "SANDBOX_UNAVAILABLE", details: { reason: "socket_unavailable" } });
      expect(err.message).toMatch(/API socket is not available.*longer than the 107 bytes/);
      expect(await api5.tasks.list.query()).toEqual([]);
      const { task } = await api5.tasks.start.mutate({
        repoPath: repo,
        objective: "report completed fine",
        agent: "demo",
      });
      expect(
        (await api5.tasks.wait.query({ id: task.id, until: "terminal", timeoutMs: 60_000 })).tasks[0],
      ).toMatchObject({ state: "completed", sandboxed: false });
    } finally {
      await s5.dispose();
    }
  });
});

describe("the API socket", () => {
  const get = (socketPath: string, urlPath: string, headers: Record<string, string>) =>
    new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = http.request({ socketPath, path: urlPath, headers }, (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (d) => (body += d));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
      });
      req.on("error", reject);
      req.end();
    });

  it("is private, keeps the server's guards, is removed on close and replaced after a crash", async () => {
    const home = mkdtempSync("/var/tmp/yard-sock-");
    dirs.push(home);
    const sock = path.join(home, "run/api.sock");
    const s3 = await startTestServer({ home });
    expect(lstatSync(sock).isSocket()).toBe(true);
    expect(mode(sock)).toBe(0o600);
    expect(mode(path.dirname(sock))).toBe(0o700);

    expect(await get(sock, "/api/health", { host: "localhost" })).toMatchObject({ status: 200 });
    expect((await get(sock, "/api/health", { host: "evil.example" })).status).toBe(403);
    expect((await get(sock, "/api/trpc/status", { host: "localhost" })).status).toBe(401);
    const ok = await get(sock, "/api/trpc/status", { host: "localhost", authorization: `Bearer ${s3.token}` });
    expect(ok.status).toBe(200);
    expect(JSON.parse(ok.body).result.data.principal).toBe("person");

    // A crash leaves the socket behind; the next start replaces it.
    s3.proc.kill("SIGKILL");
    await s3.stop();
    expect(lstatSync(sock).isSocket()).toBe(true);
    const s4 = await startTestServer({ home });
    expect(await get(sock, "/api/health", { host: "localhost" })).toMatchObject({ status: 200 });
    expect(s4.output()).not.toContain("no API socket");
    await s4.stop();
    expect(existsSync(sock)).toBe(false);
  });
});

describe("the agent reviewer of a sandboxed task", () => {
  it("runs sandboxed with the worktree read-only: it can review, not write", async () => {
    const repo = tmpRepo();
    const script = path.join(base, `reviewer-${Date.now()}.txt`);
    writeFileSync(
      script,
      'write evil.txt written by the reviewer\nrun-yard task review {env.YARD_TASK} --approve --summary "read-only review"',
    );
    const profile = `ro-rev-${Date.now().toString(36)}`;
    expect(
      (
        await yard(server, [
          "--json",
          "agent",
          "add",
          profile,
          "--role",
          "reviewer",
          "--hooks",
          "--",
          "{{node}}",
          DEMO,
          "--script",
          script,
        ])
      ).code,
    ).toBe(0);
    const { task } = await api.tasks.start.mutate({
      repoPath: repo,
      agent: "demo",
      sandbox: true,
      reviewer: profile,
      objective: "write notes.txt ok\ncommit notes\nreport completed wrote notes",
    });
    const reviewed = await waitFor(
      async () => {
        const t = await api.tasks.get.query({ id: task.id });
        return t.agentReview.state === "approved" ? t : null;
      },
      { timeoutMs: 90_000, what: "the reviewer's approval" },
    );
    const reviewerPane = await api.panes.get.query({ id: reviewed.agentReview.paneId! });
    expect(reviewerPane.sandboxed).toBe(true);
    expect(existsSync(path.join(reviewed.worktreePath!, "evil.txt"))).toBe(false);
    const reviews = (await api.reviews.list.query({ taskId: task.id })).reviews;
    expect(reviews.map((r) => [r.stage, r.verdict, r.summary])).toEqual([["agent", "approved", "read-only review"]]);
    expect((await api.tasks.diff.query({ id: task.id })).files.map((f) => f.path)).toEqual(["notes.txt"]);
  });
});
