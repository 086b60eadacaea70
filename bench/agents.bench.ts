// Real-agent benchmarks: the pinned Claude Code CLI (scripts/install-agents.mjs), offline against
// the test model stub, each against a baseline measured in the same run:
//   - launch to ready inside a task (tasks.start until the pane is ready and Claude's input box
//     is drawn) vs launching the same `claude` binary bare in a PTY until its input box is drawn
//     (target ≤ 2×: a task also creates a worktree, records trust and waits for the ready hook)
//   - one tool call's round trip (the model's tool_use answered until the tool_result reaches the
//     model) with Switchyard's hooks (PreToolUse and PostToolUse each run `yard hook`: a Node
//     start-up and one HTTP request each, which Claude waits for) vs the same binary bare without
//     hooks. The target is on the extra time (≤ 300 ms per tool call); the ratio is shown too.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import xtermHeadless from "@xterm/headless";
import * as pty from "node-pty";
import { readScreen } from "../server/core/agents/startup-dialogs";
import { claudeUser, pathWithAgents } from "../tests/helpers/agents";
import { adminClient } from "../tests/helpers/client";
import { makeRepo } from "../tests/helpers/git";
import { startTestServer } from "../tests/helpers/server";
import { type ModelStub, startModelStub } from "../tests/stubs/model-api";
import { median } from "./stats";
import type { BenchResult } from "./types";

const { Terminal } = xtermHeadless as unknown as {
  Terminal: new (
    o: Record<string, unknown>,
  ) => {
    write(d: string, cb?: () => void): void;
    buffer: {
      active: { viewportY: number; getLine(i: number): { translateToString(t: boolean): string } | undefined };
    };
  };
};

const LAUNCHES = 5;
const TOOL_CALLS = 8;

/** A bare `claude` in a PTY with a headless mirror of its screen. */
function bareClaude(argv: string[], env: Record<string, string>, cwd: string) {
  const cols = 120;
  const rows = 32;
  const term = new Terminal({ cols, rows, allowProposedApi: true });
  const p = pty.spawn(argv[0]!, argv.slice(1), { name: "xterm-256color", cols, rows, cwd, env });
  p.onData((d) => term.write(d));
  const screen = () =>
    new Promise<string>((resolve) =>
      term.write("", () => {
        const b = term.buffer.active;
        const out: string[] = [];
        for (let i = 0; i < rows; i++) out.push(b.getLine(b.viewportY + i)?.translateToString(true) ?? "");
        resolve(out.join("\n"));
      }),
    );
  return { p, screen };
}

