// Public surface of the framework-free git layer. Everything runs git through ./git (argv
// arrays, scrubbed env); nothing here imports Next, tRPC, socket.io or the database.
// See each module's top comment for the exact contract.

export { runGit, gitEnv, committerIdentityArgs, FALLBACK_IDENTITY, isHexObjectId } from "./git";
export type { RunGitOptions, GitResult } from "./git";
export { inspectRepo } from "./repo";
export type { RepoInfo } from "./repo";
export {
  branchNameProblem,
  validateBranchName,
  revisionProblem,
  resolveBaseSha,
  resolveCommit,
  branchTip,
  branchTips,
  branchExists,
  isMerged,
  listRefs,
} from "./refs";
export type { ResolveBaseOptions, RefList } from "./refs";
export { requireAbsolutePath, sanitizeBranchForPath, defaultWorktreeRoot, defaultWorktreePath } from "./paths";
export { withRepoLock, isRepoLocked, KeyedMutex } from "./lock";
export { statusEntries, operationInProgress } from "./status";
export type { StatusEntry, GitOperation } from "./status";
export { createWorktree, listWorktrees, findWorktree, removeWorktree } from "./worktree";
export type { CreateWorktreeInput, CreateWorktreeResult, WorktreeEntry, RemoveWorktreeResult } from "./worktree";
export {
  diffCommits,
  diffTreeToCommit,
  diffWorktree,
  diffWorktreeSince,
  diffWorktreeStat,
  uncommittedFiles,
  parseRawNumstatZ,
  parseRawPatchZ,
  totalsOf,
  worktreeTree,
} from "./diff";
export type { DiffFile, DiffFileStatus, WorktreeDiff, WorktreeDiffStat, DiffTotals, DiffWorktreeInput } from "./diff";
export { mergeTask, settleInterruptedMerge } from "./merge";
export type { MergeTaskInput, MergeTaskResult, MergeCleanup } from "./merge";
export { discardWorktree } from "./discard";
export type { DiscardWorktreeInput, DiscardWorktreeResult } from "./discard";
