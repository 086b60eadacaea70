// What the host's git does with agent-written data, one vector per test: the agent (here, the
// test writing into a task worktree and its git metadata as an agent can) plants a program for
// git to run on the host or a file for it to write through or block on; status, diff, the
// review snapshot, merge and worktree removal must never run, follow or hang on it. Every
// planted program would create a file under `marks/`; none may appear. (tests/agent-git.test.ts
// plays the same attacks from inside a real sandboxed pane.)
import { execFileSync } from "node:child_process";
import { promises as fsp, readdirSync, readFileSync, symlinkSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  commitAll,
  exists,
  git,
  makeRepo,
  rejectsWith,
  removeTmpDirs,
  tmpDir,
  write,
} from "../../../tests/helpers/git-core";
import { diffWorktree, worktreeTree } from "./diff";
import { mergeTask } from "./merge";
import { statusEntries } from "./status";
import { createWorktree, listWorktrees, removeWorktree } from "./worktree";

afterAll(removeTmpDirs);

/** A repository, a task worktree on branch "task", and an empty directory planted programs would write into. */
async function setup() {
  const repo = await makeRepo({ "README.md": "hello\n" });
  const d = await tmpDir();
  const marks = path.join(d, "marks");
  await fsp.mkdir(marks);
  const wt = await createWorktree({
    repoRoot: repo.root,
    branch: "task",
    baseSha: repo.head,
    path: path.join(d, "wt"),
  });
  const gitDir = (await git(wt.worktreePath, "rev-parse", "--absolute-git-dir")).trim();
  const commonDir = path.join(repo.root, ".git");
  const touch = (name: string) => `touch '${path.join(marks, name)}'`;
  const merge = () =>
    mergeTask({
      repoRoot: repo.root,
      worktreePath: wt.worktreePath,
      branch: "task",
      targetBranch: "main",
      branchPreexisting: false,
    });
  return { root: repo.root, base: repo.head, wt: wt.worktreePath, gitDir, commonDir, marks, touch, merge, dir: d };
}

/** Everything the host does with a finished task's worktree: status, diff, snapshot, then merge. */
async function hostReadsAndMerges(s: Awaited<ReturnType<typeof setup>>) {
  await statusEntries(s.wt, { untracked: "all" });
  const d = await diffWorktree({ worktreePath: s.wt, baseSha: s.base });
  await worktreeTree({ worktreePath: s.wt });
  const m = await s.merge();
  return { diff: d, merge: m };
}

const marksOf = (s: { marks: string }) => readdirSync(s.marks);

/** A FIFO at `p` (nothing ever writes to it: a reader that opens it blocking waits forever). */
const mkfifo = (p: string) => execFileSync("mkfifo", [p]);

