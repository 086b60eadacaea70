import { afterAll, describe, expect, it } from "vitest";
import path from "node:path";
import { YardError } from "../errors";
import { defaultWorktreePath, defaultWorktreeRoot, sanitizeBranchForPath, shortHash } from "./paths";
import { branchNameProblem, isMerged, resolveBaseSha, resolveCommit, validateBranchName } from "./refs";
import { commitAll, git, makeRepo, removeTmpDirs, tmpDir, write } from "../../../tests/helpers/git-core";

afterAll(removeTmpDirs);

async function code(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(YardError);
    return (e as YardError).code;
  }
  return "OK";
}

const GOOD = ["task-1", "feat/login", "a.b", "UPPER_case", "yard/t/42-fix", "x"];
const BAD = [
  "",
  "-x",
  "--force",
  "a b",
  "a\tb",
  "a\nb",
  "a..b",
  "a~1",
  "a^",
  "a:b",
  "a?",
  "a*",
  "a[",
  "a\\b",
  "@",
  "HEAD",
  "a/",
  "/a",
  "a//b",
  "a.",
  ".a",
  "a/.b",
  "a.lock",
  "a/b.lock/c",
  "a@{1}",
  "@{-1}",
  "x".repeat(201),
];

describe("branch name validation", () => {
  it.each(GOOD)("accepts %j", async (name) => {
    expect(branchNameProblem(name)).toBeNull();
    await expect(validateBranchName(name)).resolves.toBe(name);
  });

  it.each(BAD)("rejects %j with BAD_PARAMS", async (name) => {
    expect(branchNameProblem(name)).not.toBeNull();
    expect(await code(validateBranchName(name))).toBe("BAD_PARAMS");
  });

  it("rejects non-strings", async () => {
    expect(await code(validateBranchName(undefined))).toBe("BAD_PARAMS");
    expect(await code(validateBranchName(42))).toBe("BAD_PARAMS");
  });
});

describe("sanitizeBranchForPath", () => {
  it("keeps simple names", () => {
    expect(sanitizeBranchForPath("task-1")).toBe("task-1");
    expect(sanitizeBranchForPath("a.b_C")).toBe("a.b_C");
  });

  it("flattens slashes and appends a hash so distinct branches never share a folder", () => {
    const s = sanitizeBranchForPath("feat/login");
    expect(s).toBe(`feat-login-${shortHash("feat/login")}`);
    expect(s).toMatch(/^feat-login-[0-9a-f]{8}$/);
    expect(sanitizeBranchForPath("feat-login")).toBe("feat-login");
    expect(sanitizeBranchForPath("feat/login")).not.toBe(sanitizeBranchForPath("feat-login"));
  });

  it("always yields one safe, bounded segment", () => {
    for (const n of ["a/b/c", "ü/ß", "x".repeat(200), "+++", "a+b"]) {
      const s = sanitizeBranchForPath(n);
      expect(s).toMatch(/^[A-Za-z0-9][A-Za-z0-9._-]*$/);
      expect(s.length).toBeLessThanOrEqual(100);
    }
  });
});

describe("default worktree location", () => {
  it("is <yardHome>/worktrees/<repo-dir>-<hash of realpath>/<branch>", async () => {
    const { root } = await makeRepo({ f: "x" }, "my-project");
    const expectedRoot = path.join("/data/yard", "worktrees", `my-project-${shortHash(root)}`);
    expect(defaultWorktreeRoot("/data/yard", root)).toBe(expectedRoot);
    expect(defaultWorktreePath("/data/yard", root, "task-1")).toBe(path.join(expectedRoot, "task-1"));
    expect(shortHash(root)).toMatch(/^[0-9a-f]{8}$/);
  });

  it("rejects relative homes", () => {
    expect(() => defaultWorktreeRoot("rel", "/x")).toThrow(YardError);
  });
});

