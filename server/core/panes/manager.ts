// The pane manager: owns every live pseudo-terminal. It spawns node-pty processes with the
// pane's environment (YARD_URL, a pane-scoped YARD_TOKEN, YARD_PANE, lineage, `yard` on PATH),
// feeds each one's output into a TerminalMirror (pausing the PTY while the mirror's unparsed
// backlog is high), runs the lifecycle reducer on hooks, exits and screen heuristics, persists
// the pane row and journals its events, and serves reads, submits, keystrokes, resizes, kills and
// live subscriptions. On exit it reads the PTY to the end, saves the final screen
// (final-screen.ts) and disposes the mirror: exited panes are read from their saved screen, also
// after a restart. Framework-free: no tRPC, socket.io or Next.
import { chmodSync, existsSync, mkdirSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { StringDecoder } from "node:string_decoder";
import { fileURLToPath } from "node:url";
import * as pty from "node-pty";
import { z } from "zod";
import { paths } from "../../config";
import type { Db } from "../../db";
import { hashSecret, newPaneToken, safeEqual } from "../../security/token";
import { absolutePath } from "../../contracts/common";
import { type AgentProfiles, argvSchema, envSchema } from "../agents/profiles";
import type { SandboxLaunch } from "../sandbox/sandbox";
import { YardError } from "../errors";
import type { EventJournal } from "../events/journal";
import { parseHookPost } from "../hooks/payload";
import { newId } from "../ids";
import { type AttentionItem, rankAttention } from "./attention";
import { type BlockedReason, blockedReason, type Effect, type Lifecycle, type PaneEvent, type PaneState, type ScreenObservation, initialPaneState, reduce } from "./lifecycle";
import { captureFinalScreen, FinalScreenStore } from "./final-screen";
import { type Launch, resolveLaunch } from "./launch";
import { MIN_SCROLLBACK, TerminalMirror } from "./mirror";
import { holdExitUntilDrained } from "./pty-drain";
import { PtyFlow } from "./pty-flow";
import { isTerminal } from "../tasks/state";
import { ActivityWaiter, SubmitQueue, type SubmitResult, type SubmitTarget } from "./submit-gate";

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");

/** Screen-heuristic fallback for agents without hooks: this long without output = quiescent. */
export const QUIESCENCE_MS = 1500;
/** Output this soon after the user's own keystrokes is their echo, not agent activity. */
const ECHO_WINDOW_MS = 150;
const KILL_GRACE_MS = 2000;
/** The PTY is paused while its mirror has more than this many units written but not parsed... */
export const BACKPRESSURE_HIGH = 256 * 1024;
/** ...and resumed once the backlog is below this (defaults; PaneManagerDeps.backpressure). */
export const BACKPRESSURE_LOW = 64 * 1024;
/** Most scrollback a manager may be configured with (memory per live pane grows with it). */
export const MAX_SCROLLBACK = 100_000;
/** At most one `pane.fault` event per pane in this window; later ones are counted in the next. */
const FAULT_JOURNAL_MS = 5000;
const FAULT_MESSAGE_MAX = 300;

export interface PaneInfo {
  id: string;
  label: string | null;
  lifecycle: Lifecycle;
  pid: number | null;
  exitCode: number | null;
  signal: number | null;
  cwd: string;
  argv: string[];
  agent: string | null;
  parentPaneId: string | null;
  rootPaneId: string | null;
  relationship: "fork" | "subagent" | null;
  taskId: string | null;
  cols: number;
  rows: number;
  doneSeen: boolean;
  live: boolean;
  createdAt: string;
  exitedAt: string | null;
  /** Runs inside the OS sandbox (core/sandbox). */
  sandboxed: boolean;
  /** Why a blocked pane is blocked (a start-up dialog, or a prompt the agent raised); null otherwise. */
  blockedReason: BlockedReason | null;
  /** The start-up dialog the agent waits at (see core/agents/startup-dialogs.ts). */
  dialog: { kind: string; title: string; text: string; since: string } | null;
  /** A passing remark, e.g. the agent is retrying a failed API call. */
  note: { kind: string; text: string } | null;
}

export const spawnInput = z
  .object({
    argv: argvSchema.optional(),
    agent: z.string().regex(/^[a-z0-9][a-z0-9-]{0,39}$/).optional(),
    cwd: absolutePath.optional(),
    env: envSchema.optional(),
    label: z.string().trim().min(1).max(120).optional(),
    parentPaneId: z.string().regex(/^pane[a-z0-9]+$/).optional(),
    relationship: z.enum(["fork", "subagent"]).optional(),
    cols: z.number().int().min(10).max(1000).optional(),
    rows: z.number().int().min(4).max(500).optional(),
  })
  .refine((v) => (v.argv ? !v.agent : Boolean(v.agent)), { message: "give either an agent profile or argv (a command), not both" })
  .refine((v) => !v.relationship || v.parentPaneId, { message: "relationship needs a parent pane", path: ["relationship"] });
export type SpawnInput = z.input<typeof spawnInput>;

export interface SpawnExtras {
  taskId?: string;
  extraEnv?: Record<string, string>;
  /**
   * The task engine's sandbox decision: a launch wraps the process in the OS sandbox, null runs
   * it unsandboxed. Left undefined (a pane spawned directly), a profile that asks for the sandbox
   * is refused: the sandbox needs a task's worktree.
   */
  sandbox?: SandboxLaunch | null;
  /** The profile's argv rewritten for this launch (e.g. resuming the agent's session); recorded as run. */
  rewriteArgv?: (argv: string[]) => string[];
}

export type ReadMode = "screen" | "tail" | "delta";
export interface ReadReply {
  text: string;
  cursor: number;
  start: number;
  dropped: { from: number; to: number } | null;
  lifecycle: Lifecycle;
}

export interface PaneListener {
  output?(data: string): void;
  lifecycle?(info: PaneInfo): void;
  exit?(info: PaneInfo): void;
}

interface LivePane {
  info: PaneInfo;
  state: PaneState;
  pty: pty.IPty;
  /** null once the pane has exited and its final screen is saved (then it is disposed). */
  mirror: TerminalMirror | null;
  /** The process exited; its final screen is being saved. Refuses input from now on. */
  exiting: boolean;
  flow: PtyFlow;
  /** Release of the backpressure pause, while the mirror's backlog is over the high-water mark. */
  backpressure: (() => void) | null;
  backpressurePauses: number;
  maxPendingBytes: number;
  faultJournaledAt: number;
  faultsUnjournaled: number;
  lastFault: Error | null;
  hooks: boolean;
  listeners: Set<PaneListener>;
  waiter: ActivityWaiter;
  quietTimer: NodeJS.Timeout | null;
  lastUserInputAt: number;
  /** Decodes output for live viewers; keeps characters split across reads whole. */
  decoder: StringDecoder;
  /** Bytes of a character cut by the last read while nobody watched: the next viewer's decoder starts with them. */
  undecodedTail: Buffer | null;
  persist: Promise<unknown>;
  exited: Promise<void>;
}

export interface PaneManagerDeps {
  db: Db;
  journal: EventJournal;
  agents: AgentProfiles;
  home: string;
  url: () => string;
  /** A task still pending is not ready for prompts (AGENT_NOT_READY). */
  taskState?: (taskId: string) => string | null;
  /** Called after every lifecycle transition (the task engine listens here). */
  onTransition?: (info: PaneInfo, state: PaneState, effect: Extract<Effect, { kind: "transition" }>) => void;
  /** Scrollback lines per pane (YARD_SCROLLBACK_LINES); MIN_SCROLLBACK..MAX_SCROLLBACK, default MIN_SCROLLBACK. */
  scrollbackLines?: number;
  /** Mirror backlog (units written, not parsed) above which the PTY is paused, and below which it resumes. */
  backpressure?: { highBytes: number; lowBytes: number };
}

export class PaneManager {
  private readonly live = new Map<string, LivePane>();
  private readonly queue = new SubmitQueue();
  private readonly binDir: string;
  private readonly scrollback: number;
  private readonly highWater: number;
  private readonly lowWater: number;
  /** Final screens of exited panes (see final-screen.ts). */
  readonly screens: FinalScreenStore;
  private closing = false;

  constructor(private readonly deps: PaneManagerDeps) {
    this.binDir = path.join(deps.home, "bin");
    const lines = deps.scrollbackLines ?? MIN_SCROLLBACK;
    if (!Number.isInteger(lines) || lines < MIN_SCROLLBACK || lines > MAX_SCROLLBACK) {
      throw new YardError("BAD_PARAMS", `scrollback must be a whole number of lines from ${MIN_SCROLLBACK} to ${MAX_SCROLLBACK}`, { scrollbackLines: lines });
    }
    this.scrollback = lines;
    this.highWater = deps.backpressure?.highBytes ?? BACKPRESSURE_HIGH;
    this.lowWater = deps.backpressure?.lowBytes ?? BACKPRESSURE_LOW;
    if (!(this.lowWater >= 0 && this.highWater > this.lowWater)) throw new YardError("BAD_PARAMS", "backpressure needs 0 <= lowBytes < highBytes", { ...deps.backpressure });
    this.screens = new FinalScreenStore(paths(deps.home).screens);
    this.installYardShim();
  }

  /** `yard` on every pane's PATH: a tiny launcher for this checkout's CLI with this Node. */
  private installYardShim() {
    mkdirSync(this.binDir, { recursive: true, mode: 0o700 });
    const shim = path.join(this.binDir, "yard");
    const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
    const body = `#!/bin/sh\nexec ${q(process.execPath)} ${q(path.join(REPO_ROOT, "cli/bin/yard.js"))} "$@"\n`;
    writeFileSync(shim, body, { mode: 0o700 });
    chmodSync(shim, 0o700);
  }

  // ---- spawn ---------------------------------------------------------------------------

  /** The PATH every pane gets: `yard` first, then the server's own. */
  private panePath(): string {
    return `${this.binDir}${path.delimiter}${process.env.PATH ?? "/usr/bin:/bin"}`;
  }

  /** The PATH a pane's agent finds its programs on (`yard` first). */
  panePathForAgents(): string {
    return this.panePath();
  }

  /** What a spawn would run; refuses (BAD_PARAMS, NOT_FOUND) before anything is created. */
  resolveLaunch(opts: { agent?: string; argv?: string[] }): Promise<Launch> {
    return resolveLaunch(this.deps.agents, { agent: opts.agent, argv: opts.argv, pathEnv: this.panePath() });
  }

  async spawn(input: SpawnInput, extras: SpawnExtras = {}): Promise<PaneInfo> {
    if (this.closing) throw new YardError("CONFLICT", "The server is shutting down");
    const opts = spawnInput.parse(input);
    const cwd = opts.cwd ?? path.resolve(process.env.HOME ?? "/");
    if (!existsSync(cwd) || !statSync(cwd).isDirectory()) throw new YardError("BAD_PARAMS", `cwd ${cwd} is not a directory`, { cwd });

    let parent: { id: string; rootPaneId: string | null } | null = null;
    if (opts.parentPaneId) {
      parent = await this.deps.db.pane.findUnique({ where: { id: opts.parentPaneId }, select: { id: true, rootPaneId: true } });
      if (!parent) throw new YardError("NOT_FOUND", `No parent pane ${opts.parentPaneId}`, { parentPaneId: opts.parentPaneId });
    }

    const launch = await this.resolveLaunch(opts);
    const argv = extras.rewriteArgv ? extras.rewriteArgv(launch.argv) : launch.argv;
    const { hooks } = launch;
    const profileEnv = launch.env;
    if (launch.sandbox && extras.sandbox === undefined) {
      throw new YardError("BAD_PARAMS", `Agent profile ${launch.agent} runs in the OS sandbox, which needs a task's worktree: start it as a task (yard task start --agent ${launch.agent})`, { agent: launch.agent });
    }

    const id = newId("pane");
    const { token, hash } = newPaneToken(id);
    const cols = opts.cols ?? 120;
    const rows = opts.rows ?? 32;
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !k.startsWith("YARD_")) env[k] = v;
    Object.assign(env, profileEnv, opts.env ?? {}, extras.extraEnv ?? {}, {
      TERM: "xterm-256color",
      COLORTERM: "truecolor",
      YARD_URL: this.deps.url(),
      YARD_TOKEN: token,
      YARD_PANE: id,
      PATH: this.panePath(),
    });
    if (parent) env.YARD_PARENT_PANE = parent.id;
    if (extras.taskId) env.YARD_TASK = extras.taskId;

    const rootPaneId = parent ? (parent.rootPaneId ?? parent.id) : id;
    const row = await this.deps.db.pane.create({
      data: {
        id,
        argv: JSON.stringify(argv),
        cwd,
        label: opts.label ?? null,
        parentPaneId: parent?.id ?? null,
        rootPaneId,
        relationship: opts.relationship ?? null,
        taskId: extras.taskId ?? null,
        agent: opts.agent ?? null,
        lifecycle: "unknown",
        cols,
        rows,
        tokenHash: hash,
        sandboxed: Boolean(extras.sandbox),
      },
    });

    let proc: pty.IPty;
    try {
      // Raw bytes: the mirror decodes UTF-8 itself, so text is decoded only for live viewers.
      const launch = sandboxed(argv, env, extras.sandbox);
      proc = pty.spawn(launch.argv[0]!, launch.argv.slice(1), { name: "xterm-256color", cols, rows, cwd, env: launch.env, encoding: null });
    } catch (e) {
      await this.deps.db.pane.update({ where: { id }, data: { lifecycle: "exited", exitCode: 127, exitedAt: new Date() } });
      await this.deps.journal.append("pane.exit", { paneId: id, taskId: extras.taskId, payload: { exitCode: 127, error: (e as Error).message } });
      throw new YardError("BAD_PARAMS", `Could not start ${argv[0]}: ${(e as Error).message}`, { argv });
    }

    const info: PaneInfo = { ...toInfo(row), pid: proc.pid, live: true };
    let resolveExit!: () => void;
    const pane: LivePane = {
      info,
      state: initialPaneState(),
      pty: proc,
      mirror: new TerminalMirror({ cols, rows, scrollback: this.scrollback, onFault: (e) => this.onMirrorFault(pane, e) }),
      exiting: false,
      flow: new PtyFlow(proc),
      backpressure: null,
      backpressurePauses: 0,
      maxPendingBytes: 0,
      faultJournaledAt: 0,
      faultsUnjournaled: 0,
      lastFault: null,
      hooks,
      listeners: new Set(),
      waiter: new ActivityWaiter(() => pane.state.activitySeq),
      quietTimer: null,
      lastUserInputAt: 0,
      decoder: new StringDecoder("utf8"),
      undecodedTail: null,
      persist: Promise.resolve(),
      exited: new Promise<void>((r) => (resolveExit = r)),
    };
    this.live.set(id, pane);

    // Resume a PTY paused for backpressure once the mirror has parsed its backlog down.
    pane.mirror!.onWriteParsed(() => {
      if (pane.backpressure && (pane.mirror?.pendingBytes ?? 0) < this.lowWater) {
        const release = pane.backpressure;
        pane.backpressure = null;
        release();
      }
    });
    // Exit is reported only once the PTY's output has been read to the end (see pty-drain.ts).
    holdExitUntilDrained(proc);
    proc.onData((chunk: string | Buffer) => this.output(pane, chunk));
    proc.onExit(({ exitCode, signal }) => {
      void this.finishExit(pane, exitCode, signal ?? null)
        .catch(() => {}) // a listener's failure: the pane is forgotten and its mirror freed regardless
        .finally(resolveExit);
    });

    void this.deps.journal.append("pane.spawned", { paneId: id, taskId: extras.taskId, payload: { argv, cwd, label: info.label, parentPaneId: info.parentPaneId, agent: info.agent, sandboxed: info.sandboxed, ...(extras.sandbox ? { network: extras.sandbox.network } : {}) } });
    this.apply(pane, { type: "spawned", at: Date.now() });
    this.queuePersist(pane, { pid: proc.pid });
    await pane.persist;
    if (!pane.hooks) this.armQuiescence(pane);
    return { ...pane.info };
  }

  /** One read from the PTY: into the mirror, to live viewers, and to the screen heuristics. */
  private output(pane: LivePane, chunk: string | Buffer) {
    const mirror = pane.mirror;
    if (!mirror) return;
    const bytes = typeof chunk === "string" ? Buffer.from(chunk) : chunk;
    mirror.write(bytes);
    const pending = mirror.pendingBytes;
    if (pending > pane.maxPendingBytes) pane.maxPendingBytes = pending;
    if (pending > this.highWater && !pane.backpressure && !pane.exiting) {
      pane.backpressure = pane.flow.hold();
      pane.backpressurePauses++;
    }
    if (pane.listeners.size) {
      const text = pane.decoder.write(bytes);
      for (const l of pane.listeners) l.output?.(text);
    } else {
      pane.undecodedTail = incompleteUtf8Tail(bytes);
    }
    if (!pane.hooks && !pane.state.hooksSeen) this.heuristicOutput(pane);
  }

  /**
   * The process exited and its output was read to the end: parse it all, save the final screen,
   * then mark the pane exited (row, journal, listeners), forget it and dispose its mirror. Until
   * the pane leaves `live`, reads still come from the live mirror; afterwards from the saved one.
   */
  private async finishExit(pane: LivePane, exitCode: number, signal: number | null): Promise<void> {
    const id = pane.info.id;
    const mirror = pane.mirror!;
    pane.exiting = true;
    if (pane.quietTimer) clearTimeout(pane.quietTimer);
    pane.quietTimer = null;
    pane.backpressure?.();
    pane.backpressure = null;
    try {
      try {
        await this.screens.save(id, await captureFinalScreen(mirror));
      } catch (e) {
        await this.deps.journal.append("pane.screen_unsaved", { paneId: id, taskId: pane.info.taskId, payload: { error: truncate((e as Error).message, FAULT_MESSAGE_MAX) } }).catch(() => {});
      }
      if (pane.faultsUnjournaled > 0) this.journalFault(pane);
      pane.info.exitCode = exitCode;
      pane.info.signal = signal;
      pane.info.exitedAt = new Date().toISOString();
      pane.info.live = false;
      this.apply(pane, { type: "exit", exitCode, signal: signal || null, at: Date.now() });
      await pane.persist.catch(() => {});
      for (const l of pane.listeners) l.exit?.(pane.info);
    } finally {
      this.live.delete(id);
      pane.listeners.clear();
      pane.mirror = null;
      mirror.dispose();
    }
  }

  /** The mirror recovered from an xterm fault: journal it, at most once per FAULT_JOURNAL_MS. */
  private onMirrorFault(pane: LivePane, error: Error) {
    pane.lastFault = error;
    pane.faultsUnjournaled++;
    if (Date.now() - pane.faultJournaledAt >= FAULT_JOURNAL_MS) this.journalFault(pane);
  }

  /** A `pane.fault` event: the last error, the faults it covers, and the pane's total (`count`). */
  private journalFault(pane: LivePane) {
    const error = pane.lastFault;
    pane.faultJournaledAt = Date.now();
    const covers = pane.faultsUnjournaled;
    pane.faultsUnjournaled = 0;
    void this.deps.journal.append("pane.fault", {
      paneId: pane.info.id,
      taskId: pane.info.taskId,
      payload: { message: truncate(error?.message ?? "", FAULT_MESSAGE_MAX), error: error?.name ?? null, count: pane.mirror?.faults ?? 0, covers },
    });
  }

  // ---- lifecycle -----------------------------------------------------------------------

  private apply(pane: LivePane, event: PaneEvent) {
    const { state, effects } = reduce(pane.state, event);
    pane.state = state;
    pane.info.lifecycle = state.lifecycle;
    pane.info.doneSeen = state.doneSeen;
    Object.assign(pane.info, screenFields(state));
    for (const effect of effects) {
      if (effect.kind === "transition") {
        this.queuePersist(pane, {});
        void this.deps.journal.append("pane.lifecycle", {
          paneId: pane.info.id,
          taskId: pane.info.taskId,
          payload: { from: effect.from, to: effect.to, seq: effect.seq, cause: effect.cause, exitCode: state.exitCode, lastMessage: effect.to === "done" ? state.lastMessage ?? null : undefined },
        });
        for (const l of pane.listeners) l.lifecycle?.({ ...pane.info });
        this.deps.onTransition?.({ ...pane.info }, state, effect);
      } else if (effect.kind === "journal" && effect.type !== "pane.lifecycle") {
        void this.deps.journal.append(effect.type, { paneId: pane.info.id, taskId: pane.info.taskId, payload: effect.data });
        if (effect.type === "pane.seen") this.queuePersist(pane, {});
      }
    }
    pane.waiter.notify();
  }

  private queuePersist(pane: LivePane, extra: { pid?: number }) {
    const data = {
      lifecycle: pane.state.lifecycle,
      lifecycleSeq: pane.state.seq,
      doneSeen: pane.state.doneSeen,
      exitCode: pane.state.exitCode,
      signal: typeof pane.state.signal === "number" ? pane.state.signal : null,
      exitedAt: pane.state.lifecycle === "exited" ? new Date() : undefined,
      // A pane's token dies with its process.
      ...(pane.state.lifecycle === "exited" ? { tokenHash: null } : {}),
      ...extra,
    };
    const run = () => this.deps.db.pane.update({ where: { id: pane.info.id }, data });
    pane.persist = pane.persist.then(run, run);
  }

  private heuristicOutput(pane: LivePane) {
    if (Date.now() - pane.lastUserInputAt > ECHO_WINDOW_MS) this.apply(pane, { type: "output", at: Date.now() });
    this.armQuiescence(pane);
  }

  private armQuiescence(pane: LivePane) {
    if (pane.quietTimer) clearTimeout(pane.quietTimer);
    pane.quietTimer = setTimeout(() => {
      pane.quietTimer = null;
      if (!pane.state.hooksSeen) this.apply(pane, { type: "quiescent", at: Date.now() });
    }, QUIESCENCE_MS);
    pane.quietTimer.unref();
  }

  /**
   * What a screen reader saw on a live pane (core/agents/screen-watch.ts): a start-up dialog,
   * the dialog gone, the input box ready, a failed turn, a note. Runs the lifecycle reducer like
   * a hook; a pane that is not running ignores it.
   */
  observe(paneId: string, observation: ScreenObservation): void {
    const pane = this.live.get(paneId);
    if (!pane || pane.exiting) return;
    this.apply(pane, { ...observation, at: Date.now() } as PaneEvent);
  }

  /** A hook post from `yard hook` (pane token) or an admin. */
  async hook(paneId: string, raw: unknown): Promise<{ lifecycle: Lifecycle; seq: number }> {
    const post = parseHookPost(raw);
    const pane = this.live.get(paneId);
    if (!pane) {
      const row = await this.deps.db.pane.findUnique({ where: { id: paneId } });
      if (!row) throw new YardError("NOT_FOUND", `No pane ${paneId}`, { paneId });
      await this.deps.journal.append("pane.hook", { paneId, taskId: row.taskId, payload: { event: post.event, ignored: "pane is not running" } });
      return { lifecycle: row.lifecycle as Lifecycle, seq: row.lifecycleSeq };
    }
    if (pane.quietTimer) {
      clearTimeout(pane.quietTimer);
      pane.quietTimer = null;
    }
    this.apply(pane, { type: "hook", name: post.event, payload: post.payload, at: Date.now() });
    return { lifecycle: pane.state.lifecycle, seq: pane.state.seq };
  }

  // ---- reads ---------------------------------------------------------------------------

  private noScreen(id: string): YardError {
    return new YardError("NOT_FOUND", `Pane ${id} has no screen (it did not run to its exit on this server's data dir)`, { paneId: id });
  }

  /** The live pane's mirror, else a read-only mirror rebuilt from its saved final screen. */
  private async mirrorFor(id: string): Promise<TerminalMirror> {
    const live = this.live.get(id)?.mirror;
    if (live && !live.isDisposed) return live;
    const saved = await this.screens.mirror(id);
    if (!saved) throw this.noScreen(id);
    return saved;
  }

  /** Runs a read on the pane's mirror; a mirror disposed under it (exit, eviction) is replaced once. */
  private async withMirror<T>(id: string, fn: (m: TerminalMirror) => Promise<T>): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      const mirror = await this.mirrorFor(id);
      try {
        return await fn(mirror);
      } catch (e) {
        if (!mirror.isDisposed || attempt >= 2) throw e;
      }
    }
  }

  async read(id: string, opts: { mode?: ReadMode; lines?: number; cursor?: number; reader?: string }): Promise<ReadReply> {
    const info = await this.get(id);
    const mode = opts.mode ?? "screen";
    return this.withMirror(id, async (mirror) => {
      if (mode === "delta") {
        const d = await mirror.delta(opts.cursor ?? 0, opts.reader ? { reader: opts.reader } : undefined);
        return { text: d.text, cursor: d.cursor, start: d.start, dropped: d.dropped, lifecycle: info.lifecycle };
      }
      const r = mode === "tail" ? await mirror.tail(opts.lines ?? 50) : await mirror.screen();
      return { text: r.text, cursor: r.cursor, start: r.cursor, dropped: null, lifecycle: info.lifecycle };
    });
  }

  async snapshot(id: string): Promise<{ data: string; cols: number; rows: number }> {
    for (let attempt = 0; ; attempt++) {
      const live = this.live.get(id)?.mirror;
      if (!live || live.isDisposed) break;
      try {
        return { data: await live.serialize(), cols: live.cols, rows: live.rows };
      } catch (e) {
        if (!live.isDisposed || attempt >= 2) throw e;
      }
    }
    const saved = await this.screens.load(id);
    if (!saved) throw this.noScreen(id);
    return { data: saved.data, cols: saved.cols, rows: saved.rows };
  }

  /** The live pane's mirror (null once it has exited and been disposed): diagnostics and tests. */
  liveMirror(id: string): TerminalMirror | null {
    return this.live.get(id)?.mirror ?? null;
  }

  /** Backpressure counters of a live pane: current and largest unparsed backlog, backpressure pauses so far. */
  flowStats(id: string): { pendingBytes: number; maxPendingBytes: number; backpressurePauses: number; paused: boolean } | null {
    const pane = this.live.get(id);
    if (!pane) return null;
    return { pendingBytes: pane.mirror?.pendingBytes ?? 0, maxPendingBytes: pane.maxPendingBytes, backpressurePauses: pane.backpressurePauses, paused: pane.flow.paused };
  }

  // ---- input ---------------------------------------------------------------------------

  private requireLive(id: string): LivePane {
    const pane = this.live.get(id);
    if (pane && !pane.exiting) return pane;
    throw new YardError("PANE_EXITED", `Pane ${id} is not running`, { paneId: id });
  }

  /** Raw keystrokes from a person (browser, `yard pane send-keys`). */
  async sendKeys(id: string, data: string, opts: { enter?: boolean } = {}): Promise<{ bytes: number }> {
    await this.get(id); // NOT_FOUND before PANE_EXITED
    const pane = this.requireLive(id);
    pane.lastUserInputAt = Date.now();
    this.apply(pane, { type: "input", at: Date.now() });
    pane.pty.write(data);
    if (opts.enter) pane.pty.write("\r");
    return { bytes: Buffer.byteLength(data) + (opts.enter ? 1 : 0) };
  }

  async submit(id: string, text: string, opts: { enterDelayMs?: number; stallMs?: number } = {}): Promise<SubmitResult & { lifecycle: Lifecycle }> {
    const info = await this.get(id);
    const pane = this.live.get(id);
    if (!pane || pane.exiting) throw new YardError("PANE_EXITED", `Pane ${id} has exited`, { paneId: id, state: pane ? "exited" : info.lifecycle });
    const result = await this.queue.submit(id, this.submitTarget(pane, { taskMayBePending: false }), text, opts);
    await this.deps.journal.append("pane.submitted", { paneId: id, taskId: pane.info.taskId, payload: { bytes: Buffer.byteLength(text), activitySeq: result.activitySeq } });
    return { ...result, lifecycle: pane.state.lifecycle };
  }

  /** Submit used by the task engine while the pane's task is still pending: skips that one check. */
  async submitForTask(id: string, text: string, opts: { enterDelayMs?: number; stallMs?: number; signal?: AbortSignal } = {}): Promise<SubmitResult> {
    return this.queue.submit(id, this.submitTarget(this.requireLive(id), { taskMayBePending: true }), text, opts);
  }

  private submitTarget(pane: LivePane, opts: { taskMayBePending: boolean }): SubmitTarget {
    return {
      lifecycle: () => pane.state.lifecycle,
      taskPending: () => !opts.taskMayBePending && pane.info.taskId !== null && this.deps.taskState?.(pane.info.taskId) === "pending",
      activitySeq: () => pane.state.activitySeq,
      bracketedPaste: () => pane.mirror?.bracketedPasteMode ?? false,
      write: (data) => pane.pty.write(data),
      waitForActivity: (after, timeout, signal) => pane.waiter.wait(after, timeout, signal),
    };
  }

  async resize(id: string, cols: number, rows: number): Promise<PaneInfo> {
    if (!Number.isInteger(cols) || !Number.isInteger(rows) || cols < 10 || cols > 1000 || rows < 4 || rows > 500) {
      throw new YardError("BAD_PARAMS", "cols must be 10..1000 and rows 4..500", { cols, rows });
    }
    const pane = this.requireLive(id);
    if (pane.info.cols === cols && pane.info.rows === rows) return { ...pane.info };
    pane.pty.resize(cols, rows);
    pane.mirror!.resize(cols, rows);
    pane.info.cols = cols;
    pane.info.rows = rows;
    await this.deps.db.pane.update({ where: { id }, data: { cols, rows } });
    return { ...pane.info };
  }

  /** Marks a done/exited pane as seen by the user (clears it from attention). */
  async markSeen(id: string): Promise<PaneInfo> {
    const pane = this.live.get(id);
    if (pane) {
      this.apply(pane, { type: "viewed", at: Date.now() });
      await pane.persist;
      return { ...pane.info };
    }
    const info = await this.get(id);
    if (!info.doneSeen) {
      await this.deps.db.pane.update({ where: { id }, data: { doneSeen: true } });
      await this.deps.journal.append("pane.seen", { paneId: id, taskId: info.taskId, payload: {} });
    }
    return { ...info, doneSeen: true };
  }

  /** Ends the pane's whole process group: SIGTERM, then SIGKILL after a grace period. */
  async kill(id: string, opts: { graceMs?: number } = {}): Promise<PaneInfo> {
    const info = await this.get(id);
    const pane = this.live.get(id);
    if (!pane) return info;
    if (pane.exiting) {
      await pane.exited; // the process is gone (its pid may already be reused): just wait
      return this.get(id);
    }
    const pid = pane.pty.pid;
    signalGroup(pid, "SIGTERM");
    pane.pty.kill("SIGHUP");
    const timer = setTimeout(() => signalGroup(pid, "SIGKILL"), opts.graceMs ?? KILL_GRACE_MS);
    await pane.exited;
    clearTimeout(timer);
    return this.get(id);
  }

  // ---- queries -------------------------------------------------------------------------

  /**
   * The pane a pane token stands for, or null: the secret must match the stored hash and the pane
   * must be running on this server (a token dies with its pane).
   */
  async authenticate(paneId: string, secret: string): Promise<{ id: string; taskId: string | null } | null> {
    const live = this.live.get(paneId);
    if (!live || live.state.lifecycle === "exited") return null;
    const row = await this.deps.db.pane.findUnique({ where: { id: paneId }, select: { id: true, taskId: true, tokenHash: true } });
    if (!row?.tokenHash || !safeEqual(row.tokenHash, hashSecret(secret))) return null;
    return { id: row.id, taskId: row.taskId };
  }

  async get(id: string): Promise<PaneInfo> {
    const pane = this.live.get(id);
    if (pane) return { ...pane.info };
    const row = await this.deps.db.pane.findUnique({ where: { id } });
    if (!row) throw new YardError("NOT_FOUND", `No pane ${id}`, { paneId: id });
    return toInfo(row);
  }

  async list(filter: { taskId?: string; liveOnly?: boolean } = {}): Promise<PaneInfo[]> {
    const rows = await this.deps.db.pane.findMany({ where: { taskId: filter.taskId }, orderBy: { createdAt: "asc" } });
    const out = rows.map((r) => (this.live.has(r.id) ? { ...this.live.get(r.id)!.info } : toInfo(r)));
    return filter.liveOnly ? out.filter((p) => p.live) : out;
  }

  isLive(id: string): boolean {
    return this.live.has(id);
  }

  state(id: string): PaneState | null {
    return this.live.get(id)?.state ?? null;
  }

  async attention(opts: { limit?: number; taskStates?: Map<string, { state: string; at: number }> } = {}): Promise<AttentionItem[]> {
    const rows = await this.deps.db.pane.findMany({ where: { OR: [{ lifecycle: { in: ["blocked", "done", "exited"] } }, { taskId: { not: null } }] } });
    const candidates = rows.map((r) => {
      const live = this.live.get(r.id);
      const task = r.taskId ? opts.taskStates?.get(r.taskId) : undefined;
      return {
        paneId: r.id,
        taskId: r.taskId,
        lifecycle: (live?.state.lifecycle ?? r.lifecycle) as Lifecycle,
        // A worker whose task reached a terminal state is the board's Review, not attention.
        // A plain shell's "done" is only the screen going quiet (no hooks): not worth a ping.
        doneSeen: (live?.state.doneSeen ?? r.doneSeen) || (task ? isTerminal(task.state) : false) || (!r.taskId && live !== undefined && !live.hooks && !live.state.hooksSeen),
        exitCode: live?.state.exitCode ?? r.exitCode,
        signal: live ? live.state.signal : r.signal,
        stopFailed: live?.state.lastStop?.failed ?? false,
        blockedReason: live ? blockedReason(live.state) : null,
        message: live?.state.dialog?.title ?? (live?.state.lastStop?.failed ? (live.state.lastMessage ?? live.state.lastStop.error ?? null) : null) ?? live?.state.note?.text ?? null,
        taskState: task?.state ?? null,
        taskStateAt: task?.at ?? null,
        lastTransitionAt: live?.state.lastTransitionAt ?? (r.exitedAt ?? r.updatedAt).getTime(),
      };
    });
    return rankAttention(candidates, { limit: opts.limit });
  }

  /**
   * A consistent start for a live viewer: the serialized screen, and a subscription whose first
   * output byte is the first byte not in that snapshot. The PTY is paused for the few
   * milliseconds this takes, so nothing is lost or shown twice.
   */
  async attach(id: string, listener: PaneListener): Promise<{ snapshot: { data: string; cols: number; rows: number }; pane: PaneInfo; detach: () => void }> {
    const pane = this.live.get(id);
    if (!pane) {
      const info = await this.get(id);
      return { snapshot: await this.snapshot(id).catch(() => ({ data: "", cols: info.cols, rows: info.rows })), pane: info, detach: () => {} };
    }
    const release = pane.flow.hold();
    try {
      const snapshot = await this.snapshot(id);
      if (pane.listeners.size === 0) {
        pane.decoder = new StringDecoder("utf8");
        if (pane.undecodedTail) pane.decoder.write(pane.undecodedTail);
      }
      pane.listeners.add(listener);
      return { snapshot, pane: { ...pane.info }, detach: () => pane.listeners.delete(listener) };
    } finally {
      release();
    }
  }

  // ---- start-up and shutdown -----------------------------------------------------------

  /** Panes recorded as running by a previous server process are gone: mark them exited. */
  /** Returns each lost pane's last lifecycle, by id. */
  async recover(): Promise<Map<string, string>> {
    const stale = await this.deps.db.pane.findMany({ where: { lifecycle: { not: "exited" } } });
    for (const row of stale) {
      await this.deps.db.pane.update({ where: { id: row.id }, data: { lifecycle: "exited", exitedAt: new Date(), doneSeen: false, tokenHash: null } });
      await this.deps.journal.append("pane.lost", { paneId: row.id, taskId: row.taskId, payload: { lastLifecycle: row.lifecycle, reason: "server_restart" } });
    }
    return new Map(stale.map((r) => [r.id, r.lifecycle]));
  }

  async shutdown(): Promise<void> {
    this.closing = true;
    await Promise.all([...this.live.keys()].map((id) => this.kill(id, { graceMs: 1000 }).catch(() => {})));
    this.screens.close();
  }
}

