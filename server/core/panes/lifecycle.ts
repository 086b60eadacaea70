// Pane lifecycle: a pure reducer (state, event) -> (state, effects).
// Owns: the Lifecycle values, PaneState, the Claude Code hook -> lifecycle mapping, the
// screen-heuristic fallback, "done seen" tracking and the activity counter the submit gate
// waits on. No I/O, no clock: every event carries its own timestamp (`at`, ms since epoch).
//
// Counters
// - `seq` bumps on every actual lifecycle change (from !== to). Monotonic.
// - `activitySeq` bumps on every sign that the agent took input: every hook that maps to
//   working or blocked, EVEN WHEN the lifecycle is already working/blocked (re-entries);
//   every transition into working/blocked (heuristics included); and every transition
//   into done from another state (a turn ended, so input was consumed — this covers agents
//   that only report turn completion, e.g. Codex `notify`). `lastActivity` names the kind.
//   The submit gate reads activitySeq before writing and waits for it to grow, so an
//   activity that lands before the gate starts waiting still counts.
//   A done -> done re-entry (duplicate Stop) is not activity.
//
// Hook mapping: see hook-classify.ts.
//
// Other events
//   spawned     unknown -> starting (anything else: ignored, journaled)
//   exit        any -> exited, records exitCode/signal. exited is sticky: nothing changes it.
//   output      screen heuristic, only while no hook was ever seen (hooksSeen=false):
//               idle|done -> working. starting/unknown/working/blocked: no change.
//   quiescent   screen heuristic, only while hooksSeen=false:
//               starting -> idle, working -> done.
//               Once any hook has been seen for the pane, hooks are the only source of
//               truth and heuristic events are ignored. Heuristics never enter or leave
//               blocked. The caller decides what counts as output (e.g. not the echo of
//               the user's own keystrokes) and when the screen is quiescent.
//   viewed      the user looked at the pane: marks the current done/exited state seen
//               (`doneSeen`; reset to false on every transition into done or exited).
//   input       the user typed: no state change (the agent's next hook says what happened).
//
// Screen observations (the screen watcher, core/agents/screen-watch.ts, reads the rendered
// screen of agents it knows and reports what it sees; these apply with or without hooks):
//   dialog          a start-up dialog waits for a human (trust, API key, login, theme, ...):
//                   starting|unknown|idle -> blocked, with `dialog` set (blockedReason
//                   startup_dialog). Already at that dialog: the text is refreshed, no
//                   transition. Anything else: ignored. NOT activity: a dialog is never
//                   mistaken for the agent taking a prompt.
//   dialog_cleared  the dialog is gone from the screen: blocked(startup_dialog) -> starting
//                   (idle when the dialog came up after the pane was ready); readiness then
//                   comes from the agent's hook or screen_ready.
//   screen_ready    the agent's input box shows with no dialog (agents whose ready hook only
//                   fires at the first prompt, e.g. Codex): starting|unknown -> idle, and
//                   blocked(startup_dialog) -> idle. Anything else: ignored.
//   turn_failed     the screen shows the turn failed (an API error no hook reports):
//                   working -> done with lastStop {failed, error}.
//   note            a passing remark about the pane (e.g. "retrying: attempt 2/10"), or null
//                   to clear it: no lifecycle change; journaled as pane.note when it changes.
// Any transition out of blocked clears `dialog`; a hook that moves the lifecycle (e.g.
// SessionStart after the trust dialog was answered) ends the dialog too.

import type { EventPayload } from "../../wire/events";
import type { HookPayload } from "../hooks/payload";
import { classifyHook, hookSummary, stopError } from "./hook-classify";

export const LIFECYCLES = ["starting", "idle", "working", "blocked", "done", "exited", "unknown"] as const;
export type Lifecycle = (typeof LIFECYCLES)[number];

type ActivityKind = "working" | "blocked" | "done";

/** A start-up dialog the pane is waiting at (see core/agents/startup-dialogs.ts). */
export interface PaneDialog {
  /** which dialog: trust, api_key, login, theme, onboarding, bypass_permissions, update, hooks_review, ... */
  kind: string;
  /** one line for a card or an attention row */
  title: string;
  /** the dialog's text as rendered */
  text: string;
  /** ms since epoch it appeared */
  since: number;
  /** where the pane goes back to when the dialog is gone: starting, or idle when it was already ready */
  returnTo: "starting" | "idle";
}

/** A passing remark about the pane, e.g. the agent is retrying a failed API call. */
interface PaneNote {
  kind: string;
  text: string;
  at: number;
}

/** Why a blocked pane is blocked: a start-up dialog, or a prompt the agent raised (hook). */
export type BlockedReason = "startup_dialog" | "prompt";

