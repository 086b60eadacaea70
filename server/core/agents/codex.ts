// Codex as a first-class agent: what its built-in profile passes per launch, what Switchyard
// prepares in the Codex config it uses, and how its turn-complete notification maps to a hook.
//
// Per launch (argv, nothing written): `--no-daemon` (Codex's TUI otherwise starts a shared
// background app-server that outlives the pane, so a later task's commands would run with the
// first pane's environment), Switchyard's hooks as a session-flag override (`-c hooks={...}`,
// Claude-shaped payloads, each running `yard hook <Event>`), and `notify` running
// `yard hook CodexNotify` (the turn-complete JSON is its last argument).
//
// In the Codex config in use (`$CODEX_HOME/config.toml`, default `~/.codex/config.toml`), before a
// launch, through Codex's own app-server (`codex app-server`, JSON-RPC on stdio: hooks/list,
// config/batchWrite), so Codex itself edits its file and keeps everything else in it:
// - trust for Switchyard's own session-flag hooks (Codex runs a hook only once it is trusted;
//   otherwise it stops at "Hooks need review"). Only hooks whose source is the session flags and
//   whose command is one of Switchyard's are trusted; the user's and a repository's hooks are
//   never touched;
// - with the project's trust setting on, `projects."<repository>".trust_level = "trusted"`, the
//   answer Codex records itself at its "Trust this folder?" dialog.
// A check of the file's text skips the app-server when everything is already there.
//
// A sandboxed agent can write its own CODEX_HOME (in the sandbox's home), and the app-server runs
// on the host, outside the sandbox: it reads `.env` and config.toml there, writes config.toml
// through a symbolic link, and creates its state databases, `skills/`, `tmp/` and more in that
// directory — through any link the agent planted. So for a CODEX_HOME the agent can write
// (`isolate`), the app-server never sees it: the directory must be a real directory of this user
// (not a link), config.toml a regular file of this user or absent (never a link, FIFO or device),
// read through safe-fs; a copy of it goes into a private scratch CODEX_HOME (out of the agent's
// reach) where the app-server makes its edits, and the result replaces config.toml through
// safe-fs's writer (a temporary file renamed over it, only if it still holds what was read). Any
// refusal leaves everything as it was and fails the preparation with the reason.
import { inTurn } from "../serial";
import { spawn } from "node:child_process";
import { promises as fsp } from "node:fs";
import os from "node:os";
import path from "node:path";
import { YardError } from "../errors";
import { currentUid, isInside, readRegularFile, realDirectory, replaceRegularFile } from "../safe-fs";
import type { z } from "zod";
import type { tokenUsage } from "../../wire/tasks";

/** Hook events Switchyard registers with Codex (the ones Codex fires; Claude-shaped payloads). */
export const CODEX_HOOK_EVENTS = [
  "SessionStart",
  "UserPromptSubmit",
  "PreToolUse",
  "PermissionRequest",
  "PostToolUse",
  "Stop",
] as const;

/** The event `yard hook` posts for Codex's `notify` program. */
export const CODEX_NOTIFY_EVENT = "CodexNotify";

const hookCommand = (event: string) => `yard hook ${event}`;

const tomlString = (s: string) => JSON.stringify(s); // a TOML basic string is a JSON string for this alphabet

/** `-c` value: Switchyard's hooks as Codex session flags. */
export function codexHooksOverride(): string {
  const events = CODEX_HOOK_EVENTS.map(
    (e) => `${e}=[{hooks=[{type="command",command=${tomlString(hookCommand(e))}}]}]`,
  );
  return `hooks={${events.join(",")}}`;
}

/** `-c` value: Codex's turn-complete notification runs `yard hook CodexNotify <json>`. */
export function codexNotifyOverride(): string {
  return `notify=["yard","hook",${tomlString(CODEX_NOTIFY_EVENT)}]`;
}

/** The Codex home a process with this environment uses. */
export function codexHome(env: Record<string, string | undefined> = process.env): string {
  const dir = env.CODEX_HOME?.trim();
  return dir ? path.resolve(dir) : path.join(env.HOME?.trim() || os.homedir(), ".codex");
}

/** `codex resume <session>` with the profile's own options. */
export function codexResumeArgv(argv: readonly string[], sessionId: string): string[] {
  return [argv[0]!, "resume", sessionId, ...argv.slice(1)];
}

/**
 * Codex's notify JSON as the hook it stands for: the main thread's agent-turn-complete is a Stop.
 * Other threads (Codex's title request, subagents) and other notification types map to nothing.
 */
