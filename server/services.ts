// The composition root: opens the database and builds every core service once, so the tRPC
// router, socket.io and start-up recovery share the same in-memory singletons.
import { paths } from "./config";
import { AgentProfiles } from "./core/agents/profiles";
import { EventJournal } from "./core/events/journal";
import { inspectRepo } from "./core/git/repo";
import type { AttentionItem } from "./core/panes/attention";
import { MAX_SCROLLBACK, PaneManager } from "./core/panes/manager";
import { MIN_SCROLLBACK } from "./core/panes/mirror";
import { Projects } from "./core/projects/projects";
import { type ApiSocketState, Sandbox } from "./core/sandbox/sandbox";
import { ReviewService } from "./core/reviews/service";
import { ReviewStore } from "./stores/reviews";
import { TaskEngine } from "./core/tasks/service";
import { TaskStore } from "./stores/tasks";
import { type Db, openDatabase } from "./db";
import { tightenDataDir } from "./security/data-dir";
import { EventStore } from "./stores/events";
import { ProfileStore } from "./stores/profiles";
import { ProjectStore } from "./stores/projects";

export interface Services {
  home: string;
  token: string;
  db: Db;
  journal: EventJournal;
  projects: Projects;
  agents: AgentProfiles;
  panes: PaneManager;
  tasks: TaskEngine;
  sandbox: Sandbox;
  reviews: ReviewService;
  attention(limit?: number): Promise<AttentionItem[]>;
  url(): string;
  close(): Promise<void>;
}

export async function createServices(opts: { home: string; token: string; url: () => string; apiSocket?: () => ApiSocketState }): Promise<Services> {
  const scrollback = scrollbackLines(); // a bad setting fails before anything is opened
  const p = paths(opts.home);
  tightenDataDir(p.home);
  const { db } = await openDatabase(p.db);
  const journal = new EventJournal(new EventStore(db));
  const agents = new AgentProfiles(new ProfileStore(db));
  await agents.seed();
  const projects = new Projects(new ProjectStore(db), async (path) => {
    const info = await inspectRepo(path);
    return { root: info.root, currentBranch: info.currentBranch };
  });
  // YARD_BWRAP: which bwrap to use (a path or a name on PATH), read once here.
  const sandbox = new Sandbox({ home: p.home, bwrap: process.env.YARD_BWRAP || "bwrap", apiSocket: opts.apiSocket ?? (() => ({ error: "this server has no API socket" })) });
  let tasks: TaskEngine | null = null;
  const panes = new PaneManager({
    db,
    journal,
    agents,
    home: p.home,
    url: opts.url,
    taskState: (taskId) => tasks?.cachedState(taskId) ?? null,
    onTransition: (info, state, t) => tasks?.onPaneTransition(info, t.to, t.from, state.lastMessage),
    scrollbackLines: scrollback,
  });
  tasks = new TaskEngine({
    db,
    journal,
    panes,
    agents,
    projects,
    store: new TaskStore(db),
    home: p.home,
    maxActive: envInt("YARD_MAX_ACTIVE_TASKS"),
    readyTimeoutMs: envInt("YARD_READY_TIMEOUT_MS"),
    sandbox,
  });
  const reviews = new ReviewService({ store: new ReviewStore(db), tasks, journal });
  await tasks.recover(await panes.recover());
  return {
    home: p.home,
    token: opts.token,
    db,
    journal,
    projects,
    agents,
    panes,
    tasks,
    sandbox,
    reviews,
    attention: async (limit) => {
      const rows = await db.task.findMany({ where: { paneId: { not: null } }, select: { id: true, state: true, updatedAt: true } });
      return panes.attention({ limit, taskStates: new Map(rows.map((r) => [r.id, { state: r.state, at: r.updatedAt.getTime() }])) });
    },
    url: opts.url,
    async close() {
      await tasks?.shutdown();
      await panes.shutdown();
      await db.$disconnect();
    },
  };
}

/** YARD_SCROLLBACK_LINES: scrollback per pane, MIN_SCROLLBACK..MAX_SCROLLBACK (default MIN_SCROLLBACK). */
function scrollbackLines(): number | undefined {
  const n = envInt("YARD_SCROLLBACK_LINES");
  if (n !== undefined && (n < MIN_SCROLLBACK || n > MAX_SCROLLBACK)) {
    throw new Error(`YARD_SCROLLBACK_LINES must be from ${MIN_SCROLLBACK} to ${MAX_SCROLLBACK} (got ${n})`);
  }
  return n;
}

function envInt(name: string): number | undefined {
  const v = process.env[name];
  if (!v) return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || n <= 0) throw new Error(`${name} must be a positive whole number (got ${JSON.stringify(v)})`);
  return n;
}