export interface PaneState {
  lifecycle: Lifecycle;
  /** number of the last lifecycle transition; 0 before the first one */
  seq: number;
  /** bumps on every working/blocked signal and every transition into done (see top) */
  activitySeq: number;
  lastActivity: ActivityKind | null;
  /** ms since epoch of the last lifecycle transition */
  lastTransitionAt: number | null;
  /** the user viewed the pane since it last entered done or exited */
  doneSeen: boolean;
  /** at least one hook arrived for this pane: screen heuristics are off from then on */
  hooksSeen: boolean;
  exitCode: number | null;
  signal: number | string | null;
  /** last_assistant_message of the last main-agent Stop */
  lastMessage?: string;
  /** how the last turn ended: Stop (failed=false) or StopFailure (failed=true) */
  lastStop: { failed: boolean; error?: string; at: number } | null;
  /** the start-up dialog the pane waits at (lifecycle blocked), else null */
  dialog: PaneDialog | null;
  /** e.g. { kind: "retrying", text: "retrying in 4s · attempt 2/10" }; null when there is none */
  note: PaneNote | null;
}

/** Why the pane is blocked (null when it is not). */
export function blockedReason(s: Pick<PaneState, "lifecycle" | "dialog">): BlockedReason | null {
  if (s.lifecycle !== "blocked") return null;
  return s.dialog ? "startup_dialog" : "prompt";
}

export type PaneEvent =
  | { type: "hook"; name: string; payload: HookPayload; at: number }
  | { type: "spawned"; at: number }
  | { type: "exit"; exitCode: number | null; signal?: number | string | null; at: number }
  | { type: "output"; at: number }
  | { type: "quiescent"; at: number }
  | { type: "viewed"; at: number }
  | { type: "input"; at: number }
  | { type: "dialog"; dialog: { kind: string; title: string; text: string }; at: number }
  | { type: "dialog_cleared"; at: number }
  | { type: "screen_ready"; at: number }
  | { type: "turn_failed"; error: string; at: number }
  | { type: "note"; note: { kind: string; text: string } | null; at: number };

/** The screen observations (see top); what PaneManager.observe accepts. */
export type ScreenObservation = Extract<
  PaneEvent,
  { type: "dialog" | "dialog_cleared" | "screen_ready" | "turn_failed" | "note" }
>;

/** The pane events the reducer asks to journal as they are (pane.lifecycle is journaled from the transition). */
type JournaledType = "pane.hook" | "pane.seen" | "pane.ignored" | "pane.dialog" | "pane.note";

/** A journal effect: the event's payload, typed by its schema (server/wire/events.ts). */
type JournalEffect =
  | {
      kind: "journal";
      type: "pane.lifecycle";
      data: { from: Lifecycle; to: Lifecycle; seq: number; activitySeq: number; cause: string } & {
        exitCode?: number | null;
        signal?: number | string | null;
      };
      at: number;
    }
  | { [T in JournaledType]: { kind: "journal"; type: T; data: EventPayload<T>; at: number } }[JournaledType];

export type Effect =
  | {
      kind: "transition";
      from: Lifecycle;
      to: Lifecycle;
      seq: number;
      activitySeq: number;
      cause: string;
      at: number;
    }
  /** activitySeq grew without a lifecycle change (working/blocked re-entry): wake submit gates */
  | { kind: "activity"; activitySeq: number; lifecycle: Lifecycle; cause: string; at: number }
  | JournalEffect;

export interface ReduceResult {
  state: PaneState;
  effects: Effect[];
}

/** State of a pane that has not been spawned yet (or whose state is not known). */
export function initialPaneState(): PaneState {
  return {
    lifecycle: "unknown",
    seq: 0,
    activitySeq: 0,
    lastActivity: null,
    lastTransitionAt: null,
    doneSeen: false,
    hooksSeen: false,
    exitCode: null,
    signal: null,
    lastStop: null,
    dialog: null,
    note: null,
  };
}

interface Change {
  to: Lifecycle;
  cause: string;
  /** count this as activity even when to === from (hook re-entry into working/blocked) */
  reentryActivity: boolean;
  /** never count this change as activity (a start-up dialog is not the agent taking input) */
  noActivity?: boolean;
}

/**
 * Apply a lifecycle change to `state` (already carrying any non-lifecycle updates).
 * Returns the new state and the transition/activity effects.
 */
