// The pane manager: the server's side of every pane, and the one class the rest of the server
// uses for panes. It builds the parts below over one pane host (the long-lived process that owns
// the PTYs and their rendered mirrors, server/panehost/), routes the host's events to them, and
// handles a person's and the orchestrator's input itself (keystrokes, gated submits, resizes,
// kills):
//   registry.ts          the live panes in memory, and lookups over them and their rows
//   spawner.ts           creating a pane (validation, environment and token, row, host spawn)
//   reads.ts             screen/tail/delta reads and snapshots via the host or the final screen; viewers
//   lifecycle-driver.ts  hooks, screen observations, activity, exits → reducer → row, journal, fan-out
//   recovery.ts          after a server (re)start: reattach to the host's panes, fail stale rows
// Pane rows are read and written through the pane store (server/stores/panes.ts). Framework-free:
// no tRPC, socket.io or Next.
import { paths } from "../../config";
import type { PaneStore } from "../../stores/panes";
import type { AgentProfiles } from "../agents/profiles";
import { YardError } from "../errors";
import type { EventJournal } from "../events/journal";
import type { AttentionItem } from "./attention";
import { FinalScreenStore } from "./final-screen";
import type { FlowStats, PaneHostPort } from "./host-port";
import type { Launch } from "./launch";
import type { Lifecycle, PaneState, ScreenObservation } from "./lifecycle";
import { LifecycleDriver, type SetupListener, type TransitionListener } from "./lifecycle-driver";
import { MIN_SCROLLBACK, scrollbackProblem } from "./scrollback-limits";
import { paneGone, PaneReads, type ReadMode, type ReadReply } from "./reads";
import { recoverPanes } from "./recovery";
import { type LivePane, type PaneCaller, type PaneInfo, type PaneListener, PaneRegistry } from "./registry";
import { PaneSpawner, type SpawnExtras, type SpawnInput } from "./spawner";
import { SubmitQueue, type SubmitResult, type SubmitTarget } from "./submit-gate";

/** A background step's failure, printed (the server goes on). */
const said = (what: string) => (e: unknown) =>
  console.error(`switchyard: ${what} failed: ${(e as Error)?.stack ?? String(e)}`);

export type { PaneInfo, PaneListener } from "./registry";
export type { ReadMode, ReadReply } from "./reads";
export { spawnInput, type SpawnExtras, type SpawnInput } from "./spawner";

const KILL_GRACE_MS = 2000;
/** How often a runner pane's screen is copied to the board (its last screen if the runner is lost). */
const RUNNER_SCREEN_MS = 5000;

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
  onTransition?: TransitionListener;
  /** The setup wrapper's progress posts of a task's pane (the task engine listens). */
  onSetup?: SetupListener;
  /** Scrollback lines per pane (YARD_SCROLLBACK_LINES); MIN_SCROLLBACK..MAX_SCROLLBACK, default MIN_SCROLLBACK. */
  scrollbackLines?: number;
  /** Bytes read but not parsed above which the host pauses a pane's PTY, and below which it resumes (host defaults otherwise). */
  backpressure?: { highBytes: number; lowBytes: number };
}

export class PaneManager {
  private readonly registry: PaneRegistry;
  private readonly lifecycle: LifecycleDriver;
  private readonly reads: PaneReads;
  private readonly spawner: PaneSpawner;
  private readonly queue = new SubmitQueue();
  /** Final screens of exited panes (see final-screen.ts). */
  readonly screens: FinalScreenStore;
  private closing = false;

