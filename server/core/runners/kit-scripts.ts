// The node scripts Switchyard runs on a runner, each given to `node -e` in base64 (its alphabet
// passes any remote shell unchanged: no quoting of code), reading its input from stdin. They use
// only Node's built-ins. Where: $XDG_DATA_HOME/switchyard-runner (default ~/.local/share/…).
import { MAX_SOCKET_PATH } from "../../config";
import { OUTPUT_MARK } from "./ssh";

const BASE = `const base = require("path").join(process.env.XDG_DATA_HOME || require("path").join(require("os").homedir(), ".local/share"), "switchyard-runner");`;

/** All of stdin, as one Buffer. */
const STDIN = `const readStdin = () => new Promise((resolve) => { const c = []; process.stdin.on("data", (d) => c.push(d)); process.stdin.on("end", () => resolve(Buffer.concat(c))); });`;

/**
 * The kit's stream format (kit.ts encodeKit), decoded: `eachFile(buf, fn)` calls fn(header, bytes)
 * for each file in order and returns whether the stream ended with its end mark (false: cut short).
 */
const FILES = `${STDIN}
const eachFile = (buf, fn) => {
  let at = 0;
  for (;;) {
    const nl = buf.indexOf(10, at);
    if (nl < 0) return false;
    const h = JSON.parse(buf.subarray(at, nl).toString("utf8"));
    at = nl + 1;
    if (h.end) return true;
    fn(h, buf.subarray(at, at + h.size));
    at += h.size;
  }
};`;

/** Prints {node, modules, arch, platform, base, kits: [installed kit names]} as JSON. */
const PROBE = `${BASE}
const fs = require("fs");
let kits = [];
try { kits = fs.readdirSync(base).filter((n) => /^[0-9A-Za-z.+-]+$/.test(n) && fs.existsSync(require("path").join(base, n, "panehost.mjs"))); } catch {}
process.stdout.write(JSON.stringify({ node: process.version, modules: process.versions.modules, arch: process.arch, platform: process.platform, base, kits }));`;

/**
 * Unpacks a kit from stdin into <base>/<name>: into <name>.partial first (refusing any path that
 * climbs out), then renamed into place, so a kit dir is whole or absent. Prints {dir, files, bytes}.
 */
const UNPACK = `${BASE}
${FILES}
const fs = require("fs"), path = require("path");
const name = process.argv[1];
if (!/^[0-9A-Za-z.+-]+$/.test(name || "")) { console.error("bad kit name"); process.exit(2); }
readStdin().then((buf) => {
  const dir = path.join(base, name), tmp = dir + ".partial";
  fs.rmSync(tmp, { recursive: true, force: true });
  let files = 0, bytes = 0;
  const whole = eachFile(buf, (h, data) => {
    const rel = path.normalize(h.path);
    if (path.isAbsolute(rel) || rel.startsWith("..")) { console.error("bad path " + h.path); process.exit(4); }
    const out = path.join(tmp, rel);
    fs.mkdirSync(path.dirname(out), { recursive: true, mode: 0o700 });
    fs.writeFileSync(out, data, { mode: h.mode & 0o755 });
    files++; bytes += data.length;
  });
  if (!whole) { console.error("truncated kit"); process.exit(3); }
  fs.rmSync(dir, { recursive: true, force: true });
  fs.renameSync(tmp, dir);
  process.stdout.write(JSON.stringify({ dir, files, bytes }));
});`;

const b64 = (s: string) => Buffer.from(s, "utf8").toString("base64");

/**
 * ssh's remote command running `script` with node; `args` become its process.argv[1…]. ssh hands
 * the remote command to a shell as one string, so nothing dynamic goes there as it is: the script
 * and each argument travel base64url-encoded (a charset no shell reads) and are decoded there.
 */
function nodeCommand(script: string, args: string[] = []): string[] {
  // The mark first (synchronously, before anything the script writes): what a login shell's rc
  // files printed before it is dropped on the board's side (ssh.ts exec).
  const decode = `require("fs").writeSync(1, ${JSON.stringify(OUTPUT_MARK)});\nprocess.argv = [process.argv[0], ...process.argv.slice(1).map((x) => Buffer.from(x, "base64url").toString("utf8"))];\n`;
  return [
    "node",
    "-e",
    `"eval(Buffer.from('${b64(decode + script)}','base64').toString())"`,
    ...args.map((a) => Buffer.from(a, "utf8").toString("base64url")),
  ];
}

