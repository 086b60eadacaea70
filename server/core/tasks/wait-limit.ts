// How many long polls (tasks.wait) one caller may hold open at once: each holds a connection and a
// journal subscription that re-reads its tasks at every task event, so thousands from one
// orchestrator cost the whole server its CPU. A caller is a pane (by its id) or the person (the
// install token and every browser session). Over the cap a wait is refused at once with
// RATE_LIMITED; the waits already held are untouched.
import { YardError } from "../errors";

/** Default of YARD_MAX_WAITS: concurrent tasks.wait calls per caller. */
const DEFAULT_MAX_WAITS = 32;

export function maxWaitsFrom(env: Record<string, string | undefined> = process.env): number {
  const v = env.YARD_MAX_WAITS?.trim();
  return v && /^\d+$/.test(v) && Number(v) >= 1 ? Number(v) : DEFAULT_MAX_WAITS;
}

/** The caller a wait is counted against. */
export const waitCaller = (pane: { id: string } | null | undefined) => (pane ? `pane:${pane.id}` : "user");

export class WaitLimit {
  private readonly held = new Map<string, number>();

  constructor(readonly max: number) {}

  /** Takes one of `caller`'s slots (or throws RATE_LIMITED); the returned function gives it back, once. */
  acquire(caller: string): () => void {
    const n = this.held.get(caller) ?? 0;
    if (n >= this.max) {
      const who = caller === "user" ? "you" : caller.replace(/^pane:/, "pane ");
      throw new YardError(
        "RATE_LIMITED",
        `Too many waits at once: ${who} already ${caller === "user" ? "have" : "has"} ${n} tasks.wait calls open (at most ${this.max}, YARD_MAX_WAITS); wait on a context (--context) instead of one call per task, or let one end first`,
        { max: this.max, open: n },
      );
    }
    this.held.set(caller, n + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.held.get(caller) ?? 1) - 1;
      if (left > 0) this.held.set(caller, left);
      else this.held.delete(caller);
    };
  }

  /** Waits `caller` holds now. */
  open(caller: string): number {
    return this.held.get(caller) ?? 0;
  }
}