  constructor(private readonly deps: PaneManagerDeps) {
    const lines = deps.scrollbackLines ?? MIN_SCROLLBACK;
    const problem = scrollbackProblem(lines);
    if (problem) {
      throw new YardError("BAD_PARAMS", `scrollback ${problem}`, { scrollbackLines: lines });
    }
    const bp = deps.backpressure;
    if (bp && !(bp.lowBytes >= 0 && bp.highBytes > bp.lowBytes))
      throw new YardError("BAD_PARAMS", "backpressure needs 0 <= lowBytes < highBytes", { ...bp });
    const { store, journal, host } = deps;
    this.screens = new FinalScreenStore(paths(deps.home).screens);
    this.registry = new PaneRegistry(store);
    this.lifecycle = new LifecycleDriver({
      store,
      journal,
      host,
      registry: this.registry,
      onTransition: (info, state, t, lost) => {
        // A runner's pane saves its final screen on the runner: the board keeps its own copy, taken
        // at each change, which is what it shows once the pane is gone (or its runner lost).
        if (info.runner && !lost && t.to !== "exited") void this.checkpointScreen(info.id);
        deps.onTransition?.(info, state, t, lost);
      },
      onSetup: deps.onSetup,
    });
    this.reads = new PaneReads({ host, registry: this.registry, screens: this.screens });
    this.spawner = new PaneSpawner({
      store,
      journal,
      agents: deps.agents,
      home: deps.home,
      url: deps.url,
      host,
      registry: this.registry,
      lifecycle: this.lifecycle,
      scrollback: lines,
      backpressure: bp,
      closing: () => this.closing,
    });
    host.events = {
      output: (id, offset, data) => this.reads.output(id, offset, data),
      activity: (id, at) => this.lifecycle.activity(id, at),
      fault: (id, f) => this.lifecycle.fault(id, f),
      resync: (id) => this.reads.resync(id),
      hook: (h) => this.lifecycle.relayedHook(h),
      exit: (e) => this.lifecycle.hostExit(e),
      // Called from timers and socket events: a failure is said, never left to end the server.
      lost: (reason, scope) => void this.lifecycle.hostLost(reason, scope).catch(said("recording lost panes")),
      reattached: (panes, scope) =>
        void this.lifecycle.hostReattached(panes, scope).catch(said("comparing reattached panes")),
    };
  }

  /** Every few seconds the live runner panes' screens are copied too (checkpointScreen). */
  private readonly checkpoints = setInterval(() => {
    for (const p of this.registry.panes()) if (p.info.runner && !p.exiting) void this.checkpointScreen(p.info.id);
  }, RUNNER_SCREEN_MS).unref();

  /** The pane's screen now, saved as its final screen until a later one (runner panes). */
  private async checkpointScreen(id: string): Promise<void> {
    try {
      const s = await this.deps.host.request("snapshot", { paneId: id }, { timeoutMs: 10_000 });
      await this.screens.save(id, {
        cols: s.cols,
        rows: s.rows,
        scrollback: 0,
        firstLine: 0,
        head: s.rows,
        altScreen: false,
        data: s.data,
        views: [],
      });
    } catch {
      // Gone or out of reach: the previous copy stays.
    }
  }

  // ---- spawn ---------------------------------------------------------------------------

  /** The PATH a pane's agent finds its programs on (`yard` first). */
  panePathForAgents(): string {
    return this.spawner.panePath();
  }

  /** What a spawn would run; refuses (BAD_PARAMS, NOT_FOUND) before anything is created. */
  resolveLaunch(opts: { agent?: string; argv?: string[] }): Promise<Launch> {
    return this.spawner.resolveLaunch(opts);
  }

  spawn(input: SpawnInput, extras: SpawnExtras = {}): Promise<PaneInfo> {
    return this.spawner.spawn(input, extras);
  }

  // ---- lifecycle -----------------------------------------------------------------------

  /**
   * What a screen reader saw on a live pane (core/agents/screen-watch.ts): a start-up dialog,
   * the dialog gone, the input box ready, a failed turn, a note. Runs the lifecycle reducer like
   * a hook; a pane that is not running ignores it.
   */
  observe(paneId: string, observation: ScreenObservation): void {
    this.lifecycle.observe(paneId, observation);
  }

  /** Whether the pane's setup commands run (no screen heuristics meanwhile) or ended. */
  markSetup(paneId: string, running: boolean): void {
    this.lifecycle.setup(paneId, running);
  }

