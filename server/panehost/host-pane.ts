// One pane as the pane host holds it: its PTY, what was read from it and how far its mirror has
// parsed, its viewer subscription, activity ticks and kill timer; and the views of it the
// contract sends (status, flow counters), and whether a relayed hook's token is its own. A pane
// whose exit the host restored from host/pending.json is a record like any other, "exited" and
// without a process.
import type * as pty from "node-pty";
import { YardError } from "../core/errors";
import type { PtyFlow } from "../core/panes/pty-flow";
import { hashSecret, parsePaneToken, safeEqual } from "../security/token";
import type { FlowStats, HostPaneStatus } from "./ops";

export interface HostPane {
  id: string;
  proc: pty.IPty | null;
  pid: number;
  cols: number;
  rows: number;
  state: "running" | "exiting" | "exited";
  flow: PtyFlow | null;
  high: number;
  low: number;
  backpressure: (() => void) | null;
  backpressurePauses: number;
  maxPendingBytes: number;
  readBytes: number;
  parsedBytes: number;
  subscribed: boolean;
  /** The bytes of a character cut by the last read (a viewer attaching now starts with them). */
  tail: Buffer | null;
  activity: boolean;
  activityTimer: NodeJS.Timeout | null;
  lastActivitySent: number;
  lastOutputAt: number;
  tokenHash: string;
  meta: Record<string, unknown>;
  killTimer: NodeJS.Timeout | null;
  firstReadAt: number | null;
  lastParsedAt: number | null;
  parsedWaiters: Array<{ bytes: number; resolve: () => void }>;
  faults: number;
  /** Resolves once the pane is "exited" (its final screen saved, its exit recorded). */
  exited: Promise<void>;
  markExited: () => void;
}

/** What host/pending.json keeps of a pane whose exit no server has acknowledged yet. */
export type SavedPane = Pick<HostPane, "id" | "pid" | "cols" | "rows" | "meta">;

/** A record with no process and nothing read: the base of a new pane, or an exited one as saved. */
export function paneRecord(p: SavedPane): HostPane {
  let markExited!: () => void;
  const exited = new Promise<void>((r) => (markExited = r));
  return {
    exited,
    markExited,
    id: p.id,
    proc: null,
    pid: p.pid,
    cols: p.cols,
    rows: p.rows,
    state: "exited",
    flow: null,
    high: 0,
    low: 0,
    backpressure: null,
    backpressurePauses: 0,
    maxPendingBytes: 0,
    readBytes: 0,
    parsedBytes: 0,
    subscribed: false,
    tail: null,
    activity: false,
    activityTimer: null,
    lastActivitySent: 0,
    lastOutputAt: 0,
    tokenHash: "",
    meta: p.meta,
    killTimer: null,
    firstReadAt: null,
    lastParsedAt: null,
    parsedWaiters: [],
    faults: 0,
  };
}

/** The panes the host holds, by id: running ones, and exited ones until the server acknowledged their exit. */
export class PaneTable extends Map<string, HostPane> {
  running(): HostPane[] {
    return [...this.values()].filter((p) => p.state !== "exited");
  }

  pane(id: string): HostPane {
    const p = this.get(id);
    if (!p) throw new YardError("NOT_FOUND", `The pane host has no pane ${id}`, { paneId: id });
    return p;
  }

  runningPane(id: string): HostPane {
    const p = this.pane(id);
    if (p.state !== "running")
      throw new YardError("PANE_EXITED", `Pane ${p.id} has exited`, { paneId: p.id, state: p.state });
    return p;
  }

  /** An exited pane an earlier host saved with its undelivered exit. */
  restore(saved: SavedPane): void {
    const p = paneRecord(saved);
    p.markExited();
    this.set(p.id, p);
  }

  /** The exited panes among `ids`, as host/pending.json keeps them. */
  saved(ids: Set<string>): SavedPane[] {
    return [...this.values()]
      .filter((p) => ids.has(p.id) && p.state === "exited")
      .map((p) => ({ id: p.id, pid: p.pid, cols: p.cols, rows: p.rows, meta: p.meta }));
  }

  /** The server went away: nothing is sent for its subscriptions or activity ticks any more. */
  serverGone(): void {
    for (const p of this.values()) {
      p.subscribed = false;
      if (p.activityTimer) clearTimeout(p.activityTimer);
      p.activityTimer = null;
    }
  }
}

export function paneStatus(p: HostPane): HostPaneStatus {
  return {
    paneId: p.id,
    pid: p.pid,
    cols: p.cols,
    rows: p.rows,
    state: p.state,
    readBytes: p.readBytes,
    meta: p.meta,
  };
}

export function flowStats(p: HostPane): FlowStats {
  return {
    readBytes: p.readBytes,
    parsedBytes: p.parsedBytes,
    pendingBytes: p.readBytes - p.parsedBytes,
    maxPendingBytes: p.maxPendingBytes,
    backpressurePauses: p.backpressurePauses,
    paused: p.flow?.paused ?? false,
    faults: p.faults,
    firstReadAt: p.firstReadAt,
    lastParsedAt: p.lastParsedAt,
  };
}

/** Refuses (UNAUTHORIZED) a relayed hook's token unless it is that of `p`, a pane the host runs. */
export function checkRelayToken(p: HostPane | undefined, token: string): void {
  const parsed = parsePaneToken(token);
  if (
    !p ||
    p.state === "exited" ||
    !parsed ||
    parsed.paneId !== p.id ||
    !p.tokenHash ||
    !safeEqual(hashSecret(parsed.secret), p.tokenHash)
  ) {
    throw new YardError("UNAUTHORIZED", "This pane token is not valid for a pane this host runs");
  }
}
