// The audit's `since` (an ISO time or a duration back from now) and the required-approvals rule:
// who counts, what is missing, and the sentence Merge shows.
import { describe, expect, it } from "vitest";
import { approvalShortfall, approvalState } from "../tasks/approvals";
import type { YardEvent } from "../../wire/events";
import { auditSummary, parseSince } from "./audit";

describe("parseSince", () => {
  const now = Date.parse("2026-12-03T12:00:00Z");
  it.each([
    ["30m", "2026-12-03T11:30:00.000Z"],
    ["12h", "2026-12-03T00:00:00.000Z"],
    ["7d", "2026-11-26T12:00:00.000Z"],
    ["2026-12-01T08:00:00Z", "2026-12-01T08:00:00.000Z"],
  ])("%s -> %s", (since, iso) => expect(parseSince(since, now).toISOString()).toBe(iso));
  it.each(["yesterday", "5w", "-3d", ""])("refuses %j with BAD_PARAMS", (since) =>
    expect(() => parseSince(since, now)).toThrow(expect.objectContaining({ code: "BAD_PARAMS" })),
  );
});

describe("auditSummary", () => {
  const ev = (type: string, payload: Record<string, unknown>) =>
    ({ seq: 1, type, taskId: "tsk1", paneId: null, time: "t", payload }) as unknown as YardEvent;
  it.each([
    [ev("task.state", { from: "working", to: "canceled" }), "canceled task tsk1"],
    [ev("task.state", { from: "failed", to: "pending" }), "moved task tsk1 to pending"],
    [ev("task.created", { title: "Notes" }), 'started task tsk1 "Notes"'],
    [ev("task.created", { title: "Later", backlog: true }), 'saved to the backlog task tsk1 "Later"'],
    [ev("task.finished", { disposition: "merged" }), "merged task tsk1"],
    [ev("task.review", { verdict: "changes_requested" }), "requested changes on task tsk1"],
    [ev("task.comment", { action: "resolved" }), "resolved a comment on task tsk1"],
  ])("%# %s", (e, line) => expect(auditSummary(e)).toBe(line));
});

describe("required approvals", () => {
  const rule = (required: number, noSelfApproval = false) => ({ required, noSelfApproval });
  it.each([
    { rule: rule(2), approvers: [], starter: "mia", have: [], missing: 2, excluded: null },
    { rule: rule(2), approvers: ["rex"], starter: "mia", have: ["rex"], missing: 1, excluded: null },
    { rule: rule(2), approvers: ["rex", "ada"], starter: "mia", have: ["rex", "ada"], missing: 0, excluded: null },
    { rule: rule(2, true), approvers: ["mia", "rex"], starter: "mia", have: ["rex"], missing: 1, excluded: "mia" },
    { rule: rule(1, true), approvers: ["rex"], starter: null, have: ["rex"], missing: 0, excluded: null },
    { rule: rule(1), approvers: ["rex", "ada"], starter: "mia", have: ["rex", "ada"], missing: 0, excluded: null },
  ])("$rule.required required, approved by $approvers (started by $starter): missing $missing", (c) => {
    const s = approvalState(c.rule, c.approvers, c.starter);
    expect(s).toEqual({ required: c.rule.required, have: c.have, missing: c.missing, excluded: c.excluded });
    expect(approvalShortfall(s) === null).toBe(c.missing === 0);
  });
  it("says how many are missing, from whom, and who approved so far", () => {
    expect(approvalShortfall(approvalState(rule(2, true), ["mia", "rex"], "mia"))).toBe(
      "This project needs 2 approvals of the task's current tip (approved by rex so far): 1 more from reviewers or admins other than mia (who started it) and rex",
    );
    expect(approvalShortfall(approvalState(rule(1), [], "mia"))).toBe(
      "This project needs 1 approval of the task's current tip (no approvals yet): 1 more from reviewers or admins",
    );
  });
});
