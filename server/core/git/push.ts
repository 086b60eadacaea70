// Pushing a task's branch to one of the repository's remotes, with the person's own git
// credentials and config (their credential helper, ssh agent, `url.*.insteadOf`, core.sshCommand),
// still through the one runner: argv only, no hooks, no prompt (GIT_TERMINAL_PROMPT=0, no
// controlling terminal), the file transport allowed back for a remote that is a local path, as for
// a fetch the person asked for.
//
//   defaultRemote(repo, target) -> the remote target's upstream lives on, else "origin", else
//     NO_REMOTE { remotes } naming the ones there are (none: "add one").
//   upstreamOf(repo, branch) -> { remote, branch } the local branch tracks, or null
//   remoteTracking(repo, remote, branch) -> the remote-tracking commit, or null
//   remoteUrls(repo, remote) -> { configured (as written in the config), effective (insteadOf applied) }
//   pushBranch({ repoRoot, remote, branch, remoteBranch, lease? })
//     -> { commit, status: new | updated | forced | up_to_date }
//     Under the repository lock. Pushes the branch's commit, read first, by id
//     (`<sha>:refs/heads/<remoteBranch>`): what is recorded as pushed is exactly what went. Never a
//     plain force push: `lease: { expect }` adds `--force-with-lease=refs/heads/<remoteBranch>:<expect>`
//     (the remote branch must still be at `expect`; "" means it must not exist). A rejection is
//     CONFLICT { remote, remoteBranch, reason } (non-fast-forward, fetch first, stale info, or what
//     the remote's hook said); any other failure is GIT_FAILED with git's message, credentials in
//     URLs blanked out. The remote-tracking ref git updates must not be a planted link (metadata.ts).
import { YardError, isYardError } from "../errors";
import { firstLine, runGit } from "./git";
import { withRepoLock } from "./lock";
import { checkWritableMetadata } from "./metadata";
import { branchTip, validateBranchName } from "./refs";
import { inspectRepo } from "./repo";

const PUSH_TIMEOUT_MS = 300_000;

async function listRemotes(repoRoot: string): Promise<string[]> {
  return (await runGit(["remote"], { cwd: repoRoot })).stdout
    .split("\n")
    .map((s) => s.trim())
    .filter(Boolean);
}

function noRemote(message: string, details: Record<string, unknown>): YardError {
  return new YardError("NO_REMOTE", message, details);
}

async function requireRemote(repoRoot: string, name: string): Promise<string> {
  const remotes = await listRemotes(repoRoot);
  if (!remotes.includes(name))
    throw noRemote(
      remotes.length
        ? `The repository has no remote '${name}'; its remotes: ${remotes.join(", ")}`
        : `The repository has no remote '${name}' (it has none: add one with git remote add)`,
      { remote: name, remotes },
    );
  return name;
}

export async function upstreamOf(repoRoot: string, branch: string): Promise<{ remote: string; branch: string } | null> {
  await validateBranchName(branch);
  const r = await runGit(
    ["for-each-ref", "--format=%(upstream:remotename)%00%(upstream:remoteref)", `refs/heads/${branch}`],
    { cwd: repoRoot, allowFail: true },
  );
  const [remote, ref] = firstLine(r.stdout).split("\0");
  if (!remote || !ref?.startsWith("refs/heads/")) return null;
  return { remote, branch: ref.slice("refs/heads/".length) };
}

export async function defaultRemote(repoRoot: string, target: string | null): Promise<string> {
  const remotes = await listRemotes(repoRoot);
  const upstream = target ? await upstreamOf(repoRoot, target).catch(() => null) : null;
  if (upstream && remotes.includes(upstream.remote)) return upstream.remote;
  if (remotes.includes("origin")) return "origin";
  throw noRemote(
    remotes.length
      ? `Which remote? ${target ? `'${target}' tracks no remote branch` : "The task has no target branch"} and there is no 'origin'; name one of: ${remotes.join(", ")}`
      : "The repository has no remote to push to: add one (git remote add origin URL), then push again",
    { remotes },
  );
}

/** The commit of refs/remotes/<remote>/<branch>, or null when there is none. */
export async function remoteTracking(repoRoot: string, remote: string, branch: string): Promise<string | null> {
  await validateBranchName(branch);
  const r = await runGit(["rev-parse", "-q", "--verify", `refs/remotes/${remote}/${branch}^{commit}`], {
    cwd: repoRoot,
    allowFail: true,
  });
  return r.code === 0 ? firstLine(r.stdout).trim() || null : null;
}

