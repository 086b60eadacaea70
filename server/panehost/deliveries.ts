// The records the pane host keeps until a server has handled them: exits and relayed hooks, in
// the order they happened (numbered by seq). Once the server asked `ready` they go to it as they
// happen (first, every one it missed); its `ack` makes the host forget one. If the host goes
// idle before a server took them, they are saved to host/pending.json with the exited panes they
// name, and the next host loads and delivers them.
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { YardError } from "../core/errors";
import type { RelayedHook } from "./hook-relay";
import type { SavedPane } from "./host-pane";
import type { HostExit, HostHook, HostStatus } from "./ops";
import type { ServerLink } from "./server-link";

const MAX_QUEUED_HOOKS = 10_000;

export type Deliverable = ({ kind: "hook" } & HostHook) | ({ kind: "exit" } & HostExit);

export class Deliveries {
  private queue: Deliverable[] = [];
  private seq = 0;

  constructor(
    private readonly file: string,
    private readonly link: ServerLink,
    private readonly log: (line: string) => void,
  ) {}

  get size(): number {
    return this.queue.length;
  }

  /** The panes the records name. */
  paneIds(): Set<string> {
    return new Set(this.queue.map((d) => d.paneId));
  }

  status(): Pick<HostStatus, "undelivered" | "hooksQueued" | "queue"> {
    return {
      undelivered: this.queue.length,
      hooksQueued: this.queue.filter((d) => d.kind === "hook").length,
      queue: this.queue.map((d) =>
        d.kind === "hook"
          ? { paneId: d.paneId, kind: d.kind, event: d.event }
          : { paneId: d.paneId, kind: d.kind, exitCode: d.exitCode },
      ),
    };
  }

  exit(e: Omit<HostExit, "seq">): void {
    this.push({ kind: "exit", seq: ++this.seq, ...e });
  }

  /** A hook the relay accepted (its token already checked); refused while the queue is full. */
  hook(h: RelayedHook): void {
    if (this.queue.length >= MAX_QUEUED_HOOKS)
      throw new YardError("RATE_LIMITED", "The pane host's hook queue is full");
    this.push({ kind: "hook", seq: ++this.seq, ...h, at: Date.now() });
  }

  /** Sends the server every record it has not acknowledged, in order; returns how many. */
  deliverAll(): number {
    for (const d of this.queue) this.deliver(d);
    return this.queue.length;
  }

  /** Forgets the record the server acknowledged; returns it (undefined: not held). */
  ack(seq: number): Deliverable | undefined {
    const i = this.queue.findIndex((d) => d.seq === seq);
    return i >= 0 ? this.queue.splice(i, 1)[0] : undefined;
  }

  /** Takes the records an earlier host saved (renumbered after ours); returns the panes they name. */
  load(): SavedPane[] {
    if (!existsSync(this.file)) return [];
    let panes: SavedPane[] = [];
    try {
      const saved = JSON.parse(readFileSync(this.file, "utf8")) as { deliverables: Deliverable[]; panes: SavedPane[] };
      for (const d of saved.deliverables ?? []) this.queue.push({ ...d, seq: ++this.seq });
      panes = saved.panes ?? [];
      this.log(`loaded ${this.queue.length} undelivered record(s) from ${this.file}`);
    } catch (e) {
      this.log(`ignoring unreadable ${this.file}: ${(e as Error).message}`);
    }
    rmSync(this.file, { force: true });
    return panes;
  }

  /** Keeps what no server acknowledged for the next host, with `panes` (the exited panes the records name). */
  save(panes: SavedPane[]): void {
    if (!this.queue.length) return;
    writeFileSync(this.file, JSON.stringify({ deliverables: this.queue, panes }), { mode: 0o600 });
  }

  private push(d: Deliverable): void {
    this.queue.push(d);
    if (this.link.ready) this.deliver(d);
  }

  private deliver(d: Deliverable): void {
    if (d.kind === "hook") {
      const { kind: _, ...hook } = d;
      this.link.emit("hook", hook);
    } else {
      const { kind: _, ...exit } = d;
      this.link.emit("exit", exit);
    }
  }
}