describe("resolveBaseSha", () => {
  it("defaults to local HEAD", async () => {
    const { root, head } = await makeRepo();
    expect(await resolveBaseSha(root)).toBe(head);
    expect(await resolveBaseSha(root, "HEAD")).toBe(head);
  });

  it("resolves named refs: branch, tag, relative, short sha", async () => {
    const { root, head } = await makeRepo();
    await git(root, "tag", "v1");
    await write(root, "b.txt", "b\n");
    const second = await commitAll(root, "second");
    await git(root, "branch", "old", head);
    expect(await resolveBaseSha(root, "main")).toBe(second);
    expect(await resolveBaseSha(root, "old")).toBe(head);
    expect(await resolveBaseSha(root, "v1")).toBe(head);
    expect(await resolveBaseSha(root, "HEAD~1")).toBe(head);
    expect(await resolveBaseSha(root, second.slice(0, 10))).toBe(second);
  });

  it("rejects unresolvable and malformed refs with BAD_PARAMS", async () => {
    const { root } = await makeRepo();
    for (const ref of ["no-such-branch", "-x", "--all", "main..HEAD", "a b", "deadbeefdeadbeef"]) {
      expect(await code(resolveBaseSha(root, ref))).toBe("BAD_PARAMS");
    }
  });

  it("rejects a repository without commits", async () => {
    const d = await tmpDir();
    await git(d, "init", "-q", "-b", "main");
    await expect(resolveBaseSha(d)).rejects.toMatchObject({
      code: "BAD_PARAMS",
      message: expect.stringMatching(/no commits/),
    });
    await expect(resolveBaseSha(d, "main")).rejects.toMatchObject({ code: "BAD_PARAMS" });
  });

  it("rejects a non-repository", async () => {
    expect(await code(resolveBaseSha(await tmpDir()))).toBe("BAD_PARAMS");
  });

  it("fetches only when asked", async () => {
    const upstream = await makeRepo();
    const d = await tmpDir();
    const clone = path.join(d, "clone");
    await git(d, "clone", "-q", upstream.root, clone);
    await write(upstream.root, "new.txt", "new\n");
    const newer = await commitAll(upstream.root, "upstream moved");

    expect(await resolveBaseSha(clone, "origin/main")).toBe(upstream.head);
    expect(await resolveBaseSha(clone)).toBe(upstream.head);
    expect(await resolveBaseSha(clone, "origin/main", { fetch: true })).toBe(newer);
    // The local branch and HEAD are not touched by a fetch.
    expect(await resolveBaseSha(clone)).toBe(upstream.head);
    expect(await git(clone, "rev-parse", "refs/remotes/origin/main")).toBe(newer);
  });

  it("fetch with no remotes is BAD_PARAMS", async () => {
    const { root } = await makeRepo();
    expect(await code(resolveBaseSha(root, "main", { fetch: true }))).toBe("BAD_PARAMS");
  });
});

describe("resolveCommit", () => {
  it("prefers a local branch over a tag of the same name", async () => {
    const { root, head } = await makeRepo();
    await git(root, "tag", "same", head);
    await write(root, "b.txt", "b\n");
    const second = await commitAll(root, "second");
    await git(root, "branch", "same", second);
    expect(await resolveCommit(root, "same")).toBe(second);
    expect(await resolveCommit(root, "refs/tags/same")).toBe(head);
    expect(await resolveCommit(root, "missing")).toBeNull();
  });
});

describe("isMerged", () => {
  it("tells whether a branch tip has landed in the target", async () => {
    const { root } = await makeRepo();
    await git(root, "checkout", "-q", "-b", "task");
    await write(root, "t.txt", "t\n");
    const tip = await commitAll(root, "task work");
    await git(root, "checkout", "-q", "main");
    expect(await isMerged(root, "task", "main")).toBe(false);
    await git(root, "merge", "-q", "--no-ff", "-m", "merge", "task");
    expect(await isMerged(root, "task", "main")).toBe(true);
    await git(root, "branch", "-D", "task");
    expect(await isMerged(root, tip, "main")).toBe(true);
    expect(await code(isMerged(root, "task", "main"))).toBe("NOT_FOUND");
    expect(await code(isMerged(root, tip, "nope"))).toBe("NOT_FOUND");
  });
});
