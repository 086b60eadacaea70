// Turn snapshots in git: a task worktree's state at the end of an agent's turn, kept as a commit on
// a hidden ref of the task's repository, and the restore of a worktree's files to such a state.
//
//   turnRef(taskId, n) -> "refs/switchyard/tasks/<taskId>/turn-<n>"
//   treeOfCommit({ repoRoot, commit }) -> the commit's tree id
//   commitSnapshot({ repoRoot, tree, parent, ref, message }) -> commit id
//     `git commit-tree` (a fixed identity, never signed: nothing of the user's is asked for),
//     then the ref set to it. The tree comes from worktreeTree (diff.ts): tracked and untracked
//     files, ignored ones left out, written through a private copy of the worktree's index.
//   pruneTurnRefs({ repoRoot, taskId }) -> how many refs went (every ref under the task's prefix)
//   restoreWorktree({ worktreePath, tree }) -> { from }
//     the worktree's files become `tree`'s: in a private index holding the worktree as it is now
//     (`from`), `git read-tree -m -u from tree` rewrites the files that differ, removes those
//     `tree` lacks and creates those it has. The agent's own index, HEAD and branch are not
//     touched: a revert is a working-tree restore, never a reset. git refuses (CONFLICT here,
//     nothing changed) when a file changed between the two steps or an ignored file would be
//     overwritten.
//
// The refs live outside refs/heads and refs/tags, so neither `git push` of a branch, `push
// --all`/`--tags` nor a clone or fetch with the default refspecs carries them. The worktree and
// the refs are agent-writable (docs/security.md): the ref and its reflog directories are checked
// for planted links first, update-ref runs with --no-deref (a symbolic ref planted at a turn's
// name is replaced, never followed to a branch) and writes no reflog; git itself never writes
// through a symbolic link in the worktree (it removes the link and creates the directory), and
// FIFOs, sockets and devices are not recorded by `git add` and so never opened.
import { YardError } from "../errors";
import { withWorktreeIndex } from "./diff";
import { gitStderr, isHexObjectId, runGit } from "./git";
import { checkWritableMetadata, commonDirOfCheckout } from "./metadata";
import { requireAbsolutePath } from "./paths";

const PREFIX = "refs/switchyard/tasks";

/** Who snapshot commits are by: fixed, so the user's identity and signing settings are never needed. */
const IDENTITY = {
  GIT_AUTHOR_NAME: "Switchyard",
  GIT_AUTHOR_EMAIL: "switchyard@localhost",
  GIT_COMMITTER_NAME: "Switchyard",
  GIT_COMMITTER_EMAIL: "switchyard@localhost",
};

/** No reflog for the hidden refs, whatever core.logAllRefUpdates says. */
const NO_REFLOG = ["-c", "core.logAllRefUpdates=false"];

const taskPrefix = (taskId: string): string => {
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(taskId)) throw new YardError("BAD_PARAMS", "bad task id", { taskId });
  return `${PREFIX}/${taskId}/`;
};

export function turnRef(taskId: string, n: number): string {
  if (!Number.isInteger(n) || n < 1) throw new YardError("BAD_PARAMS", "a turn number is a whole number from 1");
  return `${taskPrefix(taskId)}turn-${n}`;
}

export async function treeOfCommit(input: { repoRoot: string; commit: string }): Promise<string> {
  const root = requireAbsolutePath(input.repoRoot, "repoRoot");
  if (!isHexObjectId(input.commit)) throw new YardError("BAD_PARAMS", "commit must be a hex object id");
  const r = await runGit(["rev-parse", "--verify", "--quiet", `${input.commit}^{tree}`], {
    cwd: root,
    allowFail: true,
  });
  if (r.code !== 0)
    throw new YardError("CONFLICT", `The commit ${input.commit} is no longer in this repository`, {
      commit: input.commit,
    });
  return r.stdout.trim();
}

async function commonDir(root: string): Promise<string> {
  const known = await commonDirOfCheckout(root);
  if (known) return known;
  const r = await runGit(["rev-parse", "--path-format=absolute", "--git-common-dir"], { cwd: root });
  return r.stdout.trim();
}

export async function commitSnapshot(input: {
  repoRoot: string;
  tree: string;
  parent: string;
  ref: string;
  message: string;
}): Promise<string> {
  const root = requireAbsolutePath(input.repoRoot, "repoRoot");
  if (!isHexObjectId(input.tree) || !isHexObjectId(input.parent))
    throw new YardError("BAD_PARAMS", "tree and parent must be hex object ids");
  if (!input.ref.startsWith(`${PREFIX}/`)) throw new YardError("BAD_PARAMS", "not a turn snapshot ref");
  // commit-tree and update-ref write objects and a ref file: nothing may be planted on their way.
  await checkWritableMetadata(await commonDir(root), [input.ref]);
  const commit = (
    await runGit(["commit-tree", "--no-gpg-sign", "-p", input.parent, "-m", input.message, input.tree], {
      cwd: root,
      env: IDENTITY,
    })
  ).stdout.trim();
  await runGit([...NO_REFLOG, "update-ref", "--no-deref", "-m", "switchyard: turn snapshot", input.ref, commit], {
    cwd: root,
  });
  return commit;
}

export async function pruneTurnRefs(input: { repoRoot: string; taskId: string }): Promise<number> {
  const root = requireAbsolutePath(input.repoRoot, "repoRoot");
  const prefix = taskPrefix(input.taskId);
  const refs = (await runGit(["for-each-ref", "--format=%(refname)", prefix], { cwd: root })).stdout
    .split("\n")
    .filter((r) => r.startsWith(prefix));
  if (!refs.length) return 0;
  await checkWritableMetadata(await commonDir(root), refs);
  // Ref names hold no whitespace (git refuses them), so one per line is exact.
  const script = refs.map((r) => `option no-deref\ndelete ${r}\n`).join("");
  await runGit([...NO_REFLOG, "update-ref", "--stdin"], { cwd: root, input: script });
  return refs.length;
}

/** git's words when read-tree refuses to touch a file (changed meanwhile, or untracked in the way). */
const REFUSED = /not uptodate|would be overwritten|would be removed|cannot merge/i;

export async function restoreWorktree(input: { worktreePath: string; tree: string }): Promise<{ from: string }> {
  const wt = requireAbsolutePath(input?.worktreePath, "worktreePath");
  if (!isHexObjectId(input.tree)) throw new YardError("BAD_PARAMS", "tree must be a hex object id");
  return withWorktreeIndex(wt, async (env) => {
    const from = (await runGit(["write-tree"], { cwd: wt, env })).stdout.trim();
    if (from === input.tree) return { from };
    try {
      await runGit(["-c", "core.splitIndex=false", "read-tree", "-m", "-u", from, input.tree], { cwd: wt, env });
    } catch (e) {
      const stderr = gitStderr(e);
      if (!REFUSED.test(stderr)) throw e;
      throw new YardError(
        "CONFLICT",
        `The worktree's files could not be restored: ${stderr.split("\n").find((l) => l.trim()) ?? "git refused"}`,
        { stderr: stderr.slice(0, 2000) },
      );
    }
    return { from };
  });
}
