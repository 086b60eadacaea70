// The server's end of the pane host: finds the data dir's host or starts one (detached, so it
// outlives this process), authenticates, sends requests, and dispatches the host's events —
// output and activity at once, hooks and exits one at a time in arrival order, each
// acknowledged only after the server has handled it (so nothing is lost if the server dies
// mid-way). When the connection drops it reconnects to the same host if it is still there;
// when the host itself is gone it says so (`lost`) and starts a new one on the next request.
import { spawn } from "node:child_process";
import { closeSync, openSync, statSync, truncateSync } from "node:fs";
import path from "node:path";
import { YardError } from "../core/errors";
import type { PaneHostEvents, PaneHostPort } from "../core/panes/host-port";
import { Conn, connectSocket, isProtocolMismatch } from "./connection";
import { type HelloReply, type HostEvent, isHostEvent, type OpArgs, type OpName, type OpReply, PROTOCOL } from "./ops";
import { checkPrivateDir, ensurePrivateDir, hostPaths, loadHostSecret, processAlive } from "./protocol";
import { REPO_ROOT } from "../root";

/**
 * The host's entry: its bundle (built with the server's, scripts/build-server.mjs) when this
 * code runs from the server bundle, else the TypeScript source through tsx (npm run dev, tests
 * of modules).
 */
const BUNDLED = import.meta.url.endsWith(".mjs");
const HOST_ARGV = BUNDLED
  ? [path.join(REPO_ROOT, "server/dist/panehost.mjs")]
  : ["--import", "tsx", path.join(REPO_ROOT, "server/panehost/main.ts")];
const START_MS = 30_000;
const LOG_MAX = 10 * 1024 * 1024;

/**
 * How to reach a pane host: where it listens and the secret to say hello with, how to start one,
 * and whether its process still lives. The default is the data dir's own host on this machine
 * (localAccess); a runner's host is reached over SSH (server/core/runners/remote-host.ts).
 */
export interface HostAccess {
  endpoint(): Promise<{ socket: string; secret: string }>;
  start(): Promise<void>;
  alive(pid: number): Promise<boolean>;
  /**
   * Drops the way to the host (a forward whose far end may be gone), so the next endpoint() opens
   * a new one; hosts reached directly have nothing to drop.
   */
  reset?(): void;
  /** Where its log is, for errors. */
  log: string;
}

/** The data dir's own pane host: its socket and secret files, a detached process started here. */
function localAccess(opts: PaneHostClientOptions): HostAccess {
  const p = hostPaths(opts.home);
  return {
    log: p.log,
    async endpoint() {
      const secret = loadHostSecret(opts.home, true);
      checkPrivateDir(path.dirname(p.socket)); // the secret goes only to a socket in a directory of ours
      return { socket: p.socket, secret };
    },
    async start() {
      ensurePrivateDir(p.dir);
      try {
        if (statSync(p.log).size > LOG_MAX) truncateSync(p.log, 0);
      } catch {
        /* no log yet */
      }
      const fd = openSync(p.log, "a", 0o600);
      try {
        const child = spawn(process.execPath, [...(opts.entry ? [opts.entry] : HOST_ARGV), "--home", opts.home], {
          cwd: REPO_ROOT,
          detached: true,
          stdio: ["ignore", fd, fd],
          env: process.env,
        });
        child.unref(); // its own start is in host/host.log
      } finally {
        closeSync(fd);
      }
    },
    alive: async (pid) => processAlive(pid, "panehost"),
  };
}

export interface PaneHostClientOptions {
  home: string;
  /** How to reach the host (default: the data dir's own, on this machine). */
  access?: HostAccess;
  log?: (line: string) => void;
  /**
   * The host's entry, run with plain node, for a client running from source: tests of modules
   * pass the host's bundle (a start through tsx costs about twice the CPU). Default: see HOST_ARGV.
   */
  entry?: string;
  /**
   * How long a host that cannot be asked whether it lives (a runner out of reach) is waited for
   * before its panes are given up as lost (default: for ever; a local host always answers).
   */
  unreachableGraceMs?: number;
}

