// The Runner table: the machines agents may run on (server/core/runners/).
import type { Db } from "../db";
import type { Runner } from "../db/generated/client";

export type RunnerRow = Runner;

export class RunnerStore {
  constructor(private readonly db: Db) {}

  list(): Promise<RunnerRow[]> {
    return this.db.runner.findMany({ orderBy: { name: "asc" } });
  }

  byName(name: string): Promise<RunnerRow | null> {
    return this.db.runner.findUnique({ where: { name } });
  }

  create(
    r: Omit<RunnerRow, "createdAt" | "updatedAt" | "fingerprint" | "lastCheck" | "lastCheckAt">,
  ): Promise<RunnerRow> {
    return this.db.runner.create({ data: r });
  }

  async trusted(name: string, fingerprint: string): Promise<void> {
    await this.db.runner.update({ where: { name }, data: { fingerprint } });
  }

  async checked(name: string, at: Date, result: string): Promise<void> {
    await this.db.runner.update({ where: { name }, data: { lastCheckAt: at, lastCheck: result } });
  }

  async remove(name: string): Promise<void> {
    await this.db.runner.delete({ where: { name } });
  }
}