async function until<T>(probe: () => Promise<T | null | false>, what: string, timeoutMs = 60_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > end) throw new Error(`bench: timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** Median gap between consecutive model requests of one script (each gap is one tool call's round trip). */
function toolRoundTrips(stub: ModelStub, marker: string): number[] {
  const at = stub.requestsFor(marker).map((r) => r.at);
  return at.slice(1).map((t, i) => t - at[i]!);
}

export async function run(): Promise<BenchResult[]> {
  const stub = await startModelStub();
  const home = mkdtempSync(path.join(os.tmpdir(), "yard-bench-agents-"));
  const env = { ...claudeUser(home, stub), PATH: pathWithAgents() };
  const server = await startTestServer({ env });
  const api = adminClient(server);
  const repo = makeRepo("yard-bench-agents-repo-");
  const bareDir = makeRepo("yard-bench-agents-bare-");
  // The bare baseline runs in a folder Claude already trusts, as tasks of a project do.
  const cfgPath = path.join(home, ".claude.json");
  const cfg = JSON.parse(readFileSync(cfgPath, "utf8"));
  cfg.projects = { [bareDir]: { hasTrustDialogAccepted: true } };
  writeFileSync(cfgPath, JSON.stringify(cfg, null, 2));
  const bareEnv: Record<string, string> = {
    ...(process.env as Record<string, string>),
    ...env,
    TERM: "xterm-256color",
  };
  for (const k of Object.keys(bareEnv)) if (k.startsWith("YARD_")) delete bareEnv[k];
  const claudeBin = `${pathWithAgents().split(path.delimiter)[0]!}/claude`;
  try {
    const project = await api.projects.add.mutate({ path: repo });

    // ---- launch to ready ------------------------------------------------------------------
    const inTask: number[] = [];
    const bare: number[] = [];
    for (let i = 0; i <= LAUNCHES; i++) {
      // (run 0 warms both sides up and is not counted)
      let t = performance.now();
      const started = await api.tasks.start.mutate({
        projectId: project.id,
        agent: "claude-code",
        objective: `bench launch ${i}`,
      });
      const { task } = started;
      const pane = started.pane!; // not a backlog start
      await until(async () => {
        const p = await api.panes.get.query({ id: pane.id });
        if (p.lifecycle !== "idle" && p.lifecycle !== "working") return null;
        return (
          readScreen("claude", (await api.panes.read.query({ id: pane.id, mode: "screen" })).text).ready ||
          p.lifecycle === "working"
        );
      }, "the task's claude to be ready");
      if (i > 0) inTask.push(performance.now() - t);
      await api.tasks.finish.mutate({ id: task.id, discard: { deleteBranch: true } });

      t = performance.now();
      const b = bareClaude([claudeBin], bareEnv, bareDir);
      await until(async () => readScreen("claude", await b.screen()).ready, "bare claude to be ready");
      if (i > 0) bare.push(performance.now() - t);
      b.p.kill();
    }

    // ---- one tool call's round trip --------------------------------------------------------
    const steps = (n: number) => [
      ...Array.from({ length: n }, (_, k) => ({
        tool: "Bash",
        input: { command: `echo call-${k}`, description: "echo" },
      })),
      { text: "done" },
    ];
    const mTask = `yard-bench-tools-task-${process.pid}`;
    stub.script(mTask, steps(TOOL_CALLS));
    const { task } = await api.tasks.start.mutate({
      projectId: project.id,
      agent: "claude-code",
      objective: `Run the echo commands. ${mTask}`,
    });
    await stub.waitForRequest((r) => r.script === mTask && r.step === TOOL_CALLS, 120_000);
    await api.tasks.finish.mutate({ id: task.id, discard: { deleteBranch: true } }).catch(() => {});

    const mBare = `yard-bench-tools-bare-${process.pid}`;
    stub.script(mBare, steps(TOOL_CALLS));
    const b = bareClaude([claudeBin], bareEnv, bareDir);
    await until(async () => readScreen("claude", await b.screen()).ready, "bare claude to be ready");
    await new Promise((r) => setTimeout(r, 500));
    b.p.write(`\x1b[200~Run the echo commands. ${mBare}\x1b[201~`);
    await new Promise((r) => setTimeout(r, 300));
    b.p.write("\r");
    await stub.waitForRequest((r) => r.script === mBare && r.step === TOOL_CALLS, 120_000);
    b.p.kill();

    const withHooks = median(toolRoundTrips(stub, mTask));
    const noHooks = median(toolRoundTrips(stub, mBare));
    const launch = { value: median(inTask), baseline: median(bare) };
    return [
      {
        name: "Claude Code launch to ready inside a task vs bare in a PTY",
        value: launch.value,
        baseline: launch.baseline,
        ratio: launch.value / launch.baseline,
        unit: "ms",
        target: "≤ 2×",
        pass: launch.value / launch.baseline <= 2,
        note: `median of ${LAUNCHES}`,
      },
      {
        name: "one tool call with Switchyard's hooks vs without",
        value: withHooks,
        baseline: noHooks,
        ratio: withHooks / noHooks,
        unit: "ms",
        target: "≤ +300 ms",
        pass: withHooks - noHooks <= 300,
        note: `+${(withHooks - noHooks).toFixed(0)} ms per tool call (PreToolUse + PostToolUse), median of ${TOOL_CALLS - 1}`,
      },
    ];
  } finally {
    await server.dispose();
    await stub.close();
    for (const d of [home, repo, bareDir]) rmSync(d, { recursive: true, force: true });
  }
}
