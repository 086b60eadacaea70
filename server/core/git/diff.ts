// A task's changes: its worktree (committed on the branch, staged, unstaged and untracked
// non-ignored files) against the recorded base commit, without touching the worktree's own
// index.
//
//   diffWorktree({ worktreePath, baseSha }) -> { diff, files }
//     diff: unified text like `git diff` (a/ b/ prefixes, renames detected, binary files as
//           "Binary files ... differ"; no colour, no external diff or textconv drivers)
//     files: [{ path, status: added|modified|deleted|renamed, oldPath?, additions, deletions, binary }]
//   diffWorktreeStat({ worktreePath, baseSha }) -> { files, totals: { files, additions, deletions } }
//   diffCommits({ repoRoot, baseSha, tip }) -> { diff, files }
//     the same shapes between two commits (a task whose worktree is gone: its branch or merge;
//     two turn snapshots); diffCommitsStat: the files only
//   worktreeTree({ worktreePath }) -> tree id
//     the worktree's whole state (as the diff sees it) written as a tree object: a snapshot a
//     later diff can start from ("changes since the last review", a turn's snapshot)
//   withWorktreeIndex(wt, fn): fn runs with GIT_INDEX_FILE at such a private copy (a revert's
//     checkout runs in one)
//   uncommittedFiles({ worktreePath }) -> paths not committed (what a merge leaves out, a discard loses)
//   diffWorktreeSince({ worktreePath, tree }) -> { diff, files }
//   diffTreeToCommit({ repoRoot, tree, tip }) -> { diff, files }
//     the same shapes from such a snapshot to the worktree now, or to a commit
//
// How: the worktree's index is copied to a temp file (mtime set just at or below the original's,
// so git's racy-entry checks stay as strict as with the original), GIT_INDEX_FILE points at the
// copy, `git add -A` records the work tree in it, and one `git diff --cached -z --raw -p <base>`
// gives exact paths/statuses (raw) plus the text, from which line counts are taken (the stat
// variant uses --numstat instead of -p); `git write-tree` on the same copy gives the snapshot.
// Copying rather than rebuilding keeps the stat cache, so only changed files are re-hashed.
// The real index is only read; `add -A` and `write-tree` do write objects into the object store
// (harmless; unreferenced objects are gc'd after git's prune delay, two weeks by default, so a
// snapshot older than that may be gone: BAD_PARAMS then). A worktree with no index starts from
// `read-tree HEAD`.
// NOT_FOUND when the worktree directory is missing, BAD_PARAMS for a bad base.

import { randomBytes } from "node:crypto";
import { constants as fsConstants, promises as fsp } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { z } from "zod";
import type { diffFile } from "../../wire/tasks";
import { YardError } from "../errors";
import { openRegularFile, readRegularFile } from "../safe-fs";
import { gitStderr, isHexObjectId, runGit } from "./git";
import { checkObjectStore, checkReadableGitDir, commonDirOf } from "./metadata";
import { requireAbsolutePath } from "./paths";

/** One changed file of a diff, as the wire carries it (server/wire/tasks.ts). */
export type DiffFile = z.infer<typeof diffFile>;
type DiffFileStatus = DiffFile["status"];

export interface WorktreeDiff {
  diff: string;
  files: DiffFile[];
}

export interface DiffTotals {
  files: number;
  additions: number;
  deletions: number;
}

export interface WorktreeDiffStat {
  files: DiffFile[];
  totals: DiffTotals;
}

export interface DiffWorktreeInput {
  worktreePath: string;
  baseSha: string;
}

const DIFF_CONFIG = ["-c", "diff.noprefix=false", "-c", "diff.mnemonicPrefix=false", "-c", "diff.relative=false"];
const DIFF_FLAGS = [
  "--cached",
  "-M",
  "--no-color",
  "--no-ext-diff",
  "--no-textconv",
  "--src-prefix=a/",
  "--dst-prefix=b/",
  "-z",
  "--raw",
];

