// Several pane hosts behind the one port the pane manager uses: this machine's own host, and each
// runner's (reached over SSH, opened when a pane first runs there or when recovery finds panes
// recorded there). Owns which host runs which pane: a spawn goes where its caller says (`on`),
// every other request about a pane to the host that runs it, and each host's events come through
// scoped to its panes, so losing one runner's host loses only the panes it ran (as `runner_lost`).
import type { HelloReply, OpArgs, OpName, OpReply } from "../../panehost/ops";
import { YardError } from "../errors";
import type { PaneHostEvents, PaneHostPort } from "./host-port";

/** A runner's host as the router opens it. */
export interface RunnerHost {
  host: PaneHostPort;
  /** Where the kit and the board's forwarded socket are there (known once it was reached). */
  placement(): { kit: string; board: string; relay: string | null } | null;
  /** Ends the connection to it (its host and panes keep running there). */
  close(): void;
}

export class HostRouter implements PaneHostPort {
  events: PaneHostEvents = {};
  /** paneId → the runner whose host runs it (absent: this machine's). */
  private readonly placed = new Map<string, string>();
  private readonly runners = new Map<string, Promise<RunnerHost>>();

  constructor(
    private readonly local: PaneHostPort,
    private readonly openRunner: (name: string) => Promise<RunnerHost>,
    /** How long a runner out of reach at start-up is tried again before its panes are given up. */
    private readonly graceMs = 60_000,
  ) {
    this.wire(local, null);
  }

  /** The local host's hello, with every open runner host's panes beside its own. */
  get hello(): HelloReply {
    const panes = [...this.local.hello.panes];
    for (const r of this.opened.values()) if (r) panes.push(...r.host.hello.panes);
    return { ...this.local.hello, panes };
  }

  /** Runner hosts opened so far (null while opening or when it failed). */
  private readonly opened = new Map<string, RunnerHost | null>();

  private runner(name: string): Promise<RunnerHost> {
    let p = this.runners.get(name);
    if (!p) {
      this.opened.set(name, null);
      p = this.openRunner(name).then(
        async (r) => {
          this.wire(r.host, name);
          this.opened.set(name, r);
          if (this.isReady) await r.host.ready();
          return r;
        },
        (e: unknown) => {
          this.runners.delete(name);
          this.opened.delete(name);
          throw e;
        },
      );
      this.runners.set(name, p);
    }
    return p;
  }

  /** The panes placed on `runner` (null: on this machine). */
  private panesOn(runner: string | null): string[] {
    if (runner !== null) return [...this.placed].filter(([, r]) => r === runner).map(([id]) => id);
    return [...this.placedLocal];
  }

  /** Panes on this machine's host the router saw spawn or recover (the local host's scope). */
  private readonly placedLocal = new Set<string>();

  private wire(host: PaneHostPort, runner: string | null): void {
    const ev = () => this.events;
    host.events = {
      output: (id, offset, data) => ev().output?.(id, offset, data),
      activity: (id, at) => ev().activity?.(id, at),
      fault: (id, f) => ev().fault?.(id, f),
      resync: (id) => ev().resync?.(id),
      hook: async (h) => ev().hook?.(h),
      exit: async (e) => {
        await ev().exit?.(e);
        this.forget(e.paneId);
      },
      lost: (reason) => (runner === null ? this.giveUp(null, reason) : this.giveUp(runner, "runner_lost")),
      reattached: (panes) => ev().reattached?.(panes, this.panesOn(runner)),
    };
  }

  /**
   * The panes of a host that is gone (null: this machine's) are lost. A runner's may still run
   * there (it was only out of reach): they are ended there once it answers again (sweep).
   */
  private giveUp(runner: string | null, reason: string): void {
    const scope = this.panesOn(runner);
    for (const id of scope) this.forget(id);
    if (runner !== null && scope.length) this.doomed.set(runner, [...(this.doomed.get(runner) ?? []), ...scope]);
    this.events.lost?.(reason, scope);
  }

  /** Panes given up as lost on a runner, to end there the next time its host is reached. */
  private readonly doomed = new Map<string, string[]>();

