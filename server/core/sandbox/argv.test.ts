// The sandbox's argv and mount policy (pure, table-driven), failure classification, and the
// real start-up probe against the installed bwrap.
import { describe, expect, it } from "vitest";
import { YardError } from "../errors";
import { AGENT_SIGNALS, buildSandboxArgv, type Mount, SANDBOX_RUN_DIR, type SandboxPlan, sandboxMounts } from "./argv";
import { classifyProbeFailure, probeSandbox } from "./probe";

const base: SandboxPlan = {
  bwrap: "/usr/bin/bwrap",
  env: "/usr/bin/env",
  worktree: "/home/u/.local/share/switchyard/worktrees/proj-1a2b3c4d/yard-task",
  gitDir: "/home/u/code/proj/.git/worktrees/yard-task",
  commonDir: "/home/u/code/proj/.git",
  dataDir: "/home/u/.local/share/switchyard",
  home: "/home/u/.local/share/switchyard/sandbox/tsk1/home",
  tmp: "/home/u/.local/share/switchyard/sandbox/tsk1/tmp",
  logs: "/home/u/.local/share/switchyard/sandbox/tsk1/git-logs",
  socket: "/home/u/.local/share/switchyard/run/api.sock",
  network: false,
  readOnly: ["/opt/switchyard", "/home/u/.local/share/switchyard/bin", "/usr/bin"],
  resolvConf: "/run/systemd/resolve/stub-resolv.conf",
};

const spaced: SandboxPlan = {
  ...base,
  worktree: "/home/u/my data/switchyard/worktrees/my proj-1a2b3c4d/yard-task one",
  gitDir: "/home/u/my code/my proj/.git/worktrees/yard-task one",
  commonDir: "/home/u/my code/my proj/.git",
  dataDir: "/home/u/my data/switchyard",
  home: "/home/u/my data/switchyard/sandbox/tsk1/home",
  tmp: "/home/u/my data/switchyard/sandbox/tsk1/tmp",
  logs: "/home/u/my data/switchyard/sandbox/tsk1/git-logs",
  socket: "/home/u/my data/switchyard/run/api.sock",
  readOnly: ["/home/u/my data/switchyard/bin"],
};

const ops = (mounts: Mount[]) =>
  mounts.map((m) =>
    m.op === "--tmpfs"
      ? `tmpfs${m.perms ? `(${m.perms})` : ""} ${m.dest}`
      : `${m.op === "--bind" ? "rw" : "ro"} ${m.src === m.dest ? m.dest : `${m.src} -> ${m.dest}`}`,
  );
const within = (p: string, dir: string) => p === dir || p.startsWith(`${dir}/`);

describe("a read-only worktree (the agent reviewer)", () => {
  it("binds the worktree and its git metadata read-only; only home and tmp are writable", () => {
    const mounts = sandboxMounts({ ...base, worktreeReadOnly: true });
    expect(
      mounts
        .filter((m) => m.op === "--bind")
        .map((m) => m.dest)
        .sort(),
    ).toEqual([base.home, base.tmp].sort());
    for (const p of [base.worktree, `${base.commonDir}/objects`, `${base.commonDir}/refs`, base.gitDir])
      expect(mounts).toContainEqual({ op: "--ro-bind", src: p, dest: p });
  });
});

