// The composition root: opens the database and builds every core service once, so the tRPC
// router, socket.io and start-up recovery share the same in-memory singletons.
import { mkdirSync } from "node:fs";
import { paths } from "./config";
import { AgentProfiles } from "./core/agents/profiles";
import { EventJournal } from "./core/events/journal";
import { inspectRepo } from "./core/git/repo";
import type { AttentionItem } from "./core/panes/attention";
import { PaneManager } from "./core/panes/manager";
import { Projects } from "./core/projects/projects";
import { type Db, openDatabase } from "./db";

export interface Services {
  home: string;
  token: string;
  db: Db;
  journal: EventJournal;
  projects: Projects;
  agents: AgentProfiles;
  panes: PaneManager;
  attention(limit?: number): Promise<AttentionItem[]>;
  url(): string;
  close(): Promise<void>;
}

export async function createServices(opts: { home: string; token: string; url: () => string }): Promise<Services> {
  const p = paths(opts.home);
  mkdirSync(p.home, { recursive: true, mode: 0o700 });
  const { db } = await openDatabase(p.db);
  const journal = new EventJournal(db);
  const agents = new AgentProfiles(db);
  await agents.seed();
  const projects = new Projects(db, async (path) => {
    const info = await inspectRepo(path);
    return { root: info.root, currentBranch: info.currentBranch };
  });
  const panes = new PaneManager({ db, journal, agents, home: p.home, url: opts.url });
  await panes.recover();
  return {
    home: p.home,
    token: opts.token,
    db,
    journal,
    projects,
    agents,
    panes,
    attention: (limit) => panes.attention({ limit }),
    url: opts.url,
    async close() {
      await panes.shutdown();
      await db.$disconnect();
    },
  };
}