  /** A hook post from `yard hook` (pane token), an admin, or the host's relay. */
  hook(
    paneId: string,
    raw: unknown,
    opts: { relayedAt?: number } = {},
  ): Promise<{ lifecycle: Lifecycle; seq: number }> {
    return this.lifecycle.hook(paneId, raw, opts);
  }

  // ---- reads ---------------------------------------------------------------------------

  read(id: string, opts: { mode?: ReadMode; lines?: number; cursor?: number; reader?: string }): Promise<ReadReply> {
    return this.reads.read(id, opts);
  }

  snapshot(id: string): Promise<{ data: string; cols: number; rows: number }> {
    return this.reads.snapshot(id);
  }

  /** Backpressure counters of a pane (live from the host; for a pane being reported exited, as at its exit). */
  flowStats(id: string): Promise<FlowStats | null> {
    return this.reads.flowStats(id);
  }

  /**
   * A consistent start for a live viewer: the serialized screen, and a subscription whose first
   * output byte is the first byte not in that snapshot. Output that arrives while this completes
   * is delivered right after it returns, in order.
   */
  attach(
    id: string,
    listener: PaneListener,
  ): Promise<{ snapshot: { data: string; cols: number; rows: number }; pane: PaneInfo; detach: () => void }> {
    return this.reads.attach(id, listener);
  }

  // ---- input ---------------------------------------------------------------------------

  private write(pane: LivePane, data: string): Promise<unknown> {
    return this.deps.host.request("write", { paneId: pane.info.id, data });
  }

  /** Raw keystrokes from a person (browser, `yard pane send-keys`). */
  async sendKeys(id: string, data: string, opts: { enter?: boolean } = {}): Promise<{ bytes: number }> {
    await this.get(id); // NOT_FOUND before PANE_EXITED
    const pane = this.registry.requireLive(id);
    this.lifecycle.input(pane);
    const writes = [this.write(pane, data)];
    if (opts.enter) writes.push(this.write(pane, "\r"));
    await Promise.all(writes);
    return { bytes: Buffer.byteLength(data) + (opts.enter ? 1 : 0) };
  }

  async submit(
    id: string,
    text: string,
    opts: { enterDelayMs?: number; stallMs?: number } = {},
  ): Promise<SubmitResult & { lifecycle: Lifecycle }> {
    const info = await this.get(id);
    const pane = this.registry.find(id);
    if (!pane || pane.exiting)
      throw new YardError("PANE_EXITED", `Pane ${id} has exited`, {
        paneId: id,
        state: pane ? "exited" : info.lifecycle,
      });
    const result = await this.queue.submit(id, await this.submitTarget(pane, { taskMayBePending: false }), text, opts);
    await this.deps.journal.append("pane.submitted", {
      paneId: id,
      taskId: pane.info.taskId,
      payload: { bytes: Buffer.byteLength(text), activitySeq: result.activitySeq },
    });
    return { ...result, lifecycle: pane.state.lifecycle };
  }

  /** Submit used by the task engine while the pane's task is still pending: skips that one check. */
  async submitForTask(
    id: string,
    text: string,
    opts: { enterDelayMs?: number; stallMs?: number; signal?: AbortSignal } = {},
  ): Promise<SubmitResult> {
    const pane = this.registry.requireLive(id);
    return this.queue.submit(id, await this.submitTarget(pane, { taskMayBePending: true }), text, opts);
  }

