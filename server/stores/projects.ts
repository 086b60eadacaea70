// The project store: the only code that reads or writes Project rows.
import type { Project } from "../core/projects/projects";
import type { RepoConfigOverride } from "../wire/repo-config";
import { storedOverride } from "../core/repo/config";
import type { Db } from "../db";

const toProject = (r: {
  id: string;
  path: string;
  name: string;
  defaultTarget: string | null;
  createdAt: Date;
  trustAgents: boolean;
  reviewerProfile: string | null;
  plannerProfile: string | null;
  repoConfig: string | null;
  mergeStrategy: string | null;
  requiredApprovals: number;
  noSelfApproval: boolean;
  defaultRunner: string | null;
}): Project => ({
  id: r.id,
  path: r.path,
  name: r.name,
  defaultTarget: r.defaultTarget,
  createdAt: r.createdAt.toISOString(),
  trustAgents: r.trustAgents,
  reviewerProfile: r.reviewerProfile,
  plannerProfile: r.plannerProfile,
  repoConfig: storedOverride(r.repoConfig),
  mergeStrategy: (r.mergeStrategy as Project["mergeStrategy"]) ?? null,
  requiredApprovals: r.requiredApprovals,
  noSelfApproval: r.noSelfApproval,
  defaultRunner: r.defaultRunner,
});

export class ProjectStore {
  constructor(private readonly db: Db) {}

  async create(p: {
    id: string;
    path: string;
    name: string;
    defaultTarget: string | null;
    trustAgents: boolean;
  }): Promise<Project> {
    return toProject(await this.db.project.create({ data: p }));
  }

  async update(
    id: string,
    changes: {
      name?: string;
      trustAgents?: boolean;
      reviewerProfile?: string | null;
      plannerProfile?: string | null;
      repoConfig?: RepoConfigOverride | null;
      mergeStrategy?: string | null;
      requiredApprovals?: number;
      noSelfApproval?: boolean;
      defaultRunner?: string | null;
    },
  ): Promise<Project> {
    const { repoConfig, ...rest } = changes;
    const data = repoConfig === undefined ? rest : { ...rest, repoConfig: repoConfig && JSON.stringify(repoConfig) };
    return toProject(await this.db.project.update({ where: { id }, data }));
  }

  async find(id: string): Promise<Project | null> {
    const row = await this.db.project.findUnique({ where: { id } });
    return row ? toProject(row) : null;
  }

  async findByPath(path: string): Promise<Project | null> {
    const row = await this.db.project.findUnique({ where: { path } });
    return row ? toProject(row) : null;
  }

  async list(): Promise<Project[]> {
    return (await this.db.project.findMany({ orderBy: { createdAt: "asc" } })).map(toProject);
  }

  async delete(id: string): Promise<void> {
    await this.db.project.delete({ where: { id } });
  }

  count(): Promise<number> {
    return this.db.project.count();
  }
}
