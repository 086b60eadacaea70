// Board columns are derived from a task's state and disposition, never stored
// (docs/architecture.md, "State machines"): Backlog · In progress · Needs you · Review · Done.

export const COLUMNS = ["backlog", "in_progress", "needs_you", "review", "done"] as const;
export type Column = (typeof COLUMNS)[number];

export const COLUMN_TITLES: Record<Column, string> = {
  backlog: "Backlog",
  in_progress: "In progress",
  needs_you: "Needs you",
  review: "Review",
  done: "Done",
};

export interface ColumnInput {
  state: string;
  disposition: string | null;
  /** The task's pane is blocked on a prompt (permission, question). */
  paneBlocked?: boolean;
}

export function columnFor(t: ColumnInput): Column {
  if (t.disposition === "merged" || t.disposition === "discarded") return "done";
  switch (t.state) {
    case "backlog":
      return "backlog";
    case "pending":
    case "working":
      return t.paneBlocked ? "needs_you" : "in_progress";
    case "input_required":
    case "failed":
      return "needs_you";
    case "completed":
      return "review";
    case "canceled":
    case "rejected":
      return "done";
    default:
      return "needs_you"; // an unknown state is surfaced, never hidden
  }
}
