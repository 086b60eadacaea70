import { afterAll, describe, expect, it } from "vitest";
import { chmod } from "node:fs/promises";
import path from "node:path";
import { mergeTask, type MergeTaskInput, settleInterruptedMerge } from "./merge";
import { isMerged } from "./refs";
import { createWorktree } from "./worktree";
import {
  branches,
  commitAll,
  exists,
  git,
  gitCode,
  makeRepo,
  read,
  rejectsWith,
  removeTmpDirs,
  tmpDir,
  worktreePaths,
  write,
} from "../../../tests/helpers/git-core";

afterAll(removeTmpDirs);

/** A repo on main plus one task worktree on branch "task" with one commit adding feature.txt. */
async function setup(opts: { branch?: string; preexisting?: boolean } = {}) {
  const branch = opts.branch ?? "task";
  const repo = await makeRepo({ "README.md": "line 1\nline 2\nline 3\n" });
  if (opts.preexisting) await git(repo.root, "branch", branch, repo.head);
  const d = await tmpDir();
  const wt = await createWorktree({ repoRoot: repo.root, branch, baseSha: repo.head, path: path.join(d, "wt") });
  await write(wt.worktreePath, "feature.txt", "feature\n");
  const tip = await commitAll(wt.worktreePath, "add feature");
  const input: MergeTaskInput = {
    repoRoot: repo.root,
    worktreePath: wt.worktreePath,
    branch,
    targetBranch: "main",
    branchPreexisting: wt.branchPreexisting,
  };
  return { root: repo.root, base: repo.head, wt: wt.worktreePath, tip, input };
}

/** Everything observable about the target and the task, to prove "nothing changed". */
async function snapshot(root: string, wt: string) {
  return {
    head: await git(root, "rev-parse", "HEAD"),
    status: await git(root, "status", "--porcelain"),
    branches: await branches(root),
    worktrees: await worktreePaths(root),
    wtStatus: (await exists(wt)) ? await git(wt, "status", "--porcelain") : null,
    readme: await read(root, "README.md"),
  };
}

