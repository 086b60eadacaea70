// Drives each live pane's lifecycle. Every event that can change it (a hook post or one the host
// relayed, a screen observation, activity ticks and the quiescence timer of panes without hooks,
// a person's keystrokes, the process's exit or its loss with the host) goes through the pure
// reducer (lifecycle.ts); the effects are persisted in order (one queue per pane), journaled, and
// fanned out to viewers and to the task engine (onTransition). Also journals the mirror faults
// the host reports, at most one event per pane in a window.
import { cutText, LIMITS } from "../../wire/common";
import type { PaneStore } from "../../stores/panes";
import { YardError } from "../errors";
import type { EventJournal } from "../events/journal";
import { parseHookPost } from "../hooks/payload";
import { SETUP_HOOK_EVENT } from "../../wire/repo-config";
import { parsePaneToken } from "../../security/token";
import type { HostExit, HostHook, HostPaneStatus, PaneHostPort } from "./host-port";
import {
  blockedReason,
  type Effect,
  type Lifecycle,
  type PaneEvent,
  type PaneState,
  reduce,
  type ScreenObservation,
} from "./lifecycle";
import { notifyExit } from "./reads";
import type { LivePane, PaneInfo, PaneRegistry } from "./registry";

/** Screen-heuristic fallback for agents without hooks: this long without output = quiescent. */
const QUIESCENCE_MS = 1500;
/** Output this soon after the user's own keystrokes is their echo, not agent activity. */
const ECHO_WINDOW_MS = 150;
/** At most one `pane.fault` event per pane in this window; later ones are counted in the next. */
const FAULT_JOURNAL_MS = 5000;
const FAULT_MESSAGE_MAX = 300;

/**
 * Called after every lifecycle transition (the task engine listens here). `lost` is set when the
 * pane "exited" because its process was lost with the pane host, not because it ended.
 */
export type TransitionListener = (
  info: PaneInfo,
  state: PaneState,
  effect: Extract<Effect, { kind: "transition" }>,
  lost?: string,
) => void;

export interface LifecycleDeps {
  store: PaneStore;
  journal: EventJournal;
  host: PaneHostPort;
  registry: PaneRegistry;
  onTransition?: TransitionListener;
  /** The setup wrapper's progress posts (SETUP_HOOK_EVENT): never the pane's lifecycle; the task engine listens. */
  onSetup?: SetupListener;
}

export type SetupListener = (info: PaneInfo, payload: Record<string, unknown>) => void;

export class LifecycleDriver {
  constructor(private readonly deps: LifecycleDeps) {}

  /** Runs one event through the reducer and carries out its effects. */
  apply(pane: LivePane, event: PaneEvent, opts: { lost?: string; hookExtra?: { relayed: true } } = {}): void {
    const before = pane.state;
    const { state, effects } = reduce(before, event);
    pane.state = state;
    pane.info.lifecycle = state.lifecycle;
    pane.info.doneSeen = state.doneSeen;
    if (state.hooksSeen && !before.hooksSeen) {
      this.persist(pane, {});
      this.clearQuiet(pane);
      // Hooks are the truth from now on: the host can stop sending activity ticks.
      if (!pane.hooks)
        void this.deps.host.request("configure", { paneId: pane.info.id, activity: false }).catch(() => {});
    }
    Object.assign(pane.info, screenFields(state));
    for (const effect of effects) {
      if (effect.kind === "transition") {
        this.persist(pane, {});
        void this.deps.journal.append("pane.lifecycle", {
          paneId: pane.info.id,
          taskId: pane.info.taskId,
          payload: {
            from: effect.from,
            to: effect.to,
            seq: effect.seq,
            cause: effect.cause,
            exitCode: state.exitCode,
            lastMessage: effect.to === "done" ? lastMessageOf(state) : undefined,
            ...(opts.lost ? { lost: opts.lost } : {}),
          },
        });
        for (const s of pane.subscribers) s.listener.lifecycle?.({ ...pane.info });
        this.deps.onTransition?.({ ...pane.info }, state, effect, opts.lost);
      } else if (effect.kind === "journal" && effect.type !== "pane.lifecycle") {
        const payload =
          effect.type === "pane.hook" && opts.hookExtra ? { ...effect.data, ...opts.hookExtra } : effect.data;
        void this.deps.journal.append(effect.type, { paneId: pane.info.id, taskId: pane.info.taskId, payload });
        if (effect.type === "pane.seen") this.persist(pane, {});
      }
    }
    pane.waiter.notify();
  }

