// The sandbox's command line: which parts of the file system a sandboxed agent sees, which it
// may write, and the bubblewrap argv that sets this up for one spawn. Pure: no file system,
// no environment, no processes; sandbox.ts resolves every path (realpaths that exist) first.
//
// The view inside (bwrap applies mounts in argv order; they are sorted so that a path's
// ancestors always come first, i.e. the most specific rule wins):
//   /                      the host, read-only
//   /dev, /proc            a minimal /dev, the sandbox's own /proc (new pid namespace)
//   /tmp, /run             empty and private (tmpfs); hides other programs' sockets there
//   <data dir>             empty and read-only (tmpfs, mode 0555): the token, the database,
//                          other tasks' worktrees and sandboxes are not visible
//   <worktree>             the task's worktree, read-write; its `.git` file read-only
//   <common git dir>/{objects,refs}        read-write (commits, the branch)
//   <common git dir>/logs  the task's own reflogs, read-write: a private directory of the
//                          sandbox mounted over the repository's (the host's git appends to the
//                          real reflogs, so a link planted there would make it write a host file)
//   <common git dir>/worktrees/<name>      read-write (HEAD, index), except its `commondir`,
//                          `gitdir` and `config.worktree` files, read-only
//   <sandbox home>, <sandbox tmp>          read-write, per task ($HOME, $TMPDIR)
//   /run/switchyard/       the data dir's run/ directory, read-only: the server's API socket
//                          (api.sock, the only way out when the network is unshared) and the
//                          pane host's hook relay (hook.sock). The directory, not the socket
//                          files, so a restarted server's new socket is seen by running agents
//   read-only re-exposures for what the pane must run (node, the Switchyard checkout, the
//   `yard` shim, git's global config) when they lie under one of the hidden directories.
// The common git dir itself (config, hooks, info, packed-refs) stays read-only: the host runs
// git in these repositories, so a sandboxed agent must not plant hooks, config or a
// redirecting `.git`/`commondir` file that the host would then follow.
//
// Signals: bwrap's own processes must not die of the signals meant for the agent (Ctrl-C in a
// cooked-mode program, the pane's SIGTERM on kill), or --die-with-parent would SIGKILL the agent
// before it could exit cleanly. So bwrap is started with HUP, INT, QUIT, TERM and TSTP ignored
// and the agent is started with them back at their defaults (GNU env --ignore-signal and
// --default-signal). No --new-session: the agent keeps the pane's PTY as its controlling
// terminal (job control, /dev/tty); TIOCSTI could then only push input into its own PTY.
import path from "node:path";
import { YardError } from "../errors";

/** Where the data dir's run/ directory (the sockets panes may use) appears inside every sandbox. */
export const SANDBOX_RUN_DIR = "/run/switchyard";
/** The server's API socket inside every sandbox. */
export const SANDBOX_SOCKET = `${SANDBOX_RUN_DIR}/api.sock`;
/** The pane host's hook relay inside every sandbox. */
export const SANDBOX_HOOK_SOCKET = `${SANDBOX_RUN_DIR}/hook.sock`;
/** Signals bwrap ignores and the agent gets back at their defaults. */
export const AGENT_SIGNALS = "HUP,INT,QUIT,TERM,TSTP";
/** Directories that are replaced by empty private ones inside (besides the data dir). */
const PRIVATE_DIRS = ["/tmp", "/run"] as const;

