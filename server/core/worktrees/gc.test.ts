import { describe, expect, it } from "vitest";
import { ago, type GcFacts, verdict } from "./gc";

const NOW = Date.parse("2026-12-02T12:00:00Z");
const DAY = 86_400_000;
const item = (over: Partial<Parameters<typeof verdict>[0]> = {}) => ({
  status: "finished" as const,
  registered: true,
  inRoot: true,
  since: new Date(NOW - 10 * DAY),
  note: "its task is merged; the worktree is still on disk",
  ...over,
});
const clean: GcFacts = { pane: null, uncommitted: [] };

describe("the clean-up's verdict on one worktree", () => {
  it.each<[string, Parameters<typeof verdict>[0], GcFacts, { olderThanMs?: number; force?: boolean }, RegExp | null]>([
    ["a finished task's clean worktree goes", item(), clean, {}, null],
    ["a leftover goes", item({ status: "leftover", registered: false }), { pane: null, uncommitted: null }, {}, null],
    [
      "a leftover changed a minute ago stays (a task may be starting in it), even with force",
      item({ status: "leftover", since: new Date(NOW - 60_000) }),
      clean,
      { force: true },
      /changed 1m ago: a task may be starting in it/,
    ],
    [
      "a live task's stays, with its note",
      item({ status: "live", note: "its task is working" }),
      clean,
      { force: true },
      /working/,
    ],
    ["a missing one is nothing to remove", item({ status: "missing", note: "not on disk" }), clean, {}, /not on disk/],
    [
      "a directory git does not know outside the worktree folder stays",
      item({ registered: false, inRoot: false, note: "remove it yourself" }),
      clean,
      { force: true },
      /yourself/,
    ],
    [
      "too recent for --older-than",
      item({ since: new Date(NOW - 2 * DAY) }),
      clean,
      { olderThanMs: 7 * DAY },
      /finished 2d ago, within --older-than 7d/,
    ],
    ["old enough for --older-than", item(), clean, { olderThanMs: 7 * DAY }, null],
    [
      "a pane runs in it, even with force",
      item(),
      { pane: "paneabcd", uncommitted: [] },
      { force: true },
      /pane paneabcd/,
    ],
    [
      "uncommitted files keep it",
      item(),
      { pane: null, uncommitted: ["a.txt", "b.txt"] },
      {},
      /2 uncommitted files: pass --force/,
    ],
    ["uncommitted files go with force", item(), { pane: null, uncommitted: ["a.txt"] }, { force: true }, null],
    [
      "an unreadable status keeps it",
      item(),
      { pane: null, uncommitted: { error: "HEAD is a FIFO" } },
      {},
      /cannot be read \(HEAD is a FIFO\)/,
    ],
    [
      "an unreadable status goes with force",
      item(),
      { pane: null, uncommitted: { error: "x" } },
      { force: true },
      null,
    ],
  ])("%s", (_, it, facts, opts, kept) => {
    const v = verdict(it, facts, opts, NOW);
    if (kept === null) expect(v).toEqual({ remove: true });
    else expect(v).toEqual({ remove: false, reason: expect.stringMatching(kept) });
  });

  it.each([
    [0, "0s"],
    [59_000, "59s"],
    [60_000, "1m"],
    [3 * 3_600_000 + 5, "3h"],
    [8 * DAY, "8d"],
  ])("ago(%d) = %s", (ms, text) => expect(ago(ms)).toBe(text));
});
