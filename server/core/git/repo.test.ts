import { afterAll, describe, expect, it } from "vitest";
import { mkdir, symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { YardError } from "../errors";
import { inspectRepo } from "./repo";
import { commitAll, git, makeRepo, removeTmpDirs, tmpDir, write } from "../../../tests/helpers/git-core";

afterAll(removeTmpDirs);

async function badParams(p: Promise<unknown>, message: RegExp): Promise<YardError> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(YardError);
    expect((e as YardError).code).toBe("BAD_PARAMS");
    expect((e as YardError).message).toMatch(message);
    return e as YardError;
  }
  throw new Error("expected BAD_PARAMS");
}

describe("inspectRepo errors", () => {
  it("rejects a relative path", async () => {
    await badParams(inspectRepo("some/relative"), /absolute/);
  });

  it("rejects a missing path", async () => {
    const d = await tmpDir();
    const e = await badParams(inspectRepo(path.join(d, "nope")), /does not exist/);
    expect(e.details).toEqual({ path: path.join(d, "nope") });
  });

  it("rejects a file", async () => {
    const d = await tmpDir();
    await writeFile(path.join(d, "f.txt"), "x");
    await badParams(inspectRepo(path.join(d, "f.txt")), /not a directory/);
  });

  it("rejects a directory that is not a git repository", async () => {
    const d = await tmpDir();
    await badParams(inspectRepo(d), /not a git repository/);
  });

  it("rejects a bare repository", async () => {
    const d = await tmpDir();
    const bare = path.join(d, "b.git");
    await mkdir(bare);
    await git(bare, "init", "-q", "--bare");
    await badParams(inspectRepo(bare), /bare repository/);
  });

  it("rejects the inside of a .git directory", async () => {
    const { root } = await makeRepo();
    await badParams(inspectRepo(path.join(root, ".git")), /\.git directory/);
  });
});

describe("inspectRepo", () => {
  it("describes a repository with no commits", async () => {
    const d = await tmpDir();
    await git(d, "init", "-q", "-b", "trunk");
    const info = await inspectRepo(d);
    expect(info).toMatchObject({ root: d, hasHead: false, headSha: null, currentBranch: "trunk", isBare: false });
    expect(info.gitDir).toBe(path.join(d, ".git"));
    expect(info.commonDir).toBe(path.join(d, ".git"));
  });

  it("describes a normal repository", async () => {
    const { root, head } = await makeRepo();
    expect(await inspectRepo(root)).toEqual({
      root,
      hasHead: true,
      headSha: head,
      currentBranch: "main",
      isBare: false,
      gitDir: path.join(root, ".git"),
      commonDir: path.join(root, ".git"),
    });
  });

  it("resolves a sub-directory and a symlinked path to the real top level", async () => {
    const { root } = await makeRepo({ "src/a.ts": "x\n" });
    expect((await inspectRepo(path.join(root, "src"))).root).toBe(root);
    const d = await tmpDir();
    await symlink(root, path.join(d, "link"));
    expect((await inspectRepo(path.join(d, "link"))).root).toBe(root);
  });

  it("reports a detached HEAD as currentBranch null", async () => {
    const { root, head } = await makeRepo();
    await write(root, "b.txt", "b\n");
    await commitAll(root, "second");
    await git(root, "checkout", "-q", "--detach", head);
    const info = await inspectRepo(root);
    expect(info.currentBranch).toBeNull();
    expect(info.headSha).toBe(head);
  });

  it("accepts a linked worktree and shares the common dir", async () => {
    const { root } = await makeRepo();
    const d = await tmpDir();
    const wt = path.join(d, "wt");
    await git(root, "worktree", "add", "-q", "-b", "side", wt);
    const info = await inspectRepo(wt);
    expect(info.root).toBe(wt);
    expect(info.currentBranch).toBe("side");
    expect(info.commonDir).toBe(path.join(root, ".git"));
    expect(info.gitDir).toBe(path.join(root, ".git", "worktrees", "wt"));
  });
});
