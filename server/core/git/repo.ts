// Inspecting a repository path: is it a usable (non-bare) git work tree, where is its
// top level, what is checked out.
//
//   inspectRepo(path) -> RepoInfo
//     { root (toplevel, realpath), hasHead, headSha|null, currentBranch|null (null on detached HEAD),
//       isBare (always false on success), gitDir, commonDir (both absolute realpaths) }
//   A sub-directory of a work tree resolves to its top level. Linked worktrees are accepted.
//   BAD_PARAMS with { path } for: not absolute, does not exist, not a directory, not a git
//   repository, a bare repository, the inside of a .git directory, or anything else git refuses.

import { promises as fsp } from "node:fs";
import path from "node:path";
import { YardError } from "../errors";
import { firstLine, runGit } from "./git";
import { realpathOrResolveAsync, requireAbsolutePath } from "./paths";

export interface RepoInfo {
  root: string;
  hasHead: boolean;
  headSha: string | null;
  currentBranch: string | null;
  isBare: boolean;
  gitDir: string;
  commonDir: string;
}

export async function inspectRepo(p: string): Promise<RepoInfo> {
  const abs = requireAbsolutePath(p, "path");
  let st;
  try {
    st = await fsp.stat(abs);
  } catch {
    throw new YardError("BAD_PARAMS", `${abs} does not exist`, { path: abs });
  }
  if (!st.isDirectory()) throw new YardError("BAD_PARAMS", `${abs} is not a directory`, { path: abs });

  const INFO = [
    "rev-parse",
    "--is-bare-repository",
    "--is-inside-work-tree",
    "--show-toplevel",
    "--absolute-git-dir",
    "--git-common-dir",
  ];
  // Fast path, one spawn: the layout plus HEAD's commit and symbolic name. It fails on an
  // unborn HEAD (and on anything unusual); the slow path then classifies precisely.
  let isBare: string | undefined,
    insideWorkTree: string | undefined,
    toplevel: string | undefined,
    gitDir: string | undefined,
    commonDir: string | undefined;
  let currentBranch: string | null;
  let headSha: string | null;
  const fast = await runGit([...INFO, "HEAD", "--symbolic-full-name", "HEAD"], { cwd: abs, allowFail: true });
  const f = fast.stdout.split("\n");
  if (fast.code === 0 && f.length >= 7 && /^[0-9a-f]{40,64}$/.test(f[5]!)) {
    [isBare, insideWorkTree, toplevel, gitDir, commonDir] = f;
    headSha = f[5]!;
    currentBranch = f[6]!.startsWith("refs/heads/") ? f[6]!.slice("refs/heads/".length) : null;
  } else {
    const [info, sym, head] = await Promise.all([
      runGit(INFO, { cwd: abs, allowFail: true }),
      runGit(["symbolic-ref", "-q", "HEAD"], { cwd: abs, allowFail: true }),
      runGit(["rev-parse", "-q", "--verify", "HEAD^{commit}"], { cwd: abs, allowFail: true }),
    ]);
    if (info.code !== 0) {
      const lines = info.stdout.split("\n");
      const err = info.stderr;
      if (lines[0] === "true")
        throw new YardError("BAD_PARAMS", `${abs} is a bare repository; a repository with a working tree is required`, {
          path: abs,
        });
      if (/not a git repository/i.test(err))
        throw new YardError("BAD_PARAMS", `${abs} is not a git repository`, { path: abs });
      if (/must be run in a work tree/i.test(err))
        throw new YardError("BAD_PARAMS", `${abs} is inside a .git directory, not a working tree`, { path: abs });
      throw new YardError("BAD_PARAMS", `git cannot use ${abs}: ${firstLine(err.trim()) || `exit ${info.code}`}`, {
        path: abs,
        stderr: err,
      });
    }
    [isBare, insideWorkTree, toplevel, gitDir, commonDir] = info.stdout.split("\n");
    const symRef = sym.code === 0 ? firstLine(sym.stdout).trim() : "";
    currentBranch = symRef.startsWith("refs/heads/") ? symRef.slice("refs/heads/".length) : null;
    headSha = head.code === 0 ? firstLine(head.stdout).trim() || null : null;
  }
  if (isBare === "true")
    throw new YardError("BAD_PARAMS", `${abs} is a bare repository; a repository with a working tree is required`, {
      path: abs,
    });
  if (insideWorkTree !== "true" || !toplevel)
    throw new YardError("BAD_PARAMS", `${abs} is not inside a git working tree`, { path: abs });

  const [root, gd, cd] = await Promise.all([
    realpathOrResolveAsync(toplevel),
    realpathOrResolveAsync(gitDir ?? path.join(toplevel, ".git")),
    realpathOrResolveAsync(path.resolve(abs, commonDir || ".git")),
  ]);
  return { root, hasHead: headSha !== null, headSha, currentBranch, isBare: false, gitDir: gd, commonDir: cd };
}
