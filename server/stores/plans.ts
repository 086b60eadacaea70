// Persistence for plans (Plan rows: one per version; PlanReview rows) and the one step that turns
// an approved plan into its subtasks: every subtask's Task row, its first round, its dependency
// edges and the plan's new state are written in one transaction, so either all of them exist or
// none do. The only code that reads or writes Plan and PlanReview rows.
import type { z } from "zod";
import type { Db } from "../db";
import type { planView } from "../wire/plans";
import { newId } from "../core/ids";
import type { TaskFields } from "./tasks";

export type PlanState = z.infer<typeof planView>["state"];

export interface PlanRecord {
  id: string;
  taskId: string;
  version: number;
  state: PlanState;
  body: string;
  /** JSON: {subtasks: {key: taskId}} once decomposed. */
  annotations: string;
  createdAt: Date;
  reviews: Array<{ id: string; verdict: string; summary: string | null; annotations: string; createdAt: Date }>;
}

export interface NewSubtask {
  fields: TaskFields;
  startOptions: Record<string, unknown>;
  dependsOn: string[];
}

export class PlanStore {
  constructor(private readonly db: Db) {}

  async list(taskId: string): Promise<PlanRecord[]> {
    const rows = await this.db.plan.findMany({
      where: { taskId },
      orderBy: { round: "asc" },
      include: { reviews: { orderBy: { createdAt: "asc" } } },
    });
    return rows.map(toRecord);
  }

  /**
   * Decomposed plans whose task's round never ended (its state is still the plan review's): the
   * server stopped between the subtasks' transaction and the parent's completion.
   */
  async decomposedWithOpenTask(): Promise<PlanRecord[]> {
    const rows = await this.db.plan.findMany({
      where: {
        state: "decomposed",
        task: { state: { in: ["input_required", "working", "pending"] }, disposition: null },
      },
      include: { reviews: { orderBy: { createdAt: "asc" } } },
    });
    return rows.map(toRecord);
  }

  /** A new version; the one still in review (if any) is superseded by it. */
  async add(p: { id: string; taskId: string; version: number; body: string }): Promise<void> {
    await this.db.$transaction([
      this.db.plan.updateMany({ where: { taskId: p.taskId, state: "in_review" }, data: { state: "superseded" } }),
      this.db.plan.create({ data: { id: p.id, taskId: p.taskId, round: p.version, body: p.body, state: "in_review" } }),
    ]);
  }

  async review(
    planId: string,
    r: { version: number; verdict: "changes_requested"; summary: string | null; annotations: string; state: PlanState },
  ): Promise<void> {
    await this.db.$transaction([
      this.db.planReview.create({
        data: {
          id: newId("rev"),
          planId,
          round: r.version,
          verdict: r.verdict,
          summary: r.summary,
          annotations: r.annotations,
        },
      }),
      this.db.plan.update({ where: { id: planId }, data: { state: r.state } }),
    ]);
  }

  /** The approving review, the plan's subtasks with their first rounds and dependencies, and the plan decomposed: all or nothing. */
  async decompose(
    planId: string,
    approval: { version: number; summary: string | null; annotations: string },
    subtasks: NewSubtask[],
    keys: Record<string, string>,
  ): Promise<void> {
    await this.db.$transaction([
      this.db.planReview.create({
        data: {
          id: newId("rev"),
          planId,
          round: approval.version,
          verdict: "approved",
          summary: approval.summary,
          annotations: approval.annotations,
        },
      }),
      ...subtasks.map((s) =>
        this.db.task.create({
          data: {
            ...s.fields,
            state: "backlog",
            round: 1,
            autoStartWhen: "merged",
            startOptions: JSON.stringify(s.startOptions),
            rounds: { create: { id: newId("rnd"), number: 1, state: "backlog" } },
          },
        }),
      ),
      ...subtasks.flatMap((s) =>
        s.dependsOn.map((d) => this.db.taskDependency.create({ data: { taskId: s.fields.id, dependsOnId: d } })),
      ),
      this.db.plan.update({
        where: { id: planId },
        data: { state: "decomposed", annotations: JSON.stringify({ subtasks: keys }) },
      }),
    ]);
  }
}

/** A plan row (with its reviews) as its record: the row's round is the plan's version. */
function toRecord(r: {
  id: string;
  taskId: string;
  round: number;
  state: string;
  body: string;
  annotations: string;
  createdAt: Date;
  reviews: PlanRecord["reviews"];
}): PlanRecord {
  return {
    id: r.id,
    taskId: r.taskId,
    version: r.round,
    state: r.state as PlanState,
    body: r.body,
    annotations: r.annotations,
    createdAt: r.createdAt,
    reviews: r.reviews,
  };
}
