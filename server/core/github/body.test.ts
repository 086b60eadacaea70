import { describe, expect, it } from "vitest";
import { fenced, prBody, type PrBodyInput } from "./body";

const task: PrBodyInput["task"] = {
  id: "tskabc123",
  round: 2,
  branch: "yard/greet-abc123",
  contract: {
    objective: "Write greet.txt",
    constraints: ["no new dependencies"],
    acceptanceCriteria: ["greet.txt says hello"],
    outputFormat: null,
  },
  result: { status: "completed", summary: "Wrote greet.txt", changedFiles: ["greet.txt"], artifacts: [] },
};

describe("prBody", () => {
  it("has the contract, the result and the review with its comments", () => {
    const body = prBody({
      task,
      review: {
        verdict: "approved",
        stage: "human",
        reviewer: "user",
        summary: "Looks good",
        comments: [
          {
            path: "greet.txt",
            startLine: 1,
            endLine: 2,
            side: "new",
            body: "nice wording",
            resolved: true,
            author: "user",
          },
        ],
      },
    });
    for (const part of [
      "task `tskabc123` (round 2)",
      "## Contract",
      "Write greet.txt",
      "- no new dependencies",
      "- greet.txt says hello",
      "## Result",
      "**completed**",
      "Wrote greet.txt",
      "**Changed files**",
      "## Review",
      "**Approved** (human; reviewer `user`)",
      "Looks good",
      "- lines 1-2 (change), resolved; author `user`",
      "greet.txt\n\nnice wording",
    ])
      expect(body).toContain(part);
  });

  it("says when there is no result and no review", () => {
    const body = prBody({ task: { ...task, result: null }, review: null });
    expect(body).toContain("No result was reported for this round.");
    expect(body).toContain("This round has no review.");
  });

  it("fences an agent's text so GitHub acts on none of it (mentions, closing keywords, a fence of its own)", () => {
    const evil = "Fixes #1\n@octocat look\n```\n# not a heading\n```";
    const body = prBody({ task: { ...task, result: { ...task.result!, summary: evil } }, review: null });
    const block = fenced(evil);
    expect(body).toContain(block);
    expect(block.startsWith("````text\n")).toBe(true);
    expect(block.endsWith("\n````")).toBe(true);
  });

  it("stays under GitHub's body limit", () => {
    const huge = "x".repeat(50_000);
    const body = prBody({
      task: { ...task, contract: { ...task.contract, constraints: Array(500).fill(huge) } },
      review: {
        verdict: "changes_requested",
        stage: "agent",
        reviewer: "reviewer-profile",
        summary: huge,
        comments: Array(80).fill({
          path: "a",
          startLine: 1,
          endLine: 1,
          side: "old",
          body: huge,
          resolved: false,
          author: "pane1",
        }),
      },
    });
    expect(body.length).toBeLessThanOrEqual(60_000);
  });
});
