// What the pane manager needs from the pane host (the process that owns the PTYs and their
// mirrors; server/panehost/ implements it): requests by name, the host's events, and the data
// they carry. Framework-free, no I/O here.

/** One pane the host holds: running, or exited with its exit not yet acknowledged. */
export interface HostPaneStatus {
  paneId: string;
  pid: number;
  cols: number;
  rows: number;
  state: "running" | "exiting" | "exited";
  readBytes: number;
  /** What the server attached at spawn (hooks support). */
  meta: Record<string, unknown>;
}

/** What `hello` answers. */
export interface HelloReply {
  hostPid: number;
  protocol: number;
  startedAt: string;
  /** Where the last server served (the address live panes' YARD_URL points at), or null. */
  serving: { url: string; host: string; port: number } | null;
  panes: HostPaneStatus[];
}

export interface FlowStats {
  readBytes: number;
  parsedBytes: number;
  pendingBytes: number;
  maxPendingBytes: number;
  backpressurePauses: number;
  paused: boolean;
  faults: number;
  /** Epoch ms (fractional) of the first byte read and of the last parse progress. */
  firstReadAt: number | null;
  lastParsedAt: number | null;
}

/** A hook `yard hook` posted to the host's relay while no server was reachable. */
export interface HostHook {
  seq: number;
  paneId: string;
  token: string;
  event: string;
  payload: Record<string, unknown>;
  at: number;
}

/** A pane's process exited; its output was read to the end and its final screen saved (unless screenError). */
export interface HostExit {
  seq: number;
  paneId: string;
  exitCode: number | null;
  signal: number | null;
  at: number;
  screenError: string | null;
  stats: FlowStats;
}

export interface PaneHostEvents {
  /** Output of a pane the server attached to; `offset` = bytes of the pane read before `data`. */
  output?(paneId: string, offset: number, data: Buffer): void;
  /** The pane wrote output (throttled; `at` = time of the latest), for panes with activity ticks on. */
  activity?(paneId: string, at: number): void;
  fault?(paneId: string, fault: { message: string; name: string; count: number }): void;
  /** Output for this pane was dropped (the server fell behind): viewers need a fresh snapshot. */
  resync?(paneId: string): void;
  /** Handled one at a time in order; acknowledged to the host when the promise settles. */
  hook?(hook: HostHook): Promise<void>;
  exit?(exit: HostExit): Promise<void>;
  /** The host died: every pane it ran is gone. */
  lost?(reason: string): void;
  /** The connection broke but the same host is still there: these are its panes now. */
  reattached?(panes: HostPaneStatus[]): void;
}

export interface PaneHostPort {
  events: PaneHostEvents;
  readonly hello: HelloReply;
  request<T = unknown>(
    op: string,
    args?: Record<string, unknown>,
    opts?: { body?: { field: string; data: string | Uint8Array }; timeoutMs?: number },
  ): Promise<T>;
  serving(info: { url: string; host: string; port: number }): Promise<void>;
  ready(): Promise<void>;
  /** Leaves the host and its panes running. */
  detach(): Promise<void>;
  /** Stops the host and every pane it runs. */
  shutdown(): Promise<void>;
}