export interface SandboxPlan {
  /** Absolute path of bwrap. */
  bwrap: string;
  /** Absolute path of a GNU env (coreutils 8.31 or newer). */
  env: string;
  /** The task's worktree (read-write). */
  worktree: string;
  /** The worktree's own git dir: <commonDir>/worktrees/<name>. */
  gitDir: string;
  /** The repository's common git dir (<repo>/.git). */
  commonDir: string;
  /** Switchyard's data dir ($YARD_HOME): hidden. */
  dataDir: string;
  /** Per-task home and temp dirs (read-write). */
  home: string;
  tmp: string;
  /** The task's own reflogs, mounted over <commonDir>/logs. */
  logs: string;
  /** Host path of the server's API socket; its directory is bound at SANDBOX_RUN_DIR. null binds none. */
  socket: string | null;
  /** Share the host's network (false: a new, empty network namespace). */
  network: boolean;
  /** The worktree and its git metadata are read-only (an agent reviewer reads, never writes); home and tmp stay writable. */
  worktreeReadOnly?: boolean;
  /** Paths that must stay readable (re-exposed when a hidden directory covers them). */
  readOnly: string[];
  /** The file /etc/resolv.conf resolves to, when it lies under a hidden directory (DNS with network on). */
  resolvConf?: string | null;
  /**
   * Pass --cap-drop ALL (default true). Needed when the server runs as root, where bwrap keeps
   * every capability otherwise; for other users bwrap drops them all by itself, and a setuid bwrap
   * refuses the flag from them.
   */
  dropCapabilities?: boolean;
}

export type Mount =
  | { op: "--tmpfs"; dest: string; perms?: string }
  | { op: "--ro-bind" | "--bind"; src: string; dest: string };

const depth = (p: string) => (p === "/" ? 0 : p.split("/").length - 1);
const within = (p: string, dir: string) => p === dir || p.startsWith(dir.endsWith("/") ? dir : `${dir}/`);

function checkPath(p: string, what: string): string {
  if (typeof p !== "string" || !path.isAbsolute(p) || /[\0\r\n]/.test(p)) {
    throw new YardError("BAD_PARAMS", `sandbox: ${what} must be an absolute path without control characters`, {
      [what]: p ?? null,
    });
  }
  const n = path.resolve(p);
  if (n === "/") throw new YardError("BAD_PARAMS", `sandbox: ${what} must not be /`, { [what]: p });
  return n;
}

/** The mounts after the fixed base (read-only /, /dev, /proc), in the order bwrap must apply them. */
export function sandboxMounts(plan: SandboxPlan): Mount[] {
  const dataDir = checkPath(plan.dataDir, "dataDir");
  const worktree = checkPath(plan.worktree, "worktree");
  const gitDir = checkPath(plan.gitDir, "gitDir");
  const commonDir = checkPath(plan.commonDir, "commonDir");
  const home = checkPath(plan.home, "home");
  const tmp = checkPath(plan.tmp, "tmp");
  const logs = checkPath(plan.logs, "logs");
  const hidden = [...PRIVATE_DIRS, dataDir];
  const isHidden = (p: string) => hidden.some((h) => within(p, h));
  for (const [what, p] of [
    ["worktree", worktree],
    ["home", home],
    ["tmp", tmp],
  ] as const) {
    if (hidden.includes(p))
      throw new YardError("BAD_PARAMS", `sandbox: the ${what} must not be ${p} itself`, { [what]: p });
  }
  if (!within(gitDir, commonDir))
    throw new YardError(
      "BAD_PARAMS",
      "sandbox: the worktree's git dir must lie inside the repository's common git dir",
      { gitDir, commonDir },
    );

  // Rank breaks ties between mounts at the same depth: hide first, then re-expose, then grant,
  // then protect (a later mount on the same path wins).
  const rules: { m: Mount; rank: number }[] = [];
  const add = (m: Mount, rank: number) => rules.push({ m, rank });
  for (const d of PRIVATE_DIRS) add({ op: "--tmpfs", dest: d }, 0);
  add({ op: "--tmpfs", dest: dataDir, perms: "0555" }, 0);

  const exposures = new Set<string>();
  for (const raw of [...plan.readOnly, commonDir]) {
    const p = checkPath(raw, "readOnly");
    // Re-exposing a hidden directory itself would undo the hiding.
    if (hidden.includes(p)) continue;
    if (isHidden(p)) exposures.add(p);
  }
  for (const p of exposures) add({ op: "--ro-bind", src: p, dest: p }, 1);
  if (plan.network && plan.resolvConf) {
    const r = checkPath(plan.resolvConf, "resolvConf");
    if (isHidden(r)) add({ op: "--ro-bind", src: r, dest: r }, 1);
  }

  for (const p of [worktree, path.join(commonDir, "objects"), path.join(commonDir, "refs"), gitDir]) {
    add({ op: plan.worktreeReadOnly ? "--ro-bind" : "--bind", src: p, dest: p }, 2);
  }
  add({ op: plan.worktreeReadOnly ? "--ro-bind" : "--bind", src: logs, dest: path.join(commonDir, "logs") }, 2);
  for (const p of [home, tmp]) add({ op: "--bind", src: p, dest: p }, 2);
  for (const p of [
    path.join(worktree, ".git"),
    path.join(gitDir, "commondir"),
    path.join(gitDir, "gitdir"),
    path.join(gitDir, "config.worktree"),
  ]) {
    add({ op: "--ro-bind", src: p, dest: p }, 3);
  }
  if (plan.socket)
    add({ op: "--ro-bind", src: path.dirname(checkPath(plan.socket, "socket")), dest: SANDBOX_RUN_DIR }, 4);

  // Stable sort: ancestors before descendants; same depth by rank, then insertion order.
  return rules
    .map((r, i) => ({ ...r, i }))
    .sort((a, b) => depth(a.m.dest) - depth(b.m.dest) || a.rank - b.rank || a.i - b.i)
    .map((r) => r.m);
}

