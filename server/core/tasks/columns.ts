// Board columns are derived from a task's state and disposition, never stored
// (docs/architecture.md, "State machines"): Backlog · In progress · Needs you · Review · Done.
// The columns themselves and their titles are shared with the browser (server/wire/columns.ts).
import type { Column } from "../../wire/columns";

export { COLUMNS, type Column } from "../../wire/columns";

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
