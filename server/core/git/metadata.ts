// Checks on repository metadata an agent can write, made before the host's git reads or writes
// it. A sandboxed agent may write its worktree, the repository's objects/ and refs/ and its own
// worktrees/<name>/ (its reflogs are its own, see core/sandbox/argv.ts); an unsandboxed one may
// write anything. The host's git follows symbolic links in those places (it appends a reflog
// line through one, creates a loose object inside a linked directory) and blocks on a FIFO, so:
//
//   checkWritableMetadata(commonDir, refs) -> void
//     before a merge or a branch deletion: the reflogs git will append to (logs/HEAD and
//     logs/<ref> for each ref) and every directory above them, the ref files' directories, and
//     the object store (checkObjectStore) are no symbolic links and hold no special files where
//     git writes; CONFLICT { path, found } names the first that is not.
//   checkObjectStore(commonDir) -> void
//     before anything that writes objects (a diff's `git add` into a temporary index, a
//     snapshot's write-tree): objects/ and its fan-out, pack and info directories are real
//     directories.
//   neutralizeWorktreeRecords(commonDir) -> removed paths
//     before the host's git reads the worktree records (`git worktree list` reads every
//     worktree's HEAD and lock file, a removal reads its index): a FIFO, socket, device or
//     link where git keeps a linked worktree's HEAD, index or `locked` file is removed. It holds
//     no data (a link's target is left alone) and git would block on it or read through it; a
//     worktree left without HEAD is one git then sees as broken, which is what its agent made.
//   checkReadableGitDir(gitDir) -> void
//     before a diff or a snapshot: the worktree's HEAD is a regular file (a FIFO there would
//     hold git until its timeout); BAD_PARAMS { path, found } otherwise.
import { promises as fsp } from "node:fs";
import path from "node:path";
import { YardError } from "../errors";
import { readRegularFile } from "../safe-fs";

type Kind = "missing" | "file" | "dir" | "symlink" | "special";

async function kindOf(p: string): Promise<Kind> {
  try {
    const st = await fsp.lstat(p);
    if (st.isSymbolicLink()) return "symlink";
    if (st.isDirectory()) return "dir";
    if (st.isFile()) return "file";
    return "special";
  } catch {
    return "missing";
  }
}

const DESCRIBE: Record<Kind, string> = {
  missing: "missing",
  file: "a regular file",
  dir: "a directory",
  symlink: "a symbolic link",
  special: "a FIFO, socket or device",
};

function unsafe(p: string, found: Kind): YardError {
  return new YardError(
    "CONFLICT",
    `${p} is ${DESCRIBE[found]}, where git keeps its own files: Switchyard's git will not write through it (an agent may have planted it; remove it and try again)`,
    { path: p, found },
  );
}

/** Every existing component from `base` (exclusive) down to `rel` must be a directory; the last may be `last`. */
async function checkChain(base: string, rel: string, last: readonly Kind[]): Promise<void> {
  const parts = rel.split("/").filter(Boolean);
  let at = base;
  for (let i = 0; i < parts.length; i++) {
    at = path.join(at, parts[i]!);
    const k = await kindOf(at);
    if (k === "missing") return;
    const allowed: readonly Kind[] = i === parts.length - 1 ? last : ["dir"];
    if (!allowed.includes(k)) throw unsafe(at, k);
  }
}

export async function checkWritableMetadata(commonDir: string, refs: readonly string[]): Promise<void> {
  for (const ref of ["HEAD", ...refs]) {
    await checkChain(commonDir, `logs/${ref}`, ["file"]);
    if (ref !== "HEAD") await checkChain(commonDir, ref, ["file"]);
  }
  await checkObjectStore(commonDir);
}

export async function checkObjectStore(commonDir: string): Promise<void> {
  await checkChain(commonDir, "objects", ["dir"]);
  const objects = path.join(commonDir, "objects");
  let names: string[] = [];
  try {
    names = await fsp.readdir(objects);
  } catch {
    return;
  }
  for (const n of names) {
    if (!/^[0-9a-f]{2}$|^pack$|^info$/.test(n)) continue;
    const k = await kindOf(path.join(objects, n));
    // Gone since the listing (a gc packing loose objects meanwhile): nothing planted there.
    if (k !== "dir" && k !== "missing") throw unsafe(path.join(objects, n), k);
  }
}

const WORKTREE_FILES = ["HEAD", "index", "locked"] as const;

export async function neutralizeWorktreeRecords(commonDir: string): Promise<string[]> {
  const dir = path.join(commonDir, "worktrees");
  let names: string[];
  try {
    names = await fsp.readdir(dir);
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const n of names) {
    for (const f of WORKTREE_FILES) {
      const p = path.join(dir, n, f);
      const k = await kindOf(p);
      if (k === "missing" || k === "file") continue;
      if (k === "dir") continue; // git refuses a directory there by itself, without blocking
      await fsp.unlink(p).then(
        () => removed.push(p),
        () => {},
      );
    }
  }
  return removed;
}

/** The common git dir of a checkout (main or linked): its `.git` directory, or where its `.git` file leads. */
export async function commonDirOfCheckout(root: string): Promise<string | null> {
  const dotgit = path.join(root, ".git");
  const k = await kindOf(dotgit);
  if (k === "dir") return commonDirOf(dotgit);
  if (k !== "file") return null;
  const read = await readRegularFile(dotgit, { maxBytes: 4096 });
  const m = read.ok ? /^gitdir: (.+)$/m.exec(read.value.toString("utf8")) : null;
  return m ? commonDirOf(path.resolve(root, m[1]!.trim())) : null;
}

/**
 * The common git dir of a worktree whose git dir is `gitDir`: where its `commondir` file points
 * (read as a regular file, at most 4 KiB), or gitDir itself for a main worktree.
 */
export async function commonDirOf(gitDir: string): Promise<string> {
  const read = await readRegularFile(path.join(gitDir, "commondir"), { maxBytes: 4096 });
  if (!read.ok) return gitDir;
  return path.resolve(gitDir, read.value.toString("utf8").trim());
}

export async function checkReadableGitDir(gitDir: string): Promise<void> {
  const head = path.join(gitDir, "HEAD");
  const k = await kindOf(head);
  if (k !== "file") {
    throw new YardError(
      "BAD_PARAMS",
      `${head} is ${DESCRIBE[k]}, not the regular file git keeps there (an agent may have replaced it)`,
      { path: head, found: k },
    );
  }
}
