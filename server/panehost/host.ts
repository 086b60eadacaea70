// The pane host: the long-lived process that owns every PTY of one data dir, so agents keep
// running while the web server restarts. This module is its life: the data dir's host lock
// (host/host.pid), listening on the control socket and the hook relay, going idle, stopping.
// The parts it puts together: the PTYs (pty-io.ts), their mirrors in worker threads
// (mirror-pool.ts), the records no server has taken yet (deliveries.ts), the attached server
// (server-link.ts) and the requests (dispatcher.ts, by the contract in ops.ts). The server keeps
// everything else (rows, tokens, lifecycle, hooks, tasks): see docs/pane-host.md.
import { closeSync, openSync, readFileSync, rmSync, writeSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { paths } from "../config";
import type { Conn } from "./connection";
import { Deliveries } from "./deliveries";
import { type HostParts, onConnection } from "./dispatcher";
import { listenHookRelay } from "./hook-relay";
import { checkRelayToken, PaneTable } from "./host-pane";
import { MirrorPool } from "./mirror-pool";
import { PROTOCOL } from "./ops";
import {
  checkPrivateDir,
  ensurePrivateDir,
  hostPaths,
  listenPrivateSocket,
  loadHostSecret,
  processAlive,
} from "./protocol";
import { PtyIo } from "./pty-io";
import { ServerLink } from "./server-link";

/**
 * A host is started by a server that then connects to it: until a server first has, the host
 * waits this long (the server's own start deadline) before it may go idle, however short
 * YARD_HOST_IDLE_MS is. On a loaded machine the server can take longer than that to connect,
 * and it would find its new host gone.
 */
const FIRST_SERVER_MS = 30_000;

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

export class PaneHost {
  private readonly paths: ReturnType<typeof hostPaths>;
  private readonly log: (line: string) => void;
  private readonly pool: MirrorPool;
  private readonly link: ServerLink;
  private readonly panes = new PaneTable();
  private readonly io: PtyIo;
  private readonly deliveries: Deliveries;
  private readonly controls = new Set<Conn>();
  private readonly parts: HostParts;
  private control: net.Server | null = null;
  private relay: net.Server | null = null;
  private idleSince: number | null = Date.now();
  private idleTimer: NodeJS.Timeout | null = null;
  private stopping: Promise<void> | null = null;
  private poolReady: Promise<void> = Promise.resolve();
  readonly startedAt = new Date().toISOString();

  constructor(private readonly opts: HostOptions) {
    this.paths = hostPaths(opts.home);
    this.log = opts.log ?? ((l) => console.log(`${new Date().toISOString()} ${l}`));
    const log = this.log;
    this.pool = new MirrorPool(
      {
        size: opts.workers ?? Math.max(1, Math.min(4, os.availableParallelism() - 1)),
        screens: paths(opts.home).screens,
        log,
      },
      { parsed: (id, total) => this.io.onParsed(id, total), fault: (id, f) => this.io.onFault(id, f) },
    );
    this.link = new ServerLink(log);
    this.deliveries = new Deliveries(this.paths.pending, this.link, log);
    this.io = new PtyIo({
      panes: this.panes,
      pool: this.pool,
      link: this.link,
      exited: (e) => this.deliveries.exit(e),
      log,
    });
    this.parts = {
      secret: loadHostSecret(opts.home, true),
      startedAt: this.startedAt,
      panes: this.panes,
      io: this.io,
      pool: this.pool,
      deliveries: this.deliveries,
      link: this.link,
      controls: this.controls,
      poolReady: () => this.poolReady,
      stop: (reason, o) => this.stop(reason, o),
      log,
    };
  }

  /** Takes the data dir's host lock, takes the mirror workers' code (workers start with the first panes), then listens. False: another host holds the lock. */
  async start(): Promise<boolean> {
    ensurePrivateDir(this.paths.dir);
    if (!this.lock()) return false;
    try {
      // Requests wait for this (it only reads the workers' code); the workers start with panes.
      this.poolReady = this.pool.start();
      this.poolReady.catch((e: Error) => this.log(`mirror workers failed to start: ${e.stack ?? e.message}`));
      for (const p of this.deliveries.load()) this.panes.restore(p);
      checkPrivateDir(path.dirname(this.paths.socket));
      rmSync(this.paths.socket, { force: true }); // we hold the lock: any socket here is stale
      this.control = net.createServer((s) => onConnection(this.parts, s));
      await listenPrivateSocket(this.control, this.paths.socket);
      if (this.paths.relay)
        this.relay = await listenHookRelay(this.paths.relay, (h) => {
          checkRelayToken(this.panes.get(h.paneId), h.token);
          this.deliveries.hook(h);
        });
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

  private checkIdle(): void {
    const busy = this.panes.running().length > 0 || this.link.conn !== null || this.controls.size > 0;
    if (busy) {
      this.idleSince = null;
      return;
    }
    this.idleSince ??= Date.now();
    const idleMs = this.opts.idleMs ?? 5000;
    if (Date.now() - this.idleSince >= (this.link.served ? idleMs : Math.max(idleMs, FIRST_SERVER_MS)))
      void this.stop("idle");
  }

  /**
   * Stops the host: with `stopPanes` every pane is ended first (SIGTERM to its process group,
   * SIGKILL after the grace period) and its exit recorded; what no server acknowledged is kept in
   * host/pending.json for the next host.
   */
  stop(reason: string, opts: { stopPanes?: boolean; graceMs?: number } = {}): Promise<void> {
    this.stopping ??= (async () => {
      this.io.stopping = true;
      this.log(`stopping (${reason})`);
      if (opts.stopPanes) {
        const graceMs = opts.graceMs ?? 1000;
        await Promise.all(this.panes.running().map((p) => this.io.kill(p, graceMs)));
      }
      this.deliveries.save(this.panes.saved(this.deliveries.paneIds()));
      if (this.idleTimer) clearInterval(this.idleTimer);
      this.control?.close();
      this.relay?.close();
      rmSync(this.paths.socket, { force: true });
      if (this.paths.socket !== path.join(this.paths.dir, "host.sock"))
        rmSync(path.dirname(this.paths.socket), { recursive: true, force: true });
      if (this.paths.relay) rmSync(this.paths.relay, { force: true });
      for (const c of [...this.controls]) c.end();
      this.link.conn?.end();
      await this.pool.close().catch(() => {});
      this.unlock();
      this.opts.onStopped?.();
    })();
    return this.stopping;
  }
}
