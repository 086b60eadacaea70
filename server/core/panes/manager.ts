// The pane manager: the server's side of every pane. It spawns panes through the pane host (the
// long-lived process that owns the PTYs and their rendered mirrors, server/panehost/) with the
// pane's environment (YARD_URL, a pane-scoped YARD_TOKEN, YARD_PANE, lineage, `yard` on PATH, the
// hook relay), keeps the pane rows, runs the lifecycle reducer on hooks, exits and the no-hooks
// screen heuristic (activity ticks from the host), persists and journals, and serves reads,
// submits, keystrokes, resizes, kills and live subscriptions by asking the host. Exited panes
// are read from their final screen (final-screen.ts), saved by the host before it reports the
// exit. After a server restart, recover() reattaches to every pane the host still runs; when the
// host itself dies, its panes are failed with evidence. Framework-free: no tRPC, socket.io or Next.
import { chmodSync, existsSync, mkdirSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { StringDecoder } from "node:string_decoder";
import { REPO_ROOT } from "../../root";
import { z } from "zod";
import { paths, socketPathFits } from "../../config";
import type { PaneRow, PaneStore } from "../../stores/panes";
import { hashSecret, newPaneToken, parsePaneToken, safeEqual } from "../../security/token";
import { absolutePath } from "../../contracts/common";
import { type AgentProfiles, argvSchema, envSchema } from "../agents/profiles";
import type { SandboxLaunch } from "../sandbox/sandbox";
import { YardError } from "../errors";
import type { EventJournal } from "../events/journal";
import { parseHookPost } from "../hooks/payload";
import { newId } from "../ids";
import { type AttentionItem, rankAttention } from "./attention";
import type { FlowStats, HostExit, HostHook, HostPaneStatus, PaneHostPort } from "./host-port";
import { type BlockedReason, blockedReason, type Effect, type Lifecycle, LIFECYCLES, type PaneEvent, type PaneState, type ScreenObservation, initialPaneState, reduce } from "./lifecycle";
import { FinalScreenStore } from "./final-screen";
import { type Launch, resolveLaunch } from "./launch";
import { MIN_SCROLLBACK, type TerminalMirror } from "./mirror";
import { isTerminal } from "../tasks/state";
import { ActivityWaiter, SubmitQueue, type SubmitResult, type SubmitTarget } from "./submit-gate";


/** Screen-heuristic fallback for agents without hooks: this long without output = quiescent. */
export const QUIESCENCE_MS = 1500;
/** Output this soon after the user's own keystrokes is their echo, not agent activity. */
const ECHO_WINDOW_MS = 150;
const KILL_GRACE_MS = 2000;
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
  /** Output was dropped on the way (the server fell behind): take a fresh snapshot. */
  resync?(): void;
}

/** One live viewer: output at or after byte `from` of the pane, decoded as it arrives. */
interface Subscriber {
  listener: PaneListener;
  from: number;
  decoder: StringDecoder;
  /** Output that arrived while the attach was completing (delivered right after it returns). */
  buffer: Array<{ offset: number; data: Buffer }> | null;
}

interface LivePane {
  info: PaneInfo;
  state: PaneState;
  /** The process exited (or its host died): refuses input from now on. */
  exiting: boolean;
  hooks: boolean;
  subscribers: Set<Subscriber>;
  waiter: ActivityWaiter;
  quietTimer: NodeJS.Timeout | null;
  lastUserInputAt: number;
  faultJournaledAt: number;
  faultsUnjournaled: number;
  lastFault: { message: string; name: string } | null;
  faultCount: number;
  /** The host's flow counters at exit. */
  exitStats: FlowStats | null;
  persist: Promise<unknown>;
  exited: Promise<void>;
  resolveExit: () => void;
}