describe("the host's git on agent-written data", () => {
  it("never enters a committed nested repository: its fsmonitor, sshCommand and includeIf never run", async () => {
    const s = await setup();
    const sub = path.join(s.wt, "sub");
    await fsp.mkdir(sub);
    await git(sub, "init", "-q");
    await git(sub, "commit", "-q", "--allow-empty", "-m", "inner");
    await write(s.dir, "evil.cfg", `[core]\n\tfsmonitor = ${s.touch("include")}\n`);
    const cfg = path.join(sub, ".git/config");
    await fsp.appendFile(
      cfg,
      `[core]\n\tfsmonitor = ${s.touch("fsmonitor")}\n\tsshCommand = ${s.touch("ssh")}\n[includeIf "gitdir:/"]\n\tpath = ${path.join(s.dir, "evil.cfg")}\n`,
    );
    await write(s.wt, "work.txt", "work\n");
    await commitAll(s.wt, "nested repository");
    // Plain git (as a person would run it) does run the nested repository's fsmonitor: the vector is real.
    execFileSync("git", ["status", "--porcelain"], { cwd: s.wt, stdio: "ignore" });
    expect(marksOf(s).length).toBe(1); // the included file's fsmonitor, or the config's own
    await fsp.rm(s.marks, { recursive: true });
    await fsp.mkdir(s.marks);

    const { diff, merge } = await hostReadsAndMerges(s);
    expect(diff.files.map((f) => f.path).sort()).toEqual(["sub", "work.txt"]);
    expect(merge.cleanup).toMatchObject({ ok: true, worktreeRemoved: true }); // a worktree holding a nested repository is removed too
    expect(marksOf(s)).toEqual([]);
  });

  it("runs no textconv, filter or merge driver an agent defines, whatever its .gitattributes name", async () => {
    const s = await setup();
    await write(s.wt, ".gitattributes", "* diff=evil filter=evil merge=evil\n");
    const drivers = `[diff "evil"]\n\ttextconv = ${s.touch("textconv")}\n\tcommand = ${s.touch("diffcmd")}\n[filter "evil"]\n\tclean = ${s.touch("clean")}\n\tsmudge = ${s.touch("smudge")}\n[merge "evil"]\n\tdriver = ${s.touch("mergedriver")}\n`;
    // Everywhere an agent could write a config file: the worktree, a nested repository, its own git dir.
    await write(s.wt, ".gitconfig", drivers);
    await write(s.wt, ".git-config", drivers);
    await fsp.appendFile(path.join(s.gitDir, "config.worktree"), drivers);
    await write(s.wt, "a.txt", "a\n");
    await commitAll(s.wt, "attributes");
    await write(s.wt, "a.txt", "a\nchanged\n"); // something for a textconv or clean filter to see
    const { diff } = await hostReadsAndMerges({
      ...s,
      merge: () =>
        mergeTask({
          repoRoot: s.root,
          worktreePath: s.wt,
          branch: "task",
          targetBranch: "main",
          branchPreexisting: false,
          ignoreDirty: true,
        }),
    });
    expect(diff.diff).toContain("+changed");
    expect(marksOf(s)).toEqual([]);
  });

  it("runs no hook: not from the worktree's git dir, not from a relative core.hooksPath inside the agent's files (husky)", async () => {
    const s = await setup();
    // The person's repository uses a relative hooks path, as husky sets up: hooks are files of the checkout.
    await git(s.root, "config", "core.hooksPath", ".husky");
    const hooks = [
      "pre-merge-commit",
      "post-merge",
      "reference-transaction",
      "post-checkout",
      "post-commit",
      "pre-commit",
      "prepare-commit-msg",
      "commit-msg",
      "post-index-change",
    ];
    for (const h of hooks) {
      for (const dir of [path.join(s.gitDir, "hooks"), path.join(s.wt, ".husky")]) {
        await write(dir, h, `#!/bin/sh\n${s.touch(`${path.basename(dir)}-${h}`)}\n`);
        await fsp.chmod(path.join(dir, h), 0o755);
      }
    }
    await commitAll(s.wt, "hooks");
    const { merge } = await hostReadsAndMerges(s);
    // The merge checked .husky out into the person's checkout before git would have run its hooks.
    expect(await exists(path.join(s.root, ".husky/post-merge"))).toBe(true);
    expect(merge.cleanup.ok).toBe(true);
    expect(marksOf(s)).toEqual([]);
  });

  it("a FIFO for the worktree's index does not hold the diff or the snapshot: they read the work tree afresh", async () => {
    const s = await setup();
    await write(s.wt, "a.txt", "a\n");
    await commitAll(s.wt, "a");
    await write(s.wt, "b.txt", "b\n");
    await fsp.rm(path.join(s.gitDir, "index"));
    mkfifo(path.join(s.gitDir, "index"));
    const d = await diffWorktree({ worktreePath: s.wt, baseSha: s.base });
    expect(d.files.map((f) => f.path).sort()).toEqual(["a.txt", "b.txt"]);
    expect(await worktreeTree({ worktreePath: s.wt })).toMatch(/^[0-9a-f]{40}$/);
  });

  it("a FIFO for the worktree's index or HEAD does not hold a merge, the worktree list or the worktree's removal", async () => {
    const s = await setup();
    await write(s.wt, "a.txt", "a\n");
    await commitAll(s.wt, "a");
    await fsp.rm(path.join(s.gitDir, "index"));
    mkfifo(path.join(s.gitDir, "index"));
    mkfifo(path.join(s.gitDir, "locked"));
    const m = await s.merge();
    expect(m.cleanup).toMatchObject({ ok: true, worktreeRemoved: true, branchDeleted: true });
    // Another task whose agent made its HEAD a FIFO: listing and removing worktrees go on.
    const other = await createWorktree({
      repoRoot: s.root,
      branch: "other",
      baseSha: s.base,
      path: path.join(s.dir, "wt2"),
    });
    const otherGitDir = await git(other.worktreePath, "rev-parse", "--absolute-git-dir");
    await fsp.rm(path.join(otherGitDir, "HEAD"));
    mkfifo(path.join(otherGitDir, "HEAD"));
    expect((await listWorktrees(s.root)).map((w) => w.path)).toContain(s.root);
    expect(await exists(path.join(otherGitDir, "HEAD"))).toBe(false);
  });

  it("an index linked to a host file is not followed, and /dev/zero there costs nothing", async () => {
    const s = await setup();
    await write(s.dir, "host-index", "not an index");
    await fsp.rm(path.join(s.gitDir, "index"));
    symlinkSync(path.join(s.dir, "host-index"), path.join(s.gitDir, "index"));
    await write(s.wt, "b.txt", "b\n");
    expect((await diffWorktree({ worktreePath: s.wt, baseSha: s.base })).files.map((f) => f.path)).toEqual(["b.txt"]);
    await fsp.rm(path.join(s.gitDir, "index"));
    symlinkSync("/dev/zero", path.join(s.gitDir, "index"));
    expect((await diffWorktree({ worktreePath: s.wt, baseSha: s.base })).files.map((f) => f.path)).toEqual(["b.txt"]);
    expect(readFileSync(path.join(s.dir, "host-index"), "utf8")).toBe("not an index");
  });

  it("a FIFO for the worktree's HEAD is refused at once (BAD_PARAMS), not waited on", async () => {
    const s = await setup();
    await fsp.rm(path.join(s.gitDir, "HEAD"));
    mkfifo(path.join(s.gitDir, "HEAD"));
    const e = await rejectsWith(diffWorktree({ worktreePath: s.wt, baseSha: s.base }), "BAD_PARAMS");
    expect(e.details).toMatchObject({ path: path.join(s.gitDir, "HEAD"), found: "special" });
  });

  it("a reflog linked to a host file: the merge is refused (CONFLICT naming it) and the host file is untouched", async () => {
    const s = await setup();
    await write(s.wt, "a.txt", "a\n");
    await commitAll(s.wt, "a");
    await write(s.dir, "victim", "host file\n");
    for (const log of ["logs/refs/heads/main", "logs/HEAD"]) {
      const p = path.join(s.commonDir, log);
      await fsp.rm(p, { force: true });
      symlinkSync(path.join(s.dir, "victim"), p);
      const e = await rejectsWith(s.merge(), "CONFLICT");
      expect(e.details).toMatchObject({ path: p, found: "symlink" });
      expect(readFileSync(path.join(s.dir, "victim"), "utf8")).toBe("host file\n");
      expect(await git(s.root, "rev-parse", "HEAD")).toBe(s.base);
      await fsp.rm(p);
    }
    expect((await s.merge()).alreadyUpToDate).toBe(false);
    expect(readFileSync(path.join(s.dir, "victim"), "utf8")).toBe("host file\n");
  });

  it("an object fan-out directory linked to a host directory: diff and merge refuse to write objects there", async () => {
    const s = await setup();
    await write(s.wt, "a.txt", "a\n");
    await commitAll(s.wt, "a");
    const target = path.join(s.dir, "host-dir");
    await fsp.mkdir(target);
    // Every fan-out directory git has not made yet becomes a link: whatever id the next object has, it would land there.
    for (let i = 0; i < 256; i++) {
      const fan = path.join(s.commonDir, "objects", i.toString(16).padStart(2, "0"));
      if (!(await exists(fan))) symlinkSync(target, fan);
    }
    await write(s.wt, "b.txt", "new content the diff would hash\n");
    const d = await rejectsWith(diffWorktree({ worktreePath: s.wt, baseSha: s.base }), "CONFLICT");
    expect(d.details).toMatchObject({ found: "symlink" });
    await fsp.rm(path.join(s.wt, "b.txt"));
    const m = await rejectsWith(s.merge(), "CONFLICT");
    expect(m.details).toMatchObject({ found: "symlink" });
    expect(readdirSync(target)).toEqual([]);
    expect(await git(s.root, "rev-parse", "HEAD")).toBe(s.base);
  });

  it("worktree removal never follows the agent's links out of the worktree", async () => {
    const s = await setup();
    const outside = path.join(s.dir, "outside");
    await fsp.mkdir(outside);
    await write(outside, "keep.txt", "keep\n");
    symlinkSync(outside, path.join(s.wt, "link-dir"));
    symlinkSync(path.join(outside, "keep.txt"), path.join(s.wt, "link-file"));
    await removeWorktree(s.root, s.wt);
    expect(await exists(s.wt)).toBe(false);
    expect(readFileSync(path.join(outside, "keep.txt"), "utf8")).toBe("keep\n");
  });
});