/**
 * Writes files from stdin (the kit's stream format) into a task's worktree there, argv[1] its id:
 * a repository's setup files (`copy`, `link`) taken from the board's checkout. Refuses a path that
 * climbs out; never writes through a link. Prints {files, bytes}.
 */
const PLACE = `${BASE}
${FILES}
const fs = require("fs"), path = require("path");
const task = process.argv[1];
if (!/^[a-z0-9][a-z0-9_-]{0,63}$/.test(task || "")) { console.error("bad task"); process.exit(2); }
const root = path.join(base, "worktrees", task);
readStdin().then((buf) => {
  let files = 0, bytes = 0;
  const whole = eachFile(buf, (h, data) => {
    const rel = path.normalize(h.path);
    if (path.isAbsolute(rel) || rel.startsWith("..") || rel.split(path.sep).includes(".git")) { console.error("bad path " + h.path); process.exit(4); }
    const out = path.join(root, rel);
    let dir = root;
    for (const part of path.dirname(rel).split(path.sep).filter((p) => p && p !== ".")) {
      dir = path.join(dir, part);
      try { if (fs.lstatSync(dir).isSymbolicLink()) { console.error("a link on the way to " + h.path); process.exit(5); } } catch { fs.mkdirSync(dir, { mode: 0o755 }); }
    }
    fs.rmSync(out, { force: true });
    fs.writeFileSync(out, data, { mode: h.mode & 0o755, flag: "wx" });
    files++; bytes += data.length;
  });
  if (!whole) { console.error("truncated"); process.exit(3); }
  process.stdout.write(JSON.stringify({ files, bytes }));
});`;

export const probeCommand = () => nodeCommand(PROBE);
export const placeCommand = (taskId: string) => nodeCommand(PLACE, [taskId]);
export const unpackCommand = (kitName: string) => nodeCommand(UNPACK, [kitName]);

/**
 * Starts the runner's pane host from kit argv[1] unless one runs (its pid file and process), in
 * its own session with its output appended to its log, waits for its socket and secret, and
 * prints {socket, secret, pid, log, board, kit}: `board` is where the board's API socket is to be
 * forwarded (any stale file there removed), `kit` the kit's directory. The host's data dir is
 * <base>/home. Run before every connection (it is idempotent).
 */
const START = `${BASE}
const fs = require("fs"), path = require("path"), cp = require("child_process");
const home = path.join(base, "home"), dir = path.join(home, "host");
const sock = path.join(dir, "host.sock"), pidFile = path.join(dir, "host.pid"), secretFile = path.join(dir, "secret"), log = path.join(dir, "host.log");
const kit = path.join(base, process.argv[1] || "", "panehost.mjs");
const alive = () => { try { const pid = Number(fs.readFileSync(pidFile, "utf8").trim()); process.kill(pid, 0); return pid; } catch { return 0; } };
if (!alive()) {
  if (!/^[0-9A-Za-z.+-]+$/.test(process.argv[1] || "") || !fs.existsSync(kit)) { console.error("kit " + process.argv[1] + " is not installed: yard runner install"); process.exit(6); }
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const fd = fs.openSync(log, "a", 0o600);
  cp.spawn(process.execPath, [kit, "--home", home], { detached: true, stdio: ["ignore", fd, fd], cwd: home }).unref();
}
const deadline = Date.now() + 20000;
// The host's hook relay, for hooks posted while the board restarts: it listens just after the
// control socket (not at all where its path is too long for a socket).
const run = path.join(home, "run"), relay = path.join(run, "hook.sock");
const relayFits = Buffer.byteLength(relay) <= ${MAX_SOCKET_PATH};
(function wait() {
  const pid = alive();
  if (pid && fs.existsSync(sock) && fs.existsSync(secretFile) && (!relayFits || fs.existsSync(relay))) {
    // Where the board's API socket is forwarded to (ssh -R): an old forward's file is removed first.
    const board = path.join(run, "board.sock");
    fs.mkdirSync(run, { recursive: true, mode: 0o700 });
    fs.rmSync(board, { force: true });
    process.stdout.write(JSON.stringify({ socket: sock, secret: fs.readFileSync(secretFile, "utf8").trim(), pid, log, board, kit: path.dirname(kit), relay: fs.existsSync(relay) ? relay : null }));
    process.exit(0);
  }
  if (Date.now() > deadline) { console.error("the pane host did not start; see " + log); process.exit(5); }
  setTimeout(wait, 100);
})();`;