export interface PaneManagerDeps {
  /** The Pane rows. */
  store: PaneStore;
  journal: EventJournal;
  agents: AgentProfiles;
  home: string;
  url: () => string;
  /** The pane host: the process that runs the PTYs (server/panehost/client.ts). */
  host: PaneHostPort;
  /** A task still pending is not ready for prompts (AGENT_NOT_READY). */
  taskState?: (taskId: string) => string | null;
  /**
   * Called after every lifecycle transition (the task engine listens here). `lost` is set when the
   * pane "exited" because its process was lost with the pane host, not because it ended.
   */
  onTransition?: (info: PaneInfo, state: PaneState, effect: Extract<Effect, { kind: "transition" }>, lost?: string) => void;
  /** Scrollback lines per pane (YARD_SCROLLBACK_LINES); MIN_SCROLLBACK..MAX_SCROLLBACK, default MIN_SCROLLBACK. */
  scrollbackLines?: number;
  /** Bytes read but not parsed above which the host pauses a pane's PTY, and below which it resumes (host defaults otherwise). */
  backpressure?: { highBytes: number; lowBytes: number };
}

const gone = (e: unknown) => e instanceof YardError && (e.code === "PANE_EXITED" || e.code === "NOT_FOUND");

export class PaneManager {
  private readonly live = new Map<string, LivePane>();
  /** Spawns whose host reply has not been handled yet: host events for them wait on these. */
  private readonly spawning = new Map<string, Promise<unknown>>();
  private readonly queue = new SubmitQueue();
  private readonly binDir: string;
  private readonly scrollback: number;
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
    const bp = deps.backpressure;
    if (bp && !(bp.lowBytes >= 0 && bp.highBytes > bp.lowBytes)) throw new YardError("BAD_PARAMS", "backpressure needs 0 <= lowBytes < highBytes", { ...bp });
    this.screens = new FinalScreenStore(paths(deps.home).screens);
    this.installYardShim();
    deps.host.events = {
      output: (id, offset, data) => this.onOutput(id, offset, data),
      activity: (id, at) => this.onActivity(id, at),
      fault: (id, f) => this.onFault(id, f),
      resync: (id) => {
        for (const s of this.live.get(id)?.subscribers ?? []) s.listener.resync?.();
      },
      hook: (h) => this.onRelayedHook(h),
      exit: (e) => this.onHostExit(e),
      lost: (reason) => void this.onHostLost(reason),
      reattached: (panes) => void this.onHostReattached(panes),
    };
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
      parent = await this.deps.store.lineage(opts.parentPaneId);
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
    // The pane host's hook relay, for hooks posted while the server restarts (none where its path is too long).
    const relay = paths(this.deps.home).hookSocket;
    if (socketPathFits(relay)) env.YARD_HOOK_SOCKET = relay;
    if (parent) env.YARD_PARENT_PANE = parent.id;
    if (extras.taskId) env.YARD_TASK = extras.taskId;

    const rootPaneId = parent ? (parent.rootPaneId ?? parent.id) : id;
    const row = await this.deps.store.create({
      id,
      argv: JSON.stringify(argv),
      cwd,
      label: opts.label ?? null,
      parentPaneId: parent?.id ?? null,
      rootPaneId,
      relationship: opts.relationship ?? null,
      taskId: extras.taskId ?? null,
      agent: opts.agent ?? null,
      cols,
      rows,
      tokenHash: hash,
      sandboxed: Boolean(extras.sandbox),
    });

    let pid: number;
    const started = (async () => {
      // The sandbox hook point: what actually gets spawned (the recorded argv stays the agent's own).
      const run = extras.sandbox ? extras.sandbox.wrap(argv, env) : { argv, env };
      return this.deps.host.request<{ pid: number }>("spawn", {
        paneId: id,
        argv: run.argv,
        env: run.env,
        cwd,
        cols,
        rows,
        scrollback: this.scrollback,
        activity: !hooks,
        tokenHash: hash,
        meta: { hooks },
        ...(this.deps.backpressure ? { backpressure: this.deps.backpressure } : {}),
      });
    })();
    this.spawning.set(id, started.catch(() => {}));
    try {
      pid = (await started).pid;
    } catch (e) {
      this.spawning.delete(id);
      await this.deps.store.spawnFailed(id);
      await this.deps.journal.append("pane.exit", { paneId: id, taskId: extras.taskId, payload: { exitCode: 127, error: (e as Error).message } });
      if (e instanceof YardError && e.code !== "BAD_PARAMS") throw e;
      throw new YardError("BAD_PARAMS", `Could not start ${argv[0]}: ${(e as Error).message}`, { argv });
    }