  private sweep(runner: string, host: PaneHostPort): void {
    const ids = this.doomed.get(runner);
    if (!ids) return;
    this.doomed.delete(runner);
    for (const paneId of ids) void host.request("kill", { paneId, graceMs: 1000 }).catch(() => {});
  }

  private forget(paneId: string): void {
    this.placed.delete(paneId);
    this.placedLocal.delete(paneId);
  }

  /** Records that a pane runs on `runner` (null: here), e.g. one recovery found. */
  place(paneId: string, runner: string | null): void {
    if (runner === null) {
      this.placedLocal.add(paneId);
      this.placed.delete(paneId);
    } else {
      this.placed.set(paneId, runner);
      this.placedLocal.delete(paneId);
    }
  }

  async openRunners(panes: { id: string; runner: string }[]): Promise<Set<string>> {
    for (const p of this.local.hello.panes) this.placedLocal.add(p.paneId);
    const unreachable = new Set<string>();
    const names = [...new Set(panes.map((p) => p.runner))];
    await Promise.all(
      names.map((n) =>
        this.runner(n).then(
          () => {},
          () => unreachable.add(n),
        ),
      ),
    );
    for (const p of panes) this.place(p.id, p.runner);
    for (const name of unreachable) this.retry(name, Date.now() + this.graceMs);
    return unreachable;
  }

  /**
   * A runner out of reach at start-up: tried again every few seconds; reached, its host's panes are
   * compared with the ones placed there (reattached); still out of reach after the grace period,
   * they are given up (runner_lost), as for a runner lost while running.
   */
  private retry(name: string, deadline: number): void {
    const again = () => {
      if (this.closed) return;
      this.runner(name).then(
        (r) => this.events.reattached?.(r.host.hello.panes, this.panesOn(name)),
        () => {
          if (Date.now() < deadline) return void setTimeout(again, Math.min(5000, this.graceMs)).unref();
          this.giveUp(name, "runner_lost");
        },
      );
    };
    setTimeout(again, Math.min(2000, this.graceMs)).unref();
  }

  private closed = false;

  async placement(runner: string): Promise<{ kit: string; board: string; relay: string | null }> {
    const r = await this.runner(runner);
    // The host is reached on its first request: its start reports where things are.
    if (!r.placement()) await r.host.request("list", {});
    const p = r.placement();
    if (!p) throw new YardError("RUNNER_UNAVAILABLE", `runner ${runner}: its pane host did not say where its kit is`);
    return p;
  }

  async request<Op extends OpName>(
    op: Op,
    args: OpArgs<Op>,
    opts: { timeoutMs?: number; on?: string | null } = {},
  ): Promise<OpReply<Op>> {
    const paneId = (args as { paneId?: unknown }).paneId;
    if (op === "spawn" && typeof paneId === "string") {
      const on = opts.on ?? null;
      const host = on === null ? this.local : (await this.runner(on)).host;
      const reply = await host.request(op, args, { timeoutMs: opts.timeoutMs });
      if (on !== null) this.sweep(on, host);
      this.place(paneId, on);
      return reply;
    }
    const runner = typeof paneId === "string" ? this.placed.get(paneId) : undefined;
    const host = runner === undefined ? this.local : (await this.runner(runner)).host;
    return host.request(op, args, { timeoutMs: opts.timeoutMs });
  }

  async serving(info: { url: string; host: string; port: number }): Promise<void> {
    await this.local.serving(info);
  }

  private isReady = false;

  async ready(): Promise<void> {
    this.isReady = true;
    await this.local.ready();
    await Promise.all([...this.opened.values()].map((r) => r?.host.ready()));
  }

  async detach(): Promise<void> {
    this.closed = true;
    await Promise.all([this.local.detach(), ...[...this.opened.values()].map((r) => this.leave(r))]);
  }

  /** Stops this machine's host and its panes; runners' hosts are left running (their panes were killed one by one). */
  async shutdown(): Promise<void> {
    this.closed = true;
    await Promise.all([this.local.shutdown(), ...[...this.opened.values()].map((r) => this.leave(r))]);
  }

  /** Leaves a runner's host running and closes the way to it (its forward's ssh). */
  private async leave(r: RunnerHost | null): Promise<void> {
    if (!r) return;
    await r.host.detach();
    r.close();
  }
}
