// A task's contract (objective, constraints, acceptance criteria, expected output format; its
// schema is in the task contract, server/wire/tasks.ts) and the prompt it becomes for the
// worker, ending with its role's short guide to `yard`. The objective stands on lines of its own, verbatim, so agents
// that act on directives in their prompt (the demo agent) see them unchanged.
import type { z } from "zod";
import type { contractInput } from "../../wire/tasks";
import { type GuideRole, shortGuide } from "../agents/guide";
export type Contract = z.output<typeof contractInput>;

/** A titled bullet list of a prompt (nothing when the list is empty), after a blank line. */
export function listSection(title: string, items: readonly string[]): string[] {
  return items.length ? ["", `${title}:`, ...items.map((x) => `- ${x}`)] : [];
}

export function renderPrompt(c: Contract, task: { id: string; title: string; role?: GuideRole }): string {
  const parts: string[] = [`Task ${task.id}: ${task.title}`, "", "Objective:", c.objective];
  parts.push(...listSection("Constraints", c.constraints), ...listSection("Acceptance criteria", c.acceptanceCriteria));
  if (c.outputFormat) parts.push("", "Expected output format:", c.outputFormat);
  // How this role uses yard (report, ask, register extra worktrees): its short guide.
  parts.push("", shortGuide(task.role ?? "worker"));
  return parts.join("\n");
}
