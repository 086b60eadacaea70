import { describe, expect, it } from "vitest";
import { MAX_SCROLLBACK, MIN_SCROLLBACK, scrollbackProblem } from "./scrollback-limits";

describe("scrollbackProblem", () => {
  it.each([
    [MIN_SCROLLBACK, null],
    [MAX_SCROLLBACK, null],
    [12_000, null],
    [MIN_SCROLLBACK - 1, "must be a whole number of lines from 5000 to 100000"],
    [MAX_SCROLLBACK + 1, "must be a whole number of lines from 5000 to 100000"],
    [6000.5, "must be a whole number of lines from 5000 to 100000"],
    [Number.NaN, "must be a whole number of lines from 5000 to 100000"],
  ])("%s lines: %s", (lines, problem) => {
    expect(scrollbackProblem(lines)).toBe(problem);
  });
});
