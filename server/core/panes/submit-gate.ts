// Safe submit: type a prompt into an agent's pane and confirm the agent took it.
// Owns: the refusal rules (checked before a single byte is written), the paste encoding
// (bracketed or plain), the separate delayed Enter, the activity gate against the
// pre-submit baseline, per-pane serialization (SubmitQueue), and a small ActivityWaiter
// that implements the waitForActivity half of the port for the pane manager.
// Framework-free: the PTY and the lifecycle state come in through SubmitTarget.
//
// Text encoding decisions
// - The paste markers ESC[200~ / ESC[201~ are stripped from the text in both modes: they
//   are never legitimate prompt content, and an embedded ESC[201~ would end the paste
//   early and let the rest be read as keystrokes.
// - Line breaks are normalized to \n (CRLF and lone CR become \n): a CR is Enter, and an
//   embedded one would submit a partial prompt. Trailing line breaks are dropped: Enter is
//   sent separately. \n is kept as is (not joined with \r) in plain mode too; TUIs read it
//   as Ctrl-J (newline in the composer) rather than Enter.
// - Nothing else is rewritten: other control characters pass through.

import type { z } from "zod";
import type { submitReply } from "../../wire/panes";
import { YardError } from "../errors";
import type { Lifecycle } from "./lifecycle";

export interface SubmitTarget {
  lifecycle(): Lifecycle;
  /** the pane's task is still pending => not ready */
  taskPending(): boolean;
  /** activity counter from the lifecycle state (PaneState.activitySeq) */
  activitySeq(): number;
  bracketedPaste(): boolean;
  /** raw bytes to the PTY */
  write(data: string): void;
  /**
   * Resolve true as soon as activitySeq() > afterSeq (including when already true at call
   * time), false after timeoutMs.
   */
  waitForActivity(afterSeq: number, timeoutMs: number, signal?: AbortSignal): Promise<boolean>;
}

export interface SubmitOptions {
  /** delay between the text and the Enter write, ms (default 300) */
  enterDelayMs?: number;
  /** how long to wait for the agent to start working after Enter, ms (default 5000) */
  stallMs?: number;
  signal?: AbortSignal;
}

/** A submit the agent took (server/wire/panes.ts; the manager adds the lifecycle it left the pane in). */
export type SubmitResult = Omit<z.infer<typeof submitReply>, "lifecycle">;

const DEFAULT_ENTER_DELAY_MS = 300;
const DEFAULT_STALL_MS = 5000;

export const PASTE_START = "\x1b[200~";
export const PASTE_END = "\x1b[201~";
export const ENTER = "\r";

/** Remove paste markers and normalize line breaks (see top comment). */
export function sanitizeSubmitText(text: string): string {
  let t = text;
  // Loop: removing one marker can join the pieces of another ("\x1b[20\x1b[201~1~").
  for (;;) {
    const next = t.split(PASTE_START).join("").split(PASTE_END).join("");
    if (next === t) break;
    t = next;
  }
  return t.replace(/\r\n?/g, "\n").replace(/\n+$/, "");
}

/** The bytes written for the text part of a submit (Enter not included). */
export function encodeSubmitText(text: string, bracketed: boolean): string {
  const t = sanitizeSubmitText(text);
  return bracketed ? PASTE_START + t + PASTE_END : t;
}

/**
 * Throw the refusal for a pane that cannot take a prompt now, or return normally.
 * Order: exited, busy (working/blocked), not ready (starting/unknown), task pending.
 */
function checkSubmittable(lifecycle: Lifecycle, taskPending: boolean): void {
  switch (lifecycle) {
    case "exited":
      throw new YardError("PANE_EXITED", "The pane's process has exited; it cannot take a prompt.", {
        state: lifecycle,
      });
    case "working":
    case "blocked":
      throw new YardError(
        "PANE_BUSY",
        lifecycle === "working"
          ? "The agent is working; wait for it to finish its turn."
          : "The agent is waiting on a prompt (permission or question) in the pane.",
        { state: lifecycle },
      );
    case "starting":
    case "unknown":
      throw new YardError("AGENT_NOT_READY", `The agent is not ready for input yet (${lifecycle}).`, {
        state: lifecycle,
      });
    case "idle":
    case "done":
      break;
    default: {
      const never: never = lifecycle;
      throw new YardError("AGENT_NOT_READY", `Unexpected pane state ${String(never)}.`, { state: String(never) });
    }
  }
  if (taskPending) {
    throw new YardError("AGENT_NOT_READY", "The pane's task is still pending; it has not been started yet.", {
      state: lifecycle,
      taskPending: true,
    });
  }
}

function checkMs(name: string, v: number | undefined, dflt: number): number {
  if (v === undefined) return dflt;
  if (typeof v !== "number" || !Number.isFinite(v) || v < 0) {
    throw new YardError("BAD_PARAMS", `${name} must be a non-negative number of milliseconds`, {
      field: name,
      value: v,
    });
  }
  return v;
}

