// The task engine: starts worker tasks (validate, cap, base SHA, target branch, worktree under the
// repository lock, agent pane), drives each one in the background (wait for ready, submit the
// contract through the gate), follows its pane (turn ended, resumed, exited), takes reports,
// waits, diffs and finishes by merge or discard, recovers after a restart, and resumes a task's
// agent session in a fresh pane (a new round). State changes go through the pure reducer in
// state.ts; every change is journaled as task.* events. A task that fails stops its agent.
import { existsSync } from "node:fs";
import { rm } from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import type { Db } from "../../db";
import { absolutePath, contextId, evidence, LIMITS, text } from "../../contracts/common";
import { type AgentProfile, type AgentProfiles, argvSchema } from "../agents/profiles";
import { agentKindOf } from "../agents/kinds";
import { codexResumeArgv } from "../agents/codex";
import { transcriptTokenUsage, type TokenUsage } from "../agents/sessions";
import { YardError } from "../errors";
import type { EventJournal, YardEvent } from "../events/journal";
import { branchExists, createWorktree, diffCommits, type DiffFile, diffWorktree, discardWorktree, findWorktree, inspectRepo, isMerged, mergeTask, resolveBaseSha, runGit, validateBranchName } from "../git";
import { rmdirUpTo } from "../git/paths";
import { newId } from "../ids";
import type { PaneInfo, PaneManager } from "../panes/manager";
import type { Launch } from "../panes/launch";
import type { Projects } from "../projects/projects";
import type { Sandbox, SandboxLaunch } from "../sandbox/sandbox";
import { type Contract, contractInput, renderPrompt } from "./contract";
import { ACTIVE_STATES, type Evidence, isTerminal, RESUMABLE_STATES, type ReportStatus, type TaskEvent, type TaskState, TERMINAL_STATES, transition } from "./state";
import { waitForReady } from "./ready-wait";
import { cardLine } from "./card-line";

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
  disposition: "merged" | "discarded" | null;
  mergeCommit: string | null;
  cleanupError: string | null;
  finishedAt: string | null;
  createdAt: string;
  updatedAt: string;
  /** The agent runs in the OS sandbox. */
  sandboxed: boolean;
  /** The agent's own session (from its hooks), with its token usage read from its transcript. */
  agentSession: { id: string; transcriptPath: string | null; tokens: TokenUsage | null } | null;
  /** One line saying what needs attention or what is going on (a dialog, an API error, retrying). */
  statusLine: string | null;
}

/** What the launch hook is told before an agent starts for a task (first round or a resume). */
export interface BeforeLaunch {
  taskId: string;
  launch: Launch;
  cwd: string;
  /** the repository to record the agent's workspace trust for; null when the project says no (or has none) */
  trustDir: string | null;
  /** the sandbox's private home, when the agent runs sandboxed */
  sandboxHome: string | null;
}

export interface TaskEngineDeps {
  db: Db;
  journal: EventJournal;
  panes: PaneManager;
  agents: AgentProfiles;
  projects: Projects;
  home: string;
  maxActive?: number;
  readyTimeoutMs?: number;
  /** How long a start-up dialog may wait for a human (YARD_DIALOG_TIMEOUT_MS; default: the ready timeout). */
  dialogTimeoutMs?: number;
  /** The OS sandbox for tasks that ask for it (none: such starts are SANDBOX_UNAVAILABLE). */
  sandbox?: Sandbox;
  /** Prepares the agent's own config right before it launches (core/agents/launch-prep.ts). */
  beforeLaunch?: (b: BeforeLaunch) => Promise<void>;
  /** false when a start-up dialog is on the pane's screen (core/agents/screen-watch.ts): never type a prompt into one. */
  confirmReady?: (paneId: string) => Promise<boolean>;
}

/** What a resumed agent is told when no prompt is given. */
export const RESUME_PROMPT = "Switchyard restarted you in the same session after your previous run stopped. Continue the task where you left off, and report when you are done (yard task report).";

