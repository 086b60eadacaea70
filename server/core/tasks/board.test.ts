import { describe, expect, it } from "vitest";
import { columnSince, movesColumn } from "./board";
import type { ColumnInput } from "./columns";

const s = (state: string, disposition: string | null = null): ColumnInput => ({ state, disposition });

// A card's time in its column restarts only when a change moves it to another column.
const moves: Array<[ColumnInput, ColumnInput, boolean]> = [
  [s("backlog"), s("pending"), true], // started
  [s("pending"), s("working"), false], // both In progress
  [s("working"), s("input_required"), true], // the agent waits for a person
  [s("input_required"), s("working"), true],
  [s("working"), s("completed"), true], // round ended: Review
  [s("completed"), s("pending"), true], // changes requested: the next round
  [s("working"), s("failed"), true],
  [s("input_required"), s("failed"), false], // both Needs you
  [s("completed"), s("completed", "merged"), true], // merged: Done
  [s("failed"), s("failed", "discarded"), true],
  [s("working"), s("canceled"), true],
  [s("canceled"), s("canceled", "discarded"), false], // already Done
];

describe("movesColumn", () => {
  it.each(moves)("%j → %j: %s", (from, to, moved) => {
    expect(movesColumn(from, to)).toBe(moved);
  });
});

describe("columnSince", () => {
  const moved = new Date("2026-12-01T10:00:00Z");
  const updated = new Date("2026-12-01T11:00:00Z");
  const cases: Array<[string, { columnSince: Date | null; updatedAt: Date }, Date | undefined, Date]> = [
    ["the change that moved it", { columnSince: moved, updatedAt: updated }, undefined, moved],
    [
      "a task recorded before moves were: its last change",
      { columnSince: null, updatedAt: updated },
      undefined,
      updated,
    ],
    ["Needs you since its pane blocked", { columnSince: moved, updatedAt: updated }, updated, updated],
    ["a pane blocked before the task moved: the move", { columnSince: updated, updatedAt: updated }, moved, updated],
  ];
  it.each(cases)("%s", (_name, task, blockedAt, expected) => {
    expect(columnSince(task, blockedAt)).toEqual(expected);
  });
});
