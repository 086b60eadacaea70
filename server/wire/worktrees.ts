// The worktrees contract: zod schemas for the `worktrees.*` procedures (the list of every
// Switchyard worktree with its size, the clean-up's plan and outcome, the disk budget). The size
// and age helpers they validate with are in ./sizes.ts.
import { z } from "zod";
import { parseSize } from "./sizes";

// ---- the list ---------------------------------------------------------------------------------

/**
 * What a worktree is to Switchyard:
 *   task      a task's own worktree;
 *   extra     a worktree an agent registered for its task (`yard task register-worktree`);
 *   leftover  a directory under the data dir's worktree folder that no task has (a task's folder
 *             whose rows are gone, an interrupted start, a copy left behind).
 */
const worktreeKind = z.enum(["task", "extra", "leftover"]);

/**
 * Where it stands, for the clean-up:
 *   live      its task is not finished (running, waiting for you, in review, failed or canceled
 *             without a finish): never removed;
 *   finished  its task was merged or discarded and the worktree is still on disk: removable;
 *   leftover  no task has it: removable;
 *   missing   a live task's worktree that is no longer on disk (nothing to remove).
 */
const worktreeStatus = z.enum(["live", "finished", "leftover", "missing"]);

const worktreeSize = z.object({
  /** Bytes on disk (allocated blocks; links counted as themselves, hard links once). */
  bytes: z.number().int(),
  files: z.number().int(),
  /** The walk stopped at its bound: the size is at least this. */
  truncated: z.boolean(),
  /** When it was measured (ISO time). */
  measuredAt: z.string(),
});

const worktreeEntry = z.object({
  path: z.string(),
  kind: worktreeKind,
  status: worktreeStatus,
  /** The repository it belongs to (null: a leftover no known repository lists). */
  repoPath: z.string().nullable(),
  projectId: z.string().nullable(),
  branch: z.string().nullable(),
  task: z
    .object({
      id: z.string(),
      title: z.string(),
      state: z.string(),
      disposition: z.string().nullable(),
    })
    .nullable(),
  /** git lists it as a worktree of its repository. */
  registered: z.boolean(),
  /** The age's start (ISO): when its task finished, else when the task was created; a leftover's last change. */
  since: z.string(),
  /** null: not measured yet. */
  size: worktreeSize.nullable(),
  /** Why the clean-up keeps it, or what it does with it. */
  note: z.string(),
});
export type WorktreeEntry = z.infer<typeof worktreeEntry>;

export const budgetView = z.object({
  bytes: z.number().int(),
  /** As given ("20GB"). */
  text: z.string(),
  /** setting: saved from the board or `yard worktree budget`; env: YARD_DISK_BUDGET. */
  source: z.enum(["setting", "env"]),
});

/** The total and the budget: what the board's banner reads (cheap: no walk, no git). */
export const usageOutput = z.object({
  totalBytes: z.number().int(),
  /** Some worktree's walk stopped at its bound, or some are not measured yet: the total is at least this. */
  partial: z.boolean(),
  /** The oldest measurement the total is made of (null: nothing measured yet). */
  measuredAt: z.string().nullable(),
  /** A measurement is running now. */
  measuring: z.boolean(),
  budget: budgetView.nullable(),
  overBudget: z.boolean(),
});

export const listOutput = usageOutput.extend({
  worktrees: z.array(worktreeEntry),
  /** The data dir's worktree folder (leftovers are looked for there). */
  root: z.string(),
});

export const measureOutput = z.object({ scheduled: z.boolean() });

export const setBudgetInput = z.object({
  /** "20GB", "500MB"; null removes the setting (YARD_DISK_BUDGET applies again, if set). */
  budget: z
    .string()
    .trim()
    .max(40)
    .refine((s) => parseSize(s) !== null, 'not a size: use a number with B, KB, MB, GB or TB ("20GB")')
    .nullable(),
});

// ---- the clean-up -----------------------------------------------------------------------------

export const gcInput = z.object({
  /** Only what has been finished or left over for longer than this (ms). */
  olderThanMs: z
    .number()
    .int()
    .min(0)
    .max(3650 * 86_400_000)
    .optional(),
  /** Also delete finished tasks' branches that Switchyard created and that are merged into their target. */
  branches: z.boolean().optional(),
  /** Also remove worktrees with uncommitted changes (they are lost). */
  force: z.boolean().optional(),
  /** Only say what would go. */
  dryRun: z.boolean().optional(),
  /** Only these worktrees (what a confirmation showed); anything else is left alone. */
  paths: z.array(z.string().max(4096)).max(10_000).optional(),
});

const gcTask = z.object({ id: z.string(), title: z.string() }).nullable();

export const gcOutput = z.object({
  dryRun: z.boolean(),
  /** Removed (or, in a dry run, what a real run would remove). */
  removed: z.array(
    z.object({
      path: z.string(),
      kind: worktreeKind,
      task: gcTask,
      bytes: z.number().int().nullable(),
      /** Uncommitted files that went with it (only with force). */
      uncommitted: z.array(z.string()),
    }),
  ),
  /** Kept, and why (a live task, uncommitted changes, too recent, a failure). */
  kept: z.array(
    z.object({
      path: z.string(),
      kind: worktreeKind,
      task: gcTask,
      reason: z.string(),
      /** Uncommitted files (a refusal for them lists at most 50). */
      uncommitted: z.array(z.string()),
    }),
  ),
  branches: z.object({
    deleted: z.array(z.object({ branch: z.string(), repoPath: z.string(), taskId: z.string() })),
    kept: z.array(z.object({ branch: z.string(), repoPath: z.string(), taskId: z.string(), reason: z.string() })),
  }),
  /** What the removed worktrees measured (those measured). */
  freedBytes: z.number().int(),
});
export type GcOutput = z.infer<typeof gcOutput>;