  /** Queues a write of the pane's state to its row, after the writes queued before it. */
  persist(pane: LivePane, extra: { pid?: number }): void {
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

  clearQuiet(pane: LivePane): void {
    if (pane.quietTimer) clearTimeout(pane.quietTimer);
    pane.quietTimer = null;
  }

  /** Quiescent QUIESCENCE_MS after the last output (`from`, default now) unless more comes. */
  armQuiescence(pane: LivePane, from = Date.now()): void {
    this.clearQuiet(pane);
    pane.quietTimer = setTimeout(
      () => {
        pane.quietTimer = null;
        if (!pane.state.hooksSeen && !pane.exiting && !pane.settingUp)
          this.apply(pane, { type: "quiescent", at: Date.now() });
      },
      Math.max(0, QUIESCENCE_MS - (Date.now() - from)),
    );
    pane.quietTimer.unref();
  }

  /** The pane's setup runs (again, after a restart) or ended: from its end on, the agent's output counts. */
  setup(paneId: string, running: boolean): void {
    const pane = this.deps.registry.find(paneId);
    if (!pane || pane.settingUp === running) return;
    pane.settingUp = running;
    if (running) this.clearQuiet(pane);
    else if (!pane.hooks && !pane.state.hooksSeen && !pane.exiting) this.armQuiescence(pane);
  }

  /** A person typed into the pane: what it prints within ECHO_WINDOW_MS is their echo. */
  input(pane: LivePane): void {
    pane.lastUserInputAt = Date.now();
    this.apply(pane, { type: "input", at: Date.now() });
  }

  /**
   * What a screen reader saw on a live pane (core/agents/screen-watch.ts): a start-up dialog,
   * the dialog gone, the input box ready, a failed turn, a note. Runs the lifecycle reducer like
   * a hook; a pane that is not running ignores it.
   */
  observe(paneId: string, observation: ScreenObservation): void {
    const pane = this.deps.registry.find(paneId);
    if (!pane || pane.exiting) return;
    this.apply(pane, { ...observation, at: Date.now() } as PaneEvent);
  }

  /** A hook post from `yard hook` (pane token), an admin, or the host's relay. */
  async hook(
    paneId: string,
    raw: unknown,
    opts: { relayedAt?: number } = {},
  ): Promise<{ lifecycle: Lifecycle; seq: number }> {
    const post = parseHookPost(raw);
    const pane = this.deps.registry.find(paneId);
    if (!pane) {
      const row = await this.deps.store.row(paneId);
      if (!row) throw new YardError("NOT_FOUND", `No pane ${paneId}`, { paneId });
      await this.deps.journal.append("pane.hook", {
        paneId,
        taskId: row.taskId,
        payload: { event: post.event, ignored: "pane is not running" },
      });
      return { lifecycle: row.lifecycle as Lifecycle, seq: row.lifecycleSeq };
    }
    if (post.event === SETUP_HOOK_EVENT) {
      // The setup wrapper, not the agent: a hook-less pane keeps its screen heuristics.
      this.deps.onSetup?.({ ...pane.info }, post.payload);
      return { lifecycle: pane.state.lifecycle, seq: pane.state.seq };
    }
    this.clearQuiet(pane);
    const at = opts.relayedAt ?? Date.now();
    this.apply(
      pane,
      { type: "hook", name: post.event, payload: post.payload, at },
      opts.relayedAt !== undefined ? { hookExtra: { relayed: true } } : {},
    );
    return { lifecycle: pane.state.lifecycle, seq: pane.state.seq };
  }

  // ---- host events ---------------------------------------------------------------------

  /** The pane wrote output (an activity tick: only panes running on the screen heuristic get them). */
  activity(id: string, at: number): void {
    const pane = this.deps.registry.find(id);
    if (!pane || pane.exiting || pane.hooks || pane.state.hooksSeen || pane.settingUp) return;
    if (at - pane.lastUserInputAt > ECHO_WINDOW_MS) this.apply(pane, { type: "output", at });
    this.armQuiescence(pane, at);
  }

  /** The mirror recovered from an xterm fault: journal it, at most once per FAULT_JOURNAL_MS. */
  fault(id: string, f: { message: string; name: string; count: number }): void {
    const pane = this.deps.registry.find(id);
    if (!pane) return;
    pane.lastFault = f;
    pane.faultCount = f.count;
    pane.faultsUnjournaled++;
    if (Date.now() - pane.faultJournaledAt >= FAULT_JOURNAL_MS) this.journalFault(pane);
  }

  /** A hook `yard hook` left with the host's relay while this server was unreachable. */
  async relayedHook(h: HostHook): Promise<void> {
    await this.deps.registry.settled(h.paneId);
    const t = parsePaneToken(h.token);
    if (!t || t.paneId !== h.paneId || !(await this.deps.registry.authenticate(t.paneId, t.secret))) {
      await this.deps.journal
        .append("pane.hook", {
          paneId: h.paneId,
          payload: { event: h.event, ignored: "relayed with a token that is not valid" },
        })
        .catch(() => {});
      return;
    }
    await this.hook(h.paneId, { event: h.event, payload: h.payload }, { relayedAt: h.at });
  }

  /**
   * The process exited and the host read its output to the end and saved its final screen: mark
   * the pane exited (row, journal, listeners) and forget it. Until then reads came from the host's
   * live mirror; from now on from the saved screen.
   */
  async hostExit(e: HostExit): Promise<void> {
    const pane = await this.deps.registry.settled(e.paneId);
    if (!pane) return; // already recorded (the host re-sent an exit the server had handled)
    const id = pane.info.id;
    pane.exiting = true;
    this.clearQuiet(pane);
    try {
      if (e.screenError) {
        await this.deps.journal
          .append("pane.screen_unsaved", {
            paneId: id,
            taskId: pane.info.taskId,
            payload: { error: truncate(e.screenError, FAULT_MESSAGE_MAX) },
          })
          .catch(() => {});
      }
      if (pane.faultsUnjournaled > 0) this.journalFault(pane);
      pane.exitStats = e.stats;
      pane.info.exitCode = e.exitCode;
      pane.info.signal = e.signal;
      pane.info.exitedAt = new Date(e.at).toISOString();
      pane.info.live = false;
      this.apply(pane, { type: "exit", exitCode: e.exitCode, signal: e.signal || null, at: Date.now() });
      await pane.persist.catch(() => {});
      notifyExit(pane);
    } finally {
      this.deps.registry.forget(pane);
    }
  }

  /** The pane host died: every pane it ran is gone, without a final screen. */
  async hostLost(reason: string, scope?: readonly string[]): Promise<void> {
    const only = scope ? new Set(scope) : null;
    await Promise.all(
      this.deps.registry
        .panes()
        .filter((p) => !only || only.has(p.info.id))
        .map((p) => this.lose(p, reason)),
    );
  }

  /**
   * The connection to the host broke but the host is still there: panes it no longer has are
   * gone; viewers of the others missed output meanwhile and take a fresh snapshot.
   */
  async hostReattached(panes: HostPaneStatus[], scope?: readonly string[]): Promise<void> {
    const have = new Set(panes.map((p) => p.paneId));
    const only = scope ? new Set(scope) : null;
    const mine = this.deps.registry.panes().filter((p) => !only || only.has(p.info.id));
    for (const p of mine) if (have.has(p.info.id)) for (const s of p.subscribers) s.listener.resync?.();
    await Promise.all(mine.filter((p) => !have.has(p.info.id)).map((p) => this.lose(p, "pane_host_lost_pane")));
  }

  private async lose(pane: LivePane, reason: string): Promise<void> {
    if (pane.exiting) return;
    pane.exiting = true;
    this.clearQuiet(pane);
    const lastLifecycle = pane.state.lifecycle;
    try {
      await this.deps.journal
        .append("pane.lost", { paneId: pane.info.id, taskId: pane.info.taskId, payload: { lastLifecycle, reason } })
        .catch(() => {});
      pane.info.exitedAt = new Date().toISOString();
      pane.info.live = false;
      this.apply(pane, { type: "exit", exitCode: null, signal: null, at: Date.now() }, { lost: reason });
      await pane.persist.catch(() => {});
      notifyExit(pane);
    } finally {
      this.deps.registry.forget(pane);
    }
  }

  /** A `pane.fault` event: the last error, the faults it covers, and the pane's total (`count`). */
  private journalFault(pane: LivePane): void {
    const error = pane.lastFault;
    pane.faultJournaledAt = Date.now();
    const covers = pane.faultsUnjournaled;
    pane.faultsUnjournaled = 0;
    void this.deps.journal.append("pane.fault", {
      paneId: pane.info.id,
      taskId: pane.info.taskId,
      payload: {
        message: truncate(error?.message ?? "", FAULT_MESSAGE_MAX),
        error: error?.name ?? null,
        count: pane.faultCount,
        covers,
      },
    });
  }
}

/** A done transition's copy of the agent's last message for the journal: at most LIMITS.eventString characters (the task keeps up to LIMITS.hookMessage). */
function lastMessageOf(s: PaneState): string | null {
  return s.lastMessage === undefined ? null : cutText(s.lastMessage, LIMITS.eventString);
}

/** The PaneInfo fields that mirror the screen-derived parts of a live pane's state. */
function screenFields(s: PaneState): Pick<PaneInfo, "blockedReason" | "dialog" | "note"> {
  return {
    blockedReason: blockedReason(s),
    dialog: s.dialog
      ? {
          kind: s.dialog.kind,
          title: s.dialog.title,
          text: s.dialog.text,
          since: new Date(s.dialog.since).toISOString(),
        }
      : null,
    note: s.note ? { kind: s.note.kind, text: s.note.text } : null,
  };
}

function truncate(s: string, max: number): string {
  return s.length <= max ? s : `${s.slice(0, max - 1)}…`;
}
