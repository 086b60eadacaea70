// The task contract: zod schemas for the inputs and outputs of every `tasks.*` procedure (start
// and the backlog, the task view, wait, report, follow-up, diff, cancel, finish, events, resume),
// the base-ref picker and the board's cards. The router declares them with .input()/.output(),
// the CLI and UI take their types from the router, and the task engine's types come from here.
import { z } from "zod";
import { runnerLabel, runnerName } from "./runners";
import { absolutePath, argvSchema, contextId, evidence, id, LIMITS, taskId, text } from "./common";
import { paneInfo } from "./panes";
import { startWhen, waiting } from "./orchestration";
import { taskSetupView } from "./repo-config";
import { reviewStatus, reviewVerdict } from "./reviews";
import { branchBehind, branchUpdate, mergeStrategy, pendingUpdate } from "./branches";

const idString = z
  .string()
  .trim()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9_-]+$/);

// ---- start, report ---------------------------------------------------------------------

const contractLine = z.string().trim().min(1).max(4000);

/** A task's contract: what the worker is asked to do. */
export const contractInput = z.object({
  objective: z
    .string()
    .trim()
    .min(1, "the contract needs an objective")
    .max(64 * 1024),
  constraints: z.array(contractLine).max(100).default([]),
  acceptanceCriteria: z.array(contractLine).max(100).default([]),
  outputFormat: z.string().trim().min(1).max(8000).optional(),
});

export const startInput = contractInput.extend({
  title: z.string().trim().min(1).max(200).optional(),
  label: z.string().trim().min(1).max(80).optional(),
  contextId: contextId.optional(),
  projectId: idString.optional(),
  repoPath: absolutePath.optional(),
  agent: z
    .string()
    .regex(/^[a-z0-9][a-z0-9-]{0,39}$/)
    .optional(),
  argv: argvSchema.optional(),
  baseRef: text(LIMITS.ref).pipe(z.string().min(1)).optional(),
  fetch: z.boolean().optional(),
  branch: text(LIMITS.ref).pipe(z.string().min(1)).optional(),
  path: absolutePath.optional(),
  parentPaneId: z
    .string()
    .regex(/^pane[a-z0-9]+$/)
    .optional(),
  parentTaskId: idString.optional(),
  readyTimeoutMs: z.number().int().min(100).max(600_000).optional(),
  /** How long a start-up dialog may wait for a human (default: the ready timeout); the ready clock is paused meanwhile. */
  dialogTimeoutMs: z
    .number()
    .int()
    .min(100)
    .max(24 * 3600_000)
    .optional(),
  stallMs: z.number().int().min(100).max(600_000).optional(),
  /** Record the task in the backlog instead of starting it (tasks.startBacklog starts it later). */
  backlog: z.boolean().optional(),
  /** Run the agent in the OS sandbox; overrides the agent profile's setting. */
  sandbox: z.boolean().optional(),
  /** Run the agent on this runner (yard runner list); else the first runner with all of `labels` and room; else the project's default runner; else this machine. */
  runner: runnerName.optional(),
  labels: z.array(runnerLabel).min(1).max(8).optional(),
  /** Tasks this one waits for: with any unmet it waits in the backlog and starts by itself once they are. */
  dependsOn: z.array(taskId).max(32).optional(),
  /** When a dependency counts as met: merged (default: the base then has its work) or completed. */
  startWhen: startWhen.optional(),
  /** An agent profile that reviews each completed round before a person does (else the project's). */
  reviewer: z
    .string()
    .regex(/^[a-z0-9][a-z0-9-]{0,39}$/)
    .optional(),
  /** Plan first: a planner agent writes a plan (reviewed like code) that becomes the subtasks. */
  needsPlan: z.boolean().optional(),
  /** The planner profile for needsPlan (else the project's). */
  planner: z
    .string()
    .regex(/^[a-z0-9][a-z0-9-]{0,39}$/)
    .optional(),
  /** An agent profile that reviews each plan version of a needsPlan task (else people and orchestrators do). */
  planReviewer: z
    .string()
    .regex(/^[a-z0-9][a-z0-9-]{0,39}$/)
    .optional(),
});
export type StartInput = z.input<typeof startInput>;

const reportStatus = z.enum(["completed", "failed", "rejected"]);

export const reportInput = z.object({
  taskId: idString.optional(),
  status: reportStatus,
  summary: z.string().trim().min(1, "a report needs a summary").max(LIMITS.summary),
  artifacts: z.array(z.string().min(1).max(LIMITS.path)).max(1000).default([]),
  changedFiles: z.array(z.string().min(1).max(LIMITS.path)).max(10_000).default([]),
  evidence: evidence.optional(),
});
export type ReportInput = z.input<typeof reportInput>;

// ---- the other inputs --------------------------------------------------------------------

export const taskIdInput = z.object({ id: taskId });

