// The pane host's wire protocol and where its files live. Owns: the paths under the data dir
// (host/ for the control socket, pidfile, secret, log and undelivered records; run/hook.sock for
// the hook relay), the shared secret, length-prefixed frames with an optional binary body, and
// `Conn`, one framed connection with request ids and typed (YardError) replies. Only Node
// built-ins: the `yard` CLI bundles this file to talk to a host directly (`yard stop --all`).
//
// Frame: u32 BE length of the rest | u32 BE header length | header (UTF-8 JSON) | body bytes.
// A header with `$b: field` carries that field in the body instead of the JSON (`$t: "s"` a
// UTF-8 string, `"b"` raw bytes): terminal output and snapshots are not JSON-escaped.
// Requests: {id, op, ...args}; replies {re: id, ok: true, result} | {re: id, ok: false, error};
// events from the host: {ev, ...}. The first request on a connection must be `hello` with the
// secret, or the host closes it.
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { chmodSync, lstatSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { paths, socketPathFits } from "../config";
import { type ErrorCode, isErrorCode, YardError } from "../core/errors";
import type { HelloReply } from "../core/panes/host-port";

export type { HelloReply, HostPaneStatus } from "../core/panes/host-port";

export const PROTOCOL = 1;
/** The largest frame either side accepts (a snapshot of 100,000 coloured lines fits). */
export const MAX_FRAME = 64 * 1024 * 1024;
const MAX_HEADER = 4 * 1024 * 1024;

export function hostPaths(home: string) {
  const dir = path.join(home, "host");
  const socket = path.join(dir, "host.sock");
  const relay = paths(home).hookSocket;
  return {
    dir,
    /**
     * The control socket. A data dir whose path is too long for a socket address gets it in a
     * private directory of its own under the temp dir instead (checked before every use).
     */
    socket: socketPathFits(socket)
      ? socket
      : path.join(
          os.tmpdir(),
          `yard-host-${process.getuid?.() ?? 0}-${createHash("sha256").update(path.resolve(home)).digest("hex").slice(0, 16)}`,
          "host.sock",
        ),
    pid: path.join(dir, "host.pid"),
    secret: path.join(dir, "secret"),
    log: path.join(dir, "host.log"),
    /** Exits and hooks no server acknowledged before the host went idle: the next host delivers them. */
    pending: path.join(dir, "pending.json"),
    /** The hook relay: `yard hook` posts here when the server is unreachable (mounted into sandboxes with run/); null when its path is too long. */
    relay: socketPathFits(relay) ? relay : null,
  };
}

/**
 * Makes sure `dir` is a directory of this user's that nobody else can enter (creating it 0700):
 * the control socket's directory, before the host listens there or a client sends it the secret.
 */
export function checkPrivateDir(dir: string): void {
  ensurePrivateDir(dir);
  const st = lstatSync(dir);
  const uid = process.getuid?.();
  if (!st.isDirectory() || (uid !== undefined && st.uid !== uid) || (st.mode & 0o077) !== 0) {
    throw new YardError("PANE_HOST_UNAVAILABLE", `${dir} is not a private directory of this user; remove it`, { dir });
  }
}

/** The host's secret (created 0600 on first use): only the server, the host and the user's CLI read it. */
export function loadHostSecret(home: string, create: boolean): string {
  const p = hostPaths(home);
  try {
    const s = readFileSync(p.secret, "utf8").trim();
    if (/^[A-Za-z0-9_-]{32,}$/.test(s)) return s;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "ENOENT" || !create)
      throw new YardError("PANE_HOST_UNAVAILABLE", `No pane host secret in ${p.dir}`, { home });
  }
  if (!create) throw new YardError("PANE_HOST_UNAVAILABLE", `The pane host secret in ${p.dir} is malformed`, { home });
  ensurePrivateDir(p.dir);
  const secret = randomBytes(32).toString("base64url");
  writeFileSync(p.secret, secret + "\n", { mode: 0o600 });
  chmodSync(p.secret, 0o600);
  return secret;
}

export function ensurePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
}

/** Starts `server` listening on the Unix socket `file` and makes the socket owner-only (0600). */
export async function listenPrivateSocket(server: net.Server, file: string): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(file, () => {
      server.off("error", reject);
      resolve();
    });
  });
  chmodSync(file, 0o600);
}

export function secretMatches(given: unknown, secret: string): boolean {
  if (typeof given !== "string") return false;
  const a = createHash("sha256").update(given).digest();
  const b = createHash("sha256").update(secret).digest();
  return timingSafeEqual(a, b);
}

/**
 * Whether process `pid` is running: it exists and is not a zombie (a killed host whose parent
 * died may stay a zombie when nothing reaps it). With `cmdline`, its command line must contain
 * that too (a pidfile's pid may have been reused by another program).
 */
export function processAlive(pid: number, cmdline?: string): boolean {
  try {
    process.kill(pid, 0);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "EPERM") return false;
  }
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return true; // no /proc: trust kill(0)
  }
  if (stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) === "Z") return false;
  if (cmdline === undefined) return true;
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").includes(cmdline);
  } catch {
    return false;
  }
}

// ---- frames ------------------------------------------------------------------------------

export type Msg = Record<string, unknown>;
export interface Body {
  field: string;
  data: string | Uint8Array;
}

