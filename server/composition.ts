// The composition root: opens the database, connects to the data dir's pane host (starting one
// when none runs) and builds every core service once, so the tRPC router, socket.io and start-up
// recovery share the same in-memory singletons. Start-up recovery reattaches to the panes the
// host still runs, then takes the exits and hooks it kept while no server was attached.
import { envInt, journalRetention, loadOrCreateInstanceId, paths } from "./config";
import { journaledLaunchPrep } from "./core/agents/launch-prep";
import { AgentProfiles } from "./core/agents/profiles";
import { ScreenWatcher } from "./core/agents/screen-watch";
import { AgentSessions } from "./core/agents/sessions";
import { AgentTrials } from "./core/agents/try";
import { EventJournal } from "./core/events/journal";
import { JournalPruner } from "./core/events/retention";
import { inspectRepo } from "./core/git/repo";
import type { GithubHandoff } from "./core/github/service";
import { type AttentionItem, type AttentionReach, MAX_ATTENTION_LIMIT, visibleAttention } from "./core/panes/attention";
import type { PaneHostPort } from "./core/panes/host-port";
import { PaneManager } from "./core/panes/manager";
import { scrollbackProblem } from "./core/panes/scrollback-limits";
import { Projects } from "./core/projects/projects";
import { type ApiSocketState, Sandbox } from "./core/sandbox/sandbox";
import { AgentReviewStage } from "./core/reviews/agent-stage";
import { ReviewService } from "./core/reviews/service";
import { ReviewStore } from "./stores/reviews";
import { cardLine } from "./core/tasks/card-line";
import { AccessLookup } from "./core/tasks/access";
import { TaskDependencies } from "./core/tasks/dependencies";
import type { TaskTurns } from "./core/tasks/turns";
import { reanchorComments } from "./core/reviews/reanchor";
import { fileChanges } from "./core/git";
import { BranchStore } from "./stores/branches";
import { PlanService } from "./core/tasks/plans";
import { PlanStore } from "./stores/plans";
import { ExtraWorktrees } from "./core/tasks/extra-worktrees";
import { ACKABLE_STATES, TaskMessages } from "./core/tasks/messages";
import { waitForReady } from "./core/tasks/ready-wait";
import { TaskEngine } from "./core/tasks/engine";
import { DependencyStore } from "./stores/dependencies";
import { MessageStore } from "./stores/messages";
import { TaskWorktreeStore } from "./stores/task-worktrees";
import { TaskStore } from "./stores/tasks";
import { TaskSetupStore } from "./stores/task-setup";
import { parsePortRange } from "./core/repo/ports";
import { type Db, openDatabase } from "./db";
import type { Provider } from "./db/schema-source";
import { takeDatabaseUrl } from "./database-url";
import { startTaskFollowers } from "./task-followers";
import { HandoffStore } from "./stores/handoff";
import { TurnStore } from "./stores/turns";
import { PaneHostClient } from "./panehost/client";
import { HostRouter } from "./core/panes/host-router";
import { tightenDataDir } from "./security/data-dir";
import { EventStore } from "./stores/events";
import { PaneStore } from "./stores/panes";
import { ProfileStore } from "./stores/profiles";
import { ProjectStore } from "./stores/projects";
import { SettingStore } from "./stores/settings";
import { TemplateStore } from "./stores/templates";
import { joinOtherProcesses, type TeamServices, teamServices } from "./composition-team";
import type { SessionPort } from "./core/people/people";
import { WorktreeInventoryStore } from "./stores/worktrees";
import { Templates } from "./core/templates/templates";
import { budgetFromEnv, Worktrees } from "./core/worktrees/service";

/**
 * The services, with the team's (composition-team.ts): people (roles, invites, personal tokens),
 * webhooks, Web Push (the VAPID key, people's subscriptions) and runners (machines agents run on).
 */
