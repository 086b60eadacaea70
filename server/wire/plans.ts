// Contracts of plans: the plan a planner agent writes for a --needs-plan task (goal, steps,
// proposed subtasks with their contracts and dependencies, by key), its review (approve or
// request changes, with notes), and the versions a task's plan went through.
import { z } from "zod";
import { LIMITS, taskId, text } from "./common";

const line = (max: number) => text(max).pipe(z.string().trim().min(1));
const MAX_SUBTASKS = 20;

const planSubtask = z.object({
  /** The subtask's name inside the plan; dependsOn refers to these. */
  key: z
    .string()
    .trim()
    .min(1)
    .max(40)
    .regex(/^[A-Za-z0-9_-]+$/, "keys are letters, digits, _ and -"),
  title: line(200),
  objective: line(LIMITS.prompt),
  acceptanceCriteria: z.array(line(2000)).max(50).default([]),
  constraints: z.array(line(2000)).max(50).default([]),
  dependsOn: z.array(z.string().max(40)).max(MAX_SUBTASKS).default([]),
  /** The agent profile for this subtask (default: the parent task's). */
  agent: z
    .string()
    .regex(/^[a-z0-9][a-z0-9-]{0,39}$/)
    .optional(),
});

export const planBody = z.object({
  goal: line(8000),
  steps: z.array(line(4000)).max(100).default([]),
  subtasks: z.array(planSubtask).min(1, "a plan proposes at least one subtask").max(MAX_SUBTASKS),
});
export type PlanBody = z.output<typeof planBody>;

export const planSubmitInput = z.object({
  /** The task the plan is for; a planner pane's own task when left out. */
  taskId: taskId.optional(),
  plan: planBody,
});

export const planNote = z.object({ body: line(8000), about: z.string().max(200).optional() });

export const planReviewInput = z.object({
  taskId,
  verdict: z.enum(["approve", "request_changes"]),
  summary: text(LIMITS.summary).optional(),
  notes: z.array(planNote).max(100).default([]),
});

export const planView = z.object({
  id: z.string(),
  taskId: z.string(),
  version: z.number().int(),
  state: z.enum(["in_review", "changes_requested", "approved", "decomposed", "superseded"]),
  plan: planBody,
  createdAt: z.string(),
  reviews: z.array(
    z.object({
      id: z.string(),
      verdict: z.enum(["approved", "changes_requested"]),
      summary: z.string().nullable(),
      notes: z.array(planNote),
      reviewer: z.string(),
      createdAt: z.string(),
    }),
  ),
  /** Once decomposed: the subtasks it became, by key. */
  subtasks: z.record(z.string(), z.string()).nullable(),
});

export const plansReply = z.object({ taskId: z.string(), plans: z.array(planView) });
export const planReviewReply = z.object({
  plan: planView,
  subtasks: z.array(z.object({ key: z.string(), id: z.string(), title: z.string() })),
});