type TaskRow = NonNullable<Awaited<ReturnType<Db["task"]["findUnique"]>>>;

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
  private readonly stateCache = new Map<string, TaskState>();
  private startLock: Promise<unknown> = Promise.resolve();
  /** During shutdown panes are killed on purpose: their tasks are judged at the next start. */
  private closing = false;
  /** Serializes state changes per task so concurrent events apply in order. */
  private readonly chains = new Map<string, Promise<unknown>>();

  constructor(private readonly deps: TaskEngineDeps) {}

  get maxActive() {
    return this.deps.maxActive ?? DEFAULT_MAX_ACTIVE;
  }

  /** Pane manager's view of a task's state (pending tasks refuse prompts). */
  cachedState(taskId: string): string | null {
    return this.stateCache.get(taskId) ?? null;
  }

  // ---- start ---------------------------------------------------------------------------

  async start(raw: StartInput, caller: { paneId?: string | null } = {}): Promise<{ task: TaskView; pane: PaneInfo }> {
    const input = startInput.parse(raw);
    if (input.agent && input.argv) throw new YardError("BAD_PARAMS", "Give either an agent profile or a command (argv), not both");
    if (!input.projectId && !input.repoPath) throw new YardError("BAD_PARAMS", "Give a project (--project ID) or a repository (--repo PATH)");
    if (input.projectId && input.repoPath) throw new YardError("BAD_PARAMS", "Give either --project or --repo, not both");
    const project = input.projectId ? await this.deps.projects.get(input.projectId) : null;
    const repo = await inspectRepo(project?.path ?? input.repoPath!);
    if (!repo.hasHead) throw new YardError("BAD_PARAMS", `${repo.root} has no commits yet; commit something first`, { repo: repo.root });
    const agentId = input.argv ? null : (input.agent ?? "demo");
    // Profile, placeholders and program are checked now: a launch that cannot work creates nothing.
    const launch = await this.deps.panes.resolveLaunch({ agent: agentId ?? undefined, argv: input.argv });
    const profile = agentId ? await this.deps.agents.get(agentId) : null;
    const sandbox = await this.sandboxFor(input, profile);
    const parentPaneId = input.parentPaneId ?? caller.paneId ?? null;
    if (parentPaneId && !(await this.deps.db.pane.findUnique({ where: { id: parentPaneId }, select: { id: true } }))) {
      throw new YardError("NOT_FOUND", `No parent pane ${parentPaneId}`, { parentPaneId });
    }
    const parentTask = input.parentTaskId ? await this.row(input.parentTaskId) : null;

    const id = newId("tsk");
    const title = input.title ?? input.objective.split("\n")[0]!.slice(0, 80);
    const branch = await validateBranchName(input.branch ?? `yard/${slug(title)}-${id.slice(3, 9)}`);

    // The cap check and the creation are one step: a second start cannot slip between them.
    const run = async () => {
      const active = await this.deps.db.task.count({ where: { state: { in: [...ACTIVE_STATES] } } });
      if (active >= this.maxActive) {
        throw new YardError("RATE_LIMITED", `${active} tasks are already running (the cap is ${this.maxActive}); finish, cancel or wait for one first`, { active, cap: this.maxActive });
      }
      const baseSha = await resolveBaseSha(repo.root, input.baseRef, { fetch: input.fetch });
      const wt = await createWorktree({ repoRoot: repo.root, branch, baseSha, path: input.path, yardHome: this.deps.home });
      await this.deps.db.task.create({
        data: {
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
          state: "pending",
          round: 1,
          baseRef: input.baseRef ?? null,
          baseSha,
          targetBranch: repo.currentBranch,
          branch: wt.branch,
          branchPreexisting: wt.branchPreexisting,
          worktreePath: wt.worktreePath,
          sandboxed: sandbox !== null,
          rounds: { create: { id: newId("rnd"), number: 1, state: "pending" } },
        },
      });
      this.stateCache.set(id, "pending");
    };
    const p = this.startLock.then(run, run);
    this.startLock = p.catch(() => {});
    await p;

    const task = await this.row(id);
    await this.launchHook({ taskId: id, launch, cwd: task.worktreePath!, trustDir: project?.trustAgents ? repo.root : null, sandboxHome: sandbox ? (this.deps.sandbox?.dirs(id).home ?? null) : null });
    let pane: PaneInfo;
    try {
      pane = await this.deps.panes.spawn(
        { agent: agentId ?? undefined, argv: input.argv, cwd: task.worktreePath!, label: `${title}`.slice(0, 120), parentPaneId: parentPaneId ?? undefined, relationship: parentPaneId ? "subagent" : undefined },
        { taskId: id, sandbox: await this.sandboxLaunch(id, task.worktreePath!, sandbox) },
      );
    } catch (e) {
      // A refused start leaves nothing behind: no row, no worktree, no branch it created.
      await this.undoStart(task);
      throw e;
    }
    await this.deps.journal.append("task.created", { taskId: id, payload: { title, contextId: input.contextId ?? null, branch, baseSha: task.baseSha, sandboxed: sandbox !== null } });
    await this.deps.db.task.update({ where: { id }, data: { paneId: pane.id } });
    await this.deps.db.taskRound.update({ where: { taskId_number: { taskId: id, number: 1 } }, data: { paneId: pane.id } });

    const contract: Contract = { objective: input.objective, constraints: input.constraints, acceptanceCriteria: input.acceptanceCriteria, outputFormat: input.outputFormat };
    this.runInBackground(id, pane.id, renderPrompt(contract, { id, title }), input.readyTimeoutMs ?? this.deps.readyTimeoutMs ?? DEFAULT_READY_TIMEOUT_MS, input.stallMs, input.dialogTimeoutMs);
    return { task: await this.get(id), pane };
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

  private async undoStart(task: TaskRow): Promise<void> {
    this.stateCache.delete(task.id);
    await this.deps.db.task.delete({ where: { id: task.id } }).catch(() => {});
    await discardWorktree({ repoRoot: task.repoPath, worktreePath: task.worktreePath!, branch: task.branch!, branchPreexisting: task.branchPreexisting, deleteBranch: true }).catch(() => {});
    await this.tidyWorktreeDir(task);
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

  // ---- sandbox (hook point) -------------------------------------------------------------

  /**
   * Whether this start runs sandboxed (the start's flag wins over the profile's), checked before
   * anything is created: when the sandbox cannot start here, SANDBOX_UNAVAILABLE says why.
   */
  private async sandboxFor(input: z.output<typeof startInput>, profile: AgentProfile | null): Promise<{ network: boolean } | null> {
    if (!(input.sandbox ?? profile?.sandbox ?? false)) return null;
    if (!this.deps.sandbox) throw new YardError("SANDBOX_UNAVAILABLE", "This server was started without the OS sandbox", { reason: "not_configured" });
    await this.deps.sandbox.require();
    return { network: profile?.sandboxNetwork ?? false };
  }

  /** The launch the pane manager wraps the agent in (null: unsandboxed). */
  private async sandboxLaunch(taskId: string, worktreePath: string, sandbox: { network: boolean } | null): Promise<SandboxLaunch | null> {
    if (!sandbox || !this.deps.sandbox) return null;
    return this.deps.sandbox.prepare({ taskId, worktreePath, network: sandbox.network });
  }

  /** Server-side, survives the caller leaving: wait until the agent is ready, then submit the contract. */
  private runInBackground(taskId: string, paneId: string, prompt: string, readyTimeoutMs: number, stallMs?: number, dialogTimeoutMs?: number) {
    const ac = new AbortController();
    this.runners.set(taskId, ac);
    void (async () => {
      const ready = await waitForReady({ panes: this.deps.panes, journal: this.deps.journal, confirmReady: this.deps.confirmReady }, paneId, { timeoutMs: readyTimeoutMs, dialogTimeoutMs: dialogTimeoutMs ?? this.deps.dialogTimeoutMs, signal: ac.signal });
      if (ac.signal.aborted) return;
      if (!ready.ready) {
        if (ready.reason === "timeout") {
          await this.apply(taskId, { type: "ready_timeout", timeoutMs: readyTimeoutMs, lifecycle: ready.lifecycle, dialog: ready.dialog, screen: ready.screen, waitedAtDialogMs: ready.waitedAtDialogMs });
        }
        return;
      }
      try {
        await this.deps.panes.submitForTask(paneId, prompt, { stallMs, signal: ac.signal });
        await this.apply(taskId, { type: "submitted" });
      } catch (e) {
        if (ac.signal.aborted) return;
        const err = e instanceof YardError ? e : new YardError("INTERNAL", (e as Error).message);
        if (err.code === "SUBMIT_STALLED") await this.apply(taskId, { type: "submit_unconfirmed", stallMs: Number(err.details?.stallMs ?? stallMs ?? 5000) });
        else if (err.code !== "PANE_EXITED") await this.apply(taskId, { type: "submit_refused", code: err.code, message: err.message, details: err.details ?? null });
      }
    })()
      .catch(() => {})
      .finally(() => {
        if (this.runners.get(taskId) === ac) this.runners.delete(taskId);
      });
  }

  // ---- state changes -------------------------------------------------------------------

  /** Applies one event through the reducer, persists it and journals it. Serialized per task. */
  private apply(taskId: string, event: TaskEvent, extra: { result?: TaskResult } = {}): Promise<{ changed: boolean; state: TaskState }> {
    const run = async () => {
      const row = await this.row(taskId);
      const t = transition(row.state as TaskState, event);
      if (!t.changed) return { changed: false, state: t.state };
      const now = new Date();
      await this.deps.db.$transaction([
        this.deps.db.task.update({ where: { id: taskId }, data: { state: t.state, ...(t.evidence !== undefined ? { evidence: t.evidence ? JSON.stringify(t.evidence) : null } : {}) } }),
        this.deps.db.taskRound.update({
          where: { taskId_number: { taskId, number: row.round } },
          data: {
            state: t.state,
            ...(extra.result ? { result: JSON.stringify(extra.result) } : {}),
            ...(t.evidence !== undefined ? { evidence: t.evidence ? JSON.stringify(t.evidence) : null } : {}),
            ...(t.endsRound ? { endedAt: now } : {}),
          },
        }),
      ]);
      this.stateCache.set(taskId, t.state);
      if (extra.result) await this.deps.journal.append("task.result", { taskId, paneId: row.paneId, payload: { round: row.round, ...extra.result } });
      await this.deps.journal.append("task.state", { taskId, paneId: row.paneId, payload: { from: row.state, to: t.state, cause: event.type, round: row.round, evidence: t.evidence ?? null } });
      // A failed task never leaves its agent running behind the card.
      if (t.state === "failed" && row.paneId && this.deps.panes.isLive(row.paneId)) void this.deps.panes.kill(row.paneId).catch(() => {});
      return { changed: true, state: t.state };
    };
    const prev = this.chains.get(taskId) ?? Promise.resolve();
    const p = prev.then(run, run);
    this.chains.set(taskId, p.catch(() => {}));
    return p;
  }

  /** The pane manager reports every lifecycle transition of a task's pane here. */
  onPaneTransition(info: PaneInfo, to: string, from: string, lastMessage: string | undefined, lastStop?: { failed: boolean; error?: string } | null) {
    if (!info.taskId || this.closing) return;
    const taskId = info.taskId;
    void (async () => {
      const row = await this.deps.db.task.findUnique({ where: { id: taskId }, select: { paneId: true } });
      if (row?.paneId !== info.id) return; // an old round's pane
      if (to === "done") await this.apply(taskId, { type: "pane_done", lastMessage: lastMessage ?? null, failure: lastStop?.failed ? { error: lastStop.error ?? null } : null });
      else if (to === "working" || to === "blocked") await this.apply(taskId, { type: "pane_working" });
      else if (to === "exited") {
        this.runners.get(taskId)?.abort();
        await this.apply(taskId, { type: "pane_exit", exitCode: info.exitCode, signal: info.signal, lastLifecycle: from });
      }
    })().catch(() => {});
  }

  // ---- report, cancel ------------------------------------------------------------------

  async report(raw: z.input<typeof reportInput>, caller: { paneId: string | null; paneTaskId: string | null; admin: boolean }): Promise<TaskView> {
    const input = reportInput.parse(raw);
    const taskId = input.taskId ?? caller.paneTaskId;
    if (!taskId) throw new YardError("BAD_PARAMS", "Which task? Run this inside a task's pane (YARD_TASK) or pass --task ID");
    const row = await this.deps.db.task.findUnique({ where: { id: taskId } });
    if (!row) throw new YardError("NOT_FOUND", `No task ${taskId}`, { taskId });
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

  // ---- resume --------------------------------------------------------------------------

  /**
   * Resumes a failed or canceled task's agent in a fresh pane that continues the same
   * conversation (`claude --resume <session>`, `codex resume <session>`), as a new round on the
   * same worktree, then submits `prompt` (default RESUME_PROMPT) once the agent is ready.
   */
  async resume(taskId: string, opts: { prompt?: string; readyTimeoutMs?: number; stallMs?: number } = {}): Promise<{ task: TaskView; pane: PaneInfo }> {
    const t = await this.row(taskId);
    if (!RESUMABLE_STATES.includes(t.state as TaskState)) throw new YardError("CONFLICT", `Only a failed or canceled task can be resumed; this one is ${t.state}`, { state: t.state });
    if (t.disposition) throw new YardError("CONFLICT", `The task is already ${t.disposition}`, { disposition: t.disposition });
    if (!t.agentSessionId) throw new YardError("CONFLICT", "The task's agent never reported a session (no hook arrived), so there is nothing to resume", { taskId });
    if (!t.worktreePath || !existsSync(t.worktreePath)) throw new YardError("CONFLICT", "The task's worktree is gone", { worktreePath: t.worktreePath });
    if (t.paneId && this.deps.panes.isLive(t.paneId)) throw new YardError("CONFLICT", `The task's agent is still running in pane ${t.paneId}`, { paneId: t.paneId });
    if (t.agent === "custom") throw new YardError("BAD_PARAMS", "The task runs a custom command, not an agent profile; only Claude Code and Codex sessions can be resumed");
    const profile = await this.deps.agents.get(t.agent);
    const kind = agentKindOf({ profileId: profile.id, argv: profile.argv });
    if (!kind) throw new YardError("BAD_PARAMS", `The agent profile ${profile.id} runs neither Claude Code nor Codex; its sessions cannot be resumed`, { agent: profile.id });
    const sessionId = t.agentSessionId;
    const rewriteArgv = kind === "claude" ? (argv: string[]) => [...argv, "--resume", sessionId] : (argv: string[]) => codexResumeArgv(argv, sessionId);

    const launch = await this.deps.panes.resolveLaunch({ agent: profile.id });
    const project = t.projectId ? await this.deps.projects.get(t.projectId).catch(() => null) : null;
    const sandbox = t.sandboxed ? { network: profile.sandboxNetwork } : null;
    if (sandbox) await this.deps.sandbox?.require();
    await this.launchHook({ taskId, launch: { ...launch, argv: rewriteArgv(launch.argv) }, cwd: t.worktreePath, trustDir: project?.trustAgents ? t.repoPath : null, sandboxHome: sandbox ? (this.deps.sandbox?.dirs(taskId).home ?? null) : null });
    const pane = await this.deps.panes.spawn(
      { agent: profile.id, cwd: t.worktreePath, label: t.title.slice(0, 120), parentPaneId: t.parentPaneId ?? undefined, relationship: t.parentPaneId ? "subagent" : undefined },
      { taskId, sandbox: await this.sandboxLaunch(taskId, t.worktreePath, sandbox), rewriteArgv },
    );
    const round = t.round + 1;
    await this.deps.db.$transaction([
      this.deps.db.taskRound.create({ data: { id: newId("rnd"), taskId, number: round, state: t.state, paneId: pane.id } }),
      this.deps.db.task.update({ where: { id: taskId }, data: { round, paneId: pane.id } }),
    ]);
    await this.apply(taskId, { type: "resume", sessionId });
    await this.deps.journal.append("task.resumed", { taskId, paneId: pane.id, payload: { round, sessionId, agent: profile.id } });
    this.runInBackground(taskId, pane.id, opts.prompt ?? RESUME_PROMPT, opts.readyTimeoutMs ?? this.deps.readyTimeoutMs ?? DEFAULT_READY_TIMEOUT_MS, opts.stallMs);
    return { task: await this.get(taskId), pane };
  }

  // ---- reads ---------------------------------------------------------------------------

  /** Tasks not yet settled for good (pending, working, input_required), optionally of one profile. */
  activeCount(filter: { agent?: string } = {}): Promise<number> {
    return this.deps.db.task.count({ where: { agent: filter.agent, state: { in: [...ACTIVE_STATES] } } });
  }

  private async row(id: string): Promise<TaskRow> {
    const row = await this.deps.db.task.findUnique({ where: { id } });
    if (!row) throw new YardError("NOT_FOUND", `No task ${id}`, { taskId: id });
    return row;
  }

  async get(id: string): Promise<TaskView> {
    return this.view(await this.row(id));
  }

  async list(filter: { contextId?: string; states?: string[]; projectId?: string } = {}): Promise<TaskView[]> {
    const rows = await this.deps.db.task.findMany({
      where: { contextId: filter.contextId, projectId: filter.projectId, state: filter.states?.length ? { in: filter.states } : undefined },
      orderBy: { createdAt: "asc" },
    });
    return Promise.all(rows.map((r) => this.view(r)));
  }

  private async view(r: TaskRow): Promise<TaskView> {
    const round = await this.deps.db.taskRound.findUnique({ where: { taskId_number: { taskId: r.id, number: r.round } } });
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
      result: json<TaskResult | null>(round?.result, null),
      evidence,
      disposition: (r.disposition as TaskView["disposition"]) ?? null,
      mergeCommit: r.mergeCommit,
      cleanupError: r.cleanupError,
      finishedAt: r.finishedAt?.toISOString() ?? null,
      createdAt: r.createdAt.toISOString(),
      updatedAt: r.updatedAt.toISOString(),
      sandboxed: r.sandboxed,
      agentSession: r.agentSessionId ? { id: r.agentSessionId, transcriptPath: r.agentTranscriptPath, tokens: await transcriptTokenUsage(r.agentTranscriptPath) } : null,
      statusLine: cardLine({ state: r.state, evidence, pane }),
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

  async diff(taskId: string): Promise<{ diff: string; files: DiffFile[]; baseSha: string; source: "worktree" | "branch" }> {
    const t = await this.row(taskId);
    if (!t.baseSha || !t.worktreePath) throw new YardError("CONFLICT", "The task has no worktree");
    // A linked worktree has a `.git` file; checking for it costs no git process on this hot path.
    if (existsSync(path.join(t.worktreePath, ".git"))) {
      try {
        const d = await diffWorktree({ worktreePath: t.worktreePath, baseSha: t.baseSha });
        return { ...d, baseSha: t.baseSha, source: "worktree" };
      } catch (e) {
        // A merge or discard removed the worktree while git was reading it: use the branch.
        if (existsSync(path.join(t.worktreePath, ".git"))) throw e;
      }
    }
    // The worktree is gone (merged or discarded): the branch still holds the committed work.
    const tip = t.branch && (await branchExists(t.repoPath, t.branch)) ? t.branch : t.mergeCommit ? `${t.mergeCommit}^2` : null;
    if (!tip) throw new YardError("CONFLICT", "The task's worktree and branch are both gone; there is nothing left to diff", { taskId });
    const d = await diffCommits({ repoRoot: t.repoPath, baseSha: t.baseSha, tip });
    return { ...d, baseSha: t.baseSha, source: "branch" };
  }

  // ---- finish --------------------------------------------------------------------------

  async finish(taskId: string, opts: { merge?: { target?: string; keepBranch?: boolean; ignoreDirty?: boolean }; discard?: { deleteBranch?: boolean } }) {
    if (!opts.merge === !opts.discard) throw new YardError("BAD_PARAMS", "Finish with exactly one of --merge or --discard");
    const t = await this.row(taskId);
    if (!t.worktreePath || !t.branch) throw new YardError("CONFLICT", "The task has no worktree to finish");
    const worktreeExists = Boolean(await findWorktree(t.repoPath, t.worktreePath));

    if (t.disposition) {
      // A second finish only retries cleanup, and only while there is something left to clean.
      if (!worktreeExists) throw new YardError("CONFLICT", `The task is already ${t.disposition} and cleaned up`, { disposition: t.disposition });
      const cleanup = await discardWorktree({ repoRoot: t.repoPath, worktreePath: t.worktreePath, branch: t.branch, branchPreexisting: t.branchPreexisting, deleteBranch: false });
      await this.tidyWorktreeDir(t);
      await this.deps.db.task.update({ where: { id: taskId }, data: { cleanupError: cleanup.error ?? null } });
      await this.deps.journal.append("task.cleanup", { taskId, payload: { ...cleanup } });
      return { task: await this.get(taskId), cleanup: { ok: !cleanup.error, ...cleanup } };
    }

    if (opts.merge) {
      if (t.state !== "completed") throw new YardError("TASK_NOT_COMPLETED", `Only a completed task can be merged; this one is ${t.state}`, { state: t.state });
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
      await this.deps.db.task.update({
        where: { id: taskId },
        data: { disposition: "merged", mergeCommit: res.mergeCommit, cleanupError: res.cleanup.ok ? null : (res.cleanup.error ?? "cleanup failed"), finishedAt: new Date() },
      });
      await this.deps.journal.append("task.finished", { taskId, payload: { disposition: "merged", mergeCommit: res.mergeCommit, target, cleanup: res.cleanup } });
      return { task: await this.get(taskId), merge: { mergeCommit: res.mergeCommit, alreadyUpToDate: res.alreadyUpToDate, target }, cleanup: res.cleanup };
    }

    // Discard: stop the worker first, then remove only this task's worktree. The task is marked
    // canceled before its pane dies, so the exit is not mistaken for a crash.
    this.runners.get(taskId)?.abort();
    if (!isTerminal(t.state)) {
      await this.apply(taskId, { type: "cancel" }).catch((e: unknown) => {
        if (!(e instanceof YardError && e.code === "CONFLICT")) throw e; // it ended on its own meanwhile
      });
    }
    if (t.paneId && this.deps.panes.isLive(t.paneId)) await this.deps.panes.kill(t.paneId);
    const cleanup = await discardWorktree({ repoRoot: t.repoPath, worktreePath: t.worktreePath, branch: t.branch, branchPreexisting: t.branchPreexisting, deleteBranch: opts.discard!.deleteBranch });
    await this.tidyWorktreeDir(t);
    await this.deps.db.task.update({ where: { id: taskId }, data: { disposition: "discarded", cleanupError: cleanup.error ?? null, finishedAt: new Date() } });
    await this.deps.journal.append("task.finished", { taskId, payload: { disposition: "discarded", cleanup } });
    return { task: await this.get(taskId), cleanup: { ok: !cleanup.error, ...cleanup } };
  }

  // ---- restart -------------------------------------------------------------------------

  /** On start-up: tasks whose panes died with the old process become failed with evidence. */
  async recover(lostPanes: Map<string, string>): Promise<void> {
    const rows = await this.deps.db.task.findMany({ where: { state: { in: [...ACTIVE_STATES] } } });
    for (const r of rows) {
      await this.apply(r.id, { type: "restart", lastLifecycle: r.paneId ? (lostPanes.get(r.paneId) ?? (await this.lastLifecycleBeforeExit(r.paneId))) : null });
    }
    // A merge that landed before its record was written is recorded, never redone or undone.
    const unfinished = await this.deps.db.task.findMany({ where: { state: "completed", disposition: null } });
    for (const r of unfinished) {
      if (!r.branch || !r.targetBranch || !r.baseSha) continue;
      const tip = await runGit(["rev-parse", "--verify", "-q", `refs/heads/${r.branch}`], { cwd: r.repoPath, allowFail: true });
      const sha = tip.stdout.trim();
      if (tip.code !== 0 || !sha || sha === r.baseSha) continue;
      if (await isMerged(r.repoPath, sha, r.targetBranch).catch(() => false)) {
        const head = await runGit(["rev-parse", `refs/heads/${r.targetBranch}`], { cwd: r.repoPath, allowFail: true });
        await this.deps.db.task.update({ where: { id: r.id }, data: { disposition: "merged", mergeCommit: head.stdout.trim() || null, cleanupError: "merge found landed at start-up; run finish again to clean up", finishedAt: new Date() } });
        await this.deps.journal.append("task.finished", { taskId: r.id, payload: { disposition: "merged", recovered: true } });
      }
    }
    for (const r of await this.deps.db.task.findMany({ select: { id: true, state: true } })) this.stateCache.set(r.id, r.state as TaskState);
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
