// A task's contract (objective, constraints, acceptance criteria, expected output format; its
// schema is in the task contract, server/contracts/tasks.ts) and the prompt it becomes for the
// worker, ending with its role's short guide to `yard`. The objective stands on lines of its own, verbatim, so agents
// that act on directives in their prompt (the demo agent) see them unchanged.
import type { z } from "zod";
import { contractInput } from "../../contracts/tasks";
import { type GuideRole, shortGuide } from "../agents/guide";

export { contractInput };
export type Contract = z.output<typeof contractInput>;

export function renderPrompt(c: Contract, task: { id: string; title: string; role?: GuideRole }): string {
  const parts: string[] = [`Task ${task.id}: ${task.title}`, "", "Objective:", c.objective];
  if (c.constraints.length) parts.push("", "Constraints:", ...c.constraints.map((x) => `- ${x}`));
  if (c.acceptanceCriteria.length) parts.push("", "Acceptance criteria:", ...c.acceptanceCriteria.map((x) => `- ${x}`));
  if (c.outputFormat) parts.push("", "Expected output format:", c.outputFormat);
  // How this role uses yard (report, ask, register extra worktrees): its short guide.
  parts.push("", shortGuide(task.role ?? "worker"));
  return parts.join("\n");
}
