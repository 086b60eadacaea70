// Pushing a task branch to a bare repository in a temp dir (the remote), with real git: a new
// branch, a fast-forward, a rewritten branch refused without a lease and forced with one, a lease
// that refuses when someone else pushed meanwhile, and how the default remote is chosen.
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { commitAll, git, makeRepo, rejectsWith, removeTmpDirs, tmpDir, write } from "../../../tests/helpers/git-core";
import { defaultRemote, pushBranch, remoteUrls, withoutCredentials } from "./push";

afterAll(removeTmpDirs);

/** A repository on main with a bare remote `origin` (main pushed, tracked) and a branch `task` one commit ahead. */
async function setup() {
  const repo = await makeRepo();
  const bare = path.join(await tmpDir("yard-bare-"), "remote.git");
  await git(repo.root, "init", "-q", "--bare", bare);
  await git(repo.root, "remote", "add", "origin", bare);
  await git(repo.root, "push", "-q", "-u", "origin", "main");
  await git(repo.root, "checkout", "-q", "-b", "task");
  await write(repo.root, "a.txt", "a\n");
  const tip = await commitAll(repo.root, "add a");
  await git(repo.root, "checkout", "-q", "main");
  return { root: repo.root, bare, tip };
}

const remoteTip = (bare: string, branch: string) => git(bare, "rev-parse", `refs/heads/${branch}`);

describe("pushBranch", () => {
  it("pushes a new branch, then fast-forwards it, then says it is up to date", async () => {
    const s = await setup();
    const input = { repoRoot: s.root, remote: "origin", branch: "task", remoteBranch: "task" };
    expect(await pushBranch(input)).toEqual({ commit: s.tip, status: "new" });
    expect(await remoteTip(s.bare, "task")).toBe(s.tip);
    await git(s.root, "checkout", "-q", "task");
    await write(s.root, "b.txt", "b\n");
    const next = await commitAll(s.root, "add b");
    expect(await pushBranch(input)).toEqual({ commit: next, status: "updated" });
    expect(await remoteTip(s.bare, "task")).toBe(next);
    expect(await pushBranch(input)).toEqual({ commit: next, status: "up_to_date" });
  });

  it("refuses a rewritten branch (non-fast-forward) without a lease, and replaces it with one", async () => {
    const s = await setup();
    const input = { repoRoot: s.root, remote: "origin", branch: "task", remoteBranch: "task" };
    await pushBranch(input);
    await git(s.root, "checkout", "-q", "task");
    await write(s.root, "a.txt", "a, amended\n");
    await git(s.root, "add", "-A");
    await git(s.root, "commit", "-q", "--amend", "-m", "add a (amended)");
    const amended = await git(s.root, "rev-parse", "HEAD");
    const e = await rejectsWith(pushBranch(input), "CONFLICT");
    expect(e.message).toMatch(/--force-with-lease/);
    expect(e.details).toMatchObject({
      remote: "origin",
      remoteBranch: "task",
      reason: expect.stringMatching(/non-fast-forward|fetch first/),
    });
    expect(await remoteTip(s.bare, "task")).toBe(s.tip);
    expect(await pushBranch({ ...input, lease: { expect: s.tip } })).toEqual({ commit: amended, status: "forced" });
    expect(await remoteTip(s.bare, "task")).toBe(amended);
  });

  it("a lease refuses when the remote branch moved since (someone else pushed): nothing is overwritten", async () => {
    const s = await setup();
    const input = { repoRoot: s.root, remote: "origin", branch: "task", remoteBranch: "task" };
    await pushBranch(input);
    // Someone else pushes to the same branch from a clone of their own.
    const other = path.join(await tmpDir("yard-clone-"), "other");
    await git(s.root, "clone", "-q", s.bare, other);
    await git(other, "checkout", "-q", "task");
    await write(other, "theirs.txt", "theirs\n");
    const theirs = await commitAll(other, "theirs");
    await git(other, "push", "-q", "origin", "task");
    await git(s.root, "checkout", "-q", "task");
    await write(s.root, "mine.txt", "mine\n");
    await commitAll(s.root, "mine");
    const e = await rejectsWith(pushBranch({ ...input, lease: { expect: s.tip } }), "CONFLICT");
    expect(e.details).toMatchObject({ reason: "stale info" });
    expect(await remoteTip(s.bare, "task")).toBe(theirs);
    // A lease on a branch that must not exist yet refuses too.
    await rejectsWith(pushBranch({ ...input, lease: { expect: "" } }), "CONFLICT");
  });

  it("names the remotes there are when the one asked for is missing; GIT_FAILED for an unreachable remote", async () => {
    const s = await setup();
    const e = await rejectsWith(
      pushBranch({ repoRoot: s.root, remote: "upstream", branch: "task", remoteBranch: "task" }),
      "NO_REMOTE",
    );
    expect(e.details).toEqual({ remote: "upstream", remotes: ["origin"] });
    await git(s.root, "remote", "add", "gone", path.join(s.bare, "..", "missing.git"));
    const f = await rejectsWith(
      pushBranch({ repoRoot: s.root, remote: "gone", branch: "task", remoteBranch: "task" }),
      "GIT_FAILED",
    );
    expect(f.message).toMatch(/git push to 'gone' failed/);
  });
});

describe("defaultRemote", () => {
  it("is the target's upstream remote, else origin, else NO_REMOTE naming the remotes", async () => {
    const s = await setup();
    expect(await defaultRemote(s.root, "main")).toBe("origin");
    await git(s.root, "remote", "rename", "origin", "upstream");
    expect(await defaultRemote(s.root, "main")).toBe("upstream"); // main tracks upstream/main
    await git(s.root, "remote", "add", "fork", s.bare);
    await git(s.root, "branch", "-q", "--unset-upstream", "main");
    const e = await rejectsWith(defaultRemote(s.root, "main"), "NO_REMOTE");
    expect(e.details).toEqual({ remotes: ["fork", "upstream"] });
    expect(e.message).toMatch(/fork, upstream/);
    await git(s.root, "remote", "remove", "fork");
    await git(s.root, "remote", "remove", "upstream");
    expect((await rejectsWith(defaultRemote(s.root, "main"), "NO_REMOTE")).message).toMatch(/git remote add/);
  });

  it("reads the remote's URL as configured and as git rewrites it (url.*.insteadOf)", async () => {
    const s = await setup();
    await git(s.root, "remote", "set-url", "origin", "https://github.com/acme/widgets.git");
    await git(s.root, "config", `url.${s.bare}.insteadOf`, "https://github.com/acme/widgets.git");
    expect(await remoteUrls(s.root, "origin")).toEqual({
      configured: "https://github.com/acme/widgets.git",
      effective: s.bare,
    });
    // Pushing goes where git rewrites it to.
    expect(
      (await pushBranch({ repoRoot: s.root, remote: "origin", branch: "task", remoteBranch: "task" })).status,
    ).toBe("new");
    expect(await remoteTip(s.bare, "task")).toBe(s.tip);
  });
});

describe("withoutCredentials", () => {
  it.each([
    [
      "fatal: unable to access 'https://x-access-token:ghp_secret@github.com/a/b.git/'",
      "fatal: unable to access 'https://***@github.com/a/b.git/'",
    ],
    ["https://ghp_only@github.com/a/b", "https://***@github.com/a/b"],
    ["git@github.com:a/b.git", "git@github.com:a/b.git"],
    ["ssh://git@host:22/a/b", "ssh://***@host:22/a/b"],
  ])("%s", (input, want) => {
    expect(withoutCredentials(input)).toBe(want);
  });
});
