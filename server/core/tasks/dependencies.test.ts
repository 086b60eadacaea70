import { describe, expect, it } from "vitest";
import { dependencyStatus, findCycle, waitingStatus } from "./dependencies";

const dep = (id: string, state: string, disposition: string | null = null) => ({
  dependsOnId: id,
  title: `T ${id}`,
  state,
  disposition,
});

describe("dependencyStatus", () => {
  it.each([
    // [state, disposition, rule, met, stuck]
    ["working", null, "merged", false, null],
    ["completed", null, "merged", false, null],
    ["completed", "merged", "merged", true, null],
    ["completed", null, "completed", true, null],
    ["completed", "merged", "completed", true, null],
    ["completed", "discarded", "completed", false, "discarded"],
    ["completed", "discarded", "merged", false, "discarded"],
    ["failed", null, "merged", false, "failed"],
    ["canceled", "discarded", "merged", false, "discarded"],
    ["rejected", null, "completed", false, "rejected"],
    ["backlog", null, "merged", false, null],
    ["input_required", null, "completed", false, null],
  ] as const)("%s/%s under %s: met=%s stuck=%s", (state, disposition, rule, met, stuck) => {
    const s = dependencyStatus(dep("a", state, disposition), rule);
    expect(s.met).toBe(met);
    expect(s.stuck).toBe(stuck);
  });
});

describe("waitingStatus", () => {
  it("is ready when every dependency is met", () => {
    const w = waitingStatus([dep("a", "completed", "merged"), dep("b", "completed", "merged")], "merged");
    expect(w).toMatchObject({ ready: true, reason: null });
  });
  it("names what it waits for", () => {
    const w = waitingStatus([dep("a", "completed", "merged"), dep("b", "working")], "merged");
    expect(w.ready).toBe(false);
    expect(w.reason).toBe("Waits for b to be merged");
  });
  it("names a stuck dependency ahead of open ones", () => {
    const w = waitingStatus([dep("a", "failed"), dep("b", "working")], "merged");
    expect(w.ready).toBe(false);
    expect(w.reason).toMatch(/^Blocked: a was failed/);
  });
  it("with no dependencies is ready", () => {
    expect(waitingStatus([], "merged")).toMatchObject({ ready: true, reason: null });
  });
});

describe("findCycle", () => {
  const edges = [
    { taskId: "b", dependsOnId: "a" },
    { taskId: "c", dependsOnId: "b" },
  ];
  it.each([
    ["a depends on c closes a → c → b → a", "a", ["c"], ["a", "c", "b", "a"]],
    ["a depends on b closes a → b → a", "a", ["b"], ["a", "b", "a"]],
    ["a task on itself", "a", ["a"], ["a", "a"]],
    ["d depends on c: no cycle", "d", ["c"], null],
    ["c depends on a again: no cycle", "c", ["a"], null],
  ] as const)("%s", (_name, task, on, cycle) => {
    expect(findCycle(edges, task, [...on])).toEqual(cycle);
  });
});
