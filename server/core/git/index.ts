// Public surface of the framework-free git layer. Everything runs git through ./git (argv
// arrays, scrubbed env); nothing here imports Next, tRPC, socket.io or the database.
// See each module's top comment for the exact contract.

export { runGit } from "./git";
export { inspectRepo } from "./repo";
export {
  validateBranchName,
  resolveBaseSha,
  branchTip,
  branchTips,
  isMerged,
  listRefs,
} from "./refs";
export { createWorktree, listWorktrees, findWorktree } from "./worktree";
export {
  diffCommits,
  diffCommitsStat,
  diffTreeToCommit,
  diffWorktree,
  diffWorktreeSince,
  diffWorktreeStat,
  uncommittedFiles,
  totalsOf,
  worktreeTree,
} from "./diff";
export type { DiffFile, DiffTotals } from "./diff";
export { commitSnapshot, pruneTurnRefs, restoreWorktree, treeOfCommit, turnRef } from "./turn-snapshots";
export { mergeTask, settleInterruptedMerge } from "./merge";
export { discardWorktree } from "./discard";
export { abortUpdate, behindCount, fileChanges, updateBranch, updateProgress } from "./update";
export type { Hunk, UpdateMode } from "./update";
