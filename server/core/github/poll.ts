// The background poll that keeps recorded pull requests current, off the request path: every
// `intervalMs` (YARD_GITHUB_POLL_MS, default 60 s) it takes the pull requests that are due (open
// ones, and merged ones whose task is not finished yet: those only try to finish, without asking
// GitHub), one at a time, and hands each to `refresh` (GithubHandoff.refresh). A failed refresh
// (GitHub down, the token refused, no token any more) is recorded on the task's hand-off with why
// and retried after pollDelay (the interval doubled per failure in a row, capped); a rate limit
// waits at least until GitHub's reset. A merged task keeps being tried on every tick.
import type { HandoffStore } from "../../stores/handoff";
import { isYardError } from "../errors";
import { pollDelay } from "./observe";

type PollRow = Awaited<ReturnType<HandoffStore["pollable"]>>[number];

export interface PullRequestPollDeps {
  store: HandoffStore;
  /** `signal` aborts when the poll stops (the server closing): GitHub calls in flight end at once. */
  refresh(row: PollRow, nextPollAt: Date, signal: AbortSignal): Promise<void>;
  intervalMs: number;
  log?: (line: string) => void;
  now?: () => number;
}

export const DEFAULT_POLL_MS = 60_000;

export class PullRequestPoll {
  private timer: ReturnType<typeof setTimeout> | null = null;
  private running: Promise<void> | null = null;
  private stopped = false;
  private ac = new AbortController();

  constructor(private readonly deps: PullRequestPollDeps) {}

  private now(): number {
    return this.deps.now?.() ?? Date.now();
  }

  /** Starts polling: a first pass soon (what merged while no server ran), then every interval. */
  start(): void {
    this.stopped = false;
    this.ac = new AbortController();
    this.schedule(0);
  }

  /** Stops: GitHub calls in flight are aborted; resolves once the pass in progress has ended. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.ac.abort();
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running;
  }

  private schedule(ms: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.running = this.pass().finally(() => {
        this.running = null;
        this.schedule(this.deps.intervalMs);
      });
    }, ms);
    this.timer.unref?.();
  }

  /** One pass over the pull requests that are due. */
  async pass(): Promise<void> {
    let rows: PollRow[];
    try {
      rows = await this.deps.store.pollable();
    } catch (e) {
      this.deps.log?.(`pull request poll: ${(e as Error).message}`);
      return;
    }
    for (const row of rows) {
      if (this.stopped) return;
      if (row.prState === "open" && row.nextPollAt && row.nextPollAt.getTime() > this.now()) continue;
      await this.one(row);
    }
  }

  private async one(row: PollRow): Promise<void> {
    const interval = this.deps.intervalMs;
    try {
      await this.deps.refresh(row, new Date(this.now() + interval), this.ac.signal);
    } catch (e) {
      if (this.stopped) return; // cut short by stop(): not GitHub's failure
      const failures = row.pollFailures + 1;
      let next = this.now() + pollDelay(interval, failures);
      const retryAt = isYardError(e) ? Number(e.details?.retryAt) : Number.NaN;
      if (Number.isFinite(retryAt) && retryAt > next) next = retryAt;
      const why = isYardError(e) ? `${e.code}: ${e.message}` : String((e as Error)?.message ?? e);
      await this.deps.store.pollFailed(row.taskId, why.slice(0, 2000), failures, new Date(next)).catch(() => {});
      if (failures === 1) this.deps.log?.(`pull request of ${row.taskId}: ${why} (trying again with backoff)`);
    }
  }
}
