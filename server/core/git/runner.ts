// The server's side of the git runner (git-runner.mjs beside this file): one small helper process,
// forked at the first git call, that starts each git for this process and sends back its exit and
// output. A fork copies the forking process's page tables and leaves its heap copy-on-write: the
// server (150+ MB) paid several milliseconds of CPU per git in the fork and in the page faults
// after it, on every one of the thousands of git calls a busy board makes; the runner is small.
//
// Transparent to runGit's callers: the same argv, cwd, environment, stdin, timeout and output cap,
// the same process group and kill. When the runner cannot be used (its file missing,
// YARD_GIT_RUNNER=0, input that is not text) the caller spawns git itself; when it exits with
// calls in flight, those calls fail with GIT_FAILED (nothing is retried: a git that was started
// may have done its work) and the next call forks a fresh runner.
import { type ChildProcess, fork } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { REPO_ROOT } from "../../root";

export interface RunnerRequest {
  file: string;
  args: string[];
  cwd: string;
  env: Record<string, string | undefined>;
  input?: string;
  timeoutMs: number;
  maxBuffer: number;
  stderrKeep: number;
}

type RunnerReply =
  | {
      code: number | null;
      signal: NodeJS.Signals | null;
      stdout: string;
      stderr: string;
      overflow: boolean;
      timedOut: boolean;
    }
  | { spawnError: { code: string | null; message: string } }
  | { runnerGone: string };

const RUNNER = path.join(REPO_ROOT, "server/core/git/git-runner.mjs");

class GitRunner {
  private child: ChildProcess | null = null;
  private nextId = 1;
  private readonly pending = new Map<number, (r: RunnerReply) => void>();

  /** The runner process's pid, once forked. */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  run(req: RunnerRequest): Promise<RunnerReply> {
    const child = this.child ?? this.start();
    const id = this.nextId++;
    return new Promise<RunnerReply>((resolve) => {
      this.pending.set(id, resolve);
      // Referenced only while calls are in flight: an idle runner never keeps a process alive.
      if (this.pending.size === 1) child.channel?.ref();
      child.send({ id, ...req }, (e) => {
        if (e) this.settle(id, { runnerGone: `could not reach the git runner: ${e.message}` });
      });
    });
  }

  private start(): ChildProcess {
    const child = fork(RUNNER, [], {
      stdio: ["ignore", "ignore", "inherit", "ipc"],
      // Nothing of this process's flags (inspector, loaders, heap sizes) carries over.
      execArgv: [],
      serialization: "json",
    });
    this.child = child;
    child.on("message", (m: { id: number } & RunnerReply) => this.settle(m.id, m));
    const gone = (why: string) => {
      if (this.child !== child) return;
      this.child = null;
      for (const id of [...this.pending.keys()]) this.settle(id, { runnerGone: why });
    };
    child.on("exit", (code, signal) => gone(`the git runner exited (${signal ?? code})`));
    child.on("error", (e) => gone(`the git runner failed: ${e.message}`));
    child.unref();
    child.channel?.unref();
    return child;
  }

  private settle(id: number, reply: RunnerReply) {
    const resolve = this.pending.get(id);
    if (!resolve) return;
    this.pending.delete(id);
    if (this.pending.size === 0) this.child?.channel?.unref();
    resolve(reply);
  }
}

let runner: GitRunner | null | undefined;

/** The process's git runner, or null when git is to be spawned directly. */
export function gitRunner(): GitRunner | null {
  if (runner === undefined)
    runner =
      process.env.YARD_GIT_RUNNER !== "0" && process.platform !== "win32" && existsSync(RUNNER)
        ? new GitRunner()
        : null;
  return runner;
}
