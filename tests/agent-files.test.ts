// Files an agent controls, against the real server, real panes and (for the config files) the real
// bubblewrap sandbox and the real Codex app-server. The attacker is a script in a pane: it posts
// hooks with its own pane token (`yard hook`) and plants files where it can write.
// - Transcripts: a hook's transcript_path is a FIFO, /dev/zero, a link to a host file, a path
//   outside the agent's own transcript directory, or a real transcript swapped for a FIFO later:
//   tasks.get, tasks.list and board.get still answer at once (also after a restart), the path is
//   refused (and journaled) or never read, and a real transcript where the agent keeps them still
//   gives token usage.
// - Agent config in a sandboxed task's home: `~/.claude.json` planted as a link to a host file or
//   as a FIFO, Codex's `config.toml` as a link to a host file: the next launch's preparation leaves
//   the host file byte-identical, does not hang, and journals task.prepare_failed with the reason;
//   Codex's app-server never runs in the agent's CODEX_HOME.
import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { agentPaths } from "../scripts/install-agents.mjs";
import { adminClient } from "./helpers/client";
import { makeRepo } from "./helpers/git";
import { startTestServer, type TestServer } from "./helpers/server";
import { waitFor } from "./helpers/wait";

vi.setConfig({ testTimeout: 120_000 });

// Outside /tmp, which the sandbox replaces with an empty one.
const base = mkdtempSync("/var/tmp/yard-agent-files-");
/** The user's home as the server (and every unsandboxed agent) sees it: Claude Code keeps its transcripts in ~/.claude/projects. */
const userHome = path.join(base, "user-home");
const projectsDir = path.join(userHome, ".claude", "projects", "-repo");
const dataDir = path.join(base, "data");
let server: TestServer;
let api: ReturnType<typeof adminClient>;

const serverEnv = { HOME: userHome, CLAUDE_CONFIG_DIR: "", CODEX_HOME: "", YARD_MAX_ACTIVE_TASKS: "12" };

const repo = () => makeRepo("repo-", base);

/** Resolves with `p`, or fails when it takes longer than `ms` (a read that hangs on a FIFO never resolves). */
async function promptly<T>(what: string, p: Promise<T>, ms = 10_000): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>(
    (_, reject) => (timer = setTimeout(() => reject(new Error(`${what} did not answer within ${ms} ms`)), ms)),
  );
  try {
    return await Promise.race([p, late]);
  } finally {
    clearTimeout(timer);
  }
}

const usageLine = (id: string, input: number, output: number) =>
  JSON.stringify({
    type: "assistant",
    message: { id, model: "claude-test", usage: { input_tokens: input, output_tokens: output } },
  });

beforeAll(async () => {
  mkdirSync(projectsDir, { recursive: true });
  mkdirSync(dataDir);
  server = await startTestServer({ home: dataDir, env: serverEnv });
  api = adminClient(server);
});
afterAll(async () => {
  await server?.dispose();
  rmSync(base, { recursive: true, force: true });
});

// ---- transcripts ---------------------------------------------------------------------------------

// The pane's script: $1 plants the transcript (T is its path), then SessionStart and Stop hooks
// name it, then the script marks that it is done and waits for `go` to run $2 (a later swap).
const TRANSCRIPT_AGENT = `
T="$TRANSCRIPT"; SID="sess-$YARD_TASK"
eval "$1"
hook() { printf '{"session_id":"%s","transcript_path":"%s","cwd":"%s","hook_event_name":"%s"}' "$SID" "$T" "$PWD" "$1" | yard hook "$1"; }
hook SessionStart; hook Stop
touch "$MARK"
while [ ! -e "$MARK.go" ]; do sleep 0.05; done
eval "$2"
touch "$MARK.swapped"
exec sleep 600
`;

const hostFile = path.join(base, "host-secret.jsonl");
const outsideFile = path.join(base, "outside.jsonl");

interface Case {
  name: string;
  transcript: string;
  plant: string;
  swap?: string;
}
const cases: Case[] = [
  { name: "fifo", transcript: path.join(projectsDir, "fifo.jsonl"), plant: 'mkfifo "$T"' },
  { name: "dev-zero", transcript: "/dev/zero", plant: "" },
  { name: "link-to-dev-zero", transcript: path.join(projectsDir, "zero.jsonl"), plant: 'ln -s /dev/zero "$T"' },
  { name: "link-to-host-file", transcript: path.join(projectsDir, "host.jsonl"), plant: `ln -s '${hostFile}' "$T"` },
  { name: "outside", transcript: outsideFile, plant: "" },
  {
    name: "legit",
    transcript: path.join(projectsDir, "legit.jsonl"),
    plant: `printf '%s\\n' '${usageLine("m1", 100, 10)}' '${usageLine("m2", 20, 2)}' > "$T"`,
  },
  {
    name: "swapped",
    transcript: path.join(projectsDir, "swapped.jsonl"),
    plant: `printf '%s\\n' '${usageLine("m1", 5, 5)}' > "$T"`,
    swap: 'rm -f "$T"; mkfifo "$T"',
  },
];
const refused = ["fifo", "dev-zero", "link-to-dev-zero", "link-to-host-file", "outside"];

