// Which process serves a pane, for the server processes sharing one board: a pane live here, or
// recorded as this process's (or as nobody's), is served here; a pane whose row names another
// process that is running (presence.ts) is served by that one, through a link to it (link.ts).
// Holds the links the API's forwarded calls share (one per peer), and hands each browser socket a
// session of its own links (the peer keeps one view of a pane per connection, as it does for a
// browser), closed with the socket. A view whose link dropped (the owner restarted, with a new
// secret) waits for the owner to be back, then takes a fresh view through it.
import { actingAs, type currentActor } from "../core/actor";
import type { PaneInfo, PaneListener } from "../core/panes/registry";
import { PeerLink, type RemoteAttach } from "./link";
import type { BoardPresence, PeerAddress } from "./presence";

/**
 * How long a view whose owner went away waits for it to be back; how long before the same process
 * (same secret: the connection dropped, not the process) counts as back; how often it looks.
 */
const REGAIN_MS = 120_000;
const REGAIN_SAME_MS = 5_000;
const REGAIN_STEP_MS = { first: 200, max: 2_000 };

export class PanePeers {
  private readonly shared = new Map<string, PeerLink>();

  constructor(
    private readonly deps: {
      presence: BoardPresence;
      /** Whether this process's pane manager runs the pane. */
      isLive: (paneId: string) => boolean;
      /** The instance id each pane's row records as its owner (null or absent: none recorded, or no such pane). */
      ownersOf: (paneIds: string[]) => Promise<Map<string, string | null>>;
    },
  ) {}

  get presence(): BoardPresence {
    return this.deps.presence;
  }

  /** The running process that serves this pane, or null when this one does. */
  async ownerOf(paneId: string): Promise<PeerAddress | null> {
    if (!this.deps.presence.shared || this.deps.isLive(paneId)) return null;
    const owner = (await this.deps.ownersOf([paneId])).get(paneId);
    return owner ? this.deps.presence.lookup(owner) : null;
  }

  /**
   * Panes as this process reports them, with those another running process runs marked live (this
   * process's pane manager knows only its own; the row says who runs the others, and how they are).
   */
  async withOthersLive<P extends { id: string; live: boolean; lifecycle: string }>(panes: P[]): Promise<P[]> {
    if (!this.deps.presence.shared) return panes;
    const others = panes.filter((p) => !p.live && p.lifecycle !== "exited" && !this.deps.isLive(p.id));
    if (others.length === 0) return panes;
    const owners = await this.deps.ownersOf(others.map((p) => p.id));
    const running = new Map<string, boolean>();
    for (const owner of new Set(owners.values()))
      if (owner) running.set(owner, (await this.deps.presence.lookup(owner)) !== null);
    const live = new Set(others.filter((p) => running.get(owners.get(p.id) ?? "")).map((p) => p.id));
    return live.size ? panes.map((p) => (live.has(p.id) ? { ...p, live: true } : p)) : panes;
  }

  /**
   * The link to the process that serves this pane, for one forwarded call (shared with other
   * calls), or null when this process serves it.
   */
  async remote(paneId: string): Promise<PeerLink | null> {
    const peer = await this.ownerOf(paneId);
    return peer ? linkIn(this.shared, peer) : null;
  }

  /** A browser socket's own links: its live views of other processes' panes, its keys and resizes. */
  session(): PeerSession {
    return new PeerSession(this);
  }

  /** Closes the links, then withdraws this process from the board (its row goes). */
  async close(): Promise<void> {
    for (const l of [...this.shared.values()]) l.close();
    await this.deps.presence.close();
  }
}

/** The link in `links` to `peer` (one with its current address and secret), opened when there is none. */
function linkIn(links: Map<string, PeerLink>, peer: PeerAddress): PeerLink {
  const have = links.get(peer.instanceId);
  if (have && !have.isClosed && have.peer.secret === peer.secret && have.peer.address === peer.address) return have;
  have?.close();
  const link = new PeerLink(peer, (l) => {
    if (links.get(peer.instanceId) === l) links.delete(peer.instanceId);
  });
  links.set(peer.instanceId, link);
  return link;
}

/** Runs `fn` as the actor a peer forwarded (none: as the peer's own process). */
export function asForwarded<T>(actor: ReturnType<typeof currentActor>, fn: () => T): T {
  return actor ? actingAs(actor, fn) : fn();
}

export class PeerSession {
  private readonly links = new Map<string, PeerLink>();
  /** The link each pane viewed through this session is attached on (its keys and resizes take it too). */
  private readonly viewing = new Map<string, PeerLink>();
  private closed = false;

  constructor(private readonly peers: PanePeers) {}

  private async linkFor(paneId: string): Promise<PeerLink | null> {
    const viewed = this.viewing.get(paneId);
    if (viewed && !viewed.isClosed && viewed.views(paneId)) return viewed;
    const peer = await this.peers.ownerOf(paneId);
    if (!peer || this.closed) return null;
    return linkIn(this.links, peer);
  }

  /**
   * A live view of another process's pane, or null when this process serves the pane. When the
   * link drops, the listener is told to resync once the owner runs again: with a new secret (it
   * restarted; the old one may linger a moment while it shuts down), or with the same one after a
   * while (the connection dropped, not the process); after REGAIN_MS it is served from here.
   */
  async attach(paneId: string, listener: PaneListener): Promise<RemoteAttach | null> {
    const link = await this.linkFor(paneId);
    if (!link) return null;
    let detached = false;
    const regain = (waited: number, step: number) => {
      if (detached || this.closed) return;
      void this.peers.ownerOf(paneId).then(
        (peer) => {
          if (detached || this.closed) return;
          const back = peer && (peer.secret !== link.peer.secret || waited >= REGAIN_SAME_MS);
          if (back || waited >= REGAIN_MS) return listener.resync?.();
          setTimeout(() => regain(waited + step, Math.min(step * 2, REGAIN_STEP_MS.max)), step).unref();
        },
        () => setTimeout(() => regain(waited + step, step), step).unref(),
      );
    };
    const attached = await link.attach(paneId, {
      ...listener,
      lost: () => setTimeout(() => regain(0, REGAIN_STEP_MS.first), REGAIN_STEP_MS.first).unref(),
    });
    this.viewing.set(paneId, link);
    return {
      ...attached,
      detach: () => {
        detached = true;
        if (this.viewing.get(paneId) === link) this.viewing.delete(paneId);
        attached.detach();
      },
    };
  }

  /** Keystrokes for another process's pane (true), or false when this process serves the pane. */
  async input(paneId: string, data: string): Promise<boolean> {
    const link = await this.linkFor(paneId);
    if (!link) return false;
    await link.input(paneId, data);
    return true;
  }

  /** A resize of another process's pane (its info after), or null when this process serves the pane. */
  async resize(paneId: string, cols: number, rows: number): Promise<PaneInfo | null> {
    const link = await this.linkFor(paneId);
    return link ? link.resize(paneId, cols, rows) : null;
  }

  close(): void {
    this.closed = true;
    this.viewing.clear();
    for (const l of [...this.links.values()]) l.close();
  }
}
