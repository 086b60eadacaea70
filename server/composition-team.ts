// Wiring for the team side of the board: its people (sessions, invites, tokens) and its project
// webhooks (the journal's notices posted where the team talks), and on PostgreSQL the other server
// processes sharing its board; the runners agents may run on. Called by createServices.
import { envInt } from "./config";
import type { EventJournal } from "./core/events/journal";
import { Webhooks } from "./core/notify/webhooks";
import { People, type SessionPort } from "./core/people/people";
import { Runners } from "./core/runners/service";
import { PgEventRelay } from "./stores/event-relay";
import { PeopleStore } from "./stores/people";
import { RunnerStore } from "./stores/runners";
import type { TaskStore } from "./stores/tasks";
import { WebhookStore } from "./stores/webhooks";

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
  },
): Promise<{ people: People; webhooks: Webhooks; runners: Runners }> {
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
  const runners = new Runners({ store: new RunnerStore(o.db), home: opts.home });
  return { people, webhooks, runners };
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
  const relay = await PgEventRelay.start({ url: databaseUrl, onRemote: (seqs) => journal.deliverRemote(seqs), log });
  journal.connectProcesses((seq) => relay.announce(seq));
  return relay;
}
