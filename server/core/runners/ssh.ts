// Running the system's OpenSSH client against a runner: the argv (never a shell string; options
// that make ssh prompt or accept an unknown host key are off: BatchMode, StrictHostKeyChecking),
// reading what a failed connection means from ssh's own words (an unknown or changed host key, a
// refused key, an unreachable host), and a host's keys with their fingerprints (ssh-keyscan,
// ssh-keygen) for a person to check before trusting one.
import { execFile } from "node:child_process";
import { YardError } from "../errors";

export interface SshTarget {
  user: string;
  host: string;
  port: number;
  identityFile: string | null;
  /** Every known_hosts file whose keys are trusted for this runner (ours first). */
  knownHostsFiles: string[];
}

export interface Exec {
  code: number;
  stdout: string;
  stderr: string;
  /** stdout as bytes (with `binary`). */
  raw?: Buffer;
}

const MAX_OUTPUT = 256 * 1024;
const MAX_BINARY = 1024 * 1024 * 1024;

/**
 * What each of our scripts on a runner writes first to stdout (kit-scripts.ts): a login shell's rc
 * files may print before it (a banner, a tool's notice), and that is not the script's answer.
 */
export const OUTPUT_MARK = "\u0000switchyard-runner-output\u0000\n";
const MARK_BYTES = Buffer.from(OUTPUT_MARK, "utf8");

/** stdout from just after the mark (what the script wrote), or all of it when no mark came. */
function afterMark(out: Buffer): Buffer {
  const at = out.indexOf(MARK_BYTES);
  return at < 0 ? out : out.subarray(at + MARK_BYTES.length);
}

/**
 * Runs a program with argv, a timeout and capped output; never throws for a non-zero exit.
 * `binary`: stdout is kept as bytes too (a git bundle), up to 1 GiB. What came before our
 * scripts' mark on stdout (a remote login's own output) is dropped.
 */
export function exec(
  file: string,
  args: string[],
  opts: { timeoutMs: number; input?: string | Buffer; binary?: boolean },
): Promise<Exec> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      file,
      args,
      {
        timeout: opts.timeoutMs,
        maxBuffer: opts.binary ? MAX_BINARY : MAX_OUTPUT,
        encoding: "buffer",
        killSignal: "SIGKILL",
      },
      (err, whole, errOut) => {
        const out = afterMark(whole);
        const stdout = out.toString("utf8");
        const stderr = errOut.toString("utf8");
        const raw = opts.binary ? out : undefined;
        const e = err as (NodeJS.ErrnoException & { code?: number | string; killed?: boolean }) | null;
        if (e && typeof e.code === "string") {
          if (e.code === "ENOENT")
            return reject(new YardError("RUNNER_UNAVAILABLE", `${file} is not installed on this machine`));
          return reject(e);
        }
        if (e?.killed)
          return resolve({ code: 124, stdout, stderr: `${stderr}\n(timed out after ${opts.timeoutMs} ms)`, raw });
        resolve({ code: typeof e?.code === "number" ? e.code : 0, stdout, stderr, raw });
      },
    );
    // ssh that ends before reading its input (the runner out of reach) closes the pipe: the write's
    // EPIPE is no news (the exit says what happened), and unheard it would end this process.
    child.stdin?.on("error", () => {});
    child.stdin?.end(opts.input ?? "");
  });
}

/** ssh_config's quoting: each file in double quotes (a data dir may have spaces in its path). */
const quoted = (files: string[]) => files.map((f) => `"${f}"`).join(" ");

/** ssh's argv to run `remote` (fixed words, joined by ssh for the remote shell) on the target. */
export function sshArgv(t: SshTarget, remote: string[], connectTimeoutS = 10, extra: string[] = []): string[] {
  return [
    "-p",
    String(t.port),
    "-l",
    t.user,
    "-o",
    "BatchMode=yes",
    "-o",
    "StrictHostKeyChecking=yes",
    "-o",
    `UserKnownHostsFile=${quoted(t.knownHostsFiles)}`,
    "-o",
    `ConnectTimeout=${connectTimeoutS}`,
    ...(t.identityFile ? ["-i", t.identityFile, "-o", "IdentitiesOnly=yes"] : []),
    ...extra,
    "--",
    t.host,
    ...remote,
  ];
}

/** What a failed ssh run means, from its exit code and words; null when ssh itself connected. */
export function sshFailure(r: Exec, where: string): YardError | null {
  if (r.code !== 255) return null;
  const text = r.stderr;
  if (/REMOTE HOST IDENTIFICATION HAS CHANGED/.test(text))
    return new YardError(
      "HOST_KEY_CHANGED",
      `${where} presents a host key other than the one trusted: the machine was reinstalled, or someone is in the middle. Nothing was run; check with its administrator`,
    );
  if (/Host key verification failed|No .* host key is known/.test(text)) return new YardError("HOST_KEY_UNKNOWN");
  if (/Permission denied/.test(text))
    return new YardError(
      "RUNNER_UNAVAILABLE",
      `${where} refused the login (Permission denied): check the user and the key`,
    );
  const line = text.trim().split("\n").filter(Boolean).at(-1) ?? `ssh exited with ${r.code}`;
  return new YardError("RUNNER_UNAVAILABLE", `${where} cannot be reached: ${line}`);
}

export interface HostKey {
  /** The known_hosts line (`[host]:port type base64`). */
  line: string;
  type: string;
  fingerprint: string;
}

/** The host's keys, as it presents them now, each with its SHA256 fingerprint. */
export async function scanHostKeys(host: string, port: number, timeoutMs = 10_000): Promise<HostKey[]> {
  const scan = await exec("ssh-keyscan", ["-p", String(port), "-T", String(Math.ceil(timeoutMs / 1000)), "--", host], {
    timeoutMs: timeoutMs + 2000,
  });
  const lines = scan.stdout.split("\n").filter((l) => l.trim() && !l.startsWith("#"));
  if (lines.length === 0)
    throw new YardError(
      "RUNNER_UNAVAILABLE",
      `${host}:${port} presented no SSH host key (${scan.stderr.trim() || "no answer"})`,
    );
  const keys: HostKey[] = [];
  for (const line of lines) {
    const fp = await exec("ssh-keygen", ["-l", "-E", "sha256", "-f", "-"], { timeoutMs: 5000, input: `${line}\n` });
    const m = /^\d+ (SHA256:[A-Za-z0-9+/]+=?) .*\(([A-Z0-9-]+)\)\s*$/.exec(fp.stdout.trim());
    if (m) keys.push({ line, fingerprint: m[1]!, type: m[2]! });
  }
  return keys;
}
