// The CLI inside anything that looks like a pane never acts as the person: with YARD_PANE present
// (even empty), any other pane-only variable, or a working directory inside a task's worktree,
// `yard` refuses with UNAUTHORIZED instead of reading the install token from a data dir it can
// reach, unless YARD_URL and YARD_TOKEN are given (then exactly those are used). The real CLI
// against the real server, run from inside real task worktrees; `yard mcp` and `yard hook` too.
import { mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { adminClient } from "./helpers/client";
import { scratch } from "./helpers/scratch";
import { ROOT, startTestServer, type TestServer, yard, YARD_BIN } from "./helpers/server";
import { startRecordingWorker } from "./helpers/worker";

vi.setConfig({ testTimeout: 90_000 });

let server: TestServer;
let api: ReturnType<typeof adminClient>;
const dirs = scratch("yard-pane-fallback-");
/** A task in the default place (under the data dir), and one at an explicit path outside it. */
let inHome: { worktree: string; env: Record<string, string> };
let outside: { worktree: string };
let neutral: string;

beforeAll(async () => {
  server = await startTestServer();
  api = adminClient(server);
  const w = await startRecordingWorker(api, dirs.repo());
  inHome = { worktree: w.task.worktreePath!, env: w.env };
  const explicit = path.join(dirs.tmp(), "elsewhere");
  const t = await api.tasks.start.mutate({
    repoPath: dirs.repo(),
    objective: "x",
    argv: ["sh", "-c", "exec sleep 600"],
    path: explicit,
    stallMs: 300,
  });
  outside = { worktree: t.task.worktreePath! };
  mkdirSync(path.join(outside.worktree, "src", "deep"), { recursive: true });
  neutral = dirs.tmp();
});
afterAll(async () => {
  await server?.dispose();
  dirs.cleanup();
});

/** `yard --json ARGS` with only `env` on top of a person's environment (YARD_HOME reachable, token file readable). */
const run = (args: string[], env: Record<string, string>, cwd = neutral) =>
  yard(server, ["--json", ...args], { env, cwd });

async function expectRefused(args: string[], env: Record<string, string>, cwd: string | undefined, why: RegExp) {
  const r = await run(args, env, cwd);
  expect(r.code, r.stdout + r.stderr).toBe(1);
  expect(r.json.error.code).toBe("UNAUTHORIZED");
  expect(r.json.error.message).toContain("never used inside a pane");
  expect(r.json.error.message).toMatch(why);
}

describe("pane-ish environments never fall back to the install token", () => {
  it("the token file is readable to this user, and a person's plain environment uses it", async () => {
    expect(readFileSync(path.join(server.home, "token"), "utf8").trim()).toBe(server.token);
    const r = await run(["project", "list"], {});
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(Array.isArray(r.json.projects)).toBe(true);
    const status = await run(["status"], {});
    expect(status.json.principal).toBe("person");
  });

  it("YARD_PANE set to the empty string: refused, and `project add` adds nothing", async () => {
    await expectRefused(["project", "list"], { YARD_PANE: "" }, neutral, /YARD_PANE is set \(empty\)/);
    const repo = dirs.repo();
    await expectRefused(["project", "add", repo], { YARD_PANE: "", YARD_HOME: server.home }, neutral, /YARD_PANE/);
    expect((await api.projects.list.query()).map((p) => p.path)).not.toContain(repo);
  });

  it("any other pane-only variable, even empty: refused", async () => {
    for (const name of ["YARD_TASK", "YARD_ROLE", "YARD_PARENT_PANE", "YARD_SOCKET", "YARD_HOOK_SOCKET"]) {
      for (const value of ["", inHome.env[name] ?? "x"]) {
        await expectRefused(["project", "list"], { [name]: value }, neutral, new RegExp(name));
      }
    }
  });

  it("the worker's own environment minus its token, with the data dir guessed from its worktree path: refused", async () => {
    const { YARD_TOKEN: _t, YARD_URL: _u, ...rest } = inHome.env;
    const guessedHome = inHome.worktree.slice(0, inHome.worktree.indexOf(`${path.sep}worktrees${path.sep}`));
    expect(guessedHome).toBe(server.home);
    await expectRefused(
      ["project", "list"],
      { ...rest, YARD_PANE: "", YARD_HOME: guessedHome },
      inHome.worktree,
      /YARD_PANE/,
    );
  });

  it("no YARD_* variable at all, but the working directory is a task's worktree under the data dir: refused", async () => {
    await expectRefused(["project", "list"], {}, inHome.worktree, /inside Switchyard's worktrees/);
    const repo = dirs.repo();
    await expectRefused(["project", "add", repo], {}, inHome.worktree, /worktrees/);
    expect((await api.projects.list.query()).map((p) => p.path)).not.toContain(repo);
  });

  it("a task worktree at an explicit path outside the data dir, from a subdirectory: refused", async () => {
    await expectRefused(
      ["status"],
      {},
      path.join(outside.worktree, "src", "deep"),
      /git worktree on the task branch yard\//,
    );
    // The repository itself (its main worktree) is the person's own: allowed.
    const main = (await api.tasks.list.query({})).find((t) => t.worktreePath === outside.worktree)!.repoPath;
    const r = await run(["status"], {}, main);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.json.principal).toBe("person");
  });

  it("YARD_TOKEN set: that token only, even where the data dir's token is readable", async () => {
    const r = await run(["status"], { YARD_TOKEN: inHome.env.YARD_TOKEN! }, neutral);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.json.principal).toBe("pane");
    const bogus = await run(["status"], { YARD_TOKEN: "not-a-token" }, neutral);
    expect(bogus.json.error.code).toBe("UNAUTHORIZED");
  });

  it("YARD_URL and YARD_TOKEN given: exactly those, inside the worktree and with pane variables", async () => {
    const r = await run(["status"], { ...inHome.env, YARD_HOME: server.home }, inHome.worktree);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.json.principal).toBe("pane");
    // The person may still use the install token explicitly, from anywhere.
    const explicit = await run(
      ["status"],
      { YARD_URL: server.url, YARD_TOKEN: server.token, YARD_PANE: "" },
      inHome.worktree,
    );
    expect(explicit.json.principal).toBe("person");
  });

  it("yard serve is refused too: it would run the board as the person and print the login link", async () => {
    for (const [env, cwd] of [
      [{ YARD_PANE: "" }, neutral],
      [{}, inHome.worktree],
    ] as const) {
      const r = await run(["serve", "--port", "0"], env, cwd);
      expect(r.code, r.stdout + r.stderr).toBe(1);
      expect(r.json.error.code).toBe("UNAUTHORIZED");
      expect(r.stdout).not.toContain(server.token);
    }
  });

  it("yard mcp follows the same rule: a tool call with YARD_PANE empty is UNAUTHORIZED", async () => {
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries({
      ...process.env,
      YARD_HOME: server.home,
      YARD_URL: "",
      YARD_TOKEN: "",
      YARD_PANE: "",
    }))
      if (v !== undefined) env[k] = v;
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [YARD_BIN, "mcp"],
      env,
      cwd: ROOT,
      stderr: "pipe",
    });
    const client = new Client({ name: "yard-test", version: "0.0.0" });
    await client.connect(transport);
    try {
      const res = (await client.callTool({ name: "project_list", arguments: {} })) as {
        isError?: boolean;
        content: Array<{ text?: string }>;
      };
      expect(res.isError).toBe(true);
      expect(JSON.parse(res.content[0]!.text!).error.code).toBe("UNAUTHORIZED");
    } finally {
      await client.close();
    }
  });

  it("yard hook posts nothing without the pane's own token, whatever data dir it can read", async () => {
    const before = (await api.events.list.query({ paneId: inHome.env.YARD_PANE!, type: "pane.hook" })).events.length;
    const { YARD_TOKEN: _t, ...rest } = inHome.env;
    const r = await yard(server, ["hook", "Stop"], {
      env: { ...rest, YARD_HOME: server.home },
      input: JSON.stringify({ hook_event_name: "Stop" }),
      cwd: inHome.worktree,
    });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain("nothing posted");
    expect((await api.events.list.query({ paneId: inHome.env.YARD_PANE!, type: "pane.hook" })).events.length).toBe(
      before,
    );
  });
});
