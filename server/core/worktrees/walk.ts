// A directory tree's size on disk, as `du -sx` counts it, for the worktrees page: a walk with
// lstat that never follows a link (a link counts as itself), never leaves the tree's file system,
// counts a hard-linked file once, and is bounded (at most `maxEntries` entries and `maxDepth`
// levels: past either it stops and says `truncated`, the size is then a lower bound). Everything
// in a task's worktree is the agent's: a FIFO or device is only lstat'ed, never opened, and a
// directory is opened with O_NOFOLLOW (one swapped for a link between its lstat and its opening is
// skipped, not followed). Nothing is read but directory listings and inode metadata.
//
//   measureTree(root, limits?, signal?) -> { bytes, files, truncated } | null (root missing)

import { constants as fsConstants, existsSync, promises as fsp, type Stats } from "node:fs";
import type { FileHandle } from "node:fs/promises";
import path from "node:path";

export interface WalkLimits {
  maxEntries: number;
  maxDepth: number;
}

export interface TreeSize {
  /** Allocated bytes (st_blocks * 512). */
  bytes: number;
  /** Entries that are not directories. */
  files: number;
  truncated: boolean;
}

export const WALK_LIMITS: WalkLimits = { maxEntries: 500_000, maxDepth: 64 };

/** How many lstat calls are in flight at once (libuv's pool has 4 threads, shared with the rest of the server). */
const PARALLEL = 8;
/** /proc/self/fd lists an open directory by its descriptor (Linux); elsewhere the path is listed. */
const PROC_FD = existsSync("/proc/self/fd");

const diskBytes = (s: Stats) => (Number.isFinite(s.blocks) ? s.blocks * 512 : s.size);

export async function measureTree(
  root: string,
  limits: WalkLimits = WALK_LIMITS,
  signal?: AbortSignal,
): Promise<TreeSize | null> {
  let top: Stats;
  try {
    top = await fsp.lstat(root);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT" || (e as NodeJS.ErrnoException).code === "ENOTDIR") return null;
    throw e;
  }
  const out: TreeSize = { bytes: 0, files: 0, truncated: false };
  const linked = new Set<string>();
  const count = (s: Stats) => {
    if (!s.isDirectory() && s.nlink > 1) {
      const key = `${s.dev}:${s.ino}`;
      if (linked.has(key)) return;
      linked.add(key);
    }
    out.bytes += diskBytes(s);
    if (!s.isDirectory()) out.files++;
  };
  count(top);
  if (!top.isDirectory()) return out;

  let entries = 1;
  const stack: Array<{ dir: string; depth: number }> = [{ dir: root, depth: 0 }];
  while (stack.length && !out.truncated) {
    if (signal?.aborted) break;
    const { dir, depth } = stack.pop()!;
    const names = await listDir(dir, limits.maxEntries - entries);
    if (!names) continue;
    if (names.more) out.truncated = true;
    entries += names.list.length;
    for (let i = 0; i < names.list.length; i += PARALLEL) {
      const chunk = names.list.slice(i, i + PARALLEL).map((n) => path.join(dir, n));
      const stats = await Promise.all(chunk.map((p) => fsp.lstat(p).catch(() => null)));
      stats.forEach((s, j) => {
        if (!s) return; // gone meanwhile
        count(s);
        if (!s.isDirectory() || s.dev !== top.dev) return;
        if (depth + 1 >= limits.maxDepth) out.truncated = true;
        else stack.push({ dir: chunk[j]!, depth: depth + 1 });
      });
    }
  }
  return out;
}

/** Up to `max` names in `dir` (more: there were others), or null when it cannot be opened as a directory itself. */
async function listDir(dir: string, max: number): Promise<{ list: string[]; more: boolean } | null> {
  let fh: FileHandle | null = null;
  try {
    fh = await fsp.open(dir, fsConstants.O_RDONLY | fsConstants.O_DIRECTORY | fsConstants.O_NOFOLLOW);
    const handle = await fsp.opendir(PROC_FD ? `/proc/self/fd/${fh.fd}` : dir, { bufferSize: 128 });
    const list: string[] = [];
    let more = false;
    try {
      for await (const d of handle) {
        if (list.length >= max) {
          more = true;
          break;
        }
        list.push(d.name);
      }
    } catch {
      /* changed under us: what was read counts */
    }
    return { list, more };
  } catch {
    return null; // a link, a vanished or unreadable directory
  } finally {
    await fh?.close().catch(() => {});
  }
}
