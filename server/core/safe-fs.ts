// Reading files an agent may have written (its worktree, its git metadata, paths named in its
// hook payloads), as hostile input: only regular files are read, never through a symbolic link
// in the last component (O_NOFOLLOW), never blocking on a FIFO or a device (O_NONBLOCK, then
// fstat must say "regular file"), never more than a cap, and, when asked, only when the file's
// real location lies inside a directory the caller expects (a link in a parent directory that
// leads elsewhere is refused). Every refusal is a typed answer, not a hang or a spike.
//
//
// Writing a file in a place an agent can write (its sandbox home): only through a temporary file
// this process created exclusively, renamed over a target that is still a regular file (or still
// absent) holding what the caller read, in a directory that is a real directory, never through a
// link. A rename replaces the directory entry: whatever the agent swaps in meanwhile (a link, a
// FIFO), the file a link pointed at is never opened for writing.
//
//   readRegularFile(file, { maxBytes, within?, ownedBy? }) -> { ok: true, value, size, mode } | { ok: false, reason, message }
//   readRegularFileSync(file, { maxBytes, ownedBy? })  -> the same, synchronously (no `within`)
//   openRegularFile(file, { maxBytes, within?, ownedBy? }) -> same, with an open FileHandle instead of data
//   realDirectory(dir, { create?, ownedBy? })         -> ok when dir is a directory itself (not a link to one)
//   replaceRegularFile(file, data, { expect, mode, maxBytes, ownedBy? }) -> ok, "changed" or a refusal
//   isInside(file, dir) -> whether file's real path lies inside dir's real path
import { randomBytes } from "node:crypto";
import {
  closeSync,
  constants as fsConstants,
  fstatSync,
  promises as fsp,
  openSync,
  readSync,
  renameSync,
  rmSync,
} from "node:fs";
import type { FileHandle } from "node:fs/promises";
import path from "node:path";

type UnsafeReason =
  | "missing"
  | "not_regular"
  | "symlink"
  | "too_large"
  | "outside"
  | "unreadable"
  | "foreign_owner"
  | "not_directory";

export type Refusal = { ok: false; reason: UnsafeReason; message: string };
/** `mode`: the file's permission bits. */
export type SafeRead<T> = { ok: true; value: T; size: number; mode: number } | Refusal;

export interface SafeReadOptions {
  /** Refuse files larger than this many bytes. */
  maxBytes: number;
  /** The file must really lie inside this directory (symbolic links in its path resolved). */
  within?: string;
  /** The file must be owned by this user id (e.g. process.getuid()). */
  ownedBy?: number;
}

/** This process's user id, for `ownedBy` (undefined where there is none). */
export const currentUid = (): number | undefined =>
  typeof process.getuid === "function" ? process.getuid() : undefined;

const OPEN_FLAGS = fsConstants.O_RDONLY | fsConstants.O_NOFOLLOW | fsConstants.O_NONBLOCK | (fsConstants.O_NOCTTY ?? 0);

function refused(reason: UnsafeReason, file: string, detail?: string): Refusal {
  const what: Record<UnsafeReason, string> = {
    missing: "does not exist",
    not_regular: "is not a regular file",
    symlink: "is a symbolic link",
    too_large: "is too large",
    outside: "lies outside the directory it must be in",
    unreadable: "cannot be read",
    foreign_owner: "is not owned by this user",
    not_directory: "is not a directory (or is a link to one)",
  };
  return { ok: false, reason, message: `${file} ${what[reason]}${detail ? ` (${detail})` : ""}` };
}

/** Whether `file` (which may not exist yet: its nearest existing parent counts) really lies inside `dir`. */
export async function isInside(file: string, dir: string): Promise<boolean> {
  let realDir: string;
  try {
    realDir = await fsp.realpath(dir);
  } catch {
    return false;
  }
  let probe = path.resolve(file);
  let rest = "";
  for (;;) {
    try {
      const real = path.join(await fsp.realpath(probe), rest);
      return real === realDir || real.startsWith(realDir.endsWith(path.sep) ? realDir : realDir + path.sep);
    } catch {
      const parent = path.dirname(probe);
      if (parent === probe) return false;
      rest = path.join(path.basename(probe), rest);
      probe = parent;
    }
  }
}