export class PaneHostClient implements PaneHostPort {
  private conn: Conn | null = null;
  private connecting: Promise<Conn> | null = null;
  private chain: Promise<unknown> = Promise.resolve();
  private closing = false;
  private servingInfo: { url: string; host: string; port: number } | null = null;
  private readyOnce = false;
  events: PaneHostEvents = {};
  hello!: HelloReply;
  private readonly log: (line: string) => void;
  private readonly access: HostAccess;
  private readonly graceMs: number;

  private constructor(opts: PaneHostClientOptions) {
    this.log = opts.log ?? ((l) => console.log(l));
    this.access = opts.access ?? localAccess(opts);
    this.graceMs = opts.unreachableGraceMs ?? Number.POSITIVE_INFINITY;
  }

  /** Connects to the data dir's pane host, starting one when none is running. */
  static async open(opts: PaneHostClientOptions): Promise<PaneHostClient> {
    const c = new PaneHostClient(opts);
    await c.ensure();
    return c;
  }

  get hostPid(): number {
    return this.hello.hostPid;
  }

  private ensure(): Promise<Conn> {
    if (this.conn && !this.conn.closed) return Promise.resolve(this.conn);
    if (this.closing) return Promise.reject(new YardError("PANE_HOST_UNAVAILABLE", "The server is shutting down"));
    this.connecting ??= this.connect(true).finally(() => (this.connecting = null));
    return this.connecting;
  }

  private async connect(start: boolean): Promise<Conn> {
    const deadline = Date.now() + START_MS;
    let started = false;
    for (let attempt = 0; ; attempt++) {
      let conn: Conn;
      let secret: string;
      let socket = "";
      try {
        ({ socket, secret } = await this.access.endpoint());
        conn = new Conn(await connectSocket(socket));
      } catch (e) {
        if (/private directory/.test((e as Error).message)) throw e;
        if (!start)
          throw new YardError("PANE_HOST_UNAVAILABLE", `No pane host is listening${socket ? ` on ${socket}` : ""}`, {
            cause: (e as Error).message,
          });
        if (!started) {
          await this.access.start();
          started = true;
        }
        if (Date.now() > deadline)
          throw new YardError(
            "PANE_HOST_UNAVAILABLE",
            `The pane host did not start within ${START_MS / 1000} s (see ${this.access.log})`,
            { log: this.access.log },
          );
        await new Promise((r) => setTimeout(r, Math.min(200, 20 * (attempt + 1))));
        continue;
      }
      let hello: HelloReply;
      try {
        hello = await conn.request(
          "hello",
          { secret, role: "server", pid: process.pid, protocol: PROTOCOL },
          { timeoutMs: 10_000 },
        );
      } catch (e) {
        conn.destroy();
        // The host was stopping (idle) as we connected: start another one.
        if ((e as YardError).code === "PANE_HOST_UNAVAILABLE" && start && Date.now() < deadline) continue;
        if (isProtocolMismatch(e)) throw otherProtocol(e.details?.hostPid, e.details?.protocol);
        // A forward whose far end is gone (the host there died): a new forward, and the host started again.
        if (this.access.reset && start && Date.now() < deadline) {
          this.access.reset();
          await new Promise((r) => setTimeout(r, 100));
          continue;
        }
        throw e;
      }
      if (hello.protocol !== PROTOCOL) {
        conn.destroy();
        throw otherProtocol(hello.hostPid, hello.protocol);
      }
      this.hello = hello;
      this.conn = conn;
      conn.onMessage = (m) => {
        if (isHostEvent(m)) this.onEvent(m);
      };
      conn.onClose(() => this.onClose(conn));
      // Connected again (a new host after the old one died, or the same one): say where we serve
      // and take what it kept meanwhile.
      if (this.servingInfo) await conn.request("serving", this.servingInfo);
      if (this.readyOnce) await conn.request("ready", {});
      return conn;
    }
  }