export const listInput = z
  .object({
    contextId: z.string().max(100).optional(),
    states: z.array(z.string().max(32)).max(10).optional(),
    projectId: z.string().max(64).optional(),
  })
  .optional();

export const waitInput = z.object({
  id: taskId.optional(),
  contextId: z.string().max(100).optional(),
  until: z.union([z.string().max(200), z.array(z.string().max(32)).max(10)]).optional(),
  timeoutMs: z
    .number()
    .int()
    .min(1)
    .max(24 * 3600_000)
    .optional(),
});

export const resumeInput = z.object({
  id: taskId,
  prompt: z
    .string()
    .trim()
    .min(1)
    .max(64 * 1024)
    .optional(),
  readyTimeoutMs: z.number().int().min(100).max(600_000).optional(),
});

export const finishInput = z.object({
  id: taskId,
  merge: z
    .object({
      target: z.string().min(1).max(255).optional(),
      keepBranch: z.boolean().optional(),
      ignoreDirty: z.boolean().optional(),
      /** How the branch lands (default: the project's, else a merge commit). */
      strategy: mergeStrategy.optional(),
    })
    .optional(),
  /** force: a pane (an orchestrator) discarding a task whose worktree has uncommitted work must say so. */
  discard: z.object({ deleteBranch: z.boolean().optional(), force: z.boolean().optional() }).optional(),
});

/** What a discard would lose: the worktree's files that are not committed (at most 1000 listed; truncated says more were). */
export const uncommittedOutput = z.object({ files: z.array(z.string()), truncated: z.boolean() });

export const eventsInput = z.object({ id: taskId, since: z.number().int().min(0).optional() });

// ---- the task view -----------------------------------------------------------------------

/** The task states (the reducer in server/core/tasks/state.ts takes its list from here). */
export const taskState = z.enum([
  "backlog",
  "pending",
  "working",
  "input_required",
  "completed",
  "failed",
  "canceled",
  "rejected",
]);

/** What a worker reported for a round. */
export const taskResult = z.object({
  status: reportStatus,
  summary: z.string(),
  artifacts: z.array(z.string()),
  changedFiles: z.array(z.string()),
  evidence: z.record(z.string(), z.unknown()).nullable(),
});
export type TaskResult = z.infer<typeof taskResult>;

/** An agent session's token usage, read from its transcript. */
export const tokenUsage = z.object({
  inputTokens: z.number(),
  outputTokens: z.number(),
  cacheReadTokens: z.number(),
  cacheWriteTokens: z.number(),
  totalTokens: z.number(),
});

export const taskView = z.object({
  id: z.string(),
  title: z.string(),
  state: taskState,
  round: z.number().int().min(1),
  label: z.string().nullable(),
  contextId: z.string().nullable(),
  projectId: z.string().nullable(),
  repoPath: z.string(),
  agent: z.string(),
  contract: z.object({
    objective: z.string(),
    constraints: z.array(z.string()),
    acceptanceCriteria: z.array(z.string()),
    outputFormat: z.string().nullable(),
  }),
  baseRef: z.string().nullable(),
  baseSha: z.string().nullable(),
  targetBranch: z.string().nullable(),
  branch: z.string().nullable(),
  branchPreexisting: z.boolean(),
  worktreePath: z.string().nullable(),
  paneId: z.string().nullable(),
  parentPaneId: z.string().nullable(),
  parentTaskId: z.string().nullable(),
  rootTaskId: z.string().nullable(),
  /** Who started it: a person's name, or the starting pane's id (null: before people were recorded). */
  startedBy: z.string().nullable(),
  /** Under the project's required approvals: who approved the tip the merge takes, and what is missing (null: no rule, or finished). */
  approvals: z
    .object({
      required: z.number().int(),
      have: z.array(z.string()),
      missing: z.number().int(),
      excluded: z.string().nullable(),
      /** Why Merge waits, in one sentence (null: it need not). */
      why: z.string().nullable(),
    })
    .nullable(),
  result: taskResult.nullable(),
  /** Why the task is where it is (failed, input_required). */
  evidence: z.record(z.string(), z.unknown()).nullable(),
  /** Where the current round's review stands. */
  reviewStatus,
  /** The agent runs in the OS sandbox. */
  sandboxed: z.boolean(),
  /** The runner its agent runs on (null: the board's own machine). */
  runner: z.string().nullable(),
  /** The agent's own session (from its hooks), with its token usage read from its transcript. */
  agentSession: z
    .object({ id: z.string(), transcriptPath: z.string().nullable(), tokens: tokenUsage.nullable() })
    .nullable(),
  /** One line saying what needs attention or what is going on (a dialog, an API error, retrying). */
  statusLine: z.string().nullable(),
  disposition: z.enum(["merged", "discarded"]).nullable(),
  mergeCommit: z.string().nullable(),
  /** How a merged task landed (null: a merge commit, or not merged). */
  mergeStrategy: mergeStrategy.nullable(),
  /** How far the branch is behind its target, as last counted (null: not counted, or finished). */
  behind: branchBehind.nullable(),
  /** An update of the branch whose conflicts the agent is resolving. */
  updating: pendingUpdate.nullable(),
  cleanupError: z.string().nullable(),
  finishedAt: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  /** What the task waits for (its dependencies and whether each is met); null without dependencies. */
  waiting: waiting.nullable(),
  /** The parent acknowledged this round's result (yard task ack). */
  acknowledgedAt: z.string().nullable(),
  /** The agent reviewer stage: its profile, state (running, approved, changes_requested, skipped, capped, failed), pane and runs. */
  agentReview: z.object({
    reviewer: z.string().nullable(),
    state: z.string().nullable(),
    paneId: z.string().nullable(),
    runs: z.number().int(),
  }),
  /** Its repository config (.switchyard.json and the project's override) as it started, its ports, what teardown did; null: none. */
  setup: taskSetupView.nullable(),
});
export type TaskView = z.infer<typeof taskView>;