describe("a transcript_path the agent controls", () => {
  let projectId: string;
  const taskOf = new Map<string, string>();
  const markOf = (name: string) => path.join(base, `mark-${name}`);

  beforeAll(async () => {
    // Host files the agent points at: both hold what looks like token usage.
    writeFileSync(hostFile, `${usageLine("host", 999, 999)}\n`);
    writeFileSync(outsideFile, `${usageLine("out", 777, 777)}\n`);
    projectId = (await api.projects.add.mutate({ path: repo(), trustAgents: false })).id;
    for (const c of cases) {
      const { task } = await api.tasks.start.mutate({
        projectId,
        objective: `transcript case ${c.name}`,
        // {{claudeHookSettings}} makes this a Claude Code launch (its transcripts live in ~/.claude/projects).
        argv: [
          "env",
          `TRANSCRIPT=${c.transcript}`,
          `MARK=${markOf(c.name)}`,
          "sh",
          "-c",
          TRANSCRIPT_AGENT,
          "{{claudeHookSettings}}",
          c.plant,
          c.swap ?? "",
        ],
      });
      taskOf.set(c.name, task.id);
    }
    for (const c of cases)
      await waitFor(() => existsSync(markOf(c.name)), { what: `the ${c.name} pane's hooks`, timeoutMs: 30_000 });
  }, 90_000);

  it.each(refused)(
    "%s: tasks.get answers at once, without the path and without token usage; the refusal is journaled",
    async (name) => {
      const id = taskOf.get(name)!;
      const t = await promptly(`tasks.get (${name})`, api.tasks.get.query({ id }));
      expect(t.agentSession).toMatchObject({ id: `sess-${id}`, transcriptPath: null, tokens: null });
      const events = (await api.tasks.events.query({ id })).events;
      expect(events.find((e) => e.type === "task.transcript_refused")?.payload).toMatchObject({
        transcriptPath: cases.find((c) => c.name === name)!.transcript,
        reason: expect.any(String),
      });
      // Asked again (a refresh would have run by now), still nothing read.
      expect(
        (await promptly(`tasks.get (${name}), again`, api.tasks.get.query({ id }))).agentSession?.tokens,
      ).toBeNull();
    },
  );

  it("tasks.list and board.get answer at once", async () => {
    const all = await promptly("tasks.list", api.tasks.list.query({ projectId }));
    expect(all.length).toBe(cases.length);
    for (const name of refused) expect(all.find((t) => t.id === taskOf.get(name))!.agentSession?.tokens).toBeNull();
    const board = await promptly("board.get", api.board.get.query({ projectId }));
    expect(Object.values(board).flat().length).toBe(cases.length);
  });

  it("a real transcript in ~/.claude/projects gives its token usage", async () => {
    const id = taskOf.get("legit")!;
    const t = await waitFor(
      async () => {
        const v = await promptly("tasks.get (legit)", api.tasks.get.query({ id }));
        return v.agentSession?.tokens ? v : null;
      },
      { what: "token usage of the legitimate transcript" },
    );
    expect(t.agentSession).toMatchObject({
      transcriptPath: cases.find((c) => c.name === "legit")!.transcript,
      tokens: { inputTokens: 120, outputTokens: 12, totalTokens: 132 },
    });
  });

  it("a real transcript the agent swaps for a FIFO later: every read still answers at once, and its usage is dropped", async () => {
    const id = taskOf.get("swapped")!;
    await waitFor(async () => (await api.tasks.get.query({ id })).agentSession?.tokens?.inputTokens === 5, {
      what: "the swapped transcript's first usage",
    });
    writeFileSync(`${markOf("swapped")}.go`, "");
    await waitFor(() => existsSync(`${markOf("swapped")}.swapped`), { what: "the agent's swap" });
    expect(lstatSync(cases.find((c) => c.name === "swapped")!.transcript).isFIFO()).toBe(true);
    await waitFor(
      async () => (await promptly("tasks.get (swapped)", api.tasks.get.query({ id }))).agentSession?.tokens === null,
      { what: "the swapped transcript's usage dropped" },
    );
    await promptly("tasks.list", api.tasks.list.query({ projectId }));
  });

  it("after a server restart, nothing hangs either, and the real transcript is counted again", async () => {
    await server.stop();
    server = await startTestServer({ home: dataDir, env: serverEnv });
    api = adminClient(server);
    for (const c of cases) {
      const t = await promptly(
        `tasks.get (${c.name}) after the restart`,
        api.tasks.get.query({ id: taskOf.get(c.name)! }),
      );
      if (refused.includes(c.name) || c.name === "swapped") expect(t.agentSession?.tokens ?? null, c.name).toBeNull();
    }
    await promptly("tasks.list after the restart", api.tasks.list.query({ projectId }));
    await promptly("board.get after the restart", api.board.get.query({ projectId }));
    await waitFor(
      async () => (await api.tasks.get.query({ id: taskOf.get("legit")! })).agentSession?.tokens?.totalTokens === 132,
      { what: "the legitimate usage after the restart" },
    );
    expect((await api.tasks.get.query({ id: taskOf.get("swapped")! })).agentSession?.tokens).toBeNull();
  });
});