export async function diffWorktree(input: DiffWorktreeInput): Promise<WorktreeDiff> {
  const { files, patch } = await runDiff({ worktreePath: input?.worktreePath, baseSha: input?.baseSha }, true);
  return { diff: patch, files };
}

export async function diffWorktreeStat(input: DiffWorktreeInput): Promise<WorktreeDiffStat> {
  const { files } = await runDiff({ worktreePath: input?.worktreePath, baseSha: input?.baseSha }, false);
  return { files, totals: totalsOf(files) };
}

/** Committed changes from `baseSha` to `tip` (a branch or commit), with the same statuses, renames and binary detection. */
export async function diffCommits(input: { repoRoot: string; baseSha: string; tip: string }): Promise<WorktreeDiff> {
  return diffRevs(requireAbsolutePath(input?.repoRoot, "repoRoot"), { baseSha: input.baseSha }, input.tip);
}

/** The files of diffCommits with their line counts, without the patch text. */
export async function diffCommitsStat(input: { repoRoot: string; baseSha: string; tip: string }): Promise<DiffFile[]> {
  return (
    await diffRevs(requireAbsolutePath(input?.repoRoot, "repoRoot"), { baseSha: input.baseSha }, input.tip, false)
  ).files;
}

/** The changes from a snapshot (worktreeTree) to a commit: a reviewed round's worktree once it is gone. */
export async function diffTreeToCommit(input: { repoRoot: string; tree: string; tip: string }): Promise<WorktreeDiff> {
  return diffRevs(requireAbsolutePath(input?.repoRoot, "repoRoot"), { tree: input.tree }, input.tip);
}

async function diffRevs(root: string, fromInput: DiffFrom, tip: string, withPatch = true): Promise<WorktreeDiff> {
  const from = fromRev(fromInput);
  const flags = DIFF_FLAGS.filter((f) => f !== "--cached");
  const run = async (extra: string[]) => {
    try {
      return (
        await runGit([...DIFF_CONFIG, "diff", ...flags, ...extra, from.rev, `${tip}^{commit}`, "--"], { cwd: root })
      ).stdout;
    } catch (e) {
      if ("tree" in fromInput && BAD_REVISION.test(gitStderr(e)))
        throw new YardError("BAD_PARAMS", from.badMessage, { ...from.details, tip });
      throw e;
    }
  };
  if (!withPatch) return { diff: "", files: parseRawNumstatZ(await run(["--numstat"])).files };
  const parsed = parseRawPatchZ(await run(["-p"]));
  if (parsed.files) return { diff: parsed.patch, files: parsed.files };
  return { diff: parsed.patch, files: parseRawNumstatZ(await run(["--numstat"])).files };
}

export function totalsOf(files: DiffFile[]): DiffTotals {
  let additions = 0;
  let deletions = 0;
  for (const f of files) {
    additions += f.additions;
    deletions += f.deletions;
  }
  return { files: files.length, additions, deletions };
}

/** The largest worktree index copied for a diff; a larger one (or one that is not a regular file) is not used. */
const MAX_INDEX_BYTES = 512 * 1024 * 1024;

/**
 * Runs `fn` with GIT_INDEX_FILE set to a copy of the worktree's index that records the whole work
 * tree (the turn snapshots and their revert use it too: core/git/turn-snapshots.ts).
 */
export async function withWorktreeIndex<T>(wt: string, fn: (env: Record<string, string>) => Promise<T>): Promise<T> {
  const { index: realIndex, gitDir } = await indexPathOf(wt);
  if (gitDir) {
    // The diff writes blobs (and a snapshot trees) into the object store: nowhere else.
    await checkReadableGitDir(gitDir);
    await checkObjectStore(await commonDirOf(gitDir));
  }
  const tmpIndex = path.join(os.tmpdir(), `yard-index-${process.pid}-${randomBytes(6).toString("hex")}`);
  const env = { GIT_INDEX_FILE: tmpIndex };
  let failed = true;
  try {
    // The index lies in the worktree's git dir, which its agent can write: only a regular file
    // is copied (never through a link, never a FIFO that would hold the copy forever). Anything
    // else is treated as no index: the copy starts from HEAD and every file is hashed afresh.
    const copied = await copyRegularFile(realIndex, tmpIndex);
    if (!copied) await runGit(["read-tree", "HEAD"], { cwd: wt, env, allowFail: true });
    await runGit(["-c", "core.splitIndex=false", "-c", "advice.addEmbeddedRepo=false", "add", "-A"], { cwd: wt, env });
    const result = await fn(env);
    failed = false;
    return result;
  } finally {
    // git removes its own .lock on exit; one can only be left behind if git was killed.
    await Promise.all([
      fsp.rm(tmpIndex, { force: true }),
      failed ? fsp.rm(`${tmpIndex}.lock`, { force: true }) : undefined,
    ]);
  }
}