describe("mergeTask success", () => {
  it("merges with --no-ff, removes the worktree and deletes the task branch", async () => {
    const { root, base, wt, tip, input } = await setup();
    const r = await mergeTask(input);
    expect(r).toEqual({
      mergeCommit: await git(root, "rev-parse", "HEAD"),
      alreadyUpToDate: false,
      targetBefore: base,
      branchTip: tip,
      strategy: "merge",
      cleanup: { ok: true, worktreeRemoved: true, worktreeMissing: false, branchDeleted: true },
    });
    expect(await git(root, "rev-parse", `${r.mergeCommit}^1`)).toBe(base);
    expect(await git(root, "rev-parse", `${r.mergeCommit}^2`)).toBe(tip);
    expect(await git(root, "log", "-1", "--format=%s", r.mergeCommit)).toBe("Merge branch 'task' into main");
    // No identity configured anywhere -> the fallback identity.
    expect(await git(root, "log", "-1", "--format=%cn <%ce>", r.mergeCommit)).toBe("Switchyard <switchyard@localhost>");
    expect(await read(root, "feature.txt")).toBe("feature\n");
    expect(await git(root, "status", "--porcelain")).toBe("");
    expect(await git(root, "symbolic-ref", "--short", "HEAD")).toBe("main");
    expect(await branches(root)).toEqual(["main"]);
    expect(await worktreePaths(root)).toEqual([root]);
    expect(await exists(wt)).toBe(false);
    expect(await isMerged(root, tip, "main")).toBe(true);
  });

  it("uses the repository's identity when configured, and a custom message", async () => {
    const { root, input } = await setup();
    await git(root, "config", "user.name", "Owner");
    await git(root, "config", "user.email", "owner@example.com");
    const r = await mergeTask({ ...input, message: "Land task #7" });
    expect(await git(root, "log", "-1", "--format=%s|%an <%ae>", r.mergeCommit)).toBe(
      "Land task #7|Owner <owner@example.com>",
    );
  });

  it("keepBranch keeps the task branch at its tip", async () => {
    const { root, wt, tip, input } = await setup();
    const r = await mergeTask({ ...input, keepBranch: true });
    expect(r.cleanup).toEqual({ ok: true, worktreeRemoved: true, worktreeMissing: false, branchDeleted: false });
    expect(await git(root, "rev-parse", "refs/heads/task")).toBe(tip);
    expect(await exists(wt)).toBe(false);
  });

  it("never deletes a pre-existing branch", async () => {
    const { root, tip, input } = await setup({ preexisting: true });
    expect(input.branchPreexisting).toBe(true);
    const r = await mergeTask(input);
    expect(r.cleanup.branchDeleted).toBe(false);
    expect(r.cleanup.worktreeRemoved).toBe(true);
    expect(await git(root, "rev-parse", "refs/heads/task")).toBe(tip);
  });

  it("merges when the target moved on since the task started", async () => {
    const { root, base, tip, input } = await setup();
    await write(root, "main-later.txt", "later\n");
    const moved = await commitAll(root, "main moved");
    const r = await mergeTask(input);
    expect(r.targetBefore).toBe(moved);
    expect(await git(root, "rev-parse", `${r.mergeCommit}^1`)).toBe(moved);
    expect(await git(root, "rev-parse", `${r.mergeCommit}^2`)).toBe(tip);
    expect(await read(root, "main-later.txt")).toBe("later\n");
    expect(await read(root, "feature.txt")).toBe("feature\n");
    expect(base).not.toBe(moved);
  });

  it("a branch with nothing new is 'already up to date': success with mergeCommit = HEAD", async () => {
    const repo = await makeRepo();
    const d = await tmpDir();
    const wt = await createWorktree({
      repoRoot: repo.root,
      branch: "empty",
      baseSha: repo.head,
      path: path.join(d, "wt"),
    });
    const r = await mergeTask({
      repoRoot: repo.root,
      worktreePath: wt.worktreePath,
      branch: "empty",
      targetBranch: "main",
      branchPreexisting: false,
    });
    expect(r.mergeCommit).toBe(repo.head);
    expect(r.alreadyUpToDate).toBe(true);
    expect(await git(repo.root, "rev-parse", "HEAD")).toBe(repo.head);
    expect(r.cleanup).toEqual({ ok: true, worktreeRemoved: true, worktreeMissing: false, branchDeleted: true });
  });

  it("untracked files in the target that the merge does not touch are fine", async () => {
    const { root, input } = await setup();
    await write(root, "scratch.txt", "mine\n");
    const r = await mergeTask(input);
    expect(r.cleanup.ok).toBe(true);
    expect(await read(root, "scratch.txt")).toBe("mine\n");
  });

  it("still merges when the worktree directory is already gone", async () => {
    const { root, wt, tip, input } = await setup();
    await git(root, "worktree", "remove", "--force", wt);
    const r = await mergeTask(input);
    expect(await git(root, "rev-parse", `${r.mergeCommit}^2`)).toBe(tip);
    expect(r.cleanup).toEqual({ ok: true, worktreeRemoved: false, worktreeMissing: true, branchDeleted: true });
  });

  it("expectedTarget: merges when target HEAD matches, CONFLICT when it moved", async () => {
    const { root, base, input } = await setup();
    await write(root, "x.txt", "x\n");
    const moved = await commitAll(root, "moved");
    const e = await rejectsWith(mergeTask({ ...input, expectedTarget: base }), "CONFLICT");
    expect(e.details).toEqual({ expected: base, actual: moved });
    const r = await mergeTask({ ...input, expectedTarget: moved });
    expect(r.targetBefore).toBe(moved);
  });
});

