// A throwaway OpenSSH server for the runner tests: Debian's sshd on a free loopback port with its
// own host key, config, pid file and authorized key (a fresh ed25519 key pair for the test user:
// this machine's current user), no PAM and no passwords. Without sshd (apt-get install
// openssh-server) or without root (sshd's privilege separation needs it) the tests that need it
// are skipped with a notice, unless YARD_REQUIRE_SSHD=1 (.ci/run), where that fails.
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";

const SSHD = "/usr/sbin/sshd";
const isRoot = process.getuid?.() === 0;
export const SSHD_AVAILABLE = existsSync(SSHD) && isRoot;
if (!SSHD_AVAILABLE && process.env.YARD_REQUIRE_SSHD === "1")
  throw new Error(
    `YARD_REQUIRE_SSHD=1 but ${existsSync(SSHD) ? "not running as root" : "sshd is not installed (apt-get install openssh-server)"}`,
  );

export interface TestSshd {
  port: number;
  user: string;
  dir: string;
  /** The client's private key (authorized on this server). */
  identity: string;
  /** The logged-in session's XDG_DATA_HOME (sshd's SetEnv): the other machine's data, here a temp dir. */
  dataHome: string;
  /** `ssh-keygen -lf` of the server's host key: SHA256:… */
  fingerprint: string;
  /** Restarts the server with a new host key (a reinstalled machine); returns its fingerprint. */
  rekey(): Promise<string>;
  /** Stops the server (the machine unreachable: what runs there keeps running). */
  down(): Promise<void>;
  /** Starts it again on the same port with the same host key. */
  up(): Promise<void>;
  stop(): Promise<void>;
}

const keygen = (file: string) =>
  execFileSync("ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-C", "yard-test", "-f", file], { stdio: "ignore" });
const fingerprintOf = (pub: string) =>
  /(SHA256:[A-Za-z0-9+/]+=?)/.exec(
    execFileSync("ssh-keygen", ["-l", "-E", "sha256", "-f", pub], { encoding: "utf8" }),
  )![1]!;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

async function listening(port: number, deadline: number): Promise<void> {
  for (;;) {
    const ok = await new Promise<boolean>((resolve) => {
      const c = net.connect(port, "127.0.0.1", () => {
        c.destroy();
        resolve(true);
      });
      c.once("error", () => resolve(false));
    });
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`sshd did not listen on ${port}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export async function startSshd(): Promise<TestSshd> {
  const dir = mkdtempSync(path.join(os.tmpdir(), "yard-sshd-"));
  const user = os.userInfo().username;
  // sshd without PAM refuses an account whose password is locked ("!"): "*" is as unusable, not locked.
  if (
    readFileSync("/etc/shadow", "utf8")
      .split("\n")
      .some((l) => l.startsWith(`${user}:!`))
  )
    execFileSync("usermod", ["-p", "*", user]);
  mkdirSync("/run/sshd", { recursive: true, mode: 0o755 });
  const dataHome = path.join(dir, "remote-data");
  mkdirSync(dataHome, { recursive: true });
  const rcFile = path.join(dir, "login-rc.sh");
  writeFileSync(rcFile, 'echo "Welcome to the build box"\necho "a notice on stderr" >&2\n');
  const identity = path.join(dir, "client_ed25519");
  keygen(identity);
  writeFileSync(path.join(dir, "authorized_keys"), readFileSync(`${identity}.pub`), { mode: 0o600 });
  let proc: ChildProcess | null = null;
  let port = 0;
  let fingerprint = "";
  let generation = 0;
  let hostKey = "";
  const start = async (newKey: boolean) => {
    if (newKey || !hostKey) {
      hostKey = path.join(dir, `host_ed25519_${generation++}`);
      keygen(hostKey);
    }
    fingerprint = fingerprintOf(`${hostKey}.pub`);
    port = port || (await freePort());
    const config = path.join(dir, "sshd_config");
    writeFileSync(
      config,
      [
        `Port ${port}`,
        "ListenAddress 127.0.0.1",
        `HostKey ${hostKey}`,
        `PidFile ${path.join(dir, "sshd.pid")}`,
        `AuthorizedKeysFile ${path.join(dir, "authorized_keys")}`,
        "UsePAM no",
        "PasswordAuthentication no",
        "KbdInteractiveAuthentication no",
        "PubkeyAuthentication yes",
        "PermitRootLogin prohibit-password",
        `AllowUsers ${user}`,
        "StrictModes no",
        "LogLevel ERROR",
        // The login shell (bash) skips the account's ~/.bashrc, which it reads for a command over
        // ssh only at shell level 1: on our machines that file runs pyenv's rehash, whose lock
        // file a killed session leaves behind, and every later session then waits 60 s on it.
        // It reads a chatty rc file of ours instead (BASH_ENV), as many logins print something:
        // what our scripts answer must come through it.
        `SetEnv XDG_DATA_HOME=${dataHome} SHLVL=1 BASH_ENV=${rcFile}`,
        "",
      ].join("\n"),
    );
    proc = spawn(SSHD, ["-D", "-e", "-f", config], { stdio: ["ignore", "ignore", "pipe"] });
    await listening(port, Date.now() + 10_000);
  };
  const stopProc = async () => {
    const p = proc;
    proc = null;
    if (!p || p.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      p.once("exit", () => resolve());
      p.kill("SIGTERM");
    });
  };
  await start(true);
  return {
    get port() {
      return port;
    },
    user,
    dir,
    dataHome,
    identity,
    get fingerprint() {
      return fingerprint;
    },
    async rekey() {
      await stopProc();
      await start(true);
      return fingerprint;
    },
    async down() {
      await stopProc();
    },
    async up() {
      await start(false);
    },
    async stop() {
      await stopProc();
      // What ran on "the other machine" (its pane hosts and their agents, sessions) ends with it.
      killUnder(dir);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** SIGKILLs every process whose command line names a path under `dir`. */
function killUnder(dir: string): void {
  for (const e of readdirSync("/proc")) {
    if (!/^\d+$/.test(e) || Number(e) === process.pid) continue;
    try {
      if (readFileSync(`/proc/${e}/cmdline`, "utf8").includes(`${dir}/`)) process.kill(Number(e), "SIGKILL");
    } catch {}
  }
}