/**
 * Copies `from` to a new file `to` (0600) when it is a regular file within the cap; false when
 * it is missing or anything else. The copy gets the original's mtime, rounded down (1 µs margin
 * for float rounding): git treats entries not older than the index file as "racily clean" and
 * re-hashes them, so an earlier-or-equal mtime keeps the copy at least as strict as the
 * original. A fresh "now" mtime would not be; a whole-second floor would re-hash every entry
 * written in that second (slow right after a checkout).
 */
async function copyRegularFile(from: string, to: string): Promise<boolean> {
  const src = await openRegularFile(from, { maxBytes: MAX_INDEX_BYTES });
  if (!src.ok) return false;
  const fh = src.value;
  try {
    const st = await fh.stat({ bigint: true });
    const out = await fsp.open(to, fsConstants.O_WRONLY | fsConstants.O_CREAT | fsConstants.O_EXCL, 0o600);
    try {
      const buf = Buffer.alloc(Math.min(1 << 20, Math.max(1, src.size)));
      let at = 0;
      for (;;) {
        const { bytesRead } = await fh.read(buf, 0, buf.length, at);
        if (bytesRead === 0 || at >= MAX_INDEX_BYTES) break;
        await out.write(buf, 0, bytesRead, at);
        at += bytesRead;
      }
    } finally {
      await out.close();
    }
    const t = Number(st.mtimeNs / 1000n - 1n) / 1e6;
    await fsp.utimes(to, t, t);
    return true;
  } finally {
    await fh.close();
  }
}

/** What a diff starts from: a commit (the task's base) or a tree (a review's snapshot). */
type DiffFrom = { baseSha: string } | { tree: string };

function fromRev(from: DiffFrom): { rev: string; badMessage: string; details: Record<string, string> } {
  if ("tree" in from) {
    if (!isHexObjectId(from.tree))
      throw new YardError("BAD_PARAMS", "tree must be a hex object id", { tree: String(from.tree ?? null) });
    return {
      rev: `${from.tree}^{tree}`,
      badMessage: `the snapshot ${from.tree} is no longer in this repository`,
      details: { tree: from.tree },
    };
  }
  if (!isHexObjectId(from.baseSha))
    throw new YardError("BAD_PARAMS", "baseSha must be a hex commit id", { baseSha: String(from.baseSha ?? null) });
  return {
    rev: `${from.baseSha}^{commit}`,
    badMessage: `base ${from.baseSha} is not a commit in this repository`,
    details: { baseSha: from.baseSha },
  };
}

const BAD_REVISION = /bad revision|unknown revision|bad object|not a valid|ambiguous argument|not a tree object/i;

async function runDiff(
  input: { worktreePath: string } & DiffFrom,
  withPatch: boolean,
): Promise<{ files: DiffFile[]; patch: string }> {
  const wt = requireAbsolutePath(input?.worktreePath, "worktreePath");
  const from = fromRev(input);
  return withWorktreeIndex(wt, async (env) => {
    const diff = async (extra: string[]) => {
      try {
        return (await runGit([...DIFF_CONFIG, "diff", ...DIFF_FLAGS, ...extra, from.rev, "--"], { cwd: wt, env }))
          .stdout;
      } catch (e) {
        if (BAD_REVISION.test(gitStderr(e)))
          throw new YardError("BAD_PARAMS", from.badMessage, { ...from.details, worktreePath: wt });
        throw e;
      }
    };
    if (withPatch) {
      // One pass: raw records for exact paths/statuses, the patch for text and line counts
      // (cheaper than having git run every file diff twice for --numstat).
      const parsed = parseRawPatchZ(await diff(["-p"]));
      return parsed.files
        ? { files: parsed.files, patch: parsed.patch }
        : { files: parseRawNumstatZ(await diff(["--numstat"])).files, patch: parsed.patch };
    }
    return parseRawNumstatZ(await diff(["--numstat"]));
  });
}

