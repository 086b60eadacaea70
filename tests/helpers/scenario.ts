// The orchestration scenario's fixed parts, shared by its CLI test (tests/scenario.test.ts) and its
// browser test (e2e/scenario.spec.ts): the plan, the scripted planner and reviewer (the demo agent
// with `--script`), written into a directory as agent-profile argv.
import path from "node:path";
import { writeFileSync } from "node:fs";

/** The demo agent, as an agent profile's argv template. */
const DEMO_ARGV = ["{{node}}", "{{yardRoot}}/agents/demo/demo-agent.mjs"];

/** The plan: a chain a → b → c; b asks its orchestrator a question. */
export const PLAN = {
  goal: "Three greeting files",
  steps: ["write a.txt", "write b.txt after a", "write c.txt after b"],
  subtasks: [
    {
      key: "a",
      title: "File A",
      objective: "write a.txt A\ncommit a\nreport completed wrote a",
      acceptanceCriteria: ["a.txt exists"],
    },
    {
      key: "b",
      title: "File B",
      objective: 'write b.txt B\ncommit b\nrun-yard task ask "Which greeting goes in b?"',
      dependsOn: ["a"],
    },
    { key: "c", title: "File C", objective: "write c.txt C\ncommit c\nreport completed wrote c", dependsOn: ["b"] },
  ],
};

/** A first version without C (the browser test asks for it). */
export const PLAN_V1 = {
  goal: "Two greeting files",
  steps: ["write a.txt", "write b.txt after a"],
  subtasks: PLAN.subtasks.slice(0, 2),
};

const submit = (plan: object) => `run-yard plan submit --plan-json '${JSON.stringify(plan)}'`;

/**
 * Writes the scripts and returns the planner's and reviewer's profile argv. The planner submits
 * `plans` in order, one per prompt it gets; the reviewer's first review requests changes of A (its
 * lines are directives the demo worker carries out: write, commit, report), every later one approves.
 */
export function scenarioScripts(dir: string, plans: object[]): { planner: string[]; reviewer: string[] } {
  const planner = path.join(dir, "planner.txt");
  writeFileSync(planner, plans.map(submit).join("\n---\n"));
  const reviewer = path.join(dir, "reviewer.txt");
  const approve = 'run-yard task review {env.YARD_TASK} --approve --summary "good"';
  writeFileSync(
    reviewer,
    [
      'run-yard task comment {env.YARD_TASK} --path a.txt --line 1 "commit shout"',
      'run-yard task comment {env.YARD_TASK} --path a.txt --line 1 "report completed wrote AA"',
      'run-yard task review {env.YARD_TASK} --request-changes --summary "write a.txt AA"',
      "---",
      approve,
      "---",
      approve,
      "---",
      approve,
    ].join("\n"),
  );
  return { planner: [...DEMO_ARGV, "--script", planner], reviewer: [...DEMO_ARGV, "--script", reviewer] };
}
