// Branch names, revisions and commits.
//
//   branchNameProblem(name)                 pure: why a name is not an acceptable branch name, or null
//   validateBranchName(name) -> name        pure check, then `git check-ref-format --branch` as the authority
//   revisionProblem(rev)                    pure: sanity check for a user-supplied revision (no options, no ranges)
//   resolveBaseSha(repo, ref?, {fetch?})    -> full SHA. No ref: local HEAD, no network. A named ref is
//                                           resolved locally, after `git fetch` only when fetch is requested
//   resolveCommit(repo, rev)                -> full SHA or null (a name that is a local branch wins over a tag)
//   branchTip(repo, branch)                 -> full SHA or null
//   isMerged(repo, branchOrSha, target)     -> branch tip is an ancestor of (or equal to) target; for restart recovery
//   listRefs(repo, {query?, limit?})        -> { branches: [{name, sha, current}], commits: [{sha, subject}] } for a
//                                           base picker: local and remote-tracking branches, and recent commits of
//                                           HEAD (a query filters both: substring of a branch name, sha prefix or
//                                           subject substring, case-insensitive); both lists bounded
//
// All errors are YardError: BAD_PARAMS for bad input/unresolvable refs, NOT_FOUND in isMerged
// for a missing side, GIT_FAILED for git trouble (e.g. a failed fetch).

import os from "node:os";
import { YardError } from "../errors";
import { firstLine, runGit } from "./git";
import { inspectRepo } from "./repo";

const MAX_BRANCH_LEN = 200;