function applyChange(prev: PaneState, state: PaneState, change: Change, at: number): ReduceResult {
  const from = prev.lifecycle;
  const { to, cause } = change;
  const effects: Effect[] = [];
  if (to === from) {
    if (change.reentryActivity && (to === "working" || to === "blocked")) {
      const next: PaneState = { ...state, activitySeq: state.activitySeq + 1, lastActivity: to };
      effects.push({ kind: "activity", activitySeq: next.activitySeq, lifecycle: to, cause, at });
      return { state: next, effects };
    }
    return { state, effects };
  }
  const isActivity = !change.noActivity && (to === "working" || to === "blocked" || to === "done");
  const next: PaneState = {
    ...state,
    // a dialog only lasts while the pane is blocked at it
    dialog: to === "blocked" ? state.dialog : null,
    lifecycle: to,
    seq: state.seq + 1,
    lastTransitionAt: at,
    activitySeq: isActivity ? state.activitySeq + 1 : state.activitySeq,
    lastActivity: isActivity ? (to as ActivityKind) : state.lastActivity,
    doneSeen: to === "done" || to === "exited" ? false : state.doneSeen,
  };
  effects.push({ kind: "transition", from, to, seq: next.seq, activitySeq: next.activitySeq, cause, at });
  effects.push({
    kind: "journal",
    type: "pane.lifecycle",
    data: { from, to, seq: next.seq, activitySeq: next.activitySeq, cause },
    at,
  });
  return { state: next, effects };
}

function reduceHook(state: PaneState, ev: Extract<PaneEvent, { type: "hook" }>): ReduceResult {
  const { name, payload, at } = ev;
  const c = classifyHook(name, payload);
  const summary = hookSummary(name, payload);

  if (state.lifecycle === "exited") {
    return {
      state,
      effects: [
        { kind: "journal", type: "pane.hook", data: { ...summary, outcome: "ignored", reason: "pane exited" }, at },
      ],
    };
  }

  let base: PaneState = state.hooksSeen ? state : { ...state, hooksSeen: true };

  if (!c.known) {
    // Unknown events change nothing (hooksSeen aside: any hook post proves hooks are wired).
    return {
      state: base,
      effects: [{ kind: "journal", type: "pane.hook", data: { ...summary, outcome: "unknown" }, at }],
    };
  }

  if (c.to === null) {
    return {
      state: base,
      effects: [{ kind: "journal", type: "pane.hook", data: { ...summary, outcome: "noop", reason: c.note }, at }],
    };
  }

  if (c.to === "done" && (name === "Stop" || name === "StopFailure")) {
    const failed = name === "StopFailure";
    const error = failed ? stopError(payload) : undefined;
    base = {
      ...base,
      lastStop: error === undefined ? { failed, at } : { failed, error, at },
    };
    const msg = typeof payload.last_assistant_message === "string" ? payload.last_assistant_message : undefined;
    if (msg !== undefined) base.lastMessage = msg;
  }

  const r = applyChange(state, base, { to: c.to, cause: `hook:${name}`, reentryActivity: true }, at);
  const outcome =
    r.state.lifecycle !== state.lifecycle
      ? "transition"
      : r.state.activitySeq !== state.activitySeq
        ? "activity"
        : "noop";
  r.effects.unshift({ kind: "journal", type: "pane.hook", data: { ...summary, outcome, to: c.to }, at });
  return r;
}

