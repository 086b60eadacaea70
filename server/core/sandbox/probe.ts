// Can the sandbox start on this machine? Finds bwrap and a GNU env, runs the fixed probe (the
// same launcher, namespaces and kinds of mounts a real spawn uses, running `true`) through an
// argv-only process call (never a shell), and turns a failure into a reason a person can act
// on: what is missing and how to install or enable it. classifyProbeFailure is pure.
import { spawn } from "node:child_process";
import { accessSync, constants, statSync } from "node:fs";
import path from "node:path";
import { probeArgv } from "./argv";

type SandboxUnavailableReason =
  | "unsupported_platform"
  | "bwrap_missing"
  | "env_unsupported"
  | "namespaces_disabled"
  | "probe_failed"
  | "socket_unavailable";

export type SandboxAvailability =
  | { ok: true; bwrap: string; env: string }
  | { ok: false; reason: SandboxUnavailableReason; message: string; stderr?: string };

const PROBE_TIMEOUT_MS = 10_000;

/** Whether sandboxes need --cap-drop ALL: bwrap run by root keeps every capability otherwise. */
export const runningAsRoot = (): boolean => process.getuid?.() === 0;

const INSTALL_HINT =
  "install bubblewrap (Debian/Ubuntu: sudo apt-get install bubblewrap; Fedora: sudo dnf install bubblewrap; Arch: sudo pacman -S bubblewrap)";

/** An executable file: `name` itself when it holds a slash, else the first match on searchPath. */
function findExecutable(name: string, searchPath: string | undefined): string | null {
  const candidates = name.includes("/")
    ? [path.resolve(name)]
    : (searchPath ?? "")
        .split(path.delimiter)
        .filter(Boolean)
        .map((d) => path.join(d, name));
  for (const c of candidates) {
    try {
      if (statSync(c).isFile()) {
        accessSync(c, constants.X_OK);
        return c;
      }
    } catch {
      /* next */
    }
  }
  return null;
}

/** Why the probe failed, from its exit status and stderr. */
export function classifyProbeFailure(
  exitCode: number | null,
  stderr: string,
): Extract<SandboxAvailability, { ok: false }> {
  const err = stderr.trim();
  const last = err.split("\n").filter(Boolean).slice(-3).join(" | ");
  if (/(unrecognized|invalid|unknown) option.*(ignore|default)-signal/i.test(err)) {
    return {
      ok: false,
      reason: "env_unsupported",
      message: `The sandbox needs GNU env (coreutils 8.31 or newer, for --ignore-signal/--default-signal); this system's env refused: ${last}. Install GNU coreutils.`,
      stderr: err,
    };
  }
  if (
    /user namespace|uid map|unprivileged|No permissions to creat|Creating new namespace failed|setting up uid map|clone.*(Operation not permitted|Permission denied)|unshare.*(Operation not permitted|Permission denied)/i.test(
      err,
    )
  ) {
    return {
      ok: false,
      reason: "namespaces_disabled",
      message:
        `bwrap cannot create the sandbox's namespaces (${last}). Enable unprivileged user namespaces: ` +
        "sysctl kernel.unprivileged_userns_clone=1 (Debian), user.max_user_namespaces > 0, and on Ubuntu 23.10+ " +
        "kernel.apparmor_restrict_unprivileged_userns=0 or an AppArmor profile that allows bwrap; in a container, allow user namespaces " +
        "(e.g. a seccomp profile that permits unshare/clone with namespace flags).",
      stderr: err,
    };
  }
  return {
    ok: false,
    reason: "probe_failed",
    message: `bwrap's start-up probe failed (exit ${exitCode ?? "by signal"})${last ? `: ${last}` : ""}`,
    stderr: err,
  };
}

/** Runs the probe once. Never throws: every failure is an availability answer. */
export async function probeSandbox(opts: {
  bwrap: string;
  searchPath: string | undefined;
  platform?: NodeJS.Platform;
}): Promise<SandboxAvailability> {
  const platform = opts.platform ?? process.platform;
  if (platform !== "linux")
    return {
      ok: false,
      reason: "unsupported_platform",
      message: `The sandbox uses Linux namespaces (bubblewrap); it is not available on ${platform}.`,
    };
  const bwrap = findExecutable(opts.bwrap, opts.searchPath);
  if (!bwrap)
    return {
      ok: false,
      reason: "bwrap_missing",
      message: `bubblewrap is not installed (no executable ${JSON.stringify(opts.bwrap)}${opts.bwrap.includes("/") ? "" : " on PATH"}): ${INSTALL_HINT}.`,
    };
  const env = findExecutable("env", opts.searchPath);
  if (!env)
    return {
      ok: false,
      reason: "env_unsupported",
      message: "The sandbox needs GNU env (coreutils 8.31 or newer); no env on PATH.",
    };
  const { code, stderr, error } = await run(probeArgv(bwrap, env, runningAsRoot()), PROBE_TIMEOUT_MS);
  if (error) return { ok: false, reason: "probe_failed", message: `Could not run ${bwrap}: ${error}` };
  if (code === 0) return { ok: true, bwrap, env };
  return classifyProbeFailure(code, stderr);
}

function run(argv: string[], timeoutMs: number): Promise<{ code: number | null; stderr: string; error?: string }> {
  return new Promise((resolve) => {
    const child = spawn(argv[0]!, argv.slice(1), {
      stdio: ["ignore", "ignore", "pipe"],
      shell: false,
      windowsHide: true,
    });
    let stderr = "";
    let settled = false;
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      finish({ code: null, stderr, error: `the probe did not finish in ${timeoutMs} ms` });
    }, timeoutMs);
    const finish = (r: { code: number | null; stderr: string; error?: string }) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(r);
    };
    child.stderr!.setEncoding("utf8");
    child.stderr!.on("data", (d: string) => {
      if (stderr.length < 16_384) stderr += d;
    });
    child.on("error", (e) => finish({ code: null, stderr, error: e.message }));
    child.on("close", (code) => finish({ code, stderr }));
  });
}