describe("mergeTask refusals change nothing", () => {
  it("wrong target branch -> BAD_PARAMS { expected, actual }", async () => {
    const { root, wt, input } = await setup();
    await git(root, "checkout", "-q", "-b", "other");
    const before = await snapshot(root, wt);
    const e = await rejectsWith(mergeTask(input), "BAD_PARAMS");
    expect(e.details).toEqual({ expected: "main", actual: "other" });
    expect(await snapshot(root, wt)).toEqual(before);
  });

  it("detached target -> BAD_PARAMS with actual null", async () => {
    const { root, wt, input } = await setup();
    await git(root, "checkout", "-q", "--detach");
    const before = await snapshot(root, wt);
    const e = await rejectsWith(mergeTask(input), "BAD_PARAMS");
    expect(e.details).toEqual({ expected: "main", actual: null });
    expect(await snapshot(root, wt)).toEqual(before);
  });

  it("dirty target (unstaged tracked change) -> DIRTY_TARGET", async () => {
    const { root, wt, input } = await setup();
    await write(root, "README.md", "edited by the user\n");
    const before = await snapshot(root, wt);
    const e = await rejectsWith(mergeTask(input), "DIRTY_TARGET");
    expect(e.details).toEqual({ files: ["README.md"], target: "main" });
    expect(await snapshot(root, wt)).toEqual(before);
    expect(await read(root, "README.md")).toBe("edited by the user\n");
    expect(await exists(path.join(root, "feature.txt"))).toBe(false);
  });

  it("dirty target (staged change) -> DIRTY_TARGET", async () => {
    const { root, wt, input } = await setup();
    await write(root, "staged.txt", "staged\n");
    await git(root, "add", "staged.txt");
    const before = await snapshot(root, wt);
    const e = await rejectsWith(mergeTask(input), "DIRTY_TARGET");
    expect(e.details).toEqual({ files: ["staged.txt"], target: "main" });
    expect(await snapshot(root, wt)).toEqual(before);
    expect(await git(root, "diff", "--cached", "--name-only")).toBe("staged.txt");
  });

  it("an untracked target file the merge would overwrite -> DIRTY_TARGET, file untouched", async () => {
    const { root, wt, input } = await setup();
    await write(root, "feature.txt", "user's own untracked file\n");
    const before = await snapshot(root, wt);
    const e = await rejectsWith(mergeTask(input), "DIRTY_TARGET");
    expect(e.details).toEqual({ files: ["feature.txt"], untracked: true, target: "main" });
    expect(await snapshot(root, wt)).toEqual(before);
    expect(await read(root, "feature.txt")).toBe("user's own untracked file\n");
  });

  it("dirty source -> DIRTY_SOURCE (modified and untracked files)", async () => {
    const { root, wt, input } = await setup();
    await write(wt, "README.md", "uncommitted\n");
    await write(wt, "notes.txt", "untracked\n");
    const before = await snapshot(root, wt);
    const e = await rejectsWith(mergeTask(input), "DIRTY_SOURCE");
    expect(e.details).toEqual({ files: ["README.md", "notes.txt"], worktreePath: wt });
    expect(await snapshot(root, wt)).toEqual(before);
  });

  it("missing branch -> NOT_FOUND", async () => {
    const { root, wt, input } = await setup();
    const before = await snapshot(root, wt);
    await rejectsWith(mergeTask({ ...input, branch: "nope", worktreePath: path.join(wt, "..", "none") }), "NOT_FOUND");
    expect(await snapshot(root, wt)).toEqual(before);
  });

  it("source worktree on another branch -> CONFLICT", async () => {
    const { root, wt, input } = await setup();
    await git(wt, "checkout", "-q", "-b", "sidetrack");
    const before = await snapshot(root, wt);
    const e = await rejectsWith(mergeTask(input), "CONFLICT");
    expect(e.details).toEqual({ expected: "task", actual: "sidetrack" });
    expect(await snapshot(root, wt)).toEqual(before);
  });

  it("bad input -> BAD_PARAMS", async () => {
    const { input } = await setup();
    await rejectsWith(mergeTask({ ...input, branch: "-D" }), "BAD_PARAMS");
    await rejectsWith(mergeTask({ ...input, targetBranch: "a..b" }), "BAD_PARAMS");
    await rejectsWith(mergeTask({ ...input, repoRoot: "rel" }), "BAD_PARAMS");
    await rejectsWith(mergeTask({ ...input, worktreePath: input.repoRoot }), "BAD_PARAMS");
    await rejectsWith(mergeTask({ ...input, branchPreexisting: undefined as unknown as boolean }), "BAD_PARAMS");
    await rejectsWith(mergeTask({ ...input, branch: "main" }), "BAD_PARAMS");
  });
});

describe("mergeTask with ignoreDirty", () => {
  it("merges only committed work and never commits staged or unstaged work", async () => {
    const { root, wt, tip, input } = await setup();
    await write(wt, "staged.txt", "staged, never committed\n");
    await git(wt, "add", "staged.txt");
    await write(wt, "README.md", "unstaged edit\n");
    await write(wt, "untracked.txt", "untracked\n");
    const r = await mergeTask({ ...input, ignoreDirty: true, keepBranch: true });
    expect(await git(root, "rev-parse", `${r.mergeCommit}^2`)).toBe(tip);
    expect(await git(root, "rev-parse", "refs/heads/task")).toBe(tip);
    expect(await read(root, "feature.txt")).toBe("feature\n");
    expect(await read(root, "README.md")).toBe("line 1\nline 2\nline 3\n");
    expect(await exists(path.join(root, "staged.txt"))).toBe(false);
    expect(await exists(path.join(root, "untracked.txt"))).toBe(false);
    expect(await git(root, "ls-tree", "-r", "--name-only", r.mergeCommit)).toBe("README.md\nfeature.txt");
    expect(await git(root, "rev-list", "--count", `${r.targetBefore}..${r.mergeCommit}`)).toBe("2");
    // The documented consequence: the forced worktree removal discards that uncommitted work.
    expect(r.cleanup.worktreeRemoved).toBe(true);
    expect(await exists(wt)).toBe(false);
  });
});

