// One connection from this server process to another sharing the board (a socket.io client on the
// other's `/peer` namespace, its secret in the handshake): typed requests with their replies
// validated (wire/peer.ts) and the other's errors thrown again as YardErrors with their own codes,
// and the live viewers of the other's panes this connection carries (its output, resyncs,
// lifecycle and exit handed to each pane's listener). A link that drops is not reconnected: its
// viewers are told it was lost (the next attach looks the owner up again, with its current secret).
import { io, type Socket } from "socket.io-client";
import type { z } from "zod";
import { isErrorCode, YardError } from "../core/errors";
import type { PaneInfo, PaneListener } from "../core/panes/registry";
import { PEER_NAMESPACE, PEER_SECRET_HEADER, type PeerInput, peerPushes, peerReplies } from "../wire/peer";
import type { PaneSnapshot } from "../wire/socket";
import type { PeerAddress } from "./presence";

const CONNECT_TIMEOUT_MS = 10_000;
const REQUEST_TIMEOUT_MS = 30_000;
/** A task action passed on: a finish or a branch update runs git, a follow-up waits for the agent. */
const CALL_TIMEOUT_MS = 15 * 60_000;

type ReplyName = keyof typeof peerReplies;
type Reply<N extends ReplyName> = Extract<z.output<(typeof peerReplies)[N]>, { ok: true }>;

/** A viewer of a peer's pane: a pane listener, told too when the link to the peer was lost. */
export interface RemoteListener extends PaneListener {
  lost?(): void;
}

export interface RemoteAttach {
  snapshot: PaneSnapshot;
  pane: PaneInfo;
  detach: () => void;
}

export class PeerLink {
  private readonly socket: Socket;
  private readonly ready: Promise<void>;
  private readonly viewers = new Map<string, RemoteListener>();
  private closed = false;

  constructor(
    readonly peer: PeerAddress,
    private readonly onClosed?: (link: PeerLink) => void,
  ) {
    this.socket = io(`${peer.address}${PEER_NAMESPACE}`, {
      path: "/socket.io",
      transports: ["websocket"],
      extraHeaders: { [PEER_SECRET_HEADER]: peer.secret },
      reconnection: false,
      timeout: CONNECT_TIMEOUT_MS,
    });
    this.ready = new Promise<void>((resolve, reject) => {
      this.socket.once("connect", () => resolve());
      this.socket.once("connect_error", (e) => {
        reject(
          new YardError(
            "SERVER_UNAVAILABLE",
            `The board process ${peer.instanceId} that runs this pane is not reachable at ${peer.address}: ${e.message}`,
            { instanceId: peer.instanceId, address: peer.address },
          ),
        );
        this.close();
      });
    });
    this.ready.catch(() => {});
    this.socket.on("disconnect", () => this.close());
    this.socket.on("pane:output", (raw: unknown) => {
      const m = peerPushes["pane:output"].safeParse(raw);
      if (m.success) this.viewers.get(m.data.paneId)?.output?.(m.data.data);
    });
    this.socket.on("pane:resync", (raw: unknown) => {
      const m = peerPushes["pane:resync"].safeParse(raw);
      if (m.success) this.viewers.get(m.data.paneId)?.resync?.();
    });
    this.socket.on("pane:lifecycle", (raw: unknown) => {
      const m = peerPushes["pane:lifecycle"].safeParse(raw);
      if (m.success) this.viewers.get(m.data.pane.id)?.lifecycle?.(m.data.pane as PaneInfo);
    });
    this.socket.on("pane:exit", (raw: unknown) => {
      const m = peerPushes["pane:exit"].safeParse(raw);
      if (m.success) this.viewers.get(m.data.pane.id)?.exit?.(m.data.pane as PaneInfo);
    });
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** Asks the peer; its failed ack is thrown as the YardError it was there. */
  private async request<N extends ReplyName>(
    name: N,
    payload: unknown,
    timeoutMs = REQUEST_TIMEOUT_MS,
  ): Promise<Reply<N>> {
    await this.ready;
    if (this.closed) throw this.gone();
    let raw: unknown;
    try {
      raw = await this.socket.timeout(timeoutMs).emitWithAck(name, payload);
    } catch {
      throw this.closed
        ? this.gone()
        : new YardError("TIMEOUT", `The board process ${this.peer.instanceId} did not answer ${name} in time`);
    }
    const r = peerReplies[name].safeParse(raw);
    if (!r.success)
      throw new YardError("INTERNAL", `The board process ${this.peer.instanceId} answered ${name} in an unknown shape`);
    if (!r.data.ok) {
      const e = r.data.error;
      throw new YardError(isErrorCode(e.code) ? e.code : "INTERNAL", e.message, e.details ?? undefined);
    }
    return r.data as Reply<N>;
  }

  private gone(): YardError {
    return new YardError(
      "SERVER_UNAVAILABLE",
      `The connection to the board process ${this.peer.instanceId} at ${this.peer.address} closed`,
    );
  }

  /** A live view of the peer's pane: its snapshot now, then its output to `listener` until detached. */
  async attach(paneId: string, listener: RemoteListener): Promise<RemoteAttach> {
    // Registered first: output the peer sends right after its ack finds its listener.
    this.viewers.set(paneId, listener);
    let r: Reply<"pane:attach">;
    try {
      r = await this.request("pane:attach", { paneId });
    } catch (e) {
      if (this.viewers.get(paneId) === listener) this.viewers.delete(paneId);
      throw e;
    }
    const detach = () => {
      if (this.viewers.get(paneId) !== listener) return;
      this.viewers.delete(paneId);
      if (!this.closed) this.socket.emit("pane:detach", { paneId });
    };
    return { snapshot: r.snapshot, pane: r.pane as PaneInfo, detach };
  }

  /** Whether this link carries a live view of the pane. */
  views(paneId: string): boolean {
    return this.viewers.has(paneId);
  }

  async input(paneId: string, data: string): Promise<void> {
    await this.request("pane:input", { paneId, data });
  }

  async resize(paneId: string, cols: number, rows: number): Promise<PaneInfo> {
    return (await this.request("pane:resize", { paneId, cols, rows })).pane as PaneInfo;
  }

  async read(input: PeerInput<"pane:read">) {
    return (await this.request("pane:read", input)).reply;
  }

  async sendKeys(input: PeerInput<"pane:keys">) {
    return (await this.request("pane:keys", input)).reply;
  }

  async submit(input: PeerInput<"pane:submit">) {
    // A submit waits for the agent to take the prompt (its stall timeout), and then some.
    const waits = (input.enterDelayMs ?? 0) + (input.stallMs ?? 60_000);
    return (await this.request("pane:submit", input, waits + REQUEST_TIMEOUT_MS)).reply;
  }

  async kill(input: PeerInput<"pane:kill">): Promise<PaneInfo> {
    // The owner waits for the process to end (its kill grace), and then some.
    return (await this.request("pane:kill", input)).reply as PaneInfo;
  }

  /** A task action the peer runs (it runs the agent): its procedure's answer. */
  async call(input: PeerInput<"task:call">): Promise<unknown> {
    return (await this.request("task:call", input, CALL_TIMEOUT_MS)).reply;
  }

  /** Ends the connection; its viewers are told they lost it. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.socket.close();
    this.onClosed?.(this);
    const viewers = [...this.viewers.values()];
    this.viewers.clear();
    for (const v of viewers) v.lost?.();
  }
}