export function codexNotifyAsHook(
  payload: Record<string, unknown>,
  sessionId: string | null,
): { event: "Stop"; payload: Record<string, unknown> } | null {
  if (payload.type !== "agent-turn-complete") return null;
  const thread = payload["thread-id"];
  if (!sessionId || typeof thread !== "string" || thread !== sessionId) return null;
  const last = payload["last-assistant-message"];
  return {
    event: "Stop",
    payload: {
      hook_event_name: "Stop",
      session_id: thread,
      ...(typeof last === "string" ? { last_assistant_message: last } : {}),
      source: "codex-notify",
    },
  };
}

// ---- preparing the Codex config before a launch --------------------------------------------

export interface CodexPrepareResult {
  codexHome: string;
  /** keys of Switchyard hooks newly trusted */
  trustedHooks: string[];
  /** the repository newly trusted, if any */
  trustedProject: string | null;
  /** the app-server was not needed: everything was already in place */
  skipped: boolean;
}

const sessionFlagKey = (event: string) =>
  `/<session-flags>/config.toml:${event.replace(/[A-Z]/g, (c, i: number) => (i ? "_" : "") + c.toLowerCase())}:0:0`;

/** config.toml has a trust entry for each of Switchyard's hooks (a text check, no parsing). */
function hooksTrusted(text: string): boolean {
  return CODEX_HOOK_EVENTS.every((e) => text.includes(`[hooks.state.${tomlString(sessionFlagKey(e))}]`));
}

/** config.toml trusts `dir` (the table Codex writes at its trust dialog). */
export function codexProjectTrusted(text: string, dir: string): boolean {
  const header = `[projects.${tomlString(dir)}]`;
  const i = text.indexOf(header);
  if (i < 0) return false;
  const next = text.indexOf("\n[", i + header.length);
  const table = text.slice(i, next < 0 ? undefined : next);
  return /^\s*trust_level\s*=\s*"trusted"\s*$/m.test(table);
}

/** One preparation per Codex home at a time (two app-servers editing one file would race). */
const queues = new Map<string, Promise<unknown>>();

/**
 * Makes the Codex config at `env`'s CODEX_HOME ready for a Switchyard launch in `cwd`: trusts
 * Switchyard's hooks, and `trustDir` when given (see the top). `program` is the codex binary.
 */
export function prepareCodexLaunch(opts: PrepareOptions): Promise<CodexPrepareResult> {
  const home = codexHome(opts.env);
  return inTurn(queues, home, () => prepare(home, opts));
}

interface PrepareOptions {
  /** the codex binary */
  program: string;
  env: Record<string, string>;
  cwd: string;
  /** trust Switchyard's hooks (the launch passes them) */
  trustHooks: boolean;
  /** the repository to trust, or null */
  trustDir: string | null;
  timeoutMs?: number;
  /**
   * The Codex home is one the agent can write (a sandboxed task's): check it, and run the
   * app-server on a private copy in a scratch dir under `scratchParent` (see the top). `within`:
   * the Codex home must really lie inside this directory (the sandbox's home).
   */
  isolate?: { scratchParent: string; within: string | null } | null;
}

/** config.toml may be this large. */
const MAX_CODEX_CONFIG_BYTES = 16 * 1024 * 1024;

const refusedConfig = (what: string, why: string, reason: string) =>
  new YardError(
    "CONFLICT",
    `Codex's ${what} ${why}: Switchyard reads and writes only regular files of yours there, never through a link an agent could have planted, so it left it untouched`,
    { file: what, reason },
  );

async function prepare(home: string, opts: PrepareOptions): Promise<CodexPrepareResult> {
  if (opts.isolate) return prepareIsolated(home, opts, opts.isolate);
  const configFile = path.join(home, "config.toml");
  // The user's own Codex home: Codex edits its own file (through a link of the user's, as Codex
  // does). Our text check reads only a regular file, and never blocks on a FIFO.
  const real = await fsp.realpath(configFile).catch(() => null);
  const read = real ? await readRegularFile(real, { maxBytes: MAX_CODEX_CONFIG_BYTES }) : null;
  if (read && !read.ok && read.reason !== "missing") throw refusedConfig(configFile, read.message, read.reason);
  const text = read?.ok ? read.value.toString("utf8") : "";
  if (everythingTrusted(text, opts)) return { codexHome: home, trustedHooks: [], trustedProject: null, skipped: true };
  const done = await editThroughAppServer({ ...opts.env, CODEX_HOME: home }, opts.cwd, text, opts);
  return { codexHome: home, ...done, skipped: false };
}

const everythingTrusted = (text: string, opts: PrepareOptions) =>
  (!opts.trustHooks || hooksTrusted(text)) && (!opts.trustDir || codexProjectTrusted(text, opts.trustDir));