describe("mergeTask conflicts", () => {
  it("aborts, leaves the target clean at its old HEAD and names the conflicted files", async () => {
    const { root, wt, tip, input } = await setup();
    await write(wt, "README.md", "line 1\nbranch version\nline 3\n");
    await write(wt, "both.txt", "branch\n");
    const branchTip = await commitAll(wt, "branch edits");
    await write(root, "README.md", "line 1\nmain version\nline 3\n");
    await write(root, "both.txt", "main\n");
    const mainHead = await commitAll(root, "main edits");
    await write(root, "untracked-user-file.txt", "keep me\n");

    const e = await rejectsWith(mergeTask(input), "MERGE_CONFLICT");
    expect(e.details).toEqual({ files: ["README.md", "both.txt"], branch: "task", target: "main" });
    expect(await git(root, "rev-parse", "HEAD")).toBe(mainHead);
    expect(await git(root, "status", "--porcelain", "--untracked-files=no")).toBe("");
    expect(await git(root, "status", "--porcelain")).toBe("?? untracked-user-file.txt");
    expect(await gitCode(root, "rev-parse", "-q", "--verify", "MERGE_HEAD")).toBe(1);
    expect(await read(root, "README.md")).toBe("line 1\nmain version\nline 3\n");
    // Task untouched: branch, worktree, commits.
    expect(await git(root, "rev-parse", "refs/heads/task")).toBe(branchTip);
    expect(await git(root, "rev-parse", `${branchTip}~1`)).toBe(tip);
    expect(await worktreePaths(root)).toEqual([root, wt]);
    expect(await git(wt, "status", "--porcelain")).toBe("");
  });

  it("a target with no untracked files ends with an empty git status --porcelain", async () => {
    const { root, wt, input } = await setup();
    await write(wt, "README.md", "ours\n");
    await commitAll(wt, "b");
    await write(root, "README.md", "theirs\n");
    await commitAll(root, "m");
    const e = await rejectsWith(mergeTask(input), "MERGE_CONFLICT");
    expect(e.details!.files).toEqual(["README.md"]);
    expect(await git(root, "status", "--porcelain")).toBe("");
  });
});

describe("mergeTask cleanup failures", () => {
  it("a worktree that cannot be removed does not fail the merge; it is reported", async () => {
    const { root, wt, tip, input } = await setup();
    await git(root, "worktree", "lock", "--reason", "test", wt);
    const r = await mergeTask(input);
    expect(await git(root, "rev-parse", "HEAD")).toBe(r.mergeCommit);
    expect(await git(root, "rev-parse", `${r.mergeCommit}^2`)).toBe(tip);
    expect(await read(root, "feature.txt")).toBe("feature\n");
    expect(r.cleanup.ok).toBe(false);
    expect(r.cleanup.worktreeRemoved).toBe(false);
    expect(r.cleanup.branchDeleted).toBe(false);
    expect(r.cleanup.error).toMatch(/worktree not removed: .*locked/);
    expect(r.cleanup.error).toMatch(/branch 'task' not deleted: it is checked out at/);
    expect(await exists(wt)).toBe(true);
    expect(await branches(root)).toEqual(["main", "task"]);
  });
});

