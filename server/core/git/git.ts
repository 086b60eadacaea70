// The one place that runs git. Every git invocation in Switchyard goes through runGit:
// argv arrays only (spawn, never a shell), a scrubbed environment and a few fixed -c
// settings so that the user's config or the parent process cannot change what we parse.
//
//   runGit(args, { cwd, env?, input?, allowFail?, timeoutMs?, maxBuffer? })
//     -> { stdout, stderr, code }
//   Throws YardError GIT_FAILED { args, code, stderr, cwd } on a non-zero exit unless
//   allowFail; TIMEOUT when timeoutMs elapses (the process is killed).
//
// Environment: inherits process.env minus the variables that would point git at another
// repository or index (git's own "local env vars": GIT_DIR, GIT_INDEX_FILE, ...) or run a
// program of the environment's choosing (GIT_EXTERNAL_DIFF, GIT_DIFF_OPTS), plus
// GIT_TERMINAL_PROMPT=0 (never ask for credentials), LC_ALL=C/LANGUAGE=C (stable messages
// we match on), GIT_OPTIONAL_LOCKS=0 (read-only commands such as status never rewrite an
// index), GIT_EDITOR=true (never open an editor), GIT_CONFIG_NOSYSTEM=1 and GIT_ATTR_NOSYSTEM=1
// (no system-wide config or attributes). Per-call env (e.g. GIT_INDEX_FILE for a temporary
// index) is applied last. git runs in its own process group/session (no controlling terminal,
// so ssh/gpg cannot prompt); a timeout kills the whole group.
//
// Agent-written data: the server runs git in task worktrees and in repositories whose objects,
// refs and worktree metadata an agent can write, so every call carries SAFE_CONFIG (below):
// no fsmonitor (a nested repository's config could name a program), no hooks at all (a
// relative core.hooksPath such as `.husky` would name files in the agent's worktree, and a
// merge checks the agent's files out before its hooks run), no untracked cache, no global
// attributes file, no file:// transport and no submodule recursion; GIT_EXTERNAL_DIFF is
// removed from the environment. Commands add their own flags on top (--no-ext-diff
// --no-textconv for every diff: an empty `-c diff.external=` would make git try to run ""),
// --ignore-submodules=all for status, protocol.file.allow=user back for a fetch the user asked
// for). See docs/security.md, "What the host runs on agent-written data".
//
// `detached: true` runs git with its output in temporary files instead of pipes, so that git
// finishes what it started even if this process dies meanwhile (a merge must never be left
// half done because its reader is gone: git would die of SIGPIPE between the commit and the
// removal of MERGE_HEAD).
//
// Also here: committerIdentityArgs (a fallback identity only when none is configured) and
// small helpers for classifying failures.

import { type ChildProcess, spawn } from "node:child_process";
import { promises as fsp } from "node:fs";
import type { FileHandle } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { YardError, isYardError } from "../errors";
import { gitRunner } from "./runner";

export interface RunGitOptions {
  cwd: string;
  /** Extra environment; a value of undefined removes the variable. */
  env?: Record<string, string | undefined>;
  /** Written to git's stdin (stdin is closed otherwise). */
  input?: string | Buffer;
  /** Return non-zero exits instead of throwing. Spawn errors and timeouts still throw. */
  allowFail?: boolean;
  /** Kill git after this long; default 120 s. 0 disables. */
  timeoutMs?: number;
  /** Max bytes of stdout kept; default 256 MiB. Exceeding it is a GIT_FAILED. */
  maxBuffer?: number;
  /** Output goes to temporary files, not pipes: git outlives this process (no input allowed). */
  detached?: boolean;
  /** Told git's pid once it is spawned (a detached call's caller records it to find git again after a crash). */
  onSpawn?: (pid: number) => void;
}

export interface GitResult {
  stdout: string;
  stderr: string;
  code: number;
}

/**
 * The fixed safe configuration every call runs with, whatever the repository's, a nested
 * repository's or the user's config says (command-line -c wins over every config file, and git
 * passes it on to the git processes it starts).
 */
const SAFE_CONFIG: readonly string[] = [
  "-c",
  "core.fsmonitor=false",
  "-c",
  "core.hooksPath=/dev/null",
  "-c",
  "core.untrackedCache=false",
  "-c",
  "core.attributesFile=/dev/null",
  "-c",
  "submodule.recurse=false",
  "-c",
  "protocol.file.allow=never",
];

/** Settings applied to every call, ahead of the subcommand. */
const BASE_CONFIG: readonly string[] = ["-c", "core.quotepath=off", "-c", "color.ui=false", ...SAFE_CONFIG];

