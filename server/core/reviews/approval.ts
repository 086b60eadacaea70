// Where a round's review stands once the branch may have moved: an approval holds for the
// commit it saw and no other. `reviewStatusOf` is the rule (pure); `outdatedApprovals` reads the
// branch tips an approval needs, one git call per repository for any number of tasks.
import type { ReviewStatus } from "../../wire/reviews";
import { branchTips } from "../git";

/** The round's latest verdict, with an approval whose branch has moved since shown as outdated. */
export function reviewStatusOf(
  verdict: string | null,
  reviewedCommit: string | null,
  tip: string | null | undefined,
): ReviewStatus {
  if (verdict === "changes_requested") return verdict;
  if (verdict !== "approved") return "none";
  // No pinned commit (recorded before approvals were pinned), or no branch to compare: as recorded.
  if (!reviewedCommit || tip === undefined) return "approved";
  return tip === reviewedCommit ? "approved" : "outdated";
}

export interface ApprovalRow {
  id: string;
  repoPath: string;
  branch: string | null;
  disposition: string | null;
  verdict: string | null;
  reviewedCommit: string | null;
}

/** Each task's review status, reading the tips only of unfinished tasks with a pinned approval. */
export async function reviewStatuses(rows: readonly ApprovalRow[]): Promise<Map<string, ReviewStatus>> {
  const pinned = rows.filter((r) => r.verdict === "approved" && r.reviewedCommit && r.branch && !r.disposition);
  const byRepo = new Map<string, ApprovalRow[]>();
  for (const r of pinned) byRepo.set(r.repoPath, [...(byRepo.get(r.repoPath) ?? []), r]);
  const tips = new Map<string, string | null>();
  for (const [repo, list] of byRepo) {
    const found = await branchTips(
      repo,
      list.map((r) => r.branch!),
    ).catch(() => null);
    // A repository git cannot read leaves its approvals as recorded; a branch that is gone has no tip.
    for (const r of list) tips.set(r.id, found ? (found.get(r.branch!) ?? null) : (r.reviewedCommit as string));
  }
  return new Map(
    rows.map((r) => [r.id, reviewStatusOf(r.verdict, r.reviewedCommit, tips.has(r.id) ? tips.get(r.id) : undefined)]),
  );
}
