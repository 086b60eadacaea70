// Filesystem paths for the git layer: validating caller-supplied paths, turning branch
// names into folder names, and the default worktree location
//   <yardHome>/worktrees/<repo-dir>-<hash8 of the repo's realpath>/<sanitized branch>
// Pure except for realpath/stat look-ups, which are named as such.

import { createHash } from "node:crypto";
import { realpathSync, promises as fsp } from "node:fs";
import path from "node:path";
import { YardError } from "../errors";

/** Validate a caller-supplied path: non-empty string, absolute, no NUL/CR/LF. Returns it normalized. */
export function requireAbsolutePath(p: unknown, what = "path"): string {
  if (typeof p !== "string" || p.length === 0)
    throw new YardError("BAD_PARAMS", `${what} must be a non-empty string`, { [what]: p ?? null });
  if (/[\0\r\n]/.test(p)) throw new YardError("BAD_PARAMS", `${what} contains a control character`, { [what]: p });
  if (!path.isAbsolute(p)) throw new YardError("BAD_PARAMS", `${what} must be an absolute path`, { [what]: p });
  return path.resolve(p);
}

/** realpath when the path exists, else the resolved path. */
function realpathOrResolve(p: string): string {
  try {
    return realpathSync.native(p);
  } catch {
    return path.resolve(p);
  }
}

export async function realpathOrResolveAsync(p: string): Promise<string> {
  try {
    return await fsp.realpath(p);
  } catch {
    return path.resolve(p);
  }
}

const SAFE_SEGMENT = /^[A-Za-z0-9._-]+$/;

/**
 * One folder name for a branch. Characters outside [A-Za-z0-9._-] (including '/') become
 * '-'. When that changed anything, an 8-hex hash of the original name is appended so two
 * different branches never share a folder ("feat/x" -> "feat-x-1a2b3c4d", while "feat-x"
 * stays "feat-x"). Never empty, never starts with '.' or '-', at most ~100 characters.
 */
export function sanitizeBranchForPath(name: string): string {
  if (SAFE_SEGMENT.test(name) && !name.startsWith(".") && !name.startsWith("-") && name.length <= 100) return name;
  let s = name
    .replace(/[^A-Za-z0-9._-]+/g, "-")
    .replace(/-{2,}/g, "-")
    .replace(/^[.-]+/, "")
    .replace(/[.-]+$/, "");
  if (s.length > 90) s = s.slice(0, 90).replace(/[.-]+$/, "");
  const h = shortHash(name);
  return s ? `${s}-${h}` : `branch-${h}`;
}

export function shortHash(s: string, len = 8): string {
  return createHash("sha256").update(s).digest("hex").slice(0, len);
}

/** Folder-safe version of a repository directory name. */
function repoDirLabel(root: string): string {
  const base = path.basename(root) || "repo";
  const s = base
    .replace(/[^A-Za-z0-9._-]+/g, "-")
    .replace(/^[.-]+/, "")
    .slice(0, 60);
  return s || "repo";
}

/** `<yardHome>/worktrees/<repo-dir-name>-<short hash of the repo realpath>` (repoRoot is realpath'd when it exists). */
export function defaultWorktreeRoot(yardHome: string, repoRoot: string): string {
  const home = requireAbsolutePath(yardHome, "yardHome");
  const real = realpathOrResolve(requireAbsolutePath(repoRoot, "repoRoot"));
  return path.join(home, "worktrees", `${repoDirLabel(real)}-${shortHash(real)}`);
}

/** defaultWorktreeRoot(...)/<sanitizeBranchForPath(branch)> */
export function defaultWorktreePath(yardHome: string, repoRoot: string, branch: string): string {
  return path.join(defaultWorktreeRoot(yardHome, repoRoot), sanitizeBranchForPath(branch));
}

export type DirState = "missing" | "empty-dir" | "non-empty-dir" | "not-a-dir";

export async function dirState(p: string): Promise<DirState> {
  let st;
  try {
    st = await fsp.lstat(p);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return "missing";
    throw e;
  }
  if (!st.isDirectory()) return "not-a-dir";
  const entries = await fsp.readdir(p);
  return entries.length === 0 ? "empty-dir" : "non-empty-dir";
}

/** mkdir -p that returns the top-most directory it had to create (undefined if none). */
export async function mkdirpTracked(dir: string): Promise<string | undefined> {
  const first = await fsp.mkdir(dir, { recursive: true });
  return first ?? undefined;
}

/** Remove now-empty directories from `from` up to and including `top`. Best effort. */
export async function rmdirUpTo(from: string, top: string | undefined): Promise<void> {
  if (!top) return;
  let cur = path.resolve(from);
  const stop = path.resolve(top);
  if (cur !== stop && !cur.startsWith(stop + path.sep)) return;
  for (;;) {
    try {
      await fsp.rmdir(cur);
    } catch {
      return;
    }
    if (cur === stop) return;
    cur = path.dirname(cur);
  }
}
