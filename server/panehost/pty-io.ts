// The pane host's PTYs: spawning them, reading them (never waiting on a parser: every chunk is
// batched to the pane's mirror worker, see mirror-pool.ts), backpressure (the PTY is paused while
// its mirror is more than `high` bytes behind, resumed below `low`), live output for an attached
// server, throttled activity ticks, input and resizes in order with the output read so far, kill
// (SIGTERM to the process group, SIGKILL after a grace period) and exit: the output is read to
// the end (pty-drain.ts), parsed, the final screen saved by the worker, then the exit recorded.
// The panes themselves are host-pane.ts's records, in its PaneTable.
import * as pty from "node-pty";
import { YardError } from "../core/errors";
import { holdExitUntilDrained } from "../core/panes/pty-drain";
import { PtyFlow } from "../core/panes/pty-flow";
import { incompleteUtf8Tail } from "../core/panes/utf8-tail";
import { flowStats, type HostPane, type PaneTable, paneRecord } from "./host-pane";
import type { MirrorPool } from "./mirror-pool";
import type { FlowStats, HostExit, OpParams, OpReply } from "./ops";
import type { ServerLink } from "./server-link";

/** The PTY is paused while more than this many bytes are read but not parsed... */
const BACKPRESSURE_HIGH = 1024 * 1024;
/** ...and resumed below this. High enough that a worker never runs dry between its progress reports. */
const BACKPRESSURE_LOW = 256 * 1024;
/** Activity ticks (output happened) to the server: at most one per pane in this window, plus a trailing one. */
const ACTIVITY_MS = 100;

const now = () => performance.timeOrigin + performance.now();

export class PtyIo {
  /** The host is stopping: no new pane. */
  stopping = false;

  constructor(
    private readonly deps: {
      panes: PaneTable;
      pool: MirrorPool;
      link: ServerLink;
      /** The pane exited, its output parsed and its final screen saved (or screenError). */
      exited: (e: Omit<HostExit, "seq">) => void;
      log: (line: string) => void;
    },
  ) {}

  /** A pane whose mirror is still in its worker (running, or exiting before the final screen is saved), every byte read so far sent to it. */
  mirrored(id: string): HostPane {
    const p = this.deps.panes.pane(id);
    if (p.state === "exited")
      throw new YardError("PANE_EXITED", `Pane ${p.id} has exited; its final screen is saved`, {
        paneId: p.id,
        state: p.state,
      });
    return p;
  }

  spawn(a: OpParams<"spawn">): OpReply<"spawn"> {
    if (this.stopping) throw new YardError("CONFLICT", "The pane host is stopping");
    if (this.deps.panes.has(a.paneId)) throw new YardError("CONFLICT", `The pane host already has pane ${a.paneId}`);
    const high = a.backpressure?.highBytes ?? BACKPRESSURE_HIGH;
    const low = a.backpressure?.lowBytes ?? BACKPRESSURE_LOW;
    if (!(high > low)) throw new YardError("BAD_PARAMS", "backpressure needs 0 <= lowBytes < highBytes");
    let proc: pty.IPty;
    try {
      // Raw bytes: the mirror decodes UTF-8 itself.
      proc = pty.spawn(a.argv[0]!, a.argv.slice(1), {
        name: "xterm-256color",
        cols: a.cols,
        rows: a.rows,
        cwd: a.cwd,
        env: a.inherit ? inheritedEnv(a.env, a.inherit.pathPrefix) : a.env,
        encoding: null,
      });
    } catch (e) {
      throw new YardError("BAD_PARAMS", `Could not start ${a.argv[0]}: ${(e as Error).message}`, { argv: a.argv });
    }
    const p: HostPane = {
      ...paneRecord({ id: a.paneId, pid: proc.pid, cols: a.cols, rows: a.rows, meta: a.meta }),
      proc,
      state: "running",
      flow: new PtyFlow(proc),
      high,
      low,
      activity: a.activity,
      tokenHash: a.tokenHash,
    };
    this.deps.panes.set(p.id, p);
    this.deps.pool.create(p.id, { cols: a.cols, rows: a.rows, scrollback: a.scrollback });
    // Exit is reported only once the PTY's output has been read to the end (see pty-drain.ts).
    holdExitUntilDrained(proc);
    proc.onData((chunk: string | Buffer) => this.onData(p, typeof chunk === "string" ? Buffer.from(chunk) : chunk));
    proc.onExit(({ exitCode, signal }) => void this.onExit(p, exitCode, signal ?? null));
    this.deps.log(`spawned ${p.id} pid ${proc.pid}: ${a.argv.join(" ").slice(0, 200)}`);
    return { pid: proc.pid };
  }

  write(paneId: string, data: string): void {
    this.deps.panes.runningPane(paneId).proc!.write(data);
  }

  resize(paneId: string, cols: number, rows: number): void {
    const p = this.deps.panes.runningPane(paneId);
    p.proc!.resize(cols, rows);
    // The pool sends the output read so far first: it is parsed at the old size, as a terminal would.
    this.deps.pool.resize(p.id, cols, rows);
    p.cols = cols;
    p.rows = rows;
  }

