// @ts-check
/**
 * Demo agent: running other programs. Finding an executable on PATH, and running a child with
 * an argv array (never a shell) in the agent's cwd, collecting its output, with a time limit.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { CWD } from "./config.mjs";

/** @param {string} name @returns {string | null} absolute path of an executable */
export function which(name) {
  /** @param {string} p */
  const ok = (p) => {
    try {
      fs.accessSync(p, fs.constants.X_OK);
      return fs.statSync(p).isFile();
    } catch {
      return false;
    }
  };
  if (name.includes("/")) {
    const p = path.resolve(CWD, name);
    return ok(p) ? p : null;
  }
  for (const dir of (process.env.PATH || "").split(path.delimiter)) {
    if (!dir) continue;
    const p = path.join(dir, name);
    if (ok(p)) return p;
  }
  return null;
}

/** @typedef {{ code: number, stdout: string, stderr: string, error?: string }} RunResult */

/**
 * Spawn a child with argv (no shell) in the agent's cwd, collect its output, kill it after
 * timeoutMs. A child that can't be started gives code 127 (ENOENT) or 126.
 * @param {string} bin @param {string} name for error messages @param {string[]} argv
 * @param {number} timeoutMs @param {NodeJS.ProcessEnv} [env]
 * @returns {Promise<RunResult>}
 */
export function runChild(bin, name, argv, timeoutMs, env = process.env) {
  return new Promise((resolve) => {
    let stdout = "";
    let stderr = "";
    let settled = false;
    /** @param {RunResult} r */
    const settle = (r) => {
      if (!settled) {
        settled = true;
        clearTimeout(timer);
        resolve(r);
      }
    };
    /** @type {import("node:child_process").ChildProcess} */
    let child;
    try {
      child = spawn(bin, argv, {
        cwd: CWD,
        env,
        stdio: ["ignore", "pipe", "pipe"],
      });
    } catch (e) {
      resolve({ code: 127, stdout, stderr, error: /** @type {Error} */ (e).message });
      return;
    }
    const timer = setTimeout(() => {
      try {
        child.kill("SIGKILL");
      } catch {
        /* gone */
      }
    }, timeoutMs);
    child.stdout?.on("data", (d) => {
      if (stdout.length < 20000) stdout += d.toString("utf8");
    });
    child.stderr?.on("data", (d) => {
      if (stderr.length < 20000) stderr += d.toString("utf8");
    });
    child.on("error", (e) => {
      const code = /** @type {NodeJS.ErrnoException} */ (e).code;
      settle({ code: code === "ENOENT" ? 127 : 126, stdout, stderr, error: `${name}: ${code ?? e.message}` });
    });
    child.on("close", (code, signal) =>
      settle({
        code: code ?? 128,
        stdout,
        stderr,
        error: signal ? `killed by ${signal}` : undefined,
      }),
    );
  });
}
