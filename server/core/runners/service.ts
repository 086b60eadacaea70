// Runners: the machines agents may run on, reached with the system's OpenSSH client (the user's
// ~/.ssh/config and agent, or the given key). Owns the registry (add, list, remove), the host keys
// Switchyard trusts for each (runners/<name>/known_hosts in the data dir, written only when a
// person gives the fingerprint they checked: an unknown key is never accepted), and the check that
// a runner answers and has node (its only requirement), and installing the pane host kit there.
import { chmodSync, mkdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { RunnerRow, RunnerStore } from "../../stores/runners";
import { type CheckResult, type RunnerTeardown, type RunnerView, runnerTeardown } from "../../wire/runners";
import { YardError } from "../errors";
import { newId } from "../ids";
import { PaneHostClient } from "../../panehost/client";
import type { RunnerHost } from "../panes/host-router";
import { RunnerGit, type RunnerGitTask } from "./git";
import { buildKit, buildKitName, encodeKit, filesUnder, type KitFile } from "./kit";
import { RemoteHost } from "./remote-host";
import { placeCommand, probeCommand, teardownCommand, unpackCommand } from "./kit-scripts";
import { exec, type SshTarget, scanHostKeys, sshArgv, sshFailure } from "./ssh";

/** What the probe script reports from the runner. */
interface Probe {
  node: string;
  modules: string;
  arch: string;
  platform: string;
  /** Where kits go there. */
  base: string;
  kits: string[];
}

export interface RunnerAdd {
  name: string;
  ssh: { user: string; host: string; port: number };
  identityFile?: string;
  knownHostsFile?: string;
  labels: string[];
  capacity: number;
}

export class Runners {
  constructor(
    private readonly deps: {
      store: RunnerStore;
      home: string;
      /** The board's API socket, forwarded to runners for their panes' `yard` (null: none). */
      apiSocket?: () => string | null;
      /** How long a runner out of reach keeps its tasks before they fail as runner_lost. */
      graceMs?: number;
      log?: (line: string) => void;
      /** How many tasks are active on a runner (a runner running tasks is not removed). */
      activeTasks?: (name: string) => Promise<number>;
    },
  ) {}

  /**
   * The runner's pane host, for the pane manager (host-router.ts): the kit installed there when it
   * is not, the host started there when none runs, and the typed protocol over an SSH forward.
   */
  async openHost(name: string): Promise<RunnerHost> {
    const r = await this.row(name);
    const kit = buildKitName();
    if (!(await this.probe(r)).kits.includes(kit)) await this.install(name);
    const remote = new RemoteHost({
      target: this.target(r),
      kit,
      dir: path.join(this.dir(name), "fwd"),
      where: this.where(r),
      apiSocket: this.deps.apiSocket,
    });
    try {
      const host = await PaneHostClient.open({
        home: this.deps.home,
        access: remote,
        log: this.deps.log,
        unreachableGraceMs: this.graceMs,
      });
      return { host, placement: () => remote.placement, close: () => remote.close() };
    } catch (e) {
      remote.close();
      throw e;
    }
  }

  /** Git between the board's repository `repo` and the runner's clone of it (git.ts). */
  private async gitFor(name: string, repo: string): Promise<RunnerGit> {
    const r = await this.row(name);
    return new RunnerGit({ target: this.target(r), where: this.where(r), repo });
  }

  /** The task's worktree on the runner (made from its base when it is not there yet). */
  async worktree(name: string, repo: string, t: RunnerGitTask): Promise<{ path: string }> {
    return (await this.gitFor(name, repo)).prepare(t);
  }

  /**
   * Copies files into a task's worktree there (a repository's setup `copy` and `link` entries,
   * gathered on this machine into `dir`): links there would point into this machine, so both are copies.
   */
  async place(name: string, taskId: string, dir: string): Promise<{ files: number; bytes: number }> {
    const r = await this.row(name);
    return this.sendFiles(r, placeCommand(taskId), filesUnder(dir), "the setup files were not written there");
  }

  /**
   * A finished task's teardown commands run in its worktree there (kit-scripts.ts TEARDOWN), each
   * within `timeoutMs`; what they did, as the runner reports it (checked against the schema).
   */
  async teardown(
    name: string,
    taskId: string,
    run: { commands: string[]; env: Record<string, string>; timeoutMs: number },
  ): Promise<RunnerTeardown> {
    const r = await this.row(name);
    const answer = await this.ask<unknown>(
      r,
      teardownCommand(taskId),
      JSON.stringify(run),
      "the teardown did not run",
      {
        timeoutMs: run.commands.length * run.timeoutMs + 60_000,
      },
    );
    const parsed = runnerTeardown.safeParse(answer);
    if (!parsed.success)
      throw new YardError("RUNNER_UNAVAILABLE", `${this.where(r)}: the teardown's report was not understood`);
    return parsed.data;
  }

  /**
   * Streams `files` (the kit's format) to a script there and reads its JSON answer; `failed` says
   * what did not happen when no answer came.
   */
  private sendFiles<T>(r: RunnerRow, remote: string[], files: KitFile[], failed: string): Promise<T> {
    return this.ask<T>(r, remote, encodeKit(files), failed);
  }

  /** Runs a script there with `input` on its stdin and reads its JSON answer. */
  private async ask<T>(
    r: RunnerRow,
    remote: string[],
    input: Buffer | string,
    failed: string,
    opts: { timeoutMs?: number } = {},
  ): Promise<T> {
    const run = await exec("ssh", sshArgv(this.target(r), remote), { timeoutMs: opts.timeoutMs ?? 300_000, input });
    const refused = sshFailure(run, this.where(r));
    if (refused) throw refused;
    try {
      return JSON.parse(run.stdout) as T;
    } catch {
      throw new YardError(
        "RUNNER_UNAVAILABLE",
        `${this.where(r)}: ${failed} (${run.stderr.trim() || `exit ${run.code}`})`,
      );
    }
  }

  /** How long a runner out of reach keeps its tasks. */
  get graceMs(): number {
    return this.deps.graceMs ?? 60_000;
  }

  /** A finished task's worktree there removed (git.ts drop). */
  async drop(name: string, repo: string, t: RunnerGitTask): Promise<void> {
    await (await this.gitFor(name, repo)).drop(t);
  }

  /** The task's branch and worktree brought back from the runner (git.ts collect). */
  async collect(
    name: string,
    repo: string,
    t: RunnerGitTask,
  ): Promise<{ commit: string; worktree: string; changed: boolean }> {
    return (await this.gitFor(name, repo)).collect(t);
  }

  private dir(name: string): string {
    return path.join(this.deps.home, "runners", name);
  }

  /** The known_hosts file of the keys a person trusted for this runner. */
  private trustedFile(name: string): string {
    return path.join(this.dir(name), "known_hosts");
  }

  async list(): Promise<RunnerView[]> {
    return (await this.deps.store.list()).map(view);
  }

  async get(name: string): Promise<RunnerView> {
    return view(await this.row(name));
  }

  private async row(name: string): Promise<RunnerRow> {
    const row = await this.deps.store.byName(name);
    if (!row) throw new YardError("NOT_FOUND", `No runner named ${name} (yard runner list)`, { name });
    return row;
  }

  async add(input: RunnerAdd): Promise<RunnerView> {
    for (const [flag, file] of [
      ["--identity", input.identityFile],
      ["--known-hosts", input.knownHostsFile],
    ] as const) {
      if (file === undefined) continue;
      let ok = false;
      try {
        ok = statSync(file).isFile();
      } catch {}
      if (!ok) throw new YardError("BAD_PARAMS", `${flag} ${file}: no such file`, { file });
    }
    if (await this.deps.store.byName(input.name))
      throw new YardError("CONFLICT", `A runner named ${input.name} exists already`, { name: input.name });
    const row = await this.deps.store.create({
      id: newId("rnr"),
      name: input.name,
      user: input.ssh.user,
      host: input.ssh.host,
      port: input.ssh.port,
      identityFile: input.identityFile ?? null,
      knownHostsFile: input.knownHostsFile ?? null,
      labels: JSON.stringify(input.labels),
      capacity: input.capacity,
    });
    return view(row);
  }

  async remove(name: string): Promise<{ removed: string }> {
    await this.row(name);
    const active = (await this.deps.activeTasks?.(name)) ?? 0;
    if (active > 0)
      throw new YardError(
        "CONFLICT",
        `runner ${name} runs ${active} active task(s): finish or cancel them first (nothing was removed)`,
        { name, active },
      );
    await this.deps.store.remove(name);
    rmSync(this.dir(name), { recursive: true, force: true });
    return { removed: name };
  }

  private target(r: RunnerRow): SshTarget {
    return {
      user: r.user,
      host: r.host,
      port: r.port,
      identityFile: r.identityFile,
      knownHostsFiles: [this.trustedFile(r.name), r.knownHostsFile ?? path.join(os.homedir(), ".ssh", "known_hosts")],
    };
  }

  private where(r: RunnerRow): string {
    return `runner ${r.name} (${r.user}@${r.host}:${r.port})`;
  }

  /**
   * Connects and runs `node --version`. An unknown host key is HOST_KEY_UNKNOWN with the keys the
   * host presents and their fingerprints (to compare with what its administrator says), a changed
   * one HOST_KEY_CHANGED; the outcome is kept as the runner's last check either way.
   */
  async check(name: string): Promise<CheckResult> {
    const r = await this.row(name);
    const at = new Date();
    const record = async (result: CheckResult) => {
      await this.deps.store.checked(name, at, JSON.stringify(result));
      return result;
    };
    try {
      const probe = await this.probe(r);
      const kit = buildKitName();
      return await record({
        ok: true,
        node: probe.node,
        at: at.toISOString(),
        error: null,
        kit: { name: kit, installed: probe.kits.includes(kit) },
      });
    } catch (e) {
      const err = e instanceof YardError ? e : new YardError("RUNNER_UNAVAILABLE", (e as Error).message);
      await record({
        ok: false,
        node: null,
        at: at.toISOString(),
        error: { code: err.code, message: err.message },
        kit: null,
      });
      throw err;
    }
  }

  /**
   * Logs in and runs the probe script: node's version, ABI and platform, and the kits installed.
   * An unknown host key is HOST_KEY_UNKNOWN with the keys the host presents and their
   * fingerprints (to compare with what its administrator says), a changed one HOST_KEY_CHANGED.
   */
  private async probe(r: RunnerRow): Promise<Probe> {
    const run = await exec("ssh", sshArgv(this.target(r), probeCommand()), { timeoutMs: 20_000 });
    const failed = sshFailure(run, this.where(r));
    if (failed?.code === "HOST_KEY_UNKNOWN") {
      const keys = await scanHostKeys(r.host, r.port).catch(() => []);
      throw new YardError(
        "HOST_KEY_UNKNOWN",
        `${this.where(r)} presents a host key nobody trusted yet${
          keys.length ? `: ${keys.map((k) => `${k.fingerprint} (${k.type})`).join(", ")}` : ""
        }. Compare with its administrator's, then: yard runner trust ${r.name} --fingerprint SHA256:…`,
        { fingerprints: keys.map((k) => ({ type: k.type, fingerprint: k.fingerprint })) },
      );
    }
    if (failed) throw failed;
    try {
      const p = JSON.parse(run.stdout) as Probe;
      if (/^v\d+\.\d+\.\d+/.test(p.node)) return p;
    } catch {}
    throw new YardError(
      "CONFLICT",
      `${this.where(r)} answered, but no node ran there (${run.stderr.trim().split("\n").at(-1) ?? `exit ${run.code}`}): node is a runner's only requirement`,
      { exitCode: run.code },
    );
  }

  /**
   * Copies this board's pane host kit to the runner (kit.ts), unless it is there already; refused
   * when the runner's node cannot load its native terminal module (another ABI, CPU or OS).
   */
  async install(
    name: string,
  ): Promise<{ name: string; kit: string; dir: string; files: number; bytes: number; already: boolean }> {
    const r = await this.row(name);
    const probe = await this.probe(r);
    const here = { modules: process.versions.modules, arch: process.arch, platform: process.platform };
    if (probe.modules !== here.modules || probe.arch !== here.arch || probe.platform !== here.platform)
      throw new YardError(
        "CONFLICT",
        `${this.where(r)} runs node ${probe.node} (ABI ${probe.modules}, ${probe.platform}-${probe.arch}); this board's pane host needs ABI ${here.modules} on ${here.platform}-${here.arch} (node ${process.version}): install that node on the runner`,
        { runner: probe, board: here },
      );
    const kit = buildKit();
    if (probe.kits.includes(kit.name))
      return {
        name,
        kit: kit.name,
        dir: `${probe.base}/${kit.name}`,
        files: kit.files.length,
        bytes: kit.bytes,
        already: true,
      };
    const out = await this.sendFiles<{ dir: string; files: number; bytes: number }>(
      r,
      unpackCommand(kit.name),
      kit.files,
      "the kit did not unpack",
    );
    if (out.files !== kit.files.length || out.bytes !== kit.bytes)
      throw new YardError("RUNNER_UNAVAILABLE", `${this.where(r)}: ${out.files} of ${kit.files.length} files arrived`);
    return { name, kit: kit.name, dir: out.dir, files: out.files, bytes: out.bytes, already: false };
  }

  /**
   * Trusts the runner's host key whose fingerprint a person checked: the key the host presents now
   * with exactly that fingerprint is added to the runner's known_hosts; any other is refused.
   */
  async trust(name: string, fingerprint: string): Promise<{ name: string; fingerprint: string; type: string }> {
    const r = await this.row(name);
    const keys = await scanHostKeys(r.host, r.port);
    const key = keys.find((k) => k.fingerprint === fingerprint);
    if (!key)
      throw new YardError(
        "CONFLICT",
        `${this.where(r)} presents ${keys.map((k) => `${k.fingerprint} (${k.type})`).join(", ")}, not ${fingerprint}: nothing was trusted`,
        { presented: keys.map((k) => ({ type: k.type, fingerprint: k.fingerprint })) },
      );
    mkdirSync(this.dir(name), { recursive: true, mode: 0o700 });
    const file = this.trustedFile(name);
    // One trusted key per runner: a new trust replaces the old one (a reinstalled machine).
    writeFileSync(file, `${key.line}\n`, { mode: 0o600 });
    chmodSync(file, 0o600);
    await this.deps.store.trusted(name, fingerprint);
    return { name, fingerprint, type: key.type };
  }
}

function view(r: RunnerRow): RunnerView {
  let labels: string[] = [];
  try {
    labels = JSON.parse(r.labels) as string[];
  } catch {}
  let lastCheck: CheckResult | null = null;
  try {
    lastCheck = r.lastCheck ? (JSON.parse(r.lastCheck) as CheckResult) : null;
  } catch {}
  return {
    name: r.name,
    user: r.user,
    host: r.host,
    port: r.port,
    identityFile: r.identityFile,
    knownHostsFile: r.knownHostsFile,
    labels,
    capacity: r.capacity,
    fingerprint: r.fingerprint,
    lastCheck,
    createdAt: r.createdAt.toISOString(),
  };
}
