// Required approvals: a project may require N distinct people to approve a task's current tip
// (the commit its latest approval pinned, which the merge takes) before it merges, optionally not
// counting the person who started the task. Pure: the merge (finish.ts) and the task view ask it.
import { YardError } from "../errors";

export interface ApprovalRule {
  required: number;
  noSelfApproval: boolean;
}

export interface ApprovalState {
  required: number;
  /** The people whose approvals count, oldest first. */
  have: string[];
  missing: number;
  /** Who may not count (the starter, with noSelfApproval). */
  excluded: string | null;
}

export function approvalState(rule: ApprovalRule, approvers: string[], startedBy: string | null): ApprovalState {
  const excluded = rule.noSelfApproval && startedBy ? startedBy : null;
  const have = approvers.filter((a) => a !== excluded);
  return { required: rule.required, have, missing: Math.max(0, rule.required - have.length), excluded };
}

/** Why the merge must wait, in one sentence; null when the approvals are there. */
export function approvalShortfall(s: ApprovalState): string | null {
  if (s.missing === 0) return null;
  const so = s.have.length ? `approved by ${s.have.join(", ")} so far` : "no approvals yet";
  const from = `from reviewers or admins${s.excluded ? ` other than ${s.excluded} (who started it)` : ""}${s.have.length ? ` and ${s.have.join(", ")}` : ""}`;
  return `This project needs ${s.required} approval${s.required === 1 ? "" : "s"} of the task's current tip (${so}): ${s.missing} more ${from}`;
}

export function requireApprovals(s: ApprovalState): void {
  const why = approvalShortfall(s);
  if (why)
    throw new YardError("CONFLICT", why, {
      required: s.required,
      approvedBy: s.have,
      missing: s.missing,
      ...(s.excluded ? { excluded: s.excluded } : {}),
    });
}