/** Variables that redirect git to another repository/index/config (`git rev-parse --local-env-vars`). */
const STRIPPED_ENV = [
  "GIT_ALTERNATE_OBJECT_DIRECTORIES",
  "GIT_CONFIG",
  "GIT_CONFIG_PARAMETERS",
  "GIT_CONFIG_COUNT",
  "GIT_OBJECT_DIRECTORY",
  "GIT_DIR",
  "GIT_WORK_TREE",
  "GIT_IMPLICIT_WORK_TREE",
  "GIT_GRAFT_FILE",
  "GIT_INDEX_FILE",
  "GIT_NO_REPLACE_OBJECTS",
  "GIT_REPLACE_REF_BASE",
  "GIT_PREFIX",
  "GIT_INTERNAL_SUPER_PREFIX",
  "GIT_SHALLOW_FILE",
  "GIT_COMMON_DIR",
  "GIT_NAMESPACE",
  "GIT_QUARANTINE_PATH",
  "GIT_EXTERNAL_DIFF",
  "GIT_DIFF_OPTS",
];

const GIT = "git";
const DEFAULT_TIMEOUT_MS = 120_000;
const DEFAULT_MAX_BUFFER = 256 * 1024 * 1024;
const STDERR_KEEP = 8 * 1024;

export function gitEnv(extra?: Record<string, string | undefined>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const k of STRIPPED_ENV) delete env[k];
  for (const k of Object.keys(env))
    if (k.startsWith("GIT_CONFIG_KEY_") || k.startsWith("GIT_CONFIG_VALUE_")) delete env[k];
  env.GIT_TERMINAL_PROMPT = "0";
  env.LC_ALL = "C";
  env.LANGUAGE = "C";
  env.GIT_OPTIONAL_LOCKS = "0";
  env.GIT_EDITOR = "true";
  env.GIT_PAGER = "cat";
  env.GIT_CONFIG_NOSYSTEM = "1";
  env.GIT_ATTR_NOSYSTEM = "1";
  if (extra) {
    for (const [k, v] of Object.entries(extra)) {
      if (v === undefined) delete env[k];
      else env[k] = v;
    }
  }
  return env;
}

export function runGit(args: readonly string[], opts: RunGitOptions): Promise<GitResult> {
  for (const a of args) {
    if (typeof a !== "string" || a.includes("\0")) {
      return Promise.reject(
        new YardError("BAD_PARAMS", "git argument contains a NUL byte or is not a string", { args: [...args] }),
      );
    }
  }
  if (opts.detached && opts.input !== undefined)
    return Promise.reject(new YardError("BAD_PARAMS", "a detached git call takes no input"));
  return opts.detached ? runToFiles(args, opts) : runPiped(args, opts);
}

function spawnGit(args: readonly string[], opts: RunGitOptions, stdio: import("node:child_process").StdioOptions) {
  return spawn(GIT, [...BASE_CONFIG, ...args], {
    cwd: opts.cwd,
    env: gitEnv(opts.env),
    stdio,
    windowsHide: true,
    // Own process group (and session, so no controlling terminal for ssh/gpg to prompt on):
    // a timeout kills git together with its helpers, and a signal to ours does not reach it.
    detached: process.platform !== "win32",
  });
}

function killTree(child: ChildProcess) {
  try {
    if (child.pid && process.platform !== "win32") process.kill(-child.pid, "SIGKILL");
    else child.kill("SIGKILL");
  } catch {
    child.kill("SIGKILL");
  }
}

function timeoutError(args: readonly string[], opts: RunGitOptions, timeoutMs: number, stderr: string): YardError {
  return new YardError("TIMEOUT", `git ${args[0] ?? ""} timed out after ${timeoutMs} ms`, {
    args: [...args],
    cwd: opts.cwd,
    stderr: tail(stderr),
  });
}

function spawnError(args: readonly string[], opts: RunGitOptions, e: NodeJS.ErrnoException): YardError {
  return new YardError(
    "GIT_FAILED",
    e.code === "ENOENT"
      ? `cannot run git in ${opts.cwd} (git missing from PATH, or the directory does not exist)`
      : `cannot run git: ${e.message}`,
    { args: [...args], cwd: opts.cwd, code: null, stderr: "" },
  );
}

/** The exit's meaning: the result, or the GIT_FAILED a non-zero exit is (unless allowFail). */
function exitResult(
  args: readonly string[],
  opts: RunGitOptions,
  code: number | null,
  signal: NodeJS.Signals | null,
  stdout: string,
  stderr: string,
): GitResult {
  const exit = code ?? (signal ? 128 : 1);
  if (exit !== 0 && !opts.allowFail) {
    const firstLine = firstErrorLine(stderr) || firstErrorLine(stdout);
    throw new YardError(
      "GIT_FAILED",
      `git ${describeArgs(args)} failed (exit ${exit})${firstLine ? `: ${firstLine}` : ""}`,
      {
        args: [...args],
        cwd: opts.cwd,
        code: exit,
        stderr: tail(stderr),
        ...(stdout && exit !== 0 ? { stdout: tail(stdout) } : {}),
      },
    );
  }
  return { stdout, stderr, code: exit };
}

