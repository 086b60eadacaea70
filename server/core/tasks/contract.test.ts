import { describe, expect, it } from "vitest";
import { renderPrompt } from "./contract";

const contract = {
  objective: "Do the thing",
  constraints: ["only src/"],
  acceptanceCriteria: ["tests pass"],
  outputFormat: undefined,
};

describe("renderPrompt", () => {
  it("ends a worker's prompt with the worker's short guide (report, ask, extra worktrees)", () => {
    const p = renderPrompt(contract, { id: "tsk1", title: "T" });
    expect(p.split("\n").slice(0, 4)).toEqual(["Task tsk1: T", "", "Objective:", "Do the thing"]);
    expect(p).toContain("yard task report --status completed");
    expect(p).toContain('yard task ask "QUESTION"');
    expect(p).toContain("yard task register-worktree PATH");
  });
  it("gives an orchestrating agent the orchestrator's guide instead", () => {
    const p = renderPrompt(contract, { id: "tsk1", title: "T", role: "orchestrator" });
    expect(p).toContain("yard --json task start --project P");
    expect(p).not.toContain('yard task ask "QUESTION"');
  });
});
