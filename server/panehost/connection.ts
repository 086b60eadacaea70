// One framed connection to or from the pane host, typed by the contract (ops.ts). Both ends use
// `Conn`: the client's `request(op, args)` resolves with that op's reply (or rejects with its
// YardError); the host answers with `reply(id, op, result)` and sends events with `emit(ev,
// payload)`. The contract's binary fields are moved to the frame's body here, on the way out;
// protocol.ts puts them back on the way in. Also connecting: to a Unix socket, and as `control`
// (tests). The CLI never loads it: `yard stop --all` with no server signals the host instead.
import type net from "node:net";
import { connect } from "node:net";
import path from "node:path";
import { YardError } from "../core/errors";
import {
  EVENTS,
  type EventName,
  type EventPayload,
  type HelloReply,
  OPS,
  type OpArgs,
  type OpName,
  type OpReply,
  PROTOCOL,
} from "./ops";
import {
  type Body,
  checkPrivateDir,
  encodeFrame,
  FrameReader,
  fromWireError,
  hostPaths,
  loadHostSecret,
  type Msg,
  toWireError,
} from "./protocol";

interface Pending {
  resolve: (v: unknown) => void;
  reject: (e: Error) => void;
  timer: NodeJS.Timeout | null;
}

/** Takes the contract's body field out of `msg` (a string or bytes; anything else stays in the JSON, to be refused). */
function splitBody(msg: object, field: string | undefined): [Msg, Body | undefined] {
  if (field === undefined) return [msg as Msg, undefined];
  const { [field]: data, ...rest } = msg as Msg;
  if (typeof data !== "string" && !(data instanceof Uint8Array)) return [msg as Msg, undefined];
  return [rest, { field, data }];
}

export class Conn {
  private readonly reader = new FrameReader();
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private closedError: Error | null = null;
  /** Every frame that is not a reply: requests on the host's side, events on the client's. */
  onMessage: (msg: Msg) => void = () => {};
  private readonly closeListeners = new Set<(error: Error | null) => void>();

  constructor(readonly socket: net.Socket) {
    socket.on("data", (chunk: Buffer) => {
      let msgs: Msg[];
      try {
        msgs = this.reader.push(chunk);
      } catch (e) {
        this.destroy(e as Error);
        return;
      }
      for (const m of msgs) {
        if (typeof m.re === "number") this.settle(m);
        else {
          try {
            this.onMessage(m);
          } catch (e) {
            this.destroy(e as Error);
            return;
          }
        }
      }
    });
    // A socket error (EPIPE, ECONNRESET: the host went away mid-write) is the connection lost, as a
    // close is: the same typed error, so callers that start another host on it (a host stopping as
    // a server said hello) do not die of the raw one.
    socket.on(
      "error",
      (e) =>
        (this.closedError ??= new YardError("PANE_HOST_UNAVAILABLE", `The pane host connection failed: ${e.message}`, {
          cause: e.message,
        })),
    );
    socket.on("close", () => {
      const err = this.closedError ?? new YardError("PANE_HOST_UNAVAILABLE", "The pane host connection closed");
      for (const p of this.pending.values()) {
        if (p.timer) clearTimeout(p.timer);
        p.reject(err);
      }
      this.pending.clear();
      for (const l of this.closeListeners) l(this.closedError);
    });
  }

  get closed(): boolean {
    return this.socket.destroyed;
  }

  onClose(listener: (error: Error | null) => void): void {
    this.closeListeners.add(listener);
  }

  /** Sends one frame; false when the socket's buffer is over its high-water mark. */
  send(msg: Msg, body?: Body): boolean {
    if (this.socket.destroyed) return false;
    return this.socket.write(encodeFrame(msg, body));
  }

  /** The reply to request `id`. */
  reply<Op extends OpName>(id: unknown, op: Op, result: OpReply<Op>): void {
    const [rest, body] = splitBody(result, OPS[op].replyBody);
    this.send({ re: id, ok: true, result: rest }, body && { field: `result.${body.field}`, data: body.data });
  }

