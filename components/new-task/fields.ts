// The "New task" form's fields: their blank values, and which field each server error is about
// (zod issue paths in details.issues, or the detail the error names; a row of constraints or
// acceptance criteria by its index among the non-empty rows).
import { issuesOf, type YardErrorData } from "../../lib/trpc";

export type Field =
  | "projectId"
  | "agent"
  | "title"
  | "objective"
  | "constraints"
  | "acceptanceCriteria"
  | "outputFormat"
  | "label"
  | "contextId"
  | "baseRef"
  | "dependsOn"
  | "planner"
  | "reviewer"
  | "runner"
  | "form";

/** Which field each server error is about. */
export function fieldErrors(e: YardErrorData): Partial<Record<Field, string>> & { rows?: Record<string, string> } {
  const out: Partial<Record<Field, string>> & { rows?: Record<string, string> } = {};
  const issues = issuesOf(e);
  const known: Field[] = [
    "projectId",
    "agent",
    "title",
    "objective",
    "constraints",
    "acceptanceCriteria",
    "outputFormat",
    "label",
    "contextId",
    "baseRef",
    "dependsOn",
    "planner",
    "reviewer",
    "runner",
  ];
  for (const [p, msg] of Object.entries(issues)) {
    const head = p.split(".")[0] as Field;
    if (known.includes(head)) {
      if ((head === "constraints" || head === "acceptanceCriteria") && p.includes(".")) {
        out.rows ??= {};
        out.rows[p] = msg;
      }
      out[head] ??= msg;
    } else out.form ??= p ? `${p}: ${msg}` : msg;
  }
  if (Object.keys(issues).length) return out;
  const d = e.details ?? {};
  if ("ref" in d || "baseRef" in d) out.baseRef = e.message;
  else if ("planner" in d) out.planner = e.message;
  else if ("reviewer" in d) out.reviewer = e.message;
  else if ("runner" in d || /runner/i.test(e.message)) out.runner = e.message;
  else if (e.code === "NOT_FOUND" && /agent profile/i.test(e.message)) out.agent = e.message;
  else if (e.code === "NOT_FOUND" && /project/i.test(e.message)) out.projectId = e.message;
  else if ("contextId" in d) out.contextId = e.message;
  else if ("taskId" in d || "cycle" in d) out.dependsOn = e.message;
  else out.form = e.message;
  return out;
}

export const blank = {
  projectId: "",
  agent: "",
  title: "",
  objective: "",
  constraints: [""],
  acceptanceCriteria: [""],
  outputFormat: "",
  label: "",
  contextId: "",
  baseRef: "",
  dependsOn: [] as string[],
  startWhen: "merged" as "merged" | "completed",
  needsPlan: false,
  planner: "",
  reviewer: "",
  runner: "",
};