/** The sandbox hook point: what actually gets spawned (the recorded argv stays the agent's own). */
function sandboxed(argv: string[], env: Record<string, string>, launch: SandboxLaunch | null | undefined) {
  return launch ? launch.wrap(argv, env) : { argv, env };
}

/** The trailing bytes of an incomplete UTF-8 character at the end of `b`, or null. */
export function incompleteUtf8Tail(b: Uint8Array): Buffer | null {
  for (let back = 1; back <= Math.min(3, b.length); back++) {
    const byte = b[b.length - back]!;
    if ((byte & 0xc0) === 0x80) continue; // a continuation byte: keep looking for the lead
    const need = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return need > back ? Buffer.from(b.subarray(b.length - back)) : null;
  }
  return null;
}

function truncate(s: string, max: number): string {
  return s.length <= max ? s : `${s.slice(0, max - 1)}…`;
}

function signalGroup(pid: number, signal: NodeJS.Signals) {
  try {
    process.kill(-pid, signal);
  } catch {
    try {
      process.kill(pid, signal);
    } catch {
      /* already gone */
    }
  }
}

type PaneRow = {
  id: string;
  argv: string;
  cwd: string;
  label: string | null;
  parentPaneId: string | null;
  rootPaneId: string | null;
  relationship: string | null;
  taskId: string | null;
  agent: string | null;
  lifecycle: string;
  doneSeen: boolean;
  pid: number | null;
  exitCode: number | null;
  signal: number | null;
  cols: number;
  rows: number;
  createdAt: Date;
  exitedAt: Date | null;
  sandboxed: boolean;
};