export interface Services extends TeamServices {
  home: string;
  token: string;
  db: Db;
  /** Which database the board is in: the provider, and where (a file, or a URL without its password). */
  database: { provider: Provider; where: string };
  journal: EventJournal;
  projects: Projects;
  agents: AgentProfiles;
  panes: PaneManager;
  tasks: TaskEngine;
  /** Dependencies between tasks and the auto-start of waiting ones. */
  dependencies: TaskDependencies;
  /** The question/answer/ack thread between a worker and whoever started its task. */
  messages: TaskMessages;
  /** Extra git worktrees agents registered for their tasks. */
  extraWorktrees: ExtraWorktrees;
  /** Plans of --needs-plan tasks: versions, reviews, the decomposition into subtasks. */
  plans: PlanService;
  /** The worktree's snapshot at each turn's end, a turn's diff, and "Revert turn". */
  turns: TaskTurns;
  /** The agent reviewer stage (runs a reviewer profile on each completed round). */
  agentReviews: AgentReviewStage;
  /** What the role gates read about callers, tasks and panes. */
  access: AccessLookup;
  sandbox: Sandbox;
  reviews: ReviewService;
  /** The hand-off to GitHub: pushes, pull requests, a project's token (the poll keeps pull requests current). */
  github: GithubHandoff;
  /** The pane host (the process running the PTYs). */
  host: PaneHostPort;
  /** hook posts pass through here: agent sessions recorded, Codex notify mapped */
  hooks: AgentSessions;
  /** reads the screens of Claude Code and Codex panes (start-up dialogs, readiness, failed turns) */
  screens: ScreenWatcher;
  /** "Try it" for agent profiles */
  trials: AgentTrials;
  /** Every worktree with its size, the disk budget, the clean-up. */
  worktrees: Worktrees;
  /** Projects' saved task contracts. */
  templates: Templates;
  /**
   * What needs attention. A calling pane (`caller`: its id and what it reaches, the access
   * lookup's scope) sees only the items about tasks and panes its role reaches, the limit applied
   * after that, and also the results it has not acknowledged.
   */
  attention(limit?: number, caller?: { paneId: string; reach: AttentionReach } | null): Promise<AttentionItem[]>;
  /** How many projects, panes and tasks the board holds. */
  counts(): Promise<{ projects: number; panes: number; tasks: number }>;
  url(): string;
  /**
   * Set by whoever runs the process (server/main.ts): stops the server, with `all` also every
   * agent and the pane host. Unset (in-process use), `yard stop` is refused.
   */
  requestStop?: (all: boolean) => void;
  /**
   * Closes the services. `stopPanes` (default true) ends every pane and the pane host; false
   * leaves the agents running in the host for the next server (a restart or an upgrade).
   */
  close(opts?: { stopPanes?: boolean }): Promise<void>;
}

