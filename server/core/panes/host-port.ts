// What the pane manager needs from the pane host (the process that owns the PTYs and their
// mirrors; server/panehost/ implements it): requests typed by the host's contract
// (server/panehost/ops.ts: every op's arguments and reply, every event's payload), and the
// host's events as callbacks. Framework-free, no I/O here.
import type { HelloReply, HostExit, HostHook, HostPaneStatus, OpArgs, OpName, OpReply } from "../../panehost/ops";

export type { FlowStats, HostExit, HostHook, HostPaneStatus } from "../../panehost/ops";

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
  /** The host died: every pane it ran is gone (of several hosts: the panes in `scope`). */
  lost?(reason: string, scope?: readonly string[]): void;
  /**
   * The connection broke but the same host is still there: these are its panes now (of several
   * hosts: those in `scope` it no longer has are gone).
   */
  reattached?(panes: HostPaneStatus[], scope?: readonly string[]): void;
}

export interface PaneHostPort {
  events: PaneHostEvents;
  readonly hello: HelloReply;
  /** `on`: for a spawn, the runner whose host runs the pane (absent or null: this machine's). */
  request<Op extends OpName>(
    op: Op,
    args: OpArgs<Op>,
    opts?: { timeoutMs?: number; on?: string | null },
  ): Promise<OpReply<Op>>;
  /**
   * Several hosts only (host-router.ts): opens these runners' hosts before `hello.panes` is read
   * at recovery; returns the ones that could not be reached (their panes are left as they are).
   */
  openRunners?(panes: { id: string; runner: string }[]): Promise<Set<string>>;
  /** Several hosts only: where a runner's kit and the board's forwarded socket are (null: not open). */
  placement?(runner: string): Promise<{ kit: string; board: string; relay: string | null }>;
  serving(info: { url: string; host: string; port: number }): Promise<void>;
  ready(): Promise<void>;
  /** Leaves the host and its panes running. */
  detach(): Promise<void>;
  /** Stops the host and every pane it runs. */
  shutdown(): Promise<void>;
}
