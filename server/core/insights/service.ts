// Insights for a board, a project, an agent profile or a person over the last N days: the tasks
// (from the task engine) and their state changes (from the journal) through computeInsights.
import type { EventJournal } from "../events/journal";
import { computeInsights, type InsightTask, type Insights } from "./insights";

export interface InsightsInput {
  projectId?: string;
  agent?: string;
  /** Only tasks this person started. */
  person?: string;
  /** How many days back, today included (default 30). */
  days?: number;
}

export async function boardInsights(
  deps: {
    tasks: { insightTasks(q: InsightsInput & { from: Date; to: Date }): Promise<InsightTask[]> };
    journal: EventJournal;
  },
  input: InsightsInput,
  now = new Date(),
): Promise<Insights & { filter: InsightsInput & { days: number } }> {
  const days = input.days ?? 30;
  const from = new Date(Date.parse(now.toISOString().slice(0, 10)) - (days - 1) * 86_400_000);
  const tasks = await deps.tasks.insightTasks({ ...input, from, to: now });
  const ids = new Set(tasks.map((t) => t.id));
  // A task's waiting may have begun before the window: its state changes are read from a day earlier.
  const changes = (await deps.journal.between("task.state", new Date(from.getTime() - 86_400_000), now))
    .filter((e) => e.taskId && ids.has(e.taskId) && e.payload.to)
    .map((e) => ({ taskId: e.taskId!, to: e.payload.to!, at: new Date(e.time) }));
  return { ...computeInsights(tasks, changes, { from, to: now }), filter: { ...input, days } };
}
