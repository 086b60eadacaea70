import { describe, expect, it } from "vitest";
import { YardError } from "../errors";
import {
  ATTENTION_SEVERITY,
  DEFAULT_ATTENTION_LIMIT,
  attentionReason,
  rankAttention,
  type AttentionCandidate,
  type AttentionReason,
} from "./attention";

function pane(paneId: string, extra: Partial<AttentionCandidate> = {}): AttentionCandidate {
  return { paneId, lifecycle: "idle", doneSeen: false, exitCode: null, lastTransitionAt: 1000, ...extra };
}

describe("attentionReason", () => {
  type Row = [label: string, candidate: Partial<AttentionCandidate>, reason: AttentionReason | null];
  const ROWS: Row[] = [
    ["blocked", { lifecycle: "blocked" }, "blocked"],
    ["blocked at a start-up dialog", { lifecycle: "blocked", blockedReason: "startup_dialog" }, "startup_dialog"],
    [
      "blocked at a start-up dialog, pending task",
      { lifecycle: "blocked", blockedReason: "startup_dialog", taskState: "pending" },
      "startup_dialog",
    ],
    ["blocked at a prompt", { lifecycle: "blocked", blockedReason: "prompt" }, "blocked"],
    [
      "a start-up dialog reason on a pane no longer blocked",
      { lifecycle: "idle", blockedReason: "startup_dialog" },
      null,
    ],
    ["blocked even if dismissed", { lifecycle: "blocked", dismissed: true, doneSeen: true }, "blocked"],
    ["blocked beats input_required", { lifecycle: "blocked", taskState: "input_required" }, "blocked"],
    ["task input_required (pane idle)", { taskState: "input_required" }, "input_required"],
    ["task input_required beats done-unseen", { lifecycle: "done", taskState: "input_required" }, "input_required"],
    [
      "task input_required on an exited pane",
      { lifecycle: "exited", exitCode: 0, taskState: "input_required" },
      "input_required",
    ],
    ["crashed: non-zero exit", { lifecycle: "exited", exitCode: 1 }, "crashed"],
    ["crashed: signal", { lifecycle: "exited", exitCode: null, signal: 9 }, "crashed"],
    ["crashed: named signal", { lifecycle: "exited", exitCode: 0, signal: "SIGSEGV" }, "crashed"],
    ["crashed but seen", { lifecycle: "exited", exitCode: 1, doneSeen: true }, null],
    ["crashed but dismissed", { lifecycle: "exited", exitCode: 1, dismissed: true }, null],
    ["clean exit", { lifecycle: "exited", exitCode: 0 }, null],
    ["clean exit, signal 0", { lifecycle: "exited", exitCode: 0, signal: 0 }, null],
    ["done unseen", { lifecycle: "done" }, "done"],
    ["done seen", { lifecycle: "done", doneSeen: true }, null],
    ["done dismissed", { lifecycle: "done", dismissed: true }, null],
    ["turn failed (StopFailure), unseen", { lifecycle: "done", stopFailed: true }, "turn_failed"],
    ["turn failed, seen", { lifecycle: "done", stopFailed: true, doneSeen: true }, null],
    ["idle", { lifecycle: "idle" }, null],
    ["working", { lifecycle: "working" }, null],
    ["starting", { lifecycle: "starting" }, null],
    ["unknown", { lifecycle: "unknown" }, null],
    ["working task", { lifecycle: "working", taskState: "working" }, null],
    ["failed task on a clean pane is the board's business, not the pane's", { taskState: "failed" }, null],
  ];
  it.each(ROWS)("%s -> %s", (_label, extra, reason) => {
    expect(attentionReason(pane("p", extra))).toBe(reason);
  });

  it("documents the severity order", () => {
    const order = (Object.keys(ATTENTION_SEVERITY) as AttentionReason[]).sort(
      (a, b) => ATTENTION_SEVERITY[a] - ATTENTION_SEVERITY[b],
    );
    expect(order).toEqual([
      "startup_dialog",
      "blocked",
      "input_required",
      "result_unacknowledged",
      "crashed",
      "turn_failed",
      "done",
    ]);
  });
});

