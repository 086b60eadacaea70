// @ts-check
// The git runner: a small helper process that starts git for the server (server/core/git/runner.ts).
// Forking copies the forking process's page tables and leaves its whole heap copy-on-write, so
// each git the server (150+ MB) started itself cost it several milliseconds of CPU, most of it in
// page faults after the fork; this process is small and starts them instead. It runs exactly what
// it is sent: argv, cwd and environment come from runGit (git.ts), which built and vetted them.
//
// Protocol (the IPC channel, JSON): in { id, file, args, cwd, env, input?, timeoutMs, maxBuffer,
// stderrKeep }; out { id, code, signal, stdout, stderr, overflow, timedOut } or { id, spawnError:
// { code, message } }. git runs in its own process group (and session: no terminal to prompt
// on); a timeout or an output overflow kills the group. The runner exits when the server goes.
import { spawn } from "node:child_process";

/** @param {import("node:child_process").ChildProcess} child */
function killTree(child) {
  try {
    if (child.pid) process.kill(-child.pid, "SIGKILL");
    else child.kill("SIGKILL");
  } catch {
    child.kill("SIGKILL");
  }
}

/**
 * @param {{ id: number, file: string, args: string[], cwd: string, env: Record<string, string>,
 *   input?: string, timeoutMs: number, maxBuffer: number, stderrKeep: number }} m
 */
function run(m) {
  /** @param {object} reply */
  const send = (reply) => {
    if (process.connected) process.send?.({ id: m.id, ...reply });
  };
  /** @type {import("node:child_process").ChildProcess} */
  let child;
  try {
    child = spawn(m.file, m.args, {
      cwd: m.cwd,
      env: m.env,
      stdio: [m.input === undefined ? "ignore" : "pipe", "pipe", "pipe"],
      detached: true,
    });
  } catch (e) {
    const err = /** @type {NodeJS.ErrnoException} */ (e);
    return send({ spawnError: { code: err.code ?? null, message: err.message } });
  }
  /** @type {Buffer[]} */
  const out = [];
  /** @type {Buffer[]} */
  const err = [];
  let outLen = 0;
  let errLen = 0;
  let overflow = false;
  let done = false;
  const timer =
    m.timeoutMs > 0
      ? setTimeout(() => {
          killTree(child);
          child.stdout?.destroy();
          child.stderr?.destroy();
          finish({ timedOut: true, stderr: Buffer.concat(err).toString("utf8") });
        }, m.timeoutMs)
      : undefined;
  /** @param {object} reply */
  const finish = (reply) => {
    if (done) return;
    done = true;
    if (timer) clearTimeout(timer);
    send(reply);
  };
  child.stdout?.on("data", (/** @type {Buffer} */ b) => {
    outLen += b.length;
    if (outLen > m.maxBuffer) {
      if (!overflow) {
        overflow = true;
        killTree(child);
      }
      return;
    }
    out.push(b);
  });
  child.stderr?.on("data", (/** @type {Buffer} */ b) => {
    if (errLen < m.stderrKeep) err.push(b);
    errLen += b.length;
  });
  if (m.input !== undefined && child.stdin) {
    child.stdin.on("error", () => {
      /* git may exit before reading everything; its exit code tells the story */
    });
    child.stdin.end(m.input);
  }
  child.on("error", (e) => {
    const code = /** @type {NodeJS.ErrnoException} */ (e).code ?? null;
    finish({ spawnError: { code, message: e.message } });
  });
  child.on("close", (code, signal) =>
    finish({
      code,
      signal,
      overflow,
      timedOut: false,
      stdout: overflow ? "" : Buffer.concat(out).toString("utf8"),
      stderr: Buffer.concat(err).toString("utf8"),
    }),
  );
}

process.on("message", (m) => run(/** @type {Parameters<typeof run>[0]} */ (m)));
process.on("disconnect", () => process.exit(0));
