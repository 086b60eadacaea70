// A task's own verdict and the user's stop: a worker's report (completed, failed or rejected, with
// its result) and cancel (stops the runner and the agent). Both go through the reducer.
import { type ReportInput, reportInput } from "../../wire/tasks";
import { YardError } from "../errors";
import { apply, type EngineState, taskRow } from "./engine-state";
import { isTerminal } from "./state";
import { releasePorts } from "./task-ports";
import { get, type TaskResult, type TaskView } from "./views";

export async function report(
  eng: EngineState,
  raw: ReportInput,
  caller: { paneId: string | null; paneTaskId: string | null; admin: boolean },
): Promise<TaskView> {
  const input = reportInput.parse(raw);
  const taskId = input.taskId ?? caller.paneTaskId;
  if (!taskId)
    throw new YardError("BAD_PARAMS", "Which task? Run this inside a task's pane (YARD_TASK) or pass --task ID");
  await taskRow(eng, taskId); // NOT_FOUND before FORBIDDEN
  if (!caller.admin && caller.paneTaskId !== taskId)
    throw new YardError("FORBIDDEN", "A pane may only report for its own task", { taskId });
  const result: TaskResult = {
    status: input.status,
    summary: input.summary,
    artifacts: input.artifacts,
    changedFiles: input.changedFiles,
    evidence: input.evidence ?? null,
  };
  await apply(eng, taskId, { type: "report", status: input.status }, { result });
  return get(eng, taskId);
}

export async function cancel(eng: EngineState, taskId: string): Promise<TaskView> {
  const row = await taskRow(eng, taskId);
  if (isTerminal(row.state)) throw new YardError("CONFLICT", `The task is already ${row.state}`, { state: row.state });
  eng.runners.get(taskId)?.ac.abort();
  await apply(eng, taskId, { type: "cancel" });
  if (row.paneId && eng.deps.panes.isLive(row.paneId)) await eng.deps.panes.kill(row.paneId);
  await releasePorts(eng, taskId);
  return get(eng, taskId);
}