// ---- outputs -----------------------------------------------------------------------------

export const taskList = z.array(taskView);

/** A start: the task and its agent's pane (none for a task recorded in the backlog). */
export const startOutput = z.object({ task: taskView, pane: paneInfo.nullable() });
/** A backlog start or a resume: the task and the agent's new pane. */
export const taskWithPane = z.object({ task: taskView, pane: paneInfo });

export const waitOutput = z.object({ tasks: taskList });

export const followUpOutput = z.object({
  task: taskView,
  submit: z.object({ activitySeq: z.number().int(), bracketed: z.boolean() }),
});

/** What removing the worktree (and maybe the branch) did; `error` when part of it failed. */
export const finishCleanup = z.object({
  ok: z.boolean(),
  error: z.string().optional(),
  worktreeRemoved: z.boolean(),
  /** The worktree was already gone before cleanup. */
  worktreeMissing: z.boolean(),
  branchDeleted: z.boolean(),
  /** Deletion was asked for but the branch no longer exists (discard only). */
  branchMissing: z.boolean().optional(),
  /** Discard only: the uncommitted files that were removed with the worktree (at most 1000 listed). */
  uncommittedFiles: z.array(z.string()).optional(),
});

/** A finish: the task, the merge (merge only) and the cleanup. */
export const finishOutput = z.object({
  task: taskView,
  merge: z
    .object({ mergeCommit: z.string(), alreadyUpToDate: z.boolean(), target: z.string(), strategy: mergeStrategy })
    .optional(),
  cleanup: finishCleanup,
});

/** tasks.update: the task and what the update did. */
export const updateOutput = z.object({ task: taskView, update: branchUpdate });

// ---- diff ------------------------------------------------------------------------------

export const diffFile = z.object({
  path: z.string(),
  status: z.enum(["added", "modified", "deleted", "renamed"]),
  oldPath: z.string().optional(),
  additions: z.number().int(),
  deletions: z.number().int(),
  binary: z.boolean(),
});

export const taskDiffInput = z.object({
  id: taskId,
  /** "last_review": only what changed since the task's last review was submitted. */
  since: z.enum(["last_review"]).optional(),
  /** Only what turn N changed: its snapshot against the one before (tasks.turns lists them). */
  turn: z.number().int().min(1).max(1_000_000).optional(),
});

export const taskDiffOutput = z.object({
  diff: z.string(),
  files: z.array(diffFile),
  baseSha: z.string(),
  /** worktree: read from the live worktree; branch: the worktree is gone, read from the branch (or merge); turn: between two turn snapshots. */
  source: z.enum(["worktree", "branch", "turn"]),
  /** Set when the diff starts at a review's snapshot instead of the base commit. */
  since: z
    .object({
      reviewId: z.string(),
      round: z.number().int().min(1),
      verdict: reviewVerdict,
      /** The worktree's tree when that review was submitted. */
      tree: z.string(),
      createdAt: z.string(),
    })
    .nullable(),
});

// ---- backlog, follow-up ----------------------------------------------------------------

export const followUpInput = z.object({
  id: taskId,
  text: z.string().trim().min(1, "a follow-up needs text").max(LIMITS.prompt),
  /** How long the agent may take to start working on it before SUBMIT_STALLED (default 5000 ms). */
  stallMs: z.number().int().min(100).max(600_000).optional(),
});

// ---- base-ref picker -------------------------------------------------------------------

export const projectRefsInput = z.object({
  id,
  /** Filters both lists: part of a branch name, a commit sha prefix or part of a commit subject. */
  query: z.string().trim().max(200).optional(),
  limit: z.number().int().min(1).max(500).optional(),
});

export const projectRefsOutput = z.object({
  branches: z.array(z.object({ name: z.string(), sha: z.string(), current: z.boolean() })),
  commits: z.array(z.object({ sha: z.string(), subject: z.string() })),
});
