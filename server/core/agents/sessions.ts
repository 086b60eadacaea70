// Agent sessions: the layer every hook post passes through before the pane lifecycle sees it.
// - Records the agent's own session on the task (Claude Code's `session_id` and
//   `transcript_path`, the same fields in Codex's Claude-shaped hooks), from the main agent's
//   hooks (never a subagent's), so a task can be resumed in the same conversation later. A
//   transcript path is a file name the agent wrote: it is recorded only when it lies in the
//   directory where that agent keeps its transcripts (transcriptRootsOf: Claude Code's
//   `<config dir>/projects/`, Codex's `$CODEX_HOME/sessions/`, in the environment the agent runs
//   with, so the sandbox's home for a sandboxed task) and is not a link, a FIFO or a device;
//   any other path is refused (`task.transcript_refused` in the journal) and never read.
// - Maps Codex's `notify` JSON (`yard hook CodexNotify <json>`) to a Stop for the pane's own
//   session; other threads (Codex's title request) and other notification types pass through
//   as an unknown hook, journaled and otherwise ignored.
// - Token usage from a transcript (Claude's JSONL or Codex's rollout file) is never read on a
//   request: views ask TranscriptUsage for the last known usage, which schedules a refresh in
//   the background (one file at a time, through safe-fs: regular files only, no link in the
//   last component, confined to the agent's directory, size-capped), reading only the bytes
//   appended since the last refresh.
import { promises as fsp } from "node:fs";
import type { FileHandle } from "node:fs/promises";
import path from "node:path";
import type { TaskRow, TaskStore } from "../../stores/tasks";
import type { EventJournal } from "../events/journal";
import { isSubagentPayload, parseHookPost } from "../hooks/payload";
import type { PaneManager } from "../panes/manager";
import { currentUid, isInside, isUnder, openRegularFile } from "../safe-fs";
import { claudeConfigDir } from "./claude-config";
import { CODEX_NOTIFY_EVENT, codexHome, codexNotifyAsHook, codexUsageOf, type TokenUsage } from "./codex";
import { type AgentKind, agentKindOf } from "./kinds";
import { agentEnvironment } from "./launch-prep";

export type { TokenUsage } from "./codex";

// ---- where an agent keeps its transcripts ----------------------------------------------------

/** A directory an agent writes its transcripts in; `confinedTo`: it must really lie inside this (the sandbox's home). */
export interface TranscriptRoot {
  dir: string;
  confinedTo: string | null;
}

/** The transcript directory of an agent of `kind` running with `env` (HOME already the sandbox's for a sandboxed one). */
export function transcriptRoots(
  kind: AgentKind | null,
  env: Record<string, string | undefined>,
  sandboxHome: string | null,
): TranscriptRoot[] {
  const dir =
    kind === "claude"
      ? path.join(claudeConfigDir(env), "projects")
      : kind === "codex"
        ? path.join(codexHome(env), "sessions")
        : null;
  if (!dir) return [];
  return [{ dir, confinedTo: sandboxHome && isUnder(dir, sandboxHome) ? sandboxHome : null }];
}

/** What the server knows of a task's agent, to find its transcript directory. */
export interface TranscriptDeps {
  /** The launch the task's profile (or custom command) resolves to now: its kind and environment. */
  resolveLaunch: PaneManager["resolveLaunch"];
  /** The sandbox's private home of a task (null: this server has no sandbox). */
  sandboxHome: (taskId: string) => string | null;
}

