// Projects: local git repositories registered on the board. Owns add (validated: an existing,
// non-bare git work tree, registered once by its canonical top-level path), list, remove, and the
// per-project setting `trustAgents` ("Let agents work in this repository without the agent's
// trust prompt", on by default): when on, Switchyard records the agents' workspace trust for the
// repository before it launches one (core/agents/launch-prep.ts).
import { z } from "zod";
import { runnerName } from "../../wire/runners";
import { absolutePath, profileId } from "../../wire/common";
import { mergeStrategy } from "../../wire/branches";
import type { project } from "../../wire/projects";
import { repoConfigOverride } from "../../wire/repo-config";
import type { ProjectStore } from "../../stores/projects";
import { YardError } from "../errors";
import { newId } from "../ids";

/** A project as callers see it (server/wire/projects.ts). */
export type Project = z.infer<typeof project>;

export interface RepoInfo {
  root: string;
  currentBranch: string | null;
}

export const projectAddInput = z.object({
  path: absolutePath,
  name: z.string().trim().min(1).max(80).optional(),
  /** "Let agents work in this repository without the agent's trust prompt" (default on). */
  trustAgents: z.boolean().default(true),
});

export const projectUpdateInput = z.object({
  id: z.string().trim().min(1).max(64),
  name: z.string().trim().min(1).max(80).optional(),
  trustAgents: z.boolean().optional(),
  /** A profile id, or null to turn the agent reviewer off. */
  reviewerProfile: profileId.nullable().optional(),
  plannerProfile: profileId.nullable().optional(),
  /** Fields that replace the repository's .switchyard.json for its tasks; null clears them. */
  repoConfig: repoConfigOverride.nullable().optional(),
  /** How its tasks land by default; null: a merge commit. */
  mergeStrategy: mergeStrategy.nullable().optional(),
  /** Distinct people who must approve a task's current tip before it merges (0: none beyond the merger). */
  requiredApprovals: z.number().int().min(0).max(10).optional(),
  /** The person who started a task does not count among its approvers. */
  noSelfApproval: z.boolean().optional(),
  /** The runner its tasks run on when a start names none; null: this machine. */
  defaultRunner: runnerName.nullable().optional(),
});

export class Projects {
  constructor(
    private readonly store: ProjectStore,
    /** Resolves a path to its repository (throws BAD_PARAMS when it is not a usable work tree). */
    private readonly inspect: (path: string) => Promise<RepoInfo>,
  ) {}

  async add(input: z.input<typeof projectAddInput>): Promise<Project> {
    const { path, name, trustAgents } = projectAddInput.parse(input);
    const repo = await this.inspect(path);
    const existing = await this.store.findByPath(repo.root);
    if (existing) {
      throw new YardError(
        "CONFLICT",
        `${repo.root} is already on the board as project ${existing.name} (${existing.id})`,
        { id: existing.id, path: repo.root },
      );
    }
    return this.store.create({
      id: newId("prj"),
      path: repo.root,
      name: name ?? repo.root.split("/").filter(Boolean).pop() ?? repo.root,
      defaultTarget: repo.currentBranch,
      trustAgents,
    });
  }

  /** Changes a project's name, its trust setting, or its reviewer and planner profiles (which must exist). */
  async update(
    input: z.input<typeof projectUpdateInput>,
    profileExists: (id: string) => Promise<boolean> = async () => true,
  ): Promise<Project> {
    const { id, ...changes } = projectUpdateInput.parse(input);
    await this.get(id);
    for (const p of [changes.reviewerProfile, changes.plannerProfile]) {
      if (p && !(await profileExists(p)))
        throw new YardError("NOT_FOUND", `No agent profile ${p} (see yard agent list)`, { profile: p });
    }
    return this.store.update(id, changes);
  }

  async list(): Promise<Project[]> {
    return this.store.list();
  }

  async get(id: string): Promise<Project> {
    const project = await this.store.find(id);
    if (!project) throw new YardError("NOT_FOUND", `No project ${JSON.stringify(id)}`, { id });
    return project;
  }

  /** Unregisters the project; its repository, worktrees and tasks' history are left alone. */
  async remove(id: string): Promise<Project> {
    const project = await this.get(id);
    await this.store.delete(id);
    return project;
  }
}
