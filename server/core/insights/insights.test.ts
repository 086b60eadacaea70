// computeInsights over a hand-made history: per-day counts inside the window only, time to merge,
// rounds, each agent's success rate and tokens, and time spent waiting on people cut to the window.
import { describe, expect, it } from "vitest";
import { computeInsights, type InsightTask, quantile } from "./insights";

const at = (s: string) => new Date(`2026-12-0${s}Z`);
const task = (o: Partial<InsightTask> & { id: string }): InsightTask => ({
  agent: "demo",
  createdAt: at("2T10:00:00"),
  finishedAt: null,
  disposition: null,
  state: "working",
  round: 1,
  tokens: null,
  ...o,
});

describe("quantile", () => {
  it.each([
    [[], 0.5, null],
    [[5], 0.9, 5],
    [[1, 2, 3, 4], 0.5, 2],
    [[10, 1, 7, 3, 5, 9, 2, 8, 6, 4], 0.9, 9],
  ])("%j at %d -> %j", (values, q, expected) => expect(quantile(values, q)).toBe(expected));
});

describe("computeInsights", () => {
  const window = { from: at("2T00:00:00"), to: at("3T23:59:59") };
  const tasks = [
    task({
      id: "a",
      createdAt: at("2T10:00:00"),
      finishedAt: at("2T12:00:00"),
      disposition: "merged",
      state: "completed",
      round: 2,
      tokens: 1000,
    }),
    task({
      id: "b",
      createdAt: at("3T09:00:00"),
      finishedAt: at("3T10:00:00"),
      disposition: "merged",
      state: "completed",
      tokens: 500,
    }),
    task({
      id: "c",
      agent: "claude",
      createdAt: at("3T09:00:00"),
      finishedAt: at("3T09:30:00"),
      disposition: "discarded",
      state: "failed",
    }),
    task({ id: "old", createdAt: at("1T09:00:00") }), // started before the window
  ];
  const changes = [
    { taskId: "a", to: "working", at: at("2T10:00:10") },
    { taskId: "a", to: "completed", at: at("2T11:00:00") }, // waits 1 h for a review…
    { taskId: "a", to: "working", at: at("2T11:00:00") }, // …no: a new round starts at once
    { taskId: "a", to: "input_required", at: at("2T11:10:00") }, // waits 20 min for an answer
    { taskId: "a", to: "working", at: at("2T11:30:00") },
    { taskId: "a", to: "completed", at: at("2T11:40:00") }, // then 20 min until the merge
    { taskId: "old", to: "input_required", at: at("1T23:00:00") }, // waiting since before the window
    { taskId: "old", to: "working", at: at("2T01:00:00") }, // one hour of it inside
  ];
  const r = computeInsights(tasks, changes, window);

  it("counts tasks started and merged per day of the window only", () => {
    expect(r.perDay).toEqual([
      { day: "2026-12-02", started: 1, merged: 1 },
      { day: "2026-12-03", started: 2, merged: 1 },
    ]);
  });

  it("times start to merge, and counts rounds of finished tasks", () => {
    expect(r.startToMerge).toEqual({ merged: 2, medianMs: 3_600_000, p90Ms: 7_200_000 });
    expect(r.rounds).toEqual({
      finished: 3,
      mean: 4 / 3,
      perTask: [
        { rounds: 1, tasks: 2 },
        { rounds: 2, tasks: 1 },
      ],
    });
  });

  it("gives each agent its success rate and token use", () => {
    expect(r.agents).toEqual([
      {
        agent: "demo",
        started: 2,
        finished: 2,
        merged: 2,
        failed: 0,
        successRate: 1,
        tokens: 1500,
        tasksWithTokens: 2,
      },
      { agent: "claude", started: 1, finished: 1, merged: 0, failed: 1, successRate: 0, tokens: 0, tasksWithTokens: 0 },
    ]);
  });

  it("sums the time tasks waited on people, inside the window", () => {
    expect(r.waitingOnPeople).toEqual({
      tasks: 2,
      totalMs: 3_600_000 + 2_400_000,
      medianMs: 2_400_000,
      p90Ms: 3_600_000,
    });
  });
});
