// A task's contract (objective, constraints, acceptance criteria, expected output format; its
// schema is in the task contract, server/contracts/tasks.ts) and the prompt it becomes for the
// worker. The objective stands on lines of its own, verbatim, so agents
// that act on directives in their prompt (the demo agent) see them unchanged.
import type { z } from "zod";
import { contractInput } from "../../contracts/tasks";

export { contractInput };
export type Contract = z.output<typeof contractInput>;

export function renderPrompt(c: Contract, task: { id: string; title: string }): string {
  const parts: string[] = [`Task ${task.id}: ${task.title}`, "", "Objective:", c.objective];
  if (c.constraints.length) parts.push("", "Constraints:", ...c.constraints.map((x) => `- ${x}`));
  if (c.acceptanceCriteria.length) parts.push("", "Acceptance criteria:", ...c.acceptanceCriteria.map((x) => `- ${x}`));
  if (c.outputFormat) parts.push("", "Expected output format:", c.outputFormat);
  parts.push(
    "",
    "When you are done, commit your work on this branch and run:",
    '  yard task report --status completed --summary "<what you did>" [--changed-file PATH]...',
    "Use --status failed if you could not do it, or --status rejected if you will not.",
  );
  return parts.join("\n");
}