  replyError(id: unknown, e: unknown): void {
    this.send({ re: id, ok: false, error: toWireError(e) });
  }

  /** An event from the host; false when the socket's buffer is over its high-water mark. */
  emit<E extends EventName>(ev: E, payload: EventPayload<E>): boolean {
    const [rest, body] = splitBody(payload, EVENTS[ev].body);
    return this.send({ ev, ...rest }, body);
  }

  request<Op extends OpName>(op: Op, args: OpArgs<Op>, opts: { timeoutMs?: number } = {}): Promise<OpReply<Op>> {
    if (this.socket.destroyed)
      return Promise.reject(new YardError("PANE_HOST_UNAVAILABLE", "The pane host is not connected"));
    const id = this.nextId++;
    return new Promise<OpReply<Op>>((resolve, reject) => {
      const timeoutMs = opts.timeoutMs ?? 30_000;
      const timer =
        timeoutMs > 0
          ? setTimeout(() => {
              this.pending.delete(id);
              reject(
                new YardError("TIMEOUT", `The pane host did not answer ${op} within ${timeoutMs} ms`, {
                  op,
                  timeoutMs,
                }),
              );
            }, timeoutMs)
          : null;
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject, timer });
      try {
        const [msg, body] = splitBody(args, OPS[op].body);
        this.send({ id, op, ...msg }, body);
      } catch (e) {
        if (timer) clearTimeout(timer);
        this.pending.delete(id);
        reject(e as Error);
      }
    });
  }

  private settle(m: Msg): void {
    const p = this.pending.get(m.re as number);
    if (!p) return;
    this.pending.delete(m.re as number);
    if (p.timer) clearTimeout(p.timer);
    if (m.ok === true) p.resolve(m.result);
    else p.reject(fromWireError(m.error));
  }

  destroy(error?: Error): void {
    if (error) this.closedError ??= error;
    this.socket.destroy();
  }

  /** Closes after what was written has been flushed. */
  end(): void {
    this.socket.end();
  }
}

/** Connects to a Unix socket; rejects with the socket error (ENOENT, ECONNREFUSED) when nobody listens. */
export function connectSocket(file: string, timeoutMs = 5000): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const s = connect(file);
    const timer = setTimeout(() => {
      s.destroy();
      reject(new YardError("TIMEOUT", `connecting to ${file} timed out`));
    }, timeoutMs);
    s.once("connect", () => {
      clearTimeout(timer);
      s.removeAllListeners("error");
      resolve(s);
    });
    s.once("error", (e) => {
      clearTimeout(timer);
      reject(e);
    });
  });
}

/**
 * The host refused our `hello` because it speaks another version of the contract (its
 * `details.protocol`): it was started from other code than ours.
 */
export function isProtocolMismatch(e: unknown): e is YardError {
  return e instanceof YardError && e.code === "CONFLICT" && typeof e.details?.protocol !== "undefined";
}

/** A control connection (tests): hello as `control`, then requests. */
export async function connectControl(
  home: string,
  opts: { timeoutMs?: number } = {},
): Promise<{ conn: Conn; hello: HelloReply }> {
  const secret = loadHostSecret(home, false);
  const file = hostPaths(home).socket;
  checkPrivateDir(path.dirname(file));
  let socket: net.Socket;
  try {
    socket = await connectSocket(file, opts.timeoutMs);
  } catch (e) {
    throw new YardError("PANE_HOST_UNAVAILABLE", `No pane host is running for ${home} (${(e as Error).message})`, {
      home,
    });
  }
  const conn = new Conn(socket);
  try {
    const hello = await conn.request(
      "hello",
      { secret, role: "control", pid: process.pid, protocol: PROTOCOL },
      { timeoutMs: opts.timeoutMs ?? 5000 },
    );
    return { conn, hello };
  } catch (e) {
    conn.destroy();
    throw e;
  }
}