/** The worktree's current state (tracked and untracked, ignored files left out) as a tree object id. */
export async function worktreeTree(input: { worktreePath: string }): Promise<string> {
  const wt = requireAbsolutePath(input?.worktreePath, "worktreePath");
  return withWorktreeIndex(wt, async (env) => (await runGit(["write-tree"], { cwd: wt, env })).stdout.trim());
}

/**
 * What is not committed in the worktree (staged, unstaged and untracked non-ignored files, as
 * the diff sees them), read through a copy of its index like every diff: the worktree's own
 * index is never opened by git (its agent may have made it a FIFO).
 */
export async function uncommittedFiles(input: { worktreePath: string }): Promise<string[]> {
  const wt = requireAbsolutePath(input?.worktreePath, "worktreePath");
  return withWorktreeIndex(wt, async (env) => {
    const out = (
      await runGit(
        ["diff", "--cached", "--name-only", "--no-renames", "--no-ext-diff", "--no-textconv", "-z", "HEAD", "--"],
        { cwd: wt, env },
      )
    ).stdout;
    return out.split("\0").filter(Boolean);
  });
}

/** The changes from a snapshot (worktreeTree) to the worktree now. */
export async function diffWorktreeSince(input: { worktreePath: string; tree: string }): Promise<WorktreeDiff> {
  const { files, patch } = await runDiff({ worktreePath: input?.worktreePath, tree: input?.tree }, true);
  return { diff: patch, files };
}

/**
 * Where the worktree's index lives (and its git dir, when read from its `.git` file), found
 * without spawning git in the common layouts. NOT_FOUND when wt is missing.
 */
async function indexPathOf(wt: string): Promise<{ index: string; gitDir: string | null }> {
  const dotgit = path.join(wt, ".git");
  try {
    const st = await fsp.lstat(dotgit);
    if (st.isDirectory()) return { index: path.join(dotgit, "index"), gitDir: dotgit };
    if (st.isFile()) {
      const read = await readRegularFile(dotgit, { maxBytes: 4096 });
      const m = read.ok ? /^gitdir: (.+)$/m.exec(read.value.toString("utf8")) : null;
      if (m) {
        const gitDir = path.resolve(wt, m[1]!.trim());
        return { index: path.join(gitDir, "index"), gitDir };
      }
    }
  } catch {
    /* fall through */
  }
  let isDir = false;
  try {
    isDir = (await fsp.stat(wt)).isDirectory();
  } catch {
    /* missing */
  }
  if (!isDir) throw new YardError("NOT_FOUND", `worktree ${wt} does not exist`, { worktreePath: wt });
  try {
    const r = await runGit(["rev-parse", "--git-path", "index"], { cwd: wt });
    return { index: path.resolve(wt, r.stdout.trim()), gitDir: null };
  } catch (e) {
    if (/not a git repository/i.test(gitStderr(e)))
      throw new YardError("BAD_PARAMS", `${wt} is not a git working tree`, { worktreePath: wt });
    throw e;
  }
}

const STATUS_OF: Record<string, DiffFileStatus> = {
  A: "added",
  C: "added",
  D: "deleted",
  M: "modified",
  T: "modified",
  R: "renamed",
  U: "modified",
  X: "modified",
};

interface RawRecord {
  letter: string;
  oldPath: string;
  path: string;
}

