// Wiring for the team side of the board: its people (sessions, invites, tokens), its project
// webhooks (the journal's notices posted where the team talks), Web Push (the same notices sent to
// each person's browsers), on PostgreSQL the other server processes sharing its board (their
// events, and the panes they run: server/peers/), and the runners agents may run on. Called by
// createServices.
import { ACTIVE_STATES } from "./core/tasks/state";
import { envInt, paths } from "./config";
import type { EventJournal } from "./core/events/journal";
import { parseAllowHosts } from "./core/notify/push-endpoint";
import { WebPush } from "./core/notify/push";
import { Webhooks } from "./core/notify/webhooks";
import { cardLine } from "./core/tasks/card-line";
import { People, type SessionPort } from "./core/people/people";
import { Runners } from "./core/runners/service";
import { BoardPresence, internalUrlFromEnv } from "./peers/presence";
import { PanePeers } from "./peers/router";
import { BoardProcessStore } from "./stores/board-processes";
import { PgEventRelay } from "./stores/event-relay";
import { PaneStore } from "./stores/panes";
import { PeopleStore } from "./stores/people";
import { RunnerStore } from "./stores/runners";
import { PushStore } from "./stores/push";
import { SettingStore } from "./stores/settings";
import type { TaskStore } from "./stores/tasks";
import { WebhookStore } from "./stores/webhooks";

export interface TeamServices {
  people: People;
  webhooks: Webhooks;
  push: WebPush;
  runners: Runners;
  /** The other server processes sharing the board (PostgreSQL): this one's registration, and the panes they run. */
  peers: PanePeers;
}

export async function teamServices(
  /** The database, as the stores take it (only they talk to it). */
  db: ConstructorParameters<typeof PeopleStore>[0],
  journal: EventJournal,
  tasks: TaskStore,
  /** createServices' options: the board's addresses, the browser sessions, the log. */
  opts: {
    home: string;
    url: () => string;
    publicUrl?: () => string;
    sessions?: SessionPort;
    log?: (line: string) => void;
    /** The board's API socket, forwarded to runners (none: their panes cannot call the board). */
    apiSocket?: () => { path: string } | { error: string };
    /** This process: its instance id, whether others may share its database, whether it runs a pane. */
    processes: { instanceId: string; shared: boolean; isLive: (paneId: string) => boolean };
  },
): Promise<TeamServices> {
  // Links people get (invites, notices) use the address they use.
  const o = { db, journal, tasks, url: opts.publicUrl ?? opts.url, sessions: opts.sessions, log: opts.log };
  const people = new People({
    store: new PeopleStore(o.db),
    sessions: o.sessions ?? { revokePerson: () => 0 },
    baseUrl: o.url,
  });
  await people.load();
  const webhooks = new Webhooks({
    store: new WebhookStore(o.db),
    journal: o.journal,
    task: async (id) => {
      const t = await o.tasks.row(id);
      return t ? { projectId: t.projectId, title: t.title } : null;
    },
    boardUrl: o.url,
    log: o.log,
    options: {
      coalesceMs: envInt("YARD_WEBHOOK_COALESCE_MS") ?? 2_000,
      attempts: envInt("YARD_WEBHOOK_ATTEMPTS") ?? 6,
      retryBaseMs: envInt("YARD_WEBHOOK_RETRY_MS") ?? 2_000,
      timeoutMs: envInt("YARD_WEBHOOK_TIMEOUT_MS") ?? 10_000,
    },
  });
  const push = new WebPush({
    store: new PushStore(o.db),
    settings: new SettingStore(o.db),
    journal: o.journal,
    task: async (id) => {
      const t = await o.tasks.row(id);
      return t
        ? { title: t.title, line: cardLine({ state: t.state, evidence: evidenceOf(t.evidence), pane: null }) }
        : null;
    },
    boardUrl: o.url,
    // Read once: push services besides the public ones (and http to exactly these); a bad entry stops the start.
    allowHosts: parseAllowHosts(process.env.YARD_PUSH_ALLOW_HOSTS),
    subject: process.env.YARD_PUSH_SUBJECT || undefined,
    log: o.log,
    options: { ttlSeconds: 3600, timeoutMs: 10_000, concurrency: 4 },
  });
  const runners = new Runners({
    store: new RunnerStore(o.db),
    home: opts.home,
    // By its path: runners opened at start-up (to reattach their panes) are forwarded to it while the
    // services start; what arrives through the forward meanwhile waits for them (SocketGate in listen.ts).
    apiSocket: () => (opts.apiSocket ? paths(opts.home).socket : null),
    // How long a runner out of reach keeps its tasks (YARD_RUNNER_GRACE_MS, default 60 s).
    graceMs: envInt("YARD_RUNNER_GRACE_MS") ?? 60_000,
    log: opts.log,
    activeTasks: (name) => tasks.activeCount(ACTIVE_STATES, { runner: name }),
  });
  // YARD_INTERNAL_URL, read once: the address other processes reach this one at (a bad one stops the start).
  const { instanceId, shared, isLive } = opts.processes;
  const presence = new BoardPresence({
    store: new BoardProcessStore(o.db),
    instanceId,
    shared,
    log: o.log,
    internalUrl: internalUrlFromEnv(),
  });
  const paneRows = new PaneStore(o.db);
  const peers = new PanePeers({ presence, isLive, ownersOf: (ids) => paneRows.owners(ids) });
  return { people, webhooks, push, runners, peers };
}

function evidenceOf(s: string | null): Record<string, unknown> | null {
  try {
    const v = s ? (JSON.parse(s) as unknown) : null;
    return v && typeof v === "object" ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/**
 * On PostgreSQL other server processes may share the board: their events reach this one's live
 * views (the browser's socket, `yard task wait`) and this one's reach theirs, through the database
 * (stores/event-relay.ts). Null on SQLite (one process).
 */
export async function joinOtherProcesses(
  databaseUrl: string | null,
  journal: EventJournal,
  log?: (line: string) => void,
): Promise<PgEventRelay | null> {
  if (!databaseUrl) return null;
  const relay = await PgEventRelay.start({
    url: databaseUrl,
    onRemote: (seqs) => journal.deliverRemote(seqs),
    onDrop: () => journal.remoteDropped(),
    onReconnect: () => journal.remoteReconnected(),
    log,
  });
  journal.connectProcesses((seq) => relay.announce(seq));
  return relay;
}
