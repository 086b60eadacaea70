// The task engine: starts worker tasks (validate, cap, base SHA, target branch, worktree under the
// repository lock, agent pane), drives each one in the background (wait for ready, submit the
// contract through the gate), follows its pane (turn ended, resumed, exited), takes reports,
// waits, diffs and finishes by merge or discard, recovers after a restart, and resumes a task's
// agent session in a fresh pane (a new round). A task that fails stops its agent. State changes go
// through the pure reducer in state.ts; every change is journaled as task.* events.
import { existsSync } from "node:fs";
import { rm } from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import { absolutePath, contextId, evidence, LIMITS, text } from "../../contracts/common";
import { type AgentProfile, type AgentProfiles, argvSchema } from "../agents/profiles";
import { agentKindOf } from "../agents/kinds";
import { codexResumeArgv } from "../agents/codex";
import { transcriptTokenUsage, type TokenUsage } from "../agents/sessions";
import { YardError } from "../errors";
import type { EventJournal, YardEvent } from "../events/journal";
import type { ReviewStatus } from "../../contracts/reviews";
import {
  branchExists,
  createWorktree,
  diffCommits,
  type DiffFile,
  diffTreeToCommit,
  diffWorktree,
  diffWorktreeSince,
  discardWorktree,
  findWorktree,
  inspectRepo,
  isMerged,
  mergeTask,
  resolveBaseSha,
  runGit,
  validateBranchName,
  worktreeTree,
} from "../git";
import { rmdirUpTo } from "../git/paths";
import { newId } from "../ids";
import type { PaneInfo, PaneManager } from "../panes/manager";
import type { Launch } from "../panes/launch";
import type { Projects } from "../projects/projects";
import { toStatus } from "../../stores/reviews";
import type { Sandbox, SandboxLaunch } from "../sandbox/sandbox";
import { type Board, loadBoard } from "./board";
import { type Contract, contractInput, renderPrompt } from "./contract";
import { waitForReady } from "./ready-wait";
import { cardLine } from "./card-line";
import { ACTIVE_STATES, RESUMABLE_STATES, type Disposition, type Evidence, isTerminal, type ReportStatus, type TaskEvent, type TaskState, TERMINAL_STATES, transition } from "./state";
import { type LaunchFields, type TaskFields, type TaskRow, TaskStore } from "../../stores/tasks";

export const DEFAULT_MAX_ACTIVE = 4;
export const DEFAULT_READY_TIMEOUT_MS = 30_000;

const idString = z.string().trim().min(1).max(64).regex(/^[A-Za-z0-9_-]+$/);

export const startInput = contractInput.extend({
  title: z.string().trim().min(1).max(200).optional(),
  label: z.string().trim().min(1).max(80).optional(),
  contextId: contextId.optional(),
  projectId: idString.optional(),
  repoPath: absolutePath.optional(),
  agent: z.string().regex(/^[a-z0-9][a-z0-9-]{0,39}$/).optional(),
  argv: argvSchema.optional(),
  baseRef: text(LIMITS.ref).pipe(z.string().min(1)).optional(),
  fetch: z.boolean().optional(),
  branch: text(LIMITS.ref).pipe(z.string().min(1)).optional(),
  path: absolutePath.optional(),
  parentPaneId: z.string().regex(/^pane[a-z0-9]+$/).optional(),
  parentTaskId: idString.optional(),
  readyTimeoutMs: z.number().int().min(100).max(600_000).optional(),
  /** How long a start-up dialog may wait for a human (default: the ready timeout); the ready clock is paused meanwhile. */
  dialogTimeoutMs: z.number().int().min(100).max(24 * 3600_000).optional(),
  stallMs: z.number().int().min(100).max(600_000).optional(),
  /** Record the task in the backlog instead of starting it (tasks.startBacklog starts it later). */
  backlog: z.boolean().optional(),
  /** Run the agent in the OS sandbox; overrides the agent profile's setting. */
  sandbox: z.boolean().optional(),
});
export type StartInput = z.input<typeof startInput>;

export const reportInput = z.object({
  taskId: idString.optional(),
  status: z.enum(["completed", "failed", "rejected"]),
  summary: z.string().trim().min(1, "a report needs a summary").max(LIMITS.summary),
  artifacts: z.array(z.string().min(1).max(LIMITS.path)).max(1000).default([]),
  changedFiles: z.array(z.string().min(1).max(LIMITS.path)).max(10_000).default([]),
  evidence: evidence.optional(),
});

export const WAIT_SETS = {
  settled: [...TERMINAL_STATES, "input_required"],
  terminal: [...TERMINAL_STATES],
  working: ["working"],
} as const;

export interface TaskResult {
  status: ReportStatus;
  summary: string;
  artifacts: string[];
  changedFiles: string[];
  evidence: Record<string, unknown> | null;
}

