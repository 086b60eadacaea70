// An approval holds for the commit it saw: the rule, one row per case.
import { describe, expect, it } from "vitest";
import { reviewStatusOf } from "./approval";

describe("reviewStatusOf", () => {
  const A = "a".repeat(40);
  const B = "b".repeat(40);
  it.each([
    { verdict: null, reviewedCommit: null, tip: A, want: "none", why: "no review" },
    {
      verdict: "changes_requested",
      reviewedCommit: A,
      tip: B,
      want: "changes_requested",
      why: "a request for changes stands whatever the branch did",
    },
    { verdict: "approved", reviewedCommit: A, tip: A, want: "approved", why: "the branch is where it was approved" },
    { verdict: "approved", reviewedCommit: A, tip: B, want: "outdated", why: "a commit since the approval" },
    { verdict: "approved", reviewedCommit: A, tip: null, want: "outdated", why: "the branch is gone" },
    {
      verdict: "approved",
      reviewedCommit: null,
      tip: B,
      want: "approved",
      why: "approved before approvals were pinned",
    },
    {
      verdict: "approved",
      reviewedCommit: A,
      tip: undefined,
      want: "approved",
      why: "not compared (finished task, no branch)",
    },
  ] as const)("$why: $want", ({ verdict, reviewedCommit, tip, want }) => {
    expect(reviewStatusOf(verdict, reviewedCommit, tip)).toBe(want);
  });
});
