// Creating a pane: validating the spawn input, resolving what runs (launch.ts) and where, the
// pane's environment (YARD_URL, a pane-scoped YARD_TOKEN, YARD_PANE, lineage, `yard` first on
// PATH, the host's hook relay, the certificate to trust when the server speaks HTTPS), its row, asking the host to spawn it (inside the OS sandbox when
// the task engine says so) and, once the host answers, its entry in the registry and its first
// lifecycle event. A spawn the host refuses leaves an exited row (exit code 127) and a journal
// entry. Also installs the `yard` launcher every pane's PATH starts with.
import type { PaneRole } from "../agents/roles";
import { chmodSync, existsSync, mkdirSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import { paths, socketPathFits } from "../../config";
import { absolutePath } from "../../wire/common";
import { REPO_ROOT } from "../../root";
import { newPaneToken } from "../../security/token";
import type { PaneStore } from "../../stores/panes";
import { type AgentProfiles, argvSchema, envSchema } from "../agents/profiles";
import { YardError } from "../errors";
import type { EventJournal } from "../events/journal";
import { newId } from "../ids";
import { setupArgv } from "../repo/setup-argv";
import type { SandboxLaunch } from "../sandbox/sandbox";
import type { PaneHostPort } from "./host-port";
import { type Launch, resolveLaunch } from "./launch";
import { initialPaneState } from "./lifecycle";
import type { LifecycleDriver } from "./lifecycle-driver";
import { type PaneInfo, type PaneRegistry, toInfo } from "./registry";

export const spawnInput = z
  .object({
    argv: argvSchema.optional(),
    agent: z
      .string()
      .regex(/^[a-z0-9][a-z0-9-]{0,39}$/)
      .optional(),
    cwd: absolutePath.optional(),
    env: envSchema.optional(),
    label: z.string().trim().min(1).max(120).optional(),
    parentPaneId: z
      .string()
      .regex(/^pane[a-z0-9]+$/)
      .optional(),
    relationship: z.enum(["fork", "subagent"]).optional(),
    cols: z.number().int().min(10).max(1000).optional(),
    rows: z.number().int().min(4).max(500).optional(),
  })
  .refine((v) => (v.argv ? !v.agent : Boolean(v.agent)), {
    message: "give either an agent profile or argv (a command), not both",
  })
  .refine((v) => !v.relationship || v.parentPaneId, {
    message: "relationship needs a parent pane",
    path: ["relationship"],
  });
export type SpawnInput = z.input<typeof spawnInput>;

export interface SpawnExtras {
  taskId?: string;
  /** What the pane's token may call (default: worker for a task's pane, orchestrator otherwise). */
  role?: PaneRole;
  /** The launch the caller resolved already (a task start resolves it once, at validation). */
  launch?: Launch;
  extraEnv?: Record<string, string>;
  /**
   * The task engine's sandbox decision: a launch wraps the process in the OS sandbox, null runs
   * it unsandboxed. Left undefined (a pane spawned directly), a profile that asks for the sandbox
   * is refused: the sandbox needs a task's worktree.
   */
  sandbox?: SandboxLaunch | null;
  /** The profile's argv rewritten for this launch (e.g. resuming the agent's session); recorded as run. */
  rewriteArgv?: (argv: string[]) => string[];
  /**
   * The repository's setup commands: run in the pane before the agent (core/repo/setup-argv.ts),
   * which only starts when they succeed. The recorded argv stays the agent's own.
   */
  setup?: readonly string[];
  /**
   * The runner whose pane host runs it (absent: this machine's). `cwd` is then a path there, the
   * environment the runner's own with the pane's variables over it, `yard` the kit's (reaching the
   * board through the socket forwarded there), and the board's paths in the argv the kit's.
   */
  runner?: string;
}

/** The argv with this board's node and checkout replaced by the runner's node and its kit. */
function argvOnRunner(argv: readonly string[], kit: string): string[] {
  return argv.map((a) => {
    if (a === process.execPath) return "node";
    if (a === REPO_ROOT || a.startsWith(`${REPO_ROOT}/`)) return `${kit}${a.slice(REPO_ROOT.length)}`;
    return a;
  });
}

export interface SpawnerDeps {
  store: PaneStore;
  journal: EventJournal;
  agents: AgentProfiles;
  home: string;
  url: () => string;
  host: PaneHostPort;
  registry: PaneRegistry;
  lifecycle: LifecycleDriver;
  /** Scrollback lines of each pane's mirror. */
  scrollback: number;
  backpressure?: { highBytes: number; lowBytes: number };
  /** The server is shutting down: no new panes. */
  closing: () => boolean;
}

export class PaneSpawner {
  private readonly binDir: string;

  constructor(private readonly deps: SpawnerDeps) {
    this.binDir = path.join(deps.home, "bin");
    this.installYardShim();
  }

  /**
   * `yard` on every pane's PATH: a tiny launcher for this checkout's CLI with this Node. It drops
   * NODE_EXTRA_CA_CERTS, which the agent itself may need for its API: `yard` only talks to this
   * server over loopback (over HTTPS trusting only the server's own certificate, YARD_SERVER_CERT),
   * and Node parses that file at every start (~45 ms for a system bundle,
   * on every hook and every call an agent makes).
   */
  private installYardShim() {
    mkdirSync(this.binDir, { recursive: true, mode: 0o700 });
    const shim = path.join(this.binDir, "yard");
    const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
    const body = `#!/bin/sh\nunset NODE_EXTRA_CA_CERTS\nexec ${q(process.execPath)} ${q(path.join(REPO_ROOT, "cli/bin/yard.js"))} "$@"\n`;
    writeFileSync(shim, body, { mode: 0o700 });
    chmodSync(shim, 0o700);
  }

  /** The PATH every pane gets: `yard` first, then the server's own. */
  panePath(): string {
    return `${this.binDir}${path.delimiter}${process.env.PATH ?? "/usr/bin:/bin"}`;
  }

  /** What a spawn would run; refuses (BAD_PARAMS, NOT_FOUND) before anything is created. */
  resolveLaunch(opts: { agent?: string; argv?: string[] }): Promise<Launch> {
    return resolveLaunch(this.deps.agents, { agent: opts.agent, argv: opts.argv, pathEnv: this.panePath() });
  }

  async spawn(input: SpawnInput, extras: SpawnExtras = {}): Promise<PaneInfo> {
    if (this.deps.closing()) throw new YardError("CONFLICT", "The server is shutting down");
    const opts = spawnInput.parse(input);
    const runner = extras.runner ?? null;
    if (runner && !opts.cwd) throw new YardError("BAD_PARAMS", "a pane on a runner needs its directory there");
    const cwd = opts.cwd ?? path.resolve(process.env.HOME ?? "/");
    if (!runner && (!existsSync(cwd) || !statSync(cwd).isDirectory()))
      throw new YardError("BAD_PARAMS", `cwd ${cwd} is not a directory`, { cwd });
    if (runner && extras.sandbox)
      throw new YardError("BAD_PARAMS", "The OS sandbox does not run on runners yet: start it without --sandbox");
    const placement = runner ? await this.deps.host.placement?.(runner) : undefined;
    if (runner && !placement) throw new YardError("RUNNER_UNAVAILABLE", `runner ${runner} is not open here`);

    let parent: { id: string; rootPaneId: string | null } | null = null;
    if (opts.parentPaneId) {
      parent = await this.deps.store.lineage(opts.parentPaneId);
      if (!parent)
        throw new YardError("NOT_FOUND", `No parent pane ${opts.parentPaneId}`, { parentPaneId: opts.parentPaneId });
    }

    const launch = extras.launch ?? (await this.resolveLaunch(opts));
    const argv = extras.rewriteArgv ? extras.rewriteArgv(launch.argv) : launch.argv;
    const { hooks } = launch;
    const profileEnv = launch.env;
    if (launch.sandbox && extras.sandbox === undefined) {
      throw new YardError(
        "BAD_PARAMS",
        `Agent profile ${launch.agent} runs in the OS sandbox, which needs a task's worktree: start it as a task (yard task start --agent ${launch.agent})`,
        { agent: launch.agent },
      );
    }

    const id = newId("pane");
    const { token, hash } = newPaneToken(id);
    const cols = opts.cols ?? 120;
    const rows = opts.rows ?? 32;
    const env: Record<string, string> = {};
    // On a runner the host's own environment is the base (inherit below), not this machine's.
    if (!placement)
      for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !k.startsWith("YARD_")) env[k] = v;
    Object.assign(env, profileEnv, opts.env ?? {}, extras.extraEnv ?? {}, {
      TERM: "xterm-256color",
      COLORTERM: "truecolor",
      YARD_URL: this.deps.url(),
      YARD_TOKEN: token,
      YARD_PANE: id,
    });
    if (placement) {
      // The board's API socket as forwarded to the runner: the pane's `yard` reaches the board only there.
      env.YARD_SOCKET = placement.board;
      // …and its host's hook relay there, for hooks posted while the board restarts.
      if (placement.relay) env.YARD_HOOK_SOCKET = placement.relay;
    } else {
      env.PATH = this.panePath();
      // The pane host's hook relay, for hooks posted while the server restarts (none where its path is too long).
      const relay = paths(this.deps.home).hookSocket;
      if (socketPathFits(relay)) env.YARD_HOOK_SOCKET = relay;
      // An https server publishes its certificate there (security/tls.ts): the pane's yard trusts only it.
      if (env.YARD_URL!.startsWith("https:")) env.YARD_SERVER_CERT = paths(this.deps.home).serverCert;
    }
    if (parent) env.YARD_PARENT_PANE = parent.id;
    if (extras.taskId) env.YARD_TASK = extras.taskId;
    const role: PaneRole = extras.role ?? (extras.taskId ? "worker" : "orchestrator");
    env.YARD_ROLE = role;

    const rootPaneId = parent ? (parent.rootPaneId ?? parent.id) : id;
    const row = await this.deps.store.create({
      id,
      argv: JSON.stringify(argv),
      cwd,
      label: opts.label ?? null,
      parentPaneId: parent?.id ?? null,
      rootPaneId,
      relationship: opts.relationship ?? null,
      taskId: extras.taskId ?? null,
      agent: opts.agent ?? null,
      cols,
      rows,
      tokenHash: hash,
      sandboxed: Boolean(extras.sandbox),
      role,
      runner,
    });

    let pid: number;
    const started = (async () => {
      // The sandbox hook point: what actually gets spawned (the recorded argv stays the agent's own).
      const inner = extras.setup?.length ? setupArgv(extras.setup, argv) : argv;
      const run = extras.sandbox ? extras.sandbox.wrap(inner, env) : { argv: inner, env };
      const there = placement ? { inherit: { pathPrefix: `${placement.kit}/bin` } } : {};
      return this.deps.host.request(
        "spawn",
        {
          paneId: id,
          argv: placement ? argvOnRunner(run.argv, placement.kit) : run.argv,
          env: run.env,
          ...there,
          cwd,
          cols,
          rows,
          scrollback: this.deps.scrollback,
          activity: !hooks,
          tokenHash: hash,
          meta: { hooks, ...(extras.sandbox ? { sandboxNetwork: extras.sandbox.network } : {}) },
          ...(this.deps.backpressure ? { backpressure: this.deps.backpressure } : {}),
        },
        { on: runner },
      );
    })();
    this.deps.registry.spawnStarted(
      id,
      started.catch(() => {}),
    );
    try {
      pid = (await started).pid;
    } catch (e) {
      this.deps.registry.spawnHandled(id);
      await this.deps.store.spawnFailed(id);
      await this.deps.journal.append("pane.exit", {
        paneId: id,
        taskId: extras.taskId,
        payload: { exitCode: 127, error: (e as Error).message },
      });
      if (e instanceof YardError && e.code !== "BAD_PARAMS") throw e;
      throw new YardError("BAD_PARAMS", `Could not start ${argv[0]}: ${(e as Error).message}`, { argv });
    }

    // The sandbox's network is kept with the live pane: what its token's caller may start (roles.ts sandboxRefusal).
    const pane = this.deps.registry.track({ ...toInfo(row), pid, live: true }, initialPaneState(), hooks, {
      sandboxNetwork: extras.sandbox?.network,
      settingUp: Boolean(extras.setup?.length),
    });
    this.deps.registry.spawnHandled(id);
    void this.deps.journal.append("pane.spawned", {
      paneId: id,
      taskId: extras.taskId,
      payload: {
        argv,
        cwd,
        label: pane.info.label,
        parentPaneId: pane.info.parentPaneId,
        agent: pane.info.agent,
        kind: launch.kind,
        sandboxed: pane.info.sandboxed,
        ...(runner ? { runner } : {}),
        ...(extras.sandbox ? { network: extras.sandbox.network } : {}),
      },
    });
    this.deps.lifecycle.apply(pane, { type: "spawned", at: Date.now() });
    this.deps.lifecycle.persist(pane, { pid });
    await pane.persist;
    if (!pane.hooks) this.deps.lifecycle.armQuiescence(pane);
    return { ...pane.info };
  }
}