/** A Codex home the agent can write: checked, copied, edited in private, written back safely. */
async function prepareIsolated(
  home: string,
  opts: PrepareOptions,
  iso: { scratchParent: string; within: string | null },
): Promise<CodexPrepareResult> {
  const uid = currentUid();
  if (iso.within) {
    await fsp.mkdir(iso.within, { recursive: true, mode: 0o700 }); // Switchyard's own dir (the sandbox's home)
    if (!(await isInside(home, iso.within)))
      throw refusedConfig(`home ${home}`, `leads out of ${iso.within} through a link`, "outside");
  }
  await fsp.mkdir(home, { recursive: true, mode: 0o700 }).catch(() => {}); // what is there is checked next
  const dir = await realDirectory(home, { ownedBy: uid });
  if (!dir.ok) throw refusedConfig(`home ${home}`, dir.message, dir.reason);
  const configFile = path.join(home, "config.toml");
  const read = await readRegularFile(configFile, { maxBytes: MAX_CODEX_CONFIG_BYTES, ownedBy: uid });
  if (!read.ok && read.reason !== "missing") throw refusedConfig(configFile, read.message, read.reason);
  const text = read.ok ? read.value.toString("utf8") : "";
  if (everythingTrusted(text, opts)) return { codexHome: home, trustedHooks: [], trustedProject: null, skipped: true };

  await fsp.mkdir(iso.scratchParent, { recursive: true, mode: 0o700 });
  const scratch = await fsp.mkdtemp(path.join(iso.scratchParent, "codex-prep-"));
  try {
    const scratchConfig = path.join(scratch, "config.toml");
    if (read.ok) await fsp.writeFile(scratchConfig, read.value, { mode: 0o600 });
    // HOME too: nothing of the agent's is read on the way.
    const done = await editThroughAppServer({ ...opts.env, CODEX_HOME: scratch, HOME: scratch }, scratch, text, opts);
    if (done.trustedHooks.length || done.trustedProject) {
      const out = await fsp.readFile(scratchConfig);
      const replaced = await replaceRegularFile(configFile, out, {
        expect: read.ok ? read.value : null,
        mode: read.ok ? read.mode & 0o777 : 0o600,
        maxBytes: MAX_CODEX_CONFIG_BYTES,
        ownedBy: uid,
      });
      if (!replaced.ok) {
        if (replaced.reason === "changed")
          throw new YardError("CONFLICT", `${configFile} changed while Switchyard prepared it; it was left as it is`, {
            file: configFile,
          });
        throw refusedConfig(configFile, replaced.message, replaced.reason);
      }
    }
    return { codexHome: home, ...done, skipped: false };
  } finally {
    await fsp.rm(scratch, { recursive: true, force: true });
  }
}

/** Runs `codex app-server` (its CODEX_HOME in `env`) and makes the edits: trust for our hooks and the repository. */
async function editThroughAppServer(
  env: Record<string, string>,
  cwd: string,
  text: string,
  opts: PrepareOptions,
): Promise<{ trustedHooks: string[]; trustedProject: string | null }> {
  const rpc = await AppServer.start(
    opts.program,
    ["app-server", ...(opts.trustHooks ? ["-c", codexHooksOverride()] : [])],
    { env, cwd, timeoutMs: opts.timeoutMs ?? 20_000 },
  );
  try {
    await rpc.call("initialize", { clientInfo: { name: "switchyard", version: "1" } });
    rpc.notify("initialized");
    const listed = (await rpc.call("hooks/list", { cwds: [cwd] })) as {
      data?: Array<{ hooks?: Array<Record<string, unknown>> }>;
    };
    const ours = new Set(CODEX_HOOK_EVENTS.map(hookCommand));
    const toTrust: Record<string, { trusted_hash: string }> = {};
    for (const h of listed.data?.flatMap((d) => d.hooks ?? []) ?? []) {
      if (h.source !== "sessionFlags" || typeof h.command !== "string" || !ours.has(h.command)) continue;
      if (h.trustStatus === "trusted" || typeof h.key !== "string" || typeof h.currentHash !== "string") continue;
      toTrust[h.key] = { trusted_hash: h.currentHash };
    }
    const edits: Array<{ keyPath: string; value: unknown; mergeStrategy: "upsert" }> = [];
    if (Object.keys(toTrust).length) edits.push({ keyPath: "hooks.state", value: toTrust, mergeStrategy: "upsert" });
    const trustProject = opts.trustDir && !codexProjectTrusted(text, opts.trustDir) ? opts.trustDir : null;
    if (trustProject)
      edits.push({
        keyPath: "projects",
        value: { [trustProject]: { trust_level: "trusted" } },
        mergeStrategy: "upsert",
      });
    if (edits.length) await rpc.call("config/batchWrite", { edits });
    return { trustedHooks: Object.keys(toTrust), trustedProject: trustProject };
  } finally {
    rpc.close();
  }
}

