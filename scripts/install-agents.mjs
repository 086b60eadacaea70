#!/usr/bin/env node
// Installs the real agent CLIs the integration tests (and `npm run bench`) run, pinned, once,
// into a cache outside the repository: ${YARD_AGENT_CACHE:-$HOME/.cache/switchyard/agents}/<pkg>@<ver>/.
// Idempotent: an install whose binary answers `--version` with the pinned version is kept as it
// is (a second run costs two process starts). Prints progress on stderr and, with --json, the
// resolved binaries on stdout. Node 20 is enough: the packages only warn EBADENGINE.
//
//   node scripts/install-agents.mjs            install what is missing
//   node scripts/install-agents.mjs --json     ...and print {"claude": "...", "codex": "..."}
//   node scripts/install-agents.mjs --check    install nothing; exit 1 when one is missing
import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdirSync, renameSync, rmSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** The pinned agents: npm package, version, the program inside the install, its --version output. */
export const AGENTS = {
  claude: { pkg: "@anthropic-ai/claude-code", version: "2.1.332", bin: "node_modules/.bin/claude" },
  codex: { pkg: "@openai/codex", version: "0.169.0", bin: "node_modules/.bin/codex" },
};

export function agentCache() {
  return process.env.YARD_AGENT_CACHE || path.join(os.homedir(), ".cache", "switchyard", "agents");
}

/** Where a pinned agent's install lives and its program. */
export function agentPaths(name) {
  const a = AGENTS[name];
  const dir = path.join(agentCache(), `${a.pkg.replace("/", "+")}@${a.version}`);
  return { dir, bin: path.join(dir, a.bin) };
}

const log = (msg) => process.stderr.write(`[install-agents] ${msg}\n`);

function versionOf(bin) {
  try {
    return execFileSync(bin, ["--version"], {
      encoding: "utf8",
      timeout: 60_000,
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, DISABLE_AUTOUPDATER: "1" },
    }).trim();
  } catch {
    return null;
  }
}

/** The install works: its program runs and prints the pinned version. */
export function installed(name) {
  const { bin } = agentPaths(name);
  if (!existsSync(bin)) return false;
  const v = versionOf(bin);
  return v?.includes(AGENTS[name].version);
}

function run(argv, opts) {
  return new Promise((resolve, reject) => {
    const child = spawn(argv[0], argv.slice(1), { ...opts, stdio: ["ignore", "pipe", "pipe"] });
    let tail = "";
    const onData = (d) => {
      const s = String(d);
      tail = (tail + s).slice(-4000);
      for (const line of s.split("\n")) if (line.trim()) log(`  ${line.trim().slice(0, 200)}`);
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", onData);
    const ticker = setInterval(
      () => log(`  ...still installing (${Math.round((Date.now() - started) / 1000)} s)`),
      15_000,
    );
    const started = Date.now();
    child.on("error", (e) => {
      clearInterval(ticker);
      reject(e);
    });
    child.on("exit", (code) => {
      clearInterval(ticker);
      if (code === 0) resolve();
      else reject(new Error(`${argv.join(" ")} exited with ${code}:\n${tail}`));
    });
  });
}

async function install(name) {
  const a = AGENTS[name];
  const { dir, bin } = agentPaths(name);
  if (installed(name)) {
    log(`${a.pkg}@${a.version}: already installed (${bin})`);
    return bin;
  }
  // Into a fresh staging folder, renamed into place once it works: an interrupted install
  // never looks installed.
  const staging = `${dir}.partial-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  log(`${a.pkg}@${a.version}: installing into ${dir} (a few hundred MB from the npm registry)...`);
  const npm = process.platform === "win32" ? "npm.cmd" : "npm";
  await run(
    [
      npm,
      "install",
      "--prefix",
      staging,
      "--no-audit",
      "--no-fund",
      "--no-save",
      "--loglevel",
      "warn",
      "--foreground-scripts",
      `${a.pkg}@${a.version}`,
    ],
    { env: { ...process.env, npm_config_update_notifier: "false" } },
  );
  // Claude Code's package ships its native binary in an optional dependency and links it in a
  // postinstall step; when npm skipped that step, bin/claude.exe is a small placeholder.
  if (name === "claude") {
    const pkgDir = path.join(staging, "node_modules", a.pkg);
    const exe = path.join(pkgDir, "bin", "claude.exe");
    if (existsSync(path.join(pkgDir, "install.cjs")) && (!existsSync(exe) || statSync(exe).size < 1_000_000)) {
      log("linking Claude Code's native binary (node install.cjs)");
      await run([process.execPath, "install.cjs"], { cwd: pkgDir });
    }
  }
  rmSync(dir, { recursive: true, force: true });
  renameSync(staging, dir);
  if (!installed(name))
    throw new Error(`${a.pkg}@${a.version} installed into ${dir} but ${bin} --version does not print ${a.version}`);
  log(`${a.pkg}@${a.version}: ok (${versionOf(bin)})`);
  return bin;
}

async function main() {
  const args = process.argv.slice(2);
  const only = args.filter((x) => !x.startsWith("--"));
  const names = only.length ? only : Object.keys(AGENTS);
  for (const n of names)
    if (!(n in AGENTS)) throw new Error(`unknown agent ${n} (known: ${Object.keys(AGENTS).join(", ")})`);
  if (args.includes("--check")) {
    const missing = names.filter((n) => !installed(n));
    for (const n of names) log(`${n}: ${missing.includes(n) ? "missing" : `ok (${agentPaths(n).bin})`}`);
    process.exit(missing.length ? 1 : 0);
  }
  mkdirSync(agentCache(), { recursive: true });
  const out = {};
  for (const n of names) out[n] = await install(n);
  if (args.includes("--json")) process.stdout.write(`${JSON.stringify(out)}\n`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((e) => {
    log(`failed: ${e.message}`);
    process.exit(1);
  });
}