function toInfo(r: PaneRow): PaneInfo {
  return {
    id: r.id,
    label: r.label,
    lifecycle: r.lifecycle as Lifecycle,
    pid: r.pid,
    exitCode: r.exitCode,
    signal: r.signal,
    cwd: r.cwd,
    argv: JSON.parse(r.argv) as string[],
    agent: r.agent,
    parentPaneId: r.parentPaneId,
    rootPaneId: r.rootPaneId,
    relationship: (r.relationship as PaneInfo["relationship"]) ?? null,
    taskId: r.taskId,
    cols: r.cols,
    rows: r.rows,
    doneSeen: r.doneSeen,
    live: false,
    createdAt: r.createdAt.toISOString(),
    exitedAt: r.exitedAt?.toISOString() ?? null,
    sandboxed: r.sandboxed,
    blockedReason: r.lifecycle === "blocked" ? "prompt" : null,
    dialog: null,
    note: null,
  };
}

/** The PaneInfo fields that mirror the screen-derived parts of a live pane's state. */
function screenFields(s: PaneState): Pick<PaneInfo, "blockedReason" | "dialog" | "note"> {
  return {
    blockedReason: blockedReason(s),
    dialog: s.dialog ? { kind: s.dialog.kind, title: s.dialog.title, text: s.dialog.text, since: new Date(s.dialog.since).toISOString() } : null,
    note: s.note ? { kind: s.note.kind, text: s.note.text } : null,
  };
}