export interface TaskView {
  id: string;
  title: string;
  state: TaskState;
  round: number;
  label: string | null;
  contextId: string | null;
  projectId: string | null;
  repoPath: string;
  agent: string;
  contract: { objective: string; constraints: string[]; acceptanceCriteria: string[]; outputFormat: string | null };
  baseRef: string | null;
  baseSha: string | null;
  targetBranch: string | null;
  branch: string | null;
  branchPreexisting: boolean;
  worktreePath: string | null;
  paneId: string | null;
  parentPaneId: string | null;
  parentTaskId: string | null;
  rootTaskId: string | null;
  result: TaskResult | null;
  evidence: Evidence | null;
  /** Where the current round's review stands. */
  reviewStatus: ReviewStatus;
  /** The agent runs in the OS sandbox. */
  sandboxed: boolean;
  /** The agent's own session (from its hooks), with its token usage read from its transcript. */
  agentSession: { id: string; transcriptPath: string | null; tokens: TokenUsage | null } | null;
  /** One line saying what needs attention or what is going on (a dialog, an API error, retrying). */
  statusLine: string | null;
  disposition: "merged" | "discarded" | null;
  mergeCommit: string | null;
  cleanupError: string | null;
  finishedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

/** What the launch hook is told before an agent starts for a task (any round, or a resume). */
export interface BeforeLaunch {
  taskId: string;
  launch: Launch;
  cwd: string;
  /** the repository to record the agent's workspace trust for; null when the project says no (or has none) */
  trustDir: string | null;
  /** the sandbox's private home, when the agent runs sandboxed */
  sandboxHome: string | null;
}

/** What a resumed agent is told when no prompt is given. */
export const RESUME_PROMPT = "Switchyard restarted you in the same session after your previous run stopped. Continue the task where you left off, and report when you are done (yard task report).";

export interface TaskEngineDeps {
  journal: EventJournal;
  panes: PaneManager;
  agents: AgentProfiles;
  projects: Projects;
  home: string;
  maxActive?: number;
  readyTimeoutMs?: number;
  /** Persistence: tasks, rounds, the board's reads. */
  store: TaskStore;
  /** The OS sandbox for tasks that ask for it (none: such starts are SANDBOX_UNAVAILABLE). */
  sandbox?: Sandbox;
  /** How long a start-up dialog may wait for a human (YARD_DIALOG_TIMEOUT_MS; default: the ready timeout). */
  dialogTimeoutMs?: number;
  /** Prepares the agent's own config right before it launches (core/agents/launch-prep.ts). */
  beforeLaunch?: (b: BeforeLaunch) => Promise<void>;
  /** false when a start-up dialog is on the pane's screen (core/agents/screen-watch.ts): never type a prompt into one. */
  confirmReady?: (paneId: string) => Promise<boolean>;
}

type FinishOptions = { merge?: { target?: string; keepBranch?: boolean; ignoreDirty?: boolean }; discard?: { deleteBranch?: boolean } };

/** What a start needs once validated; nothing is created from it until launch. */
interface LaunchPlan {
  id: string;
  title: string;
  repoRoot: string;
  agentId: string | null;
  argv: string[] | null;
  contract: Contract;
  parentPaneId: string | null;
  options: LaunchOptions;
  /** Run under the OS sandbox (with network or not); null: unsandboxed. */
  sandbox: { network: boolean } | null;
  /** The repository whose workspace trust the agent's config records (its project trusts agents); null: none. */
  trustDir: string | null;
}

/** How a task's worktree and agent start; kept with a backlog task until it starts. */
interface LaunchOptions {
  branch: string;
  baseRef: string | null;
  fetch: boolean;
  path: string | null;
  readyTimeoutMs: number | null;
  stallMs: number | null;
  dialogTimeoutMs?: number | null;
}

export interface RoundRecord {
  number: number;
  state: string;
  paneId: string | null;
  prompt: string | null;
  result: TaskResult | null;
  evidence: Evidence | null;
  startedAt: string;
  endedAt: string | null;
}

export interface TaskDiff {
  diff: string;
  files: DiffFile[];
  baseSha: string;
  source: "worktree" | "branch";
}

function contractOf(r: TaskRow): Contract {
  return { objective: r.objective, constraints: json<string[]>(r.constraints, []), acceptanceCriteria: json<string[]>(r.acceptanceCriteria, []), outputFormat: r.outputFormat ?? undefined };
}

const json = <T>(s: string | null | undefined, fallback: T): T => {
  if (!s) return fallback;
  try {
    return JSON.parse(s) as T;
  } catch {
    return fallback;
  }
};

function slug(s: string): string {
  return s.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "").slice(0, 40) || "task";
}

export class TaskEngine {
  private readonly runners = new Map<string, AbortController>();
  /** Starts past the cap check whose task is not recorded as pending yet (they count against the cap). */
  private readonly launching = new Set<string>();
  /** Tasks a merge or discard is finishing right now. */
  private readonly finishing = new Set<string>();
  private readonly store: TaskStore;
  private readonly stateCache = new Map<string, TaskState>();
  private startLock: Promise<unknown> = Promise.resolve();
  /** During shutdown panes are killed on purpose: their tasks are judged at the next start. */
  private closing = false;
  /** Serializes state changes per task so concurrent events apply in order. */
  private readonly chains = new Map<string, Promise<unknown>>();

  constructor(private readonly deps: TaskEngineDeps) {
    this.store = deps.store;
  }

  get maxActive() {
    return this.deps.maxActive ?? DEFAULT_MAX_ACTIVE;
  }

  /** Pane manager's view of a task's state (pending tasks refuse prompts). */
  cachedState(taskId: string): string | null {
    return this.stateCache.get(taskId) ?? null;
  }

  // ---- start ---------------------------------------------------------------------------

  /**
   * Starts a task now, or with `backlog: true` records it in the backlog (validated exactly like
   * a start; no worktree, branch or pane until startBacklog).
   */
  async start(raw: StartInput, caller: { paneId?: string | null } = {}): Promise<{ task: TaskView; pane: PaneInfo | null }> {
    const input = startInput.parse(raw);
    if (input.agent && input.argv) throw new YardError("BAD_PARAMS", "Give either an agent profile or a command (argv), not both");
    if (!input.projectId && !input.repoPath) throw new YardError("BAD_PARAMS", "Give a project (--project ID) or a repository (--repo PATH)");
    if (input.projectId && input.repoPath) throw new YardError("BAD_PARAMS", "Give either --project or --repo, not both");
    const project = input.projectId ? await this.deps.projects.get(input.projectId) : null;
    const repo = await inspectRepo(project?.path ?? input.repoPath!);
    if (!repo.hasHead) throw new YardError("BAD_PARAMS", `${repo.root} has no commits yet; commit something first`, { repo: repo.root });
    const agentId = input.argv ? null : (input.agent ?? "demo");
    // Profile, placeholders and program are checked now: a launch that cannot work creates nothing.
    await this.deps.panes.resolveLaunch({ agent: agentId ?? undefined, argv: input.argv });
    const sandbox = await this.sandboxFor(input.sandbox, agentId ? await this.deps.agents.get(agentId) : null);
    const parentPaneId = input.parentPaneId ?? caller.paneId ?? null;
    if (parentPaneId) {
      await this.deps.panes.get(parentPaneId).catch((e: unknown) => {
        throw e instanceof YardError && e.code === "NOT_FOUND" ? new YardError("NOT_FOUND", `No parent pane ${parentPaneId}`, { parentPaneId }) : e;
      });
    }
    const parentTask = input.parentTaskId ? await this.row(input.parentTaskId) : null;

    const id = newId("tsk");
    const title = input.title ?? input.objective.split("\n")[0]!.slice(0, 80);
    const branch = await validateBranchName(input.branch ?? `yard/${slug(title)}-${id.slice(3, 9)}`);
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
    };
    const plan: LaunchPlan = {
      id,
      title,
      repoRoot: repo.root,
      agentId,
      argv: input.argv ?? null,
      contract: { objective: input.objective, constraints: input.constraints, acceptanceCriteria: input.acceptanceCriteria, outputFormat: input.outputFormat },
      parentPaneId,
      sandbox,
      trustDir: project?.trustAgents ? repo.root : null,
      options: { branch, baseRef: input.baseRef ?? null, fetch: input.fetch ?? false, path: input.path ?? null, readyTimeoutMs: input.readyTimeoutMs ?? null, stallMs: input.stallMs ?? null, dialogTimeoutMs: input.dialogTimeoutMs ?? null },
    };
    if (!input.backlog) return this.launch(plan, { create: fields });

