// The pane host: the long-lived process that owns every PTY of one data dir, so agents keep
// running while the web server restarts. Owns the node-pty processes and everything that touches
// their raw bytes: reading (never waiting on a parser: mirrors live in worker threads, see
// mirror-pool.ts), backpressure (PtyFlow), the drain before exit (pty-drain.ts), the final
// screen at exit (saved by the worker), live output for attached viewers (atomic snapshot +
// subscription), throttled activity ticks for the server's no-hooks heuristic, the hook relay
// (hook-relay.ts), and the records no server has acknowledged yet (exits and relayed hooks, in
// order; written to host/pending.json if the host goes idle before a server takes them).
// The server keeps everything else (rows, tokens, lifecycle, hooks, tasks): see docs/pane-host.md.
import { closeSync, existsSync, openSync, readFileSync, rmSync, writeFileSync, writeSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import * as pty from "node-pty";
import { YardError } from "../core/errors";
import type { FlowStats } from "../core/panes/host-port";
import { holdExitUntilDrained } from "../core/panes/pty-drain";
import { PtyFlow } from "../core/panes/pty-flow";
import { incompleteUtf8Tail } from "../core/panes/utf8-tail";
import { hashSecret, parsePaneToken, safeEqual } from "../security/token";
import { paths } from "../config";
import { listenHookRelay, type RelayedHook } from "./hook-relay";
import { MirrorPool } from "./mirror-pool";
import {
  checkPrivateDir,
  Conn,
  ensurePrivateDir,
  listenPrivateSocket,
  type HelloReply,
  hostPaths,
  loadHostSecret,
  type Msg,
  processAlive,
  PROTOCOL,
  secretMatches,
  type HostPaneStatus,
} from "./protocol";

/** The PTY is paused while more than this many bytes are read but not parsed... */
export const BACKPRESSURE_HIGH = 1024 * 1024;
/** ...and resumed below this. High enough that a worker never runs dry between its progress reports. */
export const BACKPRESSURE_LOW = 256 * 1024;
/** Activity ticks (output happened) to the server: at most one per pane in this window, plus a trailing one. */
const ACTIVITY_MS = 100;
/** Output to the server stops (viewers are resynced later) while its socket holds more than this. */
const SERVER_BUFFER_MAX = 16 * 1024 * 1024;
/** Bytes a worker may have queued before the host holds further chunks back to send bigger ones. */
const WORKER_BATCH = 128 * 1024;
const MAX_QUEUED_HOOKS = 10_000;
const HELLO_MS = 5000;
/**
 * A host is started by a server that then connects to it: until a server first has, the host
 * waits this long (the server's own start deadline) before it may go idle, however short
 * YARD_HOST_IDLE_MS is. On a loaded machine the server can take longer than that to connect,
 * and it would find its new host gone.
 */
const FIRST_SERVER_MS = 30_000;

type Deliverable =
  | {
      seq: number;
      kind: "hook";
      paneId: string;
      token: string;
      event: string;
      payload: Record<string, unknown>;
      at: number;
    }
  | {
      seq: number;
      kind: "exit";
      paneId: string;
      exitCode: number | null;
      signal: number | null;
      at: number;
      screenError: string | null;
      stats: FlowStats;
    };

interface HostPane {
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
  postedBytes: number;
  parsedBytes: number;
  chunks: Buffer[];
  chunkBytes: number;
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

export interface HostOptions {
  home: string;
  /** Exit after this long with no running pane, no server and nothing undelivered (YARD_HOST_IDLE_MS). */
  idleMs?: number;
  /** Mirror worker threads (YARD_HOST_WORKERS). */
  workers?: number;
  log?: (line: string) => void;
  /** Called once the host has stopped (the process entry exits there). */
  onStopped?: () => void;
}

const now = () => performance.timeOrigin + performance.now();

export class PaneHost {
  private readonly panes = new Map<string, HostPane>();
  private deliverables: Deliverable[] = [];
  private seq = 0;
  private server: Conn | null = null;
  private serverPid = 0;
  private serverReady = false;
  /** Panes whose output was dropped while the server's socket was full: resynced when it drains. */
  private overflowed = new Set<string>();
  private readonly controls = new Set<Conn>();
  private serving: HelloReply["serving"] = null;
  private readonly secret: string;
  private readonly paths: ReturnType<typeof hostPaths>;
  private readonly pool: MirrorPool;
  private control: net.Server | null = null;
  private relay: net.Server | null = null;
  private readonly log: (line: string) => void;
  private flushQueued = false;
  private readonly toFlush = new Set<HostPane>();
  private idleSince: number | null = Date.now();
  /** A server has attached since this host started. */
  private served = false;
  private idleTimer: NodeJS.Timeout | null = null;
  private stopping: Promise<void> | null = null;
  private poolReady: Promise<void> = Promise.resolve();
  readonly startedAt = new Date().toISOString();

  constructor(private readonly opts: HostOptions) {
    this.paths = hostPaths(opts.home);
    this.log = opts.log ?? ((l) => console.log(`${new Date().toISOString()} ${l}`));
    this.secret = loadHostSecret(opts.home, true);
    this.pool = new MirrorPool(
      {
        size: opts.workers ?? Math.max(1, Math.min(4, os.availableParallelism() - 1)),
        screens: paths(opts.home).screens,
        log: this.log,
      },
      { parsed: (id, total) => this.onParsed(id, total), fault: (id, f) => this.onFault(id, f) },
    );
  }

  // ---- start and stop ------------------------------------------------------------------

  /** Takes the data dir's host lock, takes the mirror workers' code (workers start with the first panes), then listens. False: another host holds the lock. */
  async start(): Promise<boolean> {
    ensurePrivateDir(this.paths.dir);
    if (!this.lock()) return false;
    try {
      // Requests wait for this (it only reads the workers' code); the workers start with panes.
      this.poolReady = this.pool.start();
      this.poolReady.catch((e: Error) => this.log(`mirror workers failed to start: ${e.stack ?? e.message}`));
      this.loadPending();
      checkPrivateDir(path.dirname(this.paths.socket));
      rmSync(this.paths.socket, { force: true }); // we hold the lock: any socket here is stale
      this.control = net.createServer((s) => this.onConnection(s));
      await listenPrivateSocket(this.control, this.paths.socket);
      if (this.paths.relay) this.relay = await listenHookRelay(this.paths.relay, (h) => this.onRelayedHook(h));
      else this.log(`no hook relay: ${paths(this.opts.home).hookSocket} is longer than a socket path may be`);
    } catch (e) {
      this.control?.close();
      await this.pool.close().catch(() => {});
      this.unlock();
      throw e;
    }
    this.idleTimer = setInterval(() => this.checkIdle(), 250);
    this.idleTimer.unref();
    this.log(`pane host ${process.pid} listening on ${this.paths.socket} (protocol ${PROTOCOL})`);
    return true;
  }

  /** host.pid, created exclusively; a pidfile whose process is gone is stale and replaced once. */
  private lock(): boolean {
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        const fd = openSync(this.paths.pid, "wx", 0o600);
        writeSync(fd, `${process.pid}\n`);
        closeSync(fd);
        return true;
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
      }
      const pid = Number(readFileSync(this.paths.pid, "utf8").trim());
      if (pid > 0 && pid !== process.pid && processAlive(pid, "panehost")) return false;
      rmSync(this.paths.pid, { force: true });
    }
    return false;
  }

  private unlock(): void {
    try {
      if (Number(readFileSync(this.paths.pid, "utf8").trim()) === process.pid) rmSync(this.paths.pid, { force: true });
    } catch {
      /* gone already */
    }
  }

  private running(): HostPane[] {
    return [...this.panes.values()].filter((p) => p.state !== "exited");
  }

  private checkIdle(): void {
    const busy = this.running().length > 0 || this.server !== null || this.controls.size > 0;
    if (busy) {
      this.idleSince = null;
      return;
    }
    this.idleSince ??= Date.now();
    const idleMs = this.opts.idleMs ?? 5000;
    if (Date.now() - this.idleSince >= (this.served ? idleMs : Math.max(idleMs, FIRST_SERVER_MS)))
      void this.stop("idle");
  }

  /**
   * Stops the host: with `stopPanes` every pane is ended first (SIGTERM to its process group,
   * SIGKILL after the grace period) and its exit recorded; what no server acknowledged is kept in
   * host/pending.json for the next host.
   */
  stop(reason: string, opts: { stopPanes?: boolean; graceMs?: number } = {}): Promise<void> {
    this.stopping ??= (async () => {
      this.log(`stopping (${reason})`);
      if (opts.stopPanes) await this.stopAll(opts.graceMs ?? 1000);
      this.savePending();
      if (this.idleTimer) clearInterval(this.idleTimer);
      this.control?.close();
      this.relay?.close();
      rmSync(this.paths.socket, { force: true });
      if (this.paths.socket !== path.join(this.paths.dir, "host.sock"))
        rmSync(path.dirname(this.paths.socket), { recursive: true, force: true });
      if (this.paths.relay) rmSync(this.paths.relay, { force: true });
      for (const c of [...this.controls]) c.end();
      this.server?.end();
      await this.pool.close().catch(() => {});
      this.unlock();
      this.opts.onStopped?.();
    })();
    return this.stopping;
  }

  private async stopAll(graceMs: number): Promise<void> {
    const running = this.running();
    await Promise.all(running.map((p) => this.killPane(p, graceMs)));
  }

  private loadPending(): void {
    if (!existsSync(this.paths.pending)) return;
    try {
      const saved = JSON.parse(readFileSync(this.paths.pending, "utf8")) as {
        deliverables: Deliverable[];
        panes: Array<Pick<HostPane, "id" | "pid" | "cols" | "rows" | "meta">>;
      };
      for (const p of saved.panes ?? []) {
        const rec = this.exitedRecord(p);
        rec.markExited();
        this.panes.set(p.id, rec);
      }
      for (const d of saved.deliverables ?? []) this.deliverables.push({ ...d, seq: ++this.seq });
      this.log(`loaded ${this.deliverables.length} undelivered record(s) from ${this.paths.pending}`);
    } catch (e) {
      this.log(`ignoring unreadable ${this.paths.pending}: ${(e as Error).message}`);
    }
    rmSync(this.paths.pending, { force: true });
  }

  private savePending(): void {
    if (!this.deliverables.length) return;
    const ids = new Set(this.deliverables.map((d) => d.paneId));
    const panes = [...this.panes.values()]
      .filter((p) => ids.has(p.id) && p.state === "exited")
      .map((p) => ({ id: p.id, pid: p.pid, cols: p.cols, rows: p.rows, meta: p.meta }));
    writeFileSync(this.paths.pending, JSON.stringify({ deliverables: this.deliverables, panes }), { mode: 0o600 });
  }

  private exitedRecord(p: Pick<HostPane, "id" | "pid" | "cols" | "rows" | "meta">): HostPane {
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
      postedBytes: 0,
      parsedBytes: 0,
      chunks: [],
      chunkBytes: 0,
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

  // ---- connections ---------------------------------------------------------------------

  private onConnection(socket: net.Socket): void {
    const conn = new Conn(socket);
    let role: "server" | "control" | null = null;
    const helloTimer = setTimeout(() => role === null && conn.destroy(), HELLO_MS);
    conn.onClose(() => {
      clearTimeout(helloTimer);
      if (role === "control") this.controls.delete(conn);
      if (role === "server" && this.server === conn) this.serverGone();
    });
    conn.onMessage = (m) => {
      const id = m.id;
      if (typeof m.op !== "string") return conn.destroy();
      if (role === null) {
        if (m.op !== "hello" || !secretMatches(m.secret, this.secret)) {
          conn.replyError(id, new YardError("UNAUTHORIZED", "The pane host needs its secret"));
          conn.end();
          return;
        }
        if (m.protocol !== PROTOCOL) {
          conn.replyError(
            id,
            new YardError("CONFLICT", `This pane host speaks protocol ${PROTOCOL}, the client ${String(m.protocol)}`, {
              protocol: PROTOCOL,
            }),
          );
          conn.end();
          return;
        }
        const wanted = m.role === "server" ? "server" : "control";
        if (wanted === "server") {
          if (this.server && !this.server.closed && processAlive(this.serverPid) && this.serverPid !== m.pid) {
            conn.replyError(
              id,
              new YardError(
                "CONFLICT",
                `Another Switchyard server (pid ${this.serverPid}) is attached to this pane host`,
                { pid: this.serverPid },
              ),
            );
            conn.end();
            return;
          }
          if (this.server) {
            const old = this.server;
            this.serverGone();
            old.destroy();
          }
          this.server = conn;
          this.served = true;
          this.serverPid = typeof m.pid === "number" ? m.pid : 0;
          this.log(`server ${this.serverPid} attached`);
          socket.on("drain", () => this.onServerDrain());
        } else {
          this.controls.add(conn);
        }
        role = wanted;
        clearTimeout(helloTimer);
        return conn.reply(id, this.helloReply());
      }
      void this.handle(conn, role, m).then(
        (r) => {
          if (r === undefined) return;
          if (r && typeof r === "object" && "$body" in r) {
            const { $body, ...rest } = r as { $body: { field: string; data: string }; result: unknown };
            conn.reply(id, rest.result, $body);
          } else conn.reply(id, r);
        },
        (e) => conn.replyError(id, e),
      );
    };
  }

  private serverGone(): void {
    this.log(`server ${this.serverPid} detached`);
    this.server = null;
    this.serverReady = false;
    this.overflowed.clear();
    for (const p of this.panes.values()) {
      p.subscribed = false;
      if (p.activityTimer) clearTimeout(p.activityTimer);
      p.activityTimer = null;
    }
  }

  private helloReply(): HelloReply {
    return {
      hostPid: process.pid,
      protocol: PROTOCOL,
      startedAt: this.startedAt,
      serving: this.serving,
      panes: [...this.panes.values()].map((p) => this.status(p)),
    };
  }

  private status(p: HostPane): HostPaneStatus {
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

  private pane(id: unknown): HostPane {
    const p = typeof id === "string" ? this.panes.get(id) : undefined;
    if (!p) throw new YardError("NOT_FOUND", `The pane host has no pane ${String(id)}`, { paneId: id ?? null });
    return p;
  }

  private runningPane(id: unknown): HostPane {
    const p = this.pane(id);
    if (p.state !== "running")
      throw new YardError("PANE_EXITED", `Pane ${p.id} has exited`, { paneId: p.id, state: p.state });
    return p;
  }

  /** A pane whose mirror is still in its worker (running, or exiting before the final screen is saved). */
  private mirrored(id: unknown): HostPane {
    const p = this.pane(id);
    if (p.state === "exited")
      throw new YardError("PANE_EXITED", `Pane ${p.id} has exited; its final screen is saved`, {
        paneId: p.id,
        state: p.state,
      });
    this.flushPane(p);
    return p;
  }

  private async handle(conn: Conn, role: "server" | "control", m: Msg): Promise<unknown> {
    const op = m.op as string;
    await this.poolReady; // (every request, so they stay in arrival order)
    if (role === "control" && !["status", "list", "shutdown", "stats"].includes(op))
      throw new YardError("FORBIDDEN", `A control connection cannot ${op}`);
    switch (op) {
      case "status":
        return {
          hostPid: process.pid,
          startedAt: this.startedAt,
          serverPid: this.server ? this.serverPid : null,
          running: this.running().length,
          mirrors: await this.pool.mirrorCount(),
          undelivered: this.deliverables.length,
          hooksQueued: this.deliverables.filter((d) => d.kind === "hook").length,
          /** What waits for a server, oldest first. */
          queue: this.deliverables.map((d) => ({
            paneId: d.paneId,
            kind: d.kind,
            ...(d.kind === "hook" ? { event: d.event } : { exitCode: d.exitCode }),
          })),
          serving: this.serving,
        };
      case "list":
        return { panes: [...this.panes.values()].map((p) => this.status(p)) };
      case "serving":
        if (typeof m.url !== "string" || typeof m.port !== "number" || typeof m.host !== "string")
          throw new YardError("BAD_PARAMS", "serving needs url, host and port");
        this.serving = { url: m.url, host: m.host, port: m.port };
        return {};
      case "ready": {
        // From now on records go to this server as they happen; first, everything it missed.
        for (const d of this.deliverables) this.deliver(d);
        this.serverReady = true;
        return { delivered: this.deliverables.length };
      }
      case "ack": {
        const seq = m.seq;
        const i = this.deliverables.findIndex((d) => d.seq === seq);
        if (i >= 0) {
          const [d] = this.deliverables.splice(i, 1);
          if (d!.kind === "exit") this.panes.delete(d!.paneId);
        }
        return {};
      }
      case "spawn":
        return this.spawn(m);
      case "write": {
        const p = this.runningPane(m.paneId);
        if (typeof m.data !== "string") throw new YardError("BAD_PARAMS", "write needs data");
        p.proc!.write(m.data);
        return {};
      }
      case "resize": {
        const p = this.runningPane(m.paneId);
        const cols = m.cols as number;
        const rows = m.rows as number;
        if (
          !Number.isInteger(cols) ||
          !Number.isInteger(rows) ||
          cols < 2 ||
          rows < 1 ||
          cols > 10_000 ||
          rows > 10_000
        )
          throw new YardError("BAD_PARAMS", "bad size");
        this.flushPane(p); // the output read so far is parsed at the old size, as a terminal would
        p.proc!.resize(cols, rows);
        this.pool.resize(p.id, cols, rows);
        p.cols = cols;
        p.rows = rows;
        return {};
      }
      case "kill": {
        const p = this.pane(m.paneId);
        if (p.state === "running") void this.killPane(p, typeof m.graceMs === "number" ? m.graceMs : 2000);
        return {};
      }
      case "read": {
        const p = this.mirrored(m.paneId);
        const r = await this.pool.request<{ text: string; cursor: number; start: number; dropped: unknown }>(
          p.id,
          "read",
          { mode: m.mode, lines: m.lines, cursor: m.cursor, reader: m.reader },
        );
        const { text, ...rest } = r;
        return { $body: { field: "text", data: text }, result: rest };
      }
      case "snapshot": {
        const p = this.mirrored(m.paneId);
        const s = await this.pool.request<{ data: string; cols: number; rows: number }>(p.id, "snapshot");
        return { $body: { field: "data", data: s.data }, result: { cols: s.cols, rows: s.rows } };
      }
      case "attach":
        return this.attach(m.paneId);
      case "detach": {
        const p = this.panes.get(m.paneId as string);
        if (p) p.subscribed = false;
        return {};
      }
      case "modes": {
        const p = this.mirrored(m.paneId);
        return this.pool.request(p.id, "modes");
      }
      case "configure": {
        const p = this.pane(m.paneId);
        if (typeof m.activity === "boolean") p.activity = m.activity;
        return {};
      }
      case "stats": {
        const p = this.pane(m.paneId);
        if (typeof m.untilParsed === "number" && p.parsedBytes < m.untilParsed && p.state !== "exited") {
          const target = m.untilParsed;
          await new Promise<void>((resolve, reject) => {
            const timer = setTimeout(
              () => reject(new YardError("TIMEOUT", `pane ${p.id} parsed ${p.parsedBytes} of ${target} bytes`)),
              typeof m.timeoutMs === "number" ? m.timeoutMs : 30_000,
            );
            p.parsedWaiters.push({ bytes: target, resolve: () => (clearTimeout(timer), resolve()) });
          });
        }
        return this.flowStats(p);
      }
      case "shutdown":
        // Answer first; the stop (and the process exit) follow.
        setImmediate(
          () =>
            void this.stop(`shutdown requested by ${role}`, {
              stopPanes: m.stopPanes !== false,
              graceMs: typeof m.graceMs === "number" ? m.graceMs : 1000,
            }),
        );
        return { stopping: this.running().length };
      case "bye":
        if (role === "server" && this.server === conn) this.serverGone();
        setImmediate(() => conn.end()); // after the reply
        return {};
      default:
        throw new YardError("BAD_PARAMS", `unknown pane host request ${op}`);
    }
  }

  // ---- panes ---------------------------------------------------------------------------

  private spawn(m: Msg): { pid: number } {
    if (this.stopping) throw new YardError("CONFLICT", "The pane host is stopping");
    const id = m.paneId;
    if (typeof id !== "string" || !/^pane[a-z0-9]{4,40}$/.test(id)) throw new YardError("BAD_PARAMS", "bad pane id");
    if (this.panes.has(id)) throw new YardError("CONFLICT", `The pane host already has pane ${id}`);
    const argv = m.argv;
    if (!Array.isArray(argv) || argv.length === 0 || !argv.every((a) => typeof a === "string"))
      throw new YardError("BAD_PARAMS", "argv must be a non-empty array of strings");
    const env = m.env as Record<string, string>;
    if (!env || typeof env !== "object" || !Object.values(env).every((v) => typeof v === "string"))
      throw new YardError("BAD_PARAMS", "env must map names to strings");
    const cols = m.cols as number;
    const rows = m.rows as number;
    const scrollback = m.scrollback as number;
    if (![cols, rows, scrollback].every((n) => Number.isInteger(n) && n > 0))
      throw new YardError("BAD_PARAMS", "cols, rows and scrollback must be positive whole numbers");
    const bp = (m.backpressure ?? {}) as { highBytes?: number; lowBytes?: number };
    const high = bp.highBytes ?? BACKPRESSURE_HIGH;
    const low = bp.lowBytes ?? BACKPRESSURE_LOW;
    if (!(low >= 0 && high > low)) throw new YardError("BAD_PARAMS", "backpressure needs 0 <= lowBytes < highBytes");
    let proc: pty.IPty;
    try {
      // Raw bytes: the mirror decodes UTF-8 itself.
      proc = pty.spawn(argv[0] as string, (argv as string[]).slice(1), {
        name: "xterm-256color",
        cols,
        rows,
        cwd: m.cwd as string,
        env,
        encoding: null,
      });
    } catch (e) {
      throw new YardError("BAD_PARAMS", `Could not start ${String(argv[0])}: ${(e as Error).message}`, { argv });
    }
    const p: HostPane = {
      ...this.exitedRecord({ id, pid: proc.pid, cols, rows, meta: (m.meta as Record<string, unknown>) ?? {} }),
      proc,
      state: "running",
      flow: new PtyFlow(proc),
      high,
      low,
      activity: m.activity === true,
      tokenHash: typeof m.tokenHash === "string" ? m.tokenHash : "",
    };
    this.panes.set(id, p);
    this.pool.create(id, { cols, rows, scrollback });
    // Exit is reported only once the PTY's output has been read to the end (see pty-drain.ts).
    holdExitUntilDrained(proc);
    proc.onData((chunk: string | Buffer) => this.onData(p, typeof chunk === "string" ? Buffer.from(chunk) : chunk));
    proc.onExit(({ exitCode, signal }) => void this.onExit(p, exitCode, signal ?? null));
    this.log(`spawned ${id} pid ${proc.pid}: ${(argv as string[]).join(" ").slice(0, 200)}`);
    return { pid: proc.pid };
  }

  /** One read from the PTY: towards the mirror (batched), to a subscribed server, and an activity tick. */
  private onData(p: HostPane, chunk: Buffer): void {
    const offset = p.readBytes;
    p.readBytes += chunk.length;
    p.firstReadAt ??= now();
    p.chunks.push(chunk);
    p.chunkBytes += chunk.length;
    this.flushSoon(p);
    const pending = p.readBytes - p.parsedBytes;
    if (pending > p.maxPendingBytes) p.maxPendingBytes = pending;
    if (pending > p.high && !p.backpressure && p.state === "running") {
      p.backpressure = p.flow!.hold();
      p.backpressurePauses++;
    }
    if (p.subscribed && this.server) {
      if (this.server.socket.writableLength > SERVER_BUFFER_MAX) this.overflowed.add(p.id);
      else if (!this.overflowed.has(p.id))
        this.server.send({ ev: "output", paneId: p.id, offset }, { field: "data", data: chunk });
    }
    p.tail = incompleteUtf8Tail(chunk);
    p.lastOutputAt = Date.now();
    if (p.activity && this.serverReady && !p.activityTimer) {
      const wait = p.lastActivitySent + ACTIVITY_MS - p.lastOutputAt;
      if (wait <= 0) this.sendActivity(p);
      else {
        p.activityTimer = setTimeout(() => {
          p.activityTimer = null;
          this.sendActivity(p);
        }, wait);
      }
    }
  }

  private sendActivity(p: HostPane): void {
    p.lastActivitySent = Date.now();
    this.server?.send({ ev: "activity", paneId: p.id, at: p.lastOutputAt });
  }

  private onServerDrain(): void {
    if (!this.server || this.server.socket.writableLength > SERVER_BUFFER_MAX / 2) return;
    for (const id of this.overflowed) this.server.send({ ev: "resync", paneId: id });
    this.overflowed.clear();
  }

  private flushSoon(p: HostPane): void {
    this.toFlush.add(p);
    if (this.flushQueued) return;
    this.flushQueued = true;
    setImmediate(() => {
      this.flushQueued = false;
      for (const q of this.toFlush) {
        // While the worker still has a good backlog, let chunks pile up: fewer, bigger messages.
        if (q.postedBytes - q.parsedBytes > WORKER_BATCH && q.chunkBytes < 64 * 1024) continue;
        this.flushPane(q);
      }
    });
  }

  /** Sends every byte read so far to the pane's worker (before any request that must see it). */
  private flushPane(p: HostPane): void {
    this.toFlush.delete(p);
    if (p.chunkBytes === 0) return;
    const ab = new ArrayBuffer(p.chunkBytes);
    const u = new Uint8Array(ab);
    let off = 0;
    for (const c of p.chunks) {
      u.set(c, off);
      off += c.length;
    }
    p.postedBytes += p.chunkBytes;
    p.chunks = [];
    p.chunkBytes = 0;
    this.pool.write(p.id, ab);
  }

  private onParsed(id: string, total: number): void {
    const p = this.panes.get(id);
    if (!p) return;
    p.parsedBytes = total;
    p.lastParsedAt = now();
    if (p.backpressure && p.readBytes - p.parsedBytes < p.low) {
      const release = p.backpressure;
      p.backpressure = null;
      release();
    }
    if (p.chunkBytes > 0) this.flushSoon(p);
    if (p.parsedWaiters.length) {
      const due = p.parsedWaiters.filter((w) => w.bytes <= total);
      p.parsedWaiters = p.parsedWaiters.filter((w) => w.bytes > total);
      for (const w of due) w.resolve();
    }
  }

  private onFault(id: string, f: { message: string; name: string; count: number }): void {
    const p = this.panes.get(id);
    if (!p) return;
    p.faults = f.count;
    this.server?.send({ ev: "fault", paneId: id, message: f.message, name: f.name, count: f.count });
  }

  private flowStats(p: HostPane): FlowStats {
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

  /**
   * A consistent start for a viewer: the snapshot holds exactly the bytes read before `offset`,
   * and from this moment the pane's output goes to the server tagged with its offset (so the
   * server passes a viewer only output at or after it). `tail`: bytes of a character the last
   * read cut, to prime the viewer's decoder.
   */
  private async attach(paneId: unknown): Promise<unknown> {
    const p = this.mirrored(paneId);
    const offset = p.readBytes;
    const tail = p.tail ? [...p.tail] : [];
    p.subscribed = true;
    this.overflowed.delete(p.id);
    const s = await this.pool.request<{ data: string; cols: number; rows: number }>(p.id, "snapshot");
    return { $body: { field: "data", data: s.data }, result: { cols: s.cols, rows: s.rows, offset, tail } };
  }

  /** Ends the pane's whole process group: SIGTERM, then SIGKILL after the grace period; resolves at exit. */
  private killPane(p: HostPane, graceMs: number): Promise<void> {
    if (p.state !== "running" || !p.proc) return p.exited;
    signalGroup(p.pid, "SIGTERM");
    try {
      p.proc.kill("SIGHUP");
    } catch {
      /* gone */
    }
    p.killTimer ??= setTimeout(() => signalGroup(p.pid, "SIGKILL"), graceMs);
    return p.exited;
  }

  /** The process exited and its output was read to the end: parse it all, save the final screen, record the exit. */
  private async onExit(p: HostPane, exitCode: number, signal: number | null): Promise<void> {
    p.state = "exiting";
    if (p.killTimer) clearTimeout(p.killTimer);
    if (p.activityTimer) clearTimeout(p.activityTimer);
    p.activityTimer = null;
    p.backpressure?.();
    p.backpressure = null;
    this.flushPane(p);
    let screenError: string | null = null;
    try {
      const r = await this.pool.request<{ error: string | null; faults: number }>(p.id, "finalize");
      screenError = r.error;
      p.faults = Math.max(p.faults, r.faults);
    } catch (e) {
      screenError = (e as Error).message;
    }
    this.pool.forget(p.id);
    const stats = this.flowStats(p);
    p.state = "exited";
    p.proc = null;
    p.flow = null;
    p.subscribed = false;
    for (const w of p.parsedWaiters) w.resolve();
    p.parsedWaiters = [];
    p.markExited();
    this.log(`${p.id} exited (code ${exitCode}, signal ${signal ?? 0})`);
    const d: Deliverable = {
      seq: ++this.seq,
      kind: "exit",
      paneId: p.id,
      exitCode,
      signal: signal || null,
      at: Date.now(),
      screenError,
      stats,
    };
    this.deliverables.push(d);
    if (this.serverReady) this.deliver(d);
  }

  private onRelayedHook(h: RelayedHook): void {
    const p = this.panes.get(h.paneId);
    const parsed = parsePaneToken(h.token);
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
    if (this.deliverables.length >= MAX_QUEUED_HOOKS)
      throw new YardError("RATE_LIMITED", "The pane host's hook queue is full");
    const d: Deliverable = {
      seq: ++this.seq,
      kind: "hook",
      paneId: h.paneId,
      token: h.token,
      event: h.event,
      payload: h.payload,
      at: Date.now(),
    };
    this.deliverables.push(d);
    if (this.serverReady) this.deliver(d);
  }

  private deliver(d: Deliverable): void {
    this.server?.send({ ev: d.kind, ...d });
  }
}

function signalGroup(pid: number, signal: NodeJS.Signals) {
  try {
    process.kill(-pid, signal);
  } catch {
    try {
      process.kill(pid, signal);
    } catch {
      /* already gone */
    }
  }
}