/** Why opening failed, as a refusal. */
function openRefusal(file: string, e: unknown): { ok: false; reason: UnsafeReason; message: string } {
  const code = (e as NodeJS.ErrnoException).code;
  if (code === "ENOENT" || code === "ENOTDIR") return refused("missing", file);
  if (code === "ELOOP") return refused("symlink", file);
  return refused("unreadable", file, code);
}

/** What is wrong with the opened file's stat for these limits, or null. */
function statRefusal(
  file: string,
  st: { isFile(): boolean; uid: number; size: number },
  opts: Pick<SafeReadOptions, "ownedBy" | "maxBytes">,
) {
  if (!st.isFile()) return refused("not_regular", file);
  if (opts.ownedBy !== undefined && st.uid !== opts.ownedBy) return refused("foreign_owner", file, `owner ${st.uid}`);
  if (st.size > opts.maxBytes) return refused("too_large", file, `${st.size} bytes, the cap is ${opts.maxBytes}`);
  return null;
}

/** Opens `file` for reading when it is a regular file within the limits; the caller closes the handle. */
export async function openRegularFile(file: string, opts: SafeReadOptions): Promise<SafeRead<FileHandle>> {
  if (typeof file !== "string" || !path.isAbsolute(file) || file.includes("\0"))
    return refused("unreadable", String(file), "not an absolute path");
  if (opts.within && !(await isInside(file, opts.within))) return refused("outside", file, opts.within);
  let fh: FileHandle;
  try {
    fh = await fsp.open(file, OPEN_FLAGS);
  } catch (e) {
    return openRefusal(file, e);
  }
  try {
    const st = await fh.stat();
    const problem = statRefusal(file, st, opts);
    if (problem) {
      await fh.close();
      return problem;
    }
    // Opened after the check above: the path may have been swapped meanwhile, so check the
    // opened file itself again (the handle is what gets read).
    if (opts.within) {
      const real = await fsp.realpath(file).catch(() => null);
      const again = real ? await fsp.stat(real).catch(() => null) : null;
      if (!real || !again || again.ino !== st.ino || again.dev !== st.dev || !(await isInside(real, opts.within))) {
        await fh.close();
        return refused("outside", file, opts.within);
      }
    }
    return { ok: true, value: fh, size: st.size, mode: st.mode & 0o7777 };
  } catch (e) {
    await fh.close().catch(() => {});
    return refused("unreadable", file, (e as NodeJS.ErrnoException).code);
  }
}

/** Reads a whole regular file within the limits (at most maxBytes, even if it grows while read). */
export async function readRegularFile(file: string, opts: SafeReadOptions): Promise<SafeRead<Buffer>> {
  const opened = await openRegularFile(file, opts);
  if (!opened.ok) return opened;
  const fh = opened.value;
  try {
    const buf = Buffer.alloc(Math.min(opened.size, opts.maxBytes));
    let at = 0;
    while (at < buf.length) {
      const { bytesRead } = await fh.read(buf, at, buf.length - at, at);
      if (bytesRead === 0) break;
      at += bytesRead;
    }
    return { ok: true, value: at === buf.length ? buf : buf.subarray(0, at), size: at, mode: opened.mode };
  } catch (e) {
    return refused("unreadable", file, (e as NodeJS.ErrnoException).code);
  } finally {
    await fh.close().catch(() => {});
  }
}

/** readRegularFile, synchronously (for a check that must run back to back with a rename); no `within`. */
export function readRegularFileSync(file: string, opts: Omit<SafeReadOptions, "within">): SafeRead<Buffer> {
  if (typeof file !== "string" || !path.isAbsolute(file) || file.includes("\0"))
    return refused("unreadable", String(file), "not an absolute path");
  let fd: number;
  try {
    fd = openSync(file, OPEN_FLAGS);
  } catch (e) {
    return openRefusal(file, e);
  }
  try {
    const st = fstatSync(fd);
    const problem = statRefusal(file, st, opts);
    if (problem) return problem;
    const buf = Buffer.alloc(st.size);
    let at = 0;
    while (at < buf.length) {
      const n = readSync(fd, buf, at, buf.length - at, at);
      if (n === 0) break;
      at += n;
    }
    return { ok: true, value: at === buf.length ? buf : buf.subarray(0, at), size: at, mode: st.mode & 0o7777 };
  } catch (e) {
    return refused("unreadable", file, (e as NodeJS.ErrnoException).code);
  } finally {
    closeSync(fd);
  }
}