function overflowError(args: readonly string[], opts: RunGitOptions, maxBuffer: number, stderr: string): YardError {
  return new YardError("GIT_FAILED", `git ${args[0] ?? ""} produced more than ${maxBuffer} bytes of output`, {
    args: [...args],
    cwd: opts.cwd,
    code: null,
    stderr: tail(stderr),
  });
}

/** Through the git runner (runner.ts) when there is one; the same results and errors as spawning git here. */
function runPiped(args: readonly string[], opts: RunGitOptions): Promise<GitResult> {
  const runner = gitRunner();
  if (!runner || Buffer.isBuffer(opts.input)) return spawnPiped(args, opts);
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxBuffer = opts.maxBuffer ?? DEFAULT_MAX_BUFFER;
  return runner
    .run({
      file: GIT,
      args: [...BASE_CONFIG, ...args],
      cwd: opts.cwd,
      env: gitEnv(opts.env),
      ...(opts.input !== undefined ? { input: opts.input as string } : {}),
      timeoutMs,
      maxBuffer,
      stderrKeep: STDERR_KEEP * 4,
    })
    .then((r) => {
      if ("runnerGone" in r)
        throw new YardError("GIT_FAILED", `git ${describeArgs(args)} did not finish: ${r.runnerGone}`, {
          args: [...args],
          cwd: opts.cwd,
          code: null,
          stderr: "",
        });
      if ("spawnError" in r) {
        const e = Object.assign(new Error(r.spawnError.message), { code: r.spawnError.code ?? undefined });
        throw spawnError(args, opts, e);
      }
      if (r.timedOut) throw timeoutError(args, opts, timeoutMs, r.stderr);
      if (r.overflow) throw overflowError(args, opts, maxBuffer, r.stderr);
      return exitResult(args, opts, r.code, r.signal, r.stdout, r.stderr);
    });
}

function spawnPiped(args: readonly string[], opts: RunGitOptions): Promise<GitResult> {
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxBuffer = opts.maxBuffer ?? DEFAULT_MAX_BUFFER;
  return new Promise<GitResult>((resolve, reject) => {
    const child = spawnGit(args, opts, [opts.input === undefined ? "ignore" : "pipe", "pipe", "pipe"]);
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let outLen = 0;
    let errLen = 0;
    let overflow = false;
    let settled = false;
    const fail = (e: YardError) => {
      if (settled) return;
      settled = true;
      if (timer) clearTimeout(timer);
      reject(e);
    };
    const timer =
      timeoutMs > 0
        ? setTimeout(() => {
            killTree(child);
            // Do not wait for 'close': a surviving grandchild could hold the pipes open.
            child.stdout?.destroy();
            child.stderr?.destroy();
            fail(timeoutError(args, opts, timeoutMs, Buffer.concat(err).toString("utf8")));
          }, timeoutMs)
        : undefined;

    child.stdout!.on("data", (b: Buffer) => {
      outLen += b.length;
      if (outLen > maxBuffer) {
        if (!overflow) {
          overflow = true;
          killTree(child);
        }
        return;
      }
      out.push(b);
    });
    child.stderr!.on("data", (b: Buffer) => {
      if (errLen < STDERR_KEEP * 4) err.push(b);
      errLen += b.length;
    });
    if (opts.input !== undefined && child.stdin) {
      child.stdin.on("error", () => {
        /* git may exit before reading everything; the exit code tells the story */
      });
      child.stdin.end(opts.input);
    }
    child.on("error", (e: NodeJS.ErrnoException) => fail(spawnError(args, opts, e)));
    child.on("close", (code, signal) => {
      if (settled) return;
      const stderr = Buffer.concat(err).toString("utf8");
      if (overflow) return fail(overflowError(args, opts, maxBuffer, stderr));
      try {
        const r = exitResult(args, opts, code, signal, Buffer.concat(out).toString("utf8"), stderr);
        settled = true;
        if (timer) clearTimeout(timer);
        resolve(r);
      } catch (e) {
        fail(e as YardError);
      }
    });
  });
}

/**
 * git with stdout and stderr in unlinked temporary files (0600) instead of pipes: nothing it
 * writes can fail because this process is gone, so it runs to its end on its own.
 */