/** A minimal JSON-RPC client for `codex app-server` over its stdio (one JSON message a line). */
class AppServer {
  private buf = "";
  private nextId = 0;
  private readonly pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  private stderr = "";
  private exited: string | null = null;
  private timer: NodeJS.Timeout;

  private constructor(
    private readonly child: import("node:child_process").ChildProcessWithoutNullStreams,
    timeoutMs: number,
  ) {
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (d: string) => this.onData(d));
    child.stderr.on("data", (d) => (this.stderr = (this.stderr + String(d)).slice(-2000)));
    // A program that exits early makes our writes fail with EPIPE; its exit fails the calls.
    child.stdin.on("error", () => {});
    child.on("exit", (code, signal) => this.failAll(`codex app-server exited (${signal ?? code})`));
    child.on("error", (e) => this.failAll(`codex app-server could not start: ${e.message}`));
    this.timer = setTimeout(() => {
      this.failAll(`codex app-server did not answer within ${timeoutMs} ms`);
      this.close();
    }, timeoutMs);
    this.timer.unref();
  }

  static async start(
    program: string,
    args: string[],
    opts: { env: Record<string, string>; cwd: string; timeoutMs: number },
  ): Promise<AppServer> {
    const child = spawn(program, args, {
      env: opts.env as NodeJS.ProcessEnv,
      cwd: opts.cwd,
      stdio: ["pipe", "pipe", "pipe"],
    });
    return new AppServer(child, opts.timeoutMs);
  }

  private onData(d: string) {
    this.buf += d;
    for (let i = this.buf.indexOf("\n"); i >= 0; i = this.buf.indexOf("\n")) {
      const line = this.buf.slice(0, i);
      this.buf = this.buf.slice(i + 1);
      let msg: { id?: unknown; result?: unknown; error?: { message?: string } };
      try {
        msg = JSON.parse(line) as typeof msg;
      } catch {
        continue;
      }
      if (typeof msg.id !== "number") continue; // a notification
      const p = this.pending.get(msg.id);
      if (!p) continue;
      this.pending.delete(msg.id);
      if (msg.error)
        p.reject(new YardError("INTERNAL", `codex app-server: ${msg.error.message ?? "error"}`, { error: msg.error }));
      else p.resolve(msg.result);
    }
  }

  private failAll(why: string) {
    this.exited ??= why;
    for (const p of this.pending.values())
      p.reject(new YardError("INTERNAL", `${why}${this.stderr ? `: ${this.stderr.trim().slice(-500)}` : ""}`));
    this.pending.clear();
  }

  call(method: string, params: unknown): Promise<unknown> {
    if (this.exited) return Promise.reject(new YardError("INTERNAL", this.exited));
    const id = ++this.nextId;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id, method, params })}\n`);
    });
  }

  notify(method: string) {
    if (!this.exited) this.child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", method })}\n`);
  }

  close() {
    clearTimeout(this.timer);
    this.child.stdin.end();
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill("SIGTERM");
  }
}

// ---- token usage from a Codex session file ---------------------------------------------------

/** A session's token usage, as the task view carries it (server/wire/tasks.ts). */
export type TokenUsage = z.infer<typeof tokenUsage>;

/** The session's total token usage: the last `token_count` event of its rollout file. */
export function codexTokenUsage(jsonl: string): TokenUsage | null {
  let last: Record<string, number> | null = null;
  for (const line of jsonl.split("\n")) {
    if (!line.includes('"token_count"')) continue;
    try {
      const d = JSON.parse(line) as {
        type?: string;
        payload?: { type?: string; info?: { total_token_usage?: Record<string, number> } };
      };
      const u = d.payload?.type === "token_count" ? d.payload.info?.total_token_usage : undefined;
      if (u) last = u;
    } catch {
      /* a line being written */
    }
  }
  return last ? codexUsageOf(last) : null;
}

/** A Codex `total_token_usage` object as Switchyard's token usage. */
export function codexUsageOf(last: Record<string, number>): TokenUsage {
  const n = (k: string) => (typeof last[k] === "number" ? last[k]! : 0);
  return {
    inputTokens: n("input_tokens"),
    outputTokens: n("output_tokens"),
    cacheReadTokens: n("cached_input_tokens"),
    cacheWriteTokens: n("cache_write_input_tokens"),
    totalTokens: n("total_tokens") || n("input_tokens") + n("output_tokens"),
  };
}