export async function createServices(opts: {
  home: string;
  token: string;
  url: () => string;
  apiSocket?: () => ApiSocketState;
  log?: (line: string) => void;
  hostEntry?: string;
  /** The address people use, for the links they get (invites, notices); default: url. */
  publicUrl?: () => string;
  /** The browser sessions (removing a person revokes theirs); in-process use without a server has none. */
  sessions?: SessionPort;
  /** `--database-url`; else DATABASE_URL when it is a postgresql:// URL; else the data dir's SQLite file. */
  databaseUrl?: string;
}): Promise<Services> {
  const scrollback = scrollbackLines(); // a bad setting fails before anything is opened
  const retention = journalRetention();
  const portRange = parsePortRange(process.env.YARD_PORT_RANGE);
  const diskBudget = budgetFromEnv();
  const p = paths(opts.home);
  tightenDataDir(p.home);
  const instance = loadOrCreateInstanceId(p.instance);
  // Read (and taken out of the environment) before the pane host starts: no child inherits it.
  const databaseUrl = takeDatabaseUrl(opts.databaseUrl);
  // The pane host (started when none runs) comes up while the database opens.
  const hostStart = PaneHostClient.open({ home: p.home, log: opts.log, entry: opts.hostEntry });
  hostStart.catch(() => {});
  const opened = await openDatabase(databaseUrl ?? p.db).catch(async (e: unknown) => {
    await hostStart.then(
      (h) => h.detach(),
      () => {},
    );
    throw e;
  });
  const { db } = opened;
  let host: PaneHostClient;
  try {
    host = await hostStart;
  } catch (e) {
    await db.$disconnect();
    throw e;
  }
  const eventStore = new EventStore(db);
  const journal = new EventJournal(eventStore);
  const relay = await joinOtherProcesses(databaseUrl, journal, opts.log);
  const agents = new AgentProfiles(new ProfileStore(db));
  await agents.seed();
  const projectStore = new ProjectStore(db);
  const taskStore = new TaskStore(db, instance);
  const team = await teamServices(db, journal, taskStore, {
    ...opts,
    processes: { instanceId: instance, shared: opened.provider === "postgresql", isLive: (id) => panes.isLive(id) },
  });
  const { webhooks, push } = team;
  const projects = new Projects(projectStore, async (path) => {
    const info = await inspectRepo(path);
    return { root: info.root, currentBranch: info.currentBranch };
  });
  // YARD_BWRAP: which bwrap to use (a path or a name on PATH), read once here.
  const sandbox = new Sandbox({
    home: p.home,
    bwrap: process.env.YARD_BWRAP || "bwrap",
    apiSocket: opts.apiSocket ?? (() => ({ error: "this server has no API socket" })),
  });
  let tasks: TaskEngine | null = null;
  // This machine's pane host, and runners' hosts opened as tasks run on them.
  const hosts = new HostRouter(host, (name) => team.runners.openHost(name), team.runners.graceMs);
  const panes = new PaneManager({
    store: new PaneStore(db, instance),
    journal,
    agents,
    home: p.home,
    url: opts.url,
    host: hosts,
    taskState: (taskId) => tasks?.cachedState(taskId) ?? null,
    onTransition: (info, state, t, lost) =>
      tasks?.onPaneTransition(info, t.to, t.from, state.lastMessage, lost, state.lastStop),
    onSetup: (info, payload) => tasks?.onSetupProgress(info, payload),
    scrollbackLines: scrollback,
  });
  const screens = new ScreenWatcher({ panes, journal });
  screens.start();
  const sandboxHome = (taskId: string) => {
    try {
      return sandbox.dirs(taskId).home;
    } catch {
      return null;
    }
  };
  const hooks = new AgentSessions({ tasks: taskStore, journal, panes, sandboxHome });
  journal.subscribe((e) => void (e.paneId && e.payload.to === "exited" && hooks.forget(e.paneId)), {
    type: "pane.lifecycle",
  });
  const trials = new AgentTrials({ panes, agents, home: p.home });
  const messageStore = new MessageStore(db);
  const dependencies: TaskDependencies = new TaskDependencies({
    store: new DependencyStore(db),
    journal,
    startBacklog: (id): Promise<unknown> => engine.startBacklog(id),
  });
  const reviewStore = new ReviewStore(db);
  const branchStore = new BranchStore(db);
  const engine: TaskEngine = new TaskEngine({
    dependencies,
    approval: (taskId, round) => reviewStore.approval(taskId, round),
    approvers: (taskId, round, commit) => reviewStore.approvers(taskId, round, commit),
    branches: branchStore,
    reanchor: (taskId, move) =>
      reanchorComments({ store: reviewStore, diff: (id) => engine.diff(id), changes: fileChanges }, taskId, move),
    journal,
    panes,
    agents,
    projects,
    store: taskStore,
    home: p.home,
    maxActive: envInt("YARD_MAX_ACTIVE_TASKS"),
    readyTimeoutMs: envInt("YARD_READY_TIMEOUT_MS"),
    dialogTimeoutMs: envInt("YARD_DIALOG_TIMEOUT_MS"),
    sandbox,
    setups: new TaskSetupStore(db),
    portRange,
    teardownTimeoutMs: envInt("YARD_TEARDOWN_TIMEOUT_MS"),
    runners: team.runners,
    confirmReady: (paneId) => screens.confirmReady(paneId),
    beforeLaunch: journaledLaunchPrep(journal, () => panes.panePathForAgents()),
  });
  tasks = engine;
  const messages = new TaskMessages({
    store: messageStore,
    journal,
    task: (id) => engine.row(id),
    apply: (id, event) => engine.applyEvent(id, event),
    followUp: (id, text, o) => engine.followUp(id, text, o),
    whenReady: async (id, timeoutMs) => {
      const paneId = (await engine.row(id)).paneId;
      if (!paneId) return;
      const ac = new AbortController();
      const timer = setTimeout(() => ac.abort(), timeoutMs);
      await waitForReady({ panes, journal, confirmReady: (p) => screens.confirmReady(p) }, paneId, {
        timeoutMs,
        signal: ac.signal,
      }).finally(() => clearTimeout(timer));
    },
  });
  const plans = new PlanService({
    store: new PlanStore(db),
    journal,
    task: (id) => engine.row(id),
    apply: (id, event, extra) => engine.applyEvent(id, event, extra),
    followUp: (id, text) => engine.followUp(id, text),
    profile: (id) =>
      agents.get(id).then(
        (p) => p,
        () => null,
      ),
    schedule: (id) => dependencies.schedule(id),
    stopPane: async (paneId) => {
      if (panes.isLive(paneId)) await panes.kill(paneId).catch(() => {});
    },
  });
  const extraWorktrees = new ExtraWorktrees({
    store: new TaskWorktreeStore(db),
    journal,
    task: (id) => engine.row(id),
  });
  const reviews = new ReviewService({ store: reviewStore, tasks: engine, journal });
  const agentReviews = new AgentReviewStage({
    journal,
    panes,
    projects,
    store: taskStore,
    reviews: reviewStore,
    task: (id) => engine.get(id),
    confirmReady: (paneId) => screens.confirmReady(paneId),
    readyTimeoutMs: envInt("YARD_READY_TIMEOUT_MS"),
    maxRounds: envInt("YARD_AGENT_REVIEW_ROUNDS"),
    // A sandboxed task's reviewer (or one whose profile asks for it) runs sandboxed with the worktree
    // read-only (no network, the API socket only).
    sandbox: async (row, reviewer) => {
      const wants =
        row.sandboxed ||
        (await agents.get(reviewer).then(
          (p) => p.sandbox,
          () => false,
        ));
      if (!wants || !row.worktreePath) return null;
      return sandbox.prepare({
        taskId: row.id,
        worktreePath: row.worktreePath,
        network: false,
        worktreeReadOnly: true,
      });
    },
  });
  const lostPanes = await panes.recover();
  // An approved plan whose task's round never ended ends it first: its task must not be judged a crash.
  await plans.recover();
  await engine.recover(lostPanes);
  await engine.recoverUpdates();
  // Tasks waiting on dependencies that were met while no server ran start now.
  await dependencies.attach();
  await agentReviews.attach();
  // What follows each task's branch and worktree in the background: diff sizes, turn snapshots,
  // how far behind its target, and its pull request.
  const followers = await startTaskFollowers({
    handoffStore: new HandoffStore(db),
    turnStore: new TurnStore(db),
    journal,
    engine,
    panes,
    projects,
    taskStore,
    reviewStore,
    branchStore,
    pollMs: envInt("YARD_GITHUB_POLL_MS"),
    log: opts.log,
  });
  const { turns, github } = followers;
  // What happened while no server was attached: hooks posted to the relay, panes that exited.
  await hosts.ready();
  // Journal retention: a first run now (not awaited), then every 10 minutes, in batches.
  const pruner = new JournalPruner({
    store: eventStore,
    journal,
    maxAgeMs: retention.maxDays === null ? null : retention.maxDays * 86_400_000,
    maxEvents: retention.maxEvents,
    log: opts.log,
  });
  pruner.start();
  // Notices: project webhooks (deliveries left pending resume now) and Web Push (its key made on a first start).
  await Promise.all([webhooks.start(), push.start()]);
  // Worktree sizes, measured in the background (at start-up, after each task change, every 15 minutes).
  const worktrees = new Worktrees({
    home: p.home,
    store: new WorktreeInventoryStore(db),
    settings: new SettingStore(db),
    journal,
    projects: () => projectStore.list(),
    livePanes: async () =>
      (await panes.list({ liveOnly: true })).map((x) => ({ id: x.id, cwd: x.cwd, taskId: x.taskId })),
    setCleanupError: (id, error) => taskStore.setCleanupError(id, error),
    envBudget: diskBudget,
    log: opts.log,
  });
  worktrees.attach();
  const templates = new Templates({
    store: new TemplateStore(db),
    project: (id) => projects.get(id),
    task: (id) => engine.row(id),
    profileExists: (id) =>
      agents.get(id).then(
        () => true,
        () => false,
      ),
  });
  return {
    home: p.home,
    token: opts.token,
    db,
    database: { provider: opened.provider, where: opened.where },
    journal,
    projects,
    agents,
    panes,
    tasks: engine,
    turns,
    dependencies,
    messages,
    extraWorktrees,
    agentReviews,
    plans,
    access: new AccessLookup({ task: (id) => engine.row(id), pane: (id) => panes.get(id) }),
    sandbox,
    reviews,
    github,
    counts: async () => ({
      projects: await projectStore.count(),
      panes: await panes.count(),
      tasks: await taskStore.count(),
    }),
    host: hosts,
    hooks,
    screens,
    trials,
    worktrees,
    templates,
    ...team,
    attention: async (limit, caller) => {
      const rows = await taskStore.withPanes();
      const taskStates = new Map(rows.map((r) => [r.id, { state: r.state, at: r.updatedAt.getTime() }]));
      // A pane sees only what its role reaches: every item is ranked, those it may not touch dropped, then the limit.
      const items = caller
        ? await visibleAttention(await panes.attention({ limit: MAX_ATTENTION_LIMIT, taskStates }), caller.reach, limit)
        : await panes.attention({ limit, taskStates });
      // An orchestrator pane's finished children stay in its attention until it acknowledges them.
      if (caller) {
        for (const t of await messageStore.unacknowledged(caller.paneId, ACKABLE_STATES)) {
          if ((await caller.reach.task(t.id)) !== true) continue;
          const at = items.findIndex((i) => i.taskId === t.id);
          if (at >= 0 && items[at]!.severity <= 2) continue;
          if (at >= 0) items.splice(at, 1);
          items.push({
            paneId: t.paneId ?? "",
            taskId: t.id,
            reason: "result_unacknowledged",
            severity: 2,
            since: t.updatedAt.getTime(),
            message: `${t.title}: ${t.state}; acknowledge with yard task ack ${t.id}`,
          });
        }
        items.sort((a, b) => a.severity - b.severity || (b.since ?? 0) - (a.since ?? 0));
        if (limit) items.splice(limit);
      }
      // A task that needs input says why, in the same line its card shows.
      const byId = new Map(rows.map((r) => [r.id, r]));
      for (const item of items) {
        const t = item.taskId ? byId.get(item.taskId) : undefined;
        if (!t || item.reason !== "input_required") continue;
        const line = cardLine({ state: t.state, evidence: parseJson(t.evidence), pane: null });
        if (line) item.message = line;
      }
      return items;
    },
    url: opts.url,
    async close(o = {}) {
      await team.peers.close();
      dependencies.detach();
      agentReviews.detach();
      await followers.stop();
      await worktrees.detach();
      screens.stop();
      await pruner.stop();
      await Promise.all([webhooks.stop(), push.stop()]);
      await tasks?.shutdown();
      await panes.shutdown({ stopPanes: o.stopPanes ?? true });
      await relay?.close();
      await db.$disconnect();
    },
  };
}

function parseJson(s: string | null): Record<string, unknown> | null {
  try {
    return s ? (JSON.parse(s) as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** YARD_SCROLLBACK_LINES: scrollback per pane (the bounds are scrollbackProblem's; default the minimum). */
function scrollbackLines(): number | undefined {
  const n = envInt("YARD_SCROLLBACK_LINES");
  const problem = n === undefined ? null : scrollbackProblem(n);
  if (problem) throw new Error(`YARD_SCROLLBACK_LINES ${problem} (got ${n})`);
  return n;
}
