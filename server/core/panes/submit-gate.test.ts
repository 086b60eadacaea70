import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { YardError } from "../errors";
import type { Lifecycle } from "./lifecycle";
import {
  ActivityWaiter,
  ENTER,
  PASTE_END,
  PASTE_START,
  SubmitQueue,
  encodeSubmitText,
  sanitizeSubmitText,
  submit,
  type SubmitTarget,
} from "./submit-gate";

const T0 = 1_700_000_000_000;

/** A pane double: records every write with its (fake) time and every port call in order. */
class FakePane implements SubmitTarget {
  state: Lifecycle = "idle";
  pending = false;
  seq = 0;
  bracketed = true;
  writes: Array<{ data: string; t: number }> = [];
  calls: string[] = [];
  waitCalls: Array<{ afterSeq: number; timeoutMs: number }> = [];
  /** called after each write (simulate the agent reacting) */
  onWrite: ((data: string) => void) | undefined;
  readonly waiter = new ActivityWaiter(() => this.seq);

  lifecycle(): Lifecycle {
    this.calls.push("lifecycle");
    return this.state;
  }
  taskPending(): boolean {
    this.calls.push("taskPending");
    return this.pending;
  }
  activitySeq(): number {
    this.calls.push("activitySeq");
    return this.seq;
  }
  bracketedPaste(): boolean {
    this.calls.push("bracketedPaste");
    return this.bracketed;
  }
  write(data: string): void {
    this.calls.push("write");
    this.writes.push({ data, t: Date.now() });
    this.onWrite?.(data);
  }
  waitForActivity(afterSeq: number, timeoutMs: number, signal?: AbortSignal): Promise<boolean> {
    this.calls.push("waitForActivity");
    this.waitCalls.push({ afterSeq, timeoutMs });
    return this.waiter.wait(afterSeq, timeoutMs, signal);
  }
  /** the agent shows activity (a hook mapped to working/blocked, or a Stop) */
  activity(to: Lifecycle = "working"): void {
    this.seq += 1;
    this.state = to;
    this.waiter.notify();
  }
  get bytes(): string {
    return this.writes.map((w) => w.data).join("");
  }
}

/** Agent that starts working shortly after Enter. */
function reactsToEnter(p: FakePane, afterMs = 20): void {
  p.onWrite = (d) => {
    if (d === ENTER) setTimeout(() => p.activity("working"), afterMs);
  };
}

type Settled<T> = { ok: true; value: T } | { ok: false; error: unknown };
function settle<T>(p: Promise<T>): Promise<Settled<T>> {
  return p.then(
    (value) => ({ ok: true as const, value }),
    (error: unknown) => ({ ok: false as const, error }),
  );
}

function expectYard(s: Settled<unknown>, code: string, details?: Record<string, unknown>): YardError {
  expect(s.ok).toBe(false);
  const e = (s as { error: unknown }).error;
  expect(e).toBeInstanceOf(YardError);
  expect((e as YardError).code).toBe(code);
  if (details) expect((e as YardError).details).toMatchObject(details);
  return e as YardError;
}

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(T0);
});
afterEach(() => {
  vi.useRealTimers();
});