/** Why `name` is not acceptable as a branch name (git's rules plus ours), or null. */
export function branchNameProblem(name: unknown): string | null {
  if (typeof name !== "string") return "branch name must be a string";
  if (name.length === 0) return "branch name is empty";
  if (name.length > MAX_BRANCH_LEN) return `branch name is longer than ${MAX_BRANCH_LEN} characters`;
  if (name.startsWith("-")) return "branch name must not start with '-'";
  // eslint-disable-next-line no-control-regex
  if (/[\x00-\x20\x7f]/.test(name)) return "branch name must not contain spaces or control characters";
  if (/[~^:?*[\\]/.test(name)) return "branch name must not contain any of ~ ^ : ? * [ \\";
  if (name.includes("..")) return "branch name must not contain '..'";
  if (name.includes("@{")) return "branch name must not contain '@{'";
  if (name === "@" || name === "HEAD") return `'${name}' is not a valid branch name`;
  if (name.startsWith("/") || name.endsWith("/") || name.includes("//"))
    return "branch name has an empty path component";
  if (name.endsWith(".")) return "branch name must not end with '.'";
  for (const part of name.split("/")) {
    if (part.startsWith(".")) return "a branch name component must not start with '.'";
    if (part.endsWith(".lock")) return "a branch name component must not end with '.lock'";
  }
  return null;
}

/** Throws BAD_PARAMS unless `name` is a valid branch name; returns it unchanged. */
export async function validateBranchName(name: unknown, what = "branch"): Promise<string> {
  const problem = branchNameProblem(name);
  if (problem) throw new YardError("BAD_PARAMS", `invalid ${what} name: ${problem}`, { [what]: name ?? null });
  const n = name as string;
  const r = await runGit(["check-ref-format", "--branch", n], { cwd: os.tmpdir(), allowFail: true });
  if (r.code !== 0 || firstLine(r.stdout) !== n) {
    throw new YardError("BAD_PARAMS", `invalid ${what} name: git rejects '${n}'`, { [what]: n });
  }
  return n;
}

/** Sanity check for a user-supplied revision (branch, tag, remote ref, sha, `main~2`). Null when fine. */
export function revisionProblem(rev: unknown): string | null {
  if (typeof rev !== "string" || rev.length === 0) return "ref must be a non-empty string";
  if (rev.length > 1024) return "ref is too long";
  if (rev.startsWith("-")) return "ref must not start with '-'";
  // eslint-disable-next-line no-control-regex
  if (/[\x00-\x20\x7f]/.test(rev)) return "ref must not contain spaces or control characters";
  if (rev.includes("..")) return "ref must name one commit, not a range";
  return null;
}

function requireRevision(rev: unknown, what: string): string {
  const p = revisionProblem(rev);
  if (p) throw new YardError("BAD_PARAMS", `invalid ${what}: ${p}`, { [what]: rev ?? null });
  return rev as string;
}

/** Full SHA of the commit `rev` names in `cwd`, or null. A name that is a local branch wins over a tag of the same name. */
export async function resolveCommit(cwd: string, rev: string): Promise<string | null> {
  requireRevision(rev, "ref");
  if (branchNameProblem(rev) === null) {
    const b = await runGit(["rev-parse", "-q", "--verify", `refs/heads/${rev}^{commit}`], { cwd, allowFail: true });
    if (b.code === 0) return firstLine(b.stdout).trim();
  }
  const r = await runGit(["rev-parse", "-q", "--verify", `${rev}^{commit}`], { cwd, allowFail: true });
  return r.code === 0 ? firstLine(r.stdout).trim() : null;
}

export async function branchTip(cwd: string, branch: string): Promise<string | null> {
  const problem = branchNameProblem(branch);
  if (problem) throw new YardError("BAD_PARAMS", `invalid branch name: ${problem}`, { branch });
  const r = await runGit(["rev-parse", "-q", "--verify", `refs/heads/${branch}^{commit}`], { cwd, allowFail: true });
  return r.code === 0 ? firstLine(r.stdout).trim() : null;
}

/** The commit each of `branches` points at, read in one git call; absent branches are left out. */
export async function branchTips(cwd: string, branches: readonly string[]): Promise<Map<string, string>> {
  const names = [...new Set(branches)].filter((b) => branchNameProblem(b) === null);
  const out = new Map<string, string>();
  if (!names.length) return out;
  const r = await runGit(
    ["for-each-ref", "--format=%(objectname) %(refname)", ...names.map((b) => `refs/heads/${b}`)],
    { cwd, allowFail: true },
  );
  const wanted = new Set(names);
  for (const line of r.stdout.split("\n")) {
    const sp = line.indexOf(" ");
    const name = line.slice(sp + 1).replace(/^refs\/heads\//, "");
    if (sp > 0 && wanted.has(name)) out.set(name, line.slice(0, sp));
  }
  return out;
}

export interface ResolveBaseOptions {
  /**
   * Fetch before resolving a named ref. true: when the ref is "<remote>/<branch>" fetch that
   * branch from that remote, otherwise fetch the "origin" remote (or the only remote).
   * A string names the remote to fetch. Ignored without a ref (HEAD never fetches).
   */
  fetch?: boolean | string;
  /** Timeout for the fetch, default 120 s. */
  fetchTimeoutMs?: number;
}

/**
 * The base commit for a new task. No ref: the repository's local HEAD (no network);
 * a repository without commits is BAD_PARAMS. A named ref is resolved to a commit,
 * optionally after a fetch; unresolvable -> BAD_PARAMS { ref }.
 */
export async function resolveBaseSha(
  repoPath: string,
  ref?: string | null,
  opts: ResolveBaseOptions = {},
): Promise<string> {
  const repo = await inspectRepo(repoPath);
  if (ref === undefined || ref === null || ref === "" || ref === "HEAD") {
    if (!repo.headSha)
      throw new YardError("BAD_PARAMS", "the repository has no commits yet; commit something first", {
        repo: repo.root,
      });
    return repo.headSha;
  }
  requireRevision(ref, "ref");
  if (opts.fetch) await fetchFor(repo.root, ref, opts.fetch, opts.fetchTimeoutMs);
  const sha = await resolveCommit(repo.root, ref);
  if (!sha) {
    if (!repo.headSha)
      throw new YardError("BAD_PARAMS", `the repository has no commits yet, so '${ref}' cannot be resolved`, {
        repo: repo.root,
        ref,
      });
    throw new YardError("BAD_PARAMS", `'${ref}' does not name a commit in ${repo.root}`, { repo: repo.root, ref });
  }
  return sha;
}

async function fetchFor(root: string, ref: string, fetch: true | string, timeoutMs?: number): Promise<void> {
  const remotes = (await runGit(["remote"], { cwd: root })).stdout
    .split("\n")
    .map((s) => s.trim())
    .filter(Boolean);
  if (remotes.length === 0)
    throw new YardError("BAD_PARAMS", "fetch requested but the repository has no remotes", { repo: root, ref });
  let args: string[];
  if (typeof fetch === "string") {
    if (!remotes.includes(fetch))
      throw new YardError("BAD_PARAMS", `no remote named '${fetch}'`, { repo: root, remote: fetch, remotes });
    args = ["fetch", "--quiet", "--no-write-fetch-head", fetch];
  } else {
    // Longest matching remote name wins ("origin/x" vs a remote called "origin/sub").
    const remote = remotes.filter((r) => ref.startsWith(`${r}/`)).sort((a, b) => b.length - a.length)[0];
    const rest = remote ? ref.slice(remote.length + 1) : "";
    if (remote && branchNameProblem(rest) === null) {
      // Fetching one branch by name updates refs/remotes/<remote>/<branch> through the configured refspec.
      args = ["fetch", "--quiet", "--no-write-fetch-head", remote, `refs/heads/${rest}`];
    } else {
      const r = remotes.includes("origin") ? "origin" : remotes.length === 1 ? remotes[0]! : null;
      if (!r)
        throw new YardError("BAD_PARAMS", "fetch requested but it is unclear which remote to fetch; name one", {
          repo: root,
          ref,
          remotes,
        });
      args = ["fetch", "--quiet", "--no-write-fetch-head", r];
    }
  }
  // The person asked for this fetch from their own remote: the file transport (a local path
  // remote) is allowed back for it, never for a submodule, and no submodule is fetched.
  await runGit(["-c", "protocol.file.allow=user", args[0]!, "--no-recurse-submodules", ...args.slice(1)], {
    cwd: root,
    timeoutMs: timeoutMs ?? 120_000,
  });
}

/**
 * Whether `branchOrSha` has landed in `target`: its commit is an ancestor of (or equal to)
 * target's. Used after a restart to tell "merge landed, cleanup pending" from "not merged".
 * Pass the recorded branch tip SHA when the branch may already be deleted.
 * NOT_FOUND when either side does not resolve.
 */
export async function isMerged(repoRoot: string, branchOrSha: string, target: string): Promise<boolean> {
  const repo = await inspectRepo(repoRoot);
  requireRevision(branchOrSha, "branch");
  requireRevision(target, "target");
  const [a, b] = await Promise.all([resolveCommit(repo.root, branchOrSha), resolveCommit(repo.root, target)]);
  if (!a)
    throw new YardError("NOT_FOUND", `'${branchOrSha}' does not name a commit`, {
      repo: repo.root,
      branch: branchOrSha,
    });
  if (!b) throw new YardError("NOT_FOUND", `'${target}' does not name a commit`, { repo: repo.root, target });
  const r = await runGit(["merge-base", "--is-ancestor", a, b], { cwd: repo.root, allowFail: true });
  if (r.code === 0) return true;
  if (r.code === 1) return false;
  throw new YardError("GIT_FAILED", "git merge-base --is-ancestor failed", {
    args: ["merge-base", "--is-ancestor", a, b],
    code: r.code,
    stderr: r.stderr,
  });
}

export interface RefList {
  branches: Array<{ name: string; sha: string; current: boolean }>;
  commits: Array<{ sha: string; subject: string }>;
}

/** Branches and recent commits for choosing a task's base (see the top comment). */
export async function listRefs(repoPath: string, opts: { query?: string; limit?: number } = {}): Promise<RefList> {
  const repo = await inspectRepo(repoPath);
  const limit = Math.max(1, Math.min(opts.limit ?? 50, 500));
  const q = (opts.query ?? "").trim().toLowerCase();
  const refs = await runGit(
    ["for-each-ref", "--format=%(refname)%00%(objectname)%00%(HEAD)%00%(symref)", "refs/heads", "refs/remotes"],
    { cwd: repo.root },
  );
  const branches: RefList["branches"] = [];
  for (const line of refs.stdout.split("\n")) {
    const [ref, sha, head, symref] = line.split("\0");
    if (!ref || !sha || symref) continue; // symbolic refs (origin/HEAD) name another branch
    const name = ref.startsWith("refs/heads/") ? ref.slice("refs/heads/".length) : ref.slice("refs/remotes/".length);
    if (q && !name.toLowerCase().includes(q)) continue;
    branches.push({ name, sha, current: head === "*" });
  }
  // The checked-out branch first, then local branches, then remote-tracking ones (for-each-ref sorts by name within each).
  branches.sort((a, b) => Number(b.current) - Number(a.current));
  if (!repo.headSha) return { branches: branches.slice(0, limit), commits: [] };
  const FORMAT = "--format=%H%x00%s";
  const commits: RefList["commits"] = [];
  const seen = new Set<string>();
  const add = (out: string) => {
    for (const line of out.split("\n")) {
      const i = line.indexOf("\0");
      if (i <= 0 || seen.has(line.slice(0, i))) continue;
      seen.add(line.slice(0, i));
      commits.push({ sha: line.slice(0, i), subject: line.slice(i + 1) });
    }
  };
  if (q && /^[0-9a-f]{4,64}$/.test(q)) {
    const exact = await runGit(["rev-parse", "-q", "--verify", `${q}^{commit}`], { cwd: repo.root, allowFail: true });
    if (exact.code === 0)
      add((await runGit(["log", "-1", FORMAT, firstLine(exact.stdout).trim(), "--"], { cwd: repo.root })).stdout);
  }
  const grep = q ? ["-i", "-F", `--grep=${opts.query!.trim()}`] : [];
  add((await runGit(["log", `--max-count=${limit}`, ...grep, FORMAT, "HEAD", "--"], { cwd: repo.root })).stdout);
  return { branches: branches.slice(0, limit), commits: commits.slice(0, limit) };
}
