// Starting a task: a start is validated (agent or command, project or repository, parent, sandbox,
// branch) into a launch plan, then launched on the one start path (cap under the start lock, base
// commit, worktree, agent pane, the task recorded, the contract handed to the background runner),
// or recorded in the backlog and launched later by startBacklog. The agent's spawn itself, which
// later rounds and resumes share, is spawn-worker.ts's.
import { actingPerson } from "../actor";
import { type StartInput, startInput } from "../../wire/tasks";
import { YardError } from "../errors";
import { createWorktree, discardWorktree, inspectRepo, resolveBaseSha, validateBranchName } from "../git";
import { newId } from "../ids";
import type { Launch } from "../panes/launch";
import type { PaneInfo } from "../panes/manager";
import type { LaunchFields, TaskFields } from "../../stores/tasks";
import {
  apply,
  contractOf,
  defaultBranch,
  json,
  type LaunchOptions,
  maxActive,
  type EngineState,
  taskRow,
} from "./engine-state";
import { type Contract, renderPrompt } from "./contract";
import { tidyWorktreeDir } from "./finish";
import { runInBackground } from "./runner";
import { ACTIVE_STATES, type TaskState, transition } from "./state";
import type { Waiting } from "./dependencies";
import { type PaneRole, type SandboxOf, sandboxRefusal, startSandboxFlag, taskPaneRole } from "../agents/roles";
import { plannerPrompt } from "./plans";
import { abandoning, abandonSetup, planSetup, prepareSetup, recordSetup, type SetupPlan } from "./setup";
import { dropOnRunner, projectRunner, releaseRunner, reserveRunner, runnerWorktree } from "./on-runner";
import { sandboxFor, spawnWorker, trustDirOf } from "./spawn-worker";
import { get, type TaskView } from "./views";

export type { StartInput };

/** What a start needs once validated; nothing is created from it until launch. */
interface LaunchPlan {
  id: string;
  title: string;
  repoRoot: string;
  agentId: string | null;
  argv: string[] | null;
  /** The agent's launch (profile or command, placeholders expanded, program found), resolved once at validation. */
  launch: Launch;
  contract: Contract;
  parentPaneId: string | null;
  options: LaunchOptions;
  /** Run under the OS sandbox (with network or not); null: unsandboxed. */
  sandbox: { network: boolean } | null;
  /** The repository whose workspace trust the agent's config records (its project trusts agents); null: none. */
  trustDir: string | null;
  /** Its project (whose override of .switchyard.json applies); null: started on a repository path. */
  projectId: string | null;
  /** The pane's role when it is not the profile's (a --needs-plan task's planner). */
  role?: PaneRole;
  /** The first prompt when it is not the contract (the planner's). */
  prompt?: string;
  /** Where it may run: a runner named, one with these labels, the project's default; none: this machine. */
  placement: { runner?: string | null; labels?: string[] | null; fallback?: string | null };
}

/**
 * Who starts a task: the calling pane (the new task's parent pane unless the input names one) and
 * whether it runs in the OS sandbox. A sandboxed caller's task runs sandboxed (without a flag, as
 * if --sandbox; --no-sandbox is FORBIDDEN) with no more network than the caller has.
 */
export interface StartCaller {
  paneId?: string | null;
  role?: PaneRole | "person";
  sandbox?: SandboxOf | null;
}

/**
 * Starts a task now, or with `backlog: true` records it in the backlog (validated exactly like
 * a start; no worktree, branch or pane until startBacklog).
 */
