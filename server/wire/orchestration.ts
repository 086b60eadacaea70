// Contracts of the orchestration procedures: dependencies, the question/answer/ack thread,
// registered worktrees and `whoami`. Inputs are bounded; outputs are what the CLI and UI read.
import { z } from "zod";
import { absolutePath, taskId, text } from "./common";

export const startWhen = z.enum(["merged", "completed"]);

export const dependInput = z.object({
  id: taskId,
  on: taskId,
  remove: z.boolean().optional(),
  /** When the task starts by itself once every dependency is met (default merged). */
  startWhen: startWhen.optional(),
});

const dependencyStatus = z.object({
  id: z.string(),
  title: z.string(),
  state: z.string(),
  disposition: z.string().nullable(),
  met: z.boolean(),
  stuck: z.string().nullable(),
});

export const waiting = z.object({
  ready: z.boolean(),
  dependencies: z.array(dependencyStatus),
  reason: z.string().nullable(),
});

export const dependReply = z.object({ id: z.string(), startWhen: startWhen.nullable(), waiting, started: z.boolean() });

export const askInput = z.object({ question: text(8000).pipe(z.string().trim().min(1, "the question is empty")) });
export const answerInput = z.object({
  id: taskId,
  text: text(64 * 1024).pipe(z.string().trim().min(1, "the answer is empty")),
  stallMs: z.number().int().min(100).max(600_000).optional(),
});

export const ackInput = z.object({ id: taskId });
export const agentReviewInput = z.object({ id: taskId, action: z.enum(["skip", "rerun"]) });
export const threadInput = z.object({ id: taskId });
export const worktreesInput = z.object({ id: taskId });

export const message = z.object({
  id: z.string(),
  taskId: z.string(),
  author: z.string(),
  kind: z.enum(["question", "answer", "information"]),
  body: z.string(),
  replyTo: z.string().nullable(),
  round: z.number().int(),
  createdAt: z.string(),
});

export const messageReply = z.object({ message });
export const threadReply = z.object({
  messages: z.array(message),
  openQuestion: z.string().nullable(),
  acknowledgedAt: z.string().nullable(),
});
export const ackReply = z.object({ id: z.string(), acknowledgedAt: z.string(), alreadyAcknowledged: z.boolean() });

export const registerWorktreeInput = z.object({
  path: absolutePath,
  branch: z.string().trim().min(1).max(255).optional(),
});
const taskWorktree = z.object({ path: z.string(), branch: z.string().nullable(), createdAt: z.string() });
export const worktreesReply = z.object({ taskId: z.string(), worktrees: z.array(taskWorktree) });

/** Who calls: the person, or a pane by its role. */
export const callerRole = z.enum(["person", "orchestrator", "worker", "reviewer", "planner"]);

export const whoamiReply = z.object({
  role: callerRole,
  paneId: z.string().nullable(),
  /** For a person: their name and role on the board. */
  person: z.object({ name: z.string(), role: z.enum(["member", "reviewer", "admin"]) }).optional(),
  /** Only for task-bound callers: the task, its context and its lineage (root first). */
  task: z
    .object({
      id: z.string(),
      title: z.string(),
      state: z.string(),
      round: z.number().int(),
      contextId: z.string().nullable(),
      parentTaskId: z.string().nullable(),
      rootTaskId: z.string().nullable(),
      parentPaneId: z.string().nullable(),
      lineage: z.array(z.string()),
    })
    .nullable(),
  guide: z.string(),
});
