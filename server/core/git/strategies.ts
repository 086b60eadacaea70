// What a squash, rebase or fast-forward merge lands on the target, built without touching any
// checkout: merge.ts then moves the target's checkout to it with `git merge --ff-only` (detached,
// like every merge), so a conflict is found before a file of the checkout is written.
//
//   landingCommit({ cwd, strategy, targetBefore, tip, message, identity, branch, target }) -> commit
//     ff      `tip` itself when the target's commit is an ancestor of it; the target's own commit
//             when the branch is already in it; NOT_FAST_FORWARD { branch, target, behind } otherwise.
//     squash  one new commit on the target's commit whose tree is the three-way merge of the two
//             (`git merge-tree --write-tree`), with `message` and the person's identity; the
//             target's commit when that changes nothing.
//     rebase  the branch's own commits (not merges, not those whose change the target already has:
//             `rev-list --cherry-pick --right-only`) replayed one by one on the target's commit,
//             each keeping its author and message, a commit whose change is already there dropped;
//             `tip` itself when the branch is already a line of commits on top of the target.
//             Each step is a three-way merge with the commit's parent as base: merge-tree merges
//             a throwaway commit (the replayed tree with that parent) with the commit, whose
//             merge-base is then exactly the parent (git 2.39's merge-tree takes no --merge-base).
//   Conflicts: MERGE_CONFLICT { files, branch, target, strategy } (nothing was written but objects).
//   Every git call runs through git.ts (its safe configuration); merge-tree runs no hooks or
//   checkout filters, and the objects it writes are unreferenced until the checkout moves.
import type { MergeStrategy } from "../../wire/branches";
import { YardError } from "../errors";
import { firstLine, runGit } from "./git";

export interface LandingInput {
  cwd: string;
  strategy: Exclude<MergeStrategy, "merge">;
  targetBefore: string;
  tip: string;
  /** The squash commit's message. */
  message: string;
  /** `-c user.name=… -c user.email=…` when no identity is configured (git.ts committerIdentityArgs). */
  identity: string[];
  branch: string;
  target: string;
}

export async function landingCommit(i: LandingInput): Promise<string> {
  if (i.tip === i.targetBefore || (await isAncestor(i.cwd, i.tip, i.targetBefore))) return i.targetBefore;
  const onTop = await isAncestor(i.cwd, i.targetBefore, i.tip);
  if (i.strategy === "ff") {
    if (onTop) return i.tip;
    const behind = await count(i.cwd, `${i.tip}..${i.targetBefore}`);
    throw new YardError(
      "NOT_FAST_FORWARD",
      `'${i.target}' has ${behind} commit(s) that '${i.branch}' does not: it cannot be fast-forwarded (update the branch first, or merge another way)`,
      { branch: i.branch, target: i.target, behind },
    );
  }
  if (i.strategy === "squash") {
    const { tree, conflicts } = await mergeTrees(i.cwd, i.targetBefore, i.tip);
    if (conflicts.length) throw conflict(i, conflicts);
    if (tree === (await treeOf(i.cwd, i.targetBefore))) return i.targetBefore;
    return commitTree(i.cwd, tree, i.targetBefore, i.message, { identity: i.identity });
  }
  if (onTop && (await count(i.cwd, `${i.targetBefore}..${i.tip}`, ["--merges"])) === 0) return i.tip;
  return replay(i);
}

/** The branch's own commits replayed on the target's commit, oldest first. */
async function replay(i: LandingInput): Promise<string> {
  const list = await runGit(
    ["rev-list", "--reverse", "--no-merges", "--right-only", "--cherry-pick", `${i.targetBefore}...${i.tip}`],
    { cwd: i.cwd },
  );
  let cur = i.targetBefore;
  let curTree = await treeOf(i.cwd, cur);
  for (const c of list.stdout.split("\n").filter(Boolean)) {
    const meta = (
      await runGit(["log", "-1", "--date=raw", "--format=%P%x00%an%x00%ae%x00%ad%x00%B", c], { cwd: i.cwd })
    ).stdout;
    const [parents = "", name = "", email = "", date = ""] = meta.split("\0", 4);
    const message = meta.split("\0").slice(4).join("\0").replace(/\n$/, "");
    const parent = parents.split(" ")[0]!;
    // A commit whose tree is the one replayed so far, on the commit's own parent: merging it with
    // the commit makes that parent the merge-base, which is what a cherry-pick merges from.
    const base = await commitTree(i.cwd, curTree, parent, "switchyard: rebase step", { identity: i.identity });
    const { tree, conflicts } = await mergeTrees(i.cwd, base, c);
    if (conflicts.length) throw conflict(i, conflicts, c);
    if (tree === curTree) continue; // its change is there already
    cur = await commitTree(i.cwd, tree, cur, message || "(no message)", {
      identity: i.identity,
      author: { GIT_AUTHOR_NAME: name, GIT_AUTHOR_EMAIL: email, GIT_AUTHOR_DATE: date },
    });
    curTree = tree;
  }
  return cur;
}

function conflict(i: LandingInput, files: string[], commit?: string): YardError {
  const what = i.strategy === "squash" ? "Squashing" : "Rebasing";
  return new YardError(
    "MERGE_CONFLICT",
    `${what} '${i.branch}' onto '${i.target}' conflicts in ${files.length} file(s); nothing was merged`,
    { files, branch: i.branch, target: i.target, strategy: i.strategy, ...(commit ? { commit } : {}) },
  );
}

/** The three-way merge of two commits as a tree, and the files that conflict (the tree then holds markers). */
async function mergeTrees(cwd: string, ours: string, theirs: string): Promise<{ tree: string; conflicts: string[] }> {
  const r = await runGit(["merge-tree", "--write-tree", "--name-only", "--no-messages", "-z", ours, theirs], {
    cwd,
    allowFail: true,
  });
  const parts = r.stdout.split("\0");
  const tree = parts[0]?.trim() ?? "";
  if ((r.code !== 0 && r.code !== 1) || !/^[0-9a-f]{40,64}$/.test(tree))
    throw new YardError("GIT_FAILED", `git merge-tree failed (exit ${r.code}): ${firstLine(r.stderr.trim())}`, {
      args: ["merge-tree", ours, theirs],
      code: r.code,
      stderr: r.stderr,
    });
  const conflicts: string[] = [];
  if (r.code === 1) for (const p of parts.slice(1)) if (p && !conflicts.includes(p)) conflicts.push(p);
  return { tree, conflicts };
}

async function commitTree(
  cwd: string,
  tree: string,
  parent: string,
  message: string,
  o: { identity: string[]; author?: Record<string, string> },
): Promise<string> {
  const r = await runGit([...o.identity, "commit-tree", tree, "-p", parent, "-F", "-"], {
    cwd,
    input: `${message}\n`,
    ...(o.author ? { env: o.author } : {}),
  });
  return firstLine(r.stdout).trim();
}

async function treeOf(cwd: string, commit: string): Promise<string> {
  return firstLine((await runGit(["rev-parse", `${commit}^{tree}`], { cwd })).stdout).trim();
}

async function isAncestor(cwd: string, a: string, b: string): Promise<boolean> {
  return (await runGit(["merge-base", "--is-ancestor", a, b], { cwd, allowFail: true })).code === 0;
}

async function count(cwd: string, range: string, extra: string[] = []): Promise<number> {
  return Number(firstLine((await runGit(["rev-list", "--count", ...extra, range], { cwd })).stdout).trim()) || 0;
}
