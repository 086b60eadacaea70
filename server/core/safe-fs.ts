// Reading files an agent may have written (its worktree, its git metadata, paths named in its
// hook payloads), as hostile input: only regular files are read, never through a symbolic link
// in the last component (O_NOFOLLOW), never blocking on a FIFO or a device (O_NONBLOCK, then
// fstat must say "regular file"), never more than a cap, and, when asked, only when the file's
// real location lies inside a directory the caller expects (a link in a parent directory that
// leads elsewhere is refused). Every refusal is a typed answer, not a hang or a spike.
//
//   readRegularFile(file, { maxBytes, within? }) -> { ok: true, data } | { ok: false, reason }
//   openRegularFile(file, { maxBytes, within? }) -> same, with an open FileHandle instead of data
//   isInside(file, dir) -> whether file's real path lies inside dir's real path
import { constants as fsConstants, promises as fsp } from "node:fs";
import type { FileHandle } from "node:fs/promises";
import path from "node:path";

export type UnsafeReason = "missing" | "not_regular" | "symlink" | "too_large" | "outside" | "unreadable";

export type SafeRead<T> = { ok: true; value: T; size: number } | { ok: false; reason: UnsafeReason; message: string };

export interface SafeReadOptions {
  /** Refuse files larger than this many bytes. */
  maxBytes: number;
  /** The file must really lie inside this directory (symbolic links in its path resolved). */
  within?: string;
}

const OPEN_FLAGS = fsConstants.O_RDONLY | fsConstants.O_NOFOLLOW | fsConstants.O_NONBLOCK | (fsConstants.O_NOCTTY ?? 0);

function refused(reason: UnsafeReason, file: string, detail?: string): { ok: false; reason: UnsafeReason; message: string } {
  const what: Record<UnsafeReason, string> = {
    missing: "does not exist",
    not_regular: "is not a regular file",
    symlink: "is a symbolic link",
    too_large: "is too large",
    outside: "lies outside the directory it must be in",
    unreadable: "cannot be read",
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

/** Opens `file` for reading when it is a regular file within the limits; the caller closes the handle. */
export async function openRegularFile(file: string, opts: SafeReadOptions): Promise<SafeRead<FileHandle>> {
  if (typeof file !== "string" || !path.isAbsolute(file) || file.includes("\0")) return refused("unreadable", String(file), "not an absolute path");
  if (opts.within && !(await isInside(file, opts.within))) return refused("outside", file, opts.within);
  let fh: FileHandle;
  try {
    fh = await fsp.open(file, OPEN_FLAGS);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return refused("missing", file);
    if (code === "ELOOP") return refused("symlink", file);
    return refused("unreadable", file, code);
  }
  try {
    const st = await fh.stat();
    if (!st.isFile()) {
      await fh.close();
      return refused("not_regular", file);
    }
    if (st.size > opts.maxBytes) {
      await fh.close();
      return refused("too_large", file, `${st.size} bytes, the cap is ${opts.maxBytes}`);
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
    return { ok: true, value: fh, size: st.size };
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
    return { ok: true, value: at === buf.length ? buf : buf.subarray(0, at), size: at };
  } catch (e) {
    return refused("unreadable", file, (e as NodeJS.ErrnoException).code);
  } finally {
    await fh.close().catch(() => {});
  }
}