/** Invariants every plan must satisfy, whatever its layout. */
function checkInvariants(plan: SandboxPlan, mounts: Mount[]) {
  const idx = (pred: (m: Mount) => boolean) => mounts.findIndex(pred);
  // A mount never comes before one of its ancestors' mounts (the most specific rule wins).
  for (let i = 0; i < mounts.length; i++) {
    for (let j = i + 1; j < mounts.length; j++) {
      expect(
        within(mounts[i]!.dest, mounts[j]!.dest) && mounts[i]!.dest !== mounts[j]!.dest,
        `${mounts[j]!.dest} must come before ${mounts[i]!.dest}`,
      ).toBe(false);
    }
  }
  // The data dir is hidden, and nothing after that re-exposes it or one of its ancestors.
  const hide = idx((m) => m.op === "--tmpfs" && m.dest === plan.dataDir);
  expect(hide).toBeGreaterThanOrEqual(0);
  expect(mounts[hide]).toEqual({ op: "--tmpfs", dest: plan.dataDir, perms: "0555" });
  for (const m of mounts.slice(hide + 1))
    expect(within(plan.dataDir, m.dest), `${m.dest} re-exposes the data dir`).toBe(false);
  // Exactly these are writable.
  const rw = mounts
    .filter((m) => m.op === "--bind")
    .map((m) => m.dest)
    .sort();
  expect(rw).toEqual(
    [
      plan.worktree,
      `${plan.commonDir}/objects`,
      `${plan.commonDir}/refs`,
      `${plan.commonDir}/logs`,
      plan.gitDir,
      plan.home,
      plan.tmp,
    ].sort(),
  );
  // The reflogs the sandbox writes are its own: the repository's real logs/ is not what is bound there.
  expect(mounts).toContainEqual({ op: "--bind", src: plan.logs, dest: `${plan.commonDir}/logs` });
  // The files the host's git follows are read-only, and bound after what contains them.
  for (const f of [
    `${plan.worktree}/.git`,
    `${plan.gitDir}/commondir`,
    `${plan.gitDir}/gitdir`,
    `${plan.gitDir}/config.worktree`,
  ]) {
    const at = idx((m) => m.op === "--ro-bind" && m.dest === f);
    expect(at, f).toBeGreaterThan(idx((m) => m.op === "--bind" && within(f, m.dest)));
  }
  // /tmp and /run are private.
  for (const d of ["/tmp", "/run"]) expect(mounts).toContainEqual({ op: "--tmpfs", dest: d });
}

