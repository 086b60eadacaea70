// Task templates: a project's saved task contracts (title, objective, constraints, acceptance
// criteria, output format, label, agent), added from fields or copied from a task (a field given
// wins over the task's), listed per project, removed by id or by name. A name is unique in its
// project (CONFLICT); the project and the agent profile must exist (NOT_FOUND).
import type { z } from "zod";
import type { TemplateRow, TemplateStore } from "../../stores/templates";
import type { TaskRow } from "../../stores/tasks";
import type { templateAddInput, templateRemoveInput, templateView } from "../../wire/templates";
import { YardError } from "../errors";
import { newId } from "../ids";

type TemplateView = z.infer<typeof templateView>;

export interface TemplatesDeps {
  store: TemplateStore;
  /** NOT_FOUND for an unknown project. */
  project(id: string): Promise<unknown>;
  /** NOT_FOUND for an unknown task. */
  task(
    id: string,
  ): Promise<
    Pick<
      TaskRow,
      "projectId" | "title" | "objective" | "constraints" | "acceptanceCriteria" | "outputFormat" | "label" | "agent"
    >
  >;
  /** Whether an agent profile exists. */
  profileExists(id: string): Promise<boolean>;
}

const view = (r: TemplateRow): TemplateView => ({
  ...r,
  createdAt: r.createdAt.toISOString(),
  updatedAt: r.updatedAt.toISOString(),
});

const jsonList = (s: string): string[] => {
  try {
    const v = JSON.parse(s) as unknown;
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : [];
  } catch {
    return [];
  }
};

export class Templates {
  constructor(private readonly deps: TemplatesDeps) {}

  async add(input: z.output<typeof templateAddInput>): Promise<TemplateView> {
    const from = input.fromTaskId ? await this.deps.task(input.fromTaskId) : null;
    const projectId = input.projectId ?? from?.projectId ?? null;
    if (!projectId)
      throw new YardError(
        "BAD_PARAMS",
        from ? "That task belongs to no project: name one (--project)" : "A template needs a project (--project)",
        { projectId: null },
      );
    await this.deps.project(projectId);
    const objective = input.objective ?? from?.objective;
    if (!objective) throw new YardError("BAD_PARAMS", "A template needs an objective (--objective, or --from-task)");
    const title = input.title ?? from?.title ?? null;
    const agent = input.agent ?? (from && from.agent !== "custom" ? from.agent : null);
    if (agent && !(await this.deps.profileExists(agent)))
      throw new YardError("NOT_FOUND", `No agent profile ${agent}`, { agent });
    const name = input.name ?? (title || objective.split("\n")[0]!).trim().slice(0, 100);
    if (await this.deps.store.findByName(projectId, name))
      throw new YardError("CONFLICT", `This project already has a template named "${name}"`, { name, projectId });
    return view(
      await this.deps.store.create({
        id: newId("tpl"),
        projectId,
        name,
        title,
        objective,
        constraints: input.constraints ?? (from ? jsonList(from.constraints) : []),
        acceptanceCriteria: input.acceptanceCriteria ?? (from ? jsonList(from.acceptanceCriteria) : []),
        outputFormat: input.outputFormat ?? from?.outputFormat ?? null,
        label: input.label ?? from?.label ?? null,
        agent,
      }),
    );
  }

  async list(projectId?: string): Promise<TemplateView[]> {
    if (projectId) await this.deps.project(projectId);
    return (await this.deps.store.list(projectId)).map(view);
  }

  async remove(input: z.output<typeof templateRemoveInput>): Promise<TemplateView> {
    const row = input.id
      ? await this.deps.store.find(input.id)
      : await this.deps.store.findByName(input.projectId!, input.name!);
    if (!row)
      throw new YardError("NOT_FOUND", `No template ${input.id ?? `named "${input.name}" in ${input.projectId}`}`, {
        id: input.id ?? null,
        name: input.name ?? null,
      });
    await this.deps.store.delete(row.id);
    return view(row);
  }
}