export async function remoteUrls(
  repoRoot: string,
  remote: string,
): Promise<{ configured: string | null; effective: string | null }> {
  const [configured, effective] = await Promise.all([
    runGit(["config", "--get", `remote.${remote}.url`], { cwd: repoRoot, allowFail: true }),
    runGit(["remote", "get-url", "--", remote], { cwd: repoRoot, allowFail: true }),
  ]);
  const line = (r: { code: number; stdout: string }) => (r.code === 0 ? firstLine(r.stdout).trim() || null : null);
  return { configured: line(configured), effective: line(effective) };
}

/** Text from git about a remote with any `user:password@` (or token@) in its URLs blanked out. */
export function withoutCredentials(s: string): string {
  return s.replace(/([a-z][a-z0-9+.-]*:\/\/)[^/@\s]+@/gi, "$1***@");
}

export interface PushInput {
  repoRoot: string;
  remote: string;
  branch: string;
  remoteBranch: string;
  /** Force, but only while the remote branch is still at `expect` ("" = it must not exist). */
  lease?: { expect: string } | null;
}

export type PushStatus = "new" | "updated" | "forced" | "up_to_date";

const STATUS: Record<string, PushStatus> = { "*": "new", " ": "updated", "+": "forced", "=": "up_to_date" };

export async function pushBranch(input: PushInput): Promise<{ commit: string; status: PushStatus }> {
  const repo = await inspectRepo(input.repoRoot);
  const [branch, remoteBranch] = await Promise.all([
    validateBranchName(input.branch),
    validateBranchName(input.remoteBranch, "remote branch"),
  ]);
  await requireRemote(repo.root, input.remote);
  const remote = input.remote;
  const lease = input.lease ?? null;
  if (lease && lease.expect !== "" && !/^[0-9a-f]{40,64}$/.test(lease.expect))
    throw new YardError("BAD_PARAMS", "a lease's expected commit must be a full object id", { expect: lease.expect });

  return withRepoLock(repo.commonDir, async () => {
    const commit = await branchTip(repo.root, branch);
    if (!commit) throw new YardError("NOT_FOUND", `The task's branch '${branch}' does not exist`, { branch });
    // git updates refs/remotes/<remote>/<branch> (and its reflog) after the push.
    await checkWritableMetadata(repo.commonDir, [`refs/remotes/${remote}/${remoteBranch}`]);
    const dst = `refs/heads/${remoteBranch}`;
    const args = [
      // The person asked for this push to their own remote: a local-path remote is allowed.
      "-c",
      "protocol.file.allow=user",
      "push",
      "--porcelain",
      "--recurse-submodules=no",
      ...(lease ? [`--force-with-lease=${dst}:${lease.expect}`] : []),
      remote,
      `${commit}:${dst}`,
    ];
    let r: { stdout: string; stderr: string; code: number };
    try {
      r = await runGit(args, { cwd: repo.root, allowFail: true, timeoutMs: PUSH_TIMEOUT_MS });
    } catch (e) {
      if (isYardError(e)) throw new YardError(e.code, withoutCredentials(e.message), { remote, branch, remoteBranch });
      throw e;
    }
    const line = r.stdout.split("\n").find((l) => /^[ *+=!-]\t/.test(l) && l.includes(`:${dst}\t`));
    const flag = line?.[0];
    if (r.code === 0 && flag && STATUS[flag]) return { commit, status: STATUS[flag]! };
    if (flag === "!") {
      const summary = line!.split("\t")[2] ?? "";
      const reason = /\(([^)]*)\)\s*$/.exec(summary)?.[1] ?? summary;
      throw rejection(remote, remoteBranch, reason, Boolean(lease));
    }
    const message = withoutCredentials(
      (r.stderr.split("\n").find((l) => /^(fatal|error):/.test(l.trim())) ?? r.stderr.split("\n")[0] ?? "").trim(),
    );
    throw new YardError(
      "GIT_FAILED",
      `git push to '${remote}' failed (exit ${r.code})${message ? `: ${message}` : ""}`,
      {
        remote,
        branch,
        remoteBranch,
        code: r.code,
        stderr: withoutCredentials(r.stderr).slice(-4000),
      },
    );
  });
}

function rejection(remote: string, remoteBranch: string, reason: string, leased: boolean): YardError {
  const where = `${remote}/${remoteBranch}`;
  const details = { remote, remoteBranch, reason };
  if (/stale info/.test(reason))
    return new YardError(
      "CONFLICT",
      `${where} changed since Switchyard last pushed it (someone else pushed there): nothing was overwritten; fetch it and look before forcing`,
      details,
    );
  if (/non-fast-forward|fetch first/.test(reason))
    return new YardError(
      "CONFLICT",
      leased
        ? `${where} was not overwritten (${reason})`
        : `${where} has commits the task's branch does not (${reason}): push with --force-with-lease to replace it (only while it holds what Switchyard pushed), or bring those commits in`,
      details,
    );
  return new YardError("CONFLICT", `${remote} refused the push to ${remoteBranch}: ${reason}`, details);
}
