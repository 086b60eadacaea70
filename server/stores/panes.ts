// The pane store: the only code that reads or writes Pane rows. A row is created when a spawn
// starts, carries the pane's lifecycle as last persisted (state, seq, doneSeen, hooksSeen, exit),
// its size and the hash of its pane token (cleared when the pane exits: a token dies with its
// process), and stays after the pane ends as the record the board and `yard pane` read.
import type { Db } from "../db";

export type PaneRow = NonNullable<Awaited<ReturnType<Db["pane"]["findUnique"]>>>;

/** The columns a pane is created with (its lifecycle starts as "unknown"). */
export interface PaneFields {
  id: string;
  /** JSON array: what was run (the agent's own argv, not a sandbox wrapper). */
  argv: string;
  cwd: string;
  label: string | null;
  parentPaneId: string | null;
  rootPaneId: string;
  relationship: string | null;
  taskId: string | null;
  agent: string | null;
  cols: number;
  rows: number;
  tokenHash: string;
  sandboxed: boolean;
  /** What the pane's token may call: worker | reviewer | planner | orchestrator. */
  role: string;
  /** The runner whose pane host runs it (null: this board's own). */
  runner: string | null;
}

/** A live pane's lifecycle as persisted after each change (see lifecycle.ts for the fields). */
export interface PaneStateColumns {
  lifecycle: string;
  lifecycleSeq: number;
  doneSeen: boolean;
  hooksSeen: boolean;
  exitCode: number | null;
  signal: number | null;
  /** Set once the pane exited; undefined leaves the column as it is. */
  exitedAt?: Date;
  /** null clears the pane token (the pane exited); undefined leaves it. */
  tokenHash?: null;
  pid?: number;
}

export class PaneStore {
  /**
   * `owner`: this server's instance id (its data dir's), written on the panes it creates; start-up
   * recovery sees only those (and ownerless rows). Null: a store that only reads.
   */
  constructor(
    private readonly db: Db,
    private readonly owner: string | null = null,
  ) {}

  row(id: string): Promise<PaneRow | null> {
    return this.db.pane.findUnique({ where: { id } });
  }

  /** A would-be parent pane: its id and the root of its tree (null: no such pane). */
  lineage(id: string): Promise<{ id: string; rootPaneId: string | null } | null> {
    return this.db.pane.findUnique({ where: { id }, select: { id: true, rootPaneId: true } });
  }

  /** The instance id each of these panes' rows records as its owner (null: none recorded). */
  async owners(ids: string[]): Promise<Map<string, string | null>> {
    const rows = await this.db.pane.findMany({ where: { id: { in: ids } }, select: { id: true, owner: true } });
    return new Map(rows.map((r) => [r.id, r.owner]));
  }

  /** What a pane token is checked against: the stored hash (null once the pane exited). */
  credentials(
    id: string,
  ): Promise<{ id: string; taskId: string | null; tokenHash: string | null; role: string } | null> {
    return this.db.pane.findUnique({ where: { id }, select: { id: true, taskId: true, tokenHash: true, role: true } });
  }

  create(f: PaneFields): Promise<PaneRow> {
    return this.db.pane.create({ data: { ...f, owner: this.owner, lifecycle: "unknown" } });
  }

  /** The host could not start the process: the pane ended before it ran (exit code 127). */
  async spawnFailed(id: string): Promise<void> {
    await this.db.pane.update({
      where: { id },
      data: { lifecycle: "exited", exitCode: 127, exitedAt: new Date(), tokenHash: null },
    });
  }

  async saveState(id: string, s: PaneStateColumns): Promise<void> {
    await this.db.pane.update({ where: { id }, data: s });
  }

  async resized(id: string, cols: number, rows: number): Promise<void> {
    await this.db.pane.update({ where: { id }, data: { cols, rows } });
  }

  /** An ended pane the user has seen (no live state to go through). */
  async markSeen(id: string): Promise<void> {
    await this.db.pane.update({ where: { id }, data: { doneSeen: true } });
  }

  /** A pane recorded as running whose process is gone (found at start-up): exited, unseen, token cleared. */
  async markLost(id: string): Promise<void> {
    await this.db.pane.update({
      where: { id },
      data: { lifecycle: "exited", exitedAt: new Date(), doneSeen: false, tokenHash: null },
    });
  }

  /** How many panes were ever recorded (one COUNT, not a read of every row). */
  count(): Promise<number> {
    return this.db.pane.count();
  }

  /** Oldest first. */
  list(filter: { taskId?: string } = {}): Promise<PaneRow[]> {
    return this.db.pane.findMany({ where: { taskId: filter.taskId }, orderBy: { createdAt: "asc" } });
  }

  /** The rows attention ranks: panes blocked, done or exited, and every task's pane. */
  attentionRows(): Promise<PaneRow[]> {
    return this.db.pane.findMany({
      where: { OR: [{ lifecycle: { in: ["blocked", "done", "exited"] } }, { taskId: { not: null } }] },
    });
  }

  /** This server's panes recorded as running (and ownerless ones, from before owners were recorded). */
  unexited(): Promise<PaneRow[]> {
    return this.db.pane.findMany({
      where: { lifecycle: { not: "exited" }, OR: [{ owner: this.owner }, { owner: null }] },
    });
  }

  /** Panes recorded as running that another server (sharing this database) runs: its to recover, not ours. */
  async othersRunning(): Promise<Set<string>> {
    if (this.owner === null) return new Set();
    const rows = await this.db.pane.findMany({
      where: { lifecycle: { not: "exited" }, owner: { not: this.owner } },
      select: { id: true },
    });
    return new Set(rows.map((r) => r.id));
  }

  /**
   * The panes that are blocked on a prompt right now (few at any time), each with when its row last
   * changed (the change to blocked, unless a resize came after it): one query.
   */
  async blocked(): Promise<Map<string, Date>> {
    const rows = await this.db.pane.findMany({
      where: { lifecycle: "blocked" },
      select: { id: true, updatedAt: true },
    });
    return new Map(rows.map((p) => [p.id, p.updatedAt]));
  }
}
