// Docs that must not drift from the code: the task state diagram in docs/architecture.md is the
// reducer's own picture (scripts/diagrams.ts); README's .switchyard.json example is one the server takes.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parseRepoConfig } from "../server/core/repo/config";
import { documentedTaskStateBlock, taskStateBlock, taskStateDiagram } from "../scripts/diagrams";

describe("docs/architecture.md", () => {
  it("draws the task state machine the reducer implements (npx tsx scripts/diagrams.ts --write)", () => {
    expect(documentedTaskStateBlock()).toBe(taskStateBlock());
  });

  it("the drawing follows the reducer: the documented lifecycle's edges are there, a refused one is not", () => {
    const d = taskStateDiagram();
    for (const edge of [
      "backlog --> pending: start",
      "pending --> working: submitted",
      "working --> input_required: pane_done",
      "input_required --> working: pane_working",
      "completed --> pending: next_round",
    ])
      expect(d).toContain(edge);
    expect(d).not.toMatch(/completed --> (failed|canceled|working)/); // terminal for the round
  });
});

describe("README.md", () => {
  it("shows a .switchyard.json the server takes (the example in its own section)", () => {
    const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");
    const section = readme.slice(readme.indexOf("### `.switchyard.json`"));
    const example = /```json\n([\s\S]*?)\n```/.exec(section)?.[1];
    expect(example).toBeDefined();
    expect(parseRepoConfig(JSON.parse(example!))).toMatchObject({ ports: 2, copy: [".env*", "config/*.local.json"] });
  });
});