// ---- agent config in a sandboxed task's home ----------------------------------------------------

// The pane's script (sandboxed): posts SessionStart (so the task can be resumed), plants what $1
// says in its own home at its first launch only (a later launch re-planting would race the test's reads), marks it, and waits.
const CONFIG_AGENT = `
printf '{"session_id":"sess-%s","cwd":"%s","hook_event_name":"SessionStart"}' "$YARD_TASK" "$PWD" | yard hook SessionStart
[ -e "$HOME/planted" ] || eval "$1"
touch "$HOME/planted"
exec sleep 600
`;

/** The sandbox's home of a task, on the host. */
const sandboxHome = (taskId: string) => path.join(dataDir, "sandbox", taskId, "home");

/** Cancels the task (unless it already failed) and waits until its pane is gone, so it can be resumed. */
async function stopTask(id: string) {
  const t = await api.tasks.get.query({ id });
  if (t.state !== "failed" && t.state !== "canceled") await api.tasks.cancel.mutate({ id }).catch(() => {});
  await waitFor(
    async () => {
      const p = await api.panes.get.query({ id: t.paneId! });
      return !p.live || p.lifecycle === "exited";
    },
    { what: "the task's pane to exit" },
  );
}

async function prepareFailures(id: string) {
  return (await api.tasks.events.query({ id })).events
    .filter((e) => e.type === "task.prepare_failed")
    .map((e) => e.payload as { code: string; message: string });
}

