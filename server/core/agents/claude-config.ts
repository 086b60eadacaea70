// Claude Code's workspace trust, recorded the way Claude records it: in the user's Claude config
// file (`$CLAUDE_CONFIG_DIR/.claude.json` when that is set, else `~/.claude.json`), under
// `projects[<path>].hasTrustDialogAccepted = true`. Answered inside a git worktree, Claude
// records trust for the main repository's path and later worktrees of it skip the dialog, so
// trusting a project's repository path covers every task worktree of it.
//
// The file is the user's, and Claude rewrites it often (it watches it and merges what other
// processes write). So this writer only ever:
// - reads it, changes nothing but the `projects[<path>]` entries it was asked for (keeping every
//   other key, and every other field of those entries, as it was),
// - writes the result to a temporary file in the same directory (same mode) and renames it into
//   place, and only if the file still holds what it read (otherwise it starts over; the check and
//   the rename are back to back, synchronously), then reads it back to confirm the entry is there
//   twice, a moment apart (a concurrent writer may have replaced it: start over),
// - takes a lock file next to it (`.claude.json.yard-lock`, O_EXCL, stale after 10 s) so that
//   Switchyard's own writers, in any process, take turns,
// - refuses to touch a file that is not a JSON object (it may be mid-write by a writer that does
//   not rename; it is retried a few times, then left alone with an error),
// - never reads or writes through a link, and never touches anything but a regular file of this
//   user's (safe-fs): a sandboxed agent can write its own `~/.claude.json` (the sandbox's home),
//   so when the file is a symbolic link, a FIFO, a device or someone else's, or its directory is
//   a link, it is left exactly as it is and the preparation fails with the reason
//   (`task.prepare_failed`); reading a FIFO there never blocks. With `within` (the sandbox's
//   home) the file must also really lie inside that directory.
// It never changes the user's permission mode or any other setting.
import { promises as fs } from "node:fs";
import os from "node:os";
import path from "node:path";
import { YardError } from "../errors";
import { currentUid, isInside, readRegularFile, realDirectory, replaceRegularFile } from "../safe-fs";

/** Claude Code's config directory (settings, `projects/` transcripts) for this environment: $CLAUDE_CONFIG_DIR, else ~/.claude. */
export function claudeConfigDir(env: Record<string, string | undefined> = process.env): string {
  const dir = env.CLAUDE_CONFIG_DIR?.trim();
  if (dir) return path.resolve(dir);
  return path.join(env.HOME?.trim() || os.homedir(), ".claude");
}

/** The Claude config file a process with this environment uses. */
export function claudeConfigFile(env: Record<string, string | undefined> = process.env): string {
  const dir = env.CLAUDE_CONFIG_DIR?.trim();
  if (dir) return path.join(path.resolve(dir), ".claude.json");
  return path.join(env.HOME?.trim() || os.homedir(), ".claude.json");
}

export interface TrustResult {
  file: string;
  /** paths newly marked trusted (already trusted ones are left untouched) */
  added: string[];
  /** the file was rewritten */
  written: boolean;
  attempts: number;
}

/** Start over at most this often, and for at most this long, before giving up. */
const MAX_ATTEMPTS = 200;
const MAX_WAIT_MS = 10_000;
/** How long after its rename an update is read back a second time. */
const SETTLE_MS = 60;
/** A file still unreadable after this many reads (50 ms apart) is left alone. */
const UNREADABLE_TRIES = 20;

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

function trusted(cfg: Json, dir: string): boolean {
  const projects = cfg.projects;
  return isObject(projects) && isObject(projects[dir]) && (projects[dir] as Json).hasTrustDialogAccepted === true;
}

/** The indentation the file already uses (Claude writes two spaces). */
function indentOf(text: string): number | string {
  const m = /\n([ \t]+)"/.exec(text);
  if (!m) return 2;
  return m[1]!.includes("\t") ? "\t" : m[1]!.length;
}

/** The file, read now, trusts every one of `dirs`. */
async function holds(file: string, dirs: string[]): Promise<boolean> {
  try {
    const text = await readIfExists(file);
    const cfg = text ? (JSON.parse(text) as unknown) : null;
    return isObject(cfg) && dirs.every((d) => trusted(cfg, d));
  } catch {
    return false; // replaced by something unreadable meanwhile
  }
}

/** The config file may be this large (Claude keeps per-project state in it). */
const MAX_CONFIG_BYTES = 64 * 1024 * 1024;

/** The file as text with its mode, or null when there is none; a link, FIFO, device or foreign file is refused (CONFLICT). */
async function readConfig(file: string): Promise<{ raw: Buffer; text: string; mode: number } | null> {
  const r = await readRegularFile(file, { maxBytes: MAX_CONFIG_BYTES, ownedBy: currentUid() });
  if (r.ok) return { raw: r.value, text: r.value.toString("utf8"), mode: r.mode & 0o777 };
  if (r.reason === "missing") return null;
  throw untouched(file, r.message, r.reason);
}

async function readIfExists(file: string): Promise<string | null> {
  return (await readConfig(file))?.text ?? null;
}

