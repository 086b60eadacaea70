// The event type glob: only `*` is special, and matching never backtracks exponentially.
import { describe, expect, it } from "vitest";
import { globMatch } from "./glob";

describe("globMatch", () => {
  it.each([
    ["task.*", "task.state", true],
    ["task.*", "task.", true],
    ["task.*", "pane.lifecycle", false],
    ["task.*", "task", false],
    ["*", "", true],
    ["*", "anything.at.all", true],
    ["", "", true],
    ["", "x", false],
    ["pane.lifecycle", "pane.lifecycle", true],
    ["pane.lifecycle", "pane.lifecycleX", false],
    ["*.state", "task.state", true],
    ["*.state", "task.stat", false],
    ["t*k.*e", "task.state", true],
    ["t*k.*e", "task.stat", false],
    ["**task**", "my.task.x", true],
    ["a*b*c", "abc", true],
    ["a*b*c", "aXbYc", true],
    ["a*b*c", "acb", false],
    // `.` and other regex characters are literal
    ["task.s*", "taskXstate", false],
    ["a+b", "aab", false],
    ["a+b", "a+b", true],
  ])("%j matches %j: %s", (glob, text, expected) => {
    expect(globMatch(glob, text)).toBe(expected);
  });

  it("answers a pattern of 99 stars and a near miss at once (a regex would backtrack for seconds)", () => {
    // The pattern that froze the server: many stars followed by a character the text lacks.
    const glob = `${"*".repeat(16) + "a*".repeat(40)}z`;
    const text = "a".repeat(64);
    expect(globMatch(glob, text)).toBe(false);
    expect(globMatch(`${"*a".repeat(49)}*`, "a".repeat(49))).toBe(true);
    expect(globMatch(`${"*a".repeat(49)}*`, "a".repeat(48))).toBe(false);
  });
});
