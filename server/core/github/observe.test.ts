import { describe, expect, it } from "vitest";
import { observePull, pollDelay, summarizeChecks } from "./observe";

describe("observePull: recorded state x what GitHub says", () => {
  const open = { state: "open" as const, draft: false, headSha: "a1" };
  const seen = { state: "open" as const, merged: false, draft: false, headSha: "a1" };
  it.each([
    ["open, unchanged", open, seen, { state: "open", changes: [], finish: false }],
    [
      "open -> merged",
      open,
      { ...seen, state: "closed", merged: true },
      { state: "merged", changes: ["merged"], finish: true },
    ],
    [
      "open -> closed unmerged: shown, not acted on",
      open,
      { ...seen, state: "closed" },
      { state: "closed", changes: ["closed"], finish: false },
    ],
    ["closed -> reopened", { ...open, state: "closed" }, seen, { state: "open", changes: ["reopened"], finish: false }],
    [
      "closed -> merged",
      { ...open, state: "closed" },
      { ...seen, state: "closed", merged: true },
      { state: "merged", changes: ["merged"], finish: true },
    ],
    [
      "merged stays merged and asks to finish again",
      { ...open, state: "merged" },
      { ...seen, state: "open" },
      { state: "merged", changes: [], finish: true },
    ],
    ["open -> draft", open, { ...seen, draft: true }, { state: "open", changes: ["draft"], finish: false }],
    ["draft -> ready", { ...open, draft: true }, seen, { state: "open", changes: ["ready"], finish: false }],
    ["new commits pushed", open, { ...seen, headSha: "b2" }, { state: "open", changes: ["head_moved"], finish: false }],
    [
      "no head recorded yet",
      { ...open, headSha: null },
      { ...seen, headSha: "b2" },
      { state: "open", changes: [], finish: false },
    ],
    [
      "closed while a draft: only closed",
      { ...open, draft: true },
      { ...seen, state: "closed", draft: false },
      { state: "closed", changes: ["closed"], finish: false },
    ],
  ] as const)("%s", (_name, prev, observed, want) => {
    expect(observePull(prev, observed)).toEqual(want);
  });
});

describe("summarizeChecks", () => {
  it("says none when nothing reported", () => {
    expect(summarizeChecks([], [])).toEqual({ state: "none", total: 0, passed: 0, failed: 0, pending: 0, items: [] });
  });

  it("counts check runs and commit statuses together, failures first", () => {
    const s = summarizeChecks(
      [
        { name: "build", status: "completed", conclusion: "success", html_url: "https://ci/build" },
        { name: "test", status: "in_progress", conclusion: null },
        { name: "lint", status: "completed", conclusion: "timed_out" },
        { name: "docs", status: "completed", conclusion: "skipped" },
      ],
      [{ context: "legacy-ci", state: "error", target_url: "https://ci/legacy" }],
    );
    expect(s).toMatchObject({ state: "failure", total: 5, passed: 2, failed: 2, pending: 1 });
    expect(s.items.map((i) => [i.name, i.state])).toEqual([
      ["legacy-ci", "failure"],
      ["lint", "failure"],
      ["test", "pending"],
      ["build", "success"],
      ["docs", "skipped"],
    ]);
    expect(s.items[0]!.url).toBe("https://ci/legacy");
  });

  it.each([
    [[{ name: "a", status: "queued", conclusion: null }], "pending"],
    [[{ name: "a", status: "completed", conclusion: "success" }], "success"],
    [[{ name: "a", status: "completed", conclusion: "neutral" }], "success"],
    [[{ name: "a", status: "completed", conclusion: "cancelled" }], "failure"],
  ])("%j -> %s", (runs, state) => {
    expect(summarizeChecks(runs, []).state).toBe(state);
  });

  it("keeps at most 50 items, counting all", () => {
    const runs = Array.from({ length: 60 }, (_, i) => ({ name: `r${i}`, status: "completed", conclusion: "success" }));
    const s = summarizeChecks(runs, []);
    expect([s.total, s.passed, s.items.length]).toEqual([60, 60, 50]);
  });
});

describe("pollDelay", () => {
  it.each([
    [60_000, 0, 60_000],
    [60_000, 1, 120_000],
    [60_000, 3, 480_000],
    [60_000, 5, 1_800_000],
    [60_000, 9, 1_800_000],
    [1_000, 20, 32_000],
    [3_600_000, 4, 3_600_000],
  ])("interval %i, %i failures -> %i", (interval, failures, want) => {
    expect(pollDelay(interval, failures)).toBe(want);
  });
});