export async function start(
  eng: EngineState,
  raw: StartInput,
  caller: StartCaller = {},
): Promise<{ task: TaskView; pane: PaneInfo | null }> {
  const { deps, store } = eng;
  const input = startInput.parse(raw);
  if (input.agent && input.argv)
    throw new YardError("BAD_PARAMS", "Give either an agent profile or a command (argv), not both");
  if (!input.projectId && !input.repoPath)
    throw new YardError("BAD_PARAMS", "Give a project (--project ID) or a repository (--repo PATH)");
  if (input.projectId && input.repoPath) throw new YardError("BAD_PARAMS", "Give either --project or --repo, not both");
  const project = input.projectId ? await deps.projects.get(input.projectId) : null;
  const repo = await inspectRepo(project?.path ?? input.repoPath!);
  if (!repo.hasHead)
    throw new YardError("BAD_PARAMS", `${repo.root} has no commits yet; commit something first`, { repo: repo.root });
  const agentId = input.argv ? null : (input.agent ?? "demo");
  // Profile, placeholders and program are checked now: a launch that cannot work creates nothing.
  const resolved = await deps.panes.resolveLaunch({ agent: agentId ?? undefined, argv: input.argv });
  const by = { role: caller.role ?? "orchestrator", sandbox: caller.sandbox ?? null, taskId: null };
  if (by.sandbox && input.sandbox === false) {
    throw new YardError(
      "FORBIDDEN",
      sandboxRefusal(by, { sandbox: null }, "a task started with --no-sandbox (sandbox: false)")!,
      { sandbox: false },
    );
  }
  // The worktree is what its sandbox may write: a sandboxed caller does not choose where on the host it goes.
  if (by.sandbox && input.path) {
    throw new YardError(
      "FORBIDDEN",
      `${/^[aeiou]/.test(by.role) ? "An" : "A"} ${by.role} pane in the OS sandbox may not choose the worktree's path: its sandbox could write a directory of its choosing on the host (leave --path out)`,
      { path: input.path },
    );
  }
  if (input.runner && input.labels) throw new YardError("BAD_PARAMS", "Give either --runner or --labels, not both");
  const onRunner = Boolean(input.runner || input.labels || project?.defaultRunner);
  if (onRunner && (input.sandbox === true || by.sandbox))
    throw new YardError(
      "BAD_PARAMS",
      "The OS sandbox does not run on runners yet: start it on this machine, or without the sandbox",
    );
  if (input.labels && (input.backlog || input.dependsOn?.length))
    throw new YardError("BAD_PARAMS", "A task waiting in the backlog names its runner (--runner), not labels");
  if (input.runner) {
    if (!deps.runners) throw new YardError("BAD_PARAMS", "This server has no runners");
    await deps.runners.get(input.runner); // NOT_FOUND now, before anything is created
  }
  const sandbox = await sandboxFor(
    eng,
    startSandboxFlag(by, input.sandbox),
    agentId ? await deps.agents.get(agentId) : null,
  );
  if (onRunner && sandbox)
    throw new YardError(
      "BAD_PARAMS",
      `Agent profile ${agentId} runs in the OS sandbox, which does not run on runners yet: start it on this machine`,
    );
  const refusal = sandboxRefusal(by, { sandbox }, `a task of profile ${agentId ?? "(a command)"}`);
  if (refusal) throw new YardError("FORBIDDEN", refusal, { agent: agentId, sandbox, callerSandbox: by.sandbox });
  const parentPaneId = input.parentPaneId ?? caller.paneId ?? null;
  if (parentPaneId) {
    await deps.panes.get(parentPaneId).catch((e: unknown) => {
      throw e instanceof YardError && e.code === "NOT_FOUND"
        ? new YardError("NOT_FOUND", `No parent pane ${parentPaneId}`, { parentPaneId })
        : e;
    });
  }
  const parentTask = input.parentTaskId ? await taskRow(eng, input.parentTaskId) : null;
  if (input.reviewer) await deps.agents.get(input.reviewer); // NOT_FOUND for an unknown reviewer profile
  // A planned task runs its planner first (in the task's worktree); its subtasks run the task's agent.
  let planner: { id: string; launch: Launch } | null = null;
  if (input.needsPlan) {
    if (input.backlog || input.dependsOn?.length)
      throw new YardError(
        "BAD_PARAMS",
        "A --needs-plan task starts its planner now: it cannot wait in the backlog or on dependencies",
      );
    const plannerId = input.planner ?? project?.plannerProfile ?? null;
    if (!plannerId)
      throw new YardError(
        "BAD_PARAMS",
        "--needs-plan needs a planner: --planner PROFILE, or set the project's (yard project set ID --planner PROFILE)",
      );
    await deps.agents.get(plannerId);
    planner = { id: plannerId, launch: await deps.panes.resolveLaunch({ agent: plannerId }) };
    if (input.planReviewer) await deps.agents.get(input.planReviewer);
  } else if (input.planner || input.planReviewer)
    throw new YardError("BAD_PARAMS", "--planner and --plan-reviewer go with --needs-plan");
  // Dependencies are checked before anything is created; with any unmet the task waits in the backlog.
  const dependsOn = [...new Set(input.dependsOn ?? [])];
  const startWhen = input.startWhen ?? "merged";
  let waitingNow: Waiting | null = null;
  if (dependsOn.length) {
    if (!deps.dependencies) throw new YardError("INTERNAL", "Task dependencies are not available in this server");
    await deps.dependencies.check(null, repo.root, dependsOn);
    waitingNow = await deps.dependencies.preview(dependsOn, startWhen);
  }

  const id = newId("tsk");
  const title = input.title ?? input.objective.split("\n")[0]!.slice(0, 80);
  const branch = await validateBranchName(input.branch ?? defaultBranch(title, id));
  const fields: TaskFields = {
    id,
    title,
    label: input.label ?? null,
    contextId: input.contextId ?? null,
    projectId: project?.id ?? null,
    repoPath: repo.root,
    agent: agentId ?? "custom",
    argv: input.argv ? JSON.stringify(input.argv) : null,
    objective: input.objective,
    constraints: JSON.stringify(input.constraints),
    acceptanceCriteria: JSON.stringify(input.acceptanceCriteria),
    outputFormat: input.outputFormat ?? null,
    parentTaskId: parentTask?.id ?? null,
    rootTaskId: parentTask ? (parentTask.rootTaskId ?? parentTask.id) : id,
    parentPaneId,
    baseRef: input.baseRef ?? null,
    sandboxed: sandbox !== null,
    reviewerProfile: input.reviewer ?? null,
    requiresPlanning: planner !== null,
    plannerProfile: planner?.id ?? null,
    planReviewerProfile: input.planReviewer ?? null,
    // Who started it: the starting pane, else the person whose call this is.
    startedBy: parentPaneId ?? actingPerson(),
    runner: input.runner ?? null,
  };
  const plan: LaunchPlan = {
    id,
    title,
    repoRoot: repo.root,
    agentId,
    argv: input.argv ?? null,
    launch: resolved,
    contract: {
      objective: input.objective,
      constraints: input.constraints,
      acceptanceCriteria: input.acceptanceCriteria,
      outputFormat: input.outputFormat,
    },
    parentPaneId,
    sandbox,
    trustDir: project?.trustAgents ? repo.root : null,
    projectId: project?.id ?? null,
    placement: { runner: input.runner ?? null, labels: input.labels ?? null, fallback: project?.defaultRunner ?? null },
    ...(planner
      ? {
          agentId: planner.id,
          argv: null,
          launch: planner.launch,
          role: "planner" as const,
          prompt: plannerPrompt({
            id,
            title,
            objective: input.objective,
            acceptanceCriteria: input.acceptanceCriteria,
            constraints: input.constraints,
          }),
        }
      : {}),
    options: {
      branch,
      baseRef: input.baseRef ?? null,
      fetch: input.fetch ?? false,
      path: input.path ?? null,
      readyTimeoutMs: input.readyTimeoutMs ?? null,
      stallMs: input.stallMs ?? null,
      dialogTimeoutMs: input.dialogTimeoutMs ?? null,
    },
  };
  if (!input.backlog && (!waitingNow || waitingNow.ready)) {
    const started = await launch(eng, plan, { create: fields });
    if (!dependsOn.length) return started;
    await deps.dependencies!.add(id, dependsOn, null); // met already: kept for the graph
    return { task: await get(eng, id), pane: started.pane };
  }

  // The base is resolved again when the task starts (HEAD moves meanwhile); a ref that does
  // not resolve now is refused now. With --fetch it may only exist after the fetch at start.
  if (input.baseRef && !input.fetch) await resolveBaseSha(repo.root, input.baseRef);
  await store.createBacklog(fields, { ...plan.options });
  eng.stateCache.set(id, "backlog");
  await deps.journal.append("task.created", {
    taskId: id,
    payload: { title, contextId: input.contextId ?? null, backlog: true, dependsOn },
  });
  if (dependsOn.length) {
    await deps.dependencies!.add(id, dependsOn, startWhen);
    deps.dependencies!.schedule(id); // a dependency met meanwhile starts it now
  }
  return { task: await get(eng, id), pane: null };
}

