// Persistence for task templates (TaskTemplate rows: a project's saved task contracts): the only
// code that reads or writes them. Constraints and acceptance criteria are stored as JSON arrays.
import type { Db } from "../db";

export interface TemplateRow {
  id: string;
  projectId: string;
  name: string;
  title: string | null;
  objective: string;
  constraints: string[];
  acceptanceCriteria: string[];
  outputFormat: string | null;
  label: string | null;
  agent: string | null;
  createdAt: Date;
  updatedAt: Date;
}

type Raw = NonNullable<Awaited<ReturnType<Db["taskTemplate"]["findUnique"]>>>;

const list = (s: string): string[] => {
  try {
    const v = JSON.parse(s) as unknown;
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : [];
  } catch {
    return [];
  }
};

const toRow = (r: Raw): TemplateRow => ({
  ...r,
  constraints: list(r.constraints),
  acceptanceCriteria: list(r.acceptanceCriteria),
});

export class TemplateStore {
  constructor(private readonly db: Db) {}

  async create(t: Omit<TemplateRow, "createdAt" | "updatedAt">): Promise<TemplateRow> {
    return toRow(
      await this.db.taskTemplate.create({
        data: {
          ...t,
          constraints: JSON.stringify(t.constraints),
          acceptanceCriteria: JSON.stringify(t.acceptanceCriteria),
        },
      }),
    );
  }

  async find(id: string): Promise<TemplateRow | null> {
    const r = await this.db.taskTemplate.findUnique({ where: { id } });
    return r ? toRow(r) : null;
  }

  async findByName(projectId: string, name: string): Promise<TemplateRow | null> {
    const r = await this.db.taskTemplate.findUnique({ where: { projectId_name: { projectId, name } } });
    return r ? toRow(r) : null;
  }

  /** A project's templates by name (every project's without one). */
  async list(projectId?: string): Promise<TemplateRow[]> {
    const rows = await this.db.taskTemplate.findMany({
      where: projectId ? { projectId } : {},
      orderBy: [{ projectId: "asc" }, { name: "asc" }],
    });
    return rows.map(toRow);
  }

  async delete(id: string): Promise<void> {
    await this.db.taskTemplate.delete({ where: { id } });
  }
}
