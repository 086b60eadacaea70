import { describe, expect, it } from "vitest";
import { cardLine, type CardLineInput } from "./card-line";

const pane = (extra: Partial<NonNullable<CardLineInput["pane"]>> = {}): NonNullable<CardLineInput["pane"]> => ({
  lifecycle: "working",
  blockedReason: null,
  dialog: null,
  note: null,
  ...extra,
});

type Row = [label: string, input: CardLineInput, line: string | null];
const ROWS: Row[] = [
  ["working, nothing to say", { state: "working", evidence: null, pane: pane() }, null],
  [
    "pending at a start-up dialog",
    {
      state: "pending",
      evidence: null,
      pane: pane({
        lifecycle: "blocked",
        blockedReason: "startup_dialog",
        dialog: { title: "Claude Code asks whether you trust this folder" },
      }),
    },
    "Waiting for you: Claude Code asks whether you trust this folder",
  ],
  [
    "a permission prompt",
    { state: "working", evidence: null, pane: pane({ lifecycle: "blocked", blockedReason: "prompt" }) },
    "Waiting for you: the agent asks for permission",
  ],
  [
    "an API error ended the turn",
    {
      state: "input_required",
      evidence: { reason: "turn_failed", error: "unknown", last_message: "API Error: 400 bad things" },
      pane: pane({ lifecycle: "done" }),
    },
    "Turn failed: API Error: 400 bad things",
  ],
  [
    "an API error without a message",
    {
      state: "input_required",
      evidence: { reason: "turn_failed", error: "rate_limit", last_message: null },
      pane: null,
    },
    "Turn failed: rate_limit",
  ],
  [
    "no report",
    {
      state: "input_required",
      evidence: { reason: "turn_ended_without_report", last_message: "hi" },
      pane: pane({ lifecycle: "done" }),
    },
    "The turn ended without a report: send a follow-up",
  ],
  [
    "unconfirmed submit",
    {
      state: "input_required",
      evidence: { stage: "submit_unconfirmed", stallMs: 5000 },
      pane: pane({ lifecycle: "idle" }),
    },
    "The prompt may not have reached the agent: check its terminal",
  ],
  [
    "retrying",
    {
      state: "working",
      evidence: null,
      pane: pane({ note: { kind: "retrying", text: "529 Overloaded · retrying in 4s · attempt 2/10" } }),
    },
    "Working (retrying): 529 Overloaded · retrying in 4s · attempt 2/10",
  ],
  [
    "a note on an exited pane is stale",
    { state: "working", evidence: null, pane: pane({ lifecycle: "exited", note: { kind: "retrying", text: "x" } }) },
    null,
  ],
  [
    "failed at an unanswered dialog",
    {
      state: "failed",
      evidence: {
        stage: "ready_timeout",
        reason: "startup_dialog",
        dialog: { kind: "trust", title: "Codex asks whether you trust this folder" },
      },
      pane: null,
    },
    "Failed: nobody answered Codex asks whether you trust this folder",
  ],
  [
    "failed at a dialog, its pane not stopped yet",
    {
      state: "failed",
      evidence: {
        stage: "ready_timeout",
        reason: "startup_dialog",
        dialog: { title: "Claude Code asks whether you trust this folder" },
      },
      pane: pane({
        lifecycle: "blocked",
        blockedReason: "startup_dialog",
        dialog: { title: "Claude Code asks whether you trust this folder" },
      }),
    },
    "Failed: nobody answered Claude Code asks whether you trust this folder",
  ],
  [
    "failed, never ready",
    { state: "failed", evidence: { stage: "ready_timeout", lifecycle: "starting" }, pane: null },
    "Failed: the agent never became ready",
  ],
  [
    "failed, crashed",
    { state: "failed", evidence: { reason: "pane_exited", exitCode: 3 }, pane: null },
    "Failed: the agent exited (code 3)",
  ],
  [
    "failed at a restart",
    { state: "failed", evidence: { reason: "server_restart", lastLifecycle: "working" }, pane: null },
    "Failed: the server restarted while it ran (yard task resume continues it)",
  ],
  [
    "failed, refused prompt",
    { state: "failed", evidence: { stage: "submit_refused", code: "PANE_BUSY" }, pane: null },
    "Failed: the prompt was refused (PANE_BUSY)",
  ],
  ["completed", { state: "completed", evidence: null, pane: pane({ lifecycle: "idle" }) }, null],
  [
    "setting up",
    {
      state: "pending",
      evidence: { stage: "setup", step: 2, total: 3, command: "npm ci" },
      pane: pane({ lifecycle: "starting" }),
    },
    "Setting up… setup 2/3: npm ci",
  ],
  [
    "failed in setup",
    {
      state: "failed",
      evidence: { reason: "setup_failed", step: 1, total: 2, command: "npm ci --offline", exitCode: 1, tail: "" },
      pane: null,
    },
    "Failed: setup 1/2: npm ci --offline exited with 1; no agent started",
  ],
];

describe("cardLine", () => {
  it.each(ROWS)("%s", (_label, input, line) => {
    expect(cardLine(input)).toBe(line);
  });

  it("keeps the line to one bounded line", () => {
    const line = cardLine({
      state: "input_required",
      evidence: { reason: "turn_failed", last_message: `API Error:\n${"x".repeat(500)}` },
      pane: null,
    })!;
    expect(line).not.toContain("\n");
    expect(line.length).toBeLessThanOrEqual(200);
  });
});
