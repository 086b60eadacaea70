// The pane host's wire format and where its files live. Owns: the paths under the data dir
// (host/ for the control socket, pidfile, secret, log and undelivered records; run/hook.sock for
// the hook relay), the shared secret, length-prefixed frames with an optional binary body, and
// errors on the wire (YardError). What travels in the frames is the contract in ops.ts; one
// connection speaking it is `Conn` (connection.ts). Only Node built-ins: the `yard` CLI and the
// mirror workers load this file.
//
// Frame: u32 BE length of the rest | u32 BE header length | header (UTF-8 JSON) | body bytes.
// A header with `$b: field` carries that field in the body instead of the JSON (`$t: "s"` a
// UTF-8 string, `"b"` raw bytes): terminal output and snapshots are not JSON-escaped.
// Requests: {id, op, ...args}; replies {re: id, ok: true, result} | {re: id, ok: false, error};
// events from the host: {ev, ...}. The first request on a connection must be `hello` with the
// secret, or the host closes it.
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { chmodSync, lstatSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import type net from "node:net";
import os from "node:os";
import path from "node:path";
import { paths, socketPathFits } from "../config";
import { type ErrorCode, isErrorCode, YardError } from "../core/errors";
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
  writeFileSync(p.secret, `${secret}\n`, { mode: 0o600 });
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