export function encodeFrame(msg: Msg, body?: Body): Buffer {
  const bodyBuf =
    body === undefined ? null : typeof body.data === "string" ? Buffer.from(body.data, "utf8") : body.data;
  const header = Buffer.from(
    JSON.stringify(body ? { ...msg, $b: body.field, $t: typeof body.data === "string" ? "s" : "b" } : msg),
    "utf8",
  );
  const bodyLen = bodyBuf?.length ?? 0;
  const total = 4 + header.length + bodyLen;
  if (total > MAX_FRAME)
    throw new YardError(
      "PAYLOAD_TOO_LARGE",
      `A pane host frame of ${total} bytes is over the ${MAX_FRAME} byte limit`,
      { bytes: total },
    );
  const out = Buffer.allocUnsafe(8 + header.length + bodyLen);
  out.writeUInt32BE(total, 0);
  out.writeUInt32BE(header.length, 4);
  header.copy(out, 8);
  if (bodyBuf) out.set(bodyBuf, 8 + header.length);
  return out;
}

/** Splits a byte stream into messages; throws (the caller closes the connection) on a bad frame. */
export class FrameReader {
  private chunks: Buffer[] = [];
  private buffered = 0;
  private need = -1;

  push(chunk: Buffer): Msg[] {
    this.chunks.push(chunk);
    this.buffered += chunk.length;
    const out: Msg[] = [];
    for (;;) {
      if (this.need < 0) {
        if (this.buffered < 4) break;
        const head = this.take(4);
        const n = head.readUInt32BE(0);
        if (n < 4 || n > MAX_FRAME) throw new YardError("PAYLOAD_TOO_LARGE", `bad pane host frame length ${n}`);
        this.need = n;
      }
      if (this.buffered < this.need) break;
      const frame = this.take(this.need);
      this.need = -1;
      out.push(decodeFrame(frame));
    }
    return out;
  }

  private take(n: number): Buffer {
    let buf: Buffer;
    if (this.chunks[0]!.length >= n) {
      const first = this.chunks[0]!;
      buf = first.subarray(0, n);
      if (first.length === n) this.chunks.shift();
      else this.chunks[0] = first.subarray(n);
    } else {
      buf = Buffer.allocUnsafe(n);
      let off = 0;
      while (off < n) {
        const c = this.chunks[0]!;
        const k = Math.min(c.length, n - off);
        c.copy(buf, off, 0, k);
        off += k;
        if (k === c.length) this.chunks.shift();
        else this.chunks[0] = c.subarray(k);
      }
    }
    this.buffered -= n;
    return buf;
  }
}

function decodeFrame(frame: Buffer): Msg {
  const hlen = frame.readUInt32BE(0);
  if (hlen > MAX_HEADER || 4 + hlen > frame.length) throw new YardError("BAD_PARAMS", "bad pane host frame header");
  const msg = JSON.parse(frame.toString("utf8", 4, 4 + hlen)) as unknown;
  if (!msg || typeof msg !== "object" || Array.isArray(msg))
    throw new YardError("BAD_PARAMS", "a pane host frame must hold an object");
  const m = msg as Msg;
  const field = m.$b;
  if (typeof field === "string") {
    const body = frame.subarray(4 + hlen);
    const value = m.$t === "s" ? body.toString("utf8") : Buffer.from(body); // a copy: the frame's buffer may be reused
    delete m.$b;
    delete m.$t;
    // "result.text": a field of the reply's result.
    const dot = field.indexOf(".");
    const target = dot < 0 ? m : (m[field.slice(0, dot)] as Msg | undefined);
    if (!target || typeof target !== "object") throw new YardError("BAD_PARAMS", "bad pane host frame body field");
    target[dot < 0 ? field : field.slice(dot + 1)] = value;
  }
  return m;
}

// ---- errors ------------------------------------------------------------------------------

export interface WireError {
  code: ErrorCode;
  message: string;
  details: Record<string, unknown> | null;
}

export function toWireError(e: unknown): WireError {
  if (e instanceof YardError) return e.toJSON();
  return { code: "INTERNAL", message: (e as Error)?.message ?? String(e), details: null };
}

export function fromWireError(w: unknown): YardError {
  const e = (w ?? {}) as Partial<WireError>;
  return new YardError(
    isErrorCode(e.code) ? e.code : "INTERNAL",
    typeof e.message === "string" ? e.message : "pane host error",
    e.details ?? undefined,
  );
}

// ---- one connection ----------------------------------------------------------------------

interface Pending {
  resolve: (v: unknown) => void;
  reject: (e: Error) => void;
  timer: NodeJS.Timeout | null;
}

/**
 * A framed connection. Both ends use it: `request()` sends {id, op} and resolves with the reply's
 * result (or rejects with its YardError); `onMessage` gets every frame that is not a reply.
 */
export class Conn {
  private readonly reader = new FrameReader();
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private closedError: Error | null = null;
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
    socket.on("error", (e) => (this.closedError ??= e));
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

  /** A reply; `body` becomes a field of `result` (which must then be an object). */
  reply(id: unknown, result: unknown, body?: Body): void {
    this.send({ re: id, ok: true, result }, body && { field: `result.${body.field}`, data: body.data });
  }

  replyError(id: unknown, e: unknown): void {
    this.send({ re: id, ok: false, error: toWireError(e) });
  }

  request<T = unknown>(op: string, args: Msg = {}, opts: { body?: Body; timeoutMs?: number } = {}): Promise<T> {
    if (this.socket.destroyed)
      return Promise.reject(new YardError("PANE_HOST_UNAVAILABLE", "The pane host is not connected"));
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
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
        this.send({ id, op, ...args }, opts.body);
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
    const s = net.connect(file);
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

/** A control connection for the CLI and tests: hello as `control`, then requests. */
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
    const hello = await conn.request<HelloReply>(
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