describe("submit: refusals write zero bytes", () => {
  type R = [
    label: string,
    state: Lifecycle,
    pending: boolean,
    text: string,
    code: string,
    details?: Record<string, unknown>,
  ];
  const ROWS: R[] = [
    ["empty text", "idle", false, "", "BAD_PARAMS", { field: "text" }],
    ["whitespace-only text", "idle", false, "  \n\t \r\n", "BAD_PARAMS", { field: "text" }],
    ["only paste markers", "idle", false, `${PASTE_END}${PASTE_START} `, "BAD_PARAMS", { field: "text" }],
    ["empty text beats exited", "exited", false, " ", "BAD_PARAMS"],
    ["working", "working", false, "hi", "PANE_BUSY", { state: "working" }],
    ["blocked", "blocked", false, "hi", "PANE_BUSY", { state: "blocked" }],
    ["starting", "starting", false, "hi", "AGENT_NOT_READY", { state: "starting" }],
    ["unknown", "unknown", false, "hi", "AGENT_NOT_READY", { state: "unknown" }],
    ["idle but task pending", "idle", true, "hi", "AGENT_NOT_READY", { state: "idle", taskPending: true }],
    ["done but task pending", "done", true, "hi", "AGENT_NOT_READY", { state: "done", taskPending: true }],
    ["exited", "exited", false, "hi", "PANE_EXITED", { state: "exited" }],
    ["exited with task pending", "exited", true, "hi", "PANE_EXITED", { state: "exited" }],
    ["working with task pending", "working", true, "hi", "PANE_BUSY", { state: "working" }],
  ];

  it.each(ROWS)("%s -> %s", async (_label, state, pending, text, code, details) => {
    const p = new FakePane();
    p.state = state;
    p.pending = pending;
    const s = await settle(submit(p, text));
    expectYard(s, code, details);
    expect(p.writes).toEqual([]);
    expect(p.waitCalls).toEqual([]);
    expect(vi.getTimerCount()).toBe(0);
  });

  it.each([
    [{ enterDelayMs: -1 }, "enterDelayMs"],
    [{ enterDelayMs: Number.NaN }, "enterDelayMs"],
    [{ stallMs: Number.POSITIVE_INFINITY }, "stallMs"],
    [{ stallMs: -5 }, "stallMs"],
  ])("bad option %o -> BAD_PARAMS", async (opts, field) => {
    const p = new FakePane();
    expectYard(await settle(submit(p, "hi", opts)), "BAD_PARAMS", { field });
    expect(p.writes).toEqual([]);
  });

  it("a non-string text is BAD_PARAMS", async () => {
    const p = new FakePane();
    expectYard(await settle(submit(p, 42 as unknown as string)), "BAD_PARAMS");
    expect(p.writes).toEqual([]);
  });

  it("an already-aborted signal writes nothing", async () => {
    const p = new FakePane();
    const ac = new AbortController();
    ac.abort(new Error("caller gave up"));
    const s = await settle(submit(p, "hi", { signal: ac.signal }));
    expect(s).toMatchObject({ ok: false, error: { message: "caller gave up" } });
    expect(p.writes).toEqual([]);
  });
});

describe("submit: bytes, ordering, timing", () => {
  it("bracketed: one paste write, then Enter as a separate write after 300 ms", async () => {
    const p = new FakePane();
    reactsToEnter(p);
    const done = settle(submit(p, "Add a --json flag"));

    await vi.advanceTimersByTimeAsync(0);
    expect(p.writes).toEqual([{ data: `${PASTE_START}Add a --json flag${PASTE_END}`, t: T0 }]);
    await vi.advanceTimersByTimeAsync(299);
    expect(p.writes).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(p.writes[1]).toEqual({ data: "\r", t: T0 + 300 });

    await vi.advanceTimersByTimeAsync(20);
    expect(await done).toEqual({ ok: true, value: { ok: true, activitySeq: 1, bracketed: true } });
    expect(p.writes).toHaveLength(2);
  });

  it("reads the baseline before the first write and waits against it", async () => {
    const p = new FakePane();
    p.seq = 41;
    reactsToEnter(p);
    const done = settle(submit(p, "go"));
    await vi.advanceTimersByTimeAsync(400);
    expect((await done).ok).toBe(true);
    const firstWrite = p.calls.indexOf("write");
    expect(p.calls.indexOf("activitySeq")).toBeGreaterThanOrEqual(0);
    expect(p.calls.indexOf("activitySeq")).toBeLessThan(firstWrite);
    expect(p.calls.slice(0, firstWrite)).toEqual(["lifecycle", "taskPending", "activitySeq", "bracketedPaste"]);
    expect(p.waitCalls).toEqual([{ afterSeq: 41, timeoutMs: 5000 }]);
  });

  it("honours enterDelayMs", async () => {
    const p = new FakePane();
    reactsToEnter(p, 0);
    const done = settle(submit(p, "x", { enterDelayMs: 50 }));
    await vi.advanceTimersByTimeAsync(49);
    expect(p.writes).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(p.writes.map((w) => [w.data, w.t - T0])).toEqual([
      [`${PASTE_START}x${PASTE_END}`, 0],
      ["\r", 50],
    ]);
    await vi.advanceTimersByTimeAsync(1);
    expect((await done).ok).toBe(true);
  });

  it("plain mode (bracketed paste off): text as-is, \\n kept, Enter separate", async () => {
    const p = new FakePane();
    p.bracketed = false;
    reactsToEnter(p);
    const done = settle(submit(p, "line one\nline two\r\nline three\n\n"));
    await vi.advanceTimersByTimeAsync(320);
    expect(await done).toMatchObject({ ok: true, value: { bracketed: false } });
    expect(p.writes.map((w) => w.data)).toEqual(["line one\nline two\nline three", "\r"]);
  });

  it("bracketed: strips embedded end/start markers so the paste cannot be escaped", async () => {
    const p = new FakePane();
    reactsToEnter(p);
    const done = settle(submit(p, `safe${PASTE_END}rm -rf /\r${PASTE_START}tail`));
    await vi.advanceTimersByTimeAsync(320);
    expect((await done).ok).toBe(true);
    expect(p.writes.map((w) => w.data)).toEqual([`${PASTE_START}saferm -rf /\ntail${PASTE_END}`, "\r"]);
    // exactly one start and one end marker in the whole byte stream
    expect(p.bytes.split(PASTE_START).length - 1).toBe(1);
    expect(p.bytes.split(PASTE_END).length - 1).toBe(1);
  });
});