describe("mergeTask other git failures", () => {
  it("never runs the repository's hooks: a pre-merge-commit hook that refuses does not run, the merge lands", async () => {
    const { root, input } = await setup();
    await write(root, ".git/hooks/pre-merge-commit", `#!/bin/sh\ntouch "${root}/../hook-ran"\nexit 1\n`);
    await chmod(path.join(root, ".git/hooks/pre-merge-commit"), 0o755);
    const r = await mergeTask(input);
    expect(r.alreadyUpToDate).toBe(false);
    expect(await exists(path.join(root, "feature.txt"))).toBe(true);
    expect(await exists(path.join(root, "../hook-ran"))).toBe(false);
  });

  it("a failing required checkout filter -> GIT_FAILED, merge aborted, target restored", async () => {
    const { root, wt, input } = await setup();
    await write(wt, ".gitattributes", "feature.txt filter=broken\n");
    await git(wt, "add", ".gitattributes");
    await git(wt, "commit", "-q", "-m", "attributes");
    await git(root, "config", "filter.broken.clean", "cat");
    await git(root, "config", "filter.broken.smudge", "echo 'policy says no' >&2; exit 1");
    await git(root, "config", "filter.broken.required", "true");
    const before = await snapshot(root, wt);
    const e = await rejectsWith(mergeTask(input), "GIT_FAILED");
    expect(String(e.details!.stderr)).toContain("policy says no");
    expect(await snapshot(root, wt)).toEqual(before);
    expect(await gitCode(root, "rev-parse", "-q", "--verify", "MERGE_HEAD")).toBe(1);
    expect(await exists(path.join(root, "feature.txt"))).toBe(false);
  });

  it("a merge already in progress in the target -> DIRTY_TARGET", async () => {
    const { root, wt, input } = await setup();
    await git(root, "merge", "--no-ff", "--no-commit", "-q", "task");
    const e = await rejectsWith(mergeTask(input), "DIRTY_TARGET");
    expect(e.details).toEqual({ operation: "merge", target: "main" });
    expect(await git(root, "rev-parse", "-q", "--verify", "MERGE_HEAD")).toBe(await git(root, "rev-parse", "task"));
    expect(await exists(wt)).toBe(true);
  });
});

describe("mergeTask with an approval", () => {
  it("merges exactly the approved commit; a branch that moved since, or a tree the commit does not have, is CONFLICT naming both", async () => {
    const { root, base, wt, tip, input } = await setup();
    const tree = await git(root, "rev-parse", `${tip}^{tree}`);
    await write(wt, "later.txt", "after the approval\n");
    const later = await commitAll(wt, "after the approval");
    const moved = await rejectsWith(mergeTask({ ...input, approved: { commit: tip, tree } }), "CONFLICT");
    expect(moved.details).toMatchObject({ approvedCommit: tip, actualCommit: later, approvedTree: tree });
    expect(moved.message).toMatch(/moved since it was approved.*review it again/);
    const unseen = await rejectsWith(mergeTask({ ...input, approved: { commit: later, tree } }), "CONFLICT");
    expect(unseen.details).toMatchObject({ approvedCommit: later, actualCommit: later, approvedTree: tree });
    expect(await git(root, "rev-parse", "HEAD")).toBe(base); // nothing merged on either refusal
    const r = await mergeTask({
      ...input,
      approved: { commit: later, tree: await git(root, "rev-parse", `${later}^{tree}`) },
    });
    expect(await git(root, "rev-parse", `${r.mergeCommit}^2`)).toBe(later);
  });
});

describe("settleInterruptedMerge (after a crash)", () => {
  it("removes a landed merge's leftover state (merge --quit): HEAD, index and files stay the merge's", async () => {
    const { root, tip, input } = await setup();
    const r = await mergeTask({ ...input, keepBranch: true });
    // What git leaves when it dies between the commit and removing its merge state.
    await write(root, ".git/MERGE_HEAD", `${tip}\n`);
    await write(root, ".git/MERGE_MSG", "Merge\n");
    expect(await settleInterruptedMerge({ repoRoot: root, tip, targetBefore: r.targetBefore })).toBe("completed");
    expect(await exists(path.join(root, ".git/MERGE_HEAD"))).toBe(false);
    expect(await git(root, "rev-parse", "HEAD")).toBe(r.mergeCommit);
    expect(await git(root, "status", "--porcelain")).toBe("");
  });

  it("undoes a merge that did not land (merge --abort): back at the old HEAD, clean", async () => {
    const { root, base, tip } = await setup();
    await git(root, "merge", "--no-ff", "--no-commit", "-q", tip);
    expect(await exists(path.join(root, "feature.txt"))).toBe(true);
    expect(await settleInterruptedMerge({ repoRoot: root, tip, targetBefore: base })).toBe("aborted");
    expect(await git(root, "rev-parse", "HEAD")).toBe(base);
    expect(await git(root, "status", "--porcelain")).toBe("");
    expect(await exists(path.join(root, "feature.txt"))).toBe(false);
  });

  it("leaves alone a checkout that is merging anything else, or nothing", async () => {
    const { root, base, tip } = await setup();
    expect(await settleInterruptedMerge({ repoRoot: root, tip, targetBefore: base })).toBe("none");
    await git(root, "merge", "--no-ff", "--no-commit", "-q", tip);
    expect(await settleInterruptedMerge({ repoRoot: root, tip: base, targetBefore: base })).toBe("none");
    expect(await git(root, "rev-parse", "-q", "--verify", "MERGE_HEAD")).toBe(tip);
  });
});
