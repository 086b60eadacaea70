// The ready-worktree contract: `.switchyard.json` (committed at a repository's root) and a
// project's override of it, as zod schemas; what a task records of it (the effective config, its
// ports, what teardown did); the setup wrapper's progress posts; the `tasks.ports` and
// `projects.repoConfig` outputs. The core turns a schema failure into BAD_PARAMS naming the field's
// path (`setup.2`); the browser loads this module too, so it imports nothing but zod.
import { z } from "zod";

/** The file's name, at the repository's root. */
export const REPO_CONFIG_FILE = ".switchyard.json";
/** Its size limit (a larger file is refused, not read). */
export const REPO_CONFIG_MAX_BYTES = 64 * 1024;
/** At most this many ports per task. */
const MAX_TASK_PORTS = 20;

/** One shell command line (run with `sh -c`, like an npm script). */
const commandLine = z
  .string()
  .trim()
  .min(1, "a command must not be empty")
  .max(4000)
  .refine((s) => !s.includes("\0"), "a command must not contain a NUL byte");

/**
 * A path or glob relative to the repository's root: `*` and `?` within one path segment, `**` as a
 * whole segment for any depth. Never absolute, never `..`, never into `.git`.
 */
const pathGlob = z
  .string()
  .trim()
  .min(1, "a path must not be empty")
  .max(500)
  .superRefine((s, ctx) => {
    const problem = globProblem(s);
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  });

/** Why a copy/link pattern is refused, or null. */
export function globProblem(s: string): string | null {
  if (s.includes("\0")) return "a path must not contain a NUL byte";
  if (s.startsWith("/") || s.startsWith("~")) return "must be relative to the repository's root (no absolute path)";
  if (s.includes("\\")) return "must not contain a backslash";
  const parts = s.replace(/\/+$/, "").split("/");
  if (parts.some((p) => p === "..")) return "must not contain '..'";
  if (parts.some((p) => p === "" || p === ".")) return "must not contain empty or '.' segments";
  if (parts.some((p) => p === ".git")) return "must not name .git";
  if (parts.some((p) => p.includes("**") && p !== "**")) return "'**' must be a whole path segment";
  return null;
}

const list = <T extends z.ZodType>(item: T) => z.array(item).max(100);

/** The fields of `.switchyard.json` (every one optional). Unknown fields are refused: a typo must not pass silently. */
const fields = {
  /** Run in the new worktree, in the task's pane, before the agent starts; a failure fails the task. */
  setup: list(commandLine).optional(),
  /** Run in the worktree when the task is finished (merge or discard); failures are recorded, never block. */
  teardown: list(commandLine).optional(),
  /** Files or globs copied (reflinked when the file system can) from the main checkout into the worktree. */
  copy: list(pathGlob).optional(),
  /** Files or globs symlinked from the worktree to the main checkout instead. */
  link: list(pathGlob).optional(),
  /** How many ports the task gets (PORT, YARD_PORTS). */
  ports: z.number().int().min(0).max(MAX_TASK_PORTS).optional(),
};

export const repoConfig = z.strictObject({ $schema: z.string().max(500).optional(), ...fields });
export type RepoConfig = z.infer<typeof repoConfig>;

/** A project's override: the same fields; each one given replaces the file's. */
export const repoConfigOverride = z.strictObject(fields);
export type RepoConfigOverride = z.infer<typeof repoConfigOverride>;

export const REPO_CONFIG_FIELDS = ["setup", "teardown", "copy", "link", "ports"] as const;

/** The config a task runs with, and where each field came from. */
export const effectiveConfig = z.object({
  setup: z.array(z.string()),
  teardown: z.array(z.string()),
  copy: z.array(z.string()),
  link: z.array(z.string()),
  ports: z.number().int(),
  /** Each field given: from the committed file or the project's override. */
  sources: z.partialRecord(z.enum(REPO_CONFIG_FIELDS), z.enum(["file", "project"])),
});
export type EffectiveConfig = z.infer<typeof effectiveConfig>;

/** One command's outcome (teardown). */
export const commandOutcome = z.object({
  command: z.string(),
  exitCode: z.number().int().nullable(),
  signal: z.string().nullable(),
  ms: z.number().int(),
  timedOut: z.boolean(),
});

/** What teardown did at the finish. */
export const teardownResult = z.object({
  ok: z.boolean(),
  /** Why it did not run (the worktree was gone). */
  skipped: z.string().nullable(),
  commands: z.array(commandOutcome),
  /** The last lines of its output. */
  tail: z.string(),
  at: z.string(),
});
export type TeardownResult = z.infer<typeof teardownResult>;

/** A task's environment as `tasks.get` shows it (null: the task had no config). */
export const taskSetupView = z.object({
  config: effectiveConfig,
  ports: z.array(z.number().int()),
  /** The ports went back to the pool (the task was finished or canceled). */
  portsReleased: z.boolean(),
  teardown: teardownResult.nullable(),
});
export type TaskSetupView = z.infer<typeof taskSetupView>;

/** `tasks.ports`: each port of the task and whether something listens on 127.0.0.1 there. */
export const taskPortsOutput = z.object({
  ports: z.array(z.object({ port: z.number().int(), listening: z.boolean(), url: z.string() })),
  released: z.boolean(),
});

/** `projects.repoConfig`: the committed file at the checkout's HEAD, the project's override, and the two combined. */
export const projectRepoConfigOutput = z.object({
  file: z.object({
    /** The commit it was read at (null: the repository has none). */
    commit: z.string().nullable(),
    config: repoConfig.nullable(),
    /** Why the file could not be used (null: it is fine, or there is none). */
    error: z.string().nullable(),
  }),
  override: repoConfigOverride.nullable(),
  effective: effectiveConfig.nullable(),
});

/** How far a running setup got (a board card's "Setting up…" line). */
export const setupStep = z.object({ step: z.number().int(), total: z.number().int(), command: z.string().nullable() });

/** The setup wrapper's progress, posted as the hook event SETUP_HOOK_EVENT by the pane's own program. */
export const SETUP_HOOK_EVENT = "YardSetup";
export const setupProgress = z.object({
  phase: z.enum(["step", "done", "failed"]),
  step: z.number().int().min(0).max(100),
  total: z.number().int().min(0).max(100),
  command: z.string().max(4000).nullable().default(null),
  exitCode: z.number().int().nullable().default(null),
});
export type SetupProgress = z.infer<typeof setupProgress>;