/**
 * A finished task's teardown in its worktree there, argv[1] its id: {commands, env, timeoutMs} on
 * stdin; each command run with /bin/sh -c in the worktree, with the runner's environment (no
 * YARD_* of its own) and `env` (the task's PORT, YARD_PORTS, YARD_TASK), its process group killed
 * after timeoutMs. Prints {skipped, commands: [{command, exitCode, signal, ms, timedOut}], tail}.
 */
const TEARDOWN = `${BASE}
${STDIN}
const fs = require("fs"), path = require("path"), cp = require("child_process");
const task = process.argv[1];
if (!/^[a-z0-9][a-z0-9_-]{0,63}$/.test(task || "")) { console.error("bad task"); process.exit(2); }
const wt = path.join(base, "worktrees", task);
readStdin().then(async (input) => {
  const { commands, env: extra, timeoutMs } = JSON.parse(input.toString("utf8"));
  if (!fs.existsSync(wt)) { process.stdout.write(JSON.stringify({ skipped: "the worktree there was gone", commands: [], tail: "" })); return; }
  const env = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith("YARD_")) env[k] = v;
  Object.assign(env, extra);
  let tail = "";
  const keep = (b) => { tail = (tail + b.toString("utf8")).slice(-16384); };
  const results = [];
  for (const command of commands) {
    keep(Buffer.from("$ " + command + "\\n"));
    const started = Date.now();
    results.push(await new Promise((resolve) => {
      const child = cp.spawn("/bin/sh", ["-c", command], { cwd: wt, env, stdio: ["ignore", "pipe", "pipe"], detached: true });
      let timedOut = false;
      child.stdout.on("data", keep);
      child.stderr.on("data", keep);
      const timer = setTimeout(() => { timedOut = true; try { process.kill(-child.pid, "SIGKILL"); } catch { child.kill("SIGKILL"); } }, timeoutMs);
      const done = (exitCode, signal) => { clearTimeout(timer); resolve({ command, exitCode, signal, ms: Date.now() - started, timedOut }); };
      child.on("error", (e) => { keep(Buffer.from(e.message + "\\n")); done(127, null); });
      child.on("close", (code, signal) => done(code, signal));
    }));
  }
  process.stdout.write(JSON.stringify({ skipped: null, commands: results, tail }));
});`;

export const teardownCommand = (taskId: string) => nodeCommand(TEARDOWN, [taskId]);

/** Prints whether process argv[1] lives on the runner ("1" or "0"). */
const ALIVE = `try { process.kill(Number(process.argv[1]), 0); process.stdout.write("1"); } catch (e) { process.stdout.write(e.code === "EPERM" ? "1" : "0"); }`;

export const startHostCommand = (kitName: string) => nodeCommand(START, [kitName]);
export const aliveCommand = (pid: number) => nodeCommand(ALIVE, [String(Math.trunc(pid))]);

// Git there: a bare clone per project (<base>/repos/<project>.git) fed from the board's repository
// as git bundles over the SSH channel (the runner needs no access to the origin, nor the board to
// be reachable from it), worktrees under <base>/worktrees/<task>, and the task's branch back as a
// bundle. Every git call is argv (execFileSync), never a shell.
const GIT = `${BASE}
const fs = require("fs"), path = require("path"), os = require("os"), cp = require("child_process");
const git = (args, opts = {}) => cp.execFileSync("git", args, { encoding: opts.encoding === undefined ? "utf8" : opts.encoding, stdio: ["ignore", "pipe", "pipe"], maxBuffer: 1 << 30, ...opts });
const name = (s, what) => { if (!/^[a-z0-9][a-z0-9_-]{0,63}$/.test(s || "")) { console.error("bad " + what); process.exit(2); } return s; };
const sha = (s) => { if (!/^[0-9a-f]{40}$/.test(s || "")) { console.error("bad commit"); process.exit(2); } return s; };
const branch = (s) => { try { git(["check-ref-format", "--branch", s || ""]); } catch { console.error("bad branch"); process.exit(2); } return s; };
const repoOf = (p) => path.join(base, "repos", name(p, "project") + ".git");
${STDIN}
const [op, a, b, c, d] = process.argv.slice(1);`;