/** The full argv: env (signals ignored) → bwrap … → env (signals reset) → the agent's argv. */
export function buildSandboxArgv(plan: SandboxPlan, command: string[]): string[] {
  if (!command.length || !command[0]) throw new YardError("BAD_PARAMS", "sandbox: nothing to run");
  // env would take a first word with "=" for a variable assignment.
  if (command[0].includes("="))
    throw new YardError("BAD_PARAMS", `sandbox: the program name must not contain "=" (${command[0]})`, {
      program: command[0],
    });
  const bwrap = checkPath(plan.bwrap, "bwrap");
  const env = checkPath(plan.env, "env");
  const out: string[] = [
    env,
    `--ignore-signal=${AGENT_SIGNALS}`,
    bwrap,
    "--ro-bind",
    "/",
    "/",
    "--dev",
    "/dev",
    "--proc",
    "/proc",
  ];
  for (const m of sandboxMounts(plan)) {
    if (m.op === "--tmpfs") {
      if (m.perms) out.push("--perms", m.perms);
      out.push("--tmpfs", m.dest);
    } else out.push(m.op, m.src, m.dest);
  }
  out.push("--unshare-pid", "--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try");
  if (!plan.network) out.push("--unshare-net");
  out.push("--die-with-parent");
  if (plan.dropCapabilities ?? true) out.push("--cap-drop", "ALL");
  out.push("--chdir", checkPath(plan.worktree, "worktree"), "--", env, `--default-signal=${AGENT_SIGNALS}`, ...command);
  return out;
}

/** The fixed probe: the same launcher, flags and kinds of mounts as a real spawn, running `true`. */
export function probeArgv(bwrap: string, env: string, dropCapabilities = true): string[] {
  return [
    env,
    `--ignore-signal=${AGENT_SIGNALS}`,
    bwrap,
    "--ro-bind",
    "/",
    "/",
    "--dev",
    "/dev",
    "--proc",
    "/proc",
    "--tmpfs",
    "/tmp",
    "--perms",
    "0555",
    "--tmpfs",
    "/run",
    "--unshare-pid",
    "--unshare-ipc",
    "--unshare-uts",
    "--unshare-cgroup-try",
    "--unshare-net",
    "--die-with-parent",
    ...(dropCapabilities ? ["--cap-drop", "ALL"] : []),
    "--",
    env,
    `--default-signal=${AGENT_SIGNALS}`,
    "true",
  ];
}
