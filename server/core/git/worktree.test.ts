import { afterAll, describe, expect, it } from "vitest";
import { chmod, mkdir, readdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { shortHash } from "./paths";
import { createWorktree, listWorktrees, parseWorktreeList } from "./worktree";
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

describe("createWorktree", () => {
  it("creates a new branch at the base under the default path", async () => {
    const { root, head } = await makeRepo({ "README.md": "hello\n" }, "proj");
    const home = await tmpDir("yard-home-");
    const r = await createWorktree({ repoRoot: root, branch: "task-1", baseSha: head, yardHome: home });
    const expected = path.join(home, "worktrees", `proj-${shortHash(root)}`, "task-1");
    expect(r).toEqual({
      worktreePath: expected,
      branch: "task-1",
      branchPreexisting: false,
      baseSha: head,
      headSha: head,
      repoRoot: root,
    });
    expect(await read(expected, "README.md")).toBe("hello\n");
    expect(await git(expected, "symbolic-ref", "HEAD")).toBe("refs/heads/task-1");
    expect(await git(root, "rev-parse", "refs/heads/task-1")).toBe(head);
    expect(await branches(root)).toEqual(["main", "task-1"]);
    expect(await worktreePaths(root)).toEqual([root, expected]);
    // No upstream configured for the task branch.
    expect(await gitCode(root, "config", "--get-regexp", "^branch\\.task-1\\.")).toBe(1);
  });

  it("flattens slashed branch names into one folder", async () => {
    const { root, head } = await makeRepo({ a: "a" }, "proj");
    const home = await tmpDir("yard-home-");
    const r = await createWorktree({ repoRoot: root, branch: "feat/login", baseSha: head, yardHome: home });
    expect(r.worktreePath).toBe(
      path.join(home, "worktrees", `proj-${shortHash(root)}`, `feat-login-${shortHash("feat/login")}`),
    );
    expect(await git(r.worktreePath, "symbolic-ref", "--short", "HEAD")).toBe("feat/login");
  });

  it("uses an explicit path, cuts from an older base, and accepts an existing empty directory", async () => {
    const { root, head } = await makeRepo();
    await write(root, "later.txt", "later\n");
    await commitAll(root, "later");
    const d = await tmpDir();
    const explicit = path.join(d, "explicit");
    await mkdir(explicit);
    const r = await createWorktree({ repoRoot: root, branch: "t", baseSha: head.slice(0, 12), path: explicit });
    expect(r.worktreePath).toBe(explicit);
    expect(r.baseSha).toBe(head);
    expect(await git(explicit, "rev-parse", "HEAD")).toBe(head);
    expect(await exists(path.join(explicit, "later.txt"))).toBe(false);
  });

  it("adopts an existing branch as pre-existing, leaving its tip alone", async () => {
    const { root, head } = await makeRepo();
    await git(root, "checkout", "-q", "-b", "existing");
    await write(root, "x.txt", "x\n");
    const tip = await commitAll(root, "existing work");
    await git(root, "checkout", "-q", "main");
    const d = await tmpDir();
    const r = await createWorktree({ repoRoot: root, branch: "existing", baseSha: head, path: path.join(d, "wt") });
    expect(r.branchPreexisting).toBe(true);
    expect(r.headSha).toBe(tip);
    expect(r.baseSha).toBe(head);
    expect(await git(r.worktreePath, "rev-parse", "HEAD")).toBe(tip);
    expect(await git(root, "rev-parse", "refs/heads/existing")).toBe(tip);
    expect(await read(r.worktreePath, "x.txt")).toBe("x\n");
  });

  it("two concurrent creates on one repository both succeed", async () => {
    const { root, head } = await makeRepo();
    const home = await tmpDir("yard-home-");
    const results = await Promise.all(
      ["c-1", "c-2", "c-3", "c-4"].map((branch) =>
        createWorktree({ repoRoot: root, branch, baseSha: head, yardHome: home }),
      ),
    );
    expect(new Set(results.map((r) => r.worktreePath)).size).toBe(4);
    expect(await branches(root)).toEqual(["c-1", "c-2", "c-3", "c-4", "main"]);
    expect((await worktreePaths(root)).slice(1).sort()).toEqual(results.map((r) => r.worktreePath).sort());
    for (const r of results) expect(await git(r.worktreePath, "symbolic-ref", "--short", "HEAD")).toBe(r.branch);
  });

  it("rejects bad branch names and creates nothing", async () => {
    const { root, head } = await makeRepo();
    const home = await tmpDir("yard-home-");
    for (const branch of ["-rf", "a b", "a..b", "HEAD", "x.lock", "", "a~1"]) {
      await rejectsWith(createWorktree({ repoRoot: root, branch, baseSha: head, yardHome: home }), "BAD_PARAMS");
    }
    expect(await branches(root)).toEqual(["main"]);
    expect(await worktreePaths(root)).toEqual([root]);
    expect(await readdir(home)).toEqual([]);
  });

  it("rejects a base that is not a commit and creates nothing", async () => {
    const { root } = await makeRepo();
    const home = await tmpDir("yard-home-");
    await rejectsWith(
      createWorktree({ repoRoot: root, branch: "t", baseSha: "deadbeef".repeat(5), yardHome: home }),
      "BAD_PARAMS",
    );
    await rejectsWith(createWorktree({ repoRoot: root, branch: "t", baseSha: "main", yardHome: home }), "BAD_PARAMS");
    const tree = await git(root, "rev-parse", "HEAD^{tree}");
    await rejectsWith(createWorktree({ repoRoot: root, branch: "t", baseSha: tree, yardHome: home }), "BAD_PARAMS");
    expect(await branches(root)).toEqual(["main"]);
    expect(await readdir(home)).toEqual([]);
  });

  it("refuses an existing non-empty path or a file, creating nothing", async () => {
    const { root, head } = await makeRepo();
    const d = await tmpDir();
    await mkdir(path.join(d, "full"));
    await writeFile(path.join(d, "full", "keep.txt"), "mine");
    await writeFile(path.join(d, "file"), "mine");
    const e = await rejectsWith(
      createWorktree({ repoRoot: root, branch: "t", baseSha: head, path: path.join(d, "full") }),
      "CONFLICT",
    );
    expect(e.details).toEqual({ path: path.join(d, "full") });
    await rejectsWith(
      createWorktree({ repoRoot: root, branch: "t", baseSha: head, path: path.join(d, "file") }),
      "CONFLICT",
    );
    expect(await readdir(path.join(d, "full"))).toEqual(["keep.txt"]);
    expect(await branches(root)).toEqual(["main"]);
  });

  it("refuses relative paths, the repo itself and missing path/yardHome", async () => {
    const { root, head } = await makeRepo();
    await rejectsWith(createWorktree({ repoRoot: root, branch: "t", baseSha: head, path: "rel/path" }), "BAD_PARAMS");
    await rejectsWith(
      createWorktree({ repoRoot: root, branch: "t", baseSha: head, path: path.join(root, ".git", "wt") }),
      "BAD_PARAMS",
    );
    await rejectsWith(createWorktree({ repoRoot: root, branch: "t", baseSha: head }), "BAD_PARAMS");
    await rejectsWith(
      createWorktree({ repoRoot: "relative", branch: "t", baseSha: head, path: "/tmp/x" }),
      "BAD_PARAMS",
    );
    expect(await branches(root)).toEqual(["main"]);
  });

  it("rejects a non-repository", async () => {
    const d = await tmpDir();
    await rejectsWith(
      createWorktree({ repoRoot: d, branch: "t", baseSha: "abcdef12", path: path.join(d, "wt") }),
      "BAD_PARAMS",
    );
    expect(await readdir(d)).toEqual([]);
  });

  it("a branch checked out elsewhere is CONFLICT and nothing is created", async () => {
    const { root, head } = await makeRepo();
    const home = await tmpDir("yard-home-");
    const e = await rejectsWith(
      createWorktree({ repoRoot: root, branch: "main", baseSha: head, yardHome: home }),
      "CONFLICT",
    );
    expect(e.details).toMatchObject({ branch: "main" });
    expect(await worktreePaths(root)).toEqual([root]);
    expect(await readdir(home)).toEqual([]);
  });

  it("never runs the repository's hooks (a post-checkout hook that would fail does not run)", async () => {
    const { root, head } = await makeRepo();
    await write(root, ".git/hooks/post-checkout", `#!/bin/sh\ntouch "${root}/hook-ran"\nexit 1\n`);
    await chmod(path.join(root, ".git/hooks/post-checkout"), 0o755);
    const r = await createWorktree({
      repoRoot: root,
      branch: "t",
      baseSha: head,
      path: path.join(await tmpDir(), "wt"),
    });
    expect(await worktreePaths(root)).toEqual([root, r.worktreePath]);
    expect(await exists(path.join(root, "hook-ran"))).toBe(false);
  });

  it("cleans up everything when git worktree add fails part-way (a required checkout filter fails)", async () => {
    const { root } = await makeRepo();
    await write(root, ".gitattributes", "*.txt filter=broken\n");
    await write(root, "a.txt", "a\n");
    const head = await commitAll(root, "files behind a filter");
    await git(root, "config", "filter.broken.smudge", "false");
    await git(root, "config", "filter.broken.required", "true");
    const home = await tmpDir("yard-home-");
    await rejectsWith(createWorktree({ repoRoot: root, branch: "t", baseSha: head, yardHome: home }), "GIT_FAILED");
    expect(await branches(root)).toEqual(["main"]);
    expect(await worktreePaths(root)).toEqual([root]);
    expect(await readdir(home)).toEqual([]);
    expect(await readdir(path.join(root, ".git", "worktrees")).catch(() => [])).toEqual([]);
    // And with an existing branch: the branch survives, the worktree does not.
    await git(root, "branch", "keep", head);
    await rejectsWith(createWorktree({ repoRoot: root, branch: "keep", baseSha: head, yardHome: home }), "GIT_FAILED");
    expect(await branches(root)).toEqual(["keep", "main"]);
    expect(await worktreePaths(root)).toEqual([root]);
  });
});

describe("listWorktrees", () => {
  it("lists main and linked worktrees with their branches", async () => {
    const { root, head } = await makeRepo();
    const d = await tmpDir();
    const r = await createWorktree({ repoRoot: root, branch: "t", baseSha: head, path: path.join(d, "wt") });
    await git(root, "worktree", "lock", r.worktreePath);
    const list = await listWorktrees(root);
    expect(list).toEqual([
      { path: root, head, branch: "main", detached: false, bare: false, locked: false, prunable: false },
      { path: r.worktreePath, head, branch: "t", detached: false, bare: false, locked: true, prunable: false },
    ]);
  });

  it("parses detached and prunable entries", () => {
    const out =
      "worktree /a\0HEAD abc\0detached\0\0worktree /b\0HEAD def\0branch refs/heads/x\0prunable gitdir file points to non-existent location\0\0";
    expect(parseWorktreeList(out)).toEqual([
      { path: "/a", head: "abc", branch: null, detached: true, bare: false, locked: false, prunable: false },
      { path: "/b", head: "def", branch: "x", detached: false, bare: false, locked: false, prunable: true },
    ]);
  });
});
