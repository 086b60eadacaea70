// A runner's pane host, reached over SSH: the same typed protocol as the local host's, through an
// OpenSSH forward of its Unix socket to one of ours (`ssh -N -L ours:theirs`), so the pane host
// client (server/panehost/client.ts) speaks to it exactly as to a local host, with the same
// reattach rules: a dropped connection is reopened (a new forward) and the host, still running
// there, is asked what it holds; only a host that is gone loses its panes. Owns: starting the
// host there (kit-scripts.ts START), the forward process, and asking whether the host lives.
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdirSync, rmSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import type { HostAccess } from "../../panehost/client";
import { YardError } from "../errors";
import { aliveCommand, startHostCommand } from "./kit-scripts";
import { exec, type SshTarget, sshArgv, sshFailure } from "./ssh";

export interface RemoteHostOptions {
  target: SshTarget;
  /** The kit whose pane host to start there (`yard runner install`). */
  kit: string;
  /** A private directory of ours for the forwarded socket. */
  dir: string;
  where: string;
  /** The board's API socket, forwarded to the runner (ssh -R) for its panes' `yard` (null: none). */
  apiSocket?: () => string | null;
}

/** Where things are on the runner, as its pane host's start reported. */
export interface RunnerPlacement {
  /** The kit's directory (its bin/yard, agents/). */
  kit: string;
  /** The board's API socket as forwarded there. */
  board: string;
  /** The host's hook relay there (null: it has none), where `yard hook` posts while the board restarts. */
  relay: string | null;
}

/** Waits until something accepts connections on the Unix socket `file`. */
async function accepting(file: string, deadline: number): Promise<void> {
  for (;;) {
    const ok = await new Promise<boolean>((resolve) => {
      const c = net.connect(file, () => {
        c.destroy();
        resolve(true);
      });
      c.once("error", () => resolve(false));
    });
    if (ok) return;
    if (Date.now() > deadline) throw new YardError("RUNNER_UNAVAILABLE", `the forward to ${file} did not open`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export class RemoteHost implements HostAccess {
  private remote: {
    socket: string;
    secret: string;
    pid: number;
    log: string;
    board: string;
    kit: string;
    relay?: string | null;
  } | null = null;
  private forward: ChildProcess | null = null;
  readonly local: string;

  constructor(private readonly opts: RemoteHostOptions) {
    mkdirSync(opts.dir, { recursive: true, mode: 0o700 });
    this.local = path.join(opts.dir, "host.sock");
  }

  get log(): string {
    return this.remote ? `${this.opts.where}:${this.remote.log}` : `${this.opts.where}: its pane host's log`;
  }

  /** Starts the host there when none runs, and learns its socket and secret. */
  async start(): Promise<void> {
    const run = await exec("ssh", sshArgv(this.opts.target, startHostCommand(this.opts.kit)), { timeoutMs: 40_000 });
    const failed = sshFailure(run, this.opts.where);
    if (failed) throw failed;
    try {
      this.remote = JSON.parse(run.stdout) as NonNullable<RemoteHost["remote"]>;
    } catch {
      throw new YardError(
        "PANE_HOST_UNAVAILABLE",
        `${this.opts.where}: its pane host did not start (${run.stderr.trim() || `exit ${run.code}`})`,
      );
    }
  }

  /** Where the kit and the board's socket are there (known once the host was started). */
  get placement(): RunnerPlacement | null {
    return this.remote ? { kit: this.remote.kit, board: this.remote.board, relay: this.remote.relay ?? null } : null;
  }

  /**
   * Our end of the forward (opened when it is not: the host there is started or found again first,
   * which also clears the board socket's old file there), and the host's secret.
   */
  async endpoint(): Promise<{ socket: string; secret: string }> {
    if (!this.forward || this.forward.exitCode !== null || this.forward.signalCode !== null) {
      await this.start();
      rmSync(this.local, { force: true });
      const api = this.opts.apiSocket?.() ?? null;
      // A session with a terminal beside the forward (a node that only waits): OpenSSH turns off
      // Nagle's algorithm (TCP_NODELAY) on both ends only for an interactive session, and without
      // it every keystroke's echo waited ~40 ms for a delayed ACK (measured: bench/runner.bench.ts).
      const args = sshArgv(this.opts.target, ["node", "-e", '"setInterval(() => {}, 1e9)"'], 10, [
        "-tt",
        "-o",
        "ExitOnForwardFailure=yes",
        "-o",
        "ServerAliveInterval=5",
        "-o",
        "ServerAliveCountMax=3",
        "-L",
        `${this.local}:${this.remote!.socket}`,
        ...(api ? ["-R", `${this.remote!.board}:${api}`] : []),
      ]);
      const child = spawn("ssh", args, { stdio: ["ignore", "ignore", "pipe"] });
      let stderr = "";
      child.stderr!.on("data", (d) => (stderr += d));
      this.forward = child;
      try {
        await Promise.race([
          accepting(this.local, Date.now() + 15_000),
          new Promise((_, reject) =>
            child.once("exit", (code) =>
              reject(
                sshFailure({ code: code ?? 255, stdout: "", stderr }, this.opts.where) ??
                  new YardError("RUNNER_UNAVAILABLE", `${this.opts.where}: the forward ended (${stderr.trim()})`),
              ),
            ),
          ),
        ]);
      } catch (e) {
        child.kill("SIGKILL");
        throw e;
      }
    }
    return { socket: this.local, secret: this.remote!.secret };
  }

  async alive(pid: number): Promise<boolean> {
    const run = await exec("ssh", sshArgv(this.opts.target, aliveCommand(pid)), { timeoutMs: 20_000 });
    const failed = sshFailure(run, this.opts.where);
    if (failed) throw failed;
    return run.stdout.trim() === "1";
  }

  /** The forward's ssh process (tests cut the connection by killing it). */
  get forwardPid(): number | null {
    return this.forward?.pid ?? null;
  }

  /** Ends the forward, so the next endpoint() opens a new one (the host there keeps running). */
  reset(): void {
    this.forward?.kill("SIGKILL");
    this.forward = null;
  }

  /** Ends the forward (the host there keeps running). */
  close(): void {
    this.forward?.kill("SIGTERM");
    this.forward = null;
    if (existsSync(this.local)) rmSync(this.local, { force: true });
  }
}
