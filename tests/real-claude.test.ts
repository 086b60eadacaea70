// The real Claude Code CLI (the pinned @anthropic-ai/claude-code, scripts/install-agents.mjs)
// through the built-in `claude-code` profile, offline, against the model stub
// (tests/stubs/model-api.ts): a task from start to completed with no human step but its
// permission prompts (answered with `yard pane send-keys`), each prompt and start-up dialog in
// attention, workspace trust recorded from the project setting, an API error ending in
// input_required, a retrying agent, two tasks that never see each other's environment, and a
// session resumed after a server restart.
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import {
  acceptPermission,
  type Api,
  attentionFor,
  describeTask,
  screenOf,
  sendKeys,
  waitState,
} from "./helpers/agent-tasks";
import { claudeUser, pathWithAgents } from "./helpers/agents";
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
const dirs: string[] = [];
let markers = 0;
const marker = () => `yard-test-marker-${process.pid}-${++markers}`;
const repo = () => {
  const r = makeRepo("yard-claude-repo-");
  dirs.push(r);
  return r;
};

async function serverEnv(): Promise<Record<string, string>> {
  return { ...claudeUser(home, stub), PATH: pathWithAgents() };
}

beforeAll(async () => {
  stub = await startModelStub();
  home = mkdtempSync(path.join(os.tmpdir(), "yard-claude-home-"));
  dirs.push(home);
  server = await startTestServer({ env: await serverEnv() });
  api = adminClient(server);
});
afterAll(async () => {
  await server?.dispose();
  await stub?.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const claudeConfig = () => JSON.parse(readFileSync(path.join(home, ".claude.json"), "utf8"));
const addProject = async (root: string, trust: boolean) => {
  const r = await yard(server, ["--json", "project", "add", root, ...(trust ? [] : ["--no-trust-agents"])]);
  expect(r.code).toBe(0);
  return r.json.project as { id: string; trustAgents: boolean };
};
const reportCommand = (summary: string) => `yard task report --status completed --summary "${summary}"`;

describe("Claude Code through the claude-code profile", () => {
  it("runs a task from start to completed: trust recorded from the project setting, permission prompts in attention and answered with send-keys", async () => {
    const root = repo();
    const project = await addProject(root, true);
    expect(project.trustAgents).toBe(true);
    const m = marker();
    stub.script(m, [
      { tool: "Write", input: { file_path: "{{cwd}}/notes.txt", content: "hello from claude\n" } },
      {
        tool: "Bash",
        input: { command: reportCommand("wrote notes.txt"), description: "Report the task to Switchyard" },
      },
      { text: "Done: notes.txt is written and the task is reported." },
    ]);
    const start = await yard(server, [
      "--json",
      "task",
      "start",
      "--project",
      project.id,
      "--agent",
      "claude-code",
      "--objective",
      `Write notes.txt, then report. ${m}`,
    ]);
    expect(start.code).toBe(0);
    const { task, pane } = start.json as { task: { id: string; worktreePath: string }; pane: { id: string } };

    // Trust was recorded before the launch, for the repository, and the user's keys were kept.
    const cfg = claudeConfig();
    // (Claude Code adds keys of its own there once it runs: read right after the start, it may have.)
    expect(cfg.projects[root]).toMatchObject({ hasTrustDialogAccepted: true });
    expect(cfg.userMarker).toBe("kept");
    expect(cfg.customApiKeyResponses.approved).toHaveLength(1);

    // Write: "Do you want to create notes.txt?" -> blocked, in attention, accepted with Enter.
    const first = await acceptPermission(server, api, pane.id, { enter: true });
    expect(first.item).toMatchObject({ paneId: pane.id, taskId: task.id, reason: "blocked" });
    await waitFor(() => existsSync(path.join(task.worktreePath, "notes.txt")), { what: "notes.txt" });
    // Bash: "This command requires approval" -> blocked again, accepted the same way.
    const second = await acceptPermission(server, api, pane.id, { enter: true });
    expect(second.item).toMatchObject({ paneId: pane.id, reason: "blocked" });

    const done = await waitState(api, task.id, "terminal");
    expect(done).toMatchObject({ state: "completed", result: { status: "completed", summary: "wrote notes.txt" } });
    expect(readFileSync(path.join(task.worktreePath, "notes.txt"), "utf8")).toBe("hello from claude\n");
    const diff = await api.tasks.diff.query({ id: task.id });
    expect(diff.files.map((f) => f.path)).toEqual(["notes.txt"]);

    // The journal saw exactly the two prompts; the trust dialog never showed.
    const events = await api.events.list.query({ paneId: pane.id, type: "pane.lifecycle" });
    expect(events.events.filter((e) => e.payload.to === "blocked").map((e) => e.payload.cause)).toEqual([
      "hook:PermissionRequest",
      "hook:PermissionRequest",
    ]);
    expect(events.events.some((e) => String(e.payload.cause).startsWith("screen:dialog"))).toBe(false);

    // The agent's session is recorded, with its token usage read from the transcript.
    const got = await waitFor(async () => {
      const t = await api.tasks.get.query({ id: task.id });
      return t.agentSession?.tokens && t.agentSession.tokens.outputTokens >= 3 * stub.usage.output ? t : null;
    });
    const answered = stub.requestsFor(m).filter((r) => r.answered === "tool" || r.answered === "text").length;
    expect(answered).toBe(3);
    expect(got.agentSession).toMatchObject({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      transcriptPath: expect.stringContaining(".jsonl"),
    });
    expect(got.agentSession!.tokens).toMatchObject({
      inputTokens: answered * stub.usage.input,
      outputTokens: answered * stub.usage.output,
    });
  });

  it("shows its trust dialog when the project says no: the pane is blocked (startup_dialog) at the top of attention and in Needs you, the ready clock waits, and answering it in the terminal continues the task", async () => {
    const root = repo();
    const project = await addProject(root, false);
    const m = marker();
    stub.script(m, [
      { tool: "Bash", input: { command: reportCommand("after the trust dialog"), description: "Report" } },
      { text: "Reported." },
    ]);
    // Long enough that Claude Code reaches its dialog inside it on a loaded machine (the clock
    // runs until the dialog shows); the wait below then outlasts it at the dialog.
    const readyTimeoutMs = 8000;
    const started = Date.now();
    const { task, pane: startedPane } = await api.tasks.start.mutate({
      projectId: project.id,
      agent: "claude-code",
      objective: `Report. ${m}`,
      readyTimeoutMs,
      dialogTimeoutMs: 60_000,
    });
    const pane = startedPane!; // not a backlog start: it has a pane
    expect(claudeConfig().projects?.[root]).toBeUndefined();

    const { item, items } = await attentionFor(api, pane.id, "startup_dialog");
    expect(items[0]).toEqual(item); // first of everything that needs the user
    expect(item).toMatchObject({
      taskId: task.id,
      severity: 0,
      message: "Claude Code asks whether you trust this folder",
    });
    const info = await api.panes.get.query({ id: pane.id });
    expect(info).toMatchObject({ lifecycle: "blocked", blockedReason: "startup_dialog", dialog: { kind: "trust" } });
    expect(info.dialog!.text).toContain("Is this a project you created or one you trust?");
    const board = await api.board.get.query({ projectId: project.id });
    expect(board.needs_you.find((c) => c.id === task.id)).toMatchObject({
      state: "pending",
      line: "Waiting for you: Claude Code asks whether you trust this folder",
    });
    expect((await api.tasks.get.query({ id: task.id })).statusLine).toBe(
      "Waiting for you: Claude Code asks whether you trust this folder",
    );

    // A person takes longer than the agent's whole ready budget to answer: the clock waits for them.
    await waitFor(() => Date.now() - started > readyTimeoutMs + 500, {
      timeoutMs: readyTimeoutMs + 2000,
      intervalMs: 100,
    });
    expect((await api.tasks.get.query({ id: task.id })).state).toBe("pending");
    await sendKeys(server, api, pane.id, { text: "\x1b[B" }, async () =>
      /❯ Yes, I trust this folder/.test(await screenOf(api, pane.id)),
    );
    await sendKeys(
      server,
      api,
      pane.id,
      { enter: true },
      async () => (await api.panes.get.query({ id: pane.id })).blockedReason !== "startup_dialog",
    );

    await acceptPermission(server, api, pane.id, { enter: true });
    expect(await waitState(api, task.id, "terminal")).toMatchObject({
      state: "completed",
      result: { summary: "after the trust dialog" },
    });
    // Claude recorded the answer itself, for the main repository (the setting stayed off: Switchyard wrote nothing).
    expect(claudeConfig().projects[root]).toMatchObject({ hasTrustDialogAccepted: true });
    const causes = (await api.events.list.query({ paneId: pane.id, type: "pane.lifecycle" })).events.map(
      (e) => e.payload.cause,
    );
    // The pane leaves the dialog on whichever of two channels the server hears first: the screen
    // without the dialog, or Claude's SessionStart hook (under load the hook can come first, and
    // then the cleared screen changes nothing). Either way SessionStart is the first hook.
    expect(causes.slice(0, 2)).toEqual(["spawned", "screen:dialog:trust"]);
    expect(
      causes
        .slice(2)
        .filter((c) => c !== "screen:dialog_cleared")
        .slice(0, 1),
    ).toEqual(["hook:SessionStart"]);
  });

  it("fails a task whose start-up dialog nobody answers only after the ready timeout, with the dialog's screen as evidence, and stops the claude process", async () => {
    const root = repo();
    const started = Date.now();
    // The agent's own budget is generous (Claude Code must reach its dialog within it on a
    // loaded machine); the dialog's clock is the one that runs out.
    const { task, pane: startedPane } = await api.tasks.start.mutate({
      repoPath: root,
      agent: "claude-code",
      objective: `Never answered. ${marker()}`,
      readyTimeoutMs: 20_000,
      dialogTimeoutMs: 2500,
    });
    const pane = startedPane!; // not a backlog start: it has a pane
    await attentionFor(api, pane.id, "startup_dialog");
    const failed = await waitState(api, task.id, "terminal");
    expect(Date.now() - started).toBeGreaterThanOrEqual(2500);
    expect(failed.state).toBe("failed");
    expect(failed.evidence).toMatchObject({
      stage: "ready_timeout",
      reason: "startup_dialog",
      lifecycle: "blocked",
      dialog: { kind: "trust", title: "Claude Code asks whether you trust this folder" },
    });
    expect(failed.evidence!.waitedAtDialogMs as number).toBeGreaterThanOrEqual(2500);
    expect(failed.evidence!.screen).toContain("Is this a project you created or one you trust?");
    expect(failed.statusLine).toBe("Failed: nobody answered Claude Code asks whether you trust this folder");
    const gone = await waitFor(async () => {
      const p = await api.panes.get.query({ id: pane.id });
      return p.lifecycle === "exited" ? p : null;
    });
    expect(gone.live).toBe(false);
    expect(() => process.kill(pane.pid!, 0)).toThrow(); // no claude left running behind the failed card
  });

  it("ends a turn that hits an API error in input_required, with the failed turn and its error as evidence, on the card and in attention", async () => {
    const root = repo();
    const m = marker();
    stub.script(m, [
      { error: { status: 400, type: "invalid_request_error", message: "stub says this request is invalid" } },
    ]);
    const { task, pane: startedPane } = await api.tasks.start.mutate({
      repoPath: root,
      agent: "claude-code",
      objective: `Trigger an API error. ${m}`,
    });
    const pane = startedPane!; // not a backlog start: it has a pane
    // (no project: answer the trust dialog first)
    await attentionFor(api, pane.id, "startup_dialog");
    await sendKeys(server, api, pane.id, { text: "\x1b[B" }, async () =>
      /❯ Yes, I trust this folder/.test(await screenOf(api, pane.id)),
    );
    await sendKeys(
      server,
      api,
      pane.id,
      { enter: true },
      async () => (await api.panes.get.query({ id: pane.id })).blockedReason !== "startup_dialog",
    );
    const t = await waitState(api, task.id, "settled");
    expect(t.state).toBe("input_required");
    expect(t.evidence).toEqual({
      reason: "turn_failed",
      error: "unknown",
      last_message: "API Error: 400 stub says this request is invalid",
    });
    expect(t.statusLine).toBe("Turn failed: API Error: 400 stub says this request is invalid");
    const { item } = await attentionFor(api, pane.id, "input_required");
    expect(item.message).toBe("Turn failed: API Error: 400 stub says this request is invalid");
    expect(stub.requestsFor(m).every((r) => r.answered === "error")).toBe(true);
  });

  it("shows a retrying agent as working with a retrying note, then carries on", async () => {
    const root = repo();
    const project = await addProject(root, true);
    const m = marker();
    // Four failures, each answered after a second (a slow, failing API), keep Claude retrying for
    // several seconds; between its countdowns it shows "retrying…" while the retried request is under way.
    stub.script(m, [
      {
        error: { status: 401, type: "authentication_error", message: "stub key not yet valid" },
        times: 4,
        delayMs: 1000,
      },
      { tool: "Bash", input: { command: reportCommand("after retries"), description: "Report" } },
      { text: "ok" },
    ]);
    const { task, pane: startedPane } = await api.tasks.start.mutate({
      projectId: project.id,
      agent: "claude-code",
      objective: `Retry then report. ${m}`,
    });
    const pane = startedPane!; // not a backlog start: it has a pane
    // Claude names the error only from its third attempt on.
    const RETRY = String.raw`(?:API error|401 stub key not yet valid) · retrying(?:…| in \d+s) · attempt [1-4]\/10`;
    const notes = async () => (await api.events.list.query({ paneId: pane.id, type: "pane.note" })).events;
    // The journal keeps every note: wait on it, not on a sample of the pane.
    const first = await waitFor(async () => (await notes()).find((e) => e.payload.kind === "retrying"), {
      timeoutMs: 90_000,
      intervalMs: 100,
      what: "a retrying note",
    }).catch(async (e: Error) => {
      throw new Error(`${e.message}\n${await describeTask(api, task.id)}`);
    });
    expect(first.payload.text).toMatch(new RegExp(`^${RETRY}$`));
    // While it retries, the pane and the card say so.
    const retrying = await waitFor(
      async () => {
        const [p, t] = await Promise.all([api.panes.get.query({ id: pane.id }), api.tasks.get.query({ id: task.id })]);
        return p.note?.kind === "retrying" ? { p, t } : null;
      },
      { timeoutMs: 30_000, intervalMs: 50, what: "the pane's retrying note" },
    );
    expect(retrying.p.lifecycle).toBe("working");
    expect(retrying.p.note!.text).toMatch(new RegExp(`^${RETRY}$`));
    expect(retrying.t).toMatchObject({
      state: "working",
      statusLine: expect.stringMatching(new RegExp(`^Working \\(retrying\\): ${RETRY}$`)),
    });
    await acceptPermission(server, api, pane.id, { enter: true });
    expect(await waitState(api, task.id, "terminal")).toMatchObject({ state: "completed" });
    expect((await api.panes.get.query({ id: pane.id })).note).toBeNull();
    // The note held from the first retry until Claude carried on: cleared once, at the end.
    const all = await notes();
    const cleared = all.filter((e) => "cleared" in e.payload);
    expect(cleared).toHaveLength(1);
    expect(all.at(-1)).toBe(cleared[0]);
  });

  it("runs two tasks at once, each with only its own environment", async () => {
    const root = repo();
    const project = await addProject(root, true);
    const tasks = await Promise.all(
      [1, 2].map(async (i) => {
        const m = marker();
        stub.script(m, [
          {
            tool: "Bash",
            input: {
              command:
                'printf "task=%s pane=%s\\n" "$YARD_TASK" "$YARD_PANE" > env.txt && yard task report --status completed --summary "env of $YARD_TASK"',
              description: "Record the environment and report",
            },
          },
          { text: `task ${i} done` },
        ]);
        const r = await api.tasks.start.mutate({
          projectId: project.id,
          agent: "claude-code",
          objective: `Record the environment. ${m}`,
        });
        return { ...r, m };
      }),
    );
    await Promise.all(tasks.map((t) => acceptPermission(server, api, t.pane!.id, { enter: true })));
    for (const t of tasks) {
      const done = await waitState(api, t.task.id, "terminal");
      expect(done).toMatchObject({ state: "completed", result: { summary: `env of ${t.task.id}` } });
      expect(readFileSync(path.join(t.task.worktreePath!, "env.txt"), "utf8")).toBe(
        `task=${t.task.id} pane=${t.pane!.id}\n`,
      );
    }
    expect(tasks[0]!.task.id).not.toBe(tasks[1]!.task.id);
  });

  it("resumes the session after a server restart: `yard task resume` continues the same conversation in a fresh pane", async () => {
    const root = repo();
    const project = await addProject(root, true);
    const m = marker();
    stub.script(m, [
      { text: "I looked at the repository; I will write the summary next." },
      { tool: "Bash", input: { command: reportCommand("resumed and reported"), description: "Report" } },
      { text: "Reported after the resume." },
    ]);
    const { task } = await api.tasks.start.mutate({
      projectId: project.id,
      agent: "claude-code",
      objective: `Two turns. ${m}`,
    });
    const first = await waitState(api, task.id, "settled");
    expect(first).toMatchObject({ state: "input_required", evidence: { reason: "turn_ended_without_report" } });
    const session = first.agentSession!.id;

    // The server and the agents' pane host both go (a machine restart): the agent's process is gone.
    await server.stop();
    await stopPaneHost(server.home, "SIGKILL");
    server = await startTestServer({ home: server.home, env: await serverEnv() });
    api = adminClient(server);
    const lost = await api.tasks.get.query({ id: task.id });
    expect(lost).toMatchObject({
      state: "failed",
      evidence: { reason: "server_restart" },
      agentSession: { id: session },
    });

    const r = await yard(server, ["--json", "task", "resume", task.id]);
    expect(r.code).toBe(0);
    const resumed = r.json as { task: { round: number; state: string }; pane: { id: string; argv: string[] } };
    expect(resumed.task.round).toBe(2);
    expect(resumed.pane.argv.slice(-2)).toEqual(["--resume", session]);
    await acceptPermission(server, api, resumed.pane.id, { enter: true });
    const done = await waitState(api, task.id, "terminal");
    expect(done).toMatchObject({
      state: "completed",
      round: 2,
      result: { summary: "resumed and reported" },
      agentSession: { id: session },
    });
    // The model saw the whole earlier conversation: the contract and its first answer.
    const resumedRequest = stub.requestsFor(m).find((q) => q.step === 1)!;
    expect(resumedRequest.history).toBe(1);
    expect(resumedRequest.raw).toContain("I looked at the repository; I will write the summary next.");
    expect(resumedRequest.raw).toContain("Switchyard restarted you in the same session");
  });

  it("tries the profile from the Agents page procedures: agents.try starts it in a scratch pane, agents.tryStatus says it stopped at the trust dialog, then that it is ready", async () => {
    // The profile's env is write-only: names are listed, values never.
    const upd = await yard(server, [
      "--json",
      "agent",
      "update",
      "claude-code",
      "--env",
      "SWITCHYARD_TEST_FLAG=secret-value",
    ]);
    expect(upd.code).toBe(0);
    expect(upd.json.agent.envNames).toContain("SWITCHYARD_TEST_FLAG");
    expect(upd.stdout).not.toContain("secret-value");

    const { paneId } = await api.agents.try.mutate({ id: "claude-code" });
    const stopped = await waitFor(async () => {
      const s = await api.agents.tryStatus.query({ paneId });
      return s.dialog ? s : null;
    });
    expect(stopped).toMatchObject({
      profileId: "claude-code",
      ready: false,
      lifecycle: "blocked",
      dialog: { kind: "trust" },
    });
    expect(stopped.screen).toContain("Is this a project you created or one you trust?");
    await sendKeys(server, api, paneId, { text: "\x1b[B" }, async () =>
      /❯ Yes, I trust this folder/.test(await screenOf(api, paneId)),
    );
    await sendKeys(
      server,
      api,
      paneId,
      { enter: true },
      async () => (await api.agents.tryStatus.query({ paneId })).ready,
    );
    const ready = await api.agents.tryStatus.query({ paneId });
    expect(ready).toMatchObject({ ready: true, dialog: null, exited: false });
    expect(ready.readyAfterMs).toBeGreaterThan(0);
    await api.panes.kill.mutate({ id: paneId });
    expect(await api.agents.tryStatus.query({ paneId })).toMatchObject({ exited: true });

    const rm = await yard(server, ["--json", "agent", "update", "claude-code", "--unset-env", "SWITCHYARD_TEST_FLAG"]);
    expect(rm.json.agent.envNames).not.toContain("SWITCHYARD_TEST_FLAG");
  });
});