describe("submit: the activity gate", () => {
  it("stall: no activity within 5 s -> SUBMIT_STALLED naming the activity gate", async () => {
    const p = new FakePane();
    p.seq = 3;
    const done = settle(submit(p, "hello"));
    await vi.advanceTimersByTimeAsync(300 + 4999);
    let finished = false;
    void done.then(() => (finished = true));
    await vi.advanceTimersByTimeAsync(0);
    expect(finished).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    const e = expectYard(await done, "SUBMIT_STALLED", {
      stage: "activity_gate",
      stallMs: 5000,
      baseline: 3,
      state: "idle",
    });
    expect(e.retryable).toBe(true);
    expect(p.writes.map((w) => w.data)).toEqual([`${PASTE_START}hello${PASTE_END}`, "\r"]);
    expect(p.waiter.pending).toBe(0);
  });

  it("honours stallMs", async () => {
    const p = new FakePane();
    const done = settle(submit(p, "hello", { stallMs: 1000, enterDelayMs: 0 }));
    await vi.advanceTimersByTimeAsync(1000);
    expectYard(await done, "SUBMIT_STALLED", { stage: "activity_gate", stallMs: 1000, baseline: 0 });
  });

  it("activity just before the stall budget runs out succeeds", async () => {
    const p = new FakePane();
    p.onWrite = (d) => {
      if (d === ENTER) setTimeout(() => p.activity("blocked"), 4999);
    };
    const done = settle(submit(p, "hello"));
    await vi.advanceTimersByTimeAsync(300 + 4999);
    expect(await done).toMatchObject({ ok: true, value: { activitySeq: 1 } });
  });

  it("race: the agent's whole turn (working then Stop) lands between Enter and the gate -> success", async () => {
    const p = new FakePane();
    p.seq = 10;
    // The hooks arrive synchronously inside the Enter write, before waitForActivity attaches.
    p.onWrite = (d) => {
      if (d === ENTER) {
        p.activity("working");
        p.activity("done");
      }
    };
    // A port that only listens for *future* notifications (a buggy implementation) must not
    // matter: the gate compares against the baseline.
    p.waitForActivity = (afterSeq, timeoutMs) => {
      p.waitCalls.push({ afterSeq, timeoutMs });
      return new Promise((resolve) => setTimeout(() => resolve(false), timeoutMs));
    };
    const done = settle(submit(p, "quick one"));
    await vi.advanceTimersByTimeAsync(300 + 5000);
    expect(await done).toEqual({ ok: true, value: { ok: true, activitySeq: 12, bracketed: true } });
  });

  it("race: activity between Enter and waitForActivity with a correct port -> success", async () => {
    const p = new FakePane();
    let bumped = false;
    const orig = p.waitForActivity.bind(p);
    p.waitForActivity = (afterSeq, timeoutMs, signal) => {
      // the Stop lands right as the gate attaches: before the port is even asked
      if (!bumped) {
        bumped = true;
        p.activity("done");
      }
      return orig(afterSeq, timeoutMs, signal);
    };
    // make the pre-check miss by bumping only inside waitForActivity
    const done = settle(submit(p, "x"));
    await vi.advanceTimersByTimeAsync(300);
    expect(await done).toMatchObject({ ok: true, value: { activitySeq: 1 } });
    expect(p.waitCalls).toEqual([{ afterSeq: 0, timeoutMs: 5000 }]);
  });

  it("activity that happened before the submit (the baseline) does not count", async () => {
    const p = new FakePane();
    p.activity("done"); // previous turn: seq 1, pane is done
    const done = settle(submit(p, "again", { stallMs: 500 }));
    await vi.advanceTimersByTimeAsync(800);
    expectYard(await done, "SUBMIT_STALLED", { baseline: 1 });
  });

  it("the process exits during the Enter delay -> PANE_EXITED at stage enter, no Enter written", async () => {
    const p = new FakePane();
    const done = settle(submit(p, "x"));
    await vi.advanceTimersByTimeAsync(100);
    p.state = "exited";
    await vi.advanceTimersByTimeAsync(200);
    expectYard(await done, "PANE_EXITED", { stage: "enter" });
    expect(p.writes).toHaveLength(1);
  });

  it("the process exits during the gate -> PANE_EXITED at stage activity_gate", async () => {
    const p = new FakePane();
    p.onWrite = (d) => {
      if (d === ENTER) p.state = "exited";
    };
    const done = settle(submit(p, "x", { stallMs: 1000 }));
    await vi.advanceTimersByTimeAsync(1300);
    expectYard(await done, "PANE_EXITED", { stage: "activity_gate" });
  });

  it("abort during the Enter delay rejects with the reason and never writes Enter", async () => {
    const p = new FakePane();
    const ac = new AbortController();
    const done = settle(submit(p, "x", { signal: ac.signal }));
    await vi.advanceTimersByTimeAsync(100);
    ac.abort(new Error("stop"));
    await vi.advanceTimersByTimeAsync(1000);
    expect(await done).toMatchObject({ ok: false, error: { message: "stop" } });
    expect(p.writes).toHaveLength(1);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("abort during the gate rejects with the reason, not SUBMIT_STALLED", async () => {
    const p = new FakePane();
    const ac = new AbortController();
    const done = settle(submit(p, "x", { signal: ac.signal }));
    await vi.advanceTimersByTimeAsync(1000);
    ac.abort(new Error("stop"));
    await vi.advanceTimersByTimeAsync(0);
    expect(await done).toMatchObject({ ok: false, error: { message: "stop" } });
    expect(p.waiter.pending).toBe(0);
  });
});

describe("SubmitQueue: one submit per pane in flight", () => {
  it("a concurrent second submit is refused with PANE_BUSY {state: submitting} and writes nothing", async () => {
    const q = new SubmitQueue();
    const first = new FakePane();
    reactsToEnter(first, 100);
    const second = new FakePane(); // same pane id, separate double so its bytes are attributable
    const a = settle(q.submit("pane-1", first, "one"));
    await vi.advanceTimersByTimeAsync(150); // first is between paste and Enter
    expect(q.isBusy("pane-1")).toBe(true);
    const b = await settle(q.submit("pane-1", second, "two"));
    expectYard(b, "PANE_BUSY", { state: "submitting", paneId: "pane-1" });
    expect(second.writes).toEqual([]);
    expect(second.calls).toEqual([]);

    await vi.advanceTimersByTimeAsync(300);
    expect((await a).ok).toBe(true);
    expect(first.writes.map((w) => w.data)).toEqual([`${PASTE_START}one${PASTE_END}`, "\r"]);
    expect(q.isBusy("pane-1")).toBe(false);
  });

  it("is refused even when both submits start in the same tick", async () => {
    const q = new SubmitQueue();
    const p = new FakePane();
    reactsToEnter(p);
    const a = settle(q.submit("p", p, "one"));
    const b = settle(q.submit("p", p, "two"));
    expectYard(await b, "PANE_BUSY", { state: "submitting" });
    await vi.advanceTimersByTimeAsync(400);
    expect((await a).ok).toBe(true);
    expect(p.bytes).toBe(`${PASTE_START}one${PASTE_END}\r`);
  });

  it("different panes run concurrently", async () => {
    const q = new SubmitQueue();
    const p1 = new FakePane();
    const p2 = new FakePane();
    reactsToEnter(p1);
    reactsToEnter(p2);
    const a = settle(q.submit("p1", p1, "one"));
    const b = settle(q.submit("p2", p2, "two"));
    await vi.advanceTimersByTimeAsync(400);
    expect([(await a).ok, (await b).ok]).toEqual([true, true]);
  });

  it("frees the pane after a failure (async rejection or synchronous throw)", async () => {
    const q = new SubmitQueue();
    const p = new FakePane();
    const stalled = settle(q.submit("p", p, "x", { stallMs: 10, enterDelayMs: 0 }));
    await vi.advanceTimersByTimeAsync(10);
    expectYard(await stalled, "SUBMIT_STALLED");
    expect(q.isBusy("p")).toBe(false);

    const sync = await settle(
      q.run("p", () => {
        throw new Error("boom");
      }),
    );
    expect(sync).toMatchObject({ ok: false, error: { message: "boom" } });
    expect(q.isBusy("p")).toBe(false);
  });

  it("after the first submit the pane is working, so the next one is refused by the lifecycle", async () => {
    const q = new SubmitQueue();
    const p = new FakePane();
    reactsToEnter(p);
    const a = settle(q.submit("p", p, "one"));
    await vi.advanceTimersByTimeAsync(400);
    expect((await a).ok).toBe(true);
    const b = await settle(q.submit("p", p, "two"));
    expectYard(b, "PANE_BUSY", { state: "working" });
    expect(p.writes).toHaveLength(2);
  });
});

describe("text encoding", () => {
  it.each([
    ["plain", "plain"],
    ["a\r\nb\rc\nd", "a\nb\nc\nd"],
    ["trailing\n\r\n", "trailing"],
    [`x${PASTE_END}y${PASTE_START}z`, "xyz"],
    ["\x1b[20\x1b[201~1~tail", "tail"], // removing one marker must not reveal another
    ["  keep inner  \n  spacing ", "  keep inner  \n  spacing "],
  ])("sanitize %j -> %j", (input, out) => {
    expect(sanitizeSubmitText(input)).toBe(out);
  });

  it("encodeSubmitText wraps only in bracketed mode", () => {
    expect(encodeSubmitText("a\nb", true)).toBe(`${PASTE_START}a\nb${PASTE_END}`);
    expect(encodeSubmitText("a\nb", false)).toBe("a\nb");
  });
});

describe("ActivityWaiter", () => {
  it("resolves true at once when the counter is already past the baseline", async () => {
    let seq = 5;
    const w = new ActivityWaiter(() => seq);
    expect(await w.wait(4, 1000)).toBe(true);
    expect(w.pending).toBe(0);
    seq = 5;
  });

  it("resolves true on notify after a bump; ignores notifies without a bump", async () => {
    let seq = 0;
    const w = new ActivityWaiter(() => seq);
    const r = settle(w.wait(0, 1000));
    w.notify();
    await vi.advanceTimersByTimeAsync(10);
    expect(w.pending).toBe(1);
    seq = 1;
    w.notify();
    expect(await r).toEqual({ ok: true, value: true });
    expect(w.pending).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("resolves false on timeout and on abort, cleaning up", async () => {
    const w = new ActivityWaiter(() => 0);
    const t = settle(w.wait(0, 100));
    await vi.advanceTimersByTimeAsync(100);
    expect(await t).toEqual({ ok: true, value: false });

    const ac = new AbortController();
    const a = settle(w.wait(0, 100, ac.signal));
    ac.abort();
    expect(await a).toEqual({ ok: true, value: false });
    expect(w.pending).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
  });
});