const untouched = (file: string, why: string, reason: string) =>
  new YardError(
    "CONFLICT",
    `Claude Code's config ${why}: Switchyard never writes through a link or into anything but a regular file of yours, so it left it untouched`,
    { file, reason },
  );

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Marks each of `dirs` (absolute paths, e.g. a project's repository root) trusted in the Claude
 * config file `file` (see claudeConfigFile). Safe against concurrent writers; see the top.
 */
export async function recordClaudeTrust(dirs: string[], opts: { file: string; within?: string }): Promise<TrustResult> {
  for (const d of dirs)
    if (!path.isAbsolute(d))
      throw new YardError("BAD_PARAMS", `Claude trust needs absolute paths (got ${JSON.stringify(d)})`, { path: d });
  const file = path.resolve(opts.file);
  const there = await fs.lstat(file).catch(() => null);
  if (there && !there.isFile())
    throw untouched(
      file,
      `${file} ${there.isSymbolicLink() ? "is a symbolic link" : "is not a regular file"}`,
      there.isSymbolicLink() ? "symlink" : "not_regular",
    );
  if (opts.within) {
    await fs.mkdir(opts.within, { recursive: true, mode: 0o700 }); // Switchyard's own dir (the sandbox's), made before its first launch
    if (!(await isInside(file, opts.within)))
      throw untouched(file, `leads out of ${opts.within} through a link`, "outside");
  }
  const dir = path.dirname(file);
  await fs.mkdir(dir, { recursive: true, mode: 0o700 }).catch(() => {}); // what is there is checked next
  const real = await realDirectory(dir, { ownedBy: currentUid() });
  if (!real.ok) throw untouched(file, `directory ${real.message}`, real.reason);
  const release = await lock(file);
  try {
    return await update(file, dirs);
  } finally {
    await release();
  }
}

const LOCK_STALE_MS = 10_000;

/** Takes `<dir>/.<name>.yard-lock` (created exclusively); a lock older than LOCK_STALE_MS is broken. */
async function lock(file: string): Promise<() => Promise<void>> {
  const lockFile = path.join(path.dirname(file), `.${path.basename(file)}.yard-lock`);
  const deadline = Date.now() + MAX_WAIT_MS;
  for (;;) {
    try {
      const h = await fs.open(lockFile, "wx", 0o600);
      await h.writeFile(`${process.pid}\n`);
      await h.close();
      return () => fs.rm(lockFile, { force: true });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
      const age = await fs.lstat(lockFile).then(
        (s) => Date.now() - s.mtimeMs,
        () => 0,
      );
      if (age > LOCK_STALE_MS) await fs.rm(lockFile, { force: true });
      else if (Date.now() > deadline)
        throw new YardError("CONFLICT", `Another Switchyard process keeps ${lockFile} locked`, { file: lockFile });
      else await pause(5 + Math.random() * 20);
    }
  }
}

async function update(file: string, dirs: string[]): Promise<TrustResult> {
  let lastProblem = "";
  let unreadable = 0;
  const deadline = Date.now() + MAX_WAIT_MS;
  for (let attempt = 1; attempt <= MAX_ATTEMPTS && Date.now() < deadline; attempt++) {
    if (attempt > 1) await pause(Math.random() * Math.min(50, 2 * attempt)); // jitter: let the other writer finish
    const read = await readConfig(file);
    const text = read?.text ?? null;
    let cfg: Json;
    if (text === null || text.trim() === "") {
      cfg = {};
    } else {
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch (e) {
        lastProblem = `not valid JSON (${(e as Error).message})`;
        // A writer that does not rename may be half-way through; one that stays broken is not ours to fix.
        if (++unreadable >= UNREADABLE_TRIES) break;
        await pause(50);
        continue;
      }
      if (!isObject(parsed)) {
        throw new YardError("CONFLICT", `${file} does not hold a JSON object; Switchyard left it untouched`, { file });
      }
      cfg = parsed;
    }
    const missing = dirs.filter((d) => !trusted(cfg, d));
    if (missing.length === 0) return { file, added: [], written: false, attempts: attempt };

    const projects: Json = isObject(cfg.projects) ? { ...cfg.projects } : {};
    for (const d of missing)
      projects[d] = { ...(isObject(projects[d]) ? (projects[d] as Json) : {}), hasTrustDialogAccepted: true };
    const next = { ...cfg, projects };
    const out = `${JSON.stringify(next, null, text ? indentOf(text) : 2)}\n`;

    // A temporary file created exclusively, renamed over the file only if it still holds what was
    // read (the check and the rename back to back, synchronously): a writer that got in meanwhile
    // wins, and we start over. Never through a link (safe-fs replaceRegularFile).
    const replaced = await replaceRegularFile(file, out, {
      expect: read?.raw ?? null,
      mode: read?.mode ?? 0o600,
      maxBytes: MAX_CONFIG_BYTES,
      ownedBy: currentUid(),
    });
    if (!replaced.ok) {
      if (replaced.reason !== "changed") throw untouched(file, replaced.message, replaced.reason);
      lastProblem = "changed while being updated";
      continue;
    }
    // Read it back, now and a moment later: a writer that had checked the file just before our
    // rename (and was then descheduled) renames its own copy over ours, dropping our entry.
    if (await holds(file, dirs)) {
      await pause(SETTLE_MS);
      if (await holds(file, dirs)) return { file, added: missing, written: true, attempts: attempt };
    }
    lastProblem = "replaced by another writer right after the update";
  }
  throw new YardError(
    "CONFLICT",
    `Could not record Claude Code's trust in ${file}: ${lastProblem || "it kept changing"}; it was left as it is`,
    { file },
  );
}

/** Whether every one of `dirs` is already trusted in `file` (a read only). */
export async function isClaudeTrusted(dirs: string[], opts: { file: string }): Promise<boolean> {
  const text = await readIfExists(opts.file).catch(() => null);
  if (!text) return false;
  try {
    const cfg = JSON.parse(text) as unknown;
    return isObject(cfg) && dirs.every((d) => trusted(cfg, d));
  } catch {
    return false;
  }
}
