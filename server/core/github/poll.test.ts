// The pull request poll on fake clocks: when it runs, what it skips, and the exact backoff it
// records when a refresh fails (doubling per failure, a rate limit's reset respected).
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { HandoffStore } from "../../stores/handoff";
import { YardError } from "../errors";
import { PullRequestPoll } from "./poll";

type Row = Awaited<ReturnType<HandoffStore["pollable"]>>[number];

const INTERVAL = 1_000;

function row(over: Partial<Row> = {}): Row {
  return {
    taskId: "tsk1",
    prState: "open",
    prNumber: 1,
    nextPollAt: null,
    pollFailures: 0,
    task: { projectId: "prj1", disposition: null },
    ...over,
  } as Row;
}

function setup(rows: Row[], refresh: (r: Row, next: Date, signal: AbortSignal) => Promise<void>) {
  const failed: Array<{ taskId: string; error: string; failures: number; next: number }> = [];
  const store = {
    pollable: vi.fn(async () => rows),
    pollFailed: vi.fn(async (taskId: string, error: string, failures: number, next: Date) => {
      failed.push({ taskId, error, failures, next: next.getTime() });
    }),
  } as unknown as HandoffStore;
  const refreshed: Array<{ taskId: string; next: number }> = [];
  const poll = new PullRequestPoll({
    store,
    intervalMs: INTERVAL,
    refresh: async (r, next, signal) => {
      refreshed.push({ taskId: r.taskId, next: next.getTime() });
      await refresh(r, next, signal);
    },
  });
  return { poll, store, failed, refreshed };
}

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(1_000_000);
});
afterEach(() => vi.useRealTimers());

describe("PullRequestPoll", () => {
  it("runs a first pass at once, then one per interval, and none after stop", async () => {
    const { poll, store } = setup([], async () => {});
    poll.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(store.pollable).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(INTERVAL - 1);
    expect(store.pollable).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(store.pollable).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(3 * INTERVAL);
    expect(store.pollable).toHaveBeenCalledTimes(5);
    await poll.stop();
    await vi.advanceTimersByTimeAsync(10 * INTERVAL);
    expect(store.pollable).toHaveBeenCalledTimes(5);
  });

  it("stop() aborts a refresh in flight and records no failure for it", async () => {
    let seen: AbortSignal | null = null;
    const { poll, failed } = setup(
      [row()],
      (_r, _next, signal) =>
        new Promise<void>((_resolve, reject) => {
          seen = signal;
          signal.addEventListener("abort", () => reject(new YardError("GITHUB_UNAVAILABLE", "aborted")));
        }),
    );
    poll.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(seen!.aborted).toBe(false);
    await poll.stop();
    expect(seen!.aborted).toBe(true);
    expect(failed).toEqual([]);
  });

  it("asks for the next poll one interval on; skips an open pull request not due yet, never a merged one", async () => {
    const now = Date.now();
    const { poll, refreshed } = setup(
      [
        row({ taskId: "due" }),
        row({ taskId: "later", nextPollAt: new Date(now + 1) }),
        row({ taskId: "merged", prState: "merged", nextPollAt: new Date(now + 60_000) }),
      ],
      async () => {},
    );
    await poll.pass();
    expect(refreshed).toEqual([
      { taskId: "due", next: now + INTERVAL },
      { taskId: "merged", next: now + INTERVAL },
    ]);
  });

  it.each([
    [0, 2 * INTERVAL],
    [1, 4 * INTERVAL],
    [4, 32 * INTERVAL],
    [9, 32 * INTERVAL],
  ])("after %i failures in a row, one more waits exactly %i ms", async (before, wait) => {
    const now = Date.now();
    const { poll, failed } = setup([row({ pollFailures: before })], async () => {
      throw new YardError("GITHUB_UNAVAILABLE", "GitHub: could not read pull request #1: Server Error");
    });
    await poll.pass();
    expect(failed).toEqual([
      {
        taskId: "tsk1",
        error: "GITHUB_UNAVAILABLE: GitHub: could not read pull request #1: Server Error",
        failures: before + 1,
        next: now + wait,
      },
    ]);
  });

  it("waits for a rate limit's reset when it is later than the backoff", async () => {
    const now = Date.now();
    const late = setup([row()], async () => {
      throw new YardError("RATE_LIMITED", "GitHub: rate limit", { retryAt: now + 600_000 });
    });
    await late.poll.pass();
    expect(late.failed[0]!.next).toBe(now + 600_000);
    const soon = setup([row()], async () => {
      throw new YardError("RATE_LIMITED", "GitHub: rate limit", { retryAt: now + 10 });
    });
    await soon.poll.pass();
    expect(soon.failed[0]!.next).toBe(now + 2 * INTERVAL);
  });
});