/** The transcript directories of a task's agent, as it was launched (profile env, sandbox home). */
export async function transcriptRootsOf(
  task: Pick<TaskRow, "id" | "agent" | "argv" | "sandboxed">,
  deps: TranscriptDeps,
): Promise<TranscriptRoot[]> {
  let argv: string[] | null = null;
  try {
    argv = task.argv ? (JSON.parse(task.argv) as string[]) : null;
  } catch {
    argv = null;
  }
  let kind: AgentKind | null = agentKindOf({ profileId: argv ? null : task.agent, argv: argv ?? [] });
  let profileEnv: Record<string, string> = {};
  const launch = await deps.resolveLaunch(argv ? { argv } : { agent: task.agent }).catch(() => null);
  if (launch) {
    kind = launch.kind ?? kind;
    profileEnv = launch.env;
  }
  let sandboxHome = task.sandboxed ? deps.sandboxHome(task.id) : null;
  if (task.sandboxed && !sandboxHome) return []; // no sandbox here: nothing the agent wrote is trusted
  // The agent sees the sandbox home by its real path (the sandbox binds it there).
  if (sandboxHome) sandboxHome = await fsp.realpath(sandboxHome).catch(() => sandboxHome);
  return transcriptRoots(kind, agentEnvironment({ profileEnv, sandboxHome }), sandboxHome);
}

export type TranscriptCheck = { ok: true; root: TranscriptRoot } | { ok: false; reason: string };

/**
 * Whether `file` may be read as a transcript of an agent whose directories are `roots`: it names a
 * file under one of them, the directory does not lead out of the sandbox home through a link, the
 * file does not lead out of the directory through a link, and it is a regular file or not there yet.
 */
export async function checkTranscriptPath(file: string, roots: TranscriptRoot[]): Promise<TranscriptCheck> {
  if (!path.isAbsolute(file) || file.includes("\0")) return { ok: false, reason: "not an absolute path" };
  if (roots.length === 0) return { ok: false, reason: "this agent has no known transcript directory" };
  for (const root of roots) {
    if (!isUnder(file, root.dir) || path.resolve(file) === path.resolve(root.dir)) continue;
    if (root.confinedTo && !(await isInside(root.dir, root.confinedTo)))
      return { ok: false, reason: `${root.dir} leads out of the sandbox's home through a link` };
    const st = await fsp.lstat(file).catch(() => null);
    if (st?.isSymbolicLink()) return { ok: false, reason: "it is a symbolic link" };
    if (st && !st.isFile()) return { ok: false, reason: "it is not a regular file" };
    const rootIsDir = await fsp.stat(root.dir).then(
      (s) => s.isDirectory(),
      () => false,
    );
    if (rootIsDir && !(await isInside(file, root.dir)))
      return { ok: false, reason: `it leads out of ${root.dir} through a link` };
    return { ok: true, root };
  }
  return { ok: false, reason: `it is not inside ${roots.map((r) => r.dir).join(" or ")}` };
}

// ---- recording sessions ------------------------------------------------------------------------

export interface AgentSessionsDeps {
  tasks: Pick<TaskStore, "agentSession" | "recordAgentSession" | "row">;
  journal: EventJournal;
  panes: Pick<PaneManager, "hook" | "get" | "resolveLaunch">;
  /** The sandbox's private home of a task (where a sandboxed agent keeps its transcripts). */
  sandboxHome: (taskId: string) => string | null;
}

export class AgentSessions {
  /** the main agent's session id per live pane (Codex notify needs it to tell threads apart) */
  private readonly byPane = new Map<string, string>();
  /** what was last recorded per pane, so most hooks cost no database read */
  private readonly recorded = new Map<string, string>();

  private readonly transcriptDeps: TranscriptDeps;

  constructor(private readonly deps: AgentSessionsDeps) {
    this.transcriptDeps = { resolveLaunch: (o) => deps.panes.resolveLaunch(o), sandboxHome: deps.sandboxHome };
  }

  /** A hook post for `paneId` (already authorized for it): record, translate, then the pane lifecycle. */
  async post(
    paneId: string,
    raw: { event: string; payload: unknown },
  ): Promise<Awaited<ReturnType<PaneManager["hook"]>>> {
    // A post the lifecycle would refuse (its fields over their caps) records nothing either.
    parseHookPost(raw);
    let post = raw;
    const payload = isRecord(raw.payload) ? raw.payload : null;
    if (raw.event === CODEX_NOTIFY_EVENT && payload) {
      const mapped = codexNotifyAsHook(payload, this.byPane.get(paneId) ?? null);
      if (mapped) post = mapped;
    } else if (payload && typeof payload.session_id === "string" && !isSubagentPayload(payload)) {
      await this.record(
        paneId,
        payload.session_id,
        typeof payload.transcript_path === "string" ? payload.transcript_path : null,
      ).catch(() => {});
    }
    return this.deps.panes.hook(paneId, post);
  }