    // The base is resolved again when the task starts (HEAD moves meanwhile); a ref that does
    // not resolve now is refused now. With --fetch it may only exist after the fetch at start.
    if (input.baseRef && !input.fetch) await resolveBaseSha(repo.root, input.baseRef);
    await this.store.createBacklog(fields, { ...plan.options });
    this.stateCache.set(id, "backlog");
    await this.deps.journal.append("task.created", { taskId: id, payload: { title, contextId: input.contextId ?? null, backlog: true } });
    return { task: await this.get(id), pane: null };
  }

  /** Starts a backlog task: the cap, then worktree, branch, pane and the contract, as any start. */
  async startBacklog(taskId: string): Promise<{ task: TaskView; pane: PaneInfo }> {
    const row = await this.row(taskId);
    transition(row.state as TaskState, { type: "start" }); // CONFLICT unless it is in the backlog, before anything is created
    const options = json<LaunchOptions | null>(row.startOptions, null);
    if (!options) throw new YardError("CONFLICT", "The backlog task has no launch options recorded", { taskId });
    const repo = await inspectRepo(row.repoPath);
    const argv = json<string[] | null>(row.argv, null);
    const agentId = argv ? null : row.agent;
    await this.deps.panes.resolveLaunch({ agent: agentId ?? undefined, argv: argv ?? undefined });
    // Sandboxed when it was saved: the sandbox must be available now, checked before anything is created.
    const sandbox = row.sandboxed ? await this.sandboxFor(true, agentId ? await this.deps.agents.get(agentId) : null) : null;
    const plan: LaunchPlan = { id: row.id, title: row.title, repoRoot: repo.root, agentId, argv, contract: contractOf(row), parentPaneId: row.parentPaneId, options, sandbox, trustDir: await this.trustDirOf(row) };
    const { task, pane } = await this.launch(plan, { fromBacklog: true });
    return { task, pane: pane! };
  }

  /**
   * The one start path (new tasks and backlog tasks): under the start lock the cap is checked
   * (counting starts still in flight), the base resolved and the worktree created; then the agent
   * is spawned in it, the task recorded as pending, and the contract submitted in the background.
   * A refusal at any step leaves nothing behind: no worktree, no branch it created, and either no
   * task (a new one) or the backlog task exactly as it was.
   */
  private async launch(plan: LaunchPlan, mode: { create: TaskFields } | { fromBacklog: true }): Promise<{ task: TaskView; pane: PaneInfo | null }> {
    const { id, options } = plan;
    let currentBranch: string | null = null;
    let wt!: Awaited<ReturnType<typeof createWorktree>>;
    // The cap check and the reservation are one step: a second start cannot slip between them.
    const run = async () => {
      const active = (await this.store.activeCount(ACTIVE_STATES)) + this.launching.size;
      if (active >= this.maxActive) {
        throw new YardError("RATE_LIMITED", `${active} tasks are already running (the cap is ${this.maxActive}); finish, cancel or wait for one first`, { active, cap: this.maxActive });
      }
      const baseSha = await resolveBaseSha(plan.repoRoot, options.baseRef, { fetch: options.fetch });
      currentBranch = (await inspectRepo(plan.repoRoot)).currentBranch;
      wt = await createWorktree({ repoRoot: plan.repoRoot, branch: options.branch, baseSha, path: options.path ?? undefined, yardHome: this.deps.home });
      this.launching.add(id);
    };
    const p = this.startLock.then(run, run);
    this.startLock = p.catch(() => {});
    await p;

    const prompt = renderPrompt(plan.contract, { id, title: plan.title });
    const previous = this.stateCache.get(id);
    let pane: PaneInfo | null = null;
    try {
      this.stateCache.set(id, "pending"); // the pane refuses other prompts until the contract is in
      pane = await this.spawnWorker(plan, wt.worktreePath);
      const launch: LaunchFields = { baseSha: wt.baseSha, targetBranch: currentBranch, branch: wt.branch, branchPreexisting: wt.branchPreexisting, worktreePath: wt.worktreePath, paneId: pane.id, prompt };
      if ("create" in mode) await this.store.createStarted(mode.create, launch);
      else await this.store.recordLaunch(id, launch);
    } catch (e) {
      if (previous) this.stateCache.set(id, previous);
      else this.stateCache.delete(id);
      this.launching.delete(id);
      if (pane) await this.deps.panes.kill(pane.id).catch(() => {});
      await discardWorktree({ repoRoot: plan.repoRoot, worktreePath: wt.worktreePath, branch: wt.branch, branchPreexisting: wt.branchPreexisting, deleteBranch: true }).catch(() => {});
      await this.tidyWorktreeDir({ repoPath: plan.repoRoot, worktreePath: wt.worktreePath });
      throw e;
    }
    try {
      if ("create" in mode) {
        await this.deps.journal.append("task.created", { taskId: id, paneId: pane.id, payload: { title: plan.title, contextId: mode.create.contextId, branch: wt.branch, baseSha: wt.baseSha, sandboxed: plan.sandbox !== null } });
      } else {
        await this.deps.journal.append("task.started", { taskId: id, paneId: pane.id, payload: { branch: wt.branch, baseSha: wt.baseSha, fromBacklog: true } });
        await this.apply(id, { type: "start" });
      }
    } finally {
      this.launching.delete(id);
    }
    this.runInBackground(id, pane.id, prompt, { readyTimeoutMs: options.readyTimeoutMs ?? undefined, stallMs: options.stallMs ?? undefined, dialogTimeoutMs: options.dialogTimeoutMs ?? undefined, round: 1 });
    return { task: await this.get(id), pane };
  }

  /** The task's agent in a new pane in its worktree (same profile or command; YARD_TASK set; sandboxed when the task is). */
  private async spawnWorker(
    w: Pick<LaunchPlan, "id" | "title" | "agentId" | "argv" | "parentPaneId" | "sandbox" | "trustDir"> & { rewriteArgv?: (argv: string[]) => string[] },
    cwd: string,
  ): Promise<PaneInfo> {
    // The agent's own config (workspace trust, hooks) is prepared right before it launches.
    const launch = await this.deps.panes.resolveLaunch({ agent: w.agentId ?? undefined, argv: w.argv ?? undefined });
    await this.launchHook({
      taskId: w.id,
      launch: w.rewriteArgv ? { ...launch, argv: w.rewriteArgv(launch.argv) } : launch,
      cwd,
      trustDir: w.trustDir,
      sandboxHome: w.sandbox ? (this.deps.sandbox?.dirs(w.id).home ?? null) : null,
    });
    return this.deps.panes.spawn(
      { agent: w.agentId ?? undefined, argv: w.argv ?? undefined, cwd, label: w.title.slice(0, 120), parentPaneId: w.parentPaneId ?? undefined, relationship: w.parentPaneId ? "subagent" : undefined },
      { taskId: w.id, sandbox: await this.sandboxLaunch(w.id, cwd, w.sandbox), rewriteArgv: w.rewriteArgv },
    );
  }

  /** The repository to record agents' workspace trust for: the task's, when its project trusts agents. */
  private async trustDirOf(row: Pick<TaskRow, "projectId" | "repoPath">): Promise<string | null> {
    const project = row.projectId ? await this.deps.projects.get(row.projectId).catch(() => null) : null;
    return project?.trustAgents ? row.repoPath : null;
  }

  /** The launch hook point: a failed preparation is journaled and the launch goes on (the agent then shows its dialog). */
  private async launchHook(b: BeforeLaunch): Promise<void> {
    if (!this.deps.beforeLaunch) return;
    try {
      await this.deps.beforeLaunch(b);
    } catch (e) {
      const err = e instanceof YardError ? e : new YardError("INTERNAL", (e as Error).message);
      await this.deps.journal.append("task.prepare_failed", { taskId: b.taskId, payload: { code: err.code, message: err.message } });
    }
  }

  // ---- sandbox (hook point) -------------------------------------------------------------

  /**
   * Whether a start runs sandboxed (the start's flag wins over the profile's), checked before
   * anything is created: when the sandbox cannot start here, SANDBOX_UNAVAILABLE says why.
   */
  private async sandboxFor(flag: boolean | undefined, profile: AgentProfile | null): Promise<{ network: boolean } | null> {
    if (!(flag ?? profile?.sandbox ?? false)) return null;
    if (!this.deps.sandbox) throw new YardError("SANDBOX_UNAVAILABLE", "This server was started without the OS sandbox", { reason: "not_configured" });
    await this.deps.sandbox.require();
    return { network: profile?.sandboxNetwork ?? false };
  }

  /** The launch the pane manager wraps the agent in (null: unsandboxed). */
  private async sandboxLaunch(taskId: string, worktreePath: string, sandbox: { network: boolean } | null): Promise<SandboxLaunch | null> {
    if (!sandbox || !this.deps.sandbox) return null;
    return this.deps.sandbox.prepare({ taskId, worktreePath, network: sandbox.network });
  }

  /**
   * After a worktree was removed: nothing of it stays on disk. Leftovers at its path and the
   * per-repository folder, once empty, go — only inside Switchyard's own worktree root, and
   * only when git no longer knows the path as a worktree.
   */
  private async tidyWorktreeDir(t: Pick<TaskRow, "repoPath" | "worktreePath">): Promise<void> {
    if (!t.worktreePath) return;
    const root = path.join(this.deps.home, "worktrees");
    const rel = path.relative(root, t.worktreePath);
    if (!rel || rel.startsWith("..") || path.isAbsolute(rel)) return;
    if (await findWorktree(t.repoPath, t.worktreePath).catch(() => "unknown")) return;
    await rm(t.worktreePath, { recursive: true, force: true }).catch(() => {});
    await rmdirUpTo(path.dirname(t.worktreePath), path.join(root, rel.split(path.sep)[0]!));
  }

  /**
   * Server-side, survives the caller leaving: wait until the agent is ready, then submit the
   * round's prompt (the contract, or review feedback) through the gate. What goes wrong lands in
   * the task's state through the reducer, with evidence.
   */
  private runInBackground(taskId: string, paneId: string, prompt: string, opts: { readyTimeoutMs?: number; stallMs?: number; dialogTimeoutMs?: number; round: number }) {
    this.runners.get(taskId)?.abort();
    const ac = new AbortController();
    this.runners.set(taskId, ac);
    const readyTimeoutMs = opts.readyTimeoutMs ?? this.deps.readyTimeoutMs ?? DEFAULT_READY_TIMEOUT_MS;
    const { stallMs, round } = opts;
    void (async () => {
      const ready = await waitForReady({ panes: this.deps.panes, journal: this.deps.journal, confirmReady: this.deps.confirmReady }, paneId, {
        timeoutMs: readyTimeoutMs,
        dialogTimeoutMs: opts.dialogTimeoutMs ?? this.deps.dialogTimeoutMs,
        signal: ac.signal,
      });
      if (ac.signal.aborted || (!ready.ready && ready.reason === "aborted")) return;
      if (!ready.ready && ready.reason === "exited") {
        // Usually the pane's own exit event fails the task; this covers an exit before the task recorded its pane.
        const info = await this.deps.panes.get(paneId);
        await this.apply(taskId, { type: "pane_exit", exitCode: info.exitCode, signal: info.signal, lastLifecycle: (await this.lastLifecycleBeforeExit(paneId)) ?? "starting" });
        return;
      }
      if (!ready.ready) {
        await this.apply(taskId, { type: "ready_timeout", timeoutMs: readyTimeoutMs, lifecycle: ready.lifecycle, round, dialog: ready.dialog, screen: ready.screen, waitedAtDialogMs: ready.waitedAtDialogMs });
        return;
      }
      try {
        await this.deps.panes.submitForTask(paneId, prompt, { stallMs, signal: ac.signal });
        await this.apply(taskId, { type: "submitted" });
      } catch (e) {
        if (ac.signal.aborted) return;
        const err = e instanceof YardError ? e : new YardError("INTERNAL", (e as Error).message);
        if (err.code === "SUBMIT_STALLED") await this.apply(taskId, { type: "submit_unconfirmed", stallMs: Number(err.details?.stallMs ?? stallMs ?? 5000) });
        else if (err.code !== "PANE_EXITED") await this.apply(taskId, { type: "submit_refused", code: err.code, message: err.message, details: err.details ?? null, round });
      }
    })()
      .catch(() => {})
      .finally(() => {
        if (this.runners.get(taskId) === ac) this.runners.delete(taskId);
      });
  }

  // ---- state changes -------------------------------------------------------------------

  /**
   * Applies one event through the reducer, persists it and journals it. Serialized per task.
   * A transition that starts a round (next_round) writes a new round row with `extra.round`'s
   * prompt and pane instead of touching the current one. A transition that finishes the task
   * (merged, discarded) records its disposition with `extra.finished`.
   */
  private apply(
    taskId: string,
    event: TaskEvent,
    extra: { result?: TaskResult; round?: { prompt: string; paneId: string }; finished?: { mergeCommit?: string | null; cleanupError?: string | null } } = {},
  ): Promise<{ changed: boolean; state: TaskState }> {
    const run = async () => {
      const row = await this.row(taskId);
      const t = transition(row.state as TaskState, event, (row.disposition as Disposition | null) ?? null);
      if (!t.changed) return { changed: false, state: t.state };
      const now = new Date();
      let round = row.round;
      let paneId = row.paneId;
      if (t.startsRound) {
        if (!extra.round) throw new YardError("INTERNAL", "A new round needs its prompt and pane");
        round = row.round + 1;
        paneId = extra.round.paneId;
        await this.store.startRound(taskId, { previous: row.round, next: round, state: t.state, prompt: extra.round.prompt, paneId, at: now });
      } else {
        await this.store.applyTransition(taskId, row.round, {
          state: t.state,
          ...(t.evidence !== undefined ? { evidence: t.evidence ? JSON.stringify(t.evidence) : null } : {}),
          ...(extra.result ? { result: JSON.stringify(extra.result) } : {}),
          ...(t.endsRound ? { endsRoundAt: now } : {}),
          ...(t.disposition ? { finished: { disposition: t.disposition, at: now, ...extra.finished } } : {}),
        });
      }
      this.stateCache.set(taskId, t.state);
      if (extra.result) await this.deps.journal.append("task.result", { taskId, paneId, payload: { round, ...extra.result } });
      if (t.state !== row.state || t.evidence !== undefined) {
        await this.deps.journal.append("task.state", { taskId, paneId, payload: { from: row.state, to: t.state, cause: event.type, round, evidence: t.evidence ?? null } });
      }
      // A failed task never leaves its agent running behind the card.
      if (t.state === "failed" && row.state !== "failed" && paneId && this.deps.panes.isLive(paneId)) void this.deps.panes.kill(paneId).catch(() => {});
      return { changed: true, state: t.state };
    };
    const prev = this.chains.get(taskId) ?? Promise.resolve();
    const p = prev.then(run, run);
    this.chains.set(taskId, p.catch(() => {}));
    return p;
  }

  /** The pane manager reports every lifecycle transition of a task's pane here (`lost`: its host died). */
  onPaneTransition(info: PaneInfo, to: string, from: string, lastMessage: string | undefined, lost?: string, lastStop?: { failed: boolean; error?: string } | null) {
    if (!info.taskId || this.closing) return;
    const taskId = info.taskId;
    void (async () => {
      const row = await this.store.row(taskId);
      if (row?.paneId !== info.id) return; // an old round's pane
      if (to === "done") await this.apply(taskId, { type: "pane_done", lastMessage: lastMessage ?? null, failure: lastStop?.failed ? { error: lastStop.error ?? null } : null });
      else if (to === "working" || to === "blocked") await this.apply(taskId, { type: "pane_working" });
      else if (to === "exited") {
        this.runners.get(taskId)?.abort();
        await this.apply(taskId, lost ? { type: "pane_lost", reason: lost, lastLifecycle: from } : { type: "pane_exit", exitCode: info.exitCode, signal: info.signal, lastLifecycle: from });
      }
    })().catch(() => {});
  }

  // ---- report, cancel ------------------------------------------------------------------

  async report(raw: z.input<typeof reportInput>, caller: { paneId: string | null; paneTaskId: string | null; admin: boolean }): Promise<TaskView> {
    const input = reportInput.parse(raw);
    const taskId = input.taskId ?? caller.paneTaskId;
    if (!taskId) throw new YardError("BAD_PARAMS", "Which task? Run this inside a task's pane (YARD_TASK) or pass --task ID");
    await this.row(taskId); // NOT_FOUND before FORBIDDEN
    if (!caller.admin && caller.paneTaskId !== taskId) throw new YardError("FORBIDDEN", "A pane may only report for its own task", { taskId });
    const result: TaskResult = { status: input.status, summary: input.summary, artifacts: input.artifacts, changedFiles: input.changedFiles, evidence: input.evidence ?? null };
    await this.apply(taskId, { type: "report", status: input.status }, { result });
    return this.get(taskId);
  }

  async cancel(taskId: string): Promise<TaskView> {
    const row = await this.row(taskId);
    if (isTerminal(row.state)) throw new YardError("CONFLICT", `The task is already ${row.state}`, { state: row.state });
    this.runners.get(taskId)?.abort();
    await this.apply(taskId, { type: "cancel" });
    if (row.paneId && this.deps.panes.isLive(row.paneId)) await this.deps.panes.kill(row.paneId);
    return this.get(taskId);
  }

  // ---- review rounds and follow-ups ----------------------------------------------------

  /**
   * Starts round N+1 on the same worktree with `feedback` as its prompt (a review requested
   * changes). A live pane gets only the feedback: its agent holds the contract already, and
   * re-sending the objective would make it redo round 1. When the pane has exited, a fresh pane
   * with the same profile (or command) starts in the worktree and gets the contract followed by
   * the feedback. Either way the prompt goes through the submit gate in the background, as at
   * start, and the round's fate lands in the task's state through the reducer.
   */
  async startNextRound(taskId: string, feedback: string): Promise<TaskView> {
    const row = await this.row(taskId);
    if (row.disposition) throw new YardError("CONFLICT", `The task is already ${row.disposition}; it takes no more rounds`, { disposition: row.disposition });
    transition(row.state as TaskState, { type: "next_round" }); // CONFLICT for other states, before anything is spawned
    if (!row.worktreePath || !existsSync(row.worktreePath)) throw new YardError("CONFLICT", "The task's worktree is gone; another round cannot run", { taskId, worktreePath: row.worktreePath });
    const live = row.paneId !== null && this.deps.panes.isLive(row.paneId) && this.deps.panes.state(row.paneId)?.lifecycle !== "exited";
    let paneId = row.paneId!;
    let prompt = feedback;
    if (!live) {
      const argv = json<string[] | null>(row.argv, null);
      const agentId = argv ? null : row.agent;
      const sandbox = row.sandboxed ? await this.sandboxFor(true, agentId ? await this.deps.agents.get(agentId) : null) : null;
      const pane = await this.spawnWorker({ id: row.id, title: row.title, agentId, argv, parentPaneId: row.parentPaneId, sandbox, trustDir: await this.trustDirOf(row) }, row.worktreePath);
      paneId = pane.id;
      prompt = `${renderPrompt(contractOf(row), { id: row.id, title: row.title })}\n\n${feedback}`;
    }
    try {
      await this.apply(taskId, { type: "next_round" }, { round: { prompt, paneId } });
    } catch (e) {
      if (!live) await this.deps.panes.kill(paneId).catch(() => {});
      throw e;
    }
    await this.deps.journal.append("task.round", { taskId, paneId, payload: { round: row.round + 1, freshPane: !live } });
    this.runInBackground(taskId, paneId, prompt, { round: row.round + 1 });
    return this.get(taskId);
  }

  /** A follow-up prompt for an input_required task, through the submit gate to its live pane. */
  async followUp(taskId: string, text: string, opts: { stallMs?: number } = {}): Promise<{ task: TaskView; submit: { activitySeq: number; bracketed: boolean } }> {
    const row = await this.row(taskId);
    if (row.state !== "input_required") throw new YardError("CONFLICT", `Only a task waiting for input takes a follow-up; this one is ${row.state}`, { state: row.state });
    if (!row.paneId) throw new YardError("PANE_EXITED", "The task has no pane to take the follow-up", { taskId });
    const res = await this.deps.panes.submit(row.paneId, text, { stallMs: opts.stallMs });
    await this.deps.journal.append("task.follow_up", { taskId, paneId: row.paneId, payload: { round: row.round, bytes: Buffer.byteLength(text), text: text.slice(0, 4000) } });
    return { task: await this.get(taskId), submit: { activitySeq: res.activitySeq, bracketed: res.bracketed } };
  }

  /** Every round's record, oldest first. */
  async roundRecords(taskId: string): Promise<RoundRecord[]> {
    await this.row(taskId);
    return (await this.store.rounds(taskId)).map((r) => ({
      number: r.number,
      state: r.state,
      paneId: r.paneId,
      prompt: r.prompt,
      result: json<TaskResult | null>(r.result, null),
      evidence: json<Evidence | null>(r.evidence, null),
      startedAt: r.startedAt.toISOString(),
      endedAt: r.endedAt?.toISOString() ?? null,
    }));
  }

  /** The worktree's current state as a tree id (a review's snapshot); null when the worktree is gone. */
  async snapshot(taskId: string): Promise<string | null> {
    const t = await this.row(taskId);
    if (!t.worktreePath || !existsSync(path.join(t.worktreePath, ".git"))) return null;
    try {
      return await worktreeTree({ worktreePath: t.worktreePath });
    } catch (e) {
      if (!existsSync(path.join(t.worktreePath, ".git"))) return null; // removed while git read it
      throw e;
    }
  }

  board(projectId: string): Promise<Board> {
    return loadBoard(this.store, projectId, this.deps.panes);
  }

  // ---- resume --------------------------------------------------------------------------

  /**
   * Resumes a failed or canceled task's agent in a fresh pane that continues the same
   * conversation (`claude --resume <session>`, `codex resume <session>`), as a new round on the
   * same worktree, then submits `prompt` (default RESUME_PROMPT) once the agent is ready.
   */
  async resume(taskId: string, opts: { prompt?: string; readyTimeoutMs?: number; stallMs?: number } = {}): Promise<{ task: TaskView; pane: PaneInfo }> {
    const t = await this.row(taskId);
    transition(t.state as TaskState, { type: "resume", sessionId: t.agentSessionId ?? "" }, (t.disposition as Disposition | null) ?? null); // CONFLICT before anything is spawned
    if (!t.agentSessionId) throw new YardError("CONFLICT", "The task's agent never reported a session (no hook arrived), so there is nothing to resume", { taskId });
    if (!t.worktreePath || !existsSync(t.worktreePath)) throw new YardError("CONFLICT", "The task's worktree is gone", { worktreePath: t.worktreePath });
    if (t.paneId && this.deps.panes.isLive(t.paneId)) throw new YardError("CONFLICT", `The task's agent is still running in pane ${t.paneId}`, { paneId: t.paneId });
    if (t.agent === "custom") throw new YardError("BAD_PARAMS", "The task runs a custom command, not an agent profile; only Claude Code and Codex sessions can be resumed");
    const profile = await this.deps.agents.get(t.agent);
    const kind = agentKindOf({ profileId: profile.id, argv: profile.argv });
    if (!kind) throw new YardError("BAD_PARAMS", `The agent profile ${profile.id} runs neither Claude Code nor Codex; its sessions cannot be resumed`, { agent: profile.id });
    const sessionId = t.agentSessionId;
    const rewriteArgv = kind === "claude" ? (argv: string[]) => [...argv, "--resume", sessionId] : (argv: string[]) => codexResumeArgv(argv, sessionId);
    const sandbox = t.sandboxed ? await this.sandboxFor(true, profile) : null;
    const pane = await this.spawnWorker({ id: taskId, title: t.title, agentId: profile.id, argv: null, parentPaneId: t.parentPaneId, sandbox, trustDir: await this.trustDirOf(t), rewriteArgv }, t.worktreePath);
    const prompt = opts.prompt ?? RESUME_PROMPT;
    try {
      await this.apply(taskId, { type: "resume", sessionId }, { round: { prompt, paneId: pane.id } });
    } catch (e) {
      await this.deps.panes.kill(pane.id).catch(() => {});
      throw e;
    }
    await this.deps.journal.append("task.resumed", { taskId, paneId: pane.id, payload: { round: t.round + 1, sessionId, agent: profile.id } });
    this.runInBackground(taskId, pane.id, prompt, { readyTimeoutMs: opts.readyTimeoutMs, stallMs: opts.stallMs, round: t.round + 1 });
    return { task: await this.get(taskId), pane };
  }

  // ---- reads ---------------------------------------------------------------------------

  /** Tasks not yet settled for good (pending, working, input_required), optionally of one profile. */
  activeCount(filter: { agent?: string } = {}): Promise<number> {
    return this.store.activeCount(ACTIVE_STATES, filter);
  }

  private async row(id: string): Promise<TaskRow> {
    const row = await this.store.row(id);
    if (!row) throw new YardError("NOT_FOUND", `No task ${id}`, { taskId: id });
    return row;
  }

  async get(id: string): Promise<TaskView> {
    return (await this.views([await this.row(id)]))[0]!;
  }

  async list(filter: { contextId?: string; states?: string[]; projectId?: string } = {}): Promise<TaskView[]> {
    return this.views(await this.store.list(filter));
  }

  /** Rows to views; each task's current round (result, review verdict) comes from one batched read, not one query per task. */
  private async views(rows: TaskRow[]): Promise<TaskView[]> {
    const current = await this.store.currentRounds(rows);
    return Promise.all(rows.map((r) => this.view(r, current.get(r.id) ?? { result: null, verdict: null })));
  }

  private async view(r: TaskRow, current: { result: string | null; verdict: string | null }): Promise<TaskView> {
    const evidence = json<Evidence | null>(r.evidence, null);
    const pane = r.paneId && this.deps.panes.isLive(r.paneId) ? await this.deps.panes.get(r.paneId).catch(() => null) : null;
    return {
      id: r.id,
      title: r.title,
      state: r.state as TaskState,
      round: r.round,
      label: r.label,
      contextId: r.contextId,
      projectId: r.projectId,
      repoPath: r.repoPath,
      agent: r.agent,
      contract: { objective: r.objective, constraints: json(r.constraints, []), acceptanceCriteria: json(r.acceptanceCriteria, []), outputFormat: r.outputFormat },
      baseRef: r.baseRef,
      baseSha: r.baseSha,
      targetBranch: r.targetBranch,
      branch: r.branch,
      branchPreexisting: r.branchPreexisting,
      worktreePath: r.worktreePath,
      paneId: r.paneId,
      parentPaneId: r.parentPaneId,
      parentTaskId: r.parentTaskId,
      rootTaskId: r.rootTaskId,
      result: json<TaskResult | null>(current.result, null),
      evidence,
      reviewStatus: toStatus(current.verdict),
      sandboxed: r.sandboxed,
      agentSession: r.agentSessionId ? { id: r.agentSessionId, transcriptPath: r.agentTranscriptPath, tokens: await transcriptTokenUsage(r.agentTranscriptPath) } : null,
      statusLine: cardLine({ state: r.state, evidence, pane }),
      disposition: (r.disposition as TaskView["disposition"]) ?? null,
      mergeCommit: r.mergeCommit,
      cleanupError: r.cleanupError,
      finishedAt: r.finishedAt?.toISOString() ?? null,
      createdAt: r.createdAt.toISOString(),
      updatedAt: r.updatedAt.toISOString(),
    };
  }

  async events(taskId: string, since?: number): Promise<YardEvent[]> {
    await this.row(taskId);
    return this.deps.journal.list({ taskId, since });
  }

  // ---- wait ----------------------------------------------------------------------------

  async wait(opts: { taskId?: string; contextId?: string; until?: string | string[]; timeoutMs?: number }): Promise<TaskView[]> {
    if (!opts.taskId === !opts.contextId) throw new YardError("BAD_PARAMS", "Wait for one task (ID) or a context (--context), not both or neither");
    const until = resolveUntil(opts.until);
    const timeoutMs = opts.timeoutMs ?? 10 * 60_000;
    if (opts.taskId) await this.row(opts.taskId);
    const load = async () => (opts.taskId ? [await this.get(opts.taskId)] : await this.list({ contextId: opts.contextId }));
    const done = (tasks: TaskView[]) => tasks.every((t) => until.includes(t.state));
    return new Promise<TaskView[]>((resolve, reject) => {
      let finished = false;
      let checking = false;
      let again = false;
      const finish = (err: Error | null, tasks?: TaskView[]) => {
        if (finished) return;
        finished = true;
        clearTimeout(timer);
        unsubscribe();
        if (err) reject(err);
        else resolve(tasks!);
      };
      const check = async () => {
        if (checking) return void (again = true);
        checking = true;
        try {
          do {
            again = false;
            const tasks = await load();
            if (done(tasks)) return finish(null, tasks);
          } while (again);
        } catch (e) {
          finish(e as Error);
        } finally {
          checking = false;
        }
      };
      const unsubscribe = this.deps.journal.subscribe(
        (e) => {
          if (!opts.taskId || e.taskId === opts.taskId) void check();
        },
        { type: "task.*" },
      );
      const timer = setTimeout(async () => {
        const tasks = await load().catch(() => []);
        if (done(tasks)) return finish(null, tasks);
        finish(new YardError("TIMEOUT", `Timed out after ${timeoutMs} ms waiting for ${until.join("|")}`, { timeoutMs, until, tasks: tasks.map((t) => ({ id: t.id, state: t.state })) }));
      }, timeoutMs);
      void check();
    });
  }

  // ---- diff ----------------------------------------------------------------------------

  /** The task's changes against its base commit: the live worktree, or its branch once the worktree is gone. */
  async diff(taskId: string): Promise<TaskDiff> {
    const t = await this.row(taskId);
    if (!t.baseSha || !t.worktreePath) throw new YardError("CONFLICT", t.state === "backlog" ? "The task is in the backlog; it has no worktree or diff until it starts" : "The task has no worktree");
    return this.changes(t, { baseSha: t.baseSha });
  }

  /** The changes from a review's snapshot (a tree id) to the worktree now, in the same shape. */
  async diffSince(taskId: string, tree: string): Promise<TaskDiff> {
    const t = await this.row(taskId);
    if (!t.baseSha || !t.worktreePath) throw new YardError("CONFLICT", "The task has no worktree");
    return this.changes(t, { tree });
  }

  private async changes(t: TaskRow, from: { baseSha: string } | { tree: string }): Promise<TaskDiff> {
    const baseSha = t.baseSha!;
    const wt = t.worktreePath!;
    // A linked worktree has a `.git` file; checking for it costs no git process on this hot path.
    // While a merge or discard removes it, its files are half gone: the branch is the truth then.
    if (!this.finishing.has(t.id) && existsSync(path.join(wt, ".git"))) {
      try {
        const d = "tree" in from ? await diffWorktreeSince({ worktreePath: wt, tree: from.tree }) : await diffWorktree({ worktreePath: wt, baseSha });
        return { ...d, baseSha, source: "worktree" };
      } catch (e) {
        // A merge or discard removed (part of) the worktree while git was reading it: use the branch.
        if (existsSync(path.join(wt, ".git")) && !this.finishing.has(t.id)) throw e;
      }
    }
    // The worktree is gone (merged or discarded): the branch, or the merge, still holds the committed work.
    try {
      const now = await this.row(t.id); // a merge that finished meanwhile has recorded its commit
      const tip = now.branch && (await branchExists(now.repoPath, now.branch)) ? now.branch : now.mergeCommit ? `${now.mergeCommit}^2` : null;
      if (!tip) {
        if (this.finishing.has(t.id)) throw new YardError("GIT_FAILED", "the branch is gone and the merge is not recorded yet");
        throw new YardError("CONFLICT", "The task's worktree and branch are both gone; there is nothing left to diff", { taskId: t.id });
      }
      const d = "tree" in from ? await diffTreeToCommit({ repoRoot: now.repoPath, tree: from.tree, tip }) : await diffCommits({ repoRoot: now.repoPath, baseSha, tip });
      return { ...d, baseSha, source: "branch" };
    } catch (e) {
      if (e instanceof YardError && (e.code === "GIT_FAILED" || e.code === "NOT_FOUND") && this.finishing.has(t.id)) {
        throw new YardError("CONFLICT", "The task is being merged or discarded right now; ask for its diff again once that has finished", { taskId: t.id, finishing: true });
      }
      throw e;
    }
  }

  // ---- finish --------------------------------------------------------------------------

  async finish(taskId: string, opts: FinishOptions) {
    // While a finish runs, a diff that trips over the worktree being removed answers CONFLICT, not a git error.
    this.finishing.add(taskId);
    try {
      return await this.finishNow(taskId, opts);
    } finally {
      this.finishing.delete(taskId);
    }
  }

  private async finishNow(taskId: string, opts: FinishOptions) {
    if (!opts.merge === !opts.discard) throw new YardError("BAD_PARAMS", "Finish with exactly one of --merge or --discard");
    const t = await this.row(taskId);
    if (!t.worktreePath || !t.branch) throw new YardError("CONFLICT", "The task has no worktree to finish");
    const worktreeExists = Boolean(await findWorktree(t.repoPath, t.worktreePath));

    if (t.disposition) {
      // A second finish only retries cleanup, and only while there is something left to clean.
      if (!worktreeExists) throw new YardError("CONFLICT", `The task is already ${t.disposition} and cleaned up`, { disposition: t.disposition });
      const cleanup = await discardWorktree({ repoRoot: t.repoPath, worktreePath: t.worktreePath, branch: t.branch, branchPreexisting: t.branchPreexisting, deleteBranch: false });
      await this.tidyWorktreeDir(t);
      await this.store.setCleanupError(taskId, cleanup.error ?? null);
      await this.deps.journal.append("task.cleanup", { taskId, payload: { ...cleanup } });
      return { task: await this.get(taskId), cleanup: { ok: !cleanup.error, ...cleanup } };
    }

    if (opts.merge) {
      transition(t.state as TaskState, { type: "merged" }); // TASK_NOT_COMPLETED before git is touched
      const target = opts.merge.target ?? t.targetBranch;
      if (!target) throw new YardError("BAD_PARAMS", "The task has no recorded target branch (the repository was on a detached HEAD): pass --target BRANCH", { expected: null });
      let res;
      try {
        res = await mergeTask({
          repoRoot: t.repoPath,
          worktreePath: t.worktreePath,
          branch: t.branch,
          targetBranch: target,
          branchPreexisting: t.branchPreexisting,
          ignoreDirty: opts.merge.ignoreDirty,
          keepBranch: opts.merge.keepBranch,
          message: `Merge ${t.branch}: ${t.title}`,
        });
      } catch (e) {
        if (e instanceof YardError) {
          await this.deps.journal.append("task.merge_failed", { taskId, payload: { code: e.code, message: e.message, details: e.details ?? null } });
        }
        throw e;
      }
      if (res.cleanup.worktreeRemoved) await this.tidyWorktreeDir(t);
      await this.apply(taskId, { type: "merged" }, { finished: { mergeCommit: res.mergeCommit, cleanupError: res.cleanup.ok ? null : (res.cleanup.error ?? "cleanup failed") } });
      await this.deps.journal.append("task.finished", { taskId, payload: { disposition: "merged", mergeCommit: res.mergeCommit, target, cleanup: res.cleanup } });
      return { task: await this.get(taskId), merge: { mergeCommit: res.mergeCommit, alreadyUpToDate: res.alreadyUpToDate, target }, cleanup: res.cleanup };
    }

    // Discard: the task is recorded discarded (canceled when it still ran) before its worker is
    // stopped, so the pane's exit is not mistaken for a crash; then only its worktree is removed.
    this.runners.get(taskId)?.abort();
    await this.apply(taskId, { type: "discarded" });
    if (t.paneId && this.deps.panes.isLive(t.paneId)) await this.deps.panes.kill(t.paneId);
    const cleanup = await discardWorktree({ repoRoot: t.repoPath, worktreePath: t.worktreePath, branch: t.branch, branchPreexisting: t.branchPreexisting, deleteBranch: opts.discard!.deleteBranch });
    await this.tidyWorktreeDir(t);
    await this.store.setCleanupError(taskId, cleanup.error ?? null);
    await this.deps.journal.append("task.finished", { taskId, payload: { disposition: "discarded", cleanup } });
    return { task: await this.get(taskId), cleanup: { ok: !cleanup.error, ...cleanup } };
  }

  // ---- restart -------------------------------------------------------------------------

  /**
   * On start-up: a task whose pane still runs in the pane host keeps its state (one still pending
   * gets its background runner back: wait for ready, submit the contract); a task whose pane is
   * gone becomes failed with evidence.
   */
  async recover(lostPanes: Map<string, string>): Promise<void> {
    const rows = await this.store.list({ states: [...ACTIVE_STATES] });
    for (const r of rows) {
      if (r.paneId && this.deps.panes.isLive(r.paneId)) {
        this.stateCache.set(r.id, r.state as TaskState);
        if (r.state === "pending") await this.resumePending(r, r.paneId);
        continue;
      }
      await this.apply(r.id, { type: "restart", lastLifecycle: r.paneId ? (lostPanes.get(r.paneId) ?? (await this.lastLifecycleBeforeExit(r.paneId))) : null });
    }
    // A merge that landed before its record was written is recorded, never redone or undone.
    const unfinished = await this.store.unfinishedCompleted();
    for (const r of unfinished) {
      if (!r.branch || !r.targetBranch || !r.baseSha) continue;
      const tip = await runGit(["rev-parse", "--verify", "-q", `refs/heads/${r.branch}`], { cwd: r.repoPath, allowFail: true });
      const sha = tip.stdout.trim();
      if (tip.code !== 0 || !sha || sha === r.baseSha) continue;
      if (await isMerged(r.repoPath, sha, r.targetBranch).catch(() => false)) {
        const head = await runGit(["rev-parse", `refs/heads/${r.targetBranch}`], { cwd: r.repoPath, allowFail: true });
        await this.apply(r.id, { type: "merged" }, { finished: { mergeCommit: head.stdout.trim() || null, cleanupError: "merge found landed at start-up; run finish again to clean up" } });
        await this.deps.journal.append("task.finished", { taskId: r.id, payload: { disposition: "merged", recovered: true } });
      }
    }
    for (const r of await this.store.allStates()) this.stateCache.set(r.id, r.state as TaskState);
  }

  /**
   * A pending task whose pane survived a server restart: the previous server was waiting for the
   * agent to be ready, or was submitting the contract. A pane already working (or done) took it.
   */
  private async resumePending(r: TaskRow, paneId: string): Promise<void> {
    const lifecycle = this.deps.panes.state(paneId)?.lifecycle;
    if (lifecycle === "working" || lifecycle === "blocked" || lifecycle === "done") {
      await this.apply(r.id, { type: "submitted" });
      if (lifecycle === "done") await this.apply(r.id, { type: "pane_done", lastMessage: this.deps.panes.state(paneId)?.lastMessage ?? null });
      return;
    }
    // The round's own prompt: the contract for round 1, the review feedback after.
    const prompt = (await this.store.rounds(r.id)).find((x) => x.number === r.round)?.prompt ?? renderPrompt(contractOf(r), { id: r.id, title: r.title });
    this.runInBackground(r.id, paneId, prompt, { readyTimeoutMs: this.deps.readyTimeoutMs ?? DEFAULT_READY_TIMEOUT_MS, round: r.round });
  }

  /** A pane stopped by the previous shutdown: what it was doing before it exited. */
  private async lastLifecycleBeforeExit(paneId: string): Promise<string | null> {
    const events = await this.deps.journal.list({ paneId, type: "pane.lifecycle" });
    const last = events.at(-1)?.payload as { from?: string; to?: string } | undefined;
    return last?.to === "exited" ? (last.from ?? null) : (last?.to ?? null);
  }

  async shutdown() {
    this.closing = true;
    for (const ac of this.runners.values()) ac.abort();
  }
}

export function resolveUntil(until: string | string[] | undefined): string[] {
  const list = (Array.isArray(until) ? until : (until ?? "settled").split(",")).map((s) => s.trim()).filter(Boolean);
  const out = new Set<string>();
  for (const u of list) {
    if (u in WAIT_SETS) for (const s of WAIT_SETS[u as keyof typeof WAIT_SETS]) out.add(s);
    else if (["backlog", "pending", "working", "input_required", "completed", "failed", "canceled", "rejected"].includes(u)) out.add(u);
    else throw new YardError("BAD_PARAMS", `Unknown state ${JSON.stringify(u)}: use settled, terminal, working or task states`, { until: u });
  }
  return [...out];
}
