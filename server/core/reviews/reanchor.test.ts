// Where a comment's lines are after a file changed: moved by the lines added or removed above
// them, outdated when a change touches them (table-driven over `-U0` hunks).
import { describe, expect, it } from "vitest";
import { mapRange } from "./reanchor";

const h = (oldStart: number, oldCount: number, newStart: number, newCount: number) => ({
  oldStart,
  oldCount,
  newStart,
  newCount,
});

describe("mapRange", () => {
  it.each([
    ["no change", [], [5, 7], [5, 7]],
    ["two lines inserted at the top", [h(0, 0, 1, 2)], [5, 7], [7, 9]],
    ["one line inserted right above", [h(4, 0, 5, 1)], [5, 7], [6, 8]],
    ["one line inserted right below", [h(7, 0, 8, 1)], [5, 7], [5, 7]],
    ["one line inserted inside", [h(5, 0, 6, 1)], [5, 7], null],
    ["three lines deleted above", [h(1, 3, 0, 0)], [5, 7], [2, 4]],
    ["a line above replaced by two", [h(2, 1, 2, 2)], [5, 7], [6, 8]],
    ["the first line changed", [h(5, 1, 5, 1)], [5, 7], null],
    ["the last line changed", [h(7, 1, 7, 1)], [5, 7], null],
    ["a change spanning the range", [h(3, 10, 3, 2)], [5, 7], null],
    ["changes above and below", [h(1, 0, 2, 3), h(9, 2, 12, 0)], [5, 7], [8, 10]],
    ["a one-line comment, line deleted", [h(5, 1, 4, 0)], [5, 5], null],
    ["the whole file deleted", [h(1, 9, 0, 0)], [5, 7], null],
  ] as const)("%s", (_name, hunks, [start, end], want) => {
    expect(mapRange(hunks, start, end)).toEqual(want ? { startLine: want[0], endLine: want[1] } : null);
  });
});
