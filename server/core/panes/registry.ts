// The pane registry: the in-memory record of every pane this server serves live (what callers see
// of it, its lifecycle state, its viewers, quiescence timer, fault counters and exit promise), the
// spawns whose host reply is still being handled, and the lookups that answer from a live pane
// when there is one and from its row otherwise (get, list, attention, the pane-token check).
import { PANE_ROLES, type PaneRole, type SandboxOf } from "../agents/roles";
import type { StringDecoder } from "node:string_decoder";
import { hashSecret, safeEqual } from "../../security/token";
import type { PaneRow, PaneStore } from "../../stores/panes";
import { YardError } from "../errors";
import { isTerminal } from "../tasks/state";
import { type AttentionItem, rankAttention } from "./attention";
import type { FlowStats } from "./host-port";
import { type BlockedReason, blockedReason, type Lifecycle, type PaneState } from "./lifecycle";
import { ActivityWaiter } from "./submit-gate";
import type { z } from "zod";
import type { Same } from "../../wire/common";
import type { lifecycle, paneInfo } from "../../wire/panes";

/** What callers see of a pane: the wire's shape (server/wire/panes.ts). */
export type PaneInfo = z.infer<typeof paneInfo>;

// The wire's lifecycle and blocked-reason enums are the reducer's (lifecycle.ts owns them).
const lifecycleMatches: [
  Same<z.infer<typeof lifecycle>, Lifecycle>,
  Same<PaneInfo["blockedReason"], BlockedReason | null>,
] = [true, true];
void lifecycleMatches;

/**
 * The pane a pane token stands for, as the role gates see it: its task, its role, and whether it
 * runs in the OS sandbox (with the host's network or not; a sandboxed pane whose network is not
 * known here, such as one reattached after a server restart, counts as having none).
 */
export interface PaneCaller {
  id: string;
  taskId: string | null;
  role: PaneRole;
  sandbox: SandboxOf | null;
}

export interface PaneListener {
  output?(data: string): void;
  lifecycle?(info: PaneInfo): void;
  exit?(info: PaneInfo): void;
  /** Output was dropped on the way (the server fell behind): take a fresh snapshot. */
  resync?(): void;
}

/** One live viewer: output at or after byte `from` of the pane, decoded as it arrives. */
export interface Subscriber {
  listener: PaneListener;
  from: number;
  decoder: StringDecoder;
  /** Output that arrived while the attach was completing (delivered right after it returns). */
  buffer: Array<{ offset: number; data: Buffer }> | null;
}

export interface LivePane {
  info: PaneInfo;
  state: PaneState;
  /** The process exited (or its host died): refuses input from now on. */
  exiting: boolean;
  hooks: boolean;
  /** Its sandbox has the host's network (null: unsandboxed, or not known). */
  sandboxNetwork: boolean | null;
  /** Its setup commands run before the agent: output and quiet are not the agent's (no screen heuristics). */
  settingUp: boolean;
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

export class PaneRegistry {
  private readonly live = new Map<string, LivePane>();
  /** Spawns whose host reply has not been handled yet: host events for them wait on these. */
  private readonly spawning = new Map<string, Promise<unknown>>();

  constructor(private readonly store: PaneStore) {}

