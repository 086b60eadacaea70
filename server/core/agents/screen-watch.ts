// The screen watcher: follows the rendered screen of every pane that runs a known agent CLI
// (Claude Code, Codex) and tells the pane lifecycle what it sees there, through PaneManager's
// public reads (attach, read, state) and its one hook point (observe):
// - before the agent is ready: a start-up dialog that waits for a human (dialog), the dialog gone
//   (dialog_cleared), and, for agents whose ready hook only fires at the first prompt (Codex),
//   the input box up with no dialog, unchanged for READY_SETTLE_MS (screen_ready);
// - during a turn: the agent retrying an API call (note "retrying"), and, for agents with no hook
//   for a failed turn (Codex), a new failed-turn line on the screen (turn_failed).
// Readings come from startup-dialogs.ts; this module owns when to look (after output settles,
// after each lifecycle change) and what is new since the turn began.
import type { EventJournal } from "../events/journal";
import type { PaneInfo, PaneListener, PaneManager } from "../panes/manager";
import type { PaneState } from "../panes/lifecycle";
import { type AgentKind, agentKindOf } from "./kinds";
import { readScreen, type ScreenReading } from "./startup-dialogs";

/** Output this quiet means the screen is worth reading again. */
const CHECK_DEBOUNCE_MS = 120;
/** Codex's quiet splash shows an input box for a moment before its dialogs: ready must hold this long. */
export const READY_SETTLE_MS = 500;
/** How long confirmReady waits for the input box to be drawn after the agent said it is ready. */
const CONFIRM_READY_MS = 3000;

/** Agents whose readiness is read from the screen (their ready hook fires only at the first prompt). */
const SCREEN_READY: ReadonlySet<AgentKind> = new Set(["codex"]);
/** Agents with no hook for a failed turn: the screen says so. */
const SCREEN_TURN_FAILURE: ReadonlySet<AgentKind> = new Set(["codex"]);

type Panes = Pick<PaneManager, "attach" | "read" | "observe" | "state">;

interface Watch {
  paneId: string;
  kind: AgentKind;
  detach: () => void;
  timer: NodeJS.Timeout | null;
  checking: boolean;
  /** something changed while a check ran: check again right after it */
  again: boolean;
  /** a later check asked for while a check ran (the settle wait): scheduled when it ends */
  later: number | null;
  lastText: string | null;
  lastChangeAt: number;
  /** failed-turn lines on screen when the current turn began, by text */
  baseline: Map<string, number> | null;
  /**
   * Failed-turn lines on screen before the next turn: from the last reading taken while the pane
   * was not working, or (pinned) from the reading just before the task engine typed its prompt.
   * The turn's baseline comes from here, not from the first reading after the lifecycle turned
   * working: an API error answered at once is on the screen before the prompt's hook arrives.
   */
  preTurn: Map<string, number> | null;
  preTurnPinned: boolean;
  lastLifecycle: string | null;
  stopped: boolean;
}

export class ScreenWatcher {
  private readonly watches = new Map<string, Watch>();
  private unsubscribe: (() => void) | null = null;

  constructor(private readonly deps: { panes: Panes; journal: EventJournal }) {}

  /** Watches every pane spawned from now on that runs a known agent. */
  start(): void {
    this.unsubscribe = this.deps.journal.subscribe(
      (e) => {
        const p = e.payload as { argv?: unknown; agent?: unknown; kind?: unknown };
        const argv = Array.isArray(p.argv) ? p.argv.filter((a): a is string => typeof a === "string") : [];
        // The spawn says which agent its profile's template runs; older events only have the argv.
        const kind =
          p.kind === "claude" || p.kind === "codex"
            ? p.kind
            : agentKindOf({ profileId: typeof p.agent === "string" ? p.agent : null, argv });
        if (kind && e.paneId) void this.watch(e.paneId, kind);
      },
      { type: "pane.spawned" },
    );
  }

  stop(): void {
    this.unsubscribe?.();
    this.unsubscribe = null;
    for (const w of this.watches.values()) this.end(w);
  }

  isWatching(paneId: string): boolean {
    return this.watches.has(paneId);
  }

  async watch(paneId: string, kind: AgentKind): Promise<void> {
    if (this.watches.has(paneId)) return;
    const w: Watch = {
      paneId,
      kind,
      detach: () => {},
      timer: null,
      checking: false,
      again: false,
      later: null,
      lastText: null,
      lastChangeAt: Date.now(),
      baseline: null,
      preTurn: null,
      preTurnPinned: false,
      lastLifecycle: null,
      stopped: false,
    };
    this.watches.set(paneId, w);
    const listener: PaneListener = {
      output: () => this.schedule(w, CHECK_DEBOUNCE_MS),
      lifecycle: (info: PaneInfo) => {
        if (info.lifecycle !== w.lastLifecycle) this.schedule(w, 0);
      },
      exit: () => this.end(w),
    };
    try {
      const { detach } = await this.deps.panes.attach(paneId, listener);
      w.detach = detach;
      if (w.stopped) detach();
    } catch {
      this.end(w);
      return;
    }
    this.schedule(w, 0);
  }