  /**
   * A consistent start for a viewer: the snapshot holds exactly the bytes read before `offset`,
   * and from this moment the pane's output goes to the server tagged with its offset (so the
   * server passes a viewer only output at or after it).
   */
  async attach(paneId: string): Promise<OpReply<"attach">> {
    const p = this.mirrored(paneId);
    const offset = p.readBytes;
    const tail = p.tail ? [...p.tail] : [];
    p.subscribed = true;
    this.deps.link.resubscribed(p.id);
    const s = await this.deps.pool.request<{ data: string; cols: number; rows: number }>(p.id, "snapshot");
    return { data: s.data, cols: s.cols, rows: s.rows, offset, tail };
  }

  /** Flow counters, once `untilParsed` bytes are parsed when given (TIMEOUT after timeoutMs). */
  async stats(a: OpParams<"stats">): Promise<FlowStats> {
    const p = this.deps.panes.pane(a.paneId);
    const target = a.untilParsed;
    if (target !== undefined && p.parsedBytes < target && p.state !== "exited") {
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new YardError("TIMEOUT", `pane ${p.id} parsed ${p.parsedBytes} of ${target} bytes`)),
          a.timeoutMs,
        );
        const done = () => {
          clearTimeout(timer);
          resolve();
        };
        p.parsedWaiters.push({ bytes: target, resolve: done });
      });
    }
    return flowStats(p);
  }

  /** Ends the pane's whole process group: SIGTERM, then SIGKILL after the grace period; resolves at exit. */
  kill(p: HostPane, graceMs: number): Promise<void> {
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

  /** The mirror worker parsed up to `total` bytes of the pane: release backpressure, wake waiters. */
  onParsed(id: string, total: number): void {
    const p = this.deps.panes.get(id);
    if (!p) return;
    p.parsedBytes = total;
    p.lastParsedAt = now();
    if (p.backpressure && p.readBytes - p.parsedBytes < p.low) {
      const release = p.backpressure;
      p.backpressure = null;
      release();
    }
    if (p.parsedWaiters.length) {
      const due = p.parsedWaiters.filter((w) => w.bytes <= total);
      p.parsedWaiters = p.parsedWaiters.filter((w) => w.bytes > total);
      for (const w of due) w.resolve();
    }
  }

  onFault(id: string, f: { message: string; name: string; count: number }): void {
    const p = this.deps.panes.get(id);
    if (!p) return;
    p.faults = f.count;
    this.deps.link.emit("fault", { paneId: id, message: f.message, name: f.name, count: f.count });
  }

  /** One read from the PTY: towards the mirror (batched), to a subscribed server, and an activity tick. */
  private onData(p: HostPane, chunk: Buffer): void {
    const offset = p.readBytes;
    p.readBytes += chunk.length;
    p.firstReadAt ??= now();
    this.deps.pool.write(p.id, chunk); // batched there, and sent before any request of the pane
    const pending = p.readBytes - p.parsedBytes;
    if (pending > p.maxPendingBytes) p.maxPendingBytes = pending;
    if (pending > p.high && !p.backpressure && p.state === "running") {
      p.backpressure = p.flow!.hold();
      p.backpressurePauses++;
    }
    if (p.subscribed) this.deps.link.output(p.id, offset, chunk);
    p.tail = incompleteUtf8Tail(chunk);
    p.lastOutputAt = Date.now();
    if (p.activity && this.deps.link.ready && !p.activityTimer) {
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
    this.deps.link.emit("activity", { paneId: p.id, at: p.lastOutputAt });
  }

  /** The process exited and its output was read to the end: parse it all, save the final screen, record the exit. */
  private async onExit(p: HostPane, exitCode: number, signal: number | null): Promise<void> {
    p.state = "exiting";
    if (p.killTimer) clearTimeout(p.killTimer);
    if (p.activityTimer) clearTimeout(p.activityTimer);
    p.activityTimer = null;
    p.backpressure?.();
    p.backpressure = null;
    let screenError: string | null = null;
    try {
      const r = await this.deps.pool.request<{ error: string | null; faults: number }>(p.id, "finalize");
      screenError = r.error;
      p.faults = Math.max(p.faults, r.faults);
    } catch (e) {
      screenError = (e as Error).message;
    }
    this.deps.pool.forget(p.id);
    const stats = flowStats(p);
    p.state = "exited";
    p.proc = null;
    p.flow = null;
    p.subscribed = false;
    for (const w of p.parsedWaiters) w.resolve();
    p.parsedWaiters = [];
    p.markExited();
    this.deps.log(`${p.id} exited (code ${exitCode}, signal ${signal ?? 0})`);
    this.deps.exited({ paneId: p.id, exitCode, signal: signal || null, at: Date.now(), screenError, stats });
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

/** The host's own environment with `env` over it and `pathPrefix` first on its PATH (a runner's panes). */
function inheritedEnv(env: Record<string, string>, pathPrefix: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined) out[k] = v;
  Object.assign(out, env);
  const rest = process.env.PATH ?? "/usr/local/bin:/usr/bin:/bin";
  out.PATH = pathPrefix ? `${pathPrefix}:${rest}` : rest;
  return out;
}
