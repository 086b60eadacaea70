// A repository's `.switchyard.json`: read as committed at a commit (git's object, never a file in a
// worktree an agent can write), validated with the wire's schema into BAD_PARAMS errors that name
// the field's path (`setup.2`), and combined with a project's override (each field the override
// gives replaces the file's) into the config a task runs with.
import type { z } from "zod";
import {
  type EffectiveConfig,
  REPO_CONFIG_FIELDS,
  REPO_CONFIG_FILE,
  REPO_CONFIG_MAX_BYTES,
  type RepoConfig,
  type RepoConfigOverride,
  repoConfig,
  repoConfigOverride,
} from "../../wire/repo-config";
import { YardError } from "../errors";
import { runGit } from "../git";

/** The schema's problems as `path: message` pairs; the first one names the error. */
function refusal(where: string, error: z.ZodError): YardError {
  const issues = error.issues.map((i) => ({ path: i.path.join("."), message: i.message }));
  const first = issues[0]!;
  return new YardError(
    "BAD_PARAMS",
    `${where}: ${issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join("; ")}`,
    { file: where, path: first.path, issues },
  );
}

/** Validates a parsed `.switchyard.json` (BAD_PARAMS naming the field's path). */
export function parseRepoConfig(raw: unknown, where = REPO_CONFIG_FILE): RepoConfig {
  const r = repoConfig.safeParse(raw);
  if (!r.success) throw refusal(where, r.error);
  return r.data;
}

/** JSON text to a value, or BAD_PARAMS saying where it stops being JSON. */
function parseJsonText(text: string, where: string): unknown {
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new YardError("BAD_PARAMS", `${where} is not valid JSON: ${(e as Error).message}`, { file: where, path: "" });
  }
}

/**
 * The file as committed at `commit` (null when there is none). A symlink, a directory or a
 * submodule there, or a file over REPO_CONFIG_MAX_BYTES, is refused: only a regular blob is read.
 */
export async function readCommittedConfig(repoRoot: string, commit: string): Promise<RepoConfig | null> {
  const ls = await runGit(["ls-tree", "-l", "-z", commit, "--", REPO_CONFIG_FILE], { cwd: repoRoot });
  const entry = ls.stdout.split("\0").find((l) => l.endsWith(`\t${REPO_CONFIG_FILE}`));
  if (!entry) return null;
  const [mode, type, oid, size] = entry.split("\t")[0]!.split(/\s+/);
  if (type !== "blob" || (mode !== "100644" && mode !== "100755"))
    throw new YardError("BAD_PARAMS", `${REPO_CONFIG_FILE} at ${commit.slice(0, 12)} is not a regular file`, {
      file: REPO_CONFIG_FILE,
      path: "",
      mode,
    });
  if (Number(size) > REPO_CONFIG_MAX_BYTES)
    throw new YardError("BAD_PARAMS", `${REPO_CONFIG_FILE} is larger than ${REPO_CONFIG_MAX_BYTES} bytes`, {
      file: REPO_CONFIG_FILE,
      path: "",
      size: Number(size),
    });
  const blob = await runGit(["cat-file", "blob", oid!], { cwd: repoRoot, maxBuffer: REPO_CONFIG_MAX_BYTES });
  return parseRepoConfig(parseJsonText(blob.stdout, REPO_CONFIG_FILE));
}

/** The file's fields, each replaced by the override's when it gives one; null when neither gives any. */
export function effectiveConfig(file: RepoConfig | null, override: RepoConfigOverride | null): EffectiveConfig | null {
  const sources: EffectiveConfig["sources"] = {};
  for (const f of REPO_CONFIG_FIELDS) {
    if (override?.[f] !== undefined) sources[f] = "project";
    else if (file?.[f] !== undefined) sources[f] = "file";
  }
  if (Object.keys(sources).length === 0) return null;
  const pick = <K extends (typeof REPO_CONFIG_FIELDS)[number]>(k: K) => override?.[k] ?? file?.[k];
  return {
    setup: pick("setup") ?? [],
    teardown: pick("teardown") ?? [],
    copy: pick("copy") ?? [],
    link: pick("link") ?? [],
    ports: pick("ports") ?? 0,
    sources,
  };
}

/** A project's stored override (JSON text), or null when it has none or it no longer parses. */
export function storedOverride(text: string | null | undefined): RepoConfigOverride | null {
  if (!text) return null;
  try {
    const r = repoConfigOverride.safeParse(JSON.parse(text));
    return r.success ? r.data : null;
  } catch {
    return null;
  }
}

/**
 * What a project's tasks would start with now (`projects.repoConfig`): the file at the checkout's
 * HEAD (or why it cannot be used), the project's override, and the two combined.
 */
export async function projectRepoConfig(p: { path: string; repoConfig: RepoConfigOverride | null }): Promise<{
  file: { commit: string | null; config: RepoConfig | null; error: string | null };
  override: RepoConfigOverride | null;
  effective: EffectiveConfig | null;
}> {
  const head = await runGit(["rev-parse", "--verify", "-q", "HEAD"], { cwd: p.path, allowFail: true });
  const commit = head.code === 0 ? head.stdout.trim() : null;
  let config: RepoConfig | null = null;
  let error: string | null = null;
  if (commit) {
    try {
      config = await readCommittedConfig(p.path, commit);
    } catch (e) {
      error = (e as Error).message;
    }
  }
  return {
    file: { commit, config, error },
    override: p.repoConfig,
    effective: error ? null : effectiveConfig(config, p.repoConfig),
  };
}
