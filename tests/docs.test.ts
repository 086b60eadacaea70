// Docs that must not drift from the code: the task state diagram in docs/architecture.md is the
// reducer's own picture (scripts/diagrams.ts).
import { describe, expect, it } from "vitest";
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
