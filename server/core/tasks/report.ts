// A task's own verdict and the user's stop: a worker's report (completed, failed or rejected, with
// its result) and cancel (stops the runner and the agent). Both go through the reducer.
import { type ReportInput, reportInput } from "../../contracts/tasks";
import { YardError } from "../errors";
import { apply, type TaskContext, taskRow } from "./context";
import { isTerminal } from "./state";
import { get, type TaskResult, type TaskView } from "./views";

export { reportInput };

export async function report(
  ctx: TaskContext,
  raw: ReportInput,
  caller: { paneId: string | null; paneTaskId: string | null; admin: boolean },
): Promise<TaskView> {
  const input = reportInput.parse(raw);
  const taskId = input.taskId ?? caller.paneTaskId;
  if (!taskId)
    throw new YardError("BAD_PARAMS", "Which task? Run this inside a task's pane (YARD_TASK) or pass --task ID");
  await taskRow(ctx, taskId); // NOT_FOUND before FORBIDDEN
  if (!caller.admin && caller.paneTaskId !== taskId)
    throw new YardError("FORBIDDEN", "A pane may only report for its own task", { taskId });
  const result: TaskResult = {
    status: input.status,
    summary: input.summary,
    artifacts: input.artifacts,
    changedFiles: input.changedFiles,
    evidence: input.evidence ?? null,
  };
  await apply(ctx, taskId, { type: "report", status: input.status }, { result });
  return get(ctx, taskId);
}

export async function cancel(ctx: TaskContext, taskId: string): Promise<TaskView> {
  const row = await taskRow(ctx, taskId);
  if (isTerminal(row.state)) throw new YardError("CONFLICT", `The task is already ${row.state}`, { state: row.state });
  ctx.runners.get(taskId)?.ac.abort();
  await apply(ctx, taskId, { type: "cancel" });
  if (row.paneId && ctx.deps.panes.isLive(row.paneId)) await ctx.deps.panes.kill(row.paneId);
  return get(ctx, taskId);
}
