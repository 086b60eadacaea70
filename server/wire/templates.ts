// The templates contract: zod schemas for the `templates.*` procedures. A template is a project's
// saved task contract (title, objective, constraints, acceptance criteria, output format, label,
// agent) that fills the New task form ("Use template") or `yard template add --from-task`.
import { z } from "zod";
import { id, profileId, taskId } from "./common";
import { contractInput, startInput } from "./tasks";

const name = z.string().trim().min(1, "a template needs a name").max(100);
/** A constraint or an acceptance criterion, as a task's contract takes it. */
const line = z.string().trim().min(1).max(4000);

/** add: the fields as given; with fromTaskId, a task's contract fills every field not given. */
export const templateAddInput = z.object({
  /** Default: the task's project (fromTaskId). */
  projectId: id.optional(),
  /** Copy this task's title, contract, label and agent. */
  fromTaskId: taskId.optional(),
  /** Unique in the project. Default: the title, else the objective's first line. */
  name: name.optional(),
  title: startInput.shape.title,
  objective: contractInput.shape.objective.optional(),
  constraints: z.array(line).max(100).optional(),
  acceptanceCriteria: z.array(line).max(100).optional(),
  outputFormat: contractInput.shape.outputFormat,
  label: startInput.shape.label,
  agent: profileId.optional(),
});

export const templateListInput = z.object({ projectId: id.optional() }).optional();

/** remove: by id, or by name within a project. */
export const templateRemoveInput = z
  .object({ id: id.optional(), projectId: id.optional(), name: name.optional() })
  .refine((v) => !!v.id !== !!(v.projectId && v.name), "give a template id, or a project and a name");

export const templateView = z.object({
  id: z.string(),
  projectId: z.string(),
  name: z.string(),
  title: z.string().nullable(),
  objective: z.string(),
  constraints: z.array(z.string()),
  acceptanceCriteria: z.array(z.string()),
  outputFormat: z.string().nullable(),
  label: z.string().nullable(),
  agent: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export const templateList = z.array(templateView);
