// Teardown at a task's finish (merge or discard), once: the `teardown` commands of the config
// recorded when the task started (never what the worktree says now: the agent could have rewritten
// `.switchyard.json`), each run with `sh -c` in the worktree after the task's agents stopped and
// before the worktree goes (for a task on a runner: in its worktree there, over SSH), with the task's environment (PORT, YARD_PORTS, …; no pane token), in
// the OS sandbox when the task ran in it (network off), each bounded by a timeout. What they did
// (exit codes, the output's tail) is recorded on the task and journaled; a failure never blocks
// the finish.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import type { EffectiveConfig, TeardownResult } from "../../wire/repo-config";
import type { TaskRow } from "../../stores/tasks";
import { type EngineState, json } from "./engine-state";
import { setupEnv } from "./task-ports";

const DEFAULT_TIMEOUT_MS = 60_000;
const TAIL_BYTES = 16 * 1024;
const TAIL_LINES = 40;

type Outcome = TeardownResult["commands"][number];

/** Runs one command line; its output is appended to `out` (kept to its last TAIL_BYTES). */
function runOne(
  argv: string[],
  opts: { cwd: string; env: Record<string, string>; timeoutMs: number },
  out: { text: string },
): Promise<Omit<Outcome, "command">> {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(argv[0]!, argv.slice(1), {
      cwd: opts.cwd,
      env: opts.env as NodeJS.ProcessEnv,
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    let timedOut = false;
    const keep = (b: Buffer) => {
      out.text = (out.text + b.toString("utf8")).slice(-TAIL_BYTES);
    };
    child.stdout!.on("data", keep);
    child.stderr!.on("data", keep);
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        process.kill(-child.pid!, "SIGKILL");
      } catch {
        child.kill("SIGKILL");
      }
    }, opts.timeoutMs);
    const done = (exitCode: number | null, signal: string | null) => {
      clearTimeout(timer);
      resolve({ exitCode, signal, ms: Date.now() - started, timedOut });
    };
    child.on("error", (e) => {
      keep(Buffer.from(`${e.message}\n`));
      done(127, null);
    });
    child.on("close", (code, signal) => done(code, signal));
  });
}

/**
 * Runs the task's recorded teardown in its worktree (once; null when it has none or it ran
 * already), records and journals what it did. Never throws.
 */
export async function runTeardown(
  eng: EngineState,
  t: Pick<TaskRow, "id" | "worktreePath" | "repoPath" | "sandboxed" | "runner">,
): Promise<TeardownResult | null> {
  const store = eng.deps.setups;
  const row = await store?.row(t.id).catch(() => null);
  const config = json<EffectiveConfig | null>(row?.config, null);
  if (!store || !row || row.teardown || !config?.teardown.length) return null;
  const result: TeardownResult = { ok: true, skipped: null, commands: [], tail: "", at: new Date().toISOString() };
  const out = { text: "" };
  try {
    if (!t.worktreePath || !existsSync(t.worktreePath)) {
      result.skipped = "the worktree was gone";
    } else if (t.runner) {
      // Teardown runs where the agent ran: in the task's worktree on its runner (never here instead).
      if (!eng.deps.runners) throw new Error(`the task ran on runner ${t.runner}, and this server has no runners`);
      const env = { ...setupEnv(json<number[]>(row.ports, []), null), YARD_TASK: t.id };
      const there = await eng.deps.runners.teardown(t.runner, t.id, {
        commands: config.teardown,
        env,
        timeoutMs: eng.deps.teardownTimeoutMs ?? DEFAULT_TIMEOUT_MS,
      });
      result.skipped = there.skipped;
      result.commands = there.commands;
      result.ok = there.commands.every((c) => c.exitCode === 0);
      out.text += there.tail;
    } else {
      const env: Record<string, string> = {};
      for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !k.startsWith("YARD_")) env[k] = v;
      Object.assign(env, setupEnv(json<number[]>(row.ports, []), t.repoPath), { YARD_TASK: t.id });
      // A sandboxed task's teardown runs where its agent ran; without the sandbox it does not run at all.
      const sandbox =
        t.sandboxed && eng.deps.sandbox
          ? await eng.deps.sandbox.prepare({ taskId: t.id, worktreePath: t.worktreePath, network: false })
          : null;
      if (t.sandboxed && !sandbox) throw new Error("the task ran in the OS sandbox, which this server does not have");
      for (const command of config.teardown) {
        const argv = ["/bin/sh", "-c", command];
        const run = sandbox ? sandbox.wrap(argv, env) : { argv, env };
        out.text += `$ ${command}\n`;
        const o = await runOne(
          run.argv,
          { cwd: t.worktreePath, env: run.env, timeoutMs: eng.deps.teardownTimeoutMs ?? DEFAULT_TIMEOUT_MS },
          out,
        );
        result.commands.push({ command, ...o });
        if (o.exitCode !== 0) result.ok = false;
      }
    }
  } catch (e) {
    result.ok = false;
    out.text += `teardown could not run: ${(e as Error).message}\n`;
  }
  result.tail = out.text.split("\n").slice(-TAIL_LINES).join("\n").trimEnd();
  await store.setTeardown(t.id, JSON.stringify(result)).catch(() => {});
  await eng.deps.journal.append("task.teardown", { taskId: t.id, payload: result }).catch(() => {});
  return result;
}
