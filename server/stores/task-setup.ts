// The TaskSetup rows: a task's effective repository config as it started (teardown runs from it),
// its ports and when they were released, and what teardown did. The only code on that table.
import type { Db } from "../db";

export type TaskSetupRow = NonNullable<Awaited<ReturnType<Db["taskSetup"]["findUnique"]>>>;

export class TaskSetupStore {
  constructor(private readonly db: Db) {}

  row(taskId: string): Promise<TaskSetupRow | null> {
    return this.db.taskSetup.findUnique({ where: { taskId } });
  }

  many(taskIds: readonly string[]): Promise<TaskSetupRow[]> {
    return this.db.taskSetup.findMany({ where: { taskId: { in: [...taskIds] } } });
  }

  create(taskId: string, config: string, ports: number[]): Promise<TaskSetupRow> {
    return this.db.taskSetup.create({ data: { taskId, config, ports: JSON.stringify(ports) } });
  }

  /** Ports held now: every task's whose ports were not released. */
  async heldPorts(): Promise<number[]> {
    const rows = await this.db.taskSetup.findMany({
      where: { portsReleasedAt: null, NOT: { ports: "[]" } },
      select: { ports: true },
    });
    return rows.flatMap((r) => JSON.parse(r.ports) as number[]);
  }

  /** Tasks that hold ports and are finished (merged, discarded) or canceled: a restart releases them. */
  async finishedHolding(): Promise<string[]> {
    const rows = await this.db.taskSetup.findMany({
      where: {
        portsReleasedAt: null,
        NOT: { ports: "[]" },
        task: { OR: [{ disposition: { not: null } }, { state: "canceled" }] },
      },
      select: { taskId: true },
    });
    return rows.map((r) => r.taskId);
  }

  /** Marks the task's ports released; false when they already were. */
  async releasePorts(taskId: string): Promise<boolean> {
    const r = await this.db.taskSetup.updateMany({
      where: { taskId, portsReleasedAt: null },
      data: { portsReleasedAt: new Date() },
    });
    return r.count > 0;
  }

  /** Gives a resumed task a block of ports again. */
  setPorts(taskId: string, ports: number[]): Promise<unknown> {
    return this.db.taskSetup.update({
      where: { taskId },
      data: { ports: JSON.stringify(ports), portsReleasedAt: null },
    });
  }

  setTeardown(taskId: string, teardown: string): Promise<unknown> {
    return this.db.taskSetup.update({ where: { taskId }, data: { teardown } });
  }
}