  /** The gate's view of a pane. The program's bracketed-paste mode is asked of the host first (a read: no byte written). */
  private async submitTarget(pane: LivePane, opts: { taskMayBePending: boolean }): Promise<SubmitTarget> {
    const modes = await this.deps.host.request("modes", { paneId: pane.info.id }).catch((e: unknown) => {
      if (paneGone(e)) return { bracketedPaste: false }; // exited: the gate refuses with PANE_EXITED
      throw e;
    });
    return {
      lifecycle: () => pane.state.lifecycle,
      taskPending: () =>
        !opts.taskMayBePending && pane.info.taskId !== null && this.deps.taskState?.(pane.info.taskId) === "pending",
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
    const pane = this.registry.requireLive(id);
    if (pane.info.cols === cols && pane.info.rows === rows) return { ...pane.info };
    await this.deps.host.request("resize", { paneId: id, cols, rows });
    pane.info.cols = cols;
    pane.info.rows = rows;
    await this.deps.store.resized(id, cols, rows);
    return { ...pane.info };
  }

  /** Marks a done/exited pane as seen by the user (clears it from attention). */
  async markSeen(id: string): Promise<PaneInfo> {
    const pane = this.registry.find(id);
    if (pane) {
      this.lifecycle.apply(pane, { type: "viewed", at: Date.now() });
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
    const pane = this.registry.find(id);
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
  authenticate(paneId: string, secret: string): Promise<PaneCaller | null> {
    return this.registry.authenticate(paneId, secret);
  }

  /** How a live pane's process runs: in the OS sandbox ({ network }) or not (null); undefined when it does not run. */
  sandboxOf(id: string): { network: boolean } | null | undefined {
    const live = this.registry.find(id);
    if (!live) return undefined;
    return live.info.sandboxed ? { network: live.sandboxNetwork === true } : null;
  }

  get(id: string): Promise<PaneInfo> {
    return this.registry.info(id);
  }

  /** How many panes were ever recorded (one COUNT, not a read of every row). */
  count(): Promise<number> {
    return this.deps.store.count();
  }

  list(filter: { taskId?: string; liveOnly?: boolean } = {}): Promise<PaneInfo[]> {
    return this.registry.list(filter);
  }

  isLive(id: string): boolean {
    return this.registry.has(id);
  }

  /** Panes another server sharing the database ran at this one's start: not ours to judge. */
  private othersRunning = new Set<string>();

  /** Whether another server sharing the database runs this pane (as of start-up). */
  isOthers(id: string): boolean {
    return this.othersRunning.has(id);
  }

  state(id: string): PaneState | null {
    return this.registry.find(id)?.state ?? null;
  }

  attention(
    opts: { limit?: number; taskStates?: Map<string, { state: string; at: number }> } = {},
  ): Promise<AttentionItem[]> {
    return this.registry.attention(opts);
  }

  // ---- start-up and shutdown -----------------------------------------------------------

  /**
   * After a (re)start: every pane the host still runs is reattached with its state rebuilt from
   * its row; panes recorded as running that the host does not have are marked exited and
   * journaled `pane.lost` (recovery.ts). Returns each lost pane's last lifecycle.
   */
  async recover(): Promise<Map<string, string>> {
    this.othersRunning = await this.deps.store.othersRunning();
    return recoverPanes({
      store: this.deps.store,
      journal: this.deps.journal,
      host: this.deps.host,
      registry: this.registry,
      lifecycle: this.lifecycle,
    });
  }

  /** Where the server must listen so live panes' YARD_URL stays valid, when the host runs panes. */
  reattachAddress(): { url: string; host: string; port: number } | null {
    return this.registry.size > 0 ? this.deps.host.hello.serving : null;
  }

  /** Panes reattached to (running in the host). */
  get liveCount(): number {
    return this.registry.size;
  }

  /**
   * Stops serving panes. `stopPanes`: end every pane and the host (a full stop); otherwise leave
   * them running in the host for the next server (an upgrade or restart).
   */
  async shutdown(opts: { stopPanes?: boolean } = {}): Promise<void> {
    this.closing = true;
    clearInterval(this.checkpoints);
    for (const p of this.registry.panes()) this.lifecycle.clearQuiet(p);
    if (opts.stopPanes ?? true) {
      await Promise.all(this.registry.panes().map((p) => this.kill(p.info.id, { graceMs: 1000 }).catch(() => {})));
      await this.deps.host.shutdown();
    } else {
      await this.deps.host.detach();
    }
    this.screens.close();
  }
}