describe("agent config a sandboxed agent planted in its home", () => {
  let projectId: string;
  beforeAll(async () => {
    projectId = (await api.projects.add.mutate({ path: repo() })).id; // trustAgents on: the launch prep writes trust
  });

  /** A sandboxed task whose agent ran `plant`; then its resume (the next launch, prepared again). */
  async function plantThenResume(profile: { id: string; argv: string[] }, marker: (id: string) => boolean) {
    await api.agents.add.mutate({ ...profile, supportsHooks: true, sandbox: true });
    const { task } = await api.tasks.start.mutate({
      projectId,
      agent: profile.id,
      objective: "plant a file in my home",
    });
    await waitFor(() => existsSync(path.join(sandboxHome(task.id), "planted")) && marker(task.id), {
      what: "the agent's plant",
      timeoutMs: 60_000,
    });
    await waitFor(async () => (await api.tasks.get.query({ id: task.id })).agentSession !== null, {
      what: "the session recorded",
    });
    await stopTask(task.id);
    const resumed = await promptly(
      "tasks.resume (the next launch's preparation)",
      api.tasks.resume.mutate({ id: task.id }),
      30_000,
    );
    return { taskId: task.id, resumed };
  }

  it("~/.claude.json as a link to a host file: the host file stays byte-identical and the refusal is journaled", async () => {
    const target = path.join(base, "host-claude.json");
    const before = JSON.stringify({ host: "config", projects: {} }, null, 2);
    writeFileSync(target, before);
    const { taskId } = await plantThenResume(
      {
        id: "sbx-claude-link",
        argv: [
          "sh",
          "-c",
          CONFIG_AGENT,
          "{{claudeHookSettings}}",
          `rm -f "$HOME/.claude.json"; ln -s '${target}' "$HOME/.claude.json"`,
        ],
      },
      (id) =>
        lstatSync(path.join(sandboxHome(id), ".claude.json"), { throwIfNoEntry: false })?.isSymbolicLink() === true,
    );
    expect(readFileSync(target, "utf8")).toBe(before);
    expect(lstatSync(path.join(sandboxHome(taskId), ".claude.json")).isSymbolicLink()).toBe(true);
    expect(await prepareFailures(taskId)).toEqual([
      expect.objectContaining({ code: "CONFLICT", message: expect.stringContaining("symbolic link") }),
    ]);
    await api.tasks.cancel.mutate({ id: taskId }).catch(() => {});
  });

  it("~/.claude.json as a FIFO: the next launch does not hang, and the refusal is journaled", async () => {
    const { taskId } = await plantThenResume(
      {
        id: "sbx-claude-fifo",
        argv: [
          "sh",
          "-c",
          CONFIG_AGENT,
          "{{claudeHookSettings}}",
          `rm -f "$HOME/.claude.json"; mkfifo "$HOME/.claude.json"`,
        ],
      },
      (id) => lstatSync(path.join(sandboxHome(id), ".claude.json"), { throwIfNoEntry: false })?.isFIFO() === true,
    );
    expect(await prepareFailures(taskId)).toEqual([
      expect.objectContaining({ code: "CONFLICT", message: expect.stringContaining("not a regular file") }),
    ]);
    await api.tasks.cancel.mutate({ id: taskId }).catch(() => {});
  });

  /** A Codex profile whose program is the real Codex for the host's app-server, and the attacker's script (running `plant`) otherwise. */
  function codexAttacker(id: string, plant: string) {
    const codex = agentPaths("codex").bin;
    if (!existsSync(codex))
      throw new Error(
        `codex is not installed at ${codex}: run \`node scripts/install-agents.mjs\` once (npm test and .ci/run do)`,
      );
    const shim = path.join(base, `codex-${id}`);
    const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
    writeFileSync(
      shim,
      `#!/bin/sh\nif [ "$1" = app-server ]; then exec ${q(codex)} "$@"; fi\nexec sh -c ${q(CONFIG_AGENT)} codex ${q(plant)}\n`,
      { mode: 0o755 },
    );
    return { id, argv: [shim, "-c", "{{codexHooks}}"] };
  }
  const codexHomeOf = (taskId: string) => path.join(sandboxHome(taskId), ".codex");

  it("Codex: the host's app-server never runs in the agent's CODEX_HOME (a planted skills/ link to a host directory gets nothing)", async () => {
    const hostDir = mkdtempSync(path.join(base, "host-dir-"));
    // The agent drops the trust Switchyard recorded (so the next launch needs the app-server again) and links skills/ to a host directory.
    const plant = `mkdir -p "$HOME/.codex"; : > "$HOME/.codex/config.toml"; rm -rf "$HOME/.codex/skills"; ln -s '${hostDir}' "$HOME/.codex/skills"`;
    const { taskId } = await plantThenResume(
      codexAttacker("sbx-codex-skills", plant),
      (id) => lstatSync(path.join(codexHomeOf(id), "skills"), { throwIfNoEntry: false })?.isSymbolicLink() === true,
    );
    expect(readdirSync(hostDir)).toEqual([]);
    // Both launches were prepared (trust recorded through a private copy), and the copy came back into the agent's config.toml.
    const prepared = (await api.tasks.events.query({ id: taskId })).events.filter(
      (e) => e.type === "task.agent_config",
    );
    expect(prepared.map((e) => e.payload)).toEqual(
      [0, 1].map(() => expect.objectContaining({ kind: "codex", codex: expect.objectContaining({ skipped: false }) })),
    );
    expect(await prepareFailures(taskId)).toEqual([]);
    expect(readFileSync(path.join(codexHomeOf(taskId), "config.toml"), "utf8")).toContain(
      `[projects.${JSON.stringify((await api.tasks.get.query({ id: taskId })).repoPath)}]`,
    );
    expect(readdirSync(codexHomeOf(taskId)).filter((f) => /sqlite|installation_id/.test(f))).toEqual([]);
    await api.tasks.cancel.mutate({ id: taskId }).catch(() => {});
  });

  it("Codex: a config.toml linked to a host file is not followed: the host file stays byte-identical and the refusal is journaled", async () => {
    const target = path.join(base, "host-codex.toml");
    const before = '# the host\'s own Codex config\nmodel = "host-model"\n';
    writeFileSync(target, before);
    const plant = `mkdir -p "$HOME/.codex"; rm -f "$HOME/.codex/config.toml"; ln -s '${target}' "$HOME/.codex/config.toml"`;
    const { taskId } = await plantThenResume(
      codexAttacker("sbx-codex-link", plant),
      (id) =>
        lstatSync(path.join(codexHomeOf(id), "config.toml"), { throwIfNoEntry: false })?.isSymbolicLink() === true,
    );
    expect(readFileSync(target, "utf8")).toBe(before);
    expect(await prepareFailures(taskId)).toEqual([
      expect.objectContaining({ code: "CONFLICT", message: expect.stringContaining("symbolic link") }),
    ]);
    await api.tasks.cancel.mutate({ id: taskId }).catch(() => {});
  });
});