    const pane = this.track({ ...toInfo(row), pid, live: true }, initialPaneState(), hooks);
    this.spawning.delete(id);
    void this.deps.journal.append("pane.spawned", { paneId: id, taskId: extras.taskId, payload: { argv, cwd, label: pane.info.label, parentPaneId: pane.info.parentPaneId, agent: pane.info.agent, sandboxed: pane.info.sandboxed, ...(extras.sandbox ? { network: extras.sandbox.network } : {}) } });
    this.apply(pane, { type: "spawned", at: Date.now() });
    this.queuePersist(pane, { pid });
    await pane.persist;
    if (!pane.hooks) this.armQuiescence(pane);
    return { ...pane.info };
  }

  /** The server-side record of a pane the host runs. */
  private track(info: PaneInfo, state: PaneState, hooks: boolean): LivePane {
    let resolveExit!: () => void;
    const pane: LivePane = {
      info,
      state,
      exiting: false,
      hooks,
      subscribers: new Set(),
      waiter: new ActivityWaiter(() => pane.state.activitySeq),
      quietTimer: null,
      lastUserInputAt: 0,
      faultJournaledAt: 0,
      faultsUnjournaled: 0,
      lastFault: null,
      faultCount: 0,
      exitStats: null,
      persist: Promise.resolve(),
      exited: new Promise<void>((r) => (resolveExit = r)),
      resolveExit: () => resolveExit(),
    };
    this.live.set(info.id, pane);
    return pane;
  }

  // ---- host events ---------------------------------------------------------------------

  /** A host event for a pane whose spawn reply is still being handled waits for it. */
  private async settled(id: string): Promise<LivePane | undefined> {
    const s = this.spawning.get(id);
    if (s) await s;
    return this.live.get(id);
  }

  /** Tells every viewer the pane ended (after any output still held for one that is attaching). */
  private notifyExit(pane: LivePane): void {
    for (const s of pane.subscribers) {
      deliverBuffered(s);
      s.listener.exit?.(pane.info);
    }
  }

  private onOutput(id: string, offset: number, data: Buffer): void {
    const pane = this.live.get(id);
    if (!pane) return;
    for (const s of pane.subscribers) {
      if (s.buffer) s.buffer.push({ offset, data });
      else if (offset >= s.from) {
        const text = s.decoder.write(data);
        if (text) s.listener.output?.(text);
      }
    }
  }

  private onActivity(id: string, at: number): void {
    const pane = this.live.get(id);
    if (!pane || pane.exiting || pane.hooks || pane.state.hooksSeen) return;
    if (at - pane.lastUserInputAt > ECHO_WINDOW_MS) this.apply(pane, { type: "output", at });
    this.armQuiescence(pane, at);
  }

  /** The mirror recovered from an xterm fault: journal it, at most once per FAULT_JOURNAL_MS. */
  private onFault(id: string, f: { message: string; name: string; count: number }): void {
    const pane = this.live.get(id);
    if (!pane) return;
    pane.lastFault = f;
    pane.faultCount = f.count;
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
      payload: { message: truncate(error?.message ?? "", FAULT_MESSAGE_MAX), error: error?.name ?? null, count: pane.faultCount, covers },
    });
  }

  /** A hook `yard hook` left with the host's relay while this server was unreachable. */
  private async onRelayedHook(h: HostHook): Promise<void> {
    await this.settled(h.paneId);
    const t = parsePaneToken(h.token);
    if (!t || t.paneId !== h.paneId || !(await this.authenticate(t.paneId, t.secret))) {
      await this.deps.journal.append("pane.hook", { paneId: h.paneId, payload: { event: h.event, ignored: "relayed with a token that is not valid" } }).catch(() => {});
      return;
    }
    await this.hook(h.paneId, { event: h.event, payload: h.payload }, { relayedAt: h.at });
  }

  /**
   * The process exited and the host read its output to the end and saved its final screen: mark
   * the pane exited (row, journal, listeners) and forget it. Until then reads came from the host's
   * live mirror; from now on from the saved screen.
   */
  private async onHostExit(e: HostExit): Promise<void> {
    const pane = await this.settled(e.paneId);
    if (!pane) return; // already recorded (the host re-sent an exit the server had handled)
    const id = pane.info.id;
    pane.exiting = true;
    this.clearQuiet(pane);
    try {
      if (e.screenError) {
        await this.deps.journal.append("pane.screen_unsaved", { paneId: id, taskId: pane.info.taskId, payload: { error: truncate(e.screenError, FAULT_MESSAGE_MAX) } }).catch(() => {});
      }
      if (pane.faultsUnjournaled > 0) this.journalFault(pane);
      pane.exitStats = e.stats;
      pane.info.exitCode = e.exitCode;
      pane.info.signal = e.signal;
      pane.info.exitedAt = new Date(e.at).toISOString();
      pane.info.live = false;
      this.apply(pane, { type: "exit", exitCode: e.exitCode, signal: e.signal || null, at: Date.now() });
      await pane.persist.catch(() => {});
      this.notifyExit(pane);
    } finally {
      this.forget(pane);
    }
  }

  private forget(pane: LivePane): void {
    this.live.delete(pane.info.id);
    pane.subscribers.clear();
    pane.resolveExit();
  }

  /** The pane host died: every pane it ran is gone, without a final screen. */
  private async onHostLost(reason: string): Promise<void> {
    await Promise.all([...this.live.values()].map((p) => this.lose(p, reason)));
  }

  /**
   * The connection to the host broke but the host is still there: panes it no longer has are
   * gone; viewers of the others missed output meanwhile and take a fresh snapshot.
   */
  private async onHostReattached(panes: HostPaneStatus[]): Promise<void> {
    const have = new Set(panes.map((p) => p.paneId));
    for (const p of this.live.values()) if (have.has(p.info.id)) for (const s of p.subscribers) s.listener.resync?.();
    await Promise.all([...this.live.values()].filter((p) => !have.has(p.info.id)).map((p) => this.lose(p, "pane_host_lost_pane")));
  }

  private async lose(pane: LivePane, reason: string): Promise<void> {
    if (pane.exiting) return;
    pane.exiting = true;
    this.clearQuiet(pane);
    const lastLifecycle = pane.state.lifecycle;
    try {
      await this.deps.journal.append("pane.lost", { paneId: pane.info.id, taskId: pane.info.taskId, payload: { lastLifecycle, reason } }).catch(() => {});
      pane.info.exitedAt = new Date().toISOString();
      pane.info.live = false;
      this.apply(pane, { type: "exit", exitCode: null, signal: null, at: Date.now() }, { lost: reason });
      await pane.persist.catch(() => {});
      this.notifyExit(pane);
    } finally {
      this.forget(pane);
    }
  }

  // ---- lifecycle -----------------------------------------------------------------------

  private apply(pane: LivePane, event: PaneEvent, opts: { lost?: string; hookExtra?: Record<string, unknown> } = {}) {
    const before = pane.state;
    const { state, effects } = reduce(before, event);
    pane.state = state;
    pane.info.lifecycle = state.lifecycle;
    pane.info.doneSeen = state.doneSeen;
    if (state.hooksSeen && !before.hooksSeen) {
      this.queuePersist(pane, {});
      this.clearQuiet(pane);
      // Hooks are the truth from now on: the host can stop sending activity ticks.
      if (!pane.hooks) void this.deps.host.request("configure", { paneId: pane.info.id, activity: false }).catch(() => {});
    }
    Object.assign(pane.info, screenFields(state));
    for (const effect of effects) {
      if (effect.kind === "transition") {
        this.queuePersist(pane, {});
        void this.deps.journal.append("pane.lifecycle", {
          paneId: pane.info.id,
          taskId: pane.info.taskId,
          payload: { from: effect.from, to: effect.to, seq: effect.seq, cause: effect.cause, exitCode: state.exitCode, lastMessage: effect.to === "done" ? state.lastMessage ?? null : undefined, ...(opts.lost ? { lost: opts.lost } : {}) },
        });
        for (const s of pane.subscribers) s.listener.lifecycle?.({ ...pane.info });
        this.deps.onTransition?.({ ...pane.info }, state, effect, opts.lost);
      } else if (effect.kind === "journal" && effect.type !== "pane.lifecycle") {
        const payload = effect.type === "pane.hook" && opts.hookExtra ? { ...effect.data, ...opts.hookExtra } : effect.data;
        void this.deps.journal.append(effect.type, { paneId: pane.info.id, taskId: pane.info.taskId, payload });
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
      hooksSeen: pane.state.hooksSeen,
      exitCode: pane.state.exitCode,
      signal: typeof pane.state.signal === "number" ? pane.state.signal : null,
      exitedAt: pane.state.lifecycle === "exited" ? new Date() : undefined,
      // A pane's token dies with its process.
      ...(pane.state.lifecycle === "exited" ? { tokenHash: null } : {}),
      ...extra,
    };
    const run = () => this.deps.store.saveState(pane.info.id, data);
    pane.persist = pane.persist.then(run, run);
  }

  private clearQuiet(pane: LivePane) {
    if (pane.quietTimer) clearTimeout(pane.quietTimer);
    pane.quietTimer = null;
  }

  /** Quiescent QUIESCENCE_MS after the last output (`from`, default now) unless more comes. */
  private armQuiescence(pane: LivePane, from = Date.now()) {
    this.clearQuiet(pane);
    pane.quietTimer = setTimeout(() => {
      pane.quietTimer = null;
      if (!pane.state.hooksSeen && !pane.exiting) this.apply(pane, { type: "quiescent", at: Date.now() });
    }, Math.max(0, QUIESCENCE_MS - (Date.now() - from)));
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

  /** A hook post from `yard hook` (pane token), an admin, or the host's relay. */
  async hook(paneId: string, raw: unknown, opts: { relayedAt?: number } = {}): Promise<{ lifecycle: Lifecycle; seq: number }> {
    const post = parseHookPost(raw);
    const pane = this.live.get(paneId);
    if (!pane) {
      const row = await this.deps.store.row(paneId);
      if (!row) throw new YardError("NOT_FOUND", `No pane ${paneId}`, { paneId });
      await this.deps.journal.append("pane.hook", { paneId, taskId: row.taskId, payload: { event: post.event, ignored: "pane is not running" } });
      return { lifecycle: row.lifecycle as Lifecycle, seq: row.lifecycleSeq };
    }
    this.clearQuiet(pane);
    const at = opts.relayedAt ?? Date.now();
    this.apply(pane, { type: "hook", name: post.event, payload: post.payload, at }, opts.relayedAt !== undefined ? { hookExtra: { relayed: true } } : {});
    return { lifecycle: pane.state.lifecycle, seq: pane.state.seq };
  }

  // ---- reads ---------------------------------------------------------------------------

  private noScreen(id: string): YardError {
    return new YardError("NOT_FOUND", `Pane ${id} has no screen (it did not run to its exit on this server's data dir)`, { paneId: id });
  }

  /** Runs a read on the pane's saved final screen; a rebuilt mirror evicted under it is rebuilt once. */
  private async withSaved<T>(id: string, fn: (m: TerminalMirror) => Promise<T>): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      const mirror = await this.screens.mirror(id);
      if (!mirror) throw this.noScreen(id);
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
    if (this.live.has(id)) {
      try {
        const r = await this.deps.host.request<Omit<ReadReply, "lifecycle">>("read", { paneId: id, mode, lines: opts.lines, cursor: opts.cursor, reader: opts.reader });
        return { text: r.text, cursor: r.cursor, start: r.start, dropped: r.dropped, lifecycle: info.lifecycle };
      } catch (e) {
        if (!gone(e)) throw e; // exited meanwhile: its final screen is saved
      }
    }
    return this.withSaved(id, async (mirror) => {
      if (mode === "delta") {
        const d = await mirror.delta(opts.cursor ?? 0, opts.reader ? { reader: opts.reader } : undefined);
        return { text: d.text, cursor: d.cursor, start: d.start, dropped: d.dropped, lifecycle: info.lifecycle };
      }
      const r = mode === "tail" ? await mirror.tail(opts.lines ?? 50) : await mirror.screen();
      return { text: r.text, cursor: r.cursor, start: r.cursor, dropped: null, lifecycle: info.lifecycle };
    });
  }

  async snapshot(id: string): Promise<{ data: string; cols: number; rows: number }> {
    if (this.live.has(id)) {
      try {
        return await this.deps.host.request<{ data: string; cols: number; rows: number }>("snapshot", { paneId: id });
      } catch (e) {
        if (!gone(e)) throw e;
      }
    }
    const saved = await this.screens.load(id);
    if (!saved) throw this.noScreen(id);
    return { data: saved.data, cols: saved.cols, rows: saved.rows };
  }

  /** Backpressure counters of a pane (live from the host; for a pane being reported exited, as at its exit). */
  async flowStats(id: string): Promise<FlowStats | null> {
    const pane = this.live.get(id);
    if (!pane) return null;
    if (pane.exitStats) return pane.exitStats;
    return this.deps.host.request<FlowStats>("stats", { paneId: id });
  }

  // ---- input ---------------------------------------------------------------------------

  private requireLive(id: string): LivePane {
    const pane = this.live.get(id);
    if (pane && !pane.exiting) return pane;
    throw new YardError("PANE_EXITED", `Pane ${id} is not running`, { paneId: id });
  }

  private write(pane: LivePane, data: string): Promise<unknown> {
    return this.deps.host.request("write", { paneId: pane.info.id }, { body: { field: "data", data } });
  }

  /** Raw keystrokes from a person (browser, `yard pane send-keys`). */
  async sendKeys(id: string, data: string, opts: { enter?: boolean } = {}): Promise<{ bytes: number }> {
    await this.get(id); // NOT_FOUND before PANE_EXITED
    const pane = this.requireLive(id);
    pane.lastUserInputAt = Date.now();
    this.apply(pane, { type: "input", at: Date.now() });
    const writes = [this.write(pane, data)];
    if (opts.enter) writes.push(this.write(pane, "\r"));
    await Promise.all(writes);
    return { bytes: Buffer.byteLength(data) + (opts.enter ? 1 : 0) };
  }

  async submit(id: string, text: string, opts: { enterDelayMs?: number; stallMs?: number } = {}): Promise<SubmitResult & { lifecycle: Lifecycle }> {
    const info = await this.get(id);
    const pane = this.live.get(id);
    if (!pane || pane.exiting) throw new YardError("PANE_EXITED", `Pane ${id} has exited`, { paneId: id, state: pane ? "exited" : info.lifecycle });
    const result = await this.queue.submit(id, await this.submitTarget(pane, { taskMayBePending: false }), text, opts);
    await this.deps.journal.append("pane.submitted", { paneId: id, taskId: pane.info.taskId, payload: { bytes: Buffer.byteLength(text), activitySeq: result.activitySeq } });
    return { ...result, lifecycle: pane.state.lifecycle };
  }

  /** Submit used by the task engine while the pane's task is still pending: skips that one check. */
  async submitForTask(id: string, text: string, opts: { enterDelayMs?: number; stallMs?: number; signal?: AbortSignal } = {}): Promise<SubmitResult> {
    const pane = this.requireLive(id);
    return this.queue.submit(id, await this.submitTarget(pane, { taskMayBePending: true }), text, opts);
  }

  /** The gate's view of a pane. The program's bracketed-paste mode is asked of the host first (a read: no byte written). */
  private async submitTarget(pane: LivePane, opts: { taskMayBePending: boolean }): Promise<SubmitTarget> {
    const modes = await this.deps.host.request<{ bracketedPaste: boolean }>("modes", { paneId: pane.info.id }).catch((e: unknown) => {
      if (gone(e)) return { bracketedPaste: false }; // exited: the gate refuses with PANE_EXITED
      throw e;
    });
    return {
      lifecycle: () => pane.state.lifecycle,
      taskPending: () => !opts.taskMayBePending && pane.info.taskId !== null && this.deps.taskState?.(pane.info.taskId) === "pending",
      activitySeq: () => pane.state.activitySeq,
      bracketedPaste: () => modes.bracketedPaste,
      write: (data) => void this.write(pane, data).catch(() => {}),
      waitForActivity: (after, timeout, signal) => pane.waiter.wait(after, timeout, signal),
    };
  }

  async resize(id: string, cols: number, rows: number): Promise<PaneInfo> {
    if (!Number.isInteger(cols) || !Number.isInteger(rows) || cols < 10 || cols > 1000 || rows < 4 || rows > 500) {
      throw new YardError("BAD_PARAMS", "cols must be 10..1000 and rows 4..500", { cols, rows });
    }
    const pane = this.requireLive(id);
    if (pane.info.cols === cols && pane.info.rows === rows) return { ...pane.info };
    await this.deps.host.request("resize", { paneId: id, cols, rows });
    pane.info.cols = cols;
    pane.info.rows = rows;
    await this.deps.store.resized(id, cols, rows);
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
      await this.deps.store.markSeen(id);
      await this.deps.journal.append("pane.seen", { paneId: id, taskId: info.taskId, payload: {} });
    }
    return { ...info, doneSeen: true };
  }

  /** Ends the pane's whole process group: SIGTERM, then SIGKILL after a grace period. */
  async kill(id: string, opts: { graceMs?: number } = {}): Promise<PaneInfo> {
    const info = await this.get(id);
    const pane = this.live.get(id);
    if (!pane) return info;
    if (!pane.exiting) {
      // If the host is gone, its loss ends the pane instead.
      await this.deps.host.request("kill", { paneId: id, graceMs: opts.graceMs ?? KILL_GRACE_MS }).catch(() => {});
    }
    await pane.exited;
    return this.get(id);
  }

  // ---- queries -------------------------------------------------------------------------

  /**
   * The pane a pane token stands for, or null: the secret must match the stored hash and the pane
   * must be running (a token dies with its pane).
   */
  async authenticate(paneId: string, secret: string): Promise<{ id: string; taskId: string | null } | null> {
    const live = this.live.get(paneId);
    if (!live || live.state.lifecycle === "exited") return null;
    const row = await this.deps.store.credentials(paneId);
    if (!row?.tokenHash || !safeEqual(row.tokenHash, hashSecret(secret))) return null;
    return { id: row.id, taskId: row.taskId };
  }

  async get(id: string): Promise<PaneInfo> {
    const pane = this.live.get(id);
    if (pane) return { ...pane.info };
    const row = await this.deps.store.row(id);
    if (!row) throw new YardError("NOT_FOUND", `No pane ${id}`, { paneId: id });
    return toInfo(row);
  }

  /** How many panes were ever recorded (one COUNT, not a read of every row). */
  count(): Promise<number> {
    return this.deps.store.count();
  }

  async list(filter: { taskId?: string; liveOnly?: boolean } = {}): Promise<PaneInfo[]> {
    const rows = await this.deps.store.list({ taskId: filter.taskId });
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
    const rows = await this.deps.store.attentionRows();
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
   * output byte is the first byte not in that snapshot (the host tags output with its offset in
   * the pane's stream). Output that arrives while this completes is delivered right after it
   * returns, in order.
   */
  async attach(id: string, listener: PaneListener): Promise<{ snapshot: { data: string; cols: number; rows: number }; pane: PaneInfo; detach: () => void }> {
    const pane = this.live.get(id);
    if (!pane) {
      const info = await this.get(id);
      return { snapshot: await this.snapshot(id).catch(() => ({ data: "", cols: info.cols, rows: info.rows })), pane: info, detach: () => {} };
    }
    const sub: Subscriber = { listener, from: Number.POSITIVE_INFINITY, decoder: new StringDecoder("utf8"), buffer: [] };
    pane.subscribers.add(sub);
    const detach = () => {
      if (!pane.subscribers.delete(sub)) return;
      if (pane.subscribers.size === 0 && !pane.exiting) void this.deps.host.request("detach", { paneId: id }).catch(() => {});
    };
    let snapshot: { data: string; cols: number; rows: number };
    try {
      const a = await this.deps.host.request<{ data: string; cols: number; rows: number; offset: number; tail: number[] }>("attach", { paneId: id });
      sub.from = a.offset;
      if (a.tail.length) sub.decoder.write(Buffer.from(a.tail)); // the start of a character the snapshot holds
      snapshot = { data: a.data, cols: a.cols, rows: a.rows };
    } catch (e) {
      if (!gone(e)) {
        detach();
        throw e;
      }
      // Exiting: its final screen is saved; the listener still gets the exit.
      snapshot = await this.snapshot(id).catch(() => ({ data: "", cols: pane.info.cols, rows: pane.info.rows }));
    }
    setImmediate(() => {
      if (pane.subscribers.has(sub)) deliverBuffered(sub);
      sub.buffer = null;
    });
    return { snapshot, pane: { ...pane.info }, detach };
  }

  // ---- start-up and shutdown -----------------------------------------------------------

  /**
   * After a (re)start: every pane the host still runs is reattached with its state rebuilt from
   * its row (lifecycle, seq, doneSeen, hooksSeen); exits the host recorded while no server was
   * attached follow as events (ready()). Panes recorded as running that the host does not have
   * are gone: marked exited and journaled `pane.lost`. Returns each lost pane's last lifecycle.
   */
  async recover(): Promise<Map<string, string>> {
    const held = new Map(this.deps.host.hello.panes.map((p) => [p.paneId, p]));
    const stale = await this.deps.store.unexited();
    const lost = new Map<string, string>();
    for (const row of stale) {
      const h = held.get(row.id);
      held.delete(row.id);
      if (h) {
        const lifecycle = (LIFECYCLES as readonly string[]).includes(row.lifecycle) ? (row.lifecycle as Lifecycle) : "unknown";
        const state: PaneState = { ...initialPaneState(), lifecycle, seq: row.lifecycleSeq, doneSeen: row.doneSeen, hooksSeen: row.hooksSeen, lastTransitionAt: row.updatedAt.getTime() };
        const pane = this.track({ ...toInfo(row), pid: h.pid, cols: h.cols, rows: h.rows, live: true }, state, h.meta.hooks === true);
        await this.deps.journal.append("pane.reattached", { paneId: row.id, taskId: row.taskId, payload: { pid: h.pid, lifecycle, hostState: h.state } });
        if (!pane.hooks && !state.hooksSeen && h.state === "running") this.armQuiescence(pane);
        continue;
      }
      await this.deps.store.markLost(row.id);
      await this.deps.journal.append("pane.lost", { paneId: row.id, taskId: row.taskId, payload: { lastLifecycle: row.lifecycle, reason: "server_restart" } });
      lost.set(row.id, row.lifecycle);
    }
    // Processes the host runs that no row says are running: nobody can reach them; end them.
    for (const h of held.values()) if (h.state === "running") void this.deps.host.request("kill", { paneId: h.paneId, graceMs: 1000 }).catch(() => {});
    return lost;
  }

  /** Where the server must listen so live panes' YARD_URL stays valid, when the host runs panes. */
  reattachAddress(): { url: string; host: string; port: number } | null {
    return this.live.size > 0 ? this.deps.host.hello.serving : null;
  }

  /** Panes reattached to (running in the host). */
  get liveCount(): number {
    return this.live.size;
  }

  /**
   * Stops serving panes. `stopPanes`: end every pane and the host (a full stop); otherwise leave
   * them running in the host for the next server (an upgrade or restart).
   */
  async shutdown(opts: { stopPanes?: boolean } = {}): Promise<void> {
    this.closing = true;
    for (const p of this.live.values()) this.clearQuiet(p);
    if (opts.stopPanes ?? true) {
      await Promise.all([...this.live.keys()].map((id) => this.kill(id, { graceMs: 1000 }).catch(() => {})));
      await this.deps.host.shutdown();
    } else {
      await this.deps.host.detach();
    }
    this.screens.close();
  }
}

/** Hands a viewer the output that arrived while its attach was completing (from its offset on). */
function deliverBuffered(sub: Subscriber): void {
  if (!sub.buffer) return;
  const buffered = sub.buffer;
  sub.buffer = []; // still attaching: later output keeps queueing behind this
  for (const b of buffered) {
    if (b.offset < sub.from) continue;
    const text = sub.decoder.write(b.data);
    if (text) sub.listener.output?.(text);
  }
}

function truncate(s: string, max: number): string {
  return s.length <= max ? s : `${s.slice(0, max - 1)}…`;
}

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