/** receive PROJECT: the board's branches from a bundle on stdin, into refs/board/* of the bare clone. */
const RECEIVE = `${GIT}
(async () => {
  const repo = repoOf(a);
  if (!fs.existsSync(repo)) { fs.mkdirSync(repo, { recursive: true, mode: 0o700 }); git(["init", "--bare", "-q", repo]); }
  const file = path.join(os.tmpdir(), "yard-in-" + process.pid + ".bundle");
  fs.writeFileSync(file, await readStdin(), { mode: 0o600 });
  try { git(["-C", repo, "fetch", "-q", "--force", "--prune", file, "refs/heads/*:refs/board/heads/*"]); }
  finally { fs.rmSync(file, { force: true }); }
  process.stdout.write(JSON.stringify({ repo }));
})();`;

/** worktree PROJECT TASK BRANCH BASE: the task's worktree on a new branch at BASE (kept when there). */
const WORKTREE = `${GIT}
const repo = repoOf(a), wt = path.join(base, "worktrees", name(b, "task"));
branch(c); sha(d);
if (!fs.existsSync(wt)) { fs.mkdirSync(path.dirname(wt), { recursive: true, mode: 0o700 }); git(["-C", repo, "worktree", "add", "-q", "-b", c, wt, d]); }
process.stdout.write(JSON.stringify({ path: wt, head: git(["-C", wt, "rev-parse", "HEAD"]).trim() }));`;

/**
 * bundle PROJECT BRANCH BASE TASK: the branch's commits since BASE, and a snapshot of the task's
 * worktree as it is (uncommitted and untracked files too; a commit on its HEAD made with a
 * scratch index, refs/switchyard/worktree/TASK), as one bundle on stdout.
 */
const BUNDLE = `${GIT}
const repo = repoOf(a); branch(b); sha(c);
const wt = path.join(base, "worktrees", name(d, "task")), snapRef = "refs/switchyard/worktree/" + d;
const index = path.join(os.tmpdir(), "yard-index-" + process.pid);
const env = { ...process.env, GIT_INDEX_FILE: index, GIT_AUTHOR_NAME: "Switchyard", GIT_AUTHOR_EMAIL: "switchyard@localhost", GIT_COMMITTER_NAME: "Switchyard", GIT_COMMITTER_EMAIL: "switchyard@localhost" };
const file = path.join(os.tmpdir(), "yard-out-" + process.pid + ".bundle");
try {
  git(["-C", wt, "read-tree", "HEAD"], { env });
  git(["-C", wt, "add", "-A"], { env });
  const tree = git(["-C", wt, "write-tree"], { env }).trim();
  const snap = git(["-C", wt, "commit-tree", tree, "-p", "HEAD", "-m", "switchyard: the worktree"], { env }).trim();
  git(["-C", repo, "update-ref", snapRef, snap]);
  git(["-C", repo, "bundle", "create", "-q", file, "refs/heads/" + b, snapRef, "^" + c]);
  process.stdout.write(fs.readFileSync(file));
} finally { fs.rmSync(file, { force: true }); fs.rmSync(index, { force: true }); }`;

/** drop PROJECT TASK BRANCH: a finished task's worktree, branch and snapshot ref there are removed. */
const DROP = `${GIT}
const repo = repoOf(a), wt = path.join(base, "worktrees", name(b, "task"));
branch(c);
try { git(["-C", repo, "worktree", "remove", "--force", wt]); } catch { fs.rmSync(wt, { recursive: true, force: true }); git(["-C", repo, "worktree", "prune"]); }
try { git(["-C", repo, "branch", "-D", c]); } catch {}
try { git(["-C", repo, "update-ref", "-d", "refs/switchyard/worktree/" + b]); } catch {}
process.stdout.write(JSON.stringify({ removed: !fs.existsSync(wt) }));`;

export const gitDropCommand = (project: string, task: string, branch: string) =>
  nodeCommand(DROP, ["drop", project, task, branch]);
export const gitReceiveCommand = (project: string) => nodeCommand(RECEIVE, ["receive", project]);
export const gitWorktreeCommand = (project: string, task: string, branch: string, base: string) =>
  nodeCommand(WORKTREE, ["worktree", project, task, branch, base]);
export const gitBundleCommand = (project: string, branch: string, base: string, task: string) =>
  nodeCommand(BUNDLE, ["bundle", project, branch, base, task]);
