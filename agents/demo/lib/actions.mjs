// @ts-check
/**
 * Demo agent: what its tools do to the working tree. Writing and appending files, and
 * committing everything with git (argv, no shell, never prompting). Each action returns the
 * tool result the turn reports in its PostToolUse / PostToolUseFailure hook and transcript.
 */
import fs from "node:fs";
import path from "node:path";
import { FALLBACK_GIT_EMAIL, FALLBACK_GIT_NAME, GIT_TIMEOUT_MS } from "./config.mjs";
import { runChild } from "./processes.mjs";

/**
 * What a tool call produced: its PostToolUse response, or the error for PostToolUseFailure,
 * and the line shown under the call in the transcript.
 * @typedef {{ ok: true, response: unknown, line: string } | { ok: false, error: string, line: string }} ToolResult
 */

/** @param {unknown} e */
const errMsg = (e) => {
  const err = /** @type {NodeJS.ErrnoException} */ (e);
  return err?.code ? `${err.code}: ${err.message.replace(/^\w+: /, "")}` : String(e);
};

/**
 * Create or overwrite `abs` with `content` (parent directories are created).
 * @param {string} abs @param {string} content @param {string} line shown when it worked
 * @returns {ToolResult}
 */
export function writeFile(abs, content, line) {
  try {
    const existed = fs.existsSync(abs);
    fs.mkdirSync(path.dirname(abs), { recursive: true });
    fs.writeFileSync(abs, content);
    return {
      ok: true,
      response: { type: existed ? "update" : "create", filePath: abs, content, success: true },
      line,
    };
  } catch (e) {
    return { ok: false, error: errMsg(e), line: `Error: ${errMsg(e)}` };
  }
}

/**
 * Append `line` (which ends in a newline) to `abs`, first ending the file's last line when it
 * has no newline; creates the file (and its directories) if needed.
 * @param {string} abs @param {string} line @param {string} shown shown when it worked
 * @returns {ToolResult}
 */
export function appendLine(abs, line, shown) {
  try {
    let prefix = "";
    if (fs.existsSync(abs)) {
      const cur = fs.readFileSync(abs, "utf8");
      if (cur.length > 0 && !cur.endsWith("\n")) prefix = "\n";
    } else fs.mkdirSync(path.dirname(abs), { recursive: true });
    fs.appendFileSync(abs, prefix + line);
    return {
      ok: true,
      response: { filePath: abs, oldString: "", newString: line, success: true },
      line: shown,
    };
  } catch (e) {
    return { ok: false, error: errMsg(e), line: `Error: ${errMsg(e)}` };
  }
}

/**
 * Run `git <argv>` in the agent's cwd (argv, no shell, stdin /dev/null, never prompts).
 * @param {string[]} argv
 * @returns {Promise<import("./processes.mjs").RunResult>}
 */
function runGit(argv) {
  return runChild("git", "git", argv, GIT_TIMEOUT_MS, { ...process.env, GIT_TERMINAL_PROMPT: "0" });
}

/**
 * `git add -A`, then `git commit -m <message>` on the current branch of the cwd's work tree; in
 * the middle of a rebase (its conflicts resolved in the files), `git rebase --continue` instead,
 * as an agent finishing a conflicted update would (the commit being replayed keeps its message).
 * Where git has no user.name / user.email, the demo identity is passed with `-c`.
 * @param {string} message
 * @returns {Promise<{ ok: true, sha: string, stdout: string, stderr: string, detail: string[] }
 *   | { ok: false, error: string, line: string, detail: string[] }>}
 */
export async function commitAll(message) {
  /** Output lines of a failed git run: the last one is the result line, up to 4 before it are detail. @param {import("./processes.mjs").RunResult} r */
  const failure = (r) => {
    const ls = `${r.stdout}\n${r.stderr}`
      .split("\n")
      .map((l) => l.trimEnd())
      .filter(Boolean);
    const exit = r.error ?? `exit code ${r.code}`;
    const last = ls.pop();
    return last
      ? { ok: /** @type {const} */ (false), error: `${last} (${exit})`, line: last, detail: ls.slice(-4) }
      : { ok: /** @type {const} */ (false), error: exit, line: `git failed: ${exit}`, detail: [] };
  };
  const add = await runGit(["add", "-A"]);
  if (add.code !== 0) return failure(add);
  /** @type {string[]} */
  const identity = [];
  if ((await runGit(["config", "user.name"])).stdout.trim() === "")
    identity.push("-c", `user.name=${FALLBACK_GIT_NAME}`);
  if ((await runGit(["config", "user.email"])).stdout.trim() === "")
    identity.push("-c", `user.email=${FALLBACK_GIT_EMAIL}`);
  const rebasing = await Promise.all(
    ["rebase-merge", "rebase-apply"].map(async (d) => {
      const r = await runGit(["rev-parse", "--git-path", d]);
      return r.code === 0 && fs.existsSync(path.resolve(r.stdout.trim()));
    }),
  );
  const commit = rebasing.some(Boolean)
    ? await runGit([...identity, "-c", "core.editor=true", "rebase", "--continue"])
    : await runGit([...identity, "commit", "-m", message]);
  if (commit.code !== 0) return failure(commit);
  const head = await runGit(["rev-parse", "--short", "HEAD"]);
  const sha = head.code === 0 && head.stdout.trim() ? head.stdout.trim() : "HEAD";
  return { ok: true, sha, stdout: commit.stdout, stderr: commit.stderr, detail: [] };
}
