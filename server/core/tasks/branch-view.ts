// What the task view says about keeping the branch current: how far it is behind its target (the
// stored count, only while the task is unfinished and the count is of its target) and an update
// whose conflicts the agent is resolving. Pure: the rows are read by views.ts.
import type { z } from "zod";
import type { branchBehind, pendingUpdate } from "../../wire/branches";
import type { BehindRow } from "../../stores/branches";
import type { TaskRow } from "../../stores/tasks";
import { json } from "./engine-state";
import type { UpdateNote } from "./update-branch";

export function behindOf(
  r: Pick<TaskRow, "disposition" | "targetBranch">,
  b: BehindRow | undefined,
): z.infer<typeof branchBehind> | null {
  if (!b || r.disposition || b.target !== r.targetBranch) return null;
  return { target: b.target, count: b.behind, targetCommit: b.targetCommit, computedAt: b.computedAt.toISOString() };
}

export function updatingOf(r: Pick<TaskRow, "updateInFlight" | "disposition">): z.infer<typeof pendingUpdate> | null {
  const n = json<UpdateNote | null>(r.updateInFlight, null);
  if (n?.phase !== "agent" || r.disposition) return null;
  return {
    mode: n.mode,
    target: n.target,
    targetCommit: n.targetCommit,
    files: n.files ?? [],
    round: n.resolveRound ?? n.round + 1,
  };
}