async function runToFiles(args: readonly string[], opts: RunGitOptions): Promise<GitResult> {
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxBuffer = opts.maxBuffer ?? DEFAULT_MAX_BUFFER;
  const dir = await fsp.mkdtemp(path.join(os.tmpdir(), "yard-git-"));
  let outFile: FileHandle | null = null;
  let errFile: FileHandle | null = null;
  try {
    outFile = await fsp.open(path.join(dir, "out"), "w+", 0o600);
    errFile = await fsp.open(path.join(dir, "err"), "w+", 0o600);
    const child = spawnGit(args, opts, ["ignore", outFile.fd, errFile.fd]);
    if (child.pid) opts.onSpawn?.(child.pid);
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null } | { error: YardError }>(
      (resolve) => {
        const timer =
          timeoutMs > 0
            ? setTimeout(() => {
                killTree(child);
                resolve({ error: timeoutError(args, opts, timeoutMs, "") });
              }, timeoutMs)
            : undefined;
        child.on("error", (e: NodeJS.ErrnoException) => {
          clearTimeout(timer);
          resolve({ error: spawnError(args, opts, e) });
        });
        child.on("exit", (code, signal) => {
          clearTimeout(timer);
          resolve({ code, signal });
        });
      },
    );
    // The files stay open for git and for the read below; their names are not needed any more.
    await fsp.rm(dir, { recursive: true, force: true });
    const ended = await exited;
    const read = async (fh: FileHandle, cap: number) => {
      const { size } = await fh.stat();
      const buf = Buffer.alloc(Math.min(size, cap));
      await fh.read(buf, 0, buf.length, 0);
      return { text: buf.toString("utf8"), size };
    };
    const stderr = (await read(errFile, STDERR_KEEP * 4)).text;
    if ("error" in ended) throw ended.error;
    const stdout = await read(outFile, maxBuffer);
    if (stdout.size > maxBuffer) throw overflowError(args, opts, maxBuffer, stderr);
    return exitResult(args, opts, ended.code, ended.signal, stdout.text, stderr);
  } finally {
    await outFile?.close().catch(() => {});
    await errFile?.close().catch(() => {});
    await fsp.rm(dir, { recursive: true, force: true }).catch(() => {});
  }
}

/** "subcommand first-option" for messages, skipping leading `-c key=value` pairs. */
function describeArgs(args: readonly string[]): string {
  let i = 0;
  while (i < args.length && args[i] === "-c") i += 2;
  return args.slice(i, i + 2).join(" ");
}

function tail(s: string): string {
  return s.length > STDERR_KEEP ? `…${s.slice(-STDERR_KEEP)}` : s;
}

function firstErrorLine(s: string): string {
  const lines = s
    .split("\n")
    .map((l) => l.trim())
    .filter(Boolean);
  const fatal = lines.find((l) => l.startsWith("fatal:") || l.startsWith("error:"));
  return (fatal ?? lines[0] ?? "").slice(0, 300);
}

/** The stderr git produced for a GIT_FAILED error (empty for anything else). */
export function gitStderr(e: unknown): string {
  if (isYardError(e) && e.code === "GIT_FAILED" && e.details) {
    const s = e.details.stderr;
    return typeof s === "string" ? s : "";
  }
  return "";
}

/** First line of output with trailing newline removed. */
export function firstLine(s: string): string {
  const i = s.indexOf("\n");
  return i < 0 ? s : s.slice(0, i);
}

export const FALLBACK_IDENTITY = { name: "Switchyard", email: "switchyard@localhost" } as const;

/**
 * `-c user.name=… -c user.email=…` for whichever half of the identity the repository's
 * config (local, global, system) and the environment leave unset; [] when both are set.
 */
export async function committerIdentityArgs(cwd: string): Promise<string[]> {
  const r = await runGit(["config", "--get-regexp", "^user\\.(name|email)$"], { cwd, allowFail: true });
  const keys = new Set(
    r.stdout
      .split("\n")
      .map((l) => l.split(" ")[0]?.toLowerCase() ?? "")
      .filter(Boolean),
  );
  const env = process.env;
  const out: string[] = [];
  if (!keys.has("user.name") && !(env.GIT_AUTHOR_NAME && env.GIT_COMMITTER_NAME))
    out.push("-c", `user.name=${FALLBACK_IDENTITY.name}`);
  if (!keys.has("user.email") && !(env.GIT_AUTHOR_EMAIL && env.GIT_COMMITTER_EMAIL))
    out.push("-c", `user.email=${FALLBACK_IDENTITY.email}`);
  return out;
}

/** Full or abbreviated hex object id (4..64 hex digits). */
export function isHexObjectId(s: unknown): s is string {
  return typeof s === "string" && /^[0-9a-f]{4,64}$/i.test(s);
}