/** Read `-z --raw` records from the start of `out`; `next` reads further NUL-terminated fields, `at` is the offset. */
function readRaw(out: string): { raws: RawRecord[]; next: () => string; at: () => number } {
  let i = 0;
  const next = (): string => {
    const j = out.indexOf("\0", i);
    if (j < 0) throw new YardError("GIT_FAILED", "unexpected git diff output (truncated record)", { offset: i });
    const s = out.slice(i, j);
    i = j + 1;
    return s;
  };
  const raws: RawRecord[] = [];
  while (i < out.length && out[i] === ":") {
    const meta = next();
    const letter = (meta.split(" ")[4] ?? "M").charAt(0);
    const p1 = next();
    const p2 = letter === "R" || letter === "C" ? next() : p1;
    raws.push({ letter, oldPath: p1, path: p2 });
  }
  return { raws, next, at: () => i };
}

function fileOf(r: RawRecord, additions: number, deletions: number, binary: boolean): DiffFile {
  const status = STATUS_OF[r.letter] ?? "modified";
  const f: DiffFile = {
    path: r.path,
    status,
    additions: binary ? 0 : additions,
    deletions: binary ? 0 : deletions,
    binary,
  };
  if (status === "renamed") f.oldPath = r.oldPath;
  return f;
}

/**
 * Parse `git diff -z --raw -p`: raw records, a NUL, then the patch. Line counts come from
 * the patch: one "diff --git " section per raw record, in the same order; '+'/'-' lines
 * inside hunks are counted, "Binary files ... differ" marks a binary file. files is null if
 * the sections do not line up with the records (the caller then asks git for --numstat). Pure.
 */
export function parseRawPatchZ(out: string): { files: DiffFile[] | null; patch: string } {
  const { raws, at } = readRaw(out);
  let i = at();
  if (out[i] === "\0") i++;
  const patch = out.slice(i);
  const counts: { add: number; del: number; binary: boolean }[] = [];
  let cur: { add: number; del: number; binary: boolean } | null = null;
  let inHunk = false;
  let pos = 0;
  while (pos < patch.length) {
    let end = patch.indexOf("\n", pos);
    if (end < 0) end = patch.length;
    const c = patch.charCodeAt(pos);
    if (c === 0x64 /* d */ && patch.startsWith("diff --git ", pos)) {
      cur = { add: 0, del: 0, binary: false };
      counts.push(cur);
      inHunk = false;
    } else if (cur) {
      if (inHunk) {
        if (c === 0x2b /* + */) cur.add++;
        else if (c === 0x2d /* - */) cur.del++;
        else if (c !== 0x20 && c !== 0x5c && c !== 0x40 && end > pos) inHunk = false; // not ' ', '\\', '@'
      } else if (c === 0x40 /* @ */ && patch.startsWith("@@ ", pos)) {
        inHunk = true;
      } else if (c === 0x42 /* B */ && patch.startsWith("Binary files ", pos)) {
        cur.binary = true;
      }
    }
    pos = end + 1;
  }
  if (counts.length !== raws.length) return { files: null, patch };
  return { files: raws.map((r, k) => fileOf(r, counts[k]!.add, counts[k]!.del, counts[k]!.binary)), patch };
}

/**
 * Parse `git diff -z --raw --numstat [-p]`: raw records, then one numstat record per raw
 * record (same order), then (with -p) a NUL and the patch text. Pure.
 */
export function parseRawNumstatZ(out: string): { files: DiffFile[]; patch: string } {
  const { raws, next, at } = readRaw(out);
  const files: DiffFile[] = [];
  for (const r of raws) {
    const head = next();
    const t1 = head.indexOf("\t");
    const t2 = head.indexOf("\t", t1 + 1);
    const a = head.slice(0, t1);
    const d = head.slice(t1 + 1, t2);
    if (head.slice(t2 + 1) === "" && (r.letter === "R" || r.letter === "C")) {
      next();
      next();
    }
    const binary = a === "-" && d === "-";
    files.push(fileOf(r, Number(a) || 0, Number(d) || 0, binary));
  }
  let i = at();
  if (out[i] === "\0") i++;
  return { files, patch: out.slice(i) };
}