  private async record(paneId: string, sessionId: string, transcriptPath: string | null) {
    const key = `${sessionId}\0${transcriptPath ?? ""}`;
    if (this.recorded.get(paneId) === key) return;
    this.recorded.set(paneId, key);
    const known = this.byPane.get(paneId);
    this.byPane.set(paneId, sessionId);
    const info = await this.deps.panes.get(paneId);
    if (!info.taskId) return;
    const task = await this.deps.tasks.agentSession(info.taskId);
    if (!task || task.paneId !== paneId) return; // an old round's pane
    if (task.agentSessionId === sessionId && (task.agentTranscriptPath === transcriptPath || !transcriptPath)) return;
    if (transcriptPath) {
      const row = await this.deps.tasks.row(info.taskId);
      const check = row
        ? await checkTranscriptPath(transcriptPath, await transcriptRootsOf(row, this.transcriptDeps))
        : ({ ok: false, reason: "no such task" } as const);
      if (!check.ok) {
        await this.deps.journal.append("task.transcript_refused", {
          taskId: info.taskId,
          paneId,
          payload: { sessionId, transcriptPath, reason: check.reason },
        });
        transcriptPath = null;
        if (task.agentSessionId === sessionId) return;
      }
    }
    await this.deps.tasks.recordAgentSession(info.taskId, sessionId, transcriptPath);
    if (known !== sessionId)
      await this.deps.journal.append("task.session", {
        taskId: info.taskId,
        paneId,
        payload: { sessionId, transcriptPath },
      });
  }

  forget(paneId: string) {
    this.byPane.delete(paneId);
    this.recorded.delete(paneId);
  }
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

// ---- token usage ---------------------------------------------------------------------------

/** Claude Code's transcript: usage of each assistant message, counted once per message id. */
export function claudeTokenUsage(jsonl: string): TokenUsage | null {
  const byMessage = new Map<string, Record<string, number>>();
  let anonymous = 0;
  for (const line of jsonl.split("\n")) {
    if (!line.includes('"usage"')) continue;
    try {
      const d = JSON.parse(line) as {
        type?: string;
        message?: { id?: string; usage?: Record<string, number>; model?: string };
      };
      if (d.type !== "assistant" || !d.message?.usage || d.message.model === "<synthetic>") continue;
      byMessage.set(d.message.id ?? `anon-${anonymous++}`, d.message.usage);
    } catch {
      /* a line being written */
    }
  }
  if (byMessage.size === 0) return null;
  const sum = (k: string) => [...byMessage.values()].reduce((a, u) => a + (typeof u[k] === "number" ? u[k]! : 0), 0);
  const input = sum("input_tokens");
  const output = sum("output_tokens");
  const cacheRead = sum("cache_read_input_tokens");
  const cacheWrite = sum("cache_creation_input_tokens");
  return {
    inputTokens: input,
    outputTokens: output,
    cacheReadTokens: cacheRead,
    cacheWriteTokens: cacheWrite,
    totalTokens: input + output + cacheRead + cacheWrite,
  };
}

/** Transcripts larger than this are not counted (usage unavailable). */
const MAX_TRANSCRIPT_BYTES = 512 * 1024 * 1024;
/** A line longer than this is skipped (usage lines are a few hundred bytes; tool results can be large). */
const MAX_LINE_BYTES = 16 * 1024 * 1024;
/** Messages counted per transcript at most (each costs a map entry; a long session has a few thousand). */
const MAX_MESSAGES = 50_000;
const CHUNK_BYTES = 1024 * 1024;
/** A view asks for a refresh at most this often per transcript. */
const REFRESH_MS = 1000;
/** Transcripts remembered at most (the oldest is dropped). */
const MAX_ENTRIES = 2000;
/** How long a task's transcript directories (from its profile) are reused before they are worked out again. */
const ROOTS_TTL_MS = 30_000;

/** Token usage counted line by line, so a transcript is read once and then only what was appended. */
class UsageCounter {
  private readonly claude = new Map<string, Record<string, number>>();
  private anonymous = 0;
  private codexLast: Record<string, number> | null = null;
  /** Too many messages to count: usage unavailable. */
  overflow = false;

