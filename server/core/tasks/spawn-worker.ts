// Spawning a task's agent: the one spawn a start, a later round and a resume share. The agent's own
// config is prepared right before it launches (the launch hook: workspace trust, hooks), it runs
// in the OS sandbox when the task does, and on the task's runner when it has one (in the worktree
// there, on-runner.ts).
import type { AgentProfile } from "../agents/profiles";
import { type PaneRole, taskPaneRole } from "../agents/roles";
import { YardError } from "../errors";
import type { Launch } from "../panes/launch";
import type { PaneInfo } from "../panes/manager";
import type { SandboxLaunch } from "../sandbox/sandbox";
import type { TaskRow } from "../../stores/tasks";
import type { BeforeLaunch, EngineState } from "./engine-state";
import { type RunnerTask, runnerWorktree } from "./on-runner";
import { storedSetupEnv } from "./task-ports";

/** What a spawn of the task's agent runs, and where. */
export interface WorkerSpawn {
  id: string;
  title: string;
  agentId: string | null;
  argv: string[] | null;
  /** The launch its caller resolved (and checked) for this spawn. */
  launch: Launch;
  parentPaneId: string | null;
  sandbox: { network: boolean } | null;
  trustDir: string | null;
  /** The pane's role when it is not the profile's (a --needs-plan task's planner). */
  role?: PaneRole;
  rewriteArgv?: (argv: string[]) => string[];
  /** Where the task runs: a task row's runner fields (a runner task runs there). */
  onRunner?: RunnerPlace | null;
}

/**
 * The task's agent in a new pane in its worktree (same profile or command; YARD_TASK set; sandboxed
 * when the task is). `w.launch` is the launch its caller resolved (and checked) for this spawn.
 * `environment`: a first launch's env and setup commands (later spawns: the env the task recorded).
 */
export async function spawnWorker(
  eng: EngineState,
  w: WorkerSpawn,
  cwd: string,
  environment?: { env: Record<string, string>; setup?: string[] },
): Promise<PaneInfo> {
  const { deps } = eng;
  const env = environment?.env ?? (await storedSetupEnv(eng, w.id));
  const { launch } = w;
  const on = runnerOf(w.onRunner);
  // A runner's agent runs in the task's worktree there (made from its base when it is not).
  if (on) cwd = w.onRunner?.there ?? (await runnerWorktree(eng, on));
  // The agent's own config (workspace trust, hooks) is prepared right before it launches (on this machine).
  else
    await launchHook(eng, {
      taskId: w.id,
      launch: w.rewriteArgv ? { ...launch, argv: w.rewriteArgv(launch.argv) } : launch,
      cwd,
      trustDir: w.trustDir,
      sandboxHome: w.sandbox ? (deps.sandbox?.dirs(w.id).home ?? null) : null,
    });
  // The spawn takes the launch resolved at validation (the profile is not read again).
  return deps.panes.spawn(
    {
      agent: w.agentId ?? undefined,
      argv: w.argv ?? undefined,
      cwd,
      label: w.title.slice(0, 120),
      parentPaneId: w.parentPaneId ?? undefined,
      relationship: w.parentPaneId ? "subagent" : undefined,
    },
    {
      taskId: w.id,
      sandbox: await sandboxLaunch(eng, w.id, cwd, w.sandbox),
      rewriteArgv: w.rewriteArgv,
      launch,
      role: w.role ?? taskPaneRole(launch.profileRole),
      extraEnv: env,
      setup: environment?.setup,
      ...(on ? { runner: on.runner } : {}),
    },
  );
}

/** Where the task runs, and its worktree there when the caller made it already. */
type RunnerPlace = RunnerTask & { there?: string };

function runnerOf(t: RunnerPlace | null | undefined) {
  if (!t?.runner) return null;
  if (!t.branch || !t.baseSha)
    throw new YardError("CONFLICT", "The task has no branch and base recorded: it cannot run on its runner");
  return { ...t, runner: t.runner, branch: t.branch, baseSha: t.baseSha, worktreePath: null };
}

/** The repository to record agents' workspace trust for: the task's, when its project trusts agents. */
export async function trustDirOf(
  eng: EngineState,
  row: Pick<TaskRow, "projectId" | "repoPath">,
): Promise<string | null> {
  const project = row.projectId ? await eng.deps.projects.get(row.projectId).catch(() => null) : null;
  return project?.trustAgents ? row.repoPath : null;
}

/** The launch hook point: a failed preparation is journaled and the launch goes on (the agent then shows its dialog). */
async function launchHook(eng: EngineState, b: BeforeLaunch): Promise<void> {
  if (!eng.deps.beforeLaunch) return;
  try {
    await eng.deps.beforeLaunch(b);
  } catch (e) {
    const err = e instanceof YardError ? e : new YardError("INTERNAL", (e as Error).message);
    await eng.deps.journal.append("task.prepare_failed", {
      taskId: b.taskId,
      payload: { code: err.code, message: err.message },
    });
  }
}

/**
 * Whether a start runs sandboxed (the start's flag wins over the profile's), checked before
 * anything is created: when the sandbox cannot start here, SANDBOX_UNAVAILABLE says why.
 */
export async function sandboxFor(
  eng: EngineState,
  flag: boolean | undefined,
  profile: AgentProfile | null,
): Promise<{ network: boolean } | null> {
  if (!(flag ?? profile?.sandbox ?? false)) return null;
  if (!eng.deps.sandbox)
    throw new YardError("SANDBOX_UNAVAILABLE", "This server was started without the OS sandbox", {
      reason: "not_configured",
    });
  await eng.deps.sandbox.require();
  return { network: profile?.sandboxNetwork ?? false };
}

/** The launch the pane manager wraps the agent in (null: unsandboxed). */
async function sandboxLaunch(
  eng: EngineState,
  taskId: string,
  worktreePath: string,
  sandbox: { network: boolean } | null,
): Promise<SandboxLaunch | null> {
  if (!sandbox || !eng.deps.sandbox) return null;
  return eng.deps.sandbox.prepare({ taskId, worktreePath, network: sandbox.network });
}