  private onClose(conn: Conn): void {
    if (this.conn !== conn || this.closing) return;
    this.conn = null;
    this.access.reset?.();
    const oldPid = this.hello.hostPid;
    const reconnect = (alive: boolean) => {
      if (!alive) {
        this.log(`switchyard: the pane host (pid ${oldPid}) died; its panes are gone`);
        this.events.lost?.("pane_host_died");
        return; // the next request starts a new host
      }
      // The connection broke but the host lives: reconnect and compare what it holds.
      this.connecting ??= this.connect(false).finally(() => (this.connecting = null));
      this.connecting.then(
        () =>
          this.hello.hostPid === oldPid
            ? this.events.reattached?.(this.hello.panes)
            : this.events.lost?.("pane_host_died"),
        () => this.events.lost?.("pane_host_died"),
      );
    };
    // Whether the host lives is asked again with backoff while it cannot be asked (a runner out of
    // reach: its agents keep running there) for the grace period; a host that cannot be trusted, or
    // is out of reach for longer, is given up.
    const since = Date.now();
    const ask = (delayMs: number) => {
      if (this.closing || this.conn) return;
      this.access.alive(oldPid).then(reconnect, (e: unknown) => {
        if (!(e instanceof YardError && e.retryable)) {
          this.log(`switchyard: cannot reach the pane host (pid ${oldPid}): ${(e as Error).message}`);
          return reconnect(false);
        }
        if (Date.now() - since >= this.graceMs) {
          this.log(
            `switchyard: the pane host (pid ${oldPid}) was out of reach for ${Math.round((Date.now() - since) / 1000)} s: its panes are given up (${(e as Error).message})`,
          );
          return reconnect(false);
        }
        setTimeout(() => ask(Math.min(delayMs * 2, 10_000, this.graceMs)), delayMs).unref();
      });
    };
    ask(250);
  }

  private onEvent(m: HostEvent): void {
    switch (m.ev) {
      case "output":
        this.events.output?.(m.paneId, m.offset, m.data);
        return;
      case "activity":
        this.events.activity?.(m.paneId, m.at);
        return;
      case "fault":
        this.events.fault?.(m.paneId, { message: m.message, name: m.name, count: m.count });
        return;
      case "resync":
        this.events.resync?.(m.paneId);
        return;
      case "hook":
      case "exit": {
        const run = async () => {
          try {
            if (m.ev === "hook") await this.events.hook?.(m);
            else await this.events.exit?.(m);
          } catch (e) {
            this.log(`switchyard: handling the pane host's ${m.ev} for ${m.paneId} failed: ${(e as Error).message}`);
          }
          await this.conn?.request("ack", { seq: m.seq }).catch(() => {});
        };
        this.chain = this.chain.then(run, run);
      }
    }
  }

  request<Op extends OpName>(op: Op, args: OpArgs<Op>, opts: { timeoutMs?: number } = {}): Promise<OpReply<Op>> {
    return this.ensure().then((c) => c.request(op, args, opts));
  }

  /** Records where this server serves (reused after a restart while panes live). */
  async serving(info: { url: string; host: string; port: number }): Promise<void> {
    this.servingInfo = info;
    await this.request("serving", info);
  }

  /** Asks for every record the host kept while no server was attached, and waits until they are handled. */
  async ready(): Promise<void> {
    this.readyOnce = true;
    await this.request("ready", {});
    await this.chain;
  }

  /** Detaches, leaving the host and its panes running. */
  async detach(): Promise<void> {
    this.closing = true;
    const c = this.conn;
    if (!c || c.closed) return;
    await c.request("bye", {}, { timeoutMs: 2000 }).catch(() => {});
    c.destroy();
  }

  /** Stops the host and every pane it still runs, and waits for the host process to exit. */
  async shutdown(): Promise<void> {
    const c = this.conn && !this.conn.closed ? this.conn : null;
    this.closing = true;
    if (!c) return;
    const pid = this.hello.hostPid;
    await c.request("shutdown", { stopPanes: true }, { timeoutMs: 5000 }).catch(() => {});
    const deadline = Date.now() + 10_000;
    while ((await this.access.alive(pid).catch(() => false)) && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 25));
    c.destroy();
  }
}

/** The running host was started by another version of Switchyard: say so, and what to do (stopping it ends its agents). */
function otherProtocol(hostPid: unknown, protocol: unknown): YardError {
  const pid = typeof hostPid === "number" ? hostPid : null;
  return new YardError(
    "CONFLICT",
    `The running pane host${pid === null ? "" : ` (pid ${pid})`} speaks protocol ${String(protocol)}, this server ${PROTOCOL}: another version of Switchyard started it. Stop it with \`yard stop --all\` (it ends its agents), then start again`,
    { hostPid: pid, protocol: PROTOCOL, hostProtocol: protocol ?? null },
  );
}