function abortError(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException("The operation was aborted.", "AbortError");
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortError(signal));
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortError(signal!));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/**
 * Submit `text` to the target and wait until the agent shows activity newer than the
 * pre-submit baseline.
 * Refusals (zero bytes written): BAD_PARAMS (empty text, bad options), PANE_EXITED,
 * PANE_BUSY, AGENT_NOT_READY. After writing: SUBMIT_STALLED {stage:"activity_gate"} when
 * no activity arrives within stallMs; PANE_EXITED {stage} when the process dies midway.
 * An abort signal rejects with its reason (possibly after the text was written but before
 * Enter).
 */
export async function submit(target: SubmitTarget, text: string, opts: SubmitOptions = {}): Promise<SubmitResult> {
  const enterDelayMs = checkMs("enterDelayMs", opts.enterDelayMs, DEFAULT_ENTER_DELAY_MS);
  const stallMs = checkMs("stallMs", opts.stallMs, DEFAULT_STALL_MS);
  const { signal } = opts;

  if (typeof text !== "string") throw new YardError("BAD_PARAMS", "text must be a string", { field: "text" });
  const clean = sanitizeSubmitText(text);
  if (clean.trim() === "") throw new YardError("BAD_PARAMS", "text is empty or whitespace-only", { field: "text" });

  checkSubmittable(target.lifecycle(), target.taskPending());
  if (signal?.aborted) throw abortError(signal);

  // Baseline first: anything that happens after this point counts, even if it lands
  // before we start waiting.
  const baseline = target.activitySeq();
  const bracketed = target.bracketedPaste();
  target.write(encodeSubmitText(clean, bracketed));

  await sleep(enterDelayMs, signal);
  if (target.lifecycle() === "exited") {
    throw new YardError("PANE_EXITED", "The pane's process exited before Enter was sent.", {
      stage: "enter",
      state: "exited",
    });
  }
  target.write(ENTER);

  const active = target.activitySeq() > baseline || (await target.waitForActivity(baseline, stallMs, signal));
  if (!active) {
    if (signal?.aborted) throw abortError(signal);
    const state = target.lifecycle();
    if (state === "exited") {
      throw new YardError("PANE_EXITED", "The pane's process exited before the agent started working.", {
        stage: "activity_gate",
        state,
      });
    }
    throw new YardError(
      "SUBMIT_STALLED",
      `The agent showed no activity within ${stallMs} ms after the prompt was submitted (activity gate).`,
      { stage: "activity_gate", stallMs, baseline, state },
    );
  }
  return { ok: true, activitySeq: target.activitySeq(), bracketed };
}

/**
 * At most one submit per key (pane) in flight. A second submit that arrives while one is
 * in flight is refused with PANE_BUSY {state:"submitting"} without running — it is never
 * queued behind the first (the pane would be busy by the time it ran anyway).
 */
export class SubmitQueue {
  private readonly inFlight = new Set<string>();

  isBusy(key: string): boolean {
    return this.inFlight.has(key);
  }

  /** Run fn exclusively for key. The busy check and the claim happen synchronously. */
  run<T>(key: string, fn: () => Promise<T>): Promise<T> {
    if (this.inFlight.has(key)) {
      return Promise.reject(
        new YardError("PANE_BUSY", "Another prompt is being submitted to this pane.", {
          state: "submitting",
          paneId: key,
        }),
      );
    }
    this.inFlight.add(key);
    let p: Promise<T>;
    try {
      p = Promise.resolve(fn());
    } catch (e) {
      this.inFlight.delete(key);
      return Promise.reject(e);
    }
    return p.finally(() => this.inFlight.delete(key));
  }

  submit(key: string, target: SubmitTarget, text: string, opts?: SubmitOptions): Promise<SubmitResult> {
    return this.run(key, () => submit(target, text, opts));
  }
}

/**
 * The waitForActivity half of a SubmitTarget for the pane manager: call notify() whenever
 * a reduce() yields a "transition" or "activity" effect (or on exit, so waiters can
 * re-check). Waiters compare against the counter, not against notifications, so activity
 * that happened before wait() was called counts.
 */
export class ActivityWaiter {
  private readonly waiters = new Set<() => void>();

  constructor(private readonly current: () => number) {}

  notify(): void {
    for (const w of [...this.waiters]) w();
  }

  /** number of pending waits (for tests and leak checks) */
  get pending(): number {
    return this.waiters.size;
  }

  wait(afterSeq: number, timeoutMs: number, signal?: AbortSignal): Promise<boolean> {
    if (this.current() > afterSeq) return Promise.resolve(true);
    if (signal?.aborted) return Promise.resolve(false);
    return new Promise<boolean>((resolve) => {
      const finish = (v: boolean) => {
        clearTimeout(timer);
        this.waiters.delete(check);
        signal?.removeEventListener("abort", onAbort);
        resolve(v);
      };
      const check = () => {
        if (this.current() > afterSeq) finish(true);
      };
      const onAbort = () => finish(false);
      const timer = setTimeout(() => finish(this.current() > afterSeq), timeoutMs);
      this.waiters.add(check);
      signal?.addEventListener("abort", onAbort, { once: true });
    });
  }
}
