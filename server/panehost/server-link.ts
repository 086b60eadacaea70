// The pane host's side of the attached server (one at a time): its connection and pid, whether it
// asked for records yet (`ready`), where it serves, and every event the host sends it. Output of
// attached panes is dropped while the server's socket holds more than SERVER_BUFFER_MAX, and the
// pane's viewers are resynced once it drains, so a slow server never slows a PTY.
import type { Conn } from "./connection";
import type { EventName, EventPayload, HelloReply } from "./ops";

/** Output to the server stops (viewers are resynced later) while its socket holds more than this. */
const SERVER_BUFFER_MAX = 16 * 1024 * 1024;

export class ServerLink {
  conn: Conn | null = null;
  pid = 0;
  /** The server asked `ready`: records go to it as they happen. */
  ready = false;
  /** A server has attached since this host started. */
  served = false;
  /** Where the last server served (live panes' YARD_URL points there). */
  serving: HelloReply["serving"] = null;
  /** Panes whose output was dropped while the server's socket was full: resynced when it drains. */
  private readonly overflowed = new Set<string>();

  constructor(private readonly log: (line: string) => void) {}

  attach(conn: Conn, pid: number): void {
    this.conn = conn;
    this.pid = pid;
    this.served = true;
    this.log(`server ${pid} attached`);
    conn.socket.on("drain", () => this.onDrain());
  }

  detach(): void {
    this.log(`server ${this.pid} detached`);
    this.conn = null;
    this.ready = false;
    this.overflowed.clear();
  }

  emit<E extends EventName>(ev: E, payload: EventPayload<E>): void {
    this.conn?.emit(ev, payload);
  }

  /** Output of a pane the server attached to (dropped while the server's socket is full). */
  output(paneId: string, offset: number, data: Buffer): void {
    if (!this.conn) return;
    if (this.conn.socket.writableLength > SERVER_BUFFER_MAX) this.overflowed.add(paneId);
    else if (!this.overflowed.has(paneId)) this.conn.emit("output", { paneId, offset, data });
  }

  /** The server attached to the pane afresh (a new snapshot): its output flows again. */
  resubscribed(paneId: string): void {
    this.overflowed.delete(paneId);
  }

  private onDrain(): void {
    if (!this.conn || this.conn.socket.writableLength > SERVER_BUFFER_MAX / 2) return;
    for (const id of this.overflowed) this.conn.emit("resync", { paneId: id });
    this.overflowed.clear();
  }
}