/** Starts a backlog task: the cap, then worktree, branch, pane and the contract, as any start. */
export async function startBacklog(eng: EngineState, taskId: string): Promise<{ task: TaskView; pane: PaneInfo }> {
  const { deps } = eng;
  const row = await taskRow(eng, taskId);
  transition(row.state as TaskState, { type: "start" }); // CONFLICT unless it is in the backlog, before anything is created
  const options = json<LaunchOptions | null>(row.startOptions, null);
  if (!options) throw new YardError("CONFLICT", "The backlog task has no launch options recorded", { taskId });
  const repo = await inspectRepo(row.repoPath);
  const argv = json<string[] | null>(row.argv, null);
  const agentId = argv ? null : row.agent;
  const resolved = await deps.panes.resolveLaunch({ agent: agentId ?? undefined, argv: argv ?? undefined });
  // Sandboxed when it was saved: the sandbox must be available now, checked before anything is created.
  const sandbox = row.sandboxed ? await sandboxFor(eng, true, agentId ? await deps.agents.get(agentId) : null) : null;
  const plan: LaunchPlan = {
    id: row.id,
    title: row.title,
    repoRoot: repo.root,
    agentId,
    argv,
    launch: resolved,
    contract: contractOf(row),
    parentPaneId: row.parentPaneId,
    options,
    sandbox,
    trustDir: await trustDirOf(eng, row),
    projectId: row.projectId,
    placement: { runner: row.runner, fallback: row.projectId ? await projectRunner(eng, row.projectId) : null },
  };
  const { task, pane } = await launch(eng, plan, { fromBacklog: true });
  return { task, pane: pane! };
}