describe("sandbox argv", () => {
  const cases: { name: string; plan: SandboxPlan; expectMounts: string[]; network: boolean }[] = [
    {
      name: "default layout (worktree under the data dir), network off",
      plan: base,
      network: false,
      expectMounts: [
        "tmpfs /tmp",
        "tmpfs /run",
        "tmpfs(0555) /home/u/.local/share/switchyard",
        "ro /home/u/.local/share/switchyard/bin",
        `ro /home/u/.local/share/switchyard/run -> ${SANDBOX_RUN_DIR}`,
        "rw /home/u/code/proj/.git/objects",
        "rw /home/u/code/proj/.git/refs",
        "rw /home/u/.local/share/switchyard/sandbox/tsk1/git-logs -> /home/u/code/proj/.git/logs",
        "rw /home/u/code/proj/.git/worktrees/yard-task",
        "ro /home/u/code/proj/.git/worktrees/yard-task/commondir",
        "ro /home/u/code/proj/.git/worktrees/yard-task/gitdir",
        "ro /home/u/code/proj/.git/worktrees/yard-task/config.worktree",
        "rw /home/u/.local/share/switchyard/sandbox/tsk1/home",
        "rw /home/u/.local/share/switchyard/sandbox/tsk1/tmp",
        "rw /home/u/.local/share/switchyard/worktrees/proj-1a2b3c4d/yard-task",
        "ro /home/u/.local/share/switchyard/worktrees/proj-1a2b3c4d/yard-task/.git",
      ],
    },
    {
      name: "network on: the host's DNS configuration stays readable under the private /run",
      plan: { ...base, network: true },
      network: true,
      expectMounts: [
        "tmpfs /tmp",
        "tmpfs /run",
        "tmpfs(0555) /home/u/.local/share/switchyard",
        "ro /home/u/.local/share/switchyard/bin",
        "ro /run/systemd/resolve/stub-resolv.conf",
        `ro /home/u/.local/share/switchyard/run -> ${SANDBOX_RUN_DIR}`,
        "rw /home/u/code/proj/.git/objects",
        "rw /home/u/code/proj/.git/refs",
        "rw /home/u/.local/share/switchyard/sandbox/tsk1/git-logs -> /home/u/code/proj/.git/logs",
        "rw /home/u/code/proj/.git/worktrees/yard-task",
        "ro /home/u/code/proj/.git/worktrees/yard-task/commondir",
        "ro /home/u/code/proj/.git/worktrees/yard-task/gitdir",
        "ro /home/u/code/proj/.git/worktrees/yard-task/config.worktree",
        "rw /home/u/.local/share/switchyard/sandbox/tsk1/home",
        "rw /home/u/.local/share/switchyard/sandbox/tsk1/tmp",
        "rw /home/u/.local/share/switchyard/worktrees/proj-1a2b3c4d/yard-task",
        "ro /home/u/.local/share/switchyard/worktrees/proj-1a2b3c4d/yard-task/.git",
      ],
    },
    {
      name: "paths with spaces",
      plan: spaced,
      network: false,
      expectMounts: [
        "tmpfs /tmp",
        "tmpfs /run",
        "tmpfs(0555) /home/u/my data/switchyard",
        "ro /home/u/my data/switchyard/bin",
        "rw /home/u/my code/my proj/.git/objects",
        "rw /home/u/my code/my proj/.git/refs",
        "rw /home/u/my data/switchyard/sandbox/tsk1/git-logs -> /home/u/my code/my proj/.git/logs",
        `ro /home/u/my data/switchyard/run -> ${SANDBOX_RUN_DIR}`,
        "rw /home/u/my code/my proj/.git/worktrees/yard-task one",
        "ro /home/u/my code/my proj/.git/worktrees/yard-task one/commondir",
        "ro /home/u/my code/my proj/.git/worktrees/yard-task one/gitdir",
        "ro /home/u/my code/my proj/.git/worktrees/yard-task one/config.worktree",
        "rw /home/u/my data/switchyard/sandbox/tsk1/home",
        "rw /home/u/my data/switchyard/sandbox/tsk1/tmp",
        "rw /home/u/my data/switchyard/worktrees/my proj-1a2b3c4d/yard-task one",
        "ro /home/u/my data/switchyard/worktrees/my proj-1a2b3c4d/yard-task one/.git",
      ],
    },
    {
      name: "explicit worktree path outside the data dir",
      plan: { ...base, worktree: "/srv/work/task one" },
      network: false,
      expectMounts: [
        "tmpfs /tmp",
        "tmpfs /run",
        "rw /srv/work/task one",
        "ro /srv/work/task one/.git",
        "tmpfs(0555) /home/u/.local/share/switchyard",
        "ro /home/u/.local/share/switchyard/bin",
        `ro /home/u/.local/share/switchyard/run -> ${SANDBOX_RUN_DIR}`,
        "rw /home/u/code/proj/.git/objects",
        "rw /home/u/code/proj/.git/refs",
        "rw /home/u/.local/share/switchyard/sandbox/tsk1/git-logs -> /home/u/code/proj/.git/logs",
        "rw /home/u/code/proj/.git/worktrees/yard-task",
        "ro /home/u/code/proj/.git/worktrees/yard-task/commondir",
        "ro /home/u/code/proj/.git/worktrees/yard-task/gitdir",
        "ro /home/u/code/proj/.git/worktrees/yard-task/config.worktree",
        "rw /home/u/.local/share/switchyard/sandbox/tsk1/home",
        "rw /home/u/.local/share/switchyard/sandbox/tsk1/tmp",
      ],
    },
    {
      name: "repository, data dir and checkout under /tmp: what the pane needs is re-exposed read-only",
      plan: {
        ...base,
        worktree: "/tmp/yard-home-x/worktrees/repo-1/yard-t",
        gitDir: "/tmp/yard-repo-x/.git/worktrees/yard-t",
        commonDir: "/tmp/yard-repo-x/.git",
        dataDir: "/tmp/yard-home-x",
        home: "/tmp/yard-home-x/sandbox/tsk1/home",
        tmp: "/tmp/yard-home-x/sandbox/tsk1/tmp",
        logs: "/tmp/yard-home-x/sandbox/tsk1/git-logs",
        socket: "/tmp/yard-home-x/run/api.sock",
        readOnly: ["/tmp/checkout", "/tmp/yard-home-x/bin", "/usr/bin"],
      },
      network: false,
      expectMounts: [
        "tmpfs /tmp",
        "tmpfs /run",
        "tmpfs(0555) /tmp/yard-home-x",
        "ro /tmp/checkout",
        "ro /tmp/yard-home-x/bin",
        "ro /tmp/yard-repo-x/.git",
        `ro /tmp/yard-home-x/run -> ${SANDBOX_RUN_DIR}`,
        "rw /tmp/yard-repo-x/.git/objects",
        "rw /tmp/yard-repo-x/.git/refs",
        "rw /tmp/yard-home-x/sandbox/tsk1/git-logs -> /tmp/yard-repo-x/.git/logs",
        "rw /tmp/yard-repo-x/.git/worktrees/yard-t",
        "ro /tmp/yard-repo-x/.git/worktrees/yard-t/commondir",
        "ro /tmp/yard-repo-x/.git/worktrees/yard-t/gitdir",
        "ro /tmp/yard-repo-x/.git/worktrees/yard-t/config.worktree",
        "rw /tmp/yard-home-x/sandbox/tsk1/home",
        "rw /tmp/yard-home-x/sandbox/tsk1/tmp",
        "rw /tmp/yard-home-x/worktrees/repo-1/yard-t",
        "ro /tmp/yard-home-x/worktrees/repo-1/yard-t/.git",
      ],
    },
    {
      name: "data dir inside the checkout that is re-exposed: still hidden after it",
      plan: {
        ...base,
        worktree: "/tmp/co/.home/worktrees/r/t",
        dataDir: "/tmp/co/.home",
        home: "/tmp/co/.home/sandbox/tsk1/home",
        tmp: "/tmp/co/.home/sandbox/tsk1/tmp",
        logs: "/tmp/co/.home/sandbox/tsk1/git-logs",
        socket: "/tmp/co/.home/run/api.sock",
        readOnly: ["/tmp/co"],
      },
      network: false,
      expectMounts: [
        "tmpfs /tmp",
        "tmpfs /run",
        "ro /tmp/co",
        "tmpfs(0555) /tmp/co/.home",
        "rw /home/u/code/proj/.git/objects",
        "rw /home/u/code/proj/.git/refs",
        "rw /tmp/co/.home/sandbox/tsk1/git-logs -> /home/u/code/proj/.git/logs",
        `ro /tmp/co/.home/run -> ${SANDBOX_RUN_DIR}`,
        "rw /home/u/code/proj/.git/worktrees/yard-task",
        "ro /home/u/code/proj/.git/worktrees/yard-task/commondir",
        "ro /home/u/code/proj/.git/worktrees/yard-task/gitdir",
        "ro /home/u/code/proj/.git/worktrees/yard-task/config.worktree",
        "rw /tmp/co/.home/sandbox/tsk1/home",
        "rw /tmp/co/.home/sandbox/tsk1/tmp",
        "rw /tmp/co/.home/worktrees/r/t",
        "ro /tmp/co/.home/worktrees/r/t/.git",
      ],
    },
  ];

  for (const c of cases) {
    it(c.name, () => {
      const mounts = sandboxMounts(c.plan);
      // The set of mounts; their order is checked by the invariants (ancestors first).
      expect(ops(mounts).sort()).toEqual([...c.expectMounts].sort());
      checkInvariants(c.plan, mounts);

      const command = ["/usr/bin/node", "/opt/switchyard/agents/demo/demo-agent.mjs", "--name", "a b"];
      const argv = buildSandboxArgv(c.plan, command);
      // Launcher: bwrap runs with the agent's signals ignored; the agent gets them back.
      expect(argv.slice(0, 3)).toEqual(["/usr/bin/env", `--ignore-signal=${AGENT_SIGNALS}`, "/usr/bin/bwrap"]);
      expect(argv.slice(3, 10)).toEqual(["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc"]);
      const sep = argv.indexOf("--");
      expect(argv.slice(sep)).toEqual(["--", "/usr/bin/env", `--default-signal=${AGENT_SIGNALS}`, ...command]);
      const flags = argv.slice(0, sep);
      expect(flags).toEqual(
        expect.arrayContaining(["--unshare-pid", "--unshare-ipc", "--unshare-uts", "--die-with-parent"]),
      );
      expect(flags.join("\0")).toContain(["--cap-drop", "ALL"].join("\0"));
      expect(flags.join("\0")).toContain(["--chdir", c.plan.worktree].join("\0"));
      expect(flags.includes("--unshare-net")).toBe(!c.network);
      // The agent keeps the pane's PTY as its controlling terminal.
      expect(flags).not.toContain("--new-session");
      // Paths travel as single argv entries, spaces and all.
      expect(flags).toContain(c.plan.worktree);
    });
  }

  it("leaves DNS configuration hidden with the network off, and ignores a resolv.conf outside hidden dirs", () => {
    expect(ops(sandboxMounts(base))).not.toContain("ro /run/systemd/resolve/stub-resolv.conf");
    expect(
      ops(sandboxMounts({ ...base, network: true, resolvConf: "/etc/resolv.conf" })).filter((m) =>
        m.includes("resolv"),
      ),
    ).toEqual([]);
  });

  it("drops every capability unless told the process is not root", () => {
    const flags = (plan: SandboxPlan) => buildSandboxArgv(plan, ["true"]).join("\0");
    expect(flags(base)).toContain("--cap-drop\0ALL");
    expect(flags({ ...base, dropCapabilities: true })).toContain("--cap-drop\0ALL");
    expect(flags({ ...base, dropCapabilities: false })).not.toContain("--cap-drop");
  });

  it("binds no socket when there is none", () => {
    expect(ops(sandboxMounts({ ...base, socket: null })).some((m) => m.includes(SANDBOX_RUN_DIR))).toBe(false);
  });

  const bad: { name: string; plan: Partial<SandboxPlan>; command?: string[]; message: RegExp }[] = [
    { name: "a relative worktree", plan: { worktree: "wt" }, message: /worktree must be an absolute path/ },
    { name: "a path with a newline", plan: { home: "/a\nb" }, message: /home must be an absolute path/ },
    {
      name: "the worktree being /tmp itself",
      plan: { worktree: "/tmp" },
      message: /worktree must not be \/tmp itself/,
    },
    { name: "the worktree being the data dir", plan: { worktree: base.dataDir }, message: /worktree must not be/ },
    {
      name: "a git dir outside the common dir",
      plan: { gitDir: "/elsewhere/.git/worktrees/x" },
      message: /inside the repository's common git dir/,
    },
    { name: "a program name with =", plan: {}, command: ["A=b", "x"], message: /must not contain "="/ },
    { name: "an empty command", plan: {}, command: [], message: /nothing to run/ },
  ];
  for (const b of bad) {
    it(`refuses ${b.name} (BAD_PARAMS)`, () => {
      let err: unknown;
      try {
        buildSandboxArgv({ ...base, ...b.plan }, b.command ?? ["true"]);
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(YardError);
      expect((err as YardError).code).toBe("BAD_PARAMS");
      expect((err as YardError).message).toMatch(b.message);
    });
  }
});

describe("sandbox probe", () => {
  const failures: { stderr: string; exit: number; reason: string; message: RegExp }[] = [
    {
      stderr:
        "bwrap: No permissions to creating new namespace, likely because the kernel does not allow non-privileged user namespaces. On e.g. debian this can be enabled with 'sysctl kernel.unprivileged_userns_clone=1'.",
      exit: 1,
      reason: "namespaces_disabled",
      message: /unprivileged_userns_clone=1/,
    },
    {
      stderr: "bwrap: setting up uid map: Permission denied",
      exit: 1,
      reason: "namespaces_disabled",
      message: /Enable unprivileged user namespaces/,
    },
    {
      stderr: "bwrap: Creating new namespace failed: Operation not permitted",
      exit: 1,
      reason: "namespaces_disabled",
      message: /apparmor_restrict_unprivileged_userns/,
    },
    {
      stderr:
        "/usr/bin/env: unrecognized option '--ignore-signal=HUP,INT,QUIT,TERM,TSTP'\nTry '/usr/bin/env --help' for more information.",
      exit: 125,
      reason: "env_unsupported",
      message: /GNU env \(coreutils 8\.31/,
    },
    {
      stderr: "bwrap: Can't mount proc on /newroot/proc: Operation not permitted",
      exit: 1,
      reason: "probe_failed",
      message: /probe failed \(exit 1\): bwrap: Can't mount proc/,
    },
  ];
  for (const f of failures) {
    it(`classifies "${f.stderr.slice(0, 50)}…" as ${f.reason}`, () => {
      const r = classifyProbeFailure(f.exit, f.stderr);
      expect(r.reason).toBe(f.reason);
      expect(r.message).toMatch(f.message);
    });
  }

  it("passes with the installed bwrap, and names what is missing otherwise", async () => {
    const ok = await probeSandbox({ bwrap: "bwrap", searchPath: process.env.PATH });
    expect(ok).toMatchObject({
      ok: true,
      bwrap: expect.stringMatching(/\/bwrap$/),
      env: expect.stringMatching(/\/env$/),
    });

    const missing = await probeSandbox({ bwrap: "/nonexistent/bwrap", searchPath: process.env.PATH });
    expect(missing).toMatchObject({ ok: false, reason: "bwrap_missing" });
    expect(missing.ok === false && missing.message).toMatch(/apt-get install bubblewrap/);
    const notOnPath = await probeSandbox({ bwrap: "bwrap", searchPath: "/nonexistent" });
    expect(notOnPath).toMatchObject({ ok: false, reason: "bwrap_missing" });

    // A "bwrap" that exits non-zero: the probe reports it failed, with its exit status.
    const broken = await probeSandbox({ bwrap: "/bin/false", searchPath: process.env.PATH });
    expect(broken).toMatchObject({ ok: false, reason: "probe_failed" });
    expect(broken.ok === false && broken.message).toMatch(/exit 1/);

    expect(await probeSandbox({ bwrap: "bwrap", searchPath: process.env.PATH, platform: "darwin" })).toMatchObject({
      ok: false,
      reason: "unsupported_platform",
    });
  });
});
