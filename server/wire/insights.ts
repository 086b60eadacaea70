// The insights procedure's contract (insights.get): the filter, and the numbers.
import { z } from "zod";

export const insightsInput = z
  .object({
    projectId: z.string().trim().min(1).max(64).optional(),
    agent: z.string().trim().min(1).max(64).optional(),
    person: z.string().trim().min(1).max(64).optional(),
    days: z.number().int().min(1).max(365).optional(),
  })
  .optional();

const ms = z.number().nullable();

export const insightsOutput = z.object({
  from: z.string(),
  to: z.string(),
  filter: z.object({
    projectId: z.string().optional(),
    agent: z.string().optional(),
    person: z.string().optional(),
    days: z.number().int(),
  }),
  perDay: z.array(z.object({ day: z.string(), started: z.number().int(), merged: z.number().int() })),
  startToMerge: z.object({ merged: z.number().int(), medianMs: ms, p90Ms: ms }),
  rounds: z.object({
    finished: z.number().int(),
    mean: z.number().nullable(),
    perTask: z.array(z.object({ rounds: z.number().int(), tasks: z.number().int() })),
  }),
  agents: z.array(
    z.object({
      agent: z.string(),
      started: z.number().int(),
      finished: z.number().int(),
      merged: z.number().int(),
      failed: z.number().int(),
      successRate: z.number().nullable(),
      tokens: z.number(),
      tasksWithTokens: z.number().int(),
    }),
  ),
  waitingOnPeople: z.object({ tasks: z.number().int(), totalMs: z.number(), medianMs: ms, p90Ms: ms }),
});