/**
 * The one start path (new tasks and backlog tasks): under the start lock the cap is checked
 * (counting starts still in flight), the base resolved and the worktree created; then the agent
 * is spawned in it, the task recorded as pending, and the contract submitted in the background.
 * A refusal at any step leaves nothing behind: no worktree, no branch it created, and either no
 * task (a new one) or the backlog task exactly as it was.
 */
async function launch(
  eng: EngineState,
  plan: LaunchPlan,
  mode: { create: TaskFields } | { fromBacklog: true },
): Promise<{ task: TaskView; pane: PaneInfo | null }> {
  const { deps, store } = eng;
  const { id, options } = plan;
  let currentBranch: string | null = null;
  let wt!: Awaited<ReturnType<typeof createWorktree>>;
  let setup: SetupPlan | null = null;
  let runner = null as string | null;
  // The cap check and the reservation are one step: a second start cannot slip between them.
  const run = async () => {
    const active = (await store.activeCount(ACTIVE_STATES)) + eng.launching.size;
    const cap = maxActive(eng);
    if (active >= cap) {
      throw new YardError(
        "RATE_LIMITED",
        `${active} tasks are already running (the cap is ${cap}); finish, cancel or wait for one first`,
        { active, cap },
      );
    }
    // A runner's own capacity counts too (on-runner.ts); reserved until the task is recorded.
    runner = await reserveRunner(eng, id, plan.placement);
    try {
      const baseSha = await resolveBaseSha(plan.repoRoot, options.baseRef, { fetch: options.fetch });
      currentBranch = (await inspectRepo(plan.repoRoot)).currentBranch;
      setup = await planSetup(eng, { repoRoot: plan.repoRoot, baseSha, projectId: plan.projectId });
      wt = await createWorktree({
        repoRoot: plan.repoRoot,
        branch: options.branch,
        baseSha,
        path: options.path ?? undefined,
        yardHome: deps.home,
      }).catch(abandoning(eng, id, setup));
    } catch (e) {
      releaseRunner(eng, id); // any refusal here frees the runner's place, not only the worktree's
      throw e;
    }
    eng.launching.add(id);
  };
  const p = eng.startLock.then(run, run);
  eng.startLock = p.catch(() => {});
  await p;
  const onRunner = runner
    ? {
        id,
        runner,
        projectId: plan.projectId,
        repoPath: plan.repoRoot,
        branch: wt.branch,
        baseSha: wt.baseSha,
      }
    : null;

  // An orchestrating profile's agent gets the orchestrator's short guide, any other the worker's.
  const prompt =
    plan.prompt ?? renderPrompt(plan.contract, { id, title: plan.title, role: taskPaneRole(plan.launch.profileRole) });
  const previous = eng.stateCache.get(id);
  let pane: PaneInfo | null = null;
  let prepared: Awaited<ReturnType<typeof prepareSetup>> | null = null;
  let there: string | undefined;
  try {
    eng.stateCache.set(id, "pending"); // the pane refuses other prompts until the contract is in
    // A runner's worktree is made there first: the setup files go into it.
    there = onRunner ? await runnerWorktree(eng, onRunner) : undefined;
    if (setup)
      prepared = await prepareSetup(eng, id, setup, {
        repoRoot: plan.repoRoot,
        worktreePath: wt.worktreePath,
        runner,
      });
    pane = await spawnWorker(
      eng,
      { ...plan, onRunner: onRunner && { ...onRunner, there } },
      wt.worktreePath,
      prepared ?? { env: {} },
    );
    const launched: LaunchFields = {
      runner,
      baseSha: wt.baseSha,
      targetBranch: currentBranch,
      branch: wt.branch,
      branchPreexisting: wt.branchPreexisting,
      worktreePath: wt.worktreePath,
      paneId: pane.id,
      prompt,
    };
    if ("create" in mode) await store.createStarted(mode.create, launched);
    else await store.recordLaunch(id, launched);
    if (setup && prepared) await recordSetup(eng, id, setup, prepared.copy, pane.id);
  } catch (e) {
    abandonSetup(eng, id, setup);
    if (previous) eng.stateCache.set(id, previous);
    else eng.stateCache.delete(id);
    eng.launching.delete(id);
    releaseRunner(eng, id);
    if (pane) await deps.panes.kill(pane.id).catch(() => {});
    // The worktree made on the runner goes too (a failure to reach it there is journaled).
    if (onRunner && there) await dropOnRunner(eng, onRunner);
    await discardWorktree({
      repoRoot: plan.repoRoot,
      worktreePath: wt.worktreePath,
      branch: wt.branch,
      branchPreexisting: wt.branchPreexisting,
      deleteBranch: true,
    }).catch(() => {});
    await tidyWorktreeDir(eng, { repoPath: plan.repoRoot, worktreePath: wt.worktreePath });
    throw e;
  }
  try {
    if ("create" in mode) {
      await deps.journal.append("task.created", {
        taskId: id,
        paneId: pane.id,
        payload: {
          title: plan.title,
          contextId: mode.create.contextId,
          branch: wt.branch,
          baseSha: wt.baseSha,
          sandboxed: plan.sandbox !== null,
          ...(runner ? { runner } : {}),
        },
      });
    } else {
      await deps.journal.append("task.started", {
        taskId: id,
        paneId: pane.id,
        payload: { branch: wt.branch, baseSha: wt.baseSha, fromBacklog: true },
      });
      await apply(eng, id, { type: "start" });
    }
  } finally {
    eng.launching.delete(id);
    releaseRunner(eng, id);
  }
  runInBackground(eng, id, pane.id, prompt, {
    readyTimeoutMs: options.readyTimeoutMs ?? undefined,
    stallMs: options.stallMs ?? undefined,
    dialogTimeoutMs: options.dialogTimeoutMs ?? undefined,
    round: 1,
    setup: Boolean(prepared?.setup),
  });
  return { task: await get(eng, id), pane };
}