/**
 * `dir` is a directory itself (lstat: not a link to one) and, with `ownedBy`, owned by that user.
 * With `create`, a missing `dir` is made first (its parent must exist; mode 0700 unless told).
 */
export async function realDirectory(
  dir: string,
  opts: { create?: boolean; mode?: number; ownedBy?: number } = {},
): Promise<{ ok: true } | Refusal> {
  if (typeof dir !== "string" || !path.isAbsolute(dir) || dir.includes("\0"))
    return refused("unreadable", String(dir), "not an absolute path");
  let st = await fsp.lstat(dir).catch((e: NodeJS.ErrnoException) => e);
  if (st instanceof Error && st.code === "ENOENT" && opts.create) {
    await fsp.mkdir(dir, { mode: opts.mode ?? 0o700 }).catch(() => {});
    st = await fsp.lstat(dir).catch((e: NodeJS.ErrnoException) => e);
  }
  if (st instanceof Error)
    return st.code === "ENOENT" || st.code === "ENOTDIR"
      ? refused("missing", dir)
      : refused("unreadable", dir, st.code);
  if (st.isSymbolicLink()) return refused("symlink", dir);
  if (!st.isDirectory()) return refused("not_directory", dir);
  if (opts.ownedBy !== undefined && st.uid !== opts.ownedBy) return refused("foreign_owner", dir, `owner ${st.uid}`);
  return { ok: true };
}

export interface ReplaceOptions {
  /** What the caller read: the target must still hold exactly this (null: it must still be absent). */
  expect: Buffer | string | null;
  /** Permission bits of the new file. */
  mode: number;
  /** The cap for reading the target back before the rename. */
  maxBytes: number;
  /** The target (when present) and its directory must be owned by this user. */
  ownedBy?: number;
}

export type ReplaceResult = { ok: true } | Refusal | { ok: false; reason: "changed"; message: string };

/**
 * Replaces `file` with `data`: written to a temporary file created exclusively next to it (never
 * through a link), then renamed over `file` only if `file` is still a regular file (or still
 * absent) holding `opts.expect`; the check and the rename run back to back, synchronously. The
 * directory must be a real directory. A refusal or "changed" leaves `file` as it was.
 */
export async function replaceRegularFile(
  file: string,
  data: Buffer | string,
  opts: ReplaceOptions,
): Promise<ReplaceResult> {
  if (typeof file !== "string" || !path.isAbsolute(file) || file.includes("\0"))
    return refused("unreadable", String(file), "not an absolute path");
  const dir = path.dirname(file);
  const d = await realDirectory(dir, { ownedBy: opts.ownedBy });
  if (!d.ok) return d;
  const tmp = path.join(dir, `.${path.basename(file)}.yard-${process.pid}-${randomBytes(6).toString("hex")}.tmp`);
  // O_CREAT|O_EXCL ("wx") never follows a link and never opens a file someone else made.
  const handle = await fsp.open(
    tmp,
    fsConstants.O_WRONLY | fsConstants.O_CREAT | fsConstants.O_EXCL | fsConstants.O_NOFOLLOW,
    opts.mode & 0o777,
  );
  try {
    try {
      await handle.writeFile(data);
      await handle.chmod(opts.mode & 0o777); // on the handle: the name may have been swapped meanwhile
      await handle.sync();
    } finally {
      await handle.close();
    }
    const now = readRegularFileSync(file, { maxBytes: opts.maxBytes, ownedBy: opts.ownedBy });
    const expect =
      opts.expect === null ? null : Buffer.isBuffer(opts.expect) ? opts.expect : Buffer.from(opts.expect, "utf8");
    if (!now.ok && now.reason !== "missing") return now;
    const same = now.ok ? expect !== null && now.value.equals(expect) : expect === null;
    if (!same) return { ok: false, reason: "changed", message: `${file} changed while it was being updated` };
    renameSync(tmp, file);
    return { ok: true };
  } finally {
    rmSync(tmp, { force: true });
  }
}

/** `file` lies lexically under `dir` (no file system access): where a path says it is, before links. */
export function isUnder(file: string, dir: string): boolean {
  const rel = path.relative(path.resolve(dir), path.resolve(file));
  return rel === "" || (rel !== ".." && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel));
}
