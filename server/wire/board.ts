// The board's contract: the cards of `board.get`, grouped into the five derived columns
// (columns.ts; a task's column comes from its state and disposition: server/core/tasks/columns.ts).
import { z } from "zod";
import { type Column, COLUMNS } from "./columns";
import { taskId } from "./common";
import { setupStep } from "./repo-config";
import { reviewStatus } from "./reviews";

export const boardCard = z.object({
  id: taskId,
  title: z.string(),
  label: z.string().nullable(),
  state: z.string(),
  disposition: z.string().nullable(),
  agent: z.string(),
  round: z.number().int().min(1),
  branch: z.string().nullable(),
  contextId: z.string().nullable(),
  /** The task's diff against its base, as GitHub's pull-request list shows it; null until it has been taken. */
  diffStat: z
    .object({ files: z.number().int().min(0), additions: z.number().int().min(0), deletions: z.number().int().min(0) })
    .nullable(),
  /** The task waits on a person: its pane is blocked on a prompt, or it is input_required. */
  needsUser: z.boolean(),
  reviewStatus,
  /** What needs attention or what is going on, in one line (null: nothing beyond the state). */
  line: z.string().nullable(),
  /** The repository's setup commands run before its agent: how far they got (null: not setting up). */
  setup: setupStep.nullable(),
  /** Backlog only: what the task waits for, or why it is stuck ("Waits for …" / "Blocked: …"); null when nothing. */
  waiting: z.string().nullable(),
  /** The tasks this one depends on (ids), met or not. */
  dependsOn: z.array(z.string()),
  /** Who started it: a person's name, or the starting pane's id (null: before people were recorded). */
  startedBy: z.string().nullable(),
  /** The runner its agent runs on (null: the board's own machine). */
  runner: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  /** When the card entered its current column (ISO time). */
  columnSince: z.string(),
});
export type BoardCard = z.infer<typeof boardCard>;

/** The board: each column's cards. */
export const boardOutput = z.object(
  Object.fromEntries(COLUMNS.map((c) => [c, z.array(boardCard)])) as Record<Column, z.ZodArray<typeof boardCard>>,
);

/** How many of the newest Done cards board.get returns; the rest come from board.done, page by page. */
export const DONE_ON_BOARD = 50;

export const doneInput = z.object({
  projectId: z.string().min(1).max(64),
  /** The previous page's `next` (absent: the newest page). */
  cursor: z.string().min(1).max(80).optional(),
  limit: z.number().int().min(1).max(200).default(50),
});

/** One page of a project's Done cards, newest first. */
export const donePage = z.object({
  cards: z.array(boardCard),
  /** Every Done card of the project. */
  total: z.number().int().min(0),
  /** The cursor of the next (older) page; null on the last. */
  next: z.string().nullable(),
});
export type DonePage = z.infer<typeof donePage>;