  line(line: string) {
    if (line.includes('"token_count"')) {
      try {
        const d = JSON.parse(line) as {
          payload?: { type?: string; info?: { total_token_usage?: Record<string, number> } };
        };
        const u = d.payload?.type === "token_count" ? d.payload.info?.total_token_usage : undefined;
        if (u) this.codexLast = u;
      } catch {
        /* a line being written */
      }
      return;
    }
    if (!line.includes('"usage"')) return;
    try {
      const d = JSON.parse(line) as {
        type?: string;
        message?: { id?: string; usage?: Record<string, number>; model?: string };
      };
      if (d.type !== "assistant" || !d.message?.usage || d.message.model === "<synthetic>") return;
      const id = typeof d.message.id === "string" ? d.message.id : `anon-${this.anonymous++}`;
      if (!this.claude.has(id) && this.claude.size >= MAX_MESSAGES) {
        this.overflow = true;
        return;
      }
      this.claude.set(id, d.message.usage);
    } catch {
      /* a line being written */
    }
  }

  usage(): TokenUsage | null {
    if (this.overflow) return null;
    if (this.codexLast) return codexUsageOf(this.codexLast);
    if (this.claude.size === 0) return null;
    const sum = (k: string) =>
      [...this.claude.values()].reduce((a, u) => a + (typeof u[k] === "number" ? u[k]! : 0), 0);
    const input = sum("input_tokens");
    const output = sum("output_tokens");
    const cacheRead = sum("cache_read_input_tokens");
    const cacheWrite = sum("cache_creation_input_tokens");
    return {
      inputTokens: input,
      outputTokens: output,
      cacheReadTokens: cacheRead,
      cacheWriteTokens: cacheWrite,
      totalTokens: input + output + cacheRead + cacheWrite,
    };
  }
}

interface UsageEntry {
  file: string;
  roots: () => Promise<TranscriptRoot[]>;
  knownRoots: { at: number; roots: TranscriptRoot[] } | null;
  usage: TokenUsage | null;
  /** why there is no usage, when the file was refused or is too large */
  unavailable: string | null;
  checkedAt: number;
  queued: boolean;
  // what has been read of the file so far
  dev: number;
  ino: number;
  offset: number;
  mtimeMs: number;
  counter: UsageCounter;
  carry: Buffer;
  skippingLine: boolean;
}

/**
 * Last known token usage per task transcript, refreshed in the background. `peek` never touches
 * the file: it answers from memory and, at most once a second per transcript, queues a refresh.
 * Refreshes run one at a time.
 */
export class TranscriptUsage {
  private readonly entries = new Map<string, UsageEntry>();
  private queue: Promise<void> = Promise.resolve();
  private pending = 0;
  private readonly refreshMs: number;

  constructor(opts: { refreshMs?: number } = {}) {
    this.refreshMs = opts.refreshMs ?? REFRESH_MS;
  }

  /** The last known usage of `taskId`'s transcript `file` (null until counted); schedules a refresh. */
  peek(taskId: string, file: string | null, roots: () => Promise<TranscriptRoot[]>): TokenUsage | null {
    if (!file) return null;
    const key = `${taskId}\0${file}`;
    let e = this.entries.get(key);
    if (!e) {
      if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
      e = {
        file,
        roots,
        knownRoots: null,
        usage: null,
        unavailable: null,
        checkedAt: 0,
        queued: false,
        dev: -1,
        ino: -1,
        offset: 0,
        mtimeMs: -1,
        counter: new UsageCounter(),
        carry: Buffer.alloc(0),
        skippingLine: false,
      };
      this.entries.set(key, e);
    }
    e.roots = roots;
    if (!e.queued && Date.now() - e.checkedAt >= this.refreshMs) {
      e.queued = true;
      this.pending++;
      const entry = e;
      this.queue = this.queue
        .then(() => this.refresh(entry).catch(() => {}))
        .finally(() => {
          entry.queued = false;
          entry.checkedAt = Date.now();
          this.pending--;
        });
    }
    return e.usage;
  }

