// The real Codex CLI (the pinned @openai/codex, scripts/install-agents.mjs) through the built-in
// `codex` profile, offline, against the model stub's OpenAI Responses API: readiness read from
// its screen (never its quiet splash), its hooks and notify mapped like Claude's, Switchyard's
// hooks and the project's folder trust recorded through Codex's own app-server, `yard task
// report` reaching the server from inside its workspace-write sandbox (through the approval it
// asks for), an API error seen on the screen ending in input_required, two tasks at once with no
// shared daemon between them, and a session resumed after a server restart.
import { existsSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { acceptPermission, type Api, attentionFor, screenOf, sendKeys, waitState } from "./helpers/agent-tasks";
import { codexUser, pathWithAgents, scratchOutsideTmp } from "./helpers/agents";
import { adminClient } from "./helpers/client";
import { makeRepo } from "./helpers/git";
import { startTestServer, type TestServer, yard, stopPaneHost } from "./helpers/server";
import { waitFor } from "./helpers/wait";
import { type ModelStub, startModelStub } from "./stubs/model-api";

vi.setConfig({ testTimeout: 180_000 });

let stub: ModelStub;
let server: TestServer;
let api: Api;
let home: string;
let userEnv: Record<string, string>;
const dirs: string[] = [];
let markers = 0;
const marker = () => `yard-test-marker-${process.pid}-${++markers}`;
const repo = () => {
  const r = makeRepo("yard-codex-repo-");
  dirs.push(r);
  return r;
};

beforeAll(async () => {
  stub = await startModelStub();
  home = scratchOutsideTmp("yard-codex-home-");
  dirs.push(home);
  userEnv = codexUser(home, stub);
  server = await startTestServer({ env: { ...userEnv, PATH: pathWithAgents() } });
  api = adminClient(server);
});
afterAll(async () => {
  await server?.dispose();
  await stub?.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const codexConfig = () => readFileSync(path.join(userEnv.CODEX_HOME!, "config.toml"), "utf8");
const addProject = async (root: string, trust: boolean) => {
  const r = await yard(server, ["--json", "project", "add", root, ...(trust ? [] : ["--no-trust-agents"])]);
  expect(r.code).toBe(0);
  return r.json.project as { id: string; trustAgents: boolean };
};
/** `yard task report` leaves Codex's sandbox (no network in it) through the approval it asks for. */
const reportStep = (summary: string) => ({
  tool: "exec_command",
  input: {
    cmd: `yard task report --status completed --summary "${summary}"`,
    sandbox_permissions: "require_escalated",
    justification: "Report the task to Switchyard (its server is on loopback, outside the sandbox)",
  },
});
/** Codex asks "Would you like to run the following command?": `y` approves once. */
const approve = (paneId: string) => acceptPermission(server, api, paneId, { text: "y" });

describe("Codex through the codex profile", () => {
  it("runs a task from start to completed: ready from its screen, its hooks trusted and the folder trust recorded by Codex itself, the sandboxed report approved with send-keys", async () => {
    const root = repo();
    const project = await addProject(root, true);
    const m = marker();
    stub.script(m, [
      {
        tool: "exec_command",
        input: { cmd: "printf 'hello from codex\\n' > notes.txt && git add notes.txt && git commit -qm 'add notes'" },
      },
      reportStep("wrote notes.txt"),
      { text: "Done: notes.txt is committed and the task is reported." },
    ]);
    const { task, pane: startedPane } = await api.tasks.start.mutate({
      projectId: project.id,
      agent: "codex",
      objective: `Write notes.txt, then report. ${m}`,
    });
    const pane = startedPane!; // not a backlog start: it has a pane
    expect(pane.argv).toEqual(expect.arrayContaining(["--no-daemon"]));

    // Before the launch, Codex's own app-server recorded trust for Switchyard's hooks and the repository.
    const cfg = codexConfig();
    expect(cfg).toContain("# the user's own Codex config");
    expect(cfg).toContain(`[projects.${JSON.stringify(root)}]`);
    for (const e of [
      "session_start",
      "user_prompt_submit",
      "pre_tool_use",
      "permission_request",
      "post_tool_use",
      "stop",
    ]) {
      expect(cfg).toContain(`[hooks.state."/<session-flags>/config.toml:${e}:0:0"]`);
    }

    const { item } = await approve(pane.id);
    expect(item).toMatchObject({ paneId: pane.id, taskId: task.id, reason: "blocked" });
    const done = await waitState(api, task.id, "terminal");
    expect(done).toMatchObject({ state: "completed", result: { status: "completed", summary: "wrote notes.txt" } });
    expect(readFileSync(path.join(task.worktreePath!, "notes.txt"), "utf8")).toBe("hello from codex\n");

    const causes = (await api.events.list.query({ paneId: pane.id, type: "pane.lifecycle" })).events.map(
      (e) => e.payload.cause,
    );
    // Ready came from the screen (its SessionStart hook fires only at the first prompt), never from a dialog.
    expect(causes.slice(0, 3)).toEqual(["spawned", "screen:ready", "hook:UserPromptSubmit"]);
    expect(causes).toContain("hook:PermissionRequest");
    expect(causes.some((c) => String(c).startsWith("screen:dialog"))).toBe(false);
    // Codex's notify for the task's own thread counts as a Stop (beside the Stop hook); the one for
    // its title request (another thread) is journaled and changes nothing.
    const hooks = await waitFor(
      async () => {
        const h = (await api.events.list.query({ paneId: pane.id, type: "pane.hook" })).events.map((e) => e.payload);
        return h.filter((x) => x.name === "Stop").length === 2 && h.some((x) => x.name === "CodexNotify") ? h : null;
      },
      { what: "both Stops and the title thread's notify" },
    );
    expect(hooks.filter((h) => h.name === "CodexNotify").map((h) => h.outcome)).toEqual(["unknown"]);
    expect(hooks.filter((h) => h.name === "Stop").map((h) => h.outcome)).toEqual(["transition", "noop"]);
    expect(stub.requests.some((r) => r.api === "openai" && r.answered === "side")).toBe(true);

    // The turn's last reply (after the report) is in the session's token count too.
    await stub.waitForRequest((r) => r.script === m && r.step === 2);
    const got = await waitFor(async () => {
      const t = await api.tasks.get.query({ id: task.id });
      return t.agentSession?.tokens && t.agentSession.tokens.outputTokens >= 3 * stub.usage.output ? t : null;
    });
    const answered = stub.requestsFor(m).filter((r) => r.answered === "tool" || r.answered === "text").length;
    expect(answered).toBe(3);
    expect(got.agentSession).toMatchObject({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      transcriptPath: expect.stringContaining("rollout-"),
    });
    expect(got.agentSession!.tokens!.outputTokens).toBe(answered * stub.usage.output);
  });

  it("shows its folder-trust dialog when the project says no: startup_dialog at the top of attention, answered in the terminal, then the task runs", async () => {
    const root = repo();
    const project = await addProject(root, false);
    const m = marker();
    stub.script(m, [reportStep("after the trust dialog"), { text: "Reported." }]);
    const { task, pane: startedPane } = await api.tasks.start.mutate({
      projectId: project.id,
      agent: "codex",
      objective: `Report. ${m}`,
      readyTimeoutMs: 20_000,
      dialogTimeoutMs: 60_000,
    });
    const pane = startedPane!; // not a backlog start: it has a pane
    const { item, items } = await attentionFor(api, pane.id, "startup_dialog");
    expect(items[0]).toEqual(item);
    expect(item).toMatchObject({ taskId: task.id, message: "Codex asks whether you trust this folder" });
    expect((await api.panes.get.query({ id: pane.id })).dialog!.text).toContain("Trust this folder?");
    expect((await api.tasks.get.query({ id: task.id })).state).toBe("pending");
    await sendKeys(
      server,
      api,
      pane.id,
      { enter: true },
      async () => (await api.panes.get.query({ id: pane.id })).blockedReason !== "startup_dialog",
    );
    await approve(pane.id);
    expect(await waitState(api, task.id, "terminal")).toMatchObject({
      state: "completed",
      result: { summary: "after the trust dialog" },
    });
  });

  it("fails a task whose start-up dialog nobody answers after the ready timeout, with the dialog's screen as evidence, and stops codex", async () => {
    const root = repo();
    // A generous agent budget (Codex must reach its dialog within it on a loaded machine); the
    // dialog's own clock is the one that runs out.
    const { task, pane: startedPane } = await api.tasks.start.mutate({
      repoPath: root,
      agent: "codex",
      objective: `Never answered. ${marker()}`,
      readyTimeoutMs: 20_000,
      dialogTimeoutMs: 2500,
    });
    const pane = startedPane!; // not a backlog start: it has a pane
    await attentionFor(api, pane.id, "startup_dialog");
    const failed = await waitState(api, task.id, "terminal");
    expect(failed).toMatchObject({
      state: "failed",
      evidence: { stage: "ready_timeout", reason: "startup_dialog", dialog: { kind: "trust" } },
    });
    expect(failed.evidence!.screen).toContain("Trust this folder?");
    const gone = await waitFor(async () => {
      const p = await api.panes.get.query({ id: pane.id });
      return p.lifecycle === "exited" ? p : null;
    });
    expect(() => process.kill(gone.pid!, 0)).toThrow();
  });

  it("ends a turn whose API call fails (no hook fires: the screen says so) in input_required with the error", async () => {
    const root = repo();
    const project = await addProject(root, true);
    const m = marker();
    stub.script(m, [
      { error: { status: 400, type: "invalid_request_error", message: "stub says this request is invalid" } },
    ]);
    const { task, pane: startedPane } = await api.tasks.start.mutate({
      projectId: project.id,
      agent: "codex",
      objective: `Trigger an API error. ${m}`,
    });
    const pane = startedPane!; // not a backlog start: it has a pane
    const t = await waitState(api, task.id, "settled");
    expect(t.state).toBe("input_required");
    expect(t.evidence).toMatchObject({
      reason: "turn_failed",
      error: expect.stringContaining("stub says this request is invalid"),
    });
    expect(t.statusLine).toMatch(/^Turn failed: ■ \{"error":.*stub says this request is invalid/);
    const { item } = await attentionFor(api, pane.id, "input_required");
    expect(item.message).toContain("stub says this request is invalid");
    const causes = (await api.events.list.query({ paneId: pane.id, type: "pane.lifecycle" })).events.map(
      (e) => e.payload.cause,
    );
    expect(causes).toContain("screen:turn_failed");
  });

  it("runs two tasks at once with no shared daemon: each task's commands see only its own environment and each report completes its own task", async () => {
    const root = repo();
    const project = await addProject(root, true);
    const started = await Promise.all(
      [1, 2].map(async () => {
        const m = marker();
        stub.script(m, [
          { tool: "exec_command", input: { cmd: 'printf "task=%s pane=%s\\n" "$YARD_TASK" "$YARD_PANE" > env.txt' } },
          {
            tool: "exec_command",
            input: {
              cmd: 'yard task report --status completed --summary "env of $YARD_TASK"',
              sandbox_permissions: "require_escalated",
              justification: "Report to Switchyard",
            },
          },
          { text: "done" },
        ]);
        return api.tasks.start.mutate({
          projectId: project.id,
          agent: "codex",
          objective: `Record the environment. ${m}`,
        });
      }),
    );
    await Promise.all(started.map((t) => approve(t.pane!.id)));
    for (const t of started) {
      const done = await waitState(api, t.task.id, "terminal");
      expect(done).toMatchObject({ state: "completed", result: { summary: `env of ${t.task.id}` } });
      expect(readFileSync(path.join(t.task.worktreePath!, "env.txt"), "utf8")).toBe(
        `task=${t.task.id} pane=${t.pane!.id}\n`,
      );
    }
    // No Codex background server outlived the panes.
    const panes = await Promise.all(started.map((t) => api.panes.get.query({ id: t.pane!.id })));
    expect(panes.every((p) => p.argv.includes("--no-daemon"))).toBe(true);
    expect(existsSync(path.join(userEnv.CODEX_HOME!, "daemon.lock"))).toBe(false);
  });

  it("resumes the session after a server restart with `yard task resume` (codex resume <session>)", async () => {
    const root = repo();
    const project = await addProject(root, true);
    const m = marker();
    stub.script(m, [
      { text: "I looked at the repository; I will report next." },
      reportStep("resumed and reported"),
      { text: "Reported after the resume." },
    ]);
    const { task } = await api.tasks.start.mutate({
      projectId: project.id,
      agent: "codex",
      objective: `Two turns. ${m}`,
    });
    const first = await waitState(api, task.id, "settled");
    expect(first).toMatchObject({ state: "input_required", evidence: { reason: "turn_ended_without_report" } });
    const session = first.agentSession!.id;

    // The server and the agents' pane host both go (a machine restart): the agent's process is gone.
    await server.stop();
    await stopPaneHost(server.home, "SIGKILL");
    server = await startTestServer({ home: server.home, env: { ...userEnv, PATH: pathWithAgents() } });
    api = adminClient(server);
    expect(await api.tasks.get.query({ id: task.id })).toMatchObject({
      state: "failed",
      evidence: { reason: "server_restart" },
    });

    const r = await yard(server, ["--json", "task", "resume", task.id]);
    expect(r.code).toBe(0);
    const resumed = r.json as { task: { round: number }; pane: { id: string; argv: string[] } };
    expect(resumed.task.round).toBe(2);
    expect(resumed.pane.argv.slice(1, 3)).toEqual(["resume", session]);
    await approve(resumed.pane.id);
    const done = await waitState(api, task.id, "terminal");
    expect(done).toMatchObject({
      state: "completed",
      round: 2,
      result: { summary: "resumed and reported" },
      agentSession: { id: session },
    });
    const resumedRequest = stub.requestsFor(m).find((q) => q.step === 1)!;
    expect(resumedRequest.raw).toContain("I looked at the repository; I will report next.");
    expect(resumedRequest.raw).toContain("Switchyard restarted you in the same session");
    expect(await screenOf(api, resumed.pane.id)).toBeTruthy();
  });
});