describe("rankAttention", () => {
  it("builds items with paneId, taskId, reason, severity, since", () => {
    expect(
      rankAttention([
        pane("a", { lifecycle: "blocked", taskId: "t1", lastTransitionAt: 5 }),
        pane("b", { taskState: "input_required", taskStateAt: 7, lastTransitionAt: 3 }),
        pane("c", { lifecycle: "done", taskId: null, lastTransitionAt: null }),
      ]),
    ).toEqual([
      { paneId: "a", taskId: "t1", reason: "blocked", severity: 0, since: 5 },
      { paneId: "b", reason: "input_required", severity: 1, since: 7 },
      { paneId: "c", reason: "done", severity: 4, since: null },
    ]);
  });

  it("input_required falls back to the pane's transition time", () => {
    expect(rankAttention([pane("b", { taskState: "input_required", lastTransitionAt: 3 })])[0]!.since).toBe(3);
  });

  type Case = [label: string, candidates: AttentionCandidate[], expected: string[]];
  const CASES: Case[] = [
    [
      "severity first, whatever the recency",
      [
        pane("done-new", { lifecycle: "done", lastTransitionAt: 900 }),
        pane("crash", { lifecycle: "exited", exitCode: 2, lastTransitionAt: 100 }),
        pane("blocked-old", { lifecycle: "blocked", lastTransitionAt: 1 }),
        pane("failed-turn", { lifecycle: "done", stopFailed: true, lastTransitionAt: 50 }),
        pane("input", { taskState: "input_required", lastTransitionAt: 2 }),
      ],
      ["blocked-old", "input", "crash", "failed-turn", "done-new"],
    ],
    [
      "then recency, newer first",
      [
        pane("b1", { lifecycle: "blocked", lastTransitionAt: 10 }),
        pane("b2", { lifecycle: "blocked", lastTransitionAt: 30 }),
        pane("b3", { lifecycle: "blocked", lastTransitionAt: 20 }),
      ],
      ["b2", "b3", "b1"],
    ],
    [
      "unknown times sort after known ones",
      [pane("x", { lifecycle: "done", lastTransitionAt: null }), pane("y", { lifecycle: "done", lastTransitionAt: 1 })],
      ["y", "x"],
    ],
    [
      "then paneId for stability",
      [
        pane("c", { lifecycle: "done", lastTransitionAt: 5 }),
        pane("a", { lifecycle: "done", lastTransitionAt: 5 }),
        pane("b", { lifecycle: "done", lastTransitionAt: 5 }),
      ],
      ["a", "b", "c"],
    ],
    [
      "panes that need nothing are left out",
      [
        pane("idle"),
        pane("working", { lifecycle: "working" }),
        pane("seen", { lifecycle: "done", doneSeen: true }),
        pane("clean-exit", { lifecycle: "exited", exitCode: 0 }),
        pane("needs", { lifecycle: "done" }),
      ],
      ["needs"],
    ],
    ["empty input", [], []],
  ];
  it.each(CASES)("%s", (_label, candidates, expected) => {
    expect(rankAttention(candidates).map((i) => i.paneId)).toEqual(expected);
    // order of the input does not matter
    expect(rankAttention([...candidates].reverse()).map((i) => i.paneId)).toEqual(expected);
  });

  it("bounds the result: default 50, custom limit", () => {
    const many = Array.from({ length: 120 }, (_, i) =>
      pane(`p${String(i).padStart(3, "0")}`, { lifecycle: "done", lastTransitionAt: i }),
    );
    const def = rankAttention(many);
    expect(def).toHaveLength(DEFAULT_ATTENTION_LIMIT);
    expect(def[0]!.paneId).toBe("p119");
    expect(rankAttention(many, { limit: 3 }).map((i) => i.paneId)).toEqual(["p119", "p118", "p117"]);
    expect(rankAttention(many, { limit: 1000 })).toHaveLength(120);
  });

  it("the limit keeps the most severe items", () => {
    const items = [
      ...Array.from({ length: 5 }, (_, i) => pane(`d${i}`, { lifecycle: "done", lastTransitionAt: 100 + i })),
      pane("blocked", { lifecycle: "blocked", lastTransitionAt: 0 }),
    ];
    expect(rankAttention(items, { limit: 1 }).map((i) => i.paneId)).toEqual(["blocked"]);
  });

  it.each([0, -1, 1.5, Number.NaN, 1001])("limit %s -> BAD_PARAMS", (limit) => {
    try {
      rankAttention([pane("a", { lifecycle: "done" })], { limit });
      throw new Error("no throw");
    } catch (e) {
      expect(e).toBeInstanceOf(YardError);
      expect((e as YardError).code).toBe("BAD_PARAMS");
    }
  });

  it("does not mutate its input", () => {
    const input = Object.freeze(
      [pane("b", { lifecycle: "done" }), pane("a", { lifecycle: "blocked" })].map((c) => Object.freeze(c)),
    );
    expect(() => rankAttention(input)).not.toThrow();
    expect(input.map((c) => c.paneId)).toEqual(["b", "a"]);
  });
});

describe("start-up dialogs in the ranking", () => {
  it("come first, ahead of newer permission prompts, and carry their message", () => {
    const items = rankAttention([
      pane("p-prompt", { lifecycle: "blocked", lastTransitionAt: 9000 }),
      pane("p-input", { taskState: "input_required", taskStateAt: 9500, message: "API Error: 400 bad request" }),
      pane("p-dialog", {
        lifecycle: "blocked",
        blockedReason: "startup_dialog",
        lastTransitionAt: 1000,
        message: "Claude Code asks whether you trust this folder",
      }),
    ]);
    expect(items.map((i) => [i.paneId, i.reason])).toEqual([
      ["p-dialog", "startup_dialog"],
      ["p-prompt", "blocked"],
      ["p-input", "input_required"],
    ]);
    expect(items[0]!.message).toBe("Claude Code asks whether you trust this folder");
    expect(items[0]!.severity).toBe(ATTENTION_SEVERITY.blocked);
    expect(items[1]).not.toHaveProperty("message");
    expect(items[2]!.message).toBe("API Error: 400 bad request");
  });
});
