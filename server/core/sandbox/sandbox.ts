// The sandbox service: whether sandboxed spawns can start here (probed once and cached; a
// failed probe is run again at the next request, so installing bubblewrap needs no restart),
// the refusal as a typed SANDBOX_UNAVAILABLE error that says why, and preparing one task's
// launch: its private home and temp dirs (0700, under <data dir>/sandbox/<task id>), the git
// paths its worktree needs, and the wrapper the pane manager applies to the agent's argv and
// environment just before spawning. The mount policy itself lives in argv.ts.
import { chmodSync, closeSync, existsSync, mkdirSync, openSync, realpathSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { REPO_ROOT } from "../../root";
import { YardError } from "../errors";
import { inspectRepo } from "../git/repo";
import { buildSandboxArgv, SANDBOX_HOOK_SOCKET, SANDBOX_SOCKET, type SandboxPlan } from "./argv";
import { probeSandbox, runningAsRoot, type SandboxAvailability } from "./probe";

/** What the pane manager applies to a spawn: the agent's argv and env in, the sandboxed ones out. */
export interface SandboxLaunch {
  network: boolean;
  wrap(argv: string[], env: Record<string, string>): { argv: string[]; env: Record<string, string> };
}

/** Whether the server's API socket is listening (its path), or why not. */
export type ApiSocketState = { path: string } | { error: string };

export interface SandboxOptions {
  /** The data dir ($YARD_HOME). */
  home: string;
  /** bwrap to use: a path, or a name looked up on searchPath. */
  bwrap: string;
  apiSocket: () => ApiSocketState;
  /** PATH used to find bwrap and env (default: the server's PATH). */
  searchPath?: string;
  /** The user's global git config, made visible as GIT_CONFIG_GLOBAL (the sandbox has its own HOME). */
  gitGlobalConfig?: string | null;
}

const TASK_ID = /^[A-Za-z0-9_-]{1,64}$/;

export class Sandbox {
  private probe: Promise<SandboxAvailability> | null = null;
  private readonly gitGlobalConfig: string | null;

  constructor(private readonly opts: SandboxOptions) {
    this.gitGlobalConfig = opts.gitGlobalConfig !== undefined ? opts.gitGlobalConfig : findGitGlobalConfig();
  }

  async availability(): Promise<SandboxAvailability> {
    const probe = (this.probe ??= probeSandbox({
      bwrap: this.opts.bwrap,
      searchPath: this.opts.searchPath ?? process.env.PATH,
    }));
    const a = await probe;
    if (!a.ok) {
      if (this.probe === probe) this.probe = null;
      return a;
    }
    const socket = this.opts.apiSocket();
    if ("error" in socket) {
      return {
        ok: false,
        reason: "socket_unavailable",
        message: `The server's API socket is not available, so a sandboxed agent (no network) could not reach the server: ${socket.error}`,
      };
    }
    return a;
  }

  /** Throws SANDBOX_UNAVAILABLE with the reason when a sandboxed spawn cannot start. */
  async require(): Promise<{ bwrap: string; env: string; socket: string }> {
    const a = await this.availability();
    if (!a.ok)
      throw new YardError("SANDBOX_UNAVAILABLE", a.message, {
        reason: a.reason,
        ...(a.stderr ? { stderr: a.stderr } : {}),
      });
    const socket = this.opts.apiSocket() as { path: string };
    return { bwrap: a.bwrap, env: a.env, socket: socket.path };
  }

  /** The task's private dirs on the host (bound at the same paths inside). */
  dirs(taskId: string): { root: string; home: string; tmp: string; logs: string } {
    if (!TASK_ID.test(taskId)) throw new YardError("BAD_PARAMS", "sandbox: bad task id", { taskId });
    const root = path.join(this.opts.home, "sandbox", taskId);
    return { root, home: path.join(root, "home"), tmp: path.join(root, "tmp"), logs: path.join(root, "git-logs") };
  }

  /** Everything one sandboxed spawn for a task's worktree needs; the worktree must exist. */
  async prepare(opts: {
    taskId: string;
    worktreePath: string;
    network: boolean;
    worktreeReadOnly?: boolean;
  }): Promise<SandboxLaunch> {
    const tools = await this.require();
    const repo = await inspectRepo(opts.worktreePath);
    if (repo.gitDir === repo.commonDir) {
      throw new YardError(
        "BAD_PARAMS",
        `sandbox: ${repo.root} is not a linked worktree; sandboxed agents run in a task's own worktree`,
        { worktreePath: repo.root },
      );
    }
    const dataDir = realpathSync(this.opts.home);
    const d = this.dirs(opts.taskId);
    for (const dir of [path.join(dataDir, "sandbox"), d.root, d.home, d.tmp, d.logs]) {
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      chmodSync(dir, 0o700);
    }
    // The paths bwrap binds must exist; git creates logs/ lazily, config.worktree rarely.
    mkdirSync(path.join(repo.commonDir, "logs"), { recursive: true });
    mkdirSync(path.join(d.logs, "refs", "heads"), { recursive: true });
    const configWorktree = path.join(repo.gitDir, "config.worktree");
    if (!existsSync(configWorktree)) closeSync(openSync(configWorktree, "a"));

    const readOnly = [REPO_ROOT, path.join(dataDir, "bin"), path.dirname(realpathSync(process.execPath))];
    const modules = path.join(REPO_ROOT, "node_modules");
    if (existsSync(modules)) readOnly.push(realpathSync(modules));
    if (this.gitGlobalConfig) readOnly.push(this.gitGlobalConfig);
    let resolvConf: string | null = null;
    try {
      resolvConf = realpathSync("/etc/resolv.conf");
    } catch {
      /* no DNS configuration */
    }
    const plan: SandboxPlan = {
      bwrap: tools.bwrap,
      env: tools.env,
      worktree: repo.root,
      gitDir: repo.gitDir,
      commonDir: repo.commonDir,
      dataDir,
      home: realpathSync(d.home),
      tmp: realpathSync(d.tmp),
      logs: realpathSync(d.logs),
      socket: tools.socket,
      network: opts.network,
      worktreeReadOnly: opts.worktreeReadOnly ?? false,
      readOnly: readOnly.filter((p) => existsSync(p)),
      resolvConf,
      dropCapabilities: runningAsRoot(),
    };
    const gitGlobal = this.gitGlobalConfig;
    return {
      network: opts.network,
      wrap(argv, env) {
        const out: Record<string, string> = {
          ...env,
          HOME: plan.home,
          TMPDIR: plan.tmp,
          XDG_RUNTIME_DIR: plan.tmp,
          YARD_SOCKET: SANDBOX_SOCKET,
          YARD_HOOK_SOCKET: SANDBOX_HOOK_SOCKET,
        };
        // Agents of the host's session (ssh-agent, the D-Bus session bus) stay outside.
        delete out.SSH_AUTH_SOCK;
        delete out.DBUS_SESSION_BUS_ADDRESS;
        if (gitGlobal && !env.GIT_CONFIG_GLOBAL) out.GIT_CONFIG_GLOBAL = gitGlobal;
        // No automatic gc inside: it would prune objects that only the repository's real
        // reflogs (which the sandbox does not see) keep alive.
        Object.assign(out, gitConfigEnv(env, [["gc.auto", "0"]]));
        return { argv: buildSandboxArgv(plan, argv), env: out };
      },
    };
  }
}

/** GIT_CONFIG_COUNT/KEY_n/VALUE_n variables that add `pairs` after any the environment already has. */
function gitConfigEnv(env: Record<string, string>, pairs: Array<[string, string]>): Record<string, string> {
  const n = Number(env.GIT_CONFIG_COUNT ?? 0);
  const start = Number.isInteger(n) && n >= 0 ? n : 0;
  const out: Record<string, string> = { GIT_CONFIG_COUNT: String(start + pairs.length) };
  pairs.forEach(([k, v], i) => {
    out[`GIT_CONFIG_KEY_${start + i}`] = k;
    out[`GIT_CONFIG_VALUE_${start + i}`] = v;
  });
  return out;
}

/** The user's global git config file, if any (git looks for it under $HOME, which the sandbox replaces). */
function findGitGlobalConfig(): string | null {
  const home = os.homedir();
  const xdg = process.env.XDG_CONFIG_HOME || path.join(home, ".config");
  for (const p of [path.join(home, ".gitconfig"), path.join(xdg, "git", "config")]) {
    try {
      if (statSync(p).isFile()) return realpathSync(p);
    } catch {
      /* next */
    }
  }
  return null;
}