  /** Starts the server-side record of a pane the host runs. */
  track(
    info: PaneInfo,
    state: PaneState,
    hooks: boolean,
    opts: { sandboxNetwork?: boolean; settingUp?: boolean } = {},
  ): LivePane {
    let resolveExit!: () => void;
    const pane: LivePane = {
      info,
      state,
      exiting: false,
      hooks,
      sandboxNetwork: info.sandboxed ? (opts.sandboxNetwork ?? null) : null,
      settingUp: opts.settingUp ?? false,
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

  /** The pane ended: drop it and its viewers, and resolve its exit promise. */
  forget(pane: LivePane): void {
    this.live.delete(pane.info.id);
    pane.subscribers.clear();
    pane.resolveExit();
  }

  find(id: string): LivePane | undefined {
    return this.live.get(id);
  }

  has(id: string): boolean {
    return this.live.has(id);
  }

  get size(): number {
    return this.live.size;
  }

  /** Every live pane, as a list taken now. */
  panes(): LivePane[] {
    return [...this.live.values()];
  }

  /** A pane that still takes input, or PANE_EXITED. */
  requireLive(id: string): LivePane {
    const pane = this.live.get(id);
    if (pane && !pane.exiting) return pane;
    throw new YardError("PANE_EXITED", `Pane ${id} is not running`, { paneId: id });
  }

  /** A spawn asked the host for its process; `reply` settles once that is handled. */
  spawnStarted(id: string, reply: Promise<unknown>): void {
    this.spawning.set(id, reply);
  }

  spawnHandled(id: string): void {
    this.spawning.delete(id);
  }

  /** A host event for a pane whose spawn reply is still being handled waits for it. */
  async settled(id: string): Promise<LivePane | undefined> {
    const s = this.spawning.get(id);
    if (s) await s;
    return this.live.get(id);
  }

  /** The live pane's info, else its row's; NOT_FOUND when neither. */
  async info(id: string): Promise<PaneInfo> {
    const pane = this.live.get(id);
    if (pane) return { ...pane.info };
    const row = await this.store.row(id);
    if (!row) throw new YardError("NOT_FOUND", `No pane ${id}`, { paneId: id });
    return toInfo(row);
  }

  async list(filter: { taskId?: string; liveOnly?: boolean } = {}): Promise<PaneInfo[]> {
    const rows = await this.store.list({ taskId: filter.taskId });
    const out = rows.map((r) => (this.live.has(r.id) ? { ...this.live.get(r.id)!.info } : toInfo(r)));
    return filter.liveOnly ? out.filter((p) => p.live) : out;
  }

  /**
   * The pane a pane token stands for, or null: the secret must match the stored hash and the pane
   * must be running (a token dies with its pane). A pane whose spawn reply is still being handled
   * is waited for: its program can call before the server has recorded it live (a setup step's
   * first progress report, on a loaded machine).
   */
  async authenticate(paneId: string, secret: string): Promise<PaneCaller | null> {
    const live = this.live.get(paneId) ?? (await this.settled(paneId));
    if (!live || live.state.lifecycle === "exited") return null;
    const row = await this.store.credentials(paneId);
    if (!row?.tokenHash || !safeEqual(row.tokenHash, hashSecret(secret))) return null;
    return {
      id: row.id,
      taskId: row.taskId,
      role: (PANE_ROLES as readonly string[]).includes(row.role) ? (row.role as PaneRole) : "worker",
      sandbox: live.info.sandboxed ? { network: live.sandboxNetwork === true } : null,
    };
  }

  async attention(
    opts: { limit?: number; taskStates?: Map<string, { state: string; at: number }> } = {},
  ): Promise<AttentionItem[]> {
    const rows = await this.store.attentionRows();
    const candidates = rows.map((r) => {
      const live = this.live.get(r.id);
      const task = r.taskId ? opts.taskStates?.get(r.taskId) : undefined;
      return {
        paneId: r.id,
        taskId: r.taskId,
        lifecycle: (live?.state.lifecycle ?? r.lifecycle) as Lifecycle,
        // A worker whose task reached a terminal state is the board's Review, not attention.
        // A plain shell's "done" is only the screen going quiet (no hooks): not worth a ping.
        doneSeen:
          (live?.state.doneSeen ?? r.doneSeen) ||
          (task ? isTerminal(task.state) : false) ||
          (!r.taskId && live !== undefined && !live.hooks && !live.state.hooksSeen),
        exitCode: live?.state.exitCode ?? r.exitCode,
        signal: live ? live.state.signal : r.signal,
        stopFailed: live?.state.lastStop?.failed ?? false,
        blockedReason: live ? blockedReason(live.state) : null,
        message:
          live?.state.dialog?.title ??
          (live?.state.lastStop?.failed ? (live.state.lastMessage ?? live.state.lastStop.error) : undefined) ??
          live?.state.note?.text ??
          null,
        taskState: task?.state ?? null,
        taskStateAt: task?.at ?? null,
        lastTransitionAt: live?.state.lastTransitionAt ?? (r.exitedAt ?? r.updatedAt).getTime(),
      };
    });
    return rankAttention(candidates, { limit: opts.limit });
  }
}

/** What a pane's row says of it (a pane not running here: no live screen state). */
export function toInfo(r: PaneRow): PaneInfo {
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
    runner: r.runner,
    blockedReason: r.lifecycle === "blocked" ? "prompt" : null,
    dialog: null,
    note: null,
  };
}
