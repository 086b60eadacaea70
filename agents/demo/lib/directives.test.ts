import { describe, expect, it } from "vitest";
// Plain JavaScript with JSDoc types (no declaration file): loaded by a computed specifier.
const specifier = "./directives.mjs";
const { parsePrompt, splitArgs } = (await import(specifier)) as {
  parsePrompt: (prompt: string) => unknown[];
  splitArgs: (line: string) => string[] | null;
};

describe("splitArgs", () => {
  it.each([
    ["task get tsk1", ["task", "get", "tsk1"]],
    ['task ask "Which port?"', ["task", "ask", "Which port?"]],
    ["task ask 'it''s'", ["task", "ask", "its"]],
    ['a "b \\"c\\"" d', ["a", 'b "c"', "d"]],
    ['a ""', ["a", ""]],
    ["  spaced   out  ", ["spaced", "out"]],
  ])("%s", (line, words) => {
    expect(splitArgs(line)).toEqual(words);
  });
  it("refuses an unclosed quote", () => {
    expect(splitArgs('task ask "open')).toBeNull();
  });
});

describe("the run-yard directive", () => {
  it("parses args and a saved name", () => {
    expect(parsePrompt('run-yard --json task start --objective "do it" => t1')).toEqual([
      { kind: "yard", args: ["--json", "task", "start", "--objective", "do it"], save: "t1" },
    ]);
  });
  it("without a name saves nothing", () => {
    expect(parsePrompt("run-yard task ack {t1.task.id}")).toEqual([
      { kind: "yard", args: ["task", "ack", "{t1.task.id}"], save: null },
    ]);
  });
  it("needs arguments", () => {
    expect(parsePrompt("run-yard")).toEqual([{ kind: "invalid", error: "run-yard needs <args...>" }]);
  });
});