  /**
   * Before the task engine types a prompt into a pane its agent reported ready: false (after
   * reporting it) when a start-up dialog shows; true once the agent's input box is drawn (an agent
   * can report ready a moment before its input is live: keys typed then may be lost), or after
   * CONFIRM_READY_MS whatever the screen shows; true at once for panes this watcher does not follow.
   */
  async confirmReady(paneId: string): Promise<boolean> {
    const w = this.watches.get(paneId);
    if (!w) return true;
    const deadline = Date.now() + CONFIRM_READY_MS;
    for (;;) {
      const reading = await this.read(w);
      if (!reading || w.stopped) return true;
      if (reading.dialog && this.beforeFirstPrompt(this.deps.panes.state(paneId))) {
        this.deps.panes.observe(paneId, {
          type: "dialog",
          dialog: { kind: reading.dialog.kind, title: reading.dialog.title, text: reading.dialog.text },
          at: Date.now(),
        });
        return false;
      }
      if (reading.ready || Date.now() >= deadline) {
        // The screen as the prompt is about to be typed: what the coming turn adds is new.
        w.preTurn = counts(reading.errors);
        w.preTurnPinned = true;
        return true;
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  private end(w: Watch) {
    w.stopped = true;
    if (w.timer) clearTimeout(w.timer);
    w.timer = null;
    w.detach();
    if (this.watches.get(w.paneId) === w) this.watches.delete(w.paneId);
  }

  private schedule(w: Watch, delayMs: number) {
    if (w.stopped) return;
    if (w.checking) {
      // A delayed check asked for during a check waits its delay: taken as "again" it re-read
      // the screen in a loop until the settle time had passed on the wall clock.
      if (delayMs === 0) w.again = true;
      else w.later = Math.min(w.later ?? delayMs, delayMs);
      return;
    }
    if (w.timer) {
      if (delayMs > 0) return; // already due soon
      clearTimeout(w.timer);
    }
    w.timer = setTimeout(() => {
      w.timer = null;
      void this.check(w);
    }, delayMs);
    w.timer.unref();
  }

  private async read(w: Watch): Promise<ScreenReading | null> {
    try {
      const r = await this.deps.panes.read(w.paneId, { mode: "screen" });
      if (r.text !== w.lastText) {
        w.lastText = r.text;
        w.lastChangeAt = Date.now();
      }
      return readScreen(w.kind, r.text);
    } catch {
      return null; // the pane went away under the read
    }
  }

  /** Start-up dialogs only count before the agent took its first prompt (later text is conversation). */
  private beforeFirstPrompt(s: PaneState | null): boolean {
    if (!s) return false;
    if (s.lifecycle === "starting" || s.lifecycle === "unknown") return true;
    if (s.lifecycle === "blocked") return s.dialog !== null;
    return s.lifecycle === "idle" && s.activitySeq === 0;
  }

  private async check(w: Watch): Promise<void> {
    if (w.stopped) return;
    w.checking = true;
    try {
      do {
        w.again = false;
        await this.checkOnce(w);
      } while (w.again && !w.stopped);
    } finally {
      w.checking = false;
      const later = w.later;
      w.later = null;
      if (later !== null) this.schedule(w, later);
    }
  }

  private async checkOnce(w: Watch): Promise<void> {
    const before = this.deps.panes.state(w.paneId);
    if (!before || before.lifecycle === "exited") return this.end(w);
    const reading = await this.read(w);
    const s = this.deps.panes.state(w.paneId);
    if (!reading || !s) return;
    const now = Date.now();
    const observe = this.deps.panes.observe.bind(this.deps.panes, w.paneId);

    // A new turn: remember which failed-turn lines were already there before it.
    if (s.lifecycle === "working" && w.lastLifecycle !== "working") {
      w.baseline = w.preTurn ?? counts(reading.errors);
      w.preTurn = null;
      w.preTurnPinned = false;
    } else if (s.lifecycle !== "working" && !w.preTurnPinned) {
      w.preTurn = counts(reading.errors);
    }
    w.lastLifecycle = s.lifecycle;

    if (this.beforeFirstPrompt(s)) {
      if (reading.dialog) {
        observe({
          type: "dialog",
          dialog: { kind: reading.dialog.kind, title: reading.dialog.title, text: reading.dialog.text },
          at: now,
        });
      } else if (s.lifecycle === "blocked" && s.dialog) {
        observe({ type: "dialog_cleared", at: now });
      }
      if (SCREEN_READY.has(w.kind) && reading.ready) {
        const waited = now - w.lastChangeAt;
        const after = this.deps.panes.state(w.paneId);
        if (
          after &&
          (after.lifecycle === "starting" ||
            after.lifecycle === "unknown" ||
            (after.lifecycle === "blocked" && after.dialog))
        ) {
          if (waited >= READY_SETTLE_MS) observe({ type: "screen_ready", at: now });
          else this.schedule(w, READY_SETTLE_MS - waited + 10);
        }
      }
      return;
    }

    if (s.lifecycle === "working") {
      observe({ type: "note", note: reading.retrying ? { kind: "retrying", text: reading.retrying } : null, at: now });
      if (SCREEN_TURN_FAILURE.has(w.kind) && w.baseline) {
        const now_ = counts(reading.errors);
        for (const [line, n] of now_) {
          if (n > (w.baseline.get(line) ?? 0)) {
            w.baseline = now_;
            observe({ type: "note", note: null, at: now });
            observe({ type: "turn_failed", error: line, at: now });
            return;
          }
        }
        // Lines that scrolled away lower the baseline, so a later repeat still counts.
        for (const [line, n] of w.baseline) if ((now_.get(line) ?? 0) < n) w.baseline.set(line, now_.get(line) ?? 0);
      }
      return;
    }
    if (s.note) observe({ type: "note", note: null, at: now });
  }
}

function counts(lines: string[]): Map<string, number> {
  const m = new Map<string, number>();
  for (const l of lines) m.set(l, (m.get(l) ?? 0) + 1);
  return m;
}
