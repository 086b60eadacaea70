// The board's five columns and their titles. Pure and dependency-free: the browser bundles it.
// Which column a task is in is derived from its state and disposition, never stored
// (server/core/tasks/columns.ts).

export const COLUMNS = ["backlog", "in_progress", "needs_you", "review", "done"] as const;
export type Column = (typeof COLUMNS)[number];

export const COLUMN_TITLES: Record<Column, string> = {
  backlog: "Backlog",
  in_progress: "In progress",
  needs_you: "Needs you",
  review: "Review",
  done: "Done",
};