export function reduce(state: PaneState, event: PaneEvent): ReduceResult {
  const at = event.at;
  switch (event.type) {
    case "hook":
      return reduceHook(state, event);

    case "exit": {
      if (state.lifecycle === "exited") {
        return {
          state,
          effects: [{ kind: "journal", type: "pane.ignored", data: { event: "exit", reason: "already exited" }, at }],
        };
      }
      const base: PaneState = { ...state, exitCode: event.exitCode, signal: normalizeSignal(event.signal) };
      const r = applyChange(state, base, { to: "exited", cause: "exit", reentryActivity: false }, at);
      for (const e of r.effects) {
        if (e.kind === "journal" && e.type === "pane.lifecycle")
          e.data = { ...e.data, exitCode: base.exitCode, signal: base.signal };
      }
      return r;
    }

    case "spawned": {
      if (state.lifecycle !== "unknown") {
        return {
          state,
          effects: [
            { kind: "journal", type: "pane.ignored", data: { event: "spawned", lifecycle: state.lifecycle }, at },
          ],
        };
      }
      return applyChange(state, state, { to: "starting", cause: "spawned", reentryActivity: false }, at);
    }

    case "output": {
      if (state.hooksSeen) return { state, effects: [] };
      if (state.lifecycle === "idle" || state.lifecycle === "done") {
        return applyChange(state, state, { to: "working", cause: "heuristic:output", reentryActivity: false }, at);
      }
      return { state, effects: [] };
    }

    case "quiescent": {
      if (state.hooksSeen) return { state, effects: [] };
      if (state.lifecycle === "starting") {
        return applyChange(state, state, { to: "idle", cause: "heuristic:quiescent", reentryActivity: false }, at);
      }
      if (state.lifecycle === "working") {
        return applyChange(state, state, { to: "done", cause: "heuristic:quiescent", reentryActivity: false }, at);
      }
      return { state, effects: [] };
    }

    case "viewed": {
      if ((state.lifecycle === "done" || state.lifecycle === "exited") && !state.doneSeen) {
        return {
          state: { ...state, doneSeen: true },
          effects: [{ kind: "journal", type: "pane.seen", data: { lifecycle: state.lifecycle, seq: state.seq }, at }],
        };
      }
      return { state, effects: [] };
    }

    case "input":
      return { state, effects: [] };

    case "dialog":
      return reduceDialog(state, event);

    case "dialog_cleared": {
      if (blockedReason(state) !== "startup_dialog") return { state, effects: [] };
      return applyChange(
        state,
        { ...state, dialog: null },
        { to: state.dialog!.returnTo, cause: "screen:dialog_cleared", reentryActivity: false, noActivity: true },
        at,
      );
    }

    case "screen_ready": {
      if (
        state.lifecycle === "starting" ||
        state.lifecycle === "unknown" ||
        blockedReason(state) === "startup_dialog"
      ) {
        return applyChange(
          state,
          { ...state, dialog: null },
          { to: "idle", cause: "screen:ready", reentryActivity: false },
          at,
        );
      }
      return { state, effects: [] };
    }

    case "turn_failed": {
      if (state.lifecycle !== "working") return { state, effects: [] };
      const error = event.error.slice(0, 2000);
      const base: PaneState = { ...state, lastStop: { failed: true, error, at }, lastMessage: error };
      return applyChange(state, base, { to: "done", cause: "screen:turn_failed", reentryActivity: false }, at);
    }

    case "note": {
      if (state.lifecycle === "exited") return { state, effects: [] };
      const prev = state.note;
      const next = event.note;
      if ((prev === null && next === null) || (prev && next && prev.kind === next.kind && prev.text === next.text))
        return { state, effects: [] };
      return {
        state: { ...state, note: next ? { kind: next.kind.slice(0, 64), text: next.text.slice(0, 500), at } : null },
        effects: [
          {
            kind: "journal",
            type: "pane.note",
            data: next
              ? { kind: next.kind.slice(0, 64), text: next.text.slice(0, 500) }
              : { cleared: prev?.kind ?? null },
            at,
          },
        ],
      };
    }

    default: {
      const unknownEvent: { type?: unknown } = event;
      return {
        state,
        effects: [
          {
            kind: "journal",
            type: "pane.ignored",
            data: { event: String(unknownEvent.type), reason: "unknown event" },
            at,
          },
        ],
      };
    }
  }
}

const DIALOG_TEXT_MAX = 4000;

function reduceDialog(state: PaneState, event: Extract<PaneEvent, { type: "dialog" }>): ReduceResult {
  const at = event.at;
  const d = {
    kind: event.dialog.kind.slice(0, 64),
    title: event.dialog.title.slice(0, 300),
    text: event.dialog.text.slice(0, DIALOG_TEXT_MAX),
  };
  const summary = { kind: d.kind, title: d.title };
  if (blockedReason(state) === "startup_dialog") {
    const cur = state.dialog!;
    if (cur.kind === d.kind && cur.text === d.text && cur.title === d.title) return { state, effects: [] };
    // The same wait, another screen of it (or the next dialog in a row): refresh, no transition.
    const dialog: PaneDialog = { ...d, since: cur.kind === d.kind ? cur.since : at, returnTo: cur.returnTo };
    return {
      state: { ...state, dialog },
      effects: cur.kind === d.kind ? [] : [{ kind: "journal", type: "pane.dialog", data: summary, at }],
    };
  }
  if (state.lifecycle !== "starting" && state.lifecycle !== "unknown" && state.lifecycle !== "idle")
    return { state, effects: [] };
  const returnTo = state.lifecycle === "idle" ? "idle" : "starting";
  const r = applyChange(
    state,
    { ...state, dialog: { ...d, since: at, returnTo } },
    { to: "blocked", cause: `screen:dialog:${d.kind}`, reentryActivity: false, noActivity: true },
    at,
  );
  r.effects.unshift({ kind: "journal", type: "pane.dialog", data: summary, at });
  return r;
}

function normalizeSignal(s: number | string | null | undefined): number | string | null {
  if (s === undefined || s === null || s === 0 || s === "") return null;
  return s;
}

/** The process died abnormally: non-zero exit code or killed by a signal. */
export function isCrash(state: { exitCode: number | null; signal?: number | string | null }): boolean {
  return (state.exitCode !== null && state.exitCode !== 0) || normalizeSignal(state.signal) !== null;
}

/** Fold a sequence of events (handy for tests and replay). */
export function reduceAll(state: PaneState, events: readonly PaneEvent[]): ReduceResult {
  let s = state;
  const effects: Effect[] = [];
  for (const e of events) {
    const r = reduce(s, e);
    s = r.state;
    effects.push(...r.effects);
  }
  return { state: s, effects };
}