  /** Resolves once every refresh queued so far has run (tests, shutdown). */
  async settled(): Promise<void> {
    while (this.pending > 0) await this.queue;
  }

  private reset(e: UsageEntry) {
    e.dev = -1;
    e.ino = -1;
    e.offset = 0;
    e.mtimeMs = -1;
    e.counter = new UsageCounter();
    e.carry = Buffer.alloc(0);
    e.skippingLine = false;
  }

  private async refresh(e: UsageEntry): Promise<void> {
    if (!e.knownRoots || Date.now() - e.knownRoots.at > ROOTS_TTL_MS)
      e.knownRoots = { at: Date.now(), roots: await e.roots() };
    // The check itself runs every time: the agent may swap a link in at any moment.
    const check = await checkTranscriptPath(e.file, e.knownRoots.roots);
    if (!check.ok) {
      this.reset(e);
      e.usage = null;
      e.unavailable = `transcript refused: ${check.reason}`;
      return;
    }
    const opened = await openRegularFile(e.file, {
      maxBytes: MAX_TRANSCRIPT_BYTES,
      within: check.root.dir,
      ownedBy: currentUid(),
    });
    if (!opened.ok) {
      this.reset(e);
      e.usage = null;
      e.unavailable =
        opened.reason === "too_large"
          ? "usage unavailable: transcript too large"
          : opened.reason === "missing"
            ? null
            : `transcript refused: ${opened.message}`;
      return;
    }
    const fh = opened.value;
    try {
      const st = await fh.stat();
      if (st.dev !== e.dev || st.ino !== e.ino || st.size < e.offset) {
        this.reset(e);
        e.dev = st.dev;
        e.ino = st.ino;
      }
      if (st.size === e.offset && st.mtimeMs === e.mtimeMs) return;
      await this.readFrom(e, fh, Math.min(st.size, MAX_TRANSCRIPT_BYTES));
      e.mtimeMs = st.mtimeMs;
      e.usage = e.counter.usage();
      e.unavailable = e.counter.overflow ? "usage unavailable: transcript too large" : null;
    } finally {
      await fh.close().catch(() => {});
    }
  }

  /** Feeds the complete lines between e.offset and `end` to the counter, keeping a partial last line for next time. */
  private async readFrom(e: UsageEntry, fh: FileHandle, end: number): Promise<void> {
    const buf = Buffer.alloc(CHUNK_BYTES);
    while (e.offset < end) {
      const { bytesRead } = await fh.read(buf, 0, Math.min(buf.length, end - e.offset), e.offset);
      if (bytesRead === 0) break;
      e.offset += bytesRead;
      let chunk = buf.subarray(0, bytesRead);
      for (let nl = chunk.indexOf(10); nl >= 0; nl = chunk.indexOf(10)) {
        const piece = chunk.subarray(0, nl);
        if (!e.skippingLine)
          e.counter.line((e.carry.length ? Buffer.concat([e.carry, piece]) : piece).toString("utf8"));
        e.carry = Buffer.alloc(0);
        e.skippingLine = false;
        chunk = chunk.subarray(nl + 1);
      }
      if (e.skippingLine) continue;
      if (e.carry.length + chunk.length > MAX_LINE_BYTES) {
        e.carry = Buffer.alloc(0);
        e.skippingLine = true;
      } else if (chunk.length) {
        e.carry = Buffer.concat([e.carry, chunk]);
      }
    }
  }
}

/** The server's one cache of transcript usage. */
export const transcriptUsage = new TranscriptUsage();
