// `copy` and `link` of a task's config: files and globs from the main checkout put into a new
// worktree before its agent starts (gitignored files such as `.env`). Only regular files and
// directories are taken, and no link is followed: a symlink in the checkout is skipped, never
// copied or traversed, so nothing outside the checkout is read. On the worktree's side each
// directory on the way is checked to be a real one (the base commit may hold symlinks), files are
// created exclusively (nothing the worktree has is overwritten) and copied as `cp --reflink=auto`
// does (a copy-on-write clone where the file system can, a plain copy otherwise). `link` makes
// symlinks to the checkout's entries instead. Patterns are validated by the wire's schema first
// (relative, no `..`, no `.git`); matching: `*` and `?` within a segment (not a leading dot
// unless the pattern has one), `**` any depth.
import { constants, type Dirent, promises as fsp, type Stats } from "node:fs";
import path from "node:path";

/** What copying (or linking) the config's entries did. */
export interface CopyReport {
  copied: string[];
  linked: string[];
  skipped: Array<{ path: string; reason: string }>;
  /** Files written (a directory counts each file in it) and their bytes. */
  files: number;
  bytes: number;
}

/** A walk of `**` stops after this many directory entries (a pattern over node_modules must not run away). */
const MAX_VISITED = 200_000;

const hasWildcard = (seg: string) => /[*?]/.test(seg);

function segmentRegex(seg: string): RegExp {
  const body = seg
    .replace(/[.+^${}()|[\]\\]/g, "\\$&")
    .replace(/\*/g, "[^/]*")
    .replace(/\?/g, "[^/]");
  return new RegExp(`^${body}$`);
}

/** Whether one name matches one segment of a pattern (a leading dot only by a pattern that has one). */
export function segmentMatches(seg: string, name: string): boolean {
  if (name.startsWith(".") && !seg.startsWith(".")) return false;
  return segmentRegex(seg).test(name);
}

async function lstatOrNull(p: string): Promise<Stats | null> {
  try {
    return await fsp.lstat(p);
  } catch {
    return null;
  }
}

async function entries(dir: string): Promise<Dirent[]> {
  try {
    return await fsp.readdir(dir, { withFileTypes: true });
  } catch {
    return [];
  }
}

/**
 * The paths under `root` (relative, sorted) a pattern matches. Directories on the way must be real
 * directories (never a symlink); `.git` is never entered or matched.
 */
export async function expandPattern(root: string, pattern: string): Promise<{ paths: string[]; truncated: boolean }> {
  const parts = pattern.replace(/\/+$/, "").split("/");
  const found = new Set<string>();
  let visited = 0;
  const step = async (rel: string, i: number): Promise<void> => {
    if (visited > MAX_VISITED) return;
    if (i === parts.length) {
      if (rel) found.add(rel);
      return;
    }
    const seg = parts[i]!;
    const last = i === parts.length - 1;
    const dir = path.join(root, rel);
    if (seg === "**") {
      await step(rel, i + 1);
      for (const e of await entries(dir)) {
        visited++;
        if (e.isDirectory() && e.name !== ".git") await step(path.join(rel, e.name), i);
      }
      return;
    }
    if (!hasWildcard(seg)) {
      const st = await lstatOrNull(path.join(dir, seg));
      if (st && (last || st.isDirectory())) await step(path.join(rel, seg), i + 1);
      return;
    }
    for (const e of await entries(dir)) {
      visited++;
      if (e.name === ".git" || !segmentMatches(seg, e.name)) continue;
      if (last || e.isDirectory()) await step(path.join(rel, e.name), i + 1);
    }
  };
  await step("", 0);
  return { paths: [...found].sort(), truncated: visited > MAX_VISITED };
}

/**
 * Makes sure every directory from `root` down to `dir` (relative) is a real directory, creating
 * the missing ones one level at a time; null when that worked, or why not.
 */
async function realParents(root: string, rel: string): Promise<string | null> {
  let at = root;
  for (const part of rel.split(path.sep).filter(Boolean)) {
    at = path.join(at, part);
    const st = await lstatOrNull(at);
    if (!st) {
      try {
        await fsp.mkdir(at);
      } catch (e) {
        return `could not create ${path.relative(root, at)}: ${(e as Error).message}`;
      }
    } else if (!st.isDirectory()) {
      return `the worktree has ${st.isSymbolicLink() ? "a link" : "a file"} at ${path.relative(root, at)}`;
    }
  }
  return null;
}

/** Copies one regular file (exclusive create, reflink when possible). */
async function copyFile(src: string, dest: string, report: CopyReport, st: Stats): Promise<void> {
  await fsp.copyFile(src, dest, constants.COPYFILE_EXCL | constants.COPYFILE_FICLONE);
  report.files++;
  report.bytes += st.size;
}

/** Copies a directory's regular files and directories (links, FIFOs, sockets and devices are left out). */
async function copyTree(src: string, dest: string, report: CopyReport): Promise<void> {
  const st = await lstatOrNull(dest);
  if (!st) await fsp.mkdir(dest);
  else if (!st.isDirectory()) return;
  for (const e of await entries(src)) {
    const s = path.join(src, e.name);
    const d = path.join(dest, e.name);
    if (e.isDirectory()) await copyTree(s, d, report);
    else if (e.isFile() && !(await lstatOrNull(d))) {
      const fst = await lstatOrNull(s);
      if (fst?.isFile()) await copyFile(s, d, report, fst);
    }
  }
}

/**
 * Puts each entry the patterns match in `from` (the main checkout) into `to` (the new worktree):
 * copied, or symlinked (`mode: "link"`). What is skipped says why; nothing here throws for one entry.
 */
export async function copyEntries(opts: {
  from: string;
  to: string;
  patterns: readonly string[];
  mode: "copy" | "link";
  report?: CopyReport;
}): Promise<CopyReport> {
  const report = opts.report ?? { copied: [], linked: [], skipped: [], files: 0, bytes: 0 };
  const matched = new Set<string>();
  for (const pattern of opts.patterns) {
    const { paths, truncated } = await expandPattern(opts.from, pattern);
    if (truncated) report.skipped.push({ path: pattern, reason: `stopped after ${MAX_VISITED} entries` });
    for (const p of paths) matched.add(p);
  }
  // An entry inside a directory that is taken whole is taken with it.
  const all = [...matched].sort();
  const top = all.filter((p) => !all.some((q) => q !== p && p.startsWith(`${q}${path.sep}`)));
  for (const rel of top) {
    const src = path.join(opts.from, rel);
    const dest = path.join(opts.to, rel);
    const st = await lstatOrNull(src);
    if (!st || !(st.isFile() || st.isDirectory())) {
      report.skipped.push({
        path: rel,
        reason: st?.isSymbolicLink() ? "a symbolic link (not followed)" : "not a file",
      });
      continue;
    }
    const parents = await realParents(opts.to, path.dirname(rel));
    if (parents) {
      report.skipped.push({ path: rel, reason: parents });
      continue;
    }
    const there = await lstatOrNull(dest);
    if (there && !(opts.mode === "copy" && st.isDirectory() && there.isDirectory())) {
      report.skipped.push({ path: rel, reason: "already in the worktree" });
      continue;
    }
    try {
      if (opts.mode === "link") {
        await fsp.symlink(src, dest);
        report.linked.push(rel);
      } else {
        if (st.isDirectory()) await copyTree(src, dest, report);
        else await copyFile(src, dest, report, st);
        report.copied.push(rel);
      }
    } catch (e) {
      report.skipped.push({ path: rel, reason: (e as Error).message });
    }
  }
  return report;
}
