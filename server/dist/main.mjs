import { createRequire as __yardCreateRequire } from "node:module";
const require = __yardCreateRequire(import.meta.url);
var __defProp = Object.defineProperty;
var __getOwnPropNames = Object.getOwnPropertyNames;
var __esm = (fn, res, err) => function __init() {
  if (err) throw err[0];
  try {
    return fn && (res = (0, fn[__getOwnPropNames(fn)[0]])(fn = 0)), res;
  } catch (e) {
    throw err = [e], e;
  }
};
var __export = (target, all) => {
  for (var name in all)
    __defProp(target, name, { get: all[name], enumerable: true });
};

// server/root.ts
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
function findRoot() {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (; ; ) {
    const pkg = path.join(dir, "package.json");
    if (existsSync(pkg)) {
      try {
        if (JSON.parse(readFileSync(pkg, "utf8")).name === "switchyard") return dir;
      } catch {
      }
    }
    const up = path.dirname(dir);
    if (up === dir) throw new Error("Switchyard's package.json was not found above " + fileURLToPath(import.meta.url));
    dir = up;
  }
}
var REPO_ROOT;
var init_root = __esm({
  "server/root.ts"() {
    "use strict";
    REPO_ROOT = findRoot();
  }
});

// server/db/schema-engine.ts
var schema_engine_exports = {};
__export(schema_engine_exports, {
  MIGRATIONS_DIR: () => MIGRATIONS_DIR,
  REPO_ROOT: () => REPO_ROOT,
  SCHEMA_PATH: () => SCHEMA_PATH,
  applyMigrations: () => applyMigrations,
  openEngine: () => openEngine,
  pendingSchemaSql: () => pendingSchemaSql,
  readMigrations: () => readMigrations
});
import { readFile, readdir } from "node:fs/promises";
import { createRequire } from "node:module";
import path21 from "node:path";
import { PrismaBetterSqlite3 } from "@prisma/adapter-better-sqlite3";
import { bindMigrationAwareSqlAdapterFactory } from "@prisma/driver-adapter-utils";
import * as bg from "@prisma/schema-engine-wasm/schema_engine_bg";
function loadWasm() {
  wasmReady ??= (async () => {
    const require2 = createRequire(import.meta.url);
    const wasmPath = path21.join(path21.dirname(require2.resolve("@prisma/schema-engine-wasm/schema_engine_bg")), "schema_engine_bg.wasm");
    const module = await WebAssembly.compile(await readFile(wasmPath));
    const instance = new WebAssembly.Instance(module, { "./schema_engine_bg.js": bg });
    const exports = instance.exports;
    bg.__wbg_set_wasm(instance.exports);
    exports.__wbindgen_start();
  })();
  return wasmReady;
}
async function readMigrations(dir = MIGRATIONS_DIR) {
  let names = [];
  try {
    names = (await readdir(dir, { withFileTypes: true })).filter((d) => d.isDirectory()).map((d) => d.name).sort();
  } catch (e) {
    if (e.code !== "ENOENT") throw e;
  }
  let lockContent = null;
  try {
    lockContent = await readFile(path21.join(dir, "migration_lock.toml"), "utf8");
  } catch {
    lockContent = 'provider = "sqlite"\n';
  }
  const migrationDirectories = await Promise.all(
    names.map(async (name) => ({
      path: name,
      migrationFile: {
        path: "migration.sql",
        content: { tag: "ok", value: await readFile(path21.join(dir, name, "migration.sql"), "utf8") }
      }
    }))
  );
  return {
    baseDir: dir,
    lockfile: { path: "migration_lock.toml", content: lockContent },
    shadowDbInitScript: "",
    migrationDirectories
  };
}
function withMultiStatementShadow(factory) {
  const connectToShadowDb = factory.connectToShadowDb.bind(factory);
  factory.connectToShadowDb = async () => {
    const shadow = await connectToShadowDb();
    const raw2 = shadow;
    const executeRaw = raw2.executeRaw.bind(shadow);
    raw2.executeRaw = async (q) => {
      try {
        return await executeRaw(q);
      } catch (e) {
        if (!(e instanceof RangeError) || !/more than one statement/.test(e.message)) throw e;
        await raw2.executeScript(q.sql);
        return 0;
      }
    };
    return shadow;
  };
  return factory;
}
function trackConnections(factory, open) {
  for (const method of ["connect", "connectToShadowDb"]) {
    const original = factory[method].bind(factory);
    factory[method] = async () => {
      const conn = await original();
      open.push(conn);
      return conn;
    };
  }
  return factory;
}
async function openEngine(dbFile) {
  await loadWasm();
  const schema = await readFile(SCHEMA_PATH, "utf8");
  const connections = [];
  const factory = trackConnections(withMultiStatementShadow(new PrismaBetterSqlite3({ url: `file:${dbFile}` })), connections);
  const engine = await bg.SchemaEngine.new({ datamodels: [["schema.prisma", schema]] }, () => {
  }, bindMigrationAwareSqlAdapterFactory(factory));
  return {
    engine,
    async close() {
      engine.free();
      await Promise.all(connections.splice(0).map((c) => c.dispose().catch(() => {
      })));
    }
  };
}
async function applyMigrations(dbFile) {
  const { engine, close } = await openEngine(dbFile);
  try {
    const out = await engine.applyMigrations({
      migrationsList: await readMigrations(),
      filters: { externalTables: [], externalEnums: [] }
    });
    return out.appliedMigrationNames;
  } finally {
    await close();
  }
}
async function pendingSchemaSql(scratchDbFile) {
  const { engine, close } = await openEngine(scratchDbFile);
  try {
    const schema = await readFile(SCHEMA_PATH, "utf8");
    const res = await engine.diff({
      from: { tag: "migrations", ...await readMigrations() },
      to: { tag: "schemaDatamodel", files: [{ path: SCHEMA_PATH, content: schema }] },
      script: true,
      exitCode: null,
      filters: { externalTables: [], externalEnums: [] }
    });
    const sql = (res.stdout ?? "").trim();
    return /^-- This is an empty migration\.?$/.test(sql) ? "" : sql;
  } finally {
    await close();
  }
}
var SCHEMA_PATH, MIGRATIONS_DIR, wasmReady;
var init_schema_engine = __esm({
  "server/db/schema-engine.ts"() {
    "use strict";
    init_root();
    SCHEMA_PATH = path21.join(REPO_ROOT, "prisma/schema.prisma");
    MIGRATIONS_DIR = path21.join(REPO_ROOT, "prisma/migrations");
    wasmReady = null;
  }
});

// server/main.ts
init_root();

// server/config.ts
import os from "node:os";
import path2 from "node:path";
var DEFAULT_PORT = 7420;
var DEFAULT_HOST = "127.0.0.1";
function yardHome(env = process.env) {
  if (env.YARD_HOME) return path2.resolve(env.YARD_HOME);
  if (env.XDG_DATA_HOME) return path2.join(path2.resolve(env.XDG_DATA_HOME), "switchyard");
  return path2.join(os.homedir(), ".local", "share", "switchyard");
}
var paths = (home) => ({
  home,
  db: path2.join(home, "yard.db"),
  token: path2.join(home, "token"),
  sessions: path2.join(home, "sessions.json"),
  // hashes of the browser sessions' cookie values
  server: path2.join(home, "server.json"),
  // {url, pid} of the running server, for the CLI
  worktrees: path2.join(home, "worktrees"),
  /** The API on a Unix socket too (same handler and guards), for sandboxed agents without network. */
  socket: path2.join(home, "run", "api.sock"),
  screens: path2.join(home, "screens")
  // final screen of every exited pane, <paneId>.json (0600)
});
var LOOPBACK = /* @__PURE__ */ new Set(["127.0.0.1", "localhost", "::1", "[::1]"]);
function isLoopbackHost(host) {
  return LOOPBACK.has(host) || /^127(\.\d{1,3}){3}$/.test(host);
}
function parseServeArgs(argv, env = process.env) {
  const opts = {
    host: env.HOST || DEFAULT_HOST,
    port: env.PORT ? Number(env.PORT) : DEFAULT_PORT,
    dev: false,
    allowRemote: env.YARD_ALLOW_REMOTE === "1"
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = () => {
      const v = a.includes("=") ? a.slice(a.indexOf("=") + 1) : argv[++i];
      if (v === void 0) throw new Error(`${a.split("=")[0]} needs a value`);
      return v;
    };
    if (a === "--dev") opts.dev = true;
    else if (a === "--allow-remote") opts.allowRemote = true;
    else if (a === "--port" || a.startsWith("--port=")) opts.port = Number(value());
    else if (a === "--host" || a.startsWith("--host=")) opts.host = value();
    else throw new Error(`unknown option ${a} (options: --port N, --host H, --allow-remote, --dev)`);
  }
  if (!Number.isInteger(opts.port) || opts.port < 0 || opts.port > 65535) {
    throw new Error(`invalid port ${JSON.stringify(String(opts.port))}: use a number from 0 to 65535`);
  }
  if (!isLoopbackHost(opts.host) && !opts.allowRemote) {
    throw new Error(`refusing to listen on non-loopback address ${opts.host}: pass --allow-remote if you really mean it`);
  }
  return opts;
}

// server/build.ts
import { spawn } from "node:child_process";
import { existsSync as existsSync2, readdirSync, statSync } from "node:fs";
import path3 from "node:path";
var UI_SOURCES = ["app", "components", "lib", "next.config.ts", "postcss.config.mjs", "package.json", "tsconfig.json"];
function newestMtime(p) {
  if (!existsSync2(p)) return 0;
  const st = statSync(p);
  if (!st.isDirectory()) return st.mtimeMs;
  let newest = st.mtimeMs;
  for (const entry of readdirSync(p)) newest = Math.max(newest, newestMtime(path3.join(p, entry)));
  return newest;
}
function buildIsStale(root2) {
  const buildId = path3.join(root2, ".next", "BUILD_ID");
  if (!existsSync2(buildId)) return { stale: true, reason: "no build yet" };
  const built = statSync(buildId).mtimeMs;
  const newest = Math.max(...UI_SOURCES.map((s) => newestMtime(path3.join(root2, s))));
  return newest > built ? { stale: true, reason: "UI sources changed since the last build" } : { stale: false, reason: "" };
}
async function runNextBuild(root2, log) {
  const started = Date.now();
  log("Building the board UI (next build); this takes a minute or two the first time\u2026");
  await new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path3.join(root2, "node_modules/next/dist/bin/next"), "build"], {
      cwd: root2,
      stdio: ["ignore", "inherit", "inherit"],
      env: { ...process.env, NODE_ENV: "production", NEXT_TELEMETRY_DISABLED: "1" }
    });
    child.on("error", reject);
    child.on("exit", (code) => code === 0 ? resolve() : reject(new Error(`next build failed with exit code ${code}`)));
  });
  log(`UI built in ${((Date.now() - started) / 1e3).toFixed(1)} s.`);
}

// server/http.ts
import { chmodSync as chmodSync7, lstatSync as lstatSync2, mkdirSync as mkdirSync6, rmSync, writeFileSync as writeFileSync4 } from "node:fs";
import http from "node:http";
import net from "node:net";
import path24 from "node:path";
import { createHTTPHandler } from "@trpc/server/adapters/standalone";

// server/api/router.ts
import { z as z15 } from "zod";

// server/core/agents/profiles.ts
init_root();
import { z } from "zod";

// server/core/errors.ts
var ERROR_CODES = {
  BAD_PARAMS: { message: "The request's parameters are invalid.", retryable: false, http: 400 },
  UNAUTHORIZED: { message: "Missing or invalid token.", retryable: false, http: 401 },
  FORBIDDEN: { message: "This caller is not allowed to do that.", retryable: false, http: 403 },
  NOT_FOUND: { message: "No such object.", retryable: false, http: 404 },
  CONFLICT: { message: "That conflicts with the current state.", retryable: false, http: 409 },
  RATE_LIMITED: { message: "Too many running tasks; finish or cancel one first.", retryable: true, http: 429 },
  TIMEOUT: { message: "Timed out waiting.", retryable: true, http: 408 },
  PANE_BUSY: { message: "The pane is busy (the agent is working or waiting on a prompt).", retryable: true, http: 409 },
  AGENT_NOT_READY: { message: "The agent is not ready for input yet.", retryable: true, http: 409 },
  PANE_EXITED: { message: "The pane's process has exited.", retryable: false, http: 409 },
  SUBMIT_STALLED: { message: "The agent did not start working after the prompt was submitted.", retryable: true, http: 409 },
  TASK_NOT_COMPLETED: { message: "Only a completed task can be merged.", retryable: false, http: 409 },
  DIRTY_TARGET: { message: "The target branch's checkout has uncommitted changes.", retryable: false, http: 409 },
  DIRTY_SOURCE: { message: "The task's worktree has uncommitted changes.", retryable: false, http: 409 },
  MERGE_CONFLICT: { message: "The merge conflicts; it was aborted and the target left clean.", retryable: false, http: 409 },
  PAYLOAD_TOO_LARGE: { message: "The request is too large.", retryable: false, http: 413 },
  GIT_FAILED: { message: "A git command failed.", retryable: false, http: 500 },
  SERVER_UNAVAILABLE: { message: "The Switchyard server is not reachable.", retryable: true, http: 503 },
  SANDBOX_UNAVAILABLE: { message: "The OS sandbox (bubblewrap) cannot start on this machine.", retryable: false, http: 503 },
  INTERNAL: { message: "Internal error.", retryable: false, http: 500 }
};
var YardError = class extends Error {
  code;
  details;
  constructor(code, message, details) {
    super(message ?? ERROR_CODES[code].message);
    this.name = "YardError";
    this.code = code;
    this.details = details;
  }
  get retryable() {
    return ERROR_CODES[this.code].retryable;
  }
  toJSON() {
    return { code: this.code, message: this.message, details: this.details ?? null };
  }
};
function isYardError(e) {
  return e instanceof YardError;
}

// server/core/agents/profiles.ts
var ROLES = ["worker", "reviewer", "planner"];
function toView(p) {
  const { env, ...rest } = p;
  return { ...rest, envNames: Object.keys(env).sort() };
}
var CLAUDE_HOOK_EVENTS = [
  "SessionStart",
  "UserPromptSubmit",
  "PreToolUse",
  "PermissionRequest",
  "PostToolUse",
  "PostToolUseFailure",
  "Notification",
  "Stop",
  "StopFailure",
  "SubagentStart",
  "SubagentStop",
  "SessionEnd"
];
function claudeHookSettings() {
  const hooks = {};
  for (const ev of CLAUDE_HOOK_EVENTS) hooks[ev] = [{ matcher: "", hooks: [{ type: "command", command: `yard hook ${ev}` }] }];
  return JSON.stringify({ hooks });
}
var BUILT_IN_PROFILES = [
  { id: "claude-code", name: "Claude Code", role: "worker", argv: ["claude", "--settings", "{{claudeHookSettings}}"], supportsHooks: true, env: {}, builtIn: true, sandbox: false, sandboxNetwork: false },
  { id: "codex", name: "Codex", role: "worker", argv: ["codex"], supportsHooks: false, env: {}, builtIn: true, sandbox: false, sandboxNetwork: false },
  { id: "shell", name: "Shell", role: "worker", argv: ["{{shell}}"], supportsHooks: false, env: {}, builtIn: true, sandbox: false, sandboxNetwork: false },
  { id: "demo", name: "Demo agent", role: "worker", argv: ["{{node}}", "{{yardRoot}}/agents/demo/demo-agent.mjs"], supportsHooks: true, env: {}, builtIn: true, sandbox: false, sandboxNetwork: false }
];
function expandArgv(argv, vars = {}) {
  const all = {
    node: process.execPath,
    yardRoot: REPO_ROOT,
    shell: process.env.SHELL || "/bin/bash",
    claudeHookSettings: claudeHookSettings(),
    ...vars
  };
  return argv.map(
    (arg) => arg.replace(/\{\{(\w+)\}\}/g, (_, name) => {
      const v = all[name];
      if (v === void 0) throw new YardError("BAD_PARAMS", `Unknown placeholder {{${name}}} in agent argv`, { placeholder: name });
      return v;
    })
  );
}
var noNul = (s) => !s.includes("\0");
var argvSchema = z.array(z.string().max(8192).refine(noNul, "argv entries must not contain NUL bytes")).min(1, "argv needs at least the program to run").max(256).refine((a) => a.length === 0 || a[0].trim().length > 0, "argv[0] (the program) must not be empty");
var envSchema = z.record(
  z.string().max(256).regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "environment variable names are letters, digits and _"),
  z.string().max(32768).refine(noNul, "environment values must not contain NUL bytes")
);
var agentProfileInput = z.object({
  id: z.string().regex(/^[a-z0-9][a-z0-9-]{0,39}$/, "id: lowercase letters, digits and -, up to 40 characters"),
  name: z.string().trim().min(1).max(80).optional(),
  role: z.enum(ROLES).default("worker"),
  argv: argvSchema,
  supportsHooks: z.boolean().default(false),
  env: envSchema.default({}),
  sandbox: z.boolean().default(false),
  sandboxNetwork: z.boolean().default(false)
}).refine((p) => p.sandbox || !p.sandboxNetwork, { message: "sandboxNetwork only applies to a sandboxed profile (add sandbox: true / --sandbox)", path: ["sandboxNetwork"] });
var AgentProfiles = class {
  constructor(store) {
    this.store = store;
  }
  store;
  /** Writes the built-ins (their definitions follow the code, so they are refreshed each start). */
  async seed() {
    for (const p of BUILT_IN_PROFILES) await this.store.put(p);
  }
  async list() {
    return (await this.store.list()).map(toView);
  }
  async get(id2) {
    const p = await this.store.find(id2);
    if (!p) throw new YardError("NOT_FOUND", `No agent profile ${JSON.stringify(id2)}`, { id: id2 });
    return p;
  }
  /**
   * Removes a custom profile. Refused for built-ins, and while a task that is not finished
   * (`activeTasks` > 0) was started with it.
   */
  async remove(id2, activeTasks) {
    const p = await this.get(id2);
    if (p.builtIn) throw new YardError("CONFLICT", `${id2} is a built-in profile; it cannot be removed`, { id: id2 });
    if (activeTasks > 0) throw new YardError("CONFLICT", `${activeTasks} running task(s) use the profile ${id2}; finish or cancel them first`, { id: id2, activeTasks });
    await this.store.delete(id2);
    return { removed: id2 };
  }
  async add(input) {
    const p = agentProfileInput.parse(input);
    if (await this.store.find(p.id)) throw new YardError("CONFLICT", `An agent profile ${JSON.stringify(p.id)} already exists`, { id: p.id });
    expandArgv(p.argv);
    const created = await this.store.create({
      id: p.id,
      name: p.name ?? p.id,
      role: p.role,
      argv: p.argv,
      supportsHooks: p.supportsHooks,
      env: p.env,
      builtIn: false,
      sandbox: p.sandbox,
      sandboxNetwork: p.sandboxNetwork
    });
    return toView(created);
  }
};

// server/core/projects/projects.ts
import { z as z3 } from "zod";

// server/contracts/common.ts
import path4 from "node:path";
import { z as z2 } from "zod";
var LIMITS = {
  /** Largest request body the HTTP server reads (bytes). */
  bodyBytes: 4 * 1024 * 1024,
  /** Longest string anywhere in any input (UTF-16 units). */
  string: 256 * 1024,
  /** Deepest nesting of objects and arrays in any input. */
  depth: 32,
  /** Most entries in one array or object. */
  entries: 1e4,
  /** Most values (objects, arrays and scalars) in one input. */
  nodes: 1e5,
  /** A task result's evidence, serialized (bytes of JSON). */
  evidenceBytes: 64 * 1024,
  /** A prompt submitted to an agent. */
  prompt: 256 * 1024,
  /** A result summary, review summary or comment. */
  summary: 64 * 1024,
  /** A filesystem path. */
  path: 4096,
  /** A git ref or branch name. */
  ref: 255
};
function inputShapeError(value) {
  const stack = [{ v: value, depth: 0 }];
  let nodes = 0;
  while (stack.length) {
    const { v, depth: depth2 } = stack.pop();
    if (++nodes > LIMITS.nodes) return `input has more than ${LIMITS.nodes} values`;
    if (typeof v === "string") {
      if (v.length > LIMITS.string) return `a string is longer than ${LIMITS.string} characters`;
      continue;
    }
    if (v === null || typeof v !== "object") continue;
    if (depth2 >= LIMITS.depth) return `input is nested deeper than ${LIMITS.depth} levels`;
    const children = Array.isArray(v) ? v : Object.values(v);
    if (children.length > LIMITS.entries) return `an array or object has more than ${LIMITS.entries} entries`;
    if (!Array.isArray(v)) {
      for (const k of Object.keys(v)) if (k.length > 1024) return "an object key is longer than 1024 characters";
    }
    for (const c of children) stack.push({ v: c, depth: depth2 + 1 });
  }
  return null;
}
function jsonDepthExceeds(text2, max = LIMITS.depth + 4) {
  let depth2 = 0;
  let inString = false;
  for (let i = 0; i < text2.length; i++) {
    const c = text2.charCodeAt(i);
    if (inString) {
      if (c === 92) i++;
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 91 || c === 123) {
      if (++depth2 > max) return true;
    } else if (c === 93 || c === 125) depth2--;
  }
  return false;
}
var noNul2 = (s) => !s.includes("\0");
var text = (max) => z2.string().max(max).refine(noNul2, "must not contain NUL bytes");
var absolutePath = z2.string().trim().min(1, "a path is required").max(LIMITS.path).refine(noNul2, "paths must not contain NUL bytes").refine((p) => path4.isAbsolute(p), "must be an absolute path (the CLI resolves relative paths for you)");
var paneId = z2.string().regex(/^pane[a-z0-9]{4,40}$/, "not a pane id");
var taskId = z2.string().regex(/^tsk[a-z0-9]{4,40}$/, "not a task id");
var id = z2.string().trim().min(1).max(64).regex(/^[A-Za-z0-9_-]+$/, "ids are letters, digits, _ and -");
var profileId = z2.string().regex(/^[a-z0-9][a-z0-9-]{0,39}$/, "profile ids are lowercase letters, digits and -, up to 40 characters");
var contextId = z2.string().trim().min(1).max(100).regex(/^[A-Za-z0-9_.:-]+$/, "context ids are letters, digits and _ . : -");
var eventTypeGlob = z2.string().max(100).regex(/^[A-Za-z0-9_.*-]+$/, "type is a glob of letters, digits, . and *");
var evidence = z2.record(z2.string().max(1024), z2.unknown()).refine((v) => {
  try {
    return Buffer.byteLength(JSON.stringify(v)) <= LIMITS.evidenceBytes;
  } catch {
    return false;
  }
}, `evidence must serialize to at most ${LIMITS.evidenceBytes} bytes of JSON`);

// server/core/ids.ts
import { randomBytes } from "node:crypto";
var ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz";
function newId(prefix) {
  const bytes = randomBytes(10);
  let s = "";
  for (const b of bytes) s += ALPHABET[b & 31];
  return prefix + s;
}

// server/core/projects/projects.ts
var projectAddInput = z3.object({
  path: absolutePath,
  name: z3.string().trim().min(1).max(80).optional()
});
var Projects = class {
  constructor(store, inspect) {
    this.store = store;
    this.inspect = inspect;
  }
  store;
  inspect;
  async add(input) {
    const { path: path25, name } = projectAddInput.parse(input);
    const repo = await this.inspect(path25);
    const existing = await this.store.findByPath(repo.root);
    if (existing) {
      throw new YardError("CONFLICT", `${repo.root} is already on the board as project ${existing.name} (${existing.id})`, { id: existing.id, path: repo.root });
    }
    return this.store.create({ id: newId("prj"), path: repo.root, name: name ?? repo.root.split("/").filter(Boolean).pop() ?? repo.root, defaultTarget: repo.currentBranch });
  }
  async list() {
    return this.store.list();
  }
  async get(id2) {
    const project2 = await this.store.find(id2);
    if (!project2) throw new YardError("NOT_FOUND", `No project ${JSON.stringify(id2)}`, { id: id2 });
    return project2;
  }
  /** Unregisters the project; its repository, worktrees and tasks' history are left alone. */
  async remove(id2) {
    const project2 = await this.get(id2);
    await this.store.delete(id2);
    return project2;
  }
};

// server/core/git/git.ts
import { spawn as spawn2 } from "node:child_process";
var BASE_CONFIG = ["-c", "core.quotepath=off", "-c", "color.ui=false"];
var STRIPPED_ENV = [
  "GIT_ALTERNATE_OBJECT_DIRECTORIES",
  "GIT_CONFIG",
  "GIT_CONFIG_PARAMETERS",
  "GIT_CONFIG_COUNT",
  "GIT_OBJECT_DIRECTORY",
  "GIT_DIR",
  "GIT_WORK_TREE",
  "GIT_IMPLICIT_WORK_TREE",
  "GIT_GRAFT_FILE",
  "GIT_INDEX_FILE",
  "GIT_NO_REPLACE_OBJECTS",
  "GIT_REPLACE_REF_BASE",
  "GIT_PREFIX",
  "GIT_INTERNAL_SUPER_PREFIX",
  "GIT_SHALLOW_FILE",
  "GIT_COMMON_DIR",
  "GIT_NAMESPACE",
  "GIT_QUARANTINE_PATH"
];
var DEFAULT_TIMEOUT_MS = 12e4;
var DEFAULT_MAX_BUFFER = 256 * 1024 * 1024;
var STDERR_KEEP = 8 * 1024;
function gitEnv(extra) {
  const env = { ...process.env };
  for (const k of STRIPPED_ENV) delete env[k];
  for (const k of Object.keys(env)) if (k.startsWith("GIT_CONFIG_KEY_") || k.startsWith("GIT_CONFIG_VALUE_")) delete env[k];
  env.GIT_TERMINAL_PROMPT = "0";
  env.LC_ALL = "C";
  env.LANGUAGE = "C";
  env.GIT_OPTIONAL_LOCKS = "0";
  env.GIT_EDITOR = "true";
  env.GIT_PAGER = "cat";
  if (extra) {
    for (const [k, v] of Object.entries(extra)) {
      if (v === void 0) delete env[k];
      else env[k] = v;
    }
  }
  return env;
}
function runGit(args, opts) {
  for (const a of args) {
    if (typeof a !== "string" || a.includes("\0")) {
      return Promise.reject(new YardError("BAD_PARAMS", "git argument contains a NUL byte or is not a string", { args: [...args] }));
    }
  }
  const argv = [...BASE_CONFIG, ...args];
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxBuffer = opts.maxBuffer ?? DEFAULT_MAX_BUFFER;
  return new Promise((resolve, reject) => {
    const child = spawn2("git", argv, {
      cwd: opts.cwd,
      env: gitEnv(opts.env),
      stdio: [opts.input === void 0 ? "ignore" : "pipe", "pipe", "pipe"],
      windowsHide: true,
      // Own process group (and session, so no controlling terminal for ssh/gpg to prompt on):
      // a timeout kills git together with its hooks and helpers.
      detached: process.platform !== "win32"
    });
    const killTree = () => {
      try {
        if (child.pid && process.platform !== "win32") process.kill(-child.pid, "SIGKILL");
        else child.kill("SIGKILL");
      } catch {
        child.kill("SIGKILL");
      }
    };
    const out = [];
    const err = [];
    let outLen = 0;
    let errLen = 0;
    let overflow = false;
    let timedOut = false;
    let settled = false;
    const timer = timeoutMs > 0 ? setTimeout(() => {
      timedOut = true;
      killTree();
      child.stdout?.destroy();
      child.stderr?.destroy();
      fail(new YardError("TIMEOUT", `git ${args[0] ?? ""} timed out after ${timeoutMs} ms`, { args: [...args], cwd: opts.cwd, stderr: tail(Buffer.concat(err).toString("utf8")) }));
    }, timeoutMs) : void 0;
    child.stdout.on("data", (b) => {
      outLen += b.length;
      if (outLen > maxBuffer) {
        if (!overflow) {
          overflow = true;
          killTree();
        }
        return;
      }
      out.push(b);
    });
    child.stderr.on("data", (b) => {
      if (errLen < STDERR_KEEP * 4) err.push(b);
      errLen += b.length;
    });
    if (opts.input !== void 0 && child.stdin) {
      child.stdin.on("error", () => {
      });
      child.stdin.end(opts.input);
    }
    const fail = (e) => {
      if (settled) return;
      settled = true;
      if (timer) clearTimeout(timer);
      reject(e);
    };
    child.on("error", (e) => {
      fail(
        new YardError(
          "GIT_FAILED",
          e.code === "ENOENT" ? `cannot run git in ${opts.cwd} (git missing from PATH, or the directory does not exist)` : `cannot run git: ${e.message}`,
          { args: [...args], cwd: opts.cwd, code: null, stderr: "" }
        )
      );
    });
    child.on("close", (code, signal) => {
      if (settled) return;
      const stdout = Buffer.concat(out).toString("utf8");
      const stderr = Buffer.concat(err).toString("utf8");
      if (timedOut) return;
      if (overflow) {
        return fail(new YardError("GIT_FAILED", `git ${args[0] ?? ""} produced more than ${maxBuffer} bytes of output`, { args: [...args], cwd: opts.cwd, code: null, stderr: tail(stderr) }));
      }
      const exit = code ?? (signal ? 128 : 1);
      if (exit !== 0 && !opts.allowFail) {
        const firstLine2 = firstErrorLine(stderr) || firstErrorLine(stdout);
        return fail(
          new YardError("GIT_FAILED", `git ${describeArgs(args)} failed (exit ${exit})${firstLine2 ? `: ${firstLine2}` : ""}`, {
            args: [...args],
            cwd: opts.cwd,
            code: exit,
            stderr: tail(stderr),
            ...stdout && exit !== 0 ? { stdout: tail(stdout) } : {}
          })
        );
      }
      settled = true;
      if (timer) clearTimeout(timer);
      resolve({ stdout, stderr, code: exit });
    });
  });
}
function describeArgs(args) {
  let i = 0;
  while (i < args.length && args[i] === "-c") i += 2;
  return args.slice(i, i + 2).join(" ");
}
function tail(s) {
  return s.length > STDERR_KEEP ? "\u2026" + s.slice(-STDERR_KEEP) : s;
}
function firstErrorLine(s) {
  const lines = s.split("\n").map((l) => l.trim()).filter(Boolean);
  const fatal = lines.find((l) => l.startsWith("fatal:") || l.startsWith("error:"));
  return (fatal ?? lines[0] ?? "").slice(0, 300);
}
function gitStderr(e) {
  if (isYardError(e) && e.code === "GIT_FAILED" && e.details) {
    const s = e.details.stderr;
    return typeof s === "string" ? s : "";
  }
  return "";
}
function firstLine(s) {
  const i = s.indexOf("\n");
  return i < 0 ? s : s.slice(0, i);
}
var FALLBACK_IDENTITY = { name: "Switchyard", email: "switchyard@localhost" };
async function committerIdentityArgs(cwd) {
  const r = await runGit(["config", "--get-regexp", "^user\\.(name|email)$"], { cwd, allowFail: true });
  const keys = new Set(
    r.stdout.split("\n").map((l) => l.split(" ")[0]?.toLowerCase() ?? "").filter(Boolean)
  );
  const env = process.env;
  const out = [];
  if (!keys.has("user.name") && !(env.GIT_AUTHOR_NAME && env.GIT_COMMITTER_NAME)) out.push("-c", `user.name=${FALLBACK_IDENTITY.name}`);
  if (!keys.has("user.email") && !(env.GIT_AUTHOR_EMAIL && env.GIT_COMMITTER_EMAIL)) out.push("-c", `user.email=${FALLBACK_IDENTITY.email}`);
  return out;
}
function isHexObjectId(s) {
  return typeof s === "string" && /^[0-9a-f]{4,64}$/i.test(s);
}

// server/core/git/repo.ts
import { promises as fsp2 } from "node:fs";
import path6 from "node:path";

// server/core/git/paths.ts
import { createHash } from "node:crypto";
import { realpathSync, promises as fsp } from "node:fs";
import path5 from "node:path";
function requireAbsolutePath(p, what = "path") {
  if (typeof p !== "string" || p.length === 0) throw new YardError("BAD_PARAMS", `${what} must be a non-empty string`, { [what]: p ?? null });
  if (/[\0\r\n]/.test(p)) throw new YardError("BAD_PARAMS", `${what} contains a control character`, { [what]: p });
  if (!path5.isAbsolute(p)) throw new YardError("BAD_PARAMS", `${what} must be an absolute path`, { [what]: p });
  return path5.resolve(p);
}
function realpathOrResolve(p) {
  try {
    return realpathSync.native(p);
  } catch {
    return path5.resolve(p);
  }
}
async function realpathOrResolveAsync(p) {
  try {
    return await fsp.realpath(p);
  } catch {
    return path5.resolve(p);
  }
}
var SAFE_SEGMENT = /^[A-Za-z0-9._-]+$/;
function sanitizeBranchForPath(name) {
  if (SAFE_SEGMENT.test(name) && !name.startsWith(".") && !name.startsWith("-") && name.length <= 100) return name;
  let s = name.replace(/[^A-Za-z0-9._-]+/g, "-").replace(/-{2,}/g, "-").replace(/^[.-]+/, "").replace(/[.-]+$/, "");
  if (s.length > 90) s = s.slice(0, 90).replace(/[.-]+$/, "");
  const h = shortHash(name);
  return s ? `${s}-${h}` : `branch-${h}`;
}
function shortHash(s, len = 8) {
  return createHash("sha256").update(s).digest("hex").slice(0, len);
}
function repoDirLabel(root2) {
  const base = path5.basename(root2) || "repo";
  const s = base.replace(/[^A-Za-z0-9._-]+/g, "-").replace(/^[.-]+/, "").slice(0, 60);
  return s || "repo";
}
function defaultWorktreeRoot(yardHome2, repoRoot) {
  const home = requireAbsolutePath(yardHome2, "yardHome");
  const real = realpathOrResolve(requireAbsolutePath(repoRoot, "repoRoot"));
  return path5.join(home, "worktrees", `${repoDirLabel(real)}-${shortHash(real)}`);
}
function defaultWorktreePath(yardHome2, repoRoot, branch) {
  return path5.join(defaultWorktreeRoot(yardHome2, repoRoot), sanitizeBranchForPath(branch));
}
async function dirState(p) {
  let st;
  try {
    st = await fsp.lstat(p);
  } catch (e) {
    if (e.code === "ENOENT") return "missing";
    throw e;
  }
  if (!st.isDirectory()) return "not-a-dir";
  const entries = await fsp.readdir(p);
  return entries.length === 0 ? "empty-dir" : "non-empty-dir";
}
async function mkdirpTracked(dir) {
  const first = await fsp.mkdir(dir, { recursive: true });
  return first ?? void 0;
}
async function rmdirUpTo(from, top) {
  if (!top) return;
  let cur = path5.resolve(from);
  const stop = path5.resolve(top);
  if (cur !== stop && !cur.startsWith(stop + path5.sep)) return;
  for (; ; ) {
    try {
      await fsp.rmdir(cur);
    } catch {
      return;
    }
    if (cur === stop) return;
    cur = path5.dirname(cur);
  }
}

// server/core/git/repo.ts
async function inspectRepo(p) {
  const abs = requireAbsolutePath(p, "path");
  let st;
  try {
    st = await fsp2.stat(abs);
  } catch {
    throw new YardError("BAD_PARAMS", `${abs} does not exist`, { path: abs });
  }
  if (!st.isDirectory()) throw new YardError("BAD_PARAMS", `${abs} is not a directory`, { path: abs });
  const INFO = ["rev-parse", "--is-bare-repository", "--is-inside-work-tree", "--show-toplevel", "--absolute-git-dir", "--git-common-dir"];
  let isBare, insideWorkTree, toplevel, gitDir, commonDir;
  let currentBranch;
  let headSha;
  const fast = await runGit([...INFO, "HEAD", "--symbolic-full-name", "HEAD"], { cwd: abs, allowFail: true });
  const f = fast.stdout.split("\n");
  if (fast.code === 0 && f.length >= 7 && /^[0-9a-f]{40,64}$/.test(f[5])) {
    [isBare, insideWorkTree, toplevel, gitDir, commonDir] = f;
    headSha = f[5];
    currentBranch = f[6].startsWith("refs/heads/") ? f[6].slice("refs/heads/".length) : null;
  } else {
    const [info, sym, head] = await Promise.all([
      runGit(INFO, { cwd: abs, allowFail: true }),
      runGit(["symbolic-ref", "-q", "HEAD"], { cwd: abs, allowFail: true }),
      runGit(["rev-parse", "-q", "--verify", "HEAD^{commit}"], { cwd: abs, allowFail: true })
    ]);
    if (info.code !== 0) {
      const lines = info.stdout.split("\n");
      const err = info.stderr;
      if (lines[0] === "true") throw new YardError("BAD_PARAMS", `${abs} is a bare repository; a repository with a working tree is required`, { path: abs });
      if (/not a git repository/i.test(err)) throw new YardError("BAD_PARAMS", `${abs} is not a git repository`, { path: abs });
      if (/must be run in a work tree/i.test(err)) throw new YardError("BAD_PARAMS", `${abs} is inside a .git directory, not a working tree`, { path: abs });
      throw new YardError("BAD_PARAMS", `git cannot use ${abs}: ${firstLine(err.trim()) || `exit ${info.code}`}`, { path: abs, stderr: err });
    }
    [isBare, insideWorkTree, toplevel, gitDir, commonDir] = info.stdout.split("\n");
    const symRef = sym.code === 0 ? firstLine(sym.stdout).trim() : "";
    currentBranch = symRef.startsWith("refs/heads/") ? symRef.slice("refs/heads/".length) : null;
    headSha = head.code === 0 ? firstLine(head.stdout).trim() || null : null;
  }
  if (isBare === "true") throw new YardError("BAD_PARAMS", `${abs} is a bare repository; a repository with a working tree is required`, { path: abs });
  if (insideWorkTree !== "true" || !toplevel) throw new YardError("BAD_PARAMS", `${abs} is not inside a git working tree`, { path: abs });
  const [root2, gd, cd] = await Promise.all([
    realpathOrResolveAsync(toplevel),
    realpathOrResolveAsync(gitDir ?? path6.join(toplevel, ".git")),
    realpathOrResolveAsync(path6.resolve(abs, commonDir || ".git"))
  ]);
  return { root: root2, hasHead: headSha !== null, headSha, currentBranch, isBare: false, gitDir: gd, commonDir: cd };
}

// server/core/git/refs.ts
import os2 from "node:os";
var MAX_BRANCH_LEN = 200;
function branchNameProblem(name) {
  if (typeof name !== "string") return "branch name must be a string";
  if (name.length === 0) return "branch name is empty";
  if (name.length > MAX_BRANCH_LEN) return `branch name is longer than ${MAX_BRANCH_LEN} characters`;
  if (name.startsWith("-")) return "branch name must not start with '-'";
  if (/[\x00-\x20\x7f]/.test(name)) return "branch name must not contain spaces or control characters";
  if (/[~^:?*[\\]/.test(name)) return "branch name must not contain any of ~ ^ : ? * [ \\";
  if (name.includes("..")) return "branch name must not contain '..'";
  if (name.includes("@{")) return "branch name must not contain '@{'";
  if (name === "@" || name === "HEAD") return `'${name}' is not a valid branch name`;
  if (name.startsWith("/") || name.endsWith("/") || name.includes("//")) return "branch name has an empty path component";
  if (name.endsWith(".")) return "branch name must not end with '.'";
  for (const part of name.split("/")) {
    if (part.startsWith(".")) return "a branch name component must not start with '.'";
    if (part.endsWith(".lock")) return "a branch name component must not end with '.lock'";
  }
  return null;
}
async function validateBranchName(name, what = "branch") {
  const problem = branchNameProblem(name);
  if (problem) throw new YardError("BAD_PARAMS", `invalid ${what} name: ${problem}`, { [what]: name ?? null });
  const n = name;
  const r = await runGit(["check-ref-format", "--branch", n], { cwd: os2.tmpdir(), allowFail: true });
  if (r.code !== 0 || firstLine(r.stdout) !== n) {
    throw new YardError("BAD_PARAMS", `invalid ${what} name: git rejects '${n}'`, { [what]: n });
  }
  return n;
}
function revisionProblem(rev) {
  if (typeof rev !== "string" || rev.length === 0) return "ref must be a non-empty string";
  if (rev.length > 1024) return "ref is too long";
  if (rev.startsWith("-")) return "ref must not start with '-'";
  if (/[\x00-\x20\x7f]/.test(rev)) return "ref must not contain spaces or control characters";
  if (rev.includes("..")) return "ref must name one commit, not a range";
  return null;
}
function requireRevision(rev, what) {
  const p = revisionProblem(rev);
  if (p) throw new YardError("BAD_PARAMS", `invalid ${what}: ${p}`, { [what]: rev ?? null });
  return rev;
}
async function resolveCommit(cwd, rev) {
  requireRevision(rev, "ref");
  if (branchNameProblem(rev) === null) {
    const b = await runGit(["rev-parse", "-q", "--verify", `refs/heads/${rev}^{commit}`], { cwd, allowFail: true });
    if (b.code === 0) return firstLine(b.stdout).trim();
  }
  const r = await runGit(["rev-parse", "-q", "--verify", `${rev}^{commit}`], { cwd, allowFail: true });
  return r.code === 0 ? firstLine(r.stdout).trim() : null;
}
async function branchTip(cwd, branch) {
  const problem = branchNameProblem(branch);
  if (problem) throw new YardError("BAD_PARAMS", `invalid branch name: ${problem}`, { branch });
  const r = await runGit(["rev-parse", "-q", "--verify", `refs/heads/${branch}^{commit}`], { cwd, allowFail: true });
  return r.code === 0 ? firstLine(r.stdout).trim() : null;
}
async function branchExists(cwd, branch) {
  return await branchTip(cwd, branch) !== null;
}
async function resolveBaseSha(repoPath, ref, opts = {}) {
  const repo = await inspectRepo(repoPath);
  if (ref === void 0 || ref === null || ref === "" || ref === "HEAD") {
    if (!repo.headSha) throw new YardError("BAD_PARAMS", "the repository has no commits yet; commit something first", { repo: repo.root });
    return repo.headSha;
  }
  requireRevision(ref, "ref");
  if (opts.fetch) await fetchFor(repo.root, ref, opts.fetch, opts.fetchTimeoutMs);
  const sha = await resolveCommit(repo.root, ref);
  if (!sha) {
    if (!repo.headSha) throw new YardError("BAD_PARAMS", `the repository has no commits yet, so '${ref}' cannot be resolved`, { repo: repo.root, ref });
    throw new YardError("BAD_PARAMS", `'${ref}' does not name a commit in ${repo.root}`, { repo: repo.root, ref });
  }
  return sha;
}
async function fetchFor(root2, ref, fetch, timeoutMs) {
  const remotes = (await runGit(["remote"], { cwd: root2 })).stdout.split("\n").map((s) => s.trim()).filter(Boolean);
  if (remotes.length === 0) throw new YardError("BAD_PARAMS", "fetch requested but the repository has no remotes", { repo: root2, ref });
  let args;
  if (typeof fetch === "string") {
    if (!remotes.includes(fetch)) throw new YardError("BAD_PARAMS", `no remote named '${fetch}'`, { repo: root2, remote: fetch, remotes });
    args = ["fetch", "--quiet", "--no-write-fetch-head", fetch];
  } else {
    const remote = remotes.filter((r) => ref.startsWith(r + "/")).sort((a, b) => b.length - a.length)[0];
    const rest = remote ? ref.slice(remote.length + 1) : "";
    if (remote && branchNameProblem(rest) === null) {
      args = ["fetch", "--quiet", "--no-write-fetch-head", remote, `refs/heads/${rest}`];
    } else {
      const r = remotes.includes("origin") ? "origin" : remotes.length === 1 ? remotes[0] : null;
      if (!r) throw new YardError("BAD_PARAMS", "fetch requested but it is unclear which remote to fetch; name one", { repo: root2, ref, remotes });
      args = ["fetch", "--quiet", "--no-write-fetch-head", r];
    }
  }
  await runGit(args, { cwd: root2, timeoutMs: timeoutMs ?? 12e4 });
}
async function isMerged(repoRoot, branchOrSha, target) {
  const repo = await inspectRepo(repoRoot);
  requireRevision(branchOrSha, "branch");
  requireRevision(target, "target");
  const [a, b] = await Promise.all([resolveCommit(repo.root, branchOrSha), resolveCommit(repo.root, target)]);
  if (!a) throw new YardError("NOT_FOUND", `'${branchOrSha}' does not name a commit`, { repo: repo.root, branch: branchOrSha });
  if (!b) throw new YardError("NOT_FOUND", `'${target}' does not name a commit`, { repo: repo.root, target });
  const r = await runGit(["merge-base", "--is-ancestor", a, b], { cwd: repo.root, allowFail: true });
  if (r.code === 0) return true;
  if (r.code === 1) return false;
  throw new YardError("GIT_FAILED", "git merge-base --is-ancestor failed", { args: ["merge-base", "--is-ancestor", a, b], code: r.code, stderr: r.stderr });
}
async function listRefs(repoPath, opts = {}) {
  const repo = await inspectRepo(repoPath);
  const limit = Math.max(1, Math.min(opts.limit ?? 50, 500));
  const q = (opts.query ?? "").trim().toLowerCase();
  const refs = await runGit(["for-each-ref", "--format=%(refname)%00%(objectname)%00%(HEAD)%00%(symref)", "refs/heads", "refs/remotes"], { cwd: repo.root });
  const branches = [];
  for (const line2 of refs.stdout.split("\n")) {
    const [ref, sha, head, symref] = line2.split("\0");
    if (!ref || !sha || symref) continue;
    const name = ref.startsWith("refs/heads/") ? ref.slice("refs/heads/".length) : ref.slice("refs/remotes/".length);
    if (q && !name.toLowerCase().includes(q)) continue;
    branches.push({ name, sha, current: head === "*" });
  }
  branches.sort((a, b) => Number(b.current) - Number(a.current));
  if (!repo.headSha) return { branches: branches.slice(0, limit), commits: [] };
  const FORMAT = "--format=%H%x00%s";
  const commits = [];
  const seen = /* @__PURE__ */ new Set();
  const add = (out) => {
    for (const line2 of out.split("\n")) {
      const i = line2.indexOf("\0");
      if (i <= 0 || seen.has(line2.slice(0, i))) continue;
      seen.add(line2.slice(0, i));
      commits.push({ sha: line2.slice(0, i), subject: line2.slice(i + 1) });
    }
  };
  if (q && /^[0-9a-f]{4,64}$/.test(q)) {
    const exact = await runGit(["rev-parse", "-q", "--verify", `${q}^{commit}`], { cwd: repo.root, allowFail: true });
    if (exact.code === 0) add((await runGit(["log", "-1", FORMAT, firstLine(exact.stdout).trim(), "--"], { cwd: repo.root })).stdout);
  }
  const grep = q ? ["-i", "-F", `--grep=${opts.query.trim()}`] : [];
  add((await runGit(["log", `--max-count=${limit}`, ...grep, FORMAT, "HEAD", "--"], { cwd: repo.root })).stdout);
  return { branches: branches.slice(0, limit), commits: commits.slice(0, limit) };
}

// server/core/git/lock.ts
var KeyedMutex = class {
  tails = /* @__PURE__ */ new Map();
  async run(key, fn) {
    const prev = this.tails.get(key) ?? Promise.resolve();
    let release;
    const mine = new Promise((r) => release = r);
    const tail2 = prev.then(() => mine);
    this.tails.set(key, tail2);
    await prev;
    try {
      return await fn();
    } finally {
      release();
      if (this.tails.get(key) === tail2) this.tails.delete(key);
    }
  }
  /** True while some caller holds or waits for `key`. */
  isLocked(key) {
    return this.tails.has(key);
  }
};
var repoLocks = new KeyedMutex();
function withRepoLock(key, fn) {
  return repoLocks.run(key, fn);
}

// server/core/git/status.ts
import { promises as fsp3 } from "node:fs";
import path7 from "node:path";
async function statusEntries(p, opts = {}) {
  const cwd = requireAbsolutePath(p, "path");
  let out;
  try {
    out = (await runGit(["status", "--porcelain=v1", "-z", "--no-renames", `--untracked-files=${opts.untracked ?? "normal"}`, "--ignored=no"], { cwd })).stdout;
  } catch (e) {
    const err = gitStderr(e);
    if (/not a git repository|must be run in a work tree/i.test(err)) throw new YardError("BAD_PARAMS", `${cwd} is not a git working tree`, { path: cwd });
    if (e.code === "GIT_FAILED" && /cannot run git in/.test(e.message)) throw new YardError("BAD_PARAMS", `${cwd} does not exist`, { path: cwd });
    throw e;
  }
  return parsePorcelainZ(out);
}
function parsePorcelainZ(out) {
  const entries = [];
  for (const rec of out.split("\0")) {
    if (rec.length < 4) continue;
    entries.push({ x: rec[0], y: rec[1], path: rec.slice(3) });
  }
  return entries;
}
async function operationInProgress(gitDir) {
  const exists = async (name) => {
    try {
      await fsp3.lstat(path7.join(gitDir, name));
      return true;
    } catch {
      return false;
    }
  };
  const [merge, rebaseMerge, rebaseApply, pick, revert] = await Promise.all([
    exists("MERGE_HEAD"),
    exists("rebase-merge"),
    exists("rebase-apply"),
    exists("CHERRY_PICK_HEAD"),
    exists("REVERT_HEAD")
  ]);
  if (merge) return "merge";
  if (rebaseMerge || rebaseApply) return "rebase";
  if (pick) return "cherry-pick";
  if (revert) return "revert";
  return null;
}

// server/core/git/worktree.ts
import { promises as fsp4 } from "node:fs";
import path8 from "node:path";
async function createWorktree(input) {
  if (!input || typeof input !== "object") throw new YardError("BAD_PARAMS", "createWorktree needs an options object");
  const repoArg = requireAbsolutePath(input.repoRoot, "repoRoot");
  const problem = branchNameProblem(input.branch);
  if (problem) throw new YardError("BAD_PARAMS", `invalid branch name: ${problem}`, { branch: input.branch ?? null });
  if (!isHexObjectId(input.baseSha)) throw new YardError("BAD_PARAMS", "baseSha must be a hex commit id", { baseSha: input.baseSha ?? null });
  if (input.path === void 0 && input.yardHome === void 0) throw new YardError("BAD_PARAMS", "either path or yardHome is required", {});
  const explicitPath = input.path !== void 0 ? requireAbsolutePath(input.path, "path") : void 0;
  if (input.yardHome !== void 0) requireAbsolutePath(input.yardHome, "yardHome");
  const [repo, branch] = await Promise.all([inspectRepo(repoArg), validateBranchName(input.branch)]);
  const target = explicitPath ?? defaultWorktreePath(input.yardHome, repo.root, branch);
  if (target === repo.root || target.startsWith(repo.gitDir + path8.sep) || target === repo.gitDir || target === repo.commonDir || target.startsWith(repo.commonDir + path8.sep)) {
    throw new YardError("BAD_PARAMS", "the worktree path must not be the repository itself or inside its .git directory", { path: target });
  }
  return withRepoLock(repo.commonDir, async () => {
    const check = await runGit(["cat-file", "--batch-check"], { cwd: repo.root, input: `${input.baseSha}^{commit}
refs/heads/${branch}
` });
    const [baseLine = "", branchLine = ""] = check.stdout.split("\n");
    const baseM = /^([0-9a-f]{40,64}) commit /.exec(baseLine);
    if (!baseM) throw new YardError("BAD_PARAMS", `base ${input.baseSha} is not a commit in ${repo.root}`, { baseSha: input.baseSha, repo: repo.root });
    const baseSha = baseM[1];
    const branchM = /^([0-9a-f]{40,64}) commit /.exec(branchLine);
    const branchPreexisting = branchM !== null;
    const headSha = branchM ? branchM[1] : baseSha;
    const state = await dirState(target);
    if (state === "non-empty-dir" || state === "not-a-dir") {
      throw new YardError("CONFLICT", `worktree path ${target} already exists and is not an empty directory`, { path: target });
    }
    const createdTop = await mkdirpTracked(path8.dirname(target));
    const args = branchPreexisting ? ["worktree", "add", "--quiet", "--", target, branch] : ["worktree", "add", "--quiet", "--no-track", "-b", branch, "--", target, baseSha];
    try {
      await runGit(args, { cwd: repo.root });
    } catch (e) {
      await rollbackCreate(repo.root, target, state, branchPreexisting ? null : { branch, sha: baseSha }, createdTop);
      const err = gitStderr(e);
      if (/already checked out at|is already used by worktree|already locked/i.test(err)) {
        const at = /(?:checked out at|used by worktree at) '([^']+)'/.exec(err)?.[1];
        throw new YardError("CONFLICT", `branch '${branch}' is already checked out in another worktree`, { branch, checkedOutAt: at ?? null });
      }
      throw e;
    }
    const worktreePath = await realpathOrResolveAsync(target);
    return { worktreePath, branch, branchPreexisting, baseSha, headSha, repoRoot: repo.root };
  });
}
async function rollbackCreate(root2, target, priorState, newBranch, createdTop) {
  try {
    const wt = await findWorktree(root2, target);
    if (wt) await runGit(["worktree", "remove", "--force", "--force", "--", wt.path], { cwd: root2, allowFail: true });
  } catch {
  }
  try {
    if (priorState === "missing") {
      await fsp4.rm(target, { recursive: true, force: true });
    } else {
      for (const e of await fsp4.readdir(target).catch(() => [])) await fsp4.rm(path8.join(target, e), { recursive: true, force: true });
    }
  } catch {
  }
  await runGit(["worktree", "prune"], { cwd: root2, allowFail: true });
  if (newBranch) {
    await runGit(["update-ref", "-d", `refs/heads/${newBranch.branch}`, newBranch.sha], { cwd: root2, allowFail: true });
  }
  await rmdirUpTo(path8.dirname(target), createdTop);
}
async function listWorktrees(repoRoot) {
  const cwd = requireAbsolutePath(repoRoot, "repoRoot");
  const out = (await runGit(["worktree", "list", "--porcelain", "-z"], { cwd })).stdout;
  return parseWorktreeList(out);
}
function parseWorktreeList(out) {
  const list = [];
  let cur = null;
  for (const field of out.split("\0")) {
    if (field === "") {
      if (cur) list.push(cur);
      cur = null;
      continue;
    }
    const sp = field.indexOf(" ");
    const key = sp < 0 ? field : field.slice(0, sp);
    const val = sp < 0 ? "" : field.slice(sp + 1);
    if (key === "worktree") {
      if (cur) list.push(cur);
      cur = { path: val, head: null, branch: null, detached: false, bare: false, locked: false, prunable: false };
      continue;
    }
    if (!cur) continue;
    if (key === "HEAD") cur.head = val;
    else if (key === "branch") cur.branch = val.startsWith("refs/heads/") ? val.slice("refs/heads/".length) : val;
    else if (key === "detached") cur.detached = true;
    else if (key === "bare") cur.bare = true;
    else if (key === "locked") cur.locked = true;
    else if (key === "prunable") cur.prunable = true;
  }
  if (cur) list.push(cur);
  return list;
}
async function findWorktree(repoRoot, worktreePath) {
  const want = await realpathOrResolveAsync(requireAbsolutePath(worktreePath, "worktreePath"));
  const resolved = path8.resolve(worktreePath);
  for (const wt of await listWorktrees(repoRoot)) {
    if (wt.path === resolved || wt.path === want || await realpathOrResolveAsync(wt.path) === want) return wt;
  }
  return null;
}
async function removeWorktree(repoRoot, worktreePath) {
  const root2 = requireAbsolutePath(repoRoot, "repoRoot");
  const all = await listWorktrees(root2);
  const main2 = all[0];
  const want = await realpathOrResolveAsync(requireAbsolutePath(worktreePath, "worktreePath"));
  let wt;
  for (const w of all) {
    if (w.path === want || w.path === path8.resolve(worktreePath) || await realpathOrResolveAsync(w.path) === want) {
      wt = w;
      break;
    }
  }
  if (!wt) {
    await runGit(["worktree", "prune"], { cwd: root2, allowFail: true });
    return { removed: false, wasRegistered: false };
  }
  if (wt === main2) throw new YardError("BAD_PARAMS", "refusing to remove the repository's main worktree", { path: wt.path });
  try {
    await runGit(["worktree", "remove", "--force", "--", wt.path], { cwd: root2 });
  } catch (e) {
    if (isYardError(e) && /locked/i.test(gitStderr(e))) {
      throw new YardError("GIT_FAILED", `worktree ${wt.path} is locked; unlock it (git worktree unlock) to remove it`, e.details);
    }
    throw e;
  } finally {
    await runGit(["worktree", "prune"], { cwd: root2, allowFail: true });
  }
  return { removed: true, wasRegistered: true };
}

// server/core/git/diff.ts
import { randomBytes as randomBytes2 } from "node:crypto";
import { constants as fsConstants, promises as fsp5 } from "node:fs";
import os3 from "node:os";
import path9 from "node:path";
var DIFF_CONFIG = ["-c", "diff.noprefix=false", "-c", "diff.mnemonicPrefix=false", "-c", "diff.relative=false"];
var DIFF_FLAGS = ["--cached", "-M", "--no-color", "--no-ext-diff", "--no-textconv", "--src-prefix=a/", "--dst-prefix=b/", "-z", "--raw"];
async function diffWorktree(input) {
  const { files, patch } = await runDiff({ worktreePath: input?.worktreePath, baseSha: input?.baseSha }, true);
  return { diff: patch, files };
}
async function diffCommits(input) {
  return diffRevs(requireAbsolutePath(input?.repoRoot, "repoRoot"), { baseSha: input.baseSha }, input.tip);
}
async function diffTreeToCommit(input) {
  return diffRevs(requireAbsolutePath(input?.repoRoot, "repoRoot"), { tree: input.tree }, input.tip);
}
async function diffRevs(root2, fromInput, tip) {
  const from = fromRev(fromInput);
  const flags = DIFF_FLAGS.filter((f) => f !== "--cached");
  const run2 = async (extra) => {
    try {
      return (await runGit([...DIFF_CONFIG, "diff", ...flags, ...extra, from.rev, `${tip}^{commit}`, "--"], { cwd: root2 })).stdout;
    } catch (e) {
      if ("tree" in fromInput && BAD_REVISION.test(gitStderr(e))) throw new YardError("BAD_PARAMS", from.badMessage, { ...from.details, tip });
      throw e;
    }
  };
  const parsed = parseRawPatchZ(await run2(["-p"]));
  if (parsed.files) return { diff: parsed.patch, files: parsed.files };
  return { diff: parsed.patch, files: parseRawNumstatZ(await run2(["--numstat"])).files };
}
async function withWorktreeIndex(wt, fn) {
  const realIndex = await indexPathOf(wt);
  const tmpIndex = path9.join(os3.tmpdir(), `yard-index-${process.pid}-${randomBytes2(6).toString("hex")}`);
  const env = { GIT_INDEX_FILE: tmpIndex };
  let failed = true;
  try {
    let copied = false;
    try {
      await fsp5.copyFile(realIndex, tmpIndex, fsConstants.COPYFILE_EXCL);
      const st = await fsp5.stat(realIndex, { bigint: true });
      const t2 = Number(st.mtimeNs / 1000n - 1n) / 1e6;
      await fsp5.utimes(tmpIndex, t2, t2);
      copied = true;
    } catch (e) {
      if (e.code !== "ENOENT") throw e;
    }
    if (!copied) await runGit(["read-tree", "HEAD"], { cwd: wt, env, allowFail: true });
    await runGit(["-c", "core.splitIndex=false", "-c", "core.fsmonitor=false", "-c", "advice.addEmbeddedRepo=false", "add", "-A"], { cwd: wt, env });
    const result = await fn(env);
    failed = false;
    return result;
  } finally {
    await Promise.all([fsp5.rm(tmpIndex, { force: true }), failed ? fsp5.rm(`${tmpIndex}.lock`, { force: true }) : void 0]);
  }
}
function fromRev(from) {
  if ("tree" in from) {
    if (!isHexObjectId(from.tree)) throw new YardError("BAD_PARAMS", "tree must be a hex object id", { tree: String(from.tree ?? null) });
    return { rev: `${from.tree}^{tree}`, badMessage: `the snapshot ${from.tree} is no longer in this repository`, details: { tree: from.tree } };
  }
  if (!isHexObjectId(from.baseSha)) throw new YardError("BAD_PARAMS", "baseSha must be a hex commit id", { baseSha: String(from.baseSha ?? null) });
  return { rev: `${from.baseSha}^{commit}`, badMessage: `base ${from.baseSha} is not a commit in this repository`, details: { baseSha: from.baseSha } };
}
var BAD_REVISION = /bad revision|unknown revision|bad object|not a valid|ambiguous argument|not a tree object/i;
async function runDiff(input, withPatch) {
  const wt = requireAbsolutePath(input?.worktreePath, "worktreePath");
  const from = fromRev(input);
  return withWorktreeIndex(wt, async (env) => {
    const diff = async (extra) => {
      try {
        return (await runGit([...DIFF_CONFIG, "diff", ...DIFF_FLAGS, ...extra, from.rev, "--"], { cwd: wt, env })).stdout;
      } catch (e) {
        if (BAD_REVISION.test(gitStderr(e))) throw new YardError("BAD_PARAMS", from.badMessage, { ...from.details, worktreePath: wt });
        throw e;
      }
    };
    if (withPatch) {
      const parsed = parseRawPatchZ(await diff(["-p"]));
      return parsed.files ? { files: parsed.files, patch: parsed.patch } : { files: parseRawNumstatZ(await diff(["--numstat"])).files, patch: parsed.patch };
    }
    return parseRawNumstatZ(await diff(["--numstat"]));
  });
}
async function worktreeTree(input) {
  const wt = requireAbsolutePath(input?.worktreePath, "worktreePath");
  return withWorktreeIndex(wt, async (env) => (await runGit(["write-tree"], { cwd: wt, env })).stdout.trim());
}
async function diffWorktreeSince(input) {
  const { files, patch } = await runDiff({ worktreePath: input?.worktreePath, tree: input?.tree }, true);
  return { diff: patch, files };
}
async function indexPathOf(wt) {
  const dotgit = path9.join(wt, ".git");
  try {
    const st = await fsp5.lstat(dotgit);
    if (st.isDirectory()) return path9.join(dotgit, "index");
    if (st.isFile()) {
      const m = /^gitdir: (.+)$/m.exec(await fsp5.readFile(dotgit, "utf8"));
      if (m) return path9.join(path9.resolve(wt, m[1].trim()), "index");
    }
  } catch {
  }
  let isDir = false;
  try {
    isDir = (await fsp5.stat(wt)).isDirectory();
  } catch {
  }
  if (!isDir) throw new YardError("NOT_FOUND", `worktree ${wt} does not exist`, { worktreePath: wt });
  try {
    const r = await runGit(["rev-parse", "--git-path", "index"], { cwd: wt });
    return path9.resolve(wt, r.stdout.trim());
  } catch (e) {
    if (/not a git repository/i.test(gitStderr(e))) throw new YardError("BAD_PARAMS", `${wt} is not a git working tree`, { worktreePath: wt });
    throw e;
  }
}
var STATUS_OF = { A: "added", C: "added", D: "deleted", M: "modified", T: "modified", R: "renamed", U: "modified", X: "modified" };
function readRaw(out) {
  let i = 0;
  const next = () => {
    const j = out.indexOf("\0", i);
    if (j < 0) throw new YardError("GIT_FAILED", "unexpected git diff output (truncated record)", { offset: i });
    const s = out.slice(i, j);
    i = j + 1;
    return s;
  };
  const raws = [];
  while (i < out.length && out[i] === ":") {
    const meta = next();
    const letter = (meta.split(" ")[4] ?? "M").charAt(0);
    const p1 = next();
    const p2 = letter === "R" || letter === "C" ? next() : p1;
    raws.push({ letter, oldPath: p1, path: p2 });
  }
  return { raws, next, at: () => i };
}
function fileOf(r, additions, deletions, binary) {
  const status = STATUS_OF[r.letter] ?? "modified";
  const f = { path: r.path, status, additions: binary ? 0 : additions, deletions: binary ? 0 : deletions, binary };
  if (status === "renamed") f.oldPath = r.oldPath;
  return f;
}
function parseRawPatchZ(out) {
  const { raws, at } = readRaw(out);
  let i = at();
  if (out[i] === "\0") i++;
  const patch = out.slice(i);
  const counts = [];
  let cur = null;
  let inHunk = false;
  let pos = 0;
  while (pos < patch.length) {
    let end = patch.indexOf("\n", pos);
    if (end < 0) end = patch.length;
    const c = patch.charCodeAt(pos);
    if (c === 100 && patch.startsWith("diff --git ", pos)) {
      cur = { add: 0, del: 0, binary: false };
      counts.push(cur);
      inHunk = false;
    } else if (cur) {
      if (inHunk) {
        if (c === 43) cur.add++;
        else if (c === 45) cur.del++;
        else if (c !== 32 && c !== 92 && c !== 64 && end > pos) inHunk = false;
      } else if (c === 64 && patch.startsWith("@@ ", pos)) {
        inHunk = true;
      } else if (c === 66 && patch.startsWith("Binary files ", pos)) {
        cur.binary = true;
      }
    }
    pos = end + 1;
  }
  if (counts.length !== raws.length) return { files: null, patch };
  return { files: raws.map((r, k) => fileOf(r, counts[k].add, counts[k].del, counts[k].binary)), patch };
}
function parseRawNumstatZ(out) {
  const { raws, next, at } = readRaw(out);
  const files = [];
  for (const r of raws) {
    const head = next();
    const t1 = head.indexOf("	");
    const t2 = head.indexOf("	", t1 + 1);
    const a = head.slice(0, t1);
    const d = head.slice(t1 + 1, t2);
    if (head.slice(t2 + 1) === "" && (r.letter === "R" || r.letter === "C")) {
      next();
      next();
    }
    const binary = a === "-" && d === "-";
    files.push(fileOf(r, Number(a) || 0, Number(d) || 0, binary));
  }
  let i = at();
  if (out[i] === "\0") i++;
  return { files, patch: out.slice(i) };
}

// server/core/git/merge.ts
import { promises as fsp6 } from "node:fs";
async function mergeTask(input) {
  if (!input || typeof input !== "object") throw new YardError("BAD_PARAMS", "mergeTask needs an options object");
  const repoArg = requireAbsolutePath(input.repoRoot, "repoRoot");
  const worktreePath = requireAbsolutePath(input.worktreePath, "worktreePath");
  if (typeof input.branchPreexisting !== "boolean") throw new YardError("BAD_PARAMS", "branchPreexisting must be a boolean", { branchPreexisting: input.branchPreexisting ?? null });
  if (input.expectedTarget !== void 0 && revisionProblem(input.expectedTarget)) {
    throw new YardError("BAD_PARAMS", `invalid expectedTarget: ${revisionProblem(input.expectedTarget)}`, { expectedTarget: input.expectedTarget });
  }
  if (input.message !== void 0 && (typeof input.message !== "string" || input.message.trim() === "" || input.message.includes("\0"))) {
    throw new YardError("BAD_PARAMS", "message must be a non-empty string", {});
  }
  const [first, branch, target] = await Promise.all([inspectRepo(repoArg), validateBranchName(input.branch), validateBranchName(input.targetBranch, "targetBranch")]);
  if (branch === target) throw new YardError("BAD_PARAMS", "the task branch and the target branch are the same", { branch, targetBranch: target });
  return withRepoLock(first.commonDir, async () => {
    const repo = await inspectRepo(first.root);
    const root2 = repo.root;
    if (repo.currentBranch !== target) {
      throw new YardError(
        "BAD_PARAMS",
        repo.currentBranch ? `the target branch '${target}' is not checked out in ${root2} ('${repo.currentBranch}' is)` : `the target branch '${target}' is not checked out in ${root2} (HEAD is detached)`,
        { expected: target, actual: repo.currentBranch }
      );
    }
    if (!repo.headSha) throw new YardError("BAD_PARAMS", `the target branch '${target}' has no commits`, { target });
    const targetBefore = repo.headSha;
    if (input.expectedTarget !== void 0) {
      const want = await resolveCommit(root2, input.expectedTarget);
      if (want !== targetBefore) throw new YardError("CONFLICT", `the target branch '${target}' moved`, { expected: want ?? input.expectedTarget, actual: targetBefore });
    }
    const tip = await branchTip(root2, branch);
    if (!tip) throw new YardError("NOT_FOUND", `branch '${branch}' does not exist`, { branch });
    const op = await operationInProgress(repo.gitDir);
    if (op) throw new YardError("DIRTY_TARGET", `a ${op} is in progress in ${root2}`, { operation: op, target });
    const targetDirt = await statusEntries(root2, { untracked: "no" });
    if (targetDirt.length) throw new YardError("DIRTY_TARGET", `the target checkout ${root2} has uncommitted changes`, { files: targetDirt.map((e) => e.path), target });
    if (await isDirectory(worktreePath)) {
      let src = null;
      try {
        src = await inspectRepo(worktreePath);
      } catch (e) {
        if (!isYardError(e) || e.code !== "BAD_PARAMS") throw e;
      }
      if (src && (src.commonDir !== repo.commonDir || src.root === root2)) {
        throw new YardError("BAD_PARAMS", `${worktreePath} is not a linked worktree of ${root2}`, { worktreePath, repoRoot: root2 });
      }
      if (src) {
        if (src.currentBranch !== branch) {
          throw new YardError("CONFLICT", `the task worktree has '${src.currentBranch ?? "a detached HEAD"}' checked out, not '${branch}'`, {
            expected: branch,
            actual: src.currentBranch
          });
        }
        if (!input.ignoreDirty) {
          const dirt = await statusEntries(src.root, { untracked: "normal" });
          if (dirt.length) throw new YardError("DIRTY_SOURCE", `the task worktree has uncommitted changes`, { files: dirt.map((e) => e.path), worktreePath: src.root });
        }
      }
    }
    const identity = await committerIdentityArgs(root2);
    const message = input.message ?? `Merge branch '${branch}' into ${target}`;
    const res = await runGit([...identity, "merge", "--no-ff", "--no-edit", "--no-autostash", "--no-rerere-autoupdate", "-m", message, `refs/heads/${branch}`], {
      cwd: root2,
      allowFail: true
    });
    if (res.code !== 0) await failMerge(root2, repo.gitDir, targetBefore, branch, target, res);
    const mergeCommit = firstLine((await runGit(["rev-parse", "HEAD"], { cwd: root2 })).stdout).trim();
    const cleanup = await cleanupAfterMerge(root2, worktreePath, branch, !input.branchPreexisting && !input.keepBranch);
    return { mergeCommit, alreadyUpToDate: mergeCommit === targetBefore, targetBefore, branchTip: tip, cleanup };
  });
}
async function isDirectory(p) {
  try {
    return (await fsp6.stat(p)).isDirectory();
  } catch {
    return false;
  }
}
async function failMerge(root2, gitDir, targetBefore, branch, target, res) {
  let conflicted = [];
  const midMerge = await operationInProgress(gitDir) === "merge";
  if (midMerge) {
    const u = await runGit(["diff", "--name-only", "--diff-filter=U", "-z"], { cwd: root2, allowFail: true });
    conflicted = u.stdout.split("\0").filter(Boolean);
    await runGit(["merge", "--abort"], { cwd: root2, allowFail: true });
  }
  const [head, dirt, op] = await Promise.all([
    runGit(["rev-parse", "HEAD"], { cwd: root2, allowFail: true }),
    statusEntries(root2, { untracked: "no" }).catch(() => null),
    operationInProgress(gitDir)
  ]);
  const headNow = firstLine(head.stdout).trim();
  if (headNow !== targetBefore || dirt === null || dirt.length > 0 || op) {
    throw new YardError("GIT_FAILED", `the merge failed and the target checkout ${root2} could not be restored cleanly; inspect it by hand`, {
      target,
      branch,
      expectedHead: targetBefore,
      actualHead: headNow || null,
      files: dirt?.map((e) => e.path) ?? null,
      operation: op,
      stderr: res.stderr,
      stdout: res.stdout
    });
  }
  if (conflicted.length) {
    throw new YardError("MERGE_CONFLICT", `merging '${branch}' into '${target}' conflicts in ${conflicted.length} file(s); the merge was aborted`, {
      files: conflicted,
      branch,
      target
    });
  }
  const text2 = res.stderr + "\n" + res.stdout;
  if (/untracked working tree files would be (overwritten|removed) by merge/i.test(text2)) {
    throw new YardError("DIRTY_TARGET", `untracked files in ${root2} would be overwritten by the merge`, {
      files: indentedList(text2),
      untracked: true,
      target
    });
  }
  if (/local changes to the following files would be overwritten/i.test(text2)) {
    throw new YardError("DIRTY_TARGET", `local changes in ${root2} would be overwritten by the merge`, { files: indentedList(text2), target });
  }
  throw new YardError("GIT_FAILED", `git merge failed (exit ${res.code}): ${firstLine(res.stderr.trim()) || firstLine(res.stdout.trim())}`, {
    args: ["merge", "--no-ff", `refs/heads/${branch}`],
    code: res.code,
    stderr: res.stderr,
    stdout: res.stdout
  });
}
function indentedList(text2) {
  return text2.split("\n").filter((l) => l.startsWith("	")).map((l) => l.trim()).filter(Boolean);
}
async function cleanupAfterMerge(root2, worktreePath, branch, deleteBranch) {
  const errors = [];
  let worktreeRemoved = false;
  let worktreeMissing = false;
  let branchDeleted = false;
  try {
    const r = await removeWorktree(root2, worktreePath);
    worktreeRemoved = r.removed;
    worktreeMissing = !r.wasRegistered;
  } catch (e) {
    errors.push(`worktree not removed: ${e.message}`);
  }
  if (deleteBranch) {
    try {
      const holders = (await listWorktrees(root2)).filter((w) => w.branch === branch);
      if (holders.length) {
        errors.push(`branch '${branch}' not deleted: it is checked out at ${holders.map((h) => h.path).join(", ")}`);
      } else {
        await runGit(["branch", "-D", "--", branch], { cwd: root2 });
        branchDeleted = true;
      }
    } catch (e) {
      errors.push(`branch '${branch}' not deleted: ${e.message}`);
    }
  }
  return { ok: errors.length === 0, ...errors.length ? { error: errors.join("; ") } : {}, worktreeRemoved, worktreeMissing, branchDeleted };
}

// server/core/git/discard.ts
async function discardWorktree(input) {
  if (!input || typeof input !== "object") throw new YardError("BAD_PARAMS", "discardWorktree needs an options object");
  const repoArg = requireAbsolutePath(input.repoRoot, "repoRoot");
  const worktreePath = requireAbsolutePath(input.worktreePath, "worktreePath");
  if (typeof input.branchPreexisting !== "boolean") throw new YardError("BAD_PARAMS", "branchPreexisting must be a boolean", { branchPreexisting: input.branchPreexisting ?? null });
  const [repo, branch] = await Promise.all([inspectRepo(repoArg), validateBranchName(input.branch)]);
  if (worktreePath === repo.root) throw new YardError("BAD_PARAMS", "refusing to discard the repository's main worktree", { worktreePath });
  return withRepoLock(repo.commonDir, async () => {
    const errors = [];
    let worktreeRemoved = false;
    let worktreeMissing = false;
    let branchDeleted = false;
    let branchMissing = false;
    try {
      const r = await removeWorktree(repo.root, worktreePath);
      worktreeRemoved = r.removed;
      worktreeMissing = !r.wasRegistered;
    } catch (e) {
      if (e.code === "BAD_PARAMS") throw e;
      errors.push(`worktree not removed: ${e.message}`);
    }
    if (input.deleteBranch && !input.branchPreexisting) {
      try {
        if (!await branchTip(repo.root, branch)) {
          branchMissing = true;
        } else {
          const holders = (await listWorktrees(repo.root)).filter((w) => w.branch === branch);
          if (holders.length) {
            errors.push(`branch '${branch}' not deleted: it is checked out at ${holders.map((h) => h.path).join(", ")}`);
          } else {
            await runGit(["branch", "-D", "--", branch], { cwd: repo.root });
            branchDeleted = true;
          }
        }
      } catch (e) {
        errors.push(`branch '${branch}' not deleted: ${e.message}`);
      }
    }
    return { worktreeRemoved, worktreeMissing, branchDeleted, branchMissing, ...errors.length ? { error: errors.join("; ") } : {} };
  });
}

// server/version.ts
init_root();
import { readFileSync as readFileSync2 } from "node:fs";
import path10 from "node:path";
var VERSION = JSON.parse(readFileSync2(path10.join(REPO_ROOT, "package.json"), "utf8")).version;

// server/api/panes.ts
import { z as z8 } from "zod";

// server/contracts/panes.ts
import { z as z4 } from "zod";
var lifecycle = z4.enum(["starting", "idle", "working", "blocked", "done", "exited", "unknown"]);
var paneInfo = z4.object({
  id: z4.string(),
  label: z4.string().nullable(),
  lifecycle,
  pid: z4.number().int().nullable(),
  exitCode: z4.number().int().nullable(),
  signal: z4.number().int().nullable(),
  cwd: z4.string(),
  argv: z4.array(z4.string()),
  agent: z4.string().nullable(),
  parentPaneId: z4.string().nullable(),
  rootPaneId: z4.string().nullable(),
  relationship: z4.enum(["fork", "subagent"]).nullable(),
  taskId: z4.string().nullable(),
  cols: z4.number().int(),
  rows: z4.number().int(),
  doneSeen: z4.boolean(),
  live: z4.boolean(),
  createdAt: z4.string(),
  exitedAt: z4.string().nullable(),
  /** Runs under the OS sandbox. */
  sandboxed: z4.boolean()
});
var paneList = z4.array(paneInfo);
var readInput = z4.object({
  id: paneId,
  mode: z4.enum(["screen", "tail", "delta"]).default("screen"),
  lines: z4.number().int().min(1).max(1e4).optional(),
  cursor: z4.number().int().min(0).optional(),
  reader: z4.string().max(64).optional()
});
var readReply = z4.object({
  text: z4.string(),
  cursor: z4.number().int(),
  start: z4.number().int(),
  dropped: z4.object({ from: z4.number().int(), to: z4.number().int() }).nullable(),
  lifecycle
});
var submitInput = z4.object({
  id: paneId,
  text: z4.string().max(LIMITS.prompt),
  enterDelayMs: z4.number().int().min(0).max(1e4).optional(),
  stallMs: z4.number().int().min(100).max(6e5).optional()
});
var submitReply = z4.object({ ok: z4.literal(true), activitySeq: z4.number().int(), bracketed: z4.boolean(), lifecycle });
var sendKeysInput = z4.object({ id: paneId, text: z4.string().max(64 * 1024), enter: z4.boolean().optional() });
var sendKeysReply = z4.object({ bytes: z4.number().int() });
var resizeInput = z4.object({ id: paneId, cols: z4.number().int().min(10).max(1e3), rows: z4.number().int().min(4).max(500) });
var attentionItem = z4.object({
  paneId: z4.string(),
  taskId: z4.string().optional(),
  reason: z4.enum(["blocked", "input_required", "crashed", "turn_failed", "done"]),
  severity: z4.number().int(),
  since: z4.number().nullable()
});
var attentionReply = z4.object({ items: z4.array(attentionItem) });
var hookPostInput = z4.object({ paneId, event: z4.string().max(64), payload: z4.unknown() });
var hookPostReply = z4.object({ lifecycle, seq: z4.number().int() });
var yardEvent = z4.object({
  seq: z4.number().int(),
  type: z4.string(),
  taskId: z4.string().nullable(),
  paneId: z4.string().nullable(),
  payload: z4.record(z4.string(), z4.unknown()),
  time: z4.string()
});
var eventsListInput = z4.object({
  since: z4.number().int().min(0).optional(),
  type: eventTypeGlob.optional(),
  taskId: taskId.optional(),
  paneId: paneId.optional(),
  limit: z4.number().int().min(1).max(1e4).optional()
}).optional();
var eventsReply = z4.object({ events: z4.array(yardEvent), head: z4.number().int() });

// server/core/panes/manager.ts
init_root();
import { chmodSync as chmodSync2, existsSync as existsSync3, mkdirSync as mkdirSync2, statSync as statSync4, writeFileSync as writeFileSync2 } from "node:fs";
import path14 from "node:path";
import { StringDecoder } from "node:string_decoder";
import * as pty from "node-pty";
import { z as z7 } from "zod";

// server/security/token.ts
import { createHash as createHash2, randomBytes as randomBytes3, timingSafeEqual } from "node:crypto";
import { chmodSync, mkdirSync, readFileSync as readFileSync3, statSync as statSync2, writeFileSync } from "node:fs";
import path11 from "node:path";
var SESSION_COOKIE = "yard_session";
function loadOrCreateToken(file) {
  mkdirSync(path11.dirname(file), { recursive: true, mode: 448 });
  try {
    const existing = readFileSync3(file, "utf8").trim();
    if (/^[A-Za-z0-9_-]{32,}$/.test(existing)) {
      if ((statSync2(file).mode & 63) !== 0) chmodSync(file, 384);
      return existing;
    }
  } catch (e) {
    if (e.code !== "ENOENT") throw e;
  }
  const token = randomBytes3(32).toString("base64url");
  writeFileSync(file, token + "\n", { mode: 384 });
  chmodSync(file, 384);
  return token;
}
function safeEqual(a, b) {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
function newPaneToken(paneId2) {
  const secret = randomBytes3(24).toString("base64url");
  return { token: `yp_${paneId2}_${secret}`, hash: hashSecret(secret) };
}
function parsePaneToken(token) {
  const m = /^yp_([A-Za-z0-9]+)_([A-Za-z0-9_-]{20,})$/.exec(token);
  return m ? { paneId: m[1], secret: m[2] } : null;
}
function hashSecret(secret) {
  return createHash2("sha256").update(secret).digest("hex");
}

// server/core/hooks/payload.ts
import { z as z5 } from "zod";
var MAX_HOOK_POST_BYTES = 256 * 1024;
var KNOWN_HOOK_EVENTS = [
  "SessionStart",
  "UserPromptSubmit",
  "PreToolUse",
  "PermissionRequest",
  "PostToolUse",
  "PostToolUseFailure",
  "Notification",
  "Stop",
  "StopFailure",
  "SubagentStart",
  "SubagentStop",
  "PreCompact",
  "SessionEnd"
];
var KNOWN_SET = new Set(KNOWN_HOOK_EVENTS);
function isKnownHookEvent(name) {
  return KNOWN_SET.has(name);
}
var HOOK_EVENT_NAME_RE = /^[A-Za-z]{1,64}$/;
var HookPayloadSchema = z5.looseObject({
  session_id: z5.string().max(512).optional(),
  transcript_path: z5.string().optional(),
  cwd: z5.string().optional(),
  hook_event_name: z5.string().optional(),
  agent_id: z5.string().optional(),
  agent_type: z5.string().optional(),
  notification_type: z5.string().optional(),
  last_assistant_message: z5.string().optional(),
  source: z5.string().optional()
});
function isSubagentPayload(payload) {
  return payload != null && payload.agent_id !== void 0 && payload.agent_id !== null;
}
var HookPostSchema = z5.object({
  event: z5.string().regex(HOOK_EVENT_NAME_RE, "event must be 1-64 ASCII letters (a hook event name such as Stop)"),
  payload: HookPayloadSchema
});
function byteLength(s) {
  return Buffer.byteLength(s, "utf8");
}
function tooLarge(bytes) {
  return new YardError("BAD_PARAMS", `payload too large: ${bytes} bytes (max ${MAX_HOOK_POST_BYTES})`, {
    field: "payload",
    bytes,
    maxBytes: MAX_HOOK_POST_BYTES
  });
}
function describeIssues(error) {
  const issues = error.issues.map((i) => ({
    path: i.path.length ? i.path.map(String).join(".") : "(root)",
    message: i.message
  }));
  const message = "invalid hook post: " + issues.map((i) => `${i.path}: ${i.message}`).join("; ");
  return { message, issues };
}
function parseHookPost(raw2) {
  let value = raw2;
  if (typeof raw2 === "string") {
    const bytes = byteLength(raw2);
    if (bytes > MAX_HOOK_POST_BYTES) throw tooLarge(bytes);
    try {
      value = JSON.parse(raw2);
    } catch (e) {
      throw new YardError("BAD_PARAMS", `malformed hook post: not valid JSON (${e.message})`);
    }
  } else {
    let text2;
    try {
      text2 = JSON.stringify(raw2);
    } catch (e) {
      throw new YardError("BAD_PARAMS", `malformed hook post: not JSON-serializable (${e.message})`);
    }
    if (text2 === void 0) throw new YardError("BAD_PARAMS", "malformed hook post: expected a JSON object");
    const bytes = byteLength(text2);
    if (bytes > MAX_HOOK_POST_BYTES) throw tooLarge(bytes);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new YardError("BAD_PARAMS", "malformed hook post: expected a JSON object {event, payload}");
  }
  const parsed = HookPostSchema.safeParse(value);
  if (!parsed.success) {
    const { message, issues } = describeIssues(parsed.error);
    throw new YardError("BAD_PARAMS", message, { issues });
  }
  const { event, payload } = parsed.data;
  if (payload.hook_event_name !== void 0 && payload.hook_event_name !== event) {
    throw new YardError(
      "BAD_PARAMS",
      `hook event mismatch: posted as ${event} but payload.hook_event_name is ${JSON.stringify(payload.hook_event_name)}`,
      { event, hook_event_name: payload.hook_event_name }
    );
  }
  return {
    event,
    payload,
    known: isKnownHookEvent(event),
    subagent: isSubagentPayload(payload)
  };
}

// server/core/panes/attention.ts
var ATTENTION_SEVERITY = {
  blocked: 0,
  input_required: 1,
  crashed: 2,
  turn_failed: 3,
  done: 4
};
var DEFAULT_ATTENTION_LIMIT = 50;
var MAX_ATTENTION_LIMIT = 1e3;
function crashed(c) {
  const sig = c.signal;
  const hasSignal = sig !== void 0 && sig !== null && sig !== 0 && sig !== "";
  return c.exitCode !== null && c.exitCode !== 0 || hasSignal;
}
function attentionReason(c) {
  const seen = c.doneSeen || c.dismissed === true;
  if (c.lifecycle === "blocked") return "blocked";
  if (c.taskState === "input_required") return "input_required";
  if (c.lifecycle === "exited" && crashed(c) && !seen) return "crashed";
  if (c.lifecycle === "done" && !seen) return c.stopFailed ? "turn_failed" : "done";
  return null;
}
function toItem(c, reason) {
  const since = reason === "input_required" ? c.taskStateAt ?? c.lastTransitionAt : c.lastTransitionAt;
  const item = {
    paneId: c.paneId,
    reason,
    severity: ATTENTION_SEVERITY[reason],
    since: typeof since === "number" && Number.isFinite(since) ? since : null
  };
  if (c.taskId) item.taskId = c.taskId;
  return item;
}
function cmpStr(a, b) {
  const x = a ?? "";
  const y = b ?? "";
  return x < y ? -1 : x > y ? 1 : 0;
}
function compareAttention(a, b) {
  if (a.severity !== b.severity) return a.severity - b.severity;
  if (a.since !== b.since) {
    if (a.since === null) return 1;
    if (b.since === null) return -1;
    return b.since - a.since;
  }
  return cmpStr(a.paneId, b.paneId) || cmpStr(a.taskId, b.taskId);
}
function rankAttention(items, opts = {}) {
  const limit = opts.limit ?? DEFAULT_ATTENTION_LIMIT;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_ATTENTION_LIMIT) {
    throw new YardError("BAD_PARAMS", `limit must be an integer between 1 and ${MAX_ATTENTION_LIMIT}`, {
      field: "limit",
      value: limit
    });
  }
  const out = [];
  for (const c of items) {
    const reason = attentionReason(c);
    if (reason !== null) out.push(toItem(c, reason));
  }
  out.sort(compareAttention);
  return out.slice(0, limit);
}

// server/core/panes/lifecycle.ts
function initialPaneState() {
  return {
    lifecycle: "unknown",
    seq: 0,
    activitySeq: 0,
    lastActivity: null,
    lastTransitionAt: null,
    doneSeen: false,
    hooksSeen: false,
    exitCode: null,
    signal: null,
    lastStop: null
  };
}
var WORKING_HOOKS = /* @__PURE__ */ new Set([
  "UserPromptSubmit",
  "PreToolUse",
  "PostToolUse",
  "PostToolUseFailure",
  "SubagentStop"
]);
var BLOCKING_NOTIFICATIONS = /* @__PURE__ */ new Set(["permission_prompt", "elicitation_dialog"]);
function classifyHook(name, payload) {
  const known = isKnownHookEvent(name);
  const subagent = isSubagentPayload(payload);
  if (!known) return { to: null, known, subagent, note: "unknown hook event" };
  if (WORKING_HOOKS.has(name)) return { to: "working", known, subagent };
  switch (name) {
    case "SessionStart":
      if (payload.source === "compact") return { to: null, known, subagent, note: "SessionStart after compaction" };
      return { to: "idle", known, subagent };
    case "PermissionRequest":
      return { to: "blocked", known, subagent };
    case "Notification": {
      const t2 = payload.notification_type;
      if (typeof t2 === "string" && BLOCKING_NOTIFICATIONS.has(t2)) return { to: "blocked", known, subagent };
      return { to: null, known, subagent, note: `notification ${String(t2 ?? "(no type)")}` };
    }
    case "Stop":
    case "StopFailure":
      if (subagent) return { to: null, known, subagent, note: "subagent stop never marks the pane done" };
      return { to: "done", known, subagent };
    default:
      return { to: null, known, subagent, note: "no lifecycle effect" };
  }
}
function str(v) {
  return typeof v === "string" ? v : void 0;
}
function hookSummary(name, payload) {
  const out = { name };
  const agentId = str(payload.agent_id);
  if (agentId !== void 0) out.agentId = agentId;
  const tool = str(payload.tool_name);
  if (tool !== void 0) out.toolName = tool.slice(0, 128);
  const nt = str(payload.notification_type);
  if (nt !== void 0) out.notificationType = nt.slice(0, 64);
  return out;
}
function stopError(payload) {
  const p = payload;
  const e = str(p.error) ?? str(p.error_type) ?? str(p.reason) ?? str(p.message);
  return e === void 0 ? void 0 : e.slice(0, 2e3);
}
function applyChange(prev, state, change, at) {
  const from = prev.lifecycle;
  const { to, cause } = change;
  const effects = [];
  if (to === from) {
    if (change.reentryActivity && (to === "working" || to === "blocked")) {
      const next2 = { ...state, activitySeq: state.activitySeq + 1, lastActivity: to };
      effects.push({ kind: "activity", activitySeq: next2.activitySeq, lifecycle: to, cause, at });
      return { state: next2, effects };
    }
    return { state, effects };
  }
  const isActivity = to === "working" || to === "blocked" || to === "done";
  const next = {
    ...state,
    lifecycle: to,
    seq: state.seq + 1,
    lastTransitionAt: at,
    activitySeq: isActivity ? state.activitySeq + 1 : state.activitySeq,
    lastActivity: isActivity ? to : state.lastActivity,
    doneSeen: to === "done" || to === "exited" ? false : state.doneSeen
  };
  effects.push({ kind: "transition", from, to, seq: next.seq, activitySeq: next.activitySeq, cause, at });
  effects.push({
    kind: "journal",
    type: "pane.lifecycle",
    data: { from, to, seq: next.seq, activitySeq: next.activitySeq, cause },
    at
  });
  return { state: next, effects };
}
function reduceHook(state, ev) {
  const { name, payload, at } = ev;
  const c = classifyHook(name, payload);
  const summary = hookSummary(name, payload);
  if (state.lifecycle === "exited") {
    return {
      state,
      effects: [{ kind: "journal", type: "pane.hook", data: { ...summary, outcome: "ignored", reason: "pane exited" }, at }]
    };
  }
  let base = state.hooksSeen ? state : { ...state, hooksSeen: true };
  if (!c.known) {
    return {
      state: base,
      effects: [{ kind: "journal", type: "pane.hook", data: { ...summary, outcome: "unknown" }, at }]
    };
  }
  if (c.to === null) {
    return {
      state: base,
      effects: [{ kind: "journal", type: "pane.hook", data: { ...summary, outcome: "noop", reason: c.note }, at }]
    };
  }
  if (c.to === "done" && (name === "Stop" || name === "StopFailure")) {
    const failed = name === "StopFailure";
    const error = failed ? stopError(payload) : void 0;
    base = {
      ...base,
      lastStop: error === void 0 ? { failed, at } : { failed, error, at }
    };
    const msg = str(payload.last_assistant_message);
    if (msg !== void 0) base.lastMessage = msg;
  }
  const r = applyChange(state, base, { to: c.to, cause: `hook:${name}`, reentryActivity: true }, at);
  const outcome = r.state.lifecycle !== state.lifecycle ? "transition" : r.state.activitySeq !== state.activitySeq ? "activity" : "noop";
  r.effects.unshift({ kind: "journal", type: "pane.hook", data: { ...summary, outcome, to: c.to }, at });
  return r;
}
function reduce(state, event) {
  const at = event.at;
  switch (event.type) {
    case "hook":
      return reduceHook(state, event);
    case "exit": {
      if (state.lifecycle === "exited") {
        return {
          state,
          effects: [{ kind: "journal", type: "pane.ignored", data: { event: "exit", reason: "already exited" }, at }]
        };
      }
      const base = { ...state, exitCode: event.exitCode, signal: normalizeSignal(event.signal) };
      const r = applyChange(state, base, { to: "exited", cause: "exit", reentryActivity: false }, at);
      for (const e of r.effects) {
        if (e.kind === "journal") e.data = { ...e.data, exitCode: base.exitCode, signal: base.signal };
      }
      return r;
    }
    case "spawned": {
      if (state.lifecycle !== "unknown") {
        return {
          state,
          effects: [
            { kind: "journal", type: "pane.ignored", data: { event: "spawned", lifecycle: state.lifecycle }, at }
          ]
        };
      }
      return applyChange(state, state, { to: "starting", cause: "spawned", reentryActivity: false }, at);
    }
    case "output": {
      if (state.hooksSeen) return { state, effects: [] };
      if (state.lifecycle === "idle" || state.lifecycle === "done") {
        return applyChange(state, state, { to: "working", cause: "heuristic:output", reentryActivity: false }, at);
      }
      return { state, effects: [] };
    }
    case "quiescent": {
      if (state.hooksSeen) return { state, effects: [] };
      if (state.lifecycle === "starting") {
        return applyChange(state, state, { to: "idle", cause: "heuristic:quiescent", reentryActivity: false }, at);
      }
      if (state.lifecycle === "working") {
        return applyChange(state, state, { to: "done", cause: "heuristic:quiescent", reentryActivity: false }, at);
      }
      return { state, effects: [] };
    }
    case "viewed": {
      if ((state.lifecycle === "done" || state.lifecycle === "exited") && !state.doneSeen) {
        return {
          state: { ...state, doneSeen: true },
          effects: [{ kind: "journal", type: "pane.seen", data: { lifecycle: state.lifecycle, seq: state.seq }, at }]
        };
      }
      return { state, effects: [] };
    }
    case "input":
      return { state, effects: [] };
    default: {
      const unknownEvent = event;
      return {
        state,
        effects: [{ kind: "journal", type: "pane.ignored", data: { event: String(unknownEvent.type), reason: "unknown event" }, at }]
      };
    }
  }
}
function normalizeSignal(s) {
  if (s === void 0 || s === null || s === 0 || s === "") return null;
  return s;
}

// server/core/panes/final-screen.ts
import { randomBytes as randomBytes4 } from "node:crypto";
import { promises as fsp7 } from "node:fs";
import path12 from "node:path";
import { z as z6 } from "zod";

// server/core/panes/mirror.ts
import xtermHeadless from "@xterm/headless";
import serializeAddon from "@xterm/addon-serialize";
var { Terminal } = xtermHeadless;
var { SerializeAddon } = serializeAddon;
var MIN_SCROLLBACK = 5e3;
var PIECE = 4096;
var SLICE_MS = 8;
var MEMO_ANON = 64;
var MEMO_PER_READER = 4;
var MEMO_READERS = 32;
function joinLines(lines) {
  return lines.length === 0 ? "" : lines.join("\n") + "\n";
}
function rowText(line2) {
  if (!line2) return "";
  const s = line2.translateToString(true);
  return s.charCodeAt(s.length - 1) === 32 ? s.replace(/ +$/, "") : s;
}
var Snapshot = class {
  first;
  /** Absolute line of the normal viewport's top row. */
  vTop;
  /** Content end of the normal buffer (where the alternate grid is numbered from). */
  normalHead;
  alt;
  head;
  normal;
  altBuf;
  nCache = /* @__PURE__ */ new Map();
  aCache = /* @__PURE__ */ new Map();
  constructor(term, base) {
    const buffers = term.buffer;
    this.normal = buffers.normal;
    this.altBuf = buffers.alternate;
    this.alt = buffers.active.type === "alternate";
    this.first = base;
    const rows = term.rows;
    const baseY = this.normal.baseY;
    this.vTop = base + baseY;
    let nh = this.vTop;
    for (let r = rows - 1; r >= 0; r--) {
      if (this.normalRow(baseY + r) !== "") {
        nh = this.vTop + r + 1;
        break;
      }
    }
    this.normalHead = nh;
    let head = nh;
    if (this.alt) {
      for (let r = rows - 1; r >= 0; r--) {
        if (this.altRow(r) !== "") {
          head = nh + r + 1;
          break;
        }
      }
    }
    this.head = head;
  }
  normalRow(i) {
    let s = this.nCache.get(i);
    if (s === void 0) {
      s = i < 0 || i >= this.normal.length ? "" : rowText(this.normal.getLine(i));
      this.nCache.set(i, s);
    }
    return s;
  }
  altRow(r) {
    let s = this.aCache.get(r);
    if (s === void 0) {
      s = rowText(this.altBuf.getLine(this.altBuf.baseY + r));
      this.aCache.set(r, s);
    }
    return s;
  }
  /** Text of absolute line `abs` as the mirror presents it now. */
  text(abs) {
    if (this.alt && abs >= this.normalHead) return this.altRow(abs - this.normalHead);
    return this.normalRow(abs - this.first);
  }
  /** Text of the normal buffer's row at absolute line `abs` (even under the alternate grid). */
  normalText(abs) {
    return this.normalRow(abs - this.first);
  }
  lines(from, to) {
    const out = [];
    for (let l = from; l < to; l++) out.push(this.text(l));
    return out;
  }
};
var TerminalMirror = class _TerminalMirror {
  term;
  serializer;
  subs = [];
  scrollback;
  onFault;
  /** Absolute number of normal buffer index 0 (synced from the anchor). */
  base = 0;
  anchor = null;
  epoch = 0;
  memo = /* @__PURE__ */ new Map();
  // Parse pipeline: every byte goes through `queue` and is parsed by pump().
  queue = [];
  queueHead = 0;
  queuedUnits = 0;
  seqQueued = 0;
  seqParsed = 0;
  waiters = [];
  /** Rejects of serialize() calls whose capture point has not been parsed yet. */
  captures = /* @__PURE__ */ new Set();
  parsedListeners = /* @__PURE__ */ new Set();
  inRunQueue = false;
  pumping = false;
  faultCount = 0;
  disposed = false;
  constructor(opts) {
    const cols = checkDim("cols", opts.cols);
    const rows = checkDim("rows", opts.rows);
    this.scrollback = Math.max(MIN_SCROLLBACK, Math.floor(opts.scrollback ?? MIN_SCROLLBACK));
    this.onFault = opts.onFault;
    const start = opts.startLine ?? 0;
    if (!Number.isSafeInteger(start) || start < 0) throw new RangeError(`TerminalMirror: invalid startLine ${start}`);
    this.base = start;
    [this.term, this.serializer] = this.createTerminal(cols, rows);
    for (const view of opts.views ?? []) this.importView(view);
  }
  createTerminal(cols, rows) {
    const term = new Terminal({ cols, rows, scrollback: this.scrollback, allowProposedApi: true });
    const serializer = new SerializeAddon();
    term.loadAddon(serializer);
    const onEraseDisplay = (params) => {
      if (params[0] === 3) this.beforeClearScrollback();
      return false;
    };
    this.subs = [
      term.parser.registerCsiHandler({ final: "J" }, onEraseDisplay),
      term.parser.registerCsiHandler({ prefix: "?", final: "J" }, onEraseDisplay),
      term.parser.registerEscHandler({ final: "c" }, () => {
        this.beforeFullReset();
        return false;
      }),
      term.buffer.onBufferChange(() => this.maintainAnchor())
    ];
    return [term, serializer];
  }
  get cols() {
    return this.term.cols;
  }
  get rows() {
    return this.term.rows;
  }
  get bracketedPasteMode() {
    return this.term.modes.bracketedPasteMode;
  }
  get altScreen() {
    return this.term.buffer.active.type === "alternate";
  }
  /** Absolute line one past the last content line (state as parsed so far). */
  get head() {
    return this.snapshot().head;
  }
  /** Absolute number of the first line still retained in scrollback. */
  get firstLine() {
    this.syncBase();
    return this.base;
  }
  /** Units (bytes / UTF-16 code units) written but not parsed yet. */
  get pendingBytes() {
    return this.queuedUnits;
  }
  /** Times xterm threw while parsing; the mirror then rebuilt its terminal from a snapshot. */
  get faults() {
    return this.faultCount;
  }
  /** Scrollback rows of the normal buffer (as configured, after the minimum). */
  get scrollbackLines() {
    return this.scrollback;
  }
  /** dispose() was called: every read rejects, writes are ignored. */
  get isDisposed() {
    return this.disposed;
  }
  /** Called after each batch of writes has been parsed. */
  onWriteParsed(listener) {
    this.parsedListeners.add(listener);
    return { dispose: () => void this.parsedListeners.delete(listener) };
  }
  write(data) {
    if (this.disposed) return;
    const n = data.length;
    if (n === 0) return;
    if (n <= PIECE) {
      this.enqueue({ data });
    } else {
      for (let i = 0; i < n; i += PIECE) {
        this.enqueue({ data: typeof data === "string" ? data.slice(i, i + PIECE) : data.subarray(i, i + PIECE) });
      }
    }
    this.schedulePump();
  }
  flush() {
    const seq = this.seqQueued;
    if (this.disposed || this.seqParsed >= seq) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ seq, resolve }));
  }
  /**
   * Resize in order with the output: data written before this call is parsed at the old
   * size (as a terminal would have), so with data still queued the new size applies once
   * that data is parsed.
   */
  resize(cols, rows) {
    if (this.disposed) return;
    cols = checkDim("cols", cols);
    rows = checkDim("rows", rows);
    if (this.queueHead < this.queue.length || this.pumping) {
      this.enqueue({ data: "", then: () => this.applyResize(cols, rows) });
      this.schedulePump();
      return;
    }
    this.applyResize(cols, rows);
  }
  applyResize(cols, rows) {
    if (this.disposed) return;
    if (cols === this.term.cols && rows === this.term.rows) return;
    const colsChanged = cols !== this.term.cols;
    this.syncBase();
    const before = this.term.buffer.normal;
    const oldVTop = this.base + before.baseY;
    const oldLength = before.length;
    try {
      this.term.resize(cols, rows);
    } catch (e) {
      this.recover(toError(e));
      try {
        this.term.resize(cols, rows);
      } catch {
      }
      this.maintainAnchor();
      return;
    }
    const after = this.term.buffer.normal;
    if (colsChanged) {
      this.dropAnchor();
      this.base += Math.max(0, oldLength - after.length);
      this.epoch++;
    } else {
      this.syncBase();
      const newVTop = this.base + after.baseY;
      if (newVTop < oldVTop) this.extendMemo(newVTop);
    }
    this.maintainAnchor();
  }
  async screen() {
    await this.readable();
    const s = this.snapshot();
    const top = s.alt ? s.normalHead : s.vTop;
    return { text: joinLines(s.lines(top, s.head)), cursor: s.head };
  }
  async tail(lines) {
    await this.readable();
    const s = this.snapshot();
    const floor = s.alt ? s.normalHead : s.first;
    const n = lines > 0 ? Math.floor(lines) : 0;
    const from = Math.max(floor, s.head - n);
    return { text: joinLines(s.lines(from, s.head)), cursor: s.head };
  }
  async delta(cursor, opts) {
    await this.readable();
    const c = Number.isFinite(cursor) && cursor > 0 ? Math.floor(cursor) : 0;
    const reader = opts?.reader ?? "";
    const s = this.snapshot();
    const entry = this.memo.get(reader)?.get(c);
    let end;
    let start;
    if (entry && entry.epoch === this.epoch) {
      end = entry.h;
      start = end;
      for (let l = Math.max(entry.v, s.first); l < end; l++) {
        if (l >= s.head || s.text(l) !== entry.lines[l - entry.v]) {
          start = l;
          break;
        }
      }
    } else if (entry) {
      end = Math.min(c, entry.h);
      start = s.first;
    } else {
      end = c;
      start = Math.min(c, s.head);
    }
    let dropped = null;
    if (end < s.first) {
      dropped = { from: end, to: s.first };
      start = s.first;
    }
    start = Math.max(start, s.first);
    if (s.alt && start > s.normalHead && start < s.head) start = s.normalHead;
    const lines = s.lines(start, s.head);
    const next = Math.max(c, s.head);
    this.remember(reader, next, s, start, lines, entry);
    return { text: joinLines(lines), start, cursor: next, dropped };
  }
  /**
   * SerializeAddon snapshot (scrollback, modes, alternate screen) of exactly everything
   * written before this call and nothing written after it: a caller that forwards live
   * output from the moment it calls serialize() neither loses nor repeats bytes.
   */
  serialize() {
    if (this.disposed) return Promise.reject(new Error("TerminalMirror is disposed"));
    return new Promise((resolve, reject) => {
      this.captures.add(reject);
      this.enqueue({
        data: "",
        then: () => {
          this.captures.delete(reject);
          try {
            resolve(this.serializer.serialize());
          } catch (e) {
            reject(toError(e));
          }
        }
      });
      this.schedulePump();
    });
  }
  /**
   * The delta memo, oldest first, newest entries kept within `maxChars` of line text: pass it
   * as `views` to a mirror restored from this one's serialize() output. Call it when nothing
   * is pending (after flush()), so it matches the serialized state.
   */
  exportViews(maxChars = 256 * 1024) {
    const out = [];
    let budget = maxChars;
    const readers = [...this.memo.entries()].reverse();
    for (const [reader, m] of readers) {
      for (const [cursor, e] of [...m.entries()].reverse()) {
        let size = reader.length + 16;
        for (const l of e.lines) size += l.length + 1;
        if (size > budget) continue;
        budget -= size;
        out.push({ reader, cursor, v: e.v, h: e.h, lines: [...e.lines], current: e.epoch === this.epoch });
      }
    }
    return out.reverse();
  }
  importView(view) {
    this.storeView(view.reader, view.cursor, { v: view.v, h: view.h, lines: [...view.lines], epoch: view.current ? this.epoch : -1 });
  }
  dispose() {
    if (this.disposed) return;
    this.disposed = true;
    this.dropAnchor();
    for (const d of this.subs) d.dispose();
    this.subs.length = 0;
    this.term.dispose();
    this.memo.clear();
    this.queue = [];
    this.queueHead = 0;
    this.queuedUnits = 0;
    this.parsedListeners.clear();
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) w.resolve();
    for (const reject of this.captures) reject(new Error("TerminalMirror is disposed"));
    this.captures.clear();
  }
  // --- parse pipeline ---
  //
  // xterm's own write queue starts parsing a write that finds it idle only after a
  // setTimeout (>= 1 ms), and PTY output arrives in ~4 KB reads, so that gap would cap
  // throughput; exceptions thrown by xterm's parser inside that timer would also be
  // uncaught. So the mirror owns the scheduling: pieces wait in `queue`, and pump() — run
  // from setImmediate, right after the poll phase that delivered the data — hands them to
  // xterm one at a time with a user-input notification, which makes xterm parse each
  // write synchronously (input("") emits nothing: nobody listens to the headless
  // terminal's onData). Parsing yields to I/O every SLICE_MS (see runTurn).
  enqueue(piece) {
    this.seqQueued++;
    this.queue.push(piece);
    this.queuedUnits += piece.data.length;
  }
  // All mirrors with queued data wait in one run queue served by a single setImmediate
  // loop: the SLICE_MS budget is per event-loop turn for the whole process, so N busy panes
  // cannot block the loop N times longer. Mirrors that still have data go to the back.
  static runQueue = [];
  static runScheduled = false;
  static runTurn() {
    _TerminalMirror.runScheduled = false;
    const q = _TerminalMirror.runQueue;
    const deadline = performance.now() + SLICE_MS;
    for (let n = q.length; n > 0 && q.length > 0; n--) {
      const m = q.shift();
      m.inRunQueue = false;
      m.pump(deadline);
      if (performance.now() >= deadline) break;
    }
    if (q.length > 0 && !_TerminalMirror.runScheduled) {
      _TerminalMirror.runScheduled = true;
      setImmediate(_TerminalMirror.runTurn);
    }
  }
  schedulePump() {
    if (this.inRunQueue || this.disposed) return;
    this.inRunQueue = true;
    _TerminalMirror.runQueue.push(this);
    if (!_TerminalMirror.runScheduled) {
      _TerminalMirror.runScheduled = true;
      setImmediate(_TerminalMirror.runTurn);
    }
  }
  pump(deadline) {
    if (this.pumping || this.disposed) return;
    this.pumping = true;
    const before = this.seqParsed;
    try {
      while (this.queueHead < this.queue.length && !this.disposed) {
        const piece = this.queue[this.queueHead];
        this.queue[this.queueHead++] = void 0;
        this.queuedUnits -= piece.data.length;
        this.parseOne(piece);
        if (performance.now() >= deadline) break;
      }
    } finally {
      this.pumping = false;
    }
    if (this.disposed) return;
    if (this.queueHead >= this.queue.length) {
      this.queue = [];
      this.queueHead = 0;
    } else {
      if (this.queueHead > 4096) {
        this.queue = this.queue.slice(this.queueHead);
        this.queueHead = 0;
      }
      this.schedulePump();
    }
    while (this.waiters.length > 0 && this.waiters[0].seq <= this.seqParsed) {
      this.waiters.shift().resolve();
    }
    if (this.seqParsed !== before) {
      for (const listener of [...this.parsedListeners]) {
        try {
          listener();
        } catch {
        }
      }
    }
  }
  parseOne(piece) {
    let done = false;
    try {
      this.term.input("", true);
      this.term.write(piece.data, () => done = true);
      if (!done) throw new Error("xterm deferred a write the mirror expected it to parse synchronously");
    } catch (e) {
      this.recover(toError(e));
    }
    this.seqParsed++;
    const a = this.anchor;
    if (!a || a.marker.line < PIECE) this.maintainAnchor();
    piece.then?.();
  }
  /**
   * xterm threw while parsing (a bug in xterm; e.g. 6.0 can corrupt the alternate buffer
   * when rows shrink while it is inactive, then throw on a later resize). Its state is
   * suspect and its write queue is stuck, so rebuild the terminal from a snapshot of it,
   * keeping the numbering; the piece that failed is lost. Cursors handed out before get
   * everything resent once (as after a column resize).
   */
  recover(error) {
    this.faultCount++;
    let snapshot = "";
    try {
      snapshot = this.serializer.serialize();
    } catch {
      snapshot = "";
    }
    let head = this.base;
    try {
      head = this.snapshot().head;
    } catch {
    }
    const { cols, rows } = this.term;
    const old = this.term;
    this.anchor = null;
    for (const d of this.subs) d.dispose();
    try {
      old.dispose();
    } catch {
    }
    [this.term, this.serializer] = this.createTerminal(cols, rows);
    let restored = false;
    if (snapshot) {
      try {
        let done = false;
        this.term.input("", true);
        this.term.write(snapshot, () => done = true);
        restored = done;
      } catch {
        restored = false;
      }
      if (!restored) {
        for (const d of this.subs) d.dispose();
        this.term.dispose();
        [this.term, this.serializer] = this.createTerminal(cols, rows);
      }
    }
    if (!restored) this.base = head;
    this.epoch++;
    this.maintainAnchor();
    try {
      this.onFault?.(error);
    } catch {
    }
  }
  async readable() {
    if (this.disposed) throw new Error("TerminalMirror is disposed");
    await this.flush();
    if (this.disposed) throw new Error("TerminalMirror is disposed");
  }
  // --- absolute numbering ---
  syncBase() {
    const a = this.anchor;
    if (!a) return;
    if (a.marker.isDisposed) {
      this.base = Math.max(this.base, a.abs + 1);
      this.anchor = null;
      return;
    }
    this.base = a.abs - a.marker.line;
  }
  dropAnchor() {
    const a = this.anchor;
    this.anchor = null;
    a?.marker.dispose();
  }
  /** Keep the anchor on a scrollback row far enough from the top to survive the next piece. */
  maintainAnchor() {
    if (this.disposed) return;
    const buffers = this.term.buffer;
    if (buffers.active.type !== "normal") return;
    this.syncBase();
    const nb = buffers.normal;
    const target = nb.baseY - 1;
    const a = this.anchor;
    if (target < 0) {
      if (a) this.dropAnchor();
      return;
    }
    if (a && a.marker.line >= PIECE && a.marker.line <= target) return;
    if (a && a.marker.line === target) return;
    this.dropAnchor();
    const marker = this.term.registerMarker(target - (nb.baseY + nb.cursorY));
    if (marker) this.anchor = { marker, abs: this.base + target };
  }
  beforeClearScrollback() {
    if (this.term.buffer.active.type !== "normal") return;
    const cleared = this.term.buffer.normal.length - this.term.rows;
    if (cleared <= 0) return;
    this.syncBase();
    this.dropAnchor();
    this.base += cleared;
  }
  beforeFullReset() {
    const head = this.snapshot().head;
    this.dropAnchor();
    this.base = head;
  }
  snapshot() {
    this.syncBase();
    return new Snapshot(this.term, this.base);
  }
  // --- delta memo ---
  remember(reader, cursor, s, start, sent, prev) {
    const v = Math.min(s.vTop, s.head);
    const lines = new Array(Math.max(0, s.head - v));
    for (let l = v; l < s.head; l++) {
      let t2 = l >= start ? sent[l - start] : s.text(l);
      if (prev && l >= prev.v && l < prev.h && prev.lines[l - prev.v] === t2) t2 = prev.lines[l - prev.v];
      lines[l - v] = t2;
    }
    this.storeView(reader, cursor, { v, h: s.head, lines, epoch: this.epoch });
  }
  /** Memo insert with the LRU caps: MEMO_READERS named readers, MEMO_ANON / MEMO_PER_READER cursors. */
  storeView(reader, cursor, entry) {
    let m = this.memo.get(reader);
    if (m) this.memo.delete(reader);
    else m = /* @__PURE__ */ new Map();
    this.memo.set(reader, m);
    if (this.memo.size > MEMO_READERS + 1) {
      for (const k of this.memo.keys()) {
        if (k !== "" && k !== reader) {
          this.memo.delete(k);
          break;
        }
      }
    }
    m.delete(cursor);
    m.set(cursor, entry);
    const cap = reader === "" ? MEMO_ANON : MEMO_PER_READER;
    while (m.size > cap) m.delete(m.keys().next().value);
  }
  /**
   * Rows grew and pulled scrollback rows back into the viewport: they become mutable, so
   * remembered views must now cover them. Until this moment they were immutable normal
   * rows, so their normal-buffer text is what every reader got (while the alternate screen
   * is up, the grid may now be numbered over them: its origin follows the normal content).
   */
  extendMemo(newVTop) {
    const s = this.snapshot();
    for (const m of this.memo.values()) {
      for (const e of m.values()) {
        if (e.epoch !== this.epoch || e.v <= newVTop) continue;
        const from = Math.max(newVTop, s.first);
        if (from >= e.v) continue;
        const pulled = [];
        for (let l = from; l < e.v; l++) pulled.push(s.normalText(l));
        e.lines = pulled.concat(e.lines);
        e.v = from;
      }
    }
  }
};
function toError(e) {
  return e instanceof Error ? e : new Error(String(e));
}
function checkDim(name, n) {
  if (!Number.isInteger(n) || n < 1 || n > 1e4) throw new RangeError(`TerminalMirror: invalid ${name} ${n}`);
  return name === "cols" ? Math.max(2, n) : n;
}

// server/core/panes/final-screen.ts
var VERSION2 = 1;
var ID = /^pane[a-z0-9]{4,40}$/;
var fileSchema = z6.object({
  version: z6.literal(VERSION2),
  paneId: z6.string().regex(ID),
  savedAt: z6.string(),
  cols: z6.number().int().min(1).max(1e4),
  rows: z6.number().int().min(1).max(1e4),
  scrollback: z6.number().int().min(0),
  firstLine: z6.number().int().min(0),
  head: z6.number().int().min(0),
  altScreen: z6.boolean(),
  data: z6.string(),
  views: z6.array(z6.object({ reader: z6.string(), cursor: z6.number().int().min(0), v: z6.number().int(), h: z6.number().int(), lines: z6.array(z6.string()), current: z6.boolean() }))
});
async function captureFinalScreen(mirror) {
  await mirror.flush();
  const data = await mirror.serialize();
  return {
    cols: mirror.cols,
    rows: mirror.rows,
    scrollback: mirror.scrollbackLines,
    firstLine: mirror.firstLine,
    head: mirror.head,
    altScreen: mirror.altScreen,
    data,
    views: mirror.exportViews()
  };
}
var FinalScreenStore = class {
  constructor(dir, opts = {}) {
    this.dir = dir;
    this.cacheSize = Math.max(1, opts.cacheSize ?? 3);
    this.idleMs = opts.idleMs ?? 3e4;
  }
  dir;
  cache = /* @__PURE__ */ new Map();
  cacheSize;
  idleMs;
  file(paneId2) {
    if (!ID.test(paneId2)) throw new YardError("BAD_PARAMS", `not a pane id: ${paneId2}`, { paneId: paneId2 });
    return path12.join(this.dir, `${paneId2}.json`);
  }
  /** Writes the screen durably: temp file (0600) + fsync + rename + fsync of the directory. */
  async save(paneId2, screen) {
    const target = this.file(paneId2);
    await fsp7.mkdir(this.dir, { recursive: true, mode: 448 });
    await fsp7.chmod(this.dir, 448);
    const body = JSON.stringify({ version: VERSION2, paneId: paneId2, savedAt: (/* @__PURE__ */ new Date()).toISOString(), ...screen });
    const tmp = path12.join(this.dir, `.${paneId2}.${randomBytes4(6).toString("hex")}.tmp`);
    const fh = await fsp7.open(tmp, "wx", 384);
    try {
      await fh.writeFile(body, "utf8");
      await fh.sync();
    } finally {
      await fh.close();
    }
    try {
      await fsp7.rename(tmp, target);
    } catch (e) {
      await fsp7.rm(tmp, { force: true });
      throw e;
    }
    const dh = await fsp7.open(this.dir, "r");
    try {
      await dh.sync();
    } finally {
      await dh.close();
    }
    this.evict(paneId2);
  }
  /** The saved screen, or null when none was saved (or the file is unreadable). */
  async load(paneId2) {
    let text2;
    try {
      text2 = await fsp7.readFile(this.file(paneId2), "utf8");
    } catch {
      return null;
    }
    let parsed;
    try {
      parsed = fileSchema.parse(JSON.parse(text2));
    } catch {
      return null;
    }
    if (parsed.paneId !== paneId2) return null;
    const { version: _v, paneId: _p, savedAt: _s, ...screen } = parsed;
    return screen;
  }
  /**
   * A read-only mirror holding the saved screen under its original line numbers (null when none
   * was saved). Shared by callers until evicted; callers must not write to it.
   */
  mirror(paneId2) {
    const hit = this.cache.get(paneId2);
    if (hit) {
      this.cache.delete(paneId2);
      this.cache.set(paneId2, hit);
      this.touch(paneId2, hit);
      return hit.mirror;
    }
    const entry = { mirror: this.rebuild(paneId2), ready: null, timer: null };
    this.cache.set(paneId2, entry);
    this.touch(paneId2, entry);
    while (this.cache.size > this.cacheSize) this.evict(this.cache.keys().next().value);
    const forget = () => {
      if (this.cache.get(paneId2) === entry) this.evict(paneId2);
    };
    void entry.mirror.then((m) => {
      if (!m) return forget();
      if (this.cache.get(paneId2) === entry) entry.ready = m;
      else m.dispose();
    }, forget);
    return entry.mirror;
  }
  /** Rebuilt mirrors currently held (for tests and the bench). */
  get cached() {
    return this.cache.size;
  }
  async rebuild(paneId2) {
    const screen = await this.load(paneId2);
    if (!screen) return null;
    const mirror = new TerminalMirror({ cols: screen.cols, rows: screen.rows, scrollback: screen.scrollback, startLine: screen.firstLine, views: screen.views });
    mirror.write(screen.data);
    await mirror.flush();
    return mirror;
  }
  touch(paneId2, entry) {
    if (entry.timer) clearTimeout(entry.timer);
    entry.timer = setTimeout(() => this.evict(paneId2), this.idleMs);
    entry.timer.unref();
  }
  evict(paneId2) {
    const entry = this.cache.get(paneId2);
    if (!entry) return;
    this.cache.delete(paneId2);
    if (entry.timer) clearTimeout(entry.timer);
    entry.ready?.dispose();
    entry.ready = null;
  }
  /** Disposes every rebuilt mirror. */
  close() {
    for (const id2 of [...this.cache.keys()]) this.evict(id2);
  }
};

// server/core/panes/launch.ts
import { accessSync, constants, statSync as statSync3 } from "node:fs";
import path13 from "node:path";
async function resolveLaunch(agents, opts) {
  let launch;
  if (opts.agent) {
    const profile = await agents.get(opts.agent);
    launch = { argv: expandArgv(profile.argv), env: profile.env, hooks: profile.supportsHooks, agent: profile.id, sandbox: profile.sandbox };
  } else if (opts.argv) {
    launch = { argv: expandArgv(opts.argv), env: {}, hooks: false, agent: null, sandbox: false };
  } else {
    throw new YardError("BAD_PARAMS", "Give an agent profile or a command (argv)");
  }
  findProgram(launch.argv[0], opts.pathEnv ?? process.env.PATH ?? "");
  return launch;
}
function findProgram(program, pathEnv) {
  const isFile = (p) => {
    try {
      if (!statSync3(p).isFile()) return false;
      accessSync(p, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  };
  if (program.includes("/")) {
    if (!path13.isAbsolute(program)) throw new YardError("BAD_PARAMS", `The program ${JSON.stringify(program)} must be an absolute path or a name on PATH`, { program });
    if (isFile(program)) return program;
    throw new YardError("BAD_PARAMS", `The program ${program} does not exist or is not executable`, { program });
  }
  for (const dir of pathEnv.split(path13.delimiter)) {
    if (!dir || !path13.isAbsolute(dir)) continue;
    const candidate = path13.join(dir, program);
    if (isFile(candidate)) return candidate;
  }
  throw new YardError("BAD_PARAMS", `The program ${JSON.stringify(program)} was not found on PATH`, { program });
}

// server/core/panes/pty-drain.ts
import { readSync } from "node:fs";
var READ_SIZE = 64 * 1024;
var MAX_DRAIN_BYTES = 16 * 1024 * 1024;
function holdExitUntilDrained(proc) {
  const internals = proc;
  const socket = internals._socket;
  const fd = internals._fd;
  if (!socket || typeof socket.destroy !== "function" || typeof socket.read !== "function" || typeof fd !== "number") return false;
  const realDestroy = socket.destroy;
  let drained = false;
  const drain = () => {
    drained = true;
    if (socket.destroyed) return;
    while (socket.read() !== null) {
    }
    for (let total = 0; total < MAX_DRAIN_BYTES; ) {
      const buf = Buffer.allocUnsafe(READ_SIZE);
      let n;
      try {
        n = readSync(fd, buf, 0, READ_SIZE, null);
      } catch {
        return;
      }
      if (n === 0) return;
      total += n;
      socket.emit("data", buf.subarray(0, n));
    }
  };
  socket.destroy = function(error) {
    if (!drained) drain();
    return realDestroy.call(this, error);
  };
  return true;
}

// server/core/panes/pty-flow.ts
var PtyFlow = class {
  constructor(target) {
    this.target = target;
  }
  target;
  holds = 0;
  /** Times the PTY went from reading to paused. */
  pauses = 0;
  get paused() {
    return this.holds > 0;
  }
  /** Pauses the PTY (if not already) until the returned release is called. */
  hold() {
    if (this.holds++ === 0) {
      this.pauses++;
      this.target.pause();
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      if (--this.holds === 0) this.target.resume();
    };
  }
};

// server/core/tasks/state.ts
var TERMINAL_STATES = ["completed", "failed", "canceled", "rejected"];
var isTerminal = (s) => TERMINAL_STATES.includes(s);
var ACTIVE_STATES = ["pending", "working", "input_required"];
var stay = (state) => ({ state, changed: false, evidence: void 0, endsRound: false, startsRound: false });
var go = (state, evidence2) => ({ state, changed: true, evidence: evidence2, endsRound: isTerminal(state), startsRound: false });
var undelivered = (round, evidence2) => (round ?? 1) > 1 ? go("input_required", { ...evidence2, round }) : go("failed", evidence2);
function transition(state, event) {
  if (event.type === "next_round") {
    if (state === "completed" || state === "input_required") return { ...go("pending", null), startsRound: true };
    throw new YardError("CONFLICT", `Only a completed or input_required task can start another round; this one is ${state}`, { state });
  }
  if (event.type === "start") {
    if (state === "backlog") return go("pending", null);
    throw new YardError("CONFLICT", `Only a backlog task can be started; this one is ${state}`, { state });
  }
  if (isTerminal(state)) {
    if (event.type === "report") throw new YardError("CONFLICT", `The task is already ${state}; its round's result cannot change`, { state });
    if (event.type === "cancel") throw new YardError("CONFLICT", `The task is already ${state}`, { state });
    return stay(state);
  }
  switch (event.type) {
    case "submitted":
      return state === "pending" ? go("working", null) : stay(state);
    case "submit_refused":
      return state === "pending" ? undelivered(event.round, { stage: "submit_refused", code: event.code, message: event.message, details: event.details ?? null }) : stay(state);
    case "submit_unconfirmed":
      return state === "pending" ? go("input_required", { stage: "submit_unconfirmed", stallMs: event.stallMs }) : stay(state);
    case "ready_timeout":
      return state === "pending" ? undelivered(event.round, { stage: "ready_timeout", timeoutMs: event.timeoutMs, lifecycle: event.lifecycle }) : stay(state);
    case "pane_working":
      return state === "input_required" ? go("working", null) : stay(state);
    case "pane_done":
      return state === "working" ? go("input_required", { reason: "turn_ended_without_report", last_message: event.lastMessage ?? null }) : stay(state);
    case "pane_exit":
      return go("failed", { reason: "pane_exited", exitCode: event.exitCode, signal: event.signal, lastLifecycle: event.lastLifecycle });
    case "report":
      if (state === "backlog") throw new YardError("CONFLICT", "The task has not started", { state });
      return go(event.status, null);
    case "cancel":
      return go("canceled", null);
    case "restart":
      return state === "pending" ? go("failed", { stage: "restart", reason: "server_restart" }) : state === "backlog" ? stay(state) : go("failed", { reason: "server_restart", lastLifecycle: event.lastLifecycle });
  }
}

// server/core/panes/submit-gate.ts
var DEFAULT_ENTER_DELAY_MS = 300;
var DEFAULT_STALL_MS = 5e3;
var PASTE_START = "\x1B[200~";
var PASTE_END = "\x1B[201~";
var ENTER = "\r";
function sanitizeSubmitText(text2) {
  let t2 = text2;
  for (; ; ) {
    const next = t2.split(PASTE_START).join("").split(PASTE_END).join("");
    if (next === t2) break;
    t2 = next;
  }
  return t2.replace(/\r\n?/g, "\n").replace(/\n+$/, "");
}
function checkSubmittable(lifecycle2, taskPending) {
  switch (lifecycle2) {
    case "exited":
      throw new YardError("PANE_EXITED", "The pane's process has exited; it cannot take a prompt.", { state: lifecycle2 });
    case "working":
    case "blocked":
      throw new YardError(
        "PANE_BUSY",
        lifecycle2 === "working" ? "The agent is working; wait for it to finish its turn." : "The agent is waiting on a prompt (permission or question) in the pane.",
        { state: lifecycle2 }
      );
    case "starting":
    case "unknown":
      throw new YardError("AGENT_NOT_READY", `The agent is not ready for input yet (${lifecycle2}).`, { state: lifecycle2 });
    case "idle":
    case "done":
      break;
    default: {
      const never = lifecycle2;
      throw new YardError("AGENT_NOT_READY", `Unexpected pane state ${String(never)}.`, { state: String(never) });
    }
  }
  if (taskPending) {
    throw new YardError("AGENT_NOT_READY", "The pane's task is still pending; it has not been started yet.", {
      state: lifecycle2,
      taskPending: true
    });
  }
}
function checkMs(name, v, dflt) {
  if (v === void 0) return dflt;
  if (typeof v !== "number" || !Number.isFinite(v) || v < 0) {
    throw new YardError("BAD_PARAMS", `${name} must be a non-negative number of milliseconds`, { field: name, value: v });
  }
  return v;
}
function abortError(signal) {
  return signal.reason ?? new DOMException("The operation was aborted.", "AbortError");
}
function sleep(ms, signal) {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortError(signal));
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortError(signal));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
async function submit(target, text2, opts = {}) {
  const enterDelayMs = checkMs("enterDelayMs", opts.enterDelayMs, DEFAULT_ENTER_DELAY_MS);
  const stallMs = checkMs("stallMs", opts.stallMs, DEFAULT_STALL_MS);
  const { signal } = opts;
  if (typeof text2 !== "string") throw new YardError("BAD_PARAMS", "text must be a string", { field: "text" });
  const clean = sanitizeSubmitText(text2);
  if (clean.trim() === "") throw new YardError("BAD_PARAMS", "text is empty or whitespace-only", { field: "text" });
  checkSubmittable(target.lifecycle(), target.taskPending());
  if (signal?.aborted) throw abortError(signal);
  const baseline = target.activitySeq();
  const bracketed = target.bracketedPaste();
  target.write(bracketed ? PASTE_START + clean + PASTE_END : clean);
  await sleep(enterDelayMs, signal);
  if (target.lifecycle() === "exited") {
    throw new YardError("PANE_EXITED", "The pane's process exited before Enter was sent.", { stage: "enter", state: "exited" });
  }
  target.write(ENTER);
  const active = target.activitySeq() > baseline || await target.waitForActivity(baseline, stallMs, signal);
  if (!active) {
    if (signal?.aborted) throw abortError(signal);
    const state = target.lifecycle();
    if (state === "exited") {
      throw new YardError("PANE_EXITED", "The pane's process exited before the agent started working.", {
        stage: "activity_gate",
        state
      });
    }
    throw new YardError(
      "SUBMIT_STALLED",
      `The agent showed no activity within ${stallMs} ms after the prompt was submitted (activity gate).`,
      { stage: "activity_gate", stallMs, baseline, state }
    );
  }
  return { ok: true, activitySeq: target.activitySeq(), bracketed };
}
var SubmitQueue = class {
  inFlight = /* @__PURE__ */ new Set();
  isBusy(key) {
    return this.inFlight.has(key);
  }
  /** Run fn exclusively for key. The busy check and the claim happen synchronously. */
  run(key, fn) {
    if (this.inFlight.has(key)) {
      return Promise.reject(
        new YardError("PANE_BUSY", "Another prompt is being submitted to this pane.", { state: "submitting", paneId: key })
      );
    }
    this.inFlight.add(key);
    let p;
    try {
      p = Promise.resolve(fn());
    } catch (e) {
      this.inFlight.delete(key);
      return Promise.reject(e);
    }
    return p.finally(() => this.inFlight.delete(key));
  }
  submit(key, target, text2, opts) {
    return this.run(key, () => submit(target, text2, opts));
  }
};
var defaultSubmitQueue = new SubmitQueue();
var ActivityWaiter = class {
  constructor(current) {
    this.current = current;
  }
  current;
  waiters = /* @__PURE__ */ new Set();
  notify() {
    for (const w of [...this.waiters]) w();
  }
  /** number of pending waits (for tests and leak checks) */
  get pending() {
    return this.waiters.size;
  }
  wait(afterSeq, timeoutMs, signal) {
    if (this.current() > afterSeq) return Promise.resolve(true);
    if (signal?.aborted) return Promise.resolve(false);
    return new Promise((resolve) => {
      const finish = (v) => {
        clearTimeout(timer);
        this.waiters.delete(check);
        signal?.removeEventListener("abort", onAbort);
        resolve(v);
      };
      const check = () => {
        if (this.current() > afterSeq) finish(true);
      };
      const onAbort = () => finish(false);
      const timer = setTimeout(() => finish(this.current() > afterSeq), timeoutMs);
      this.waiters.add(check);
      signal?.addEventListener("abort", onAbort, { once: true });
    });
  }
};

// server/core/panes/manager.ts
var QUIESCENCE_MS = 1500;
var ECHO_WINDOW_MS = 150;
var KILL_GRACE_MS = 2e3;
var BACKPRESSURE_HIGH = 256 * 1024;
var BACKPRESSURE_LOW = 64 * 1024;
var MAX_SCROLLBACK = 1e5;
var FAULT_JOURNAL_MS = 5e3;
var FAULT_MESSAGE_MAX = 300;
var spawnInput = z7.object({
  argv: argvSchema.optional(),
  agent: z7.string().regex(/^[a-z0-9][a-z0-9-]{0,39}$/).optional(),
  cwd: absolutePath.optional(),
  env: envSchema.optional(),
  label: z7.string().trim().min(1).max(120).optional(),
  parentPaneId: z7.string().regex(/^pane[a-z0-9]+$/).optional(),
  relationship: z7.enum(["fork", "subagent"]).optional(),
  cols: z7.number().int().min(10).max(1e3).optional(),
  rows: z7.number().int().min(4).max(500).optional()
}).refine((v) => v.argv ? !v.agent : Boolean(v.agent), { message: "give either an agent profile or argv (a command), not both" }).refine((v) => !v.relationship || v.parentPaneId, { message: "relationship needs a parent pane", path: ["relationship"] });
var PaneManager = class {
  constructor(deps) {
    this.deps = deps;
    this.binDir = path14.join(deps.home, "bin");
    const lines = deps.scrollbackLines ?? MIN_SCROLLBACK;
    if (!Number.isInteger(lines) || lines < MIN_SCROLLBACK || lines > MAX_SCROLLBACK) {
      throw new YardError("BAD_PARAMS", `scrollback must be a whole number of lines from ${MIN_SCROLLBACK} to ${MAX_SCROLLBACK}`, { scrollbackLines: lines });
    }
    this.scrollback = lines;
    this.highWater = deps.backpressure?.highBytes ?? BACKPRESSURE_HIGH;
    this.lowWater = deps.backpressure?.lowBytes ?? BACKPRESSURE_LOW;
    if (!(this.lowWater >= 0 && this.highWater > this.lowWater)) throw new YardError("BAD_PARAMS", "backpressure needs 0 <= lowBytes < highBytes", { ...deps.backpressure });
    this.screens = new FinalScreenStore(paths(deps.home).screens);
    this.installYardShim();
  }
  deps;
  live = /* @__PURE__ */ new Map();
  queue = new SubmitQueue();
  binDir;
  scrollback;
  highWater;
  lowWater;
  /** Final screens of exited panes (see final-screen.ts). */
  screens;
  closing = false;
  /** `yard` on every pane's PATH: a tiny launcher for this checkout's CLI with this Node. */
  installYardShim() {
    mkdirSync2(this.binDir, { recursive: true, mode: 448 });
    const shim = path14.join(this.binDir, "yard");
    const q = (s) => `'${s.replace(/'/g, `'\\''`)}'`;
    const body = `#!/bin/sh
exec ${q(process.execPath)} ${q(path14.join(REPO_ROOT, "cli/bin/yard.js"))} "$@"
`;
    writeFileSync2(shim, body, { mode: 448 });
    chmodSync2(shim, 448);
  }
  // ---- spawn ---------------------------------------------------------------------------
  /** The PATH every pane gets: `yard` first, then the server's own. */
  panePath() {
    return `${this.binDir}${path14.delimiter}${process.env.PATH ?? "/usr/bin:/bin"}`;
  }
  /** What a spawn would run; refuses (BAD_PARAMS, NOT_FOUND) before anything is created. */
  resolveLaunch(opts) {
    return resolveLaunch(this.deps.agents, { agent: opts.agent, argv: opts.argv, pathEnv: this.panePath() });
  }
  async spawn(input, extras = {}) {
    if (this.closing) throw new YardError("CONFLICT", "The server is shutting down");
    const opts = spawnInput.parse(input);
    const cwd = opts.cwd ?? path14.resolve(process.env.HOME ?? "/");
    if (!existsSync3(cwd) || !statSync4(cwd).isDirectory()) throw new YardError("BAD_PARAMS", `cwd ${cwd} is not a directory`, { cwd });
    let parent = null;
    if (opts.parentPaneId) {
      parent = await this.deps.db.pane.findUnique({ where: { id: opts.parentPaneId }, select: { id: true, rootPaneId: true } });
      if (!parent) throw new YardError("NOT_FOUND", `No parent pane ${opts.parentPaneId}`, { parentPaneId: opts.parentPaneId });
    }
    const launch = await this.resolveLaunch(opts);
    const { argv, hooks } = launch;
    const profileEnv = launch.env;
    if (launch.sandbox && extras.sandbox === void 0) {
      throw new YardError("BAD_PARAMS", `Agent profile ${launch.agent} runs in the OS sandbox, which needs a task's worktree: start it as a task (yard task start --agent ${launch.agent})`, { agent: launch.agent });
    }
    const id2 = newId("pane");
    const { token, hash } = newPaneToken(id2);
    const cols = opts.cols ?? 120;
    const rows = opts.rows ?? 32;
    const env = {};
    for (const [k, v] of Object.entries(process.env)) if (v !== void 0 && !k.startsWith("YARD_")) env[k] = v;
    Object.assign(env, profileEnv, opts.env ?? {}, extras.extraEnv ?? {}, {
      TERM: "xterm-256color",
      COLORTERM: "truecolor",
      YARD_URL: this.deps.url(),
      YARD_TOKEN: token,
      YARD_PANE: id2,
      PATH: this.panePath()
    });
    if (parent) env.YARD_PARENT_PANE = parent.id;
    if (extras.taskId) env.YARD_TASK = extras.taskId;
    const rootPaneId = parent ? parent.rootPaneId ?? parent.id : id2;
    const row = await this.deps.db.pane.create({
      data: {
        id: id2,
        argv: JSON.stringify(argv),
        cwd,
        label: opts.label ?? null,
        parentPaneId: parent?.id ?? null,
        rootPaneId,
        relationship: opts.relationship ?? null,
        taskId: extras.taskId ?? null,
        agent: opts.agent ?? null,
        lifecycle: "unknown",
        cols,
        rows,
        tokenHash: hash,
        sandboxed: Boolean(extras.sandbox)
      }
    });
    let proc;
    try {
      const launch2 = sandboxed(argv, env, extras.sandbox);
      proc = pty.spawn(launch2.argv[0], launch2.argv.slice(1), { name: "xterm-256color", cols, rows, cwd, env: launch2.env, encoding: null });
    } catch (e) {
      await this.deps.db.pane.update({ where: { id: id2 }, data: { lifecycle: "exited", exitCode: 127, exitedAt: /* @__PURE__ */ new Date() } });
      await this.deps.journal.append("pane.exit", { paneId: id2, taskId: extras.taskId, payload: { exitCode: 127, error: e.message } });
      throw new YardError("BAD_PARAMS", `Could not start ${argv[0]}: ${e.message}`, { argv });
    }
    const info = { ...toInfo(row), pid: proc.pid, live: true };
    let resolveExit;
    const pane = {
      info,
      state: initialPaneState(),
      pty: proc,
      mirror: new TerminalMirror({ cols, rows, scrollback: this.scrollback, onFault: (e) => this.onMirrorFault(pane, e) }),
      exiting: false,
      flow: new PtyFlow(proc),
      backpressure: null,
      backpressurePauses: 0,
      maxPendingBytes: 0,
      faultJournaledAt: 0,
      faultsUnjournaled: 0,
      lastFault: null,
      hooks,
      listeners: /* @__PURE__ */ new Set(),
      waiter: new ActivityWaiter(() => pane.state.activitySeq),
      quietTimer: null,
      lastUserInputAt: 0,
      decoder: new StringDecoder("utf8"),
      undecodedTail: null,
      persist: Promise.resolve(),
      exited: new Promise((r) => resolveExit = r)
    };
    this.live.set(id2, pane);
    pane.mirror.onWriteParsed(() => {
      if (pane.backpressure && (pane.mirror?.pendingBytes ?? 0) < this.lowWater) {
        const release = pane.backpressure;
        pane.backpressure = null;
        release();
      }
    });
    holdExitUntilDrained(proc);
    proc.onData((chunk) => this.output(pane, chunk));
    proc.onExit(({ exitCode, signal }) => {
      void this.finishExit(pane, exitCode, signal ?? null).catch(() => {
      }).finally(resolveExit);
    });
    void this.deps.journal.append("pane.spawned", { paneId: id2, taskId: extras.taskId, payload: { argv, cwd, label: info.label, parentPaneId: info.parentPaneId, agent: info.agent, sandboxed: info.sandboxed, ...extras.sandbox ? { network: extras.sandbox.network } : {} } });
    this.apply(pane, { type: "spawned", at: Date.now() });
    this.queuePersist(pane, { pid: proc.pid });
    await pane.persist;
    if (!pane.hooks) this.armQuiescence(pane);
    return { ...pane.info };
  }
  /** One read from the PTY: into the mirror, to live viewers, and to the screen heuristics. */
  output(pane, chunk) {
    const mirror = pane.mirror;
    if (!mirror) return;
    const bytes = typeof chunk === "string" ? Buffer.from(chunk) : chunk;
    mirror.write(bytes);
    const pending = mirror.pendingBytes;
    if (pending > pane.maxPendingBytes) pane.maxPendingBytes = pending;
    if (pending > this.highWater && !pane.backpressure && !pane.exiting) {
      pane.backpressure = pane.flow.hold();
      pane.backpressurePauses++;
    }
    if (pane.listeners.size) {
      const text2 = pane.decoder.write(bytes);
      for (const l of pane.listeners) l.output?.(text2);
    } else {
      pane.undecodedTail = incompleteUtf8Tail(bytes);
    }
    if (!pane.hooks && !pane.state.hooksSeen) this.heuristicOutput(pane);
  }
  /**
   * The process exited and its output was read to the end: parse it all, save the final screen,
   * then mark the pane exited (row, journal, listeners), forget it and dispose its mirror. Until
   * the pane leaves `live`, reads still come from the live mirror; afterwards from the saved one.
   */
  async finishExit(pane, exitCode, signal) {
    const id2 = pane.info.id;
    const mirror = pane.mirror;
    pane.exiting = true;
    if (pane.quietTimer) clearTimeout(pane.quietTimer);
    pane.quietTimer = null;
    pane.backpressure?.();
    pane.backpressure = null;
    try {
      try {
        await this.screens.save(id2, await captureFinalScreen(mirror));
      } catch (e) {
        await this.deps.journal.append("pane.screen_unsaved", { paneId: id2, taskId: pane.info.taskId, payload: { error: truncate(e.message, FAULT_MESSAGE_MAX) } }).catch(() => {
        });
      }
      if (pane.faultsUnjournaled > 0) this.journalFault(pane);
      pane.info.exitCode = exitCode;
      pane.info.signal = signal;
      pane.info.exitedAt = (/* @__PURE__ */ new Date()).toISOString();
      pane.info.live = false;
      this.apply(pane, { type: "exit", exitCode, signal: signal || null, at: Date.now() });
      await pane.persist.catch(() => {
      });
      for (const l of pane.listeners) l.exit?.(pane.info);
    } finally {
      this.live.delete(id2);
      pane.listeners.clear();
      pane.mirror = null;
      mirror.dispose();
    }
  }
  /** The mirror recovered from an xterm fault: journal it, at most once per FAULT_JOURNAL_MS. */
  onMirrorFault(pane, error) {
    pane.lastFault = error;
    pane.faultsUnjournaled++;
    if (Date.now() - pane.faultJournaledAt >= FAULT_JOURNAL_MS) this.journalFault(pane);
  }
  /** A `pane.fault` event: the last error, the faults it covers, and the pane's total (`count`). */
  journalFault(pane) {
    const error = pane.lastFault;
    pane.faultJournaledAt = Date.now();
    const covers = pane.faultsUnjournaled;
    pane.faultsUnjournaled = 0;
    void this.deps.journal.append("pane.fault", {
      paneId: pane.info.id,
      taskId: pane.info.taskId,
      payload: { message: truncate(error?.message ?? "", FAULT_MESSAGE_MAX), error: error?.name ?? null, count: pane.mirror?.faults ?? 0, covers }
    });
  }
  // ---- lifecycle -----------------------------------------------------------------------
  apply(pane, event) {
    const { state, effects } = reduce(pane.state, event);
    pane.state = state;
    pane.info.lifecycle = state.lifecycle;
    pane.info.doneSeen = state.doneSeen;
    for (const effect of effects) {
      if (effect.kind === "transition") {
        this.queuePersist(pane, {});
        void this.deps.journal.append("pane.lifecycle", {
          paneId: pane.info.id,
          taskId: pane.info.taskId,
          payload: { from: effect.from, to: effect.to, seq: effect.seq, cause: effect.cause, exitCode: state.exitCode, lastMessage: effect.to === "done" ? state.lastMessage ?? null : void 0 }
        });
        for (const l of pane.listeners) l.lifecycle?.({ ...pane.info });
        this.deps.onTransition?.({ ...pane.info }, state, effect);
      } else if (effect.kind === "journal" && effect.type !== "pane.lifecycle") {
        void this.deps.journal.append(effect.type, { paneId: pane.info.id, taskId: pane.info.taskId, payload: effect.data });
        if (effect.type === "pane.seen") this.queuePersist(pane, {});
      }
    }
    pane.waiter.notify();
  }
  queuePersist(pane, extra) {
    const data = {
      lifecycle: pane.state.lifecycle,
      lifecycleSeq: pane.state.seq,
      doneSeen: pane.state.doneSeen,
      exitCode: pane.state.exitCode,
      signal: typeof pane.state.signal === "number" ? pane.state.signal : null,
      exitedAt: pane.state.lifecycle === "exited" ? /* @__PURE__ */ new Date() : void 0,
      // A pane's token dies with its process.
      ...pane.state.lifecycle === "exited" ? { tokenHash: null } : {},
      ...extra
    };
    const run2 = () => this.deps.db.pane.update({ where: { id: pane.info.id }, data });
    pane.persist = pane.persist.then(run2, run2);
  }
  heuristicOutput(pane) {
    if (Date.now() - pane.lastUserInputAt > ECHO_WINDOW_MS) this.apply(pane, { type: "output", at: Date.now() });
    this.armQuiescence(pane);
  }
  armQuiescence(pane) {
    if (pane.quietTimer) clearTimeout(pane.quietTimer);
    pane.quietTimer = setTimeout(() => {
      pane.quietTimer = null;
      if (!pane.state.hooksSeen) this.apply(pane, { type: "quiescent", at: Date.now() });
    }, QUIESCENCE_MS);
    pane.quietTimer.unref();
  }
  /** A hook post from `yard hook` (pane token) or an admin. */
  async hook(paneId2, raw2) {
    const post = parseHookPost(raw2);
    const pane = this.live.get(paneId2);
    if (!pane) {
      const row = await this.deps.db.pane.findUnique({ where: { id: paneId2 } });
      if (!row) throw new YardError("NOT_FOUND", `No pane ${paneId2}`, { paneId: paneId2 });
      await this.deps.journal.append("pane.hook", { paneId: paneId2, taskId: row.taskId, payload: { event: post.event, ignored: "pane is not running" } });
      return { lifecycle: row.lifecycle, seq: row.lifecycleSeq };
    }
    if (pane.quietTimer) {
      clearTimeout(pane.quietTimer);
      pane.quietTimer = null;
    }
    this.apply(pane, { type: "hook", name: post.event, payload: post.payload, at: Date.now() });
    return { lifecycle: pane.state.lifecycle, seq: pane.state.seq };
  }
  // ---- reads ---------------------------------------------------------------------------
  noScreen(id2) {
    return new YardError("NOT_FOUND", `Pane ${id2} has no screen (it did not run to its exit on this server's data dir)`, { paneId: id2 });
  }
  /** The live pane's mirror, else a read-only mirror rebuilt from its saved final screen. */
  async mirrorFor(id2) {
    const live = this.live.get(id2)?.mirror;
    if (live && !live.isDisposed) return live;
    const saved = await this.screens.mirror(id2);
    if (!saved) throw this.noScreen(id2);
    return saved;
  }
  /** Runs a read on the pane's mirror; a mirror disposed under it (exit, eviction) is replaced once. */
  async withMirror(id2, fn) {
    for (let attempt = 0; ; attempt++) {
      const mirror = await this.mirrorFor(id2);
      try {
        return await fn(mirror);
      } catch (e) {
        if (!mirror.isDisposed || attempt >= 2) throw e;
      }
    }
  }
  async read(id2, opts) {
    const info = await this.get(id2);
    const mode = opts.mode ?? "screen";
    return this.withMirror(id2, async (mirror) => {
      if (mode === "delta") {
        const d = await mirror.delta(opts.cursor ?? 0, opts.reader ? { reader: opts.reader } : void 0);
        return { text: d.text, cursor: d.cursor, start: d.start, dropped: d.dropped, lifecycle: info.lifecycle };
      }
      const r = mode === "tail" ? await mirror.tail(opts.lines ?? 50) : await mirror.screen();
      return { text: r.text, cursor: r.cursor, start: r.cursor, dropped: null, lifecycle: info.lifecycle };
    });
  }
  async snapshot(id2) {
    for (let attempt = 0; ; attempt++) {
      const live = this.live.get(id2)?.mirror;
      if (!live || live.isDisposed) break;
      try {
        return { data: await live.serialize(), cols: live.cols, rows: live.rows };
      } catch (e) {
        if (!live.isDisposed || attempt >= 2) throw e;
      }
    }
    const saved = await this.screens.load(id2);
    if (!saved) throw this.noScreen(id2);
    return { data: saved.data, cols: saved.cols, rows: saved.rows };
  }
  /** The live pane's mirror (null once it has exited and been disposed): diagnostics and tests. */
  liveMirror(id2) {
    return this.live.get(id2)?.mirror ?? null;
  }
  /** Backpressure counters of a live pane: current and largest unparsed backlog, backpressure pauses so far. */
  flowStats(id2) {
    const pane = this.live.get(id2);
    if (!pane) return null;
    return { pendingBytes: pane.mirror?.pendingBytes ?? 0, maxPendingBytes: pane.maxPendingBytes, backpressurePauses: pane.backpressurePauses, paused: pane.flow.paused };
  }
  // ---- input ---------------------------------------------------------------------------
  requireLive(id2) {
    const pane = this.live.get(id2);
    if (pane && !pane.exiting) return pane;
    throw new YardError("PANE_EXITED", `Pane ${id2} is not running`, { paneId: id2 });
  }
  /** Raw keystrokes from a person (browser, `yard pane send-keys`). */
  async sendKeys(id2, data, opts = {}) {
    await this.get(id2);
    const pane = this.requireLive(id2);
    pane.lastUserInputAt = Date.now();
    this.apply(pane, { type: "input", at: Date.now() });
    pane.pty.write(data);
    if (opts.enter) pane.pty.write("\r");
    return { bytes: Buffer.byteLength(data) + (opts.enter ? 1 : 0) };
  }
  async submit(id2, text2, opts = {}) {
    const info = await this.get(id2);
    const pane = this.live.get(id2);
    if (!pane || pane.exiting) throw new YardError("PANE_EXITED", `Pane ${id2} has exited`, { paneId: id2, state: pane ? "exited" : info.lifecycle });
    const result = await this.queue.submit(id2, this.submitTarget(pane, { taskMayBePending: false }), text2, opts);
    await this.deps.journal.append("pane.submitted", { paneId: id2, taskId: pane.info.taskId, payload: { bytes: Buffer.byteLength(text2), activitySeq: result.activitySeq } });
    return { ...result, lifecycle: pane.state.lifecycle };
  }
  /** Submit used by the task engine while the pane's task is still pending: skips that one check. */
  async submitForTask(id2, text2, opts = {}) {
    return this.queue.submit(id2, this.submitTarget(this.requireLive(id2), { taskMayBePending: true }), text2, opts);
  }
  submitTarget(pane, opts) {
    return {
      lifecycle: () => pane.state.lifecycle,
      taskPending: () => !opts.taskMayBePending && pane.info.taskId !== null && this.deps.taskState?.(pane.info.taskId) === "pending",
      activitySeq: () => pane.state.activitySeq,
      bracketedPaste: () => pane.mirror?.bracketedPasteMode ?? false,
      write: (data) => pane.pty.write(data),
      waitForActivity: (after, timeout, signal) => pane.waiter.wait(after, timeout, signal)
    };
  }
  async resize(id2, cols, rows) {
    if (!Number.isInteger(cols) || !Number.isInteger(rows) || cols < 10 || cols > 1e3 || rows < 4 || rows > 500) {
      throw new YardError("BAD_PARAMS", "cols must be 10..1000 and rows 4..500", { cols, rows });
    }
    const pane = this.requireLive(id2);
    if (pane.info.cols === cols && pane.info.rows === rows) return { ...pane.info };
    pane.pty.resize(cols, rows);
    pane.mirror.resize(cols, rows);
    pane.info.cols = cols;
    pane.info.rows = rows;
    await this.deps.db.pane.update({ where: { id: id2 }, data: { cols, rows } });
    return { ...pane.info };
  }
  /** Marks a done/exited pane as seen by the user (clears it from attention). */
  async markSeen(id2) {
    const pane = this.live.get(id2);
    if (pane) {
      this.apply(pane, { type: "viewed", at: Date.now() });
      await pane.persist;
      return { ...pane.info };
    }
    const info = await this.get(id2);
    if (!info.doneSeen) {
      await this.deps.db.pane.update({ where: { id: id2 }, data: { doneSeen: true } });
      await this.deps.journal.append("pane.seen", { paneId: id2, taskId: info.taskId, payload: {} });
    }
    return { ...info, doneSeen: true };
  }
  /** Ends the pane's whole process group: SIGTERM, then SIGKILL after a grace period. */
  async kill(id2, opts = {}) {
    const info = await this.get(id2);
    const pane = this.live.get(id2);
    if (!pane) return info;
    if (pane.exiting) {
      await pane.exited;
      return this.get(id2);
    }
    const pid = pane.pty.pid;
    signalGroup(pid, "SIGTERM");
    pane.pty.kill("SIGHUP");
    const timer = setTimeout(() => signalGroup(pid, "SIGKILL"), opts.graceMs ?? KILL_GRACE_MS);
    await pane.exited;
    clearTimeout(timer);
    return this.get(id2);
  }
  // ---- queries -------------------------------------------------------------------------
  /**
   * The pane a pane token stands for, or null: the secret must match the stored hash and the pane
   * must be running on this server (a token dies with its pane).
   */
  async authenticate(paneId2, secret) {
    const live = this.live.get(paneId2);
    if (!live || live.state.lifecycle === "exited") return null;
    const row = await this.deps.db.pane.findUnique({ where: { id: paneId2 }, select: { id: true, taskId: true, tokenHash: true } });
    if (!row?.tokenHash || !safeEqual(row.tokenHash, hashSecret(secret))) return null;
    return { id: row.id, taskId: row.taskId };
  }
  async get(id2) {
    const pane = this.live.get(id2);
    if (pane) return { ...pane.info };
    const row = await this.deps.db.pane.findUnique({ where: { id: id2 } });
    if (!row) throw new YardError("NOT_FOUND", `No pane ${id2}`, { paneId: id2 });
    return toInfo(row);
  }
  async list(filter = {}) {
    const rows = await this.deps.db.pane.findMany({ where: { taskId: filter.taskId }, orderBy: { createdAt: "asc" } });
    const out = rows.map((r) => this.live.has(r.id) ? { ...this.live.get(r.id).info } : toInfo(r));
    return filter.liveOnly ? out.filter((p) => p.live) : out;
  }
  isLive(id2) {
    return this.live.has(id2);
  }
  state(id2) {
    return this.live.get(id2)?.state ?? null;
  }
  async attention(opts = {}) {
    const rows = await this.deps.db.pane.findMany({ where: { OR: [{ lifecycle: { in: ["blocked", "done", "exited"] } }, { taskId: { not: null } }] } });
    const candidates = rows.map((r) => {
      const live = this.live.get(r.id);
      const task = r.taskId ? opts.taskStates?.get(r.taskId) : void 0;
      return {
        paneId: r.id,
        taskId: r.taskId,
        lifecycle: live?.state.lifecycle ?? r.lifecycle,
        // A worker whose task reached a terminal state is the board's Review, not attention.
        // A plain shell's "done" is only the screen going quiet (no hooks): not worth a ping.
        doneSeen: (live?.state.doneSeen ?? r.doneSeen) || (task ? isTerminal(task.state) : false) || !r.taskId && live !== void 0 && !live.hooks && !live.state.hooksSeen,
        exitCode: live?.state.exitCode ?? r.exitCode,
        signal: live ? live.state.signal : r.signal,
        stopFailed: live?.state.lastStop?.failed ?? false,
        taskState: task?.state ?? null,
        taskStateAt: task?.at ?? null,
        lastTransitionAt: live?.state.lastTransitionAt ?? (r.exitedAt ?? r.updatedAt).getTime()
      };
    });
    return rankAttention(candidates, { limit: opts.limit });
  }
  /**
   * A consistent start for a live viewer: the serialized screen, and a subscription whose first
   * output byte is the first byte not in that snapshot. The PTY is paused for the few
   * milliseconds this takes, so nothing is lost or shown twice.
   */
  async attach(id2, listener) {
    const pane = this.live.get(id2);
    if (!pane) {
      const info = await this.get(id2);
      return { snapshot: await this.snapshot(id2).catch(() => ({ data: "", cols: info.cols, rows: info.rows })), pane: info, detach: () => {
      } };
    }
    const release = pane.flow.hold();
    try {
      const snapshot = await this.snapshot(id2);
      if (pane.listeners.size === 0) {
        pane.decoder = new StringDecoder("utf8");
        if (pane.undecodedTail) pane.decoder.write(pane.undecodedTail);
      }
      pane.listeners.add(listener);
      return { snapshot, pane: { ...pane.info }, detach: () => pane.listeners.delete(listener) };
    } finally {
      release();
    }
  }
  // ---- start-up and shutdown -----------------------------------------------------------
  /** Panes recorded as running by a previous server process are gone: mark them exited. */
  /** Returns each lost pane's last lifecycle, by id. */
  async recover() {
    const stale = await this.deps.db.pane.findMany({ where: { lifecycle: { not: "exited" } } });
    for (const row of stale) {
      await this.deps.db.pane.update({ where: { id: row.id }, data: { lifecycle: "exited", exitedAt: /* @__PURE__ */ new Date(), doneSeen: false, tokenHash: null } });
      await this.deps.journal.append("pane.lost", { paneId: row.id, taskId: row.taskId, payload: { lastLifecycle: row.lifecycle, reason: "server_restart" } });
    }
    return new Map(stale.map((r) => [r.id, r.lifecycle]));
  }
  async shutdown() {
    this.closing = true;
    await Promise.all([...this.live.keys()].map((id2) => this.kill(id2, { graceMs: 1e3 }).catch(() => {
    })));
    this.screens.close();
  }
};
function sandboxed(argv, env, launch) {
  return launch ? launch.wrap(argv, env) : { argv, env };
}
function incompleteUtf8Tail(b) {
  for (let back = 1; back <= Math.min(3, b.length); back++) {
    const byte = b[b.length - back];
    if ((byte & 192) === 128) continue;
    const need = byte >= 240 ? 4 : byte >= 224 ? 3 : byte >= 192 ? 2 : 1;
    return need > back ? Buffer.from(b.subarray(b.length - back)) : null;
  }
  return null;
}
function truncate(s, max) {
  return s.length <= max ? s : `${s.slice(0, max - 1)}\u2026`;
}
function signalGroup(pid, signal) {
  try {
    process.kill(-pid, signal);
  } catch {
    try {
      process.kill(pid, signal);
    } catch {
    }
  }
}
function toInfo(r) {
  return {
    id: r.id,
    label: r.label,
    lifecycle: r.lifecycle,
    pid: r.pid,
    exitCode: r.exitCode,
    signal: r.signal,
    cwd: r.cwd,
    argv: JSON.parse(r.argv),
    agent: r.agent,
    parentPaneId: r.parentPaneId,
    rootPaneId: r.rootPaneId,
    relationship: r.relationship ?? null,
    taskId: r.taskId,
    cols: r.cols,
    rows: r.rows,
    doneSeen: r.doneSeen,
    live: false,
    createdAt: r.createdAt.toISOString(),
    exitedAt: r.exitedAt?.toISOString() ?? null,
    sandboxed: r.sandboxed
  };
}

// server/api/trpc.ts
import { TRPCError, initTRPC } from "@trpc/server";
import { ZodError } from "zod";
var TRPC_CODE = {
  BAD_PARAMS: "BAD_REQUEST",
  UNAUTHORIZED: "UNAUTHORIZED",
  FORBIDDEN: "FORBIDDEN",
  NOT_FOUND: "NOT_FOUND",
  CONFLICT: "CONFLICT",
  RATE_LIMITED: "TOO_MANY_REQUESTS",
  TIMEOUT: "TIMEOUT",
  PANE_BUSY: "CONFLICT",
  AGENT_NOT_READY: "CONFLICT",
  PANE_EXITED: "CONFLICT",
  SUBMIT_STALLED: "CONFLICT",
  TASK_NOT_COMPLETED: "CONFLICT",
  DIRTY_TARGET: "CONFLICT",
  DIRTY_SOURCE: "CONFLICT",
  MERGE_CONFLICT: "CONFLICT",
  PAYLOAD_TOO_LARGE: "PAYLOAD_TOO_LARGE",
  GIT_FAILED: "INTERNAL_SERVER_ERROR",
  SERVER_UNAVAILABLE: "INTERNAL_SERVER_ERROR",
  SANDBOX_UNAVAILABLE: "PRECONDITION_FAILED",
  INTERNAL: "INTERNAL_SERVER_ERROR"
};
function zodToYardError(e) {
  const issues = e.issues.map((i) => ({ path: i.path.join("."), message: i.message }));
  const message = issues.map((i) => i.path ? `${i.path}: ${i.message}` : i.message).join("; ");
  return new YardError("BAD_PARAMS", message || "Invalid input", { issues });
}
function toYardError(error) {
  const cause = error.cause;
  if (cause instanceof YardError) return cause;
  if (cause instanceof ZodError) return zodToYardError(cause);
  if (cause instanceof RangeError) return new YardError("BAD_PARAMS", "The input is too large or too deeply nested");
  switch (error.code) {
    case "BAD_REQUEST":
    case "PARSE_ERROR":
      return new YardError("BAD_PARAMS", error.message);
    case "METHOD_NOT_SUPPORTED":
      return new YardError("BAD_PARAMS", `${error.message || "Wrong HTTP method"}: queries are GET, mutations are POST`);
    case "UNSUPPORTED_MEDIA_TYPE":
      return new YardError("BAD_PARAMS", `${error.message || "Unsupported content type"}: send application/json`);
    case "PAYLOAD_TOO_LARGE":
      return new YardError("PAYLOAD_TOO_LARGE", error.message);
    case "TIMEOUT":
      return new YardError("TIMEOUT", error.message);
    case "TOO_MANY_REQUESTS":
      return new YardError("RATE_LIMITED", error.message);
    case "CONFLICT":
      return new YardError("CONFLICT", error.message);
    case "UNAUTHORIZED":
      return new YardError("UNAUTHORIZED", error.message);
    case "FORBIDDEN":
      return new YardError("FORBIDDEN", error.message);
    case "NOT_FOUND":
      return new YardError("NOT_FOUND", error.message);
    default:
      return new YardError("INTERNAL", error.message || ERROR_CODES.INTERNAL.message);
  }
}
var t = initTRPC.context().create({
  errorFormatter({ shape, error }) {
    const y = toYardError(error);
    const yard = { code: y.code, message: y.message, details: y.details ?? null, retryable: y.retryable };
    return { ...shape, message: y.message, data: { ...shape.data, stack: void 0, yard } };
  }
});
var mapErrors = t.middleware(async ({ next }) => {
  const result = await next();
  if (!result.ok) {
    const y = result.error.cause instanceof YardError ? result.error.cause : result.error.cause instanceof ZodError ? zodToYardError(result.error.cause) : null;
    if (y) throw new TRPCError({ code: TRPC_CODE[y.code], message: y.message, cause: y });
  }
  return result;
});
var boundedInput = t.middleware(async ({ getRawInput, next }) => {
  const problem = inputShapeError(await getRawInput());
  if (problem) throw new YardError("BAD_PARAMS", `Input refused: ${problem}`);
  return next();
});
var router = t.router;
var callerProcedure = t.procedure.use(mapErrors).use(boundedInput);
var orchestratorProcedure = callerProcedure.use(({ ctx, next }) => {
  if (ctx.pane?.taskId) throw new YardError("FORBIDDEN", "A task's worker pane may only report for its own task and post its own hooks");
  return next();
});
var adminProcedure = callerProcedure.use(({ ctx, next }) => {
  if (ctx.principal.kind !== "admin") throw new YardError("FORBIDDEN", "A pane token cannot do this; it is limited to its own pane and task");
  return next();
});

// server/api/panes.ts
function ownPaneOnly(ctx, id2) {
  if (ctx.pane?.taskId && ctx.pane.id !== id2) throw new YardError("FORBIDDEN", "A worker pane may only act on its own pane", { paneId: id2 });
}
var panesRouter = router({
  spawn: orchestratorProcedure.input(spawnInput).output(paneInfo).mutation(async ({ ctx, input }) => {
    const parentPaneId = input.parentPaneId ?? ctx.pane?.id;
    return ctx.services.panes.spawn({ ...input, parentPaneId, relationship: input.relationship ?? (parentPaneId && !input.parentPaneId ? "subagent" : input.relationship) });
  }),
  list: orchestratorProcedure.input(z8.object({ taskId: z8.string().max(64).optional(), live: z8.boolean().optional() }).optional()).output(paneList).query(({ ctx, input }) => ctx.services.panes.list({ taskId: input?.taskId, liveOnly: input?.live })),
  get: callerProcedure.input(z8.object({ id: paneId })).output(paneInfo).query(({ ctx, input }) => {
    ownPaneOnly(ctx, input.id);
    return ctx.services.panes.get(input.id);
  }),
  read: callerProcedure.input(readInput).output(readReply).query(({ ctx, input }) => {
    ownPaneOnly(ctx, input.id);
    return ctx.services.panes.read(input.id, input);
  }),
  submit: orchestratorProcedure.input(submitInput).output(submitReply).mutation(({ ctx, input }) => ctx.services.panes.submit(input.id, input.text, input)),
  sendKeys: orchestratorProcedure.input(sendKeysInput).output(sendKeysReply).mutation(({ ctx, input }) => {
    if (!input.text && !input.enter) throw new YardError("BAD_PARAMS", "Nothing to send: give text and/or --enter");
    return ctx.services.panes.sendKeys(input.id, input.text, { enter: input.enter });
  }),
  resize: orchestratorProcedure.input(resizeInput).output(paneInfo).mutation(({ ctx, input }) => ctx.services.panes.resize(input.id, input.cols, input.rows)),
  kill: orchestratorProcedure.input(z8.object({ id: paneId })).output(paneInfo).mutation(({ ctx, input }) => ctx.services.panes.kill(input.id)),
  markSeen: orchestratorProcedure.input(z8.object({ id: paneId })).output(paneInfo).mutation(({ ctx, input }) => ctx.services.panes.markSeen(input.id)),
  attention: orchestratorProcedure.input(z8.object({ limit: z8.number().int().min(1).max(1e3).optional() }).optional()).output(attentionReply).query(async ({ ctx, input }) => ({ items: await ctx.services.attention(input?.limit) }))
});
var hooksRouter = router({
  /** `yard hook <Event>`: a pane posts its own hooks (the user may post for any pane). */
  post: callerProcedure.input(hookPostInput).output(hookPostReply).mutation(({ ctx, input }) => {
    if (ctx.principal.kind === "pane" && ctx.pane?.id !== input.paneId) throw new YardError("FORBIDDEN", "A pane may only post its own hooks", { paneId: input.paneId });
    return ctx.services.panes.hook(input.paneId, { event: input.event, payload: input.payload });
  })
});
var eventsRouter = router({
  list: orchestratorProcedure.input(eventsListInput).output(eventsReply).query(async ({ ctx, input }) => ({ events: await ctx.services.journal.list(input ?? {}), head: await ctx.services.journal.head() }))
});

// server/contracts/reviews.ts
import { z as z9 } from "zod";
var commentId = z9.string().regex(/^cmt[a-z0-9]{4,40}$/, "not a comment id");
var reviewId = z9.string().regex(/^rev[a-z0-9]{4,40}$/, "not a review id");
var diffSide = z9.enum(["old", "new"]);
var repoRelativePath = z9.string().min(1).max(LIMITS.path).refine((p) => !p.includes("\0") && !p.startsWith("/") && !p.split("/").includes(".."), "a path inside the repository, relative to its root");
var commentBody = z9.string().trim().min(1, "a comment needs text").max(LIMITS.summary);
var reviewComment = z9.object({
  id: commentId,
  taskId,
  /** The round whose diff the comment is anchored to. */
  round: z9.number().int().min(1),
  /** The review it was submitted with; null while it is a draft of the current round. */
  reviewId: reviewId.nullable(),
  path: z9.string(),
  startLine: z9.number().int().min(1),
  endLine: z9.number().int().min(1),
  side: diffSide,
  body: z9.string(),
  /** The lines of code the comment is about, as the diff showed them when it was written. */
  quote: z9.string(),
  resolved: z9.boolean(),
  author: z9.string(),
  createdAt: z9.string(),
  updatedAt: z9.string()
});
var reviewVerdict = z9.enum(["approved", "changes_requested"]);
var review = z9.object({
  id: reviewId,
  taskId,
  round: z9.number().int().min(1),
  stage: z9.enum(["human", "agent"]),
  reviewer: z9.string(),
  verdict: reviewVerdict,
  summary: z9.string().nullable(),
  createdAt: z9.string(),
  comments: z9.array(reviewComment)
});
var addCommentInput = z9.object({
  taskId,
  path: repoRelativePath,
  startLine: z9.number().int().min(1).max(1e7),
  /** Defaults to startLine (a one-line comment). */
  endLine: z9.number().int().min(1).max(1e7).optional(),
  side: diffSide.default("new"),
  body: commentBody
}).refine((c) => c.endLine === void 0 || c.endLine >= c.startLine, { message: "endLine must not be before startLine", path: ["endLine"] });
var editCommentInput = z9.object({ id: commentId, body: commentBody });
var resolveCommentInput = z9.object({ id: commentId, resolved: z9.boolean().default(true) });
var deleteCommentInput = z9.object({ id: commentId });
var listCommentsInput = z9.object({ taskId, round: z9.number().int().min(1).optional() });
var submitReviewInput = z9.object({
  taskId,
  verdict: z9.enum(["approve", "request_changes"]),
  summary: z9.string().trim().max(LIMITS.summary).optional()
});
var listReviewsInput = z9.object({ taskId, round: z9.number().int().min(1).optional() });
var reviewStatus = z9.enum(["none", "approved", "changes_requested"]);
var commentOutput = z9.object({ comment: reviewComment });
var commentsOutput = z9.object({ comments: z9.array(reviewComment) });
var reviewsOutput = z9.object({ reviews: z9.array(review), round: z9.number().int().min(1), status: reviewStatus });
var reviewedTask = z9.object({
  id: taskId,
  state: z9.string(),
  round: z9.number().int().min(1),
  paneId: z9.string().nullable(),
  reviewStatus
});
var submitReviewOutput = z9.object({ review, task: reviewedTask });
var taskRound = z9.object({
  number: z9.number().int().min(1),
  state: z9.string(),
  paneId: z9.string().nullable(),
  /** The prompt that started the round (the contract for round 1, the review feedback after). */
  prompt: z9.string().nullable(),
  result: z9.object({
    status: z9.string(),
    summary: z9.string(),
    artifacts: z9.array(z9.string()),
    changedFiles: z9.array(z9.string()),
    evidence: z9.record(z9.string(), z9.unknown()).nullable()
  }).nullable(),
  evidence: z9.record(z9.string(), z9.unknown()).nullable(),
  startedAt: z9.string(),
  endedAt: z9.string().nullable(),
  reviews: z9.array(review)
});
var roundsOutput = z9.object({ rounds: z9.array(taskRound) });

// server/api/reviews.ts
var actorOf = (ctx) => ctx.pane ? { kind: "pane", paneId: ctx.pane.id } : { kind: "user" };
var reviewsRouter = router({
  addComment: orchestratorProcedure.input(addCommentInput).output(commentOutput).mutation(async ({ ctx, input }) => ({ comment: await ctx.services.reviews.addComment(input, actorOf(ctx)) })),
  editComment: orchestratorProcedure.input(editCommentInput).output(commentOutput).mutation(async ({ ctx, input }) => ({ comment: await ctx.services.reviews.editComment(input, actorOf(ctx)) })),
  resolveComment: orchestratorProcedure.input(resolveCommentInput).output(commentOutput).mutation(async ({ ctx, input }) => ({ comment: await ctx.services.reviews.resolveComment(input, actorOf(ctx)) })),
  deleteComment: orchestratorProcedure.input(deleteCommentInput).output(commentOutput).mutation(async ({ ctx, input }) => ({ comment: await ctx.services.reviews.deleteComment(input, actorOf(ctx)) })),
  listComments: orchestratorProcedure.input(listCommentsInput).output(commentsOutput).query(async ({ ctx, input }) => ({ comments: await ctx.services.reviews.listComments(input) })),
  submit: orchestratorProcedure.input(submitReviewInput).output(submitReviewOutput).mutation(({ ctx, input }) => ctx.services.reviews.submitReview(input, actorOf(ctx))),
  list: orchestratorProcedure.input(listReviewsInput).output(reviewsOutput).query(({ ctx, input }) => ctx.services.reviews.listReviews(input))
});

// server/api/tasks.ts
import { z as z13 } from "zod";

// server/contracts/tasks.ts
import { z as z10 } from "zod";
var diffFile = z10.object({
  path: z10.string(),
  status: z10.enum(["added", "modified", "deleted", "renamed"]),
  oldPath: z10.string().optional(),
  additions: z10.number().int(),
  deletions: z10.number().int(),
  binary: z10.boolean()
});
var taskDiffInput = z10.object({
  id: taskId,
  /** "last_review": only what changed since the task's last review was submitted. */
  since: z10.enum(["last_review"]).optional()
});
var taskDiffOutput = z10.object({
  diff: z10.string(),
  files: z10.array(diffFile),
  baseSha: z10.string(),
  /** worktree: read from the live worktree; branch: the worktree is gone, read from the branch (or merge). */
  source: z10.enum(["worktree", "branch"]),
  /** Set when the diff starts at a review's snapshot instead of the base commit. */
  since: z10.object({
    reviewId: z10.string(),
    round: z10.number().int().min(1),
    verdict: reviewVerdict,
    /** The worktree's tree when that review was submitted. */
    tree: z10.string(),
    createdAt: z10.string()
  }).nullable()
});
var startBacklogInput = z10.object({ id: taskId });
var followUpInput = z10.object({
  id: taskId,
  text: z10.string().trim().min(1, "a follow-up needs text").max(LIMITS.prompt),
  /** How long the agent may take to start working on it before SUBMIT_STALLED (default 5000 ms). */
  stallMs: z10.number().int().min(100).max(6e5).optional()
});
var projectRefsInput = z10.object({
  id,
  /** Filters both lists: part of a branch name, a commit sha prefix or part of a commit subject. */
  query: z10.string().trim().max(200).optional(),
  limit: z10.number().int().min(1).max(500).optional()
});
var projectRefsOutput = z10.object({
  branches: z10.array(z10.object({ name: z10.string(), sha: z10.string(), current: z10.boolean() })),
  commits: z10.array(z10.object({ sha: z10.string(), subject: z10.string() }))
});
var boardCard = z10.object({
  id: taskId,
  title: z10.string(),
  label: z10.string().nullable(),
  state: z10.string(),
  disposition: z10.string().nullable(),
  agent: z10.string(),
  round: z10.number().int().min(1),
  branch: z10.string().nullable(),
  contextId: z10.string().nullable(),
  /** How many files the latest result lists as changed; null when no result lists any. */
  changedFiles: z10.number().int().min(0).nullable(),
  /** The task waits on a person: its pane is blocked on a prompt, or it is input_required. */
  needsUser: z10.boolean(),
  reviewStatus,
  createdAt: z10.string(),
  updatedAt: z10.string()
});
var boardOutput = z10.object({
  backlog: z10.array(boardCard),
  in_progress: z10.array(boardCard),
  needs_you: z10.array(boardCard),
  review: z10.array(boardCard),
  done: z10.array(boardCard)
});

// server/core/tasks/service.ts
import { existsSync as existsSync4 } from "node:fs";
import { rm } from "node:fs/promises";
import path15 from "node:path";
import { z as z12 } from "zod";

// server/stores/reviews.ts
var COMMENT_ORDER = [{ round: "asc" }, { path: "asc" }, { startLine: "asc" }, { createdAt: "asc" }];
var ReviewStore = class {
  constructor(db) {
    this.db = db;
  }
  db;
  async createComment(c) {
    return toComment(await this.db.reviewComment.create({ data: { ...c, reviewId: null, resolved: false } }));
  }
  async comment(id2) {
    const row = await this.db.reviewComment.findUnique({ where: { id: id2 } });
    return row ? toComment(row) : null;
  }
  async updateComment(id2, data) {
    return toComment(await this.db.reviewComment.update({ where: { id: id2 }, data }));
  }
  async deleteComment(id2) {
    await this.db.reviewComment.delete({ where: { id: id2 } });
  }
  async comments(taskId3, round) {
    return (await this.db.reviewComment.findMany({ where: { taskId: taskId3, round }, orderBy: COMMENT_ORDER })).map(toComment);
  }
  /** A round's comments not yet submitted with a review. */
  async drafts(taskId3, round, opts = {}) {
    return (await this.db.reviewComment.findMany({ where: { taskId: taskId3, round, reviewId: null, ...opts.unresolvedOnly ? { resolved: false } : {} }, orderBy: COMMENT_ORDER })).map(toComment);
  }
  /** Writes the review and attaches the given draft comments to it, in one transaction. */
  async createReview(r, commentIds) {
    const { reviewer, ...rest } = r;
    await this.db.$transaction([
      this.db.review.create({ data: { ...rest, reviewerKind: reviewer } }),
      this.db.reviewComment.updateMany({ where: { id: { in: commentIds }, taskId: r.taskId, reviewId: null }, data: { reviewId: r.id } })
    ]);
    return await this.review(r.id);
  }
  /** Undoes createReview (the next round could not start): its comments become drafts again. */
  async deleteReview(id2) {
    await this.db.$transaction([this.db.reviewComment.updateMany({ where: { reviewId: id2 }, data: { reviewId: null } }), this.db.review.delete({ where: { id: id2 } })]);
  }
  async review(id2) {
    const row = await this.db.review.findUnique({ where: { id: id2 }, include: { comments: { orderBy: COMMENT_ORDER } } });
    return row ? toReview(row) : null;
  }
  /** Reviews oldest first, each with its comments. */
  async reviews(taskId3, round) {
    const rows = await this.db.review.findMany({ where: { taskId: taskId3, round }, orderBy: [{ createdAt: "asc" }, { id: "asc" }], include: { comments: { orderBy: COMMENT_ORDER } } });
    return rows.map(toReview);
  }
  /** The task's most recent review that recorded a snapshot, or null. */
  async lastReviewWithTree(taskId3) {
    const row = await this.db.review.findFirst({ where: { taskId: taskId3, reviewedTree: { not: null } }, orderBy: [{ createdAt: "desc" }, { id: "desc" }], include: { comments: { orderBy: COMMENT_ORDER } } });
    return row ? toReview(row) : null;
  }
  /** Where a round's review stands: the verdict of its latest review, or none. */
  async status(taskId3, round) {
    const row = await this.db.review.findFirst({ where: { taskId: taskId3, round }, orderBy: [{ createdAt: "desc" }, { id: "desc" }], select: { verdict: true } });
    return toStatus(row?.verdict ?? null);
  }
};
function toStatus(verdict) {
  return verdict === "approved" || verdict === "changes_requested" ? verdict : "none";
}
function toComment(r) {
  return {
    id: r.id,
    taskId: r.taskId,
    round: r.round,
    reviewId: r.reviewId,
    path: r.path,
    startLine: r.startLine,
    endLine: r.endLine,
    side: r.side === "old" ? "old" : "new",
    body: r.body,
    quote: r.quote,
    resolved: r.resolved,
    author: r.author,
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString()
  };
}
function toReview(r) {
  return {
    id: r.id,
    taskId: r.taskId,
    round: r.round,
    stage: r.stage === "agent" ? "agent" : "human",
    reviewer: r.reviewerKind,
    verdict: r.verdict === "approved" ? "approved" : "changes_requested",
    summary: r.summary,
    createdAt: r.createdAt.toISOString(),
    comments: r.comments.map(toComment),
    reviewedTree: r.reviewedTree
  };
}

// server/core/tasks/columns.ts
var COLUMNS = ["backlog", "in_progress", "needs_you", "review", "done"];
function columnFor(t2) {
  if (t2.disposition === "merged" || t2.disposition === "discarded") return "done";
  switch (t2.state) {
    case "backlog":
      return "backlog";
    case "pending":
    case "working":
      return t2.paneBlocked ? "needs_you" : "in_progress";
    case "input_required":
    case "failed":
      return "needs_you";
    case "completed":
      return "review";
    case "canceled":
    case "rejected":
      return "done";
    default:
      return "needs_you";
  }
}

// server/core/tasks/board.ts
async function loadBoard(store, projectId) {
  const [tasks, blocked] = await Promise.all([store.boardRows(projectId), store.blockedPaneIds()]);
  const board = Object.fromEntries(COLUMNS.map((c) => [c, []]));
  for (const t2 of tasks) {
    const paneBlocked = t2.paneId !== null && blocked.has(t2.paneId);
    board[columnFor({ state: t2.state, disposition: t2.disposition, paneBlocked })].push({
      id: t2.id,
      title: t2.title,
      label: t2.label,
      state: t2.state,
      disposition: t2.disposition,
      agent: t2.agent,
      round: t2.round,
      branch: t2.branch,
      contextId: t2.contextId,
      changedFiles: t2.changedFiles ? t2.changedFiles : null,
      needsUser: !t2.disposition && (paneBlocked || t2.state === "input_required"),
      reviewStatus: toStatus(t2.verdict),
      createdAt: t2.createdAt.toISOString(),
      updatedAt: t2.updatedAt.toISOString()
    });
  }
  return board;
}

// server/core/tasks/contract.ts
import { z as z11 } from "zod";
var line = z11.string().trim().min(1).max(4e3);
var contractInput = z11.object({
  objective: z11.string().trim().min(1, "the contract needs an objective").max(64 * 1024),
  constraints: z11.array(line).max(100).default([]),
  acceptanceCriteria: z11.array(line).max(100).default([]),
  outputFormat: z11.string().trim().min(1).max(8e3).optional()
});
function renderPrompt(c, task) {
  const parts = [`Task ${task.id}: ${task.title}`, "", "Objective:", c.objective];
  if (c.constraints.length) parts.push("", "Constraints:", ...c.constraints.map((x) => `- ${x}`));
  if (c.acceptanceCriteria.length) parts.push("", "Acceptance criteria:", ...c.acceptanceCriteria.map((x) => `- ${x}`));
  if (c.outputFormat) parts.push("", "Expected output format:", c.outputFormat);
  parts.push(
    "",
    "When you are done, commit your work on this branch and run:",
    '  yard task report --status completed --summary "<what you did>" [--changed-file PATH]...',
    "Use --status failed if you could not do it, or --status rejected if you will not."
  );
  return parts.join("\n");
}

// server/stores/tasks.ts
var TaskStore = class {
  constructor(db) {
    this.db = db;
  }
  db;
  row(id2) {
    return this.db.task.findUnique({ where: { id: id2 } });
  }
  activeCount(states) {
    return this.db.task.count({ where: { state: { in: [...states] } } });
  }
  /** A task that starts now: pending, with round 1 and its prompt. */
  async createStarted(t2, l) {
    const { prompt, ...where } = l;
    await this.db.task.create({ data: { ...t2, ...where, state: "pending", round: 1, rounds: { create: { id: newId("rnd"), number: 1, state: "pending", paneId: l.paneId, prompt } } } });
  }
  /** A task that waits in the backlog: its contract, project and agent, no worktree, branch or pane yet. */
  async createBacklog(t2, startOptions) {
    await this.db.task.create({ data: { ...t2, state: "backlog", round: 1, startOptions: JSON.stringify(startOptions), rounds: { create: { id: newId("rnd"), number: 1, state: "backlog" } } } });
  }
  /** A backlog task got its worktree and pane (its state moves through the reducer next). */
  async recordLaunch(taskId3, l) {
    const { prompt, ...where } = l;
    await this.db.$transaction([
      this.db.task.update({ where: { id: taskId3 }, data: { ...where, startOptions: null } }),
      this.db.taskRound.update({ where: { taskId_number: { taskId: taskId3, number: 1 } }, data: { paneId: l.paneId, prompt, startedAt: /* @__PURE__ */ new Date() } })
    ]);
  }
  /**
   * Round `next` starts in `state`: the task moves to it and a new round row is written. The old
   * round keeps its state, result and evidence; only an open end time is closed.
   */
  async startRound(taskId3, r) {
    await this.db.$transaction([
      this.db.task.update({ where: { id: taskId3 }, data: { state: r.state, round: r.next, paneId: r.paneId, evidence: null } }),
      this.db.taskRound.updateMany({ where: { taskId: taskId3, number: r.previous, endedAt: null }, data: { endedAt: r.at } }),
      this.db.taskRound.create({ data: { id: newId("rnd"), taskId: taskId3, number: r.next, state: r.state, prompt: r.prompt, paneId: r.paneId, startedAt: r.at } })
    ]);
  }
  rounds(taskId3) {
    return this.db.taskRound.findMany({ where: { taskId: taskId3 }, orderBy: { number: "asc" } });
  }
  /** For each task, its current round's result (JSON text) and latest review verdict: two reads for any number of tasks (Prisma splits very long id lists). */
  async currentRounds(tasks) {
    const out = /* @__PURE__ */ new Map();
    if (tasks.length === 0) return out;
    const round = new Map(tasks.map((t2) => [t2.id, t2.round]));
    const ids = [...round.keys()];
    const [rounds, reviews] = await Promise.all([
      this.db.taskRound.findMany({ where: { taskId: { in: ids } }, select: { taskId: true, number: true, result: true } }),
      // No orderBy: Prisma splits a long `in` list over several statements only for unordered reads.
      this.db.review.findMany({ where: { taskId: { in: ids } }, select: { id: true, taskId: true, round: true, verdict: true, createdAt: true } })
    ]);
    for (const id2 of ids) out.set(id2, { result: null, verdict: null });
    for (const r of rounds) if (round.get(r.taskId) === r.number) out.get(r.taskId).result = r.result;
    reviews.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    for (const v of reviews) if (round.get(v.taskId) === v.round) out.get(v.taskId).verdict = v.verdict;
    return out;
  }
  /** Every task of a project with its card's derived columns, newest first: one query. */
  async boardRows(projectId) {
    const rows = await this.db.$queryRaw`
      SELECT t.id, t.title, t.label, t.state, t.disposition, t.agent, t.round, t.branch, t.contextId, t.paneId, t.createdAt, t.updatedAt,
        (SELECT json_array_length(r.result, '$.changedFiles') FROM TaskRound r
          WHERE r.taskId = t.id AND r.result IS NOT NULL ORDER BY r.number DESC LIMIT 1) AS changedFiles,
        (SELECT v.verdict FROM Review v
          WHERE v.taskId = t.id AND v.round = t.round ORDER BY v.createdAt DESC, v.id DESC LIMIT 1) AS verdict
      FROM Task t
      WHERE t.projectId = ${projectId}
      ORDER BY t.updatedAt DESC`;
    return rows.map((r) => ({ ...r, round: Number(r.round), changedFiles: r.changedFiles === null ? null : Number(r.changedFiles), createdAt: asDate(r.createdAt), updatedAt: asDate(r.updatedAt) }));
  }
  /** Ids of the panes that are blocked on a prompt right now (few at any time): one query. */
  async blockedPaneIds() {
    return new Set((await this.db.pane.findMany({ where: { lifecycle: "blocked" }, select: { id: true } })).map((p) => p.id));
  }
};
function asDate(v) {
  if (v instanceof Date) return v;
  if (typeof v === "number" || typeof v === "bigint") return new Date(Number(v));
  return new Date(String(v));
}

// server/core/tasks/service.ts
var DEFAULT_MAX_ACTIVE = 4;
var DEFAULT_READY_TIMEOUT_MS = 3e4;
var idString = z12.string().trim().min(1).max(64).regex(/^[A-Za-z0-9_-]+$/);
var startInput = contractInput.extend({
  title: z12.string().trim().min(1).max(200).optional(),
  label: z12.string().trim().min(1).max(80).optional(),
  contextId: contextId.optional(),
  projectId: idString.optional(),
  repoPath: absolutePath.optional(),
  agent: z12.string().regex(/^[a-z0-9][a-z0-9-]{0,39}$/).optional(),
  argv: argvSchema.optional(),
  baseRef: text(LIMITS.ref).pipe(z12.string().min(1)).optional(),
  fetch: z12.boolean().optional(),
  branch: text(LIMITS.ref).pipe(z12.string().min(1)).optional(),
  path: absolutePath.optional(),
  parentPaneId: z12.string().regex(/^pane[a-z0-9]+$/).optional(),
  parentTaskId: idString.optional(),
  readyTimeoutMs: z12.number().int().min(100).max(6e5).optional(),
  stallMs: z12.number().int().min(100).max(6e5).optional(),
  /** Record the task in the backlog instead of starting it (tasks.startBacklog starts it later). */
  backlog: z12.boolean().optional(),
  /** Run the agent in the OS sandbox; overrides the agent profile's setting. */
  sandbox: z12.boolean().optional()
});
var reportInput = z12.object({
  taskId: idString.optional(),
  status: z12.enum(["completed", "failed", "rejected"]),
  summary: z12.string().trim().min(1, "a report needs a summary").max(LIMITS.summary),
  artifacts: z12.array(z12.string().min(1).max(LIMITS.path)).max(1e3).default([]),
  changedFiles: z12.array(z12.string().min(1).max(LIMITS.path)).max(1e4).default([]),
  evidence: evidence.optional()
});
var WAIT_SETS = {
  settled: [...TERMINAL_STATES, "input_required"],
  terminal: [...TERMINAL_STATES],
  working: ["working"]
};
function contractOf(r) {
  return { objective: r.objective, constraints: json(r.constraints, []), acceptanceCriteria: json(r.acceptanceCriteria, []), outputFormat: r.outputFormat ?? void 0 };
}
var json = (s, fallback) => {
  if (!s) return fallback;
  try {
    return JSON.parse(s);
  } catch {
    return fallback;
  }
};
function slug(s) {
  return s.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "").slice(0, 40) || "task";
}
var TaskEngine = class {
  constructor(deps) {
    this.deps = deps;
    this.store = deps.store ?? new TaskStore(deps.db);
  }
  deps;
  runners = /* @__PURE__ */ new Map();
  /** Starts past the cap check whose task is not recorded as pending yet (they count against the cap). */
  launching = /* @__PURE__ */ new Set();
  /** Tasks a merge or discard is finishing right now. */
  finishing = /* @__PURE__ */ new Set();
  store;
  stateCache = /* @__PURE__ */ new Map();
  startLock = Promise.resolve();
  /** During shutdown panes are killed on purpose: their tasks are judged at the next start. */
  closing = false;
  /** Serializes state changes per task so concurrent events apply in order. */
  chains = /* @__PURE__ */ new Map();
  get maxActive() {
    return this.deps.maxActive ?? DEFAULT_MAX_ACTIVE;
  }
  /** Pane manager's view of a task's state (pending tasks refuse prompts). */
  cachedState(taskId3) {
    return this.stateCache.get(taskId3) ?? null;
  }
  // ---- start ---------------------------------------------------------------------------
  /**
   * Starts a task now, or with `backlog: true` records it in the backlog (validated exactly like
   * a start; no worktree, branch or pane until startBacklog).
   */
  async start(raw2, caller = {}) {
    const input = startInput.parse(raw2);
    if (input.agent && input.argv) throw new YardError("BAD_PARAMS", "Give either an agent profile or a command (argv), not both");
    if (!input.projectId && !input.repoPath) throw new YardError("BAD_PARAMS", "Give a project (--project ID) or a repository (--repo PATH)");
    if (input.projectId && input.repoPath) throw new YardError("BAD_PARAMS", "Give either --project or --repo, not both");
    const project2 = input.projectId ? await this.deps.projects.get(input.projectId) : null;
    const repo = await inspectRepo(project2?.path ?? input.repoPath);
    if (!repo.hasHead) throw new YardError("BAD_PARAMS", `${repo.root} has no commits yet; commit something first`, { repo: repo.root });
    const agentId = input.argv ? null : input.agent ?? "demo";
    await this.deps.panes.resolveLaunch({ agent: agentId ?? void 0, argv: input.argv });
    const sandbox = await this.sandboxFor(input.sandbox, agentId ? await this.deps.agents.get(agentId) : null);
    const parentPaneId = input.parentPaneId ?? caller.paneId ?? null;
    if (parentPaneId && !await this.deps.db.pane.findUnique({ where: { id: parentPaneId }, select: { id: true } })) {
      throw new YardError("NOT_FOUND", `No parent pane ${parentPaneId}`, { parentPaneId });
    }
    const parentTask = input.parentTaskId ? await this.row(input.parentTaskId) : null;
    const id2 = newId("tsk");
    const title = input.title ?? input.objective.split("\n")[0].slice(0, 80);
    const branch = await validateBranchName(input.branch ?? `yard/${slug(title)}-${id2.slice(3, 9)}`);
    const fields = {
      id: id2,
      title,
      label: input.label ?? null,
      contextId: input.contextId ?? null,
      projectId: project2?.id ?? null,
      repoPath: repo.root,
      agent: agentId ?? "custom",
      argv: input.argv ? JSON.stringify(input.argv) : null,
      objective: input.objective,
      constraints: JSON.stringify(input.constraints),
      acceptanceCriteria: JSON.stringify(input.acceptanceCriteria),
      outputFormat: input.outputFormat ?? null,
      parentTaskId: parentTask?.id ?? null,
      rootTaskId: parentTask ? parentTask.rootTaskId ?? parentTask.id : id2,
      parentPaneId,
      baseRef: input.baseRef ?? null,
      sandboxed: sandbox !== null
    };
    const plan = {
      id: id2,
      title,
      repoRoot: repo.root,
      agentId,
      argv: input.argv ?? null,
      contract: { objective: input.objective, constraints: input.constraints, acceptanceCriteria: input.acceptanceCriteria, outputFormat: input.outputFormat },
      parentPaneId,
      sandbox,
      options: { branch, baseRef: input.baseRef ?? null, fetch: input.fetch ?? false, path: input.path ?? null, readyTimeoutMs: input.readyTimeoutMs ?? null, stallMs: input.stallMs ?? null }
    };
    if (!input.backlog) return this.launch(plan, { create: fields });
    if (input.baseRef && !input.fetch) await resolveBaseSha(repo.root, input.baseRef);
    await this.store.createBacklog(fields, { ...plan.options });
    this.stateCache.set(id2, "backlog");
    await this.deps.journal.append("task.created", { taskId: id2, payload: { title, contextId: input.contextId ?? null, backlog: true } });
    return { task: await this.get(id2), pane: null };
  }
  /** Starts a backlog task: the cap, then worktree, branch, pane and the contract, as any start. */
  async startBacklog(taskId3) {
    const row = await this.row(taskId3);
    transition(row.state, { type: "start" });
    const options = json(row.startOptions, null);
    if (!options) throw new YardError("CONFLICT", "The backlog task has no launch options recorded", { taskId: taskId3 });
    const repo = await inspectRepo(row.repoPath);
    const argv = json(row.argv, null);
    const agentId = argv ? null : row.agent;
    await this.deps.panes.resolveLaunch({ agent: agentId ?? void 0, argv: argv ?? void 0 });
    const sandbox = row.sandboxed ? await this.sandboxFor(true, agentId ? await this.deps.agents.get(agentId) : null) : null;
    const plan = { id: row.id, title: row.title, repoRoot: repo.root, agentId, argv, contract: contractOf(row), parentPaneId: row.parentPaneId, options, sandbox };
    const { task, pane } = await this.launch(plan, { fromBacklog: true });
    return { task, pane };
  }
  /**
   * The one start path (new tasks and backlog tasks): under the start lock the cap is checked
   * (counting starts still in flight), the base resolved and the worktree created; then the agent
   * is spawned in it, the task recorded as pending, and the contract submitted in the background.
   * A refusal at any step leaves nothing behind: no worktree, no branch it created, and either no
   * task (a new one) or the backlog task exactly as it was.
   */
  async launch(plan, mode) {
    const { id: id2, options } = plan;
    let currentBranch = null;
    let wt;
    const run2 = async () => {
      const active = await this.store.activeCount(ACTIVE_STATES) + this.launching.size;
      if (active >= this.maxActive) {
        throw new YardError("RATE_LIMITED", `${active} tasks are already running (the cap is ${this.maxActive}); finish, cancel or wait for one first`, { active, cap: this.maxActive });
      }
      const baseSha = await resolveBaseSha(plan.repoRoot, options.baseRef, { fetch: options.fetch });
      currentBranch = (await inspectRepo(plan.repoRoot)).currentBranch;
      wt = await createWorktree({ repoRoot: plan.repoRoot, branch: options.branch, baseSha, path: options.path ?? void 0, yardHome: this.deps.home });
      this.launching.add(id2);
    };
    const p = this.startLock.then(run2, run2);
    this.startLock = p.catch(() => {
    });
    await p;
    const prompt = renderPrompt(plan.contract, { id: id2, title: plan.title });
    const previous = this.stateCache.get(id2);
    let pane = null;
    try {
      this.stateCache.set(id2, "pending");
      pane = await this.spawnWorker(plan, wt.worktreePath);
      const launch = { baseSha: wt.baseSha, targetBranch: currentBranch, branch: wt.branch, branchPreexisting: wt.branchPreexisting, worktreePath: wt.worktreePath, paneId: pane.id, prompt };
      if ("create" in mode) await this.store.createStarted(mode.create, launch);
      else await this.store.recordLaunch(id2, launch);
    } catch (e) {
      if (previous) this.stateCache.set(id2, previous);
      else this.stateCache.delete(id2);
      this.launching.delete(id2);
      if (pane) await this.deps.panes.kill(pane.id).catch(() => {
      });
      await discardWorktree({ repoRoot: plan.repoRoot, worktreePath: wt.worktreePath, branch: wt.branch, branchPreexisting: wt.branchPreexisting, deleteBranch: true }).catch(() => {
      });
      await this.tidyWorktreeDir({ repoPath: plan.repoRoot, worktreePath: wt.worktreePath });
      throw e;
    }
    try {
      if ("create" in mode) {
        await this.deps.journal.append("task.created", { taskId: id2, paneId: pane.id, payload: { title: plan.title, contextId: mode.create.contextId, branch: wt.branch, baseSha: wt.baseSha, sandboxed: plan.sandbox !== null } });
      } else {
        await this.deps.journal.append("task.started", { taskId: id2, paneId: pane.id, payload: { branch: wt.branch, baseSha: wt.baseSha, fromBacklog: true } });
        await this.apply(id2, { type: "start" });
      }
    } finally {
      this.launching.delete(id2);
    }
    this.runInBackground(id2, pane.id, prompt, { readyTimeoutMs: options.readyTimeoutMs ?? void 0, stallMs: options.stallMs ?? void 0, round: 1 });
    return { task: await this.get(id2), pane };
  }
  /** The task's agent in a new pane in its worktree (same profile or command; YARD_TASK set; sandboxed when the task is). */
  async spawnWorker(w, cwd) {
    return this.deps.panes.spawn(
      { agent: w.agentId ?? void 0, argv: w.argv ?? void 0, cwd, label: w.title.slice(0, 120), parentPaneId: w.parentPaneId ?? void 0, relationship: w.parentPaneId ? "subagent" : void 0 },
      { taskId: w.id, sandbox: await this.sandboxLaunch(w.id, cwd, w.sandbox) }
    );
  }
  // ---- sandbox (hook point) -------------------------------------------------------------
  /**
   * Whether a start runs sandboxed (the start's flag wins over the profile's), checked before
   * anything is created: when the sandbox cannot start here, SANDBOX_UNAVAILABLE says why.
   */
  async sandboxFor(flag, profile) {
    if (!(flag ?? profile?.sandbox ?? false)) return null;
    if (!this.deps.sandbox) throw new YardError("SANDBOX_UNAVAILABLE", "This server was started without the OS sandbox", { reason: "not_configured" });
    await this.deps.sandbox.require();
    return { network: profile?.sandboxNetwork ?? false };
  }
  /** The launch the pane manager wraps the agent in (null: unsandboxed). */
  async sandboxLaunch(taskId3, worktreePath, sandbox) {
    if (!sandbox || !this.deps.sandbox) return null;
    return this.deps.sandbox.prepare({ taskId: taskId3, worktreePath, network: sandbox.network });
  }
  /**
   * After a worktree was removed: nothing of it stays on disk. Leftovers at its path and the
   * per-repository folder, once empty, go — only inside Switchyard's own worktree root, and
   * only when git no longer knows the path as a worktree.
   */
  async tidyWorktreeDir(t2) {
    if (!t2.worktreePath) return;
    const root2 = path15.join(this.deps.home, "worktrees");
    const rel = path15.relative(root2, t2.worktreePath);
    if (!rel || rel.startsWith("..") || path15.isAbsolute(rel)) return;
    if (await findWorktree(t2.repoPath, t2.worktreePath).catch(() => "unknown")) return;
    await rm(t2.worktreePath, { recursive: true, force: true }).catch(() => {
    });
    await rmdirUpTo(path15.dirname(t2.worktreePath), path15.join(root2, rel.split(path15.sep)[0]));
  }
  /**
   * Server-side, survives the caller leaving: wait until the agent is ready, then submit the
   * round's prompt (the contract, or review feedback) through the gate. What goes wrong lands in
   * the task's state through the reducer, with evidence.
   */
  runInBackground(taskId3, paneId2, prompt, opts) {
    this.runners.get(taskId3)?.abort();
    const ac = new AbortController();
    this.runners.set(taskId3, ac);
    const readyTimeoutMs = opts.readyTimeoutMs ?? this.deps.readyTimeoutMs ?? DEFAULT_READY_TIMEOUT_MS;
    const { stallMs, round } = opts;
    void (async () => {
      const ready = await this.waitForReady(paneId2, readyTimeoutMs, ac.signal);
      if (ac.signal.aborted) return;
      if (ready === "exited") {
        const info = await this.deps.panes.get(paneId2);
        await this.apply(taskId3, { type: "pane_exit", exitCode: info.exitCode, signal: info.signal, lastLifecycle: await this.lastLifecycleBeforeExit(paneId2) ?? "starting" });
        return;
      }
      if (ready !== true) {
        await this.apply(taskId3, { type: "ready_timeout", timeoutMs: readyTimeoutMs, lifecycle: ready, round });
        return;
      }
      try {
        await this.deps.panes.submitForTask(paneId2, prompt, { stallMs, signal: ac.signal });
        await this.apply(taskId3, { type: "submitted" });
      } catch (e) {
        if (ac.signal.aborted) return;
        const err = e instanceof YardError ? e : new YardError("INTERNAL", e.message);
        if (err.code === "SUBMIT_STALLED") await this.apply(taskId3, { type: "submit_unconfirmed", stallMs: Number(err.details?.stallMs ?? stallMs ?? 5e3) });
        else if (err.code !== "PANE_EXITED") await this.apply(taskId3, { type: "submit_refused", code: err.code, message: err.message, details: err.details ?? null, round });
      }
    })().catch(() => {
    }).finally(() => {
      if (this.runners.get(taskId3) === ac) this.runners.delete(taskId3);
    });
  }
  /** true when idle/done; "exited" when the pane died; otherwise the lifecycle at the timeout. */
  waitForReady(paneId2, timeoutMs, signal) {
    return new Promise((resolve) => {
      const check = () => {
        const s = this.deps.panes.state(paneId2);
        if (!s) return finish("exited");
        if (s.lifecycle === "exited") return finish("exited");
        if (s.lifecycle === "idle" || s.lifecycle === "done") return finish(true);
      };
      const unsubscribe = this.deps.journal.subscribe(() => check(), { paneId: paneId2, type: "pane.lifecycle" });
      const timer = setTimeout(() => finish(this.deps.panes.state(paneId2)?.lifecycle ?? "exited"), timeoutMs);
      const onAbort = () => finish("aborted");
      signal.addEventListener("abort", onAbort, { once: true });
      let done = false;
      function finish(v) {
        if (done) return;
        done = true;
        clearTimeout(timer);
        unsubscribe();
        signal.removeEventListener("abort", onAbort);
        resolve(v);
      }
      check();
    });
  }
  // ---- state changes -------------------------------------------------------------------
  /**
   * Applies one event through the reducer, persists it and journals it. Serialized per task.
   * A transition that starts a round (next_round) writes a new round row with `extra.round`'s
   * prompt and pane instead of touching the current one.
   */
  apply(taskId3, event, extra = {}) {
    const run2 = async () => {
      const row = await this.row(taskId3);
      const t2 = transition(row.state, event);
      if (!t2.changed) return { changed: false, state: t2.state };
      const now = /* @__PURE__ */ new Date();
      let round = row.round;
      let paneId2 = row.paneId;
      if (t2.startsRound) {
        if (!extra.round) throw new YardError("INTERNAL", "A new round needs its prompt and pane");
        round = row.round + 1;
        paneId2 = extra.round.paneId;
        await this.store.startRound(taskId3, { previous: row.round, next: round, state: t2.state, prompt: extra.round.prompt, paneId: paneId2, at: now });
      } else {
        await this.deps.db.$transaction([
          this.deps.db.task.update({ where: { id: taskId3 }, data: { state: t2.state, ...t2.evidence !== void 0 ? { evidence: t2.evidence ? JSON.stringify(t2.evidence) : null } : {} } }),
          this.deps.db.taskRound.update({
            where: { taskId_number: { taskId: taskId3, number: row.round } },
            data: {
              state: t2.state,
              ...extra.result ? { result: JSON.stringify(extra.result) } : {},
              ...t2.evidence !== void 0 ? { evidence: t2.evidence ? JSON.stringify(t2.evidence) : null } : {},
              ...t2.endsRound ? { endedAt: now } : {}
            }
          })
        ]);
      }
      this.stateCache.set(taskId3, t2.state);
      if (extra.result) await this.deps.journal.append("task.result", { taskId: taskId3, paneId: paneId2, payload: { round, ...extra.result } });
      await this.deps.journal.append("task.state", { taskId: taskId3, paneId: paneId2, payload: { from: row.state, to: t2.state, cause: event.type, round, evidence: t2.evidence ?? null } });
      return { changed: true, state: t2.state };
    };
    const prev = this.chains.get(taskId3) ?? Promise.resolve();
    const p = prev.then(run2, run2);
    this.chains.set(taskId3, p.catch(() => {
    }));
    return p;
  }
  /** The pane manager reports every lifecycle transition of a task's pane here. */
  onPaneTransition(info, to, from, lastMessage) {
    if (!info.taskId || this.closing) return;
    const taskId3 = info.taskId;
    void (async () => {
      const row = await this.deps.db.task.findUnique({ where: { id: taskId3 }, select: { paneId: true } });
      if (row?.paneId !== info.id) return;
      if (to === "done") await this.apply(taskId3, { type: "pane_done", lastMessage: lastMessage ?? null });
      else if (to === "working" || to === "blocked") await this.apply(taskId3, { type: "pane_working" });
      else if (to === "exited") {
        this.runners.get(taskId3)?.abort();
        await this.apply(taskId3, { type: "pane_exit", exitCode: info.exitCode, signal: info.signal, lastLifecycle: from });
      }
    })().catch(() => {
    });
  }
  // ---- report, cancel ------------------------------------------------------------------
  async report(raw2, caller) {
    const input = reportInput.parse(raw2);
    const taskId3 = input.taskId ?? caller.paneTaskId;
    if (!taskId3) throw new YardError("BAD_PARAMS", "Which task? Run this inside a task's pane (YARD_TASK) or pass --task ID");
    const row = await this.deps.db.task.findUnique({ where: { id: taskId3 } });
    if (!row) throw new YardError("NOT_FOUND", `No task ${taskId3}`, { taskId: taskId3 });
    if (!caller.admin && caller.paneTaskId !== taskId3) throw new YardError("FORBIDDEN", "A pane may only report for its own task", { taskId: taskId3 });
    const result = { status: input.status, summary: input.summary, artifacts: input.artifacts, changedFiles: input.changedFiles, evidence: input.evidence ?? null };
    await this.apply(taskId3, { type: "report", status: input.status }, { result });
    return this.get(taskId3);
  }
  async cancel(taskId3) {
    const row = await this.row(taskId3);
    if (isTerminal(row.state)) throw new YardError("CONFLICT", `The task is already ${row.state}`, { state: row.state });
    this.runners.get(taskId3)?.abort();
    await this.apply(taskId3, { type: "cancel" });
    if (row.paneId && this.deps.panes.isLive(row.paneId)) await this.deps.panes.kill(row.paneId);
    return this.get(taskId3);
  }
  // ---- review rounds and follow-ups ----------------------------------------------------
  /**
   * Starts round N+1 on the same worktree with `feedback` as its prompt (a review requested
   * changes). A live pane gets only the feedback: its agent holds the contract already, and
   * re-sending the objective would make it redo round 1. When the pane has exited, a fresh pane
   * with the same profile (or command) starts in the worktree and gets the contract followed by
   * the feedback. Either way the prompt goes through the submit gate in the background, as at
   * start, and the round's fate lands in the task's state through the reducer.
   */
  async startNextRound(taskId3, feedback) {
    const row = await this.row(taskId3);
    if (row.disposition) throw new YardError("CONFLICT", `The task is already ${row.disposition}; it takes no more rounds`, { disposition: row.disposition });
    transition(row.state, { type: "next_round" });
    if (!row.worktreePath || !existsSync4(row.worktreePath)) throw new YardError("CONFLICT", "The task's worktree is gone; another round cannot run", { taskId: taskId3, worktreePath: row.worktreePath });
    const live = row.paneId !== null && this.deps.panes.isLive(row.paneId) && this.deps.panes.state(row.paneId)?.lifecycle !== "exited";
    let paneId2 = row.paneId;
    let prompt = feedback;
    if (!live) {
      const argv = json(row.argv, null);
      const agentId = argv ? null : row.agent;
      const sandbox = row.sandboxed ? await this.sandboxFor(true, agentId ? await this.deps.agents.get(agentId) : null) : null;
      const pane = await this.spawnWorker({ id: row.id, title: row.title, agentId, argv, parentPaneId: row.parentPaneId, sandbox }, row.worktreePath);
      paneId2 = pane.id;
      prompt = `${renderPrompt(contractOf(row), { id: row.id, title: row.title })}

${feedback}`;
    }
    try {
      await this.apply(taskId3, { type: "next_round" }, { round: { prompt, paneId: paneId2 } });
    } catch (e) {
      if (!live) await this.deps.panes.kill(paneId2).catch(() => {
      });
      throw e;
    }
    await this.deps.journal.append("task.round", { taskId: taskId3, paneId: paneId2, payload: { round: row.round + 1, freshPane: !live } });
    this.runInBackground(taskId3, paneId2, prompt, { round: row.round + 1 });
    return this.get(taskId3);
  }
  /** A follow-up prompt for an input_required task, through the submit gate to its live pane. */
  async followUp(taskId3, text2, opts = {}) {
    const row = await this.row(taskId3);
    if (row.state !== "input_required") throw new YardError("CONFLICT", `Only a task waiting for input takes a follow-up; this one is ${row.state}`, { state: row.state });
    if (!row.paneId) throw new YardError("PANE_EXITED", "The task has no pane to take the follow-up", { taskId: taskId3 });
    const res = await this.deps.panes.submit(row.paneId, text2, { stallMs: opts.stallMs });
    await this.deps.journal.append("task.follow_up", { taskId: taskId3, paneId: row.paneId, payload: { round: row.round, bytes: Buffer.byteLength(text2), text: text2.slice(0, 4e3) } });
    return { task: await this.get(taskId3), submit: { activitySeq: res.activitySeq, bracketed: res.bracketed } };
  }
  /** Every round's record, oldest first. */
  async roundRecords(taskId3) {
    await this.row(taskId3);
    return (await this.store.rounds(taskId3)).map((r) => ({
      number: r.number,
      state: r.state,
      paneId: r.paneId,
      prompt: r.prompt,
      result: json(r.result, null),
      evidence: json(r.evidence, null),
      startedAt: r.startedAt.toISOString(),
      endedAt: r.endedAt?.toISOString() ?? null
    }));
  }
  /** The worktree's current state as a tree id (a review's snapshot); null when the worktree is gone. */
  async snapshot(taskId3) {
    const t2 = await this.row(taskId3);
    if (!t2.worktreePath || !existsSync4(path15.join(t2.worktreePath, ".git"))) return null;
    try {
      return await worktreeTree({ worktreePath: t2.worktreePath });
    } catch (e) {
      if (!existsSync4(path15.join(t2.worktreePath, ".git"))) return null;
      throw e;
    }
  }
  board(projectId) {
    return loadBoard(this.store, projectId);
  }
  // ---- reads ---------------------------------------------------------------------------
  /** Tasks not yet settled for good (pending, working, input_required), optionally of one profile. */
  activeCount(filter = {}) {
    return this.deps.db.task.count({ where: { agent: filter.agent, state: { in: [...ACTIVE_STATES] } } });
  }
  async row(id2) {
    const row = await this.deps.db.task.findUnique({ where: { id: id2 } });
    if (!row) throw new YardError("NOT_FOUND", `No task ${id2}`, { taskId: id2 });
    return row;
  }
  async get(id2) {
    return (await this.views([await this.row(id2)]))[0];
  }
  async list(filter = {}) {
    const rows = await this.deps.db.task.findMany({
      where: { contextId: filter.contextId, projectId: filter.projectId, state: filter.states?.length ? { in: filter.states } : void 0 },
      orderBy: { createdAt: "asc" }
    });
    return this.views(rows);
  }
  /** Rows to views; each task's current round (result, review verdict) comes from one batched read, not one query per task. */
  async views(rows) {
    const current = await this.store.currentRounds(rows);
    return rows.map((r) => this.view(r, current.get(r.id) ?? { result: null, verdict: null }));
  }
  view(r, current) {
    return {
      id: r.id,
      title: r.title,
      state: r.state,
      round: r.round,
      label: r.label,
      contextId: r.contextId,
      projectId: r.projectId,
      repoPath: r.repoPath,
      agent: r.agent,
      contract: { objective: r.objective, constraints: json(r.constraints, []), acceptanceCriteria: json(r.acceptanceCriteria, []), outputFormat: r.outputFormat },
      baseRef: r.baseRef,
      baseSha: r.baseSha,
      targetBranch: r.targetBranch,
      branch: r.branch,
      branchPreexisting: r.branchPreexisting,
      worktreePath: r.worktreePath,
      paneId: r.paneId,
      parentPaneId: r.parentPaneId,
      parentTaskId: r.parentTaskId,
      rootTaskId: r.rootTaskId,
      result: json(current.result, null),
      evidence: json(r.evidence, null),
      reviewStatus: toStatus(current.verdict),
      sandboxed: r.sandboxed,
      disposition: r.disposition ?? null,
      mergeCommit: r.mergeCommit,
      cleanupError: r.cleanupError,
      finishedAt: r.finishedAt?.toISOString() ?? null,
      createdAt: r.createdAt.toISOString(),
      updatedAt: r.updatedAt.toISOString()
    };
  }
  async events(taskId3, since) {
    await this.row(taskId3);
    return this.deps.journal.list({ taskId: taskId3, since });
  }
  // ---- wait ----------------------------------------------------------------------------
  async wait(opts) {
    if (!opts.taskId === !opts.contextId) throw new YardError("BAD_PARAMS", "Wait for one task (ID) or a context (--context), not both or neither");
    const until = resolveUntil(opts.until);
    const timeoutMs = opts.timeoutMs ?? 10 * 6e4;
    if (opts.taskId) await this.row(opts.taskId);
    const load = async () => opts.taskId ? [await this.get(opts.taskId)] : await this.list({ contextId: opts.contextId });
    const done = (tasks) => tasks.every((t2) => until.includes(t2.state));
    return new Promise((resolve, reject) => {
      let finished = false;
      let checking = false;
      let again = false;
      const finish = (err, tasks) => {
        if (finished) return;
        finished = true;
        clearTimeout(timer);
        unsubscribe();
        if (err) reject(err);
        else resolve(tasks);
      };
      const check = async () => {
        if (checking) return void (again = true);
        checking = true;
        try {
          do {
            again = false;
            const tasks = await load();
            if (done(tasks)) return finish(null, tasks);
          } while (again);
        } catch (e) {
          finish(e);
        } finally {
          checking = false;
        }
      };
      const unsubscribe = this.deps.journal.subscribe(
        (e) => {
          if (!opts.taskId || e.taskId === opts.taskId) void check();
        },
        { type: "task.*" }
      );
      const timer = setTimeout(async () => {
        const tasks = await load().catch(() => []);
        if (done(tasks)) return finish(null, tasks);
        finish(new YardError("TIMEOUT", `Timed out after ${timeoutMs} ms waiting for ${until.join("|")}`, { timeoutMs, until, tasks: tasks.map((t2) => ({ id: t2.id, state: t2.state })) }));
      }, timeoutMs);
      void check();
    });
  }
  // ---- diff ----------------------------------------------------------------------------
  /** The task's changes against its base commit: the live worktree, or its branch once the worktree is gone. */
  async diff(taskId3) {
    const t2 = await this.row(taskId3);
    if (!t2.baseSha || !t2.worktreePath) throw new YardError("CONFLICT", t2.state === "backlog" ? "The task is in the backlog; it has no worktree or diff until it starts" : "The task has no worktree");
    return this.changes(t2, { baseSha: t2.baseSha });
  }
  /** The changes from a review's snapshot (a tree id) to the worktree now, in the same shape. */
  async diffSince(taskId3, tree) {
    const t2 = await this.row(taskId3);
    if (!t2.baseSha || !t2.worktreePath) throw new YardError("CONFLICT", "The task has no worktree");
    return this.changes(t2, { tree });
  }
  async changes(t2, from) {
    const baseSha = t2.baseSha;
    const wt = t2.worktreePath;
    if (!this.finishing.has(t2.id) && existsSync4(path15.join(wt, ".git"))) {
      try {
        const d = "tree" in from ? await diffWorktreeSince({ worktreePath: wt, tree: from.tree }) : await diffWorktree({ worktreePath: wt, baseSha });
        return { ...d, baseSha, source: "worktree" };
      } catch (e) {
        if (existsSync4(path15.join(wt, ".git")) && !this.finishing.has(t2.id)) throw e;
      }
    }
    try {
      const now = await this.row(t2.id);
      const tip = now.branch && await branchExists(now.repoPath, now.branch) ? now.branch : now.mergeCommit ? `${now.mergeCommit}^2` : null;
      if (!tip) {
        if (this.finishing.has(t2.id)) throw new YardError("GIT_FAILED", "the branch is gone and the merge is not recorded yet");
        throw new YardError("CONFLICT", "The task's worktree and branch are both gone; there is nothing left to diff", { taskId: t2.id });
      }
      const d = "tree" in from ? await diffTreeToCommit({ repoRoot: now.repoPath, tree: from.tree, tip }) : await diffCommits({ repoRoot: now.repoPath, baseSha, tip });
      return { ...d, baseSha, source: "branch" };
    } catch (e) {
      if (e instanceof YardError && (e.code === "GIT_FAILED" || e.code === "NOT_FOUND") && this.finishing.has(t2.id)) {
        throw new YardError("CONFLICT", "The task is being merged or discarded right now; ask for its diff again once that has finished", { taskId: t2.id, finishing: true });
      }
      throw e;
    }
  }
  // ---- finish --------------------------------------------------------------------------
  async finish(taskId3, opts) {
    this.finishing.add(taskId3);
    try {
      return await this.finishNow(taskId3, opts);
    } finally {
      this.finishing.delete(taskId3);
    }
  }
  async finishNow(taskId3, opts) {
    if (!opts.merge === !opts.discard) throw new YardError("BAD_PARAMS", "Finish with exactly one of --merge or --discard");
    const t2 = await this.row(taskId3);
    if (!t2.worktreePath || !t2.branch) throw new YardError("CONFLICT", "The task has no worktree to finish");
    const worktreeExists = Boolean(await findWorktree(t2.repoPath, t2.worktreePath));
    if (t2.disposition) {
      if (!worktreeExists) throw new YardError("CONFLICT", `The task is already ${t2.disposition} and cleaned up`, { disposition: t2.disposition });
      const cleanup2 = await discardWorktree({ repoRoot: t2.repoPath, worktreePath: t2.worktreePath, branch: t2.branch, branchPreexisting: t2.branchPreexisting, deleteBranch: false });
      await this.tidyWorktreeDir(t2);
      await this.deps.db.task.update({ where: { id: taskId3 }, data: { cleanupError: cleanup2.error ?? null } });
      await this.deps.journal.append("task.cleanup", { taskId: taskId3, payload: { ...cleanup2 } });
      return { task: await this.get(taskId3), cleanup: { ok: !cleanup2.error, ...cleanup2 } };
    }
    if (opts.merge) {
      if (t2.state !== "completed") throw new YardError("TASK_NOT_COMPLETED", `Only a completed task can be merged; this one is ${t2.state}`, { state: t2.state });
      const target = opts.merge.target ?? t2.targetBranch;
      if (!target) throw new YardError("BAD_PARAMS", "The task has no recorded target branch (the repository was on a detached HEAD): pass --target BRANCH", { expected: null });
      let res;
      try {
        res = await mergeTask({
          repoRoot: t2.repoPath,
          worktreePath: t2.worktreePath,
          branch: t2.branch,
          targetBranch: target,
          branchPreexisting: t2.branchPreexisting,
          ignoreDirty: opts.merge.ignoreDirty,
          keepBranch: opts.merge.keepBranch,
          message: `Merge ${t2.branch}: ${t2.title}`
        });
      } catch (e) {
        if (e instanceof YardError) {
          await this.deps.journal.append("task.merge_failed", { taskId: taskId3, payload: { code: e.code, message: e.message, details: e.details ?? null } });
        }
        throw e;
      }
      if (res.cleanup.worktreeRemoved) await this.tidyWorktreeDir(t2);
      await this.deps.db.task.update({
        where: { id: taskId3 },
        data: { disposition: "merged", mergeCommit: res.mergeCommit, cleanupError: res.cleanup.ok ? null : res.cleanup.error ?? "cleanup failed", finishedAt: /* @__PURE__ */ new Date() }
      });
      await this.deps.journal.append("task.finished", { taskId: taskId3, payload: { disposition: "merged", mergeCommit: res.mergeCommit, target, cleanup: res.cleanup } });
      return { task: await this.get(taskId3), merge: { mergeCommit: res.mergeCommit, alreadyUpToDate: res.alreadyUpToDate, target }, cleanup: res.cleanup };
    }
    this.runners.get(taskId3)?.abort();
    if (!isTerminal(t2.state)) {
      await this.apply(taskId3, { type: "cancel" }).catch((e) => {
        if (!(e instanceof YardError && e.code === "CONFLICT")) throw e;
      });
    }
    if (t2.paneId && this.deps.panes.isLive(t2.paneId)) await this.deps.panes.kill(t2.paneId);
    const cleanup = await discardWorktree({ repoRoot: t2.repoPath, worktreePath: t2.worktreePath, branch: t2.branch, branchPreexisting: t2.branchPreexisting, deleteBranch: opts.discard.deleteBranch });
    await this.tidyWorktreeDir(t2);
    await this.deps.db.task.update({ where: { id: taskId3 }, data: { disposition: "discarded", cleanupError: cleanup.error ?? null, finishedAt: /* @__PURE__ */ new Date() } });
    await this.deps.journal.append("task.finished", { taskId: taskId3, payload: { disposition: "discarded", cleanup } });
    return { task: await this.get(taskId3), cleanup: { ok: !cleanup.error, ...cleanup } };
  }
  // ---- restart -------------------------------------------------------------------------
  /** On start-up: tasks whose panes died with the old process become failed with evidence. */
  async recover(lostPanes) {
    const rows = await this.deps.db.task.findMany({ where: { state: { in: [...ACTIVE_STATES] } } });
    for (const r of rows) {
      await this.apply(r.id, { type: "restart", lastLifecycle: r.paneId ? lostPanes.get(r.paneId) ?? await this.lastLifecycleBeforeExit(r.paneId) : null });
    }
    const unfinished = await this.deps.db.task.findMany({ where: { state: "completed", disposition: null } });
    for (const r of unfinished) {
      if (!r.branch || !r.targetBranch || !r.baseSha) continue;
      const tip = await runGit(["rev-parse", "--verify", "-q", `refs/heads/${r.branch}`], { cwd: r.repoPath, allowFail: true });
      const sha = tip.stdout.trim();
      if (tip.code !== 0 || !sha || sha === r.baseSha) continue;
      if (await isMerged(r.repoPath, sha, r.targetBranch).catch(() => false)) {
        const head = await runGit(["rev-parse", `refs/heads/${r.targetBranch}`], { cwd: r.repoPath, allowFail: true });
        await this.deps.db.task.update({ where: { id: r.id }, data: { disposition: "merged", mergeCommit: head.stdout.trim() || null, cleanupError: "merge found landed at start-up; run finish again to clean up", finishedAt: /* @__PURE__ */ new Date() } });
        await this.deps.journal.append("task.finished", { taskId: r.id, payload: { disposition: "merged", recovered: true } });
      }
    }
    for (const r of await this.deps.db.task.findMany({ select: { id: true, state: true } })) this.stateCache.set(r.id, r.state);
  }
  /** A pane stopped by the previous shutdown: what it was doing before it exited. */
  async lastLifecycleBeforeExit(paneId2) {
    const events = await this.deps.journal.list({ paneId: paneId2, type: "pane.lifecycle" });
    const last = events.at(-1)?.payload;
    return last?.to === "exited" ? last.from ?? null : last?.to ?? null;
  }
  async shutdown() {
    this.closing = true;
    for (const ac of this.runners.values()) ac.abort();
  }
};
function resolveUntil(until) {
  const list = (Array.isArray(until) ? until : (until ?? "settled").split(",")).map((s) => s.trim()).filter(Boolean);
  const out = /* @__PURE__ */ new Set();
  for (const u of list) {
    if (u in WAIT_SETS) for (const s of WAIT_SETS[u]) out.add(s);
    else if (["backlog", "pending", "working", "input_required", "completed", "failed", "canceled", "rejected"].includes(u)) out.add(u);
    else throw new YardError("BAD_PARAMS", `Unknown state ${JSON.stringify(u)}: use settled, terminal, working or task states`, { until: u });
  }
  return [...out];
}

// server/api/tasks.ts
var taskId2 = z13.string().regex(/^tsk[a-z0-9]{4,40}$/, "not a task id");
var tasksRouter = router({
  start: orchestratorProcedure.input(startInput).mutation(({ ctx, input }) => ctx.services.tasks.start(input, { paneId: ctx.pane?.id ?? null })),
  startBacklog: orchestratorProcedure.input(startBacklogInput).mutation(({ ctx, input }) => ctx.services.tasks.startBacklog(input.id)),
  get: callerProcedure.input(z13.object({ id: taskId2 })).query(({ ctx, input }) => {
    if (ctx.pane?.taskId && ctx.pane.taskId !== input.id) throw new YardError("FORBIDDEN", "A worker pane may only read its own task");
    return ctx.services.tasks.get(input.id);
  }),
  list: orchestratorProcedure.input(z13.object({ contextId: z13.string().max(100).optional(), states: z13.array(z13.string().max(32)).max(10).optional(), projectId: z13.string().max(64).optional() }).optional()).query(({ ctx, input }) => ctx.services.tasks.list(input ?? {})),
  wait: orchestratorProcedure.input(
    z13.object({
      id: taskId2.optional(),
      contextId: z13.string().max(100).optional(),
      until: z13.union([z13.string().max(200), z13.array(z13.string().max(32)).max(10)]).optional(),
      timeoutMs: z13.number().int().min(1).max(24 * 36e5).optional()
    })
  ).query(async ({ ctx, input }) => ({ tasks: await ctx.services.tasks.wait({ taskId: input.id, contextId: input.contextId, until: input.until, timeoutMs: input.timeoutMs }) })),
  report: callerProcedure.input(reportInput).mutation(
    ({ ctx, input }) => ctx.services.tasks.report(input, { paneId: ctx.pane?.id ?? null, paneTaskId: ctx.pane?.taskId ?? null, admin: ctx.principal.kind === "admin" })
  ),
  followUp: orchestratorProcedure.input(followUpInput).mutation(({ ctx, input }) => ctx.services.tasks.followUp(input.id, input.text, { stallMs: input.stallMs })),
  diff: orchestratorProcedure.input(taskDiffInput).output(taskDiffOutput).query(async ({ ctx, input }) => input.since === "last_review" ? ctx.services.reviews.changesSinceLastReview(input.id) : { ...await ctx.services.tasks.diff(input.id), since: null }),
  rounds: callerProcedure.input(z13.object({ id: taskId2 })).output(roundsOutput).query(async ({ ctx, input }) => {
    if (ctx.pane?.taskId && ctx.pane.taskId !== input.id) throw new YardError("FORBIDDEN", "A worker pane may only read its own task");
    return { rounds: await ctx.services.reviews.rounds(input.id) };
  }),
  cancel: orchestratorProcedure.input(z13.object({ id: taskId2 })).mutation(({ ctx, input }) => ctx.services.tasks.cancel(input.id)),
  finish: orchestratorProcedure.input(
    z13.object({
      id: taskId2,
      merge: z13.object({ target: z13.string().min(1).max(255).optional(), keepBranch: z13.boolean().optional(), ignoreDirty: z13.boolean().optional() }).optional(),
      discard: z13.object({ deleteBranch: z13.boolean().optional() }).optional()
    })
  ).mutation(({ ctx, input }) => ctx.services.tasks.finish(input.id, { merge: input.merge, discard: input.discard })),
  events: orchestratorProcedure.input(z13.object({ id: taskId2, since: z13.number().int().min(0).optional() })).query(async ({ ctx, input }) => ({ events: await ctx.services.tasks.events(input.id, input.since) }))
});

// server/contracts/projects.ts
import { z as z14 } from "zod";
var project = z14.object({
  id: z14.string(),
  path: z14.string(),
  name: z14.string(),
  defaultTarget: z14.string().nullable(),
  createdAt: z14.string()
});
var projectList = z14.array(project);
var profileView = z14.object({
  id: z14.string(),
  name: z14.string(),
  role: z14.enum(["worker", "reviewer", "planner"]),
  argv: z14.array(z14.string()),
  supportsHooks: z14.boolean(),
  builtIn: z14.boolean(),
  envNames: z14.array(z14.string()),
  /** Runs under the OS sandbox by default (a task may override it). */
  sandbox: z14.boolean(),
  /** The sandbox keeps the network. */
  sandboxNetwork: z14.boolean()
});
var profileList = z14.array(profileView);
var profileRemoved = z14.object({ removed: z14.string() });
var statusReply = z14.object({
  ok: z14.literal(true),
  version: z14.string(),
  /** The data dir; only for the user (install token or browser session). */
  home: z14.string().optional(),
  url: z14.string(),
  principal: z14.enum(["admin", "pane"]),
  projects: z14.number().int(),
  panes: z14.number().int(),
  tasks: z14.number().int(),
  /** Called from a pane: whether that pane runs in the OS sandbox. */
  sandboxed: z14.boolean().optional(),
  /** For the user: whether sandboxed tasks can start on this machine, and if not why. */
  sandbox: z14.object({ available: z14.boolean(), reason: z14.string().nullable(), message: z14.string().nullable() }).optional()
});

// server/api/router.ts
async function sandboxStatus(services) {
  const a = await services.sandbox.availability();
  return a.ok ? { available: true, reason: null, message: null } : { available: false, reason: a.reason, message: a.message };
}
var appRouter = router({
  status: callerProcedure.output(statusReply).query(async ({ ctx }) => ({
    ok: true,
    version: VERSION,
    home: ctx.principal.kind === "admin" ? ctx.services.home : void 0,
    url: ctx.services.url(),
    principal: ctx.principal.kind,
    projects: await ctx.services.db.project.count(),
    panes: await ctx.services.db.pane.count(),
    tasks: await ctx.services.db.task.count(),
    /** Called from a pane: whether that pane runs in the OS sandbox. */
    sandboxed: ctx.pane ? (await ctx.services.db.pane.findUnique({ where: { id: ctx.pane.id }, select: { sandboxed: true } }))?.sandboxed ?? false : void 0,
    /** For the user: whether sandboxed tasks can start on this machine, and if not why. */
    sandbox: ctx.principal.kind === "admin" ? await sandboxStatus(ctx.services) : void 0
  })),
  projects: router({
    add: adminProcedure.input(projectAddInput).output(project).mutation(({ ctx, input }) => ctx.services.projects.add(input)),
    list: adminProcedure.output(projectList).query(({ ctx }) => ctx.services.projects.list()),
    get: adminProcedure.input(z15.object({ id })).output(project).query(({ ctx, input }) => ctx.services.projects.get(input.id)),
    remove: adminProcedure.input(z15.object({ id })).output(project).mutation(({ ctx, input }) => ctx.services.projects.remove(input.id)),
    /** Branches and recent commits to pick a task's base from. */
    refs: adminProcedure.input(projectRefsInput).output(projectRefsOutput).query(async ({ ctx, input }) => listRefs((await ctx.services.projects.get(input.id)).path, { query: input.query, limit: input.limit }))
  }),
  board: router({
    get: adminProcedure.input(z15.object({ projectId: id })).output(boardOutput).query(async ({ ctx, input }) => {
      await ctx.services.projects.get(input.projectId);
      return ctx.services.tasks.board(input.projectId);
    })
  }),
  panes: panesRouter,
  tasks: tasksRouter,
  reviews: reviewsRouter,
  hooks: hooksRouter,
  events: eventsRouter,
  agents: router({
    list: callerProcedure.output(profileList).query(({ ctx }) => ctx.services.agents.list()),
    add: adminProcedure.input(agentProfileInput).output(profileView).mutation(({ ctx, input }) => ctx.services.agents.add(input)),
    remove: adminProcedure.input(z15.object({ id: profileId })).output(profileRemoved).mutation(async ({ ctx, input }) => {
      return ctx.services.agents.remove(input.id, await ctx.services.tasks.activeCount({ agent: input.id }));
    })
  })
});

// server/realtime/socket.ts
import { Server } from "socket.io";

// server/contracts/socket.ts
import { z as z16 } from "zod";
var socketInputs = {
  "pane:attach": z16.object({ paneId }),
  "pane:input": z16.object({ paneId, data: z16.string().min(1).max(64 * 1024) }),
  "pane:resize": z16.object({ paneId, cols: z16.number().int().min(10).max(1e3), rows: z16.number().int().min(4).max(500) }),
  "pane:detach": z16.object({ paneId }),
  "events:subscribe": z16.object({
    since: z16.number().int().min(0).optional(),
    type: eventTypeGlob.optional(),
    taskId: taskId.optional(),
    paneId: paneId.optional()
  }).default({})
};
function parseSocketInput(name, raw2) {
  const problem = inputShapeError(raw2);
  if (problem) throw new YardError("BAD_PARAMS", `${name}: input refused: ${problem}`);
  const r = socketInputs[name].safeParse(raw2 ?? void 0);
  if (!r.success) {
    const issues = r.error.issues.map((i) => ({ path: i.path.join("."), message: i.message }));
    throw new YardError("BAD_PARAMS", `${name}: ${issues.map((i) => i.path ? `${i.path}: ${i.message}` : i.message).join("; ")}`, { issues });
  }
  return r.data;
}

// server/security/sessions.ts
import { createHash as createHash3, randomBytes as randomBytes5 } from "node:crypto";
import { chmodSync as chmodSync3, readFileSync as readFileSync4, renameSync, writeFileSync as writeFileSync3 } from "node:fs";
var SESSION_MAX_AGE_MS = 30 * 24 * 36e5;
var MAX_SESSIONS = 32;
var hashOf = (value) => createHash3("sha256").update(value).digest("hex");
var SessionStore = class {
  constructor(file, now = Date.now) {
    this.file = file;
    this.now = now;
    try {
      const data = JSON.parse(readFileSync4(file, "utf8"));
      this.entries = (data.sessions ?? []).filter((e) => typeof e.hash === "string" && /^[0-9a-f]{64}$/.test(e.hash) && Number.isFinite(e.createdAt));
    } catch {
      this.entries = [];
    }
    this.prune();
  }
  file;
  now;
  entries = [];
  listeners = /* @__PURE__ */ new Set();
  /** A new session; returns the cookie value (never stored). `replacing` is revoked. */
  create(replacing) {
    if (replacing) this.revoke(replacing, { save: false });
    const value = randomBytes5(32).toString("base64url");
    this.entries.push({ hash: hashOf(value), createdAt: this.now() });
    while (this.entries.length > MAX_SESSIONS) this.emitRevoked(this.entries.shift().hash);
    this.save();
    return value;
  }
  verify(value) {
    if (!value || value.length > 200) return false;
    const h = hashOf(value);
    const cutoff = this.now() - SESSION_MAX_AGE_MS;
    return this.entries.some((e) => e.createdAt > cutoff && safeEqual(e.hash, h));
  }
  revoke(value, opts = {}) {
    const h = hashOf(value);
    const before = this.entries.length;
    this.entries = this.entries.filter((e) => !safeEqual(e.hash, h));
    if (this.entries.length === before) return false;
    this.emitRevoked(h);
    if (opts.save !== false) this.save();
    return true;
  }
  /** Called with the hash of every revoked or expired session. */
  onRevoked(listener) {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
  static hash(value) {
    return hashOf(value);
  }
  emitRevoked(hash) {
    for (const l of this.listeners) l(hash);
  }
  prune() {
    const cutoff = this.now() - SESSION_MAX_AGE_MS;
    this.entries = this.entries.filter((e) => e.createdAt > cutoff).slice(-MAX_SESSIONS);
  }
  save() {
    this.prune();
    const tmp = `${this.file}.${process.pid}.tmp`;
    writeFileSync3(tmp, JSON.stringify({ sessions: this.entries }) + "\n", { mode: 384 });
    chmodSync3(tmp, 384);
    renameSync(tmp, this.file);
  }
};

// server/security/guard.ts
function hostName(host) {
  if (!host) return null;
  const m = /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+)(?::(\d{1,5}))?$/.exec(host.trim());
  return m ? m[1].toLowerCase() : null;
}
function checkHost(host, cfg) {
  const name = hostName(host);
  if (name && (isLoopbackHost(name) || cfg.extraHosts?.includes(name))) return null;
  return { status: 403, code: "FORBIDDEN", message: `Host ${JSON.stringify(host ?? "")} is not allowed: use 127.0.0.1 or localhost` };
}
var SAFE_METHODS = /* @__PURE__ */ new Set(["GET", "HEAD", "OPTIONS"]);
function checkOrigin(method, origin, host, fetchSite) {
  if (SAFE_METHODS.has(method.toUpperCase())) return null;
  return checkSocketOrigin(origin, host, fetchSite);
}
function checkSocketOrigin(origin, host, fetchSite) {
  if (fetchSite === "cross-site") return { status: 403, code: "FORBIDDEN", message: "Cross-site requests are refused" };
  if (origin === void 0 || origin === "") return null;
  let originHost;
  try {
    const u = new URL(origin);
    if (u.protocol !== "http:" && u.protocol !== "https:") throw new Error("scheme");
    originHost = u.host;
  } catch {
    return { status: 403, code: "FORBIDDEN", message: `Origin ${JSON.stringify(origin)} is refused` };
  }
  if (host && originHost.toLowerCase() === host.toLowerCase()) return null;
  return { status: 403, code: "FORBIDDEN", message: `Origin ${origin} is not this server; cross-origin requests are refused` };
}
function parseCookies(header) {
  const out = {};
  for (const part of (header ?? "").split(";")) {
    const i = part.indexOf("=");
    if (i <= 0) continue;
    const k = part.slice(0, i).trim();
    const v = part.slice(i + 1).trim();
    try {
      out[k] = decodeURIComponent(v);
    } catch {
      out[k] = v;
    }
  }
  return out;
}
function authenticate(headers, cfg) {
  const auth = headers.authorization;
  if (auth) {
    const m = /^Bearer\s+(\S+)$/i.exec(auth.trim());
    if (!m) return null;
    const presented = m[1];
    if (safeEqual(presented, cfg.token)) return { kind: "admin" };
    const pane = parsePaneToken(presented);
    return pane ? { kind: "pane", paneId: pane.paneId, secret: pane.secret } : null;
  }
  const cookie = sessionCookie(headers.cookie);
  if (cookie && cfg.sessions.verify(cookie)) return { kind: "admin", session: cookie };
  return null;
}
function sessionCookie(header) {
  return parseCookies(header)[SESSION_COOKIE];
}
function sessionCookieHeader(value) {
  return `${SESSION_COOKIE}=${value}; Path=/; HttpOnly; SameSite=Strict; Max-Age=${Math.floor(SESSION_MAX_AGE_MS / 1e3)}`;
}

// server/realtime/terminals.ts
var FLUSH_MS = 16;
var MAX_PENDING_BYTES = 512 * 1024;
var MAX_QUEUED_PACKETS = 64;
var errorReply = (e) => ({
  ok: false,
  error: e instanceof YardError ? e.toJSON() : { code: "INTERNAL", message: e?.message ?? String(e), details: null }
});
function wireTerminals(socket, services) {
  const viewers = /* @__PURE__ */ new Map();
  const queued = () => socket.conn.writeBuffer?.length ?? 0;
  const flush = (v) => {
    v.timer = null;
    if (v.stale || v.pending.length === 0) return;
    if (queued() > MAX_QUEUED_PACKETS) {
      v.timer = setTimeout(() => flush(v), FLUSH_MS);
      return;
    }
    const data = v.pending.join("");
    v.pending = [];
    v.pendingBytes = 0;
    socket.emit("pane:output", { paneId: v.paneId, data });
  };
  const resync = async (v) => {
    if (!viewers.has(v.paneId) || !v.stale) return;
    v.detach();
    try {
      const attached = await services.panes.attach(v.paneId, listenerFor(v));
      v.detach = attached.detach;
      v.stale = false;
      v.pending = [];
      v.pendingBytes = 0;
      socket.emit("pane:resync", { paneId: v.paneId, snapshot: attached.snapshot, pane: attached.pane });
    } catch {
    }
  };
  const listenerFor = (v) => ({
    output(data) {
      if (v.stale) return;
      v.pending.push(data);
      v.pendingBytes += data.length;
      if (v.pendingBytes > MAX_PENDING_BYTES) {
        v.stale = true;
        v.pending = [];
        v.pendingBytes = 0;
        return;
      }
      v.timer ??= setTimeout(() => flush(v), FLUSH_MS);
    },
    lifecycle(pane) {
      socket.emit("pane:lifecycle", { pane });
    },
    exit(pane) {
      if (v.timer) clearTimeout(v.timer);
      flush(v);
      socket.emit("pane:exit", { pane });
    }
  });
  socket.conn.on("drain", () => {
    for (const v of viewers.values()) if (v.stale) void resync(v);
  });
  const generation = /* @__PURE__ */ new Map();
  const bump = (paneId2) => {
    const g = (generation.get(paneId2) ?? 0) + 1;
    generation.set(paneId2, g);
    return g;
  };
  const drop = (paneId2) => {
    const v = viewers.get(paneId2);
    if (!v) return;
    v.detach();
    if (v.timer) clearTimeout(v.timer);
    viewers.delete(paneId2);
  };
  socket.on("pane:attach", async (msg, ack) => {
    const reply = typeof ack === "function" ? ack : () => {
    };
    try {
      const { paneId: paneId2 } = parseSocketInput("pane:attach", msg);
      const gen = bump(paneId2);
      drop(paneId2);
      const v = { paneId: paneId2, pending: [], pendingBytes: 0, stale: false, timer: null, detach: () => {
      } };
      const attached = await services.panes.attach(paneId2, listenerFor(v));
      if (generation.get(paneId2) !== gen || !socket.connected) {
        attached.detach();
        return reply({ ok: false, error: { code: "CONFLICT", message: "superseded by a newer attach or a detach", details: null } });
      }
      v.detach = attached.detach;
      viewers.set(paneId2, v);
      if (attached.pane.lifecycle === "done" || attached.pane.lifecycle === "exited") void services.panes.markSeen(paneId2).catch(() => {
      });
      reply({ ok: true, snapshot: attached.snapshot, pane: attached.pane });
    } catch (e) {
      reply(errorReply(e));
    }
  });
  socket.on("pane:input", async (msg, ack) => {
    const reply = typeof ack === "function" ? ack : () => {
    };
    try {
      const { paneId: paneId2, data } = parseSocketInput("pane:input", msg);
      await services.panes.sendKeys(paneId2, data);
      reply({ ok: true });
    } catch (e) {
      reply(errorReply(e));
    }
  });
  socket.on("pane:resize", async (msg, ack) => {
    const reply = typeof ack === "function" ? ack : () => {
    };
    try {
      const { paneId: paneId2, cols, rows } = parseSocketInput("pane:resize", msg);
      const pane = await services.panes.resize(paneId2, cols, rows);
      reply({ ok: true, pane });
    } catch (e) {
      reply(errorReply(e));
    }
  });
  socket.on("pane:detach", (msg) => {
    let paneId2;
    try {
      ({ paneId: paneId2 } = parseSocketInput("pane:detach", msg));
    } catch {
      return;
    }
    bump(paneId2);
    drop(paneId2);
  });
  socket.on("disconnect", () => {
    for (const paneId2 of [...viewers.keys()]) drop(paneId2);
  });
}

// server/realtime/socket.ts
function admit(req, guard) {
  const refusal = checkHost(req.headers.host, guard) ?? checkSocketOrigin(req.headers.origin, req.headers.host, req.headers["sec-fetch-site"]);
  if (refusal) return { ok: false, reason: refusal.message };
  const principal = authenticate({ authorization: req.headers.authorization, cookie: req.headers.cookie }, guard);
  if (!principal || principal.kind !== "admin") return { ok: false, reason: "UNAUTHORIZED" };
  return { ok: true, session: principal.session };
}
function attachRealtime(server, opts) {
  const io = new Server(server, {
    path: "/socket.io",
    serveClient: false,
    maxHttpBufferSize: 1e6,
    allowRequest: (req, callback) => {
      const a = admit(req, opts.guard);
      callback(a.ok ? null : a.reason, a.ok);
    }
  });
  io.use((socket, next) => {
    const a = admit(socket.request, opts.guard);
    if (!a.ok) return next(new Error(a.reason));
    socket.data.session = a.session;
    next();
  });
  const stopRevocations = opts.sessions.onRevoked((hash) => {
    for (const s of io.sockets.sockets.values()) if (s.data.session && SessionStore.hash(s.data.session) === hash) s.disconnect(true);
  });
  io.on("connection", (socket) => {
    socket.use((_packet, next) => {
      if (socket.data.session && !opts.sessions.verify(socket.data.session)) {
        socket.disconnect(true);
        return next(new Error("UNAUTHORIZED"));
      }
      next();
    });
    wireTerminals(socket, opts.services);
    const unsubscribers = [];
    socket.on("events:subscribe", async (raw2) => {
      let query;
      try {
        query = parseSocketInput("events:subscribe", raw2);
      } catch {
        return;
      }
      if (unsubscribers.length >= 64) return;
      let last = query.since ?? await opts.services.journal.head();
      const pending = [];
      let replaying = true;
      unsubscribers.push(
        opts.services.journal.subscribe((e) => {
          if (replaying) pending.push(e);
          else if (e.seq > last) {
            last = e.seq;
            socket.emit("event", e);
          }
        }, { ...query, since: void 0 })
      );
      if (query.since !== void 0) {
        for (const e of await opts.services.journal.list(query)) {
          last = Math.max(last, e.seq);
          socket.emit("event", e);
        }
      }
      replaying = false;
      for (const e of pending) if (e.seq > last) last = e.seq, socket.emit("event", e);
    });
    socket.on("disconnect", () => unsubscribers.forEach((u) => u()));
  });
  return {
    io,
    // The HTTP server is closed by its owner; here only the sockets and the engine.
    close: async () => {
      stopRevocations();
      io.disconnectSockets(true);
      io.engine.close();
    }
  };
}

// server/core/events/journal.ts
import { EventEmitter } from "node:events";

// server/core/events/glob.ts
function globMatch(glob, text2) {
  let g = 0;
  let t2 = 0;
  let star = -1;
  let mark = 0;
  while (t2 < text2.length) {
    if (g < glob.length && glob[g] !== "*" && glob[g] === text2[t2]) {
      g++;
      t2++;
    } else if (g < glob.length && glob[g] === "*") {
      while (g < glob.length && glob[g] === "*") g++;
      star = g;
      mark = t2;
    } else if (star !== -1) {
      g = star;
      t2 = ++mark;
    } else {
      return false;
    }
  }
  while (g < glob.length && glob[g] === "*") g++;
  return g === glob.length;
}

// server/core/events/journal.ts
function matches(e, q) {
  if (q.since !== void 0 && e.seq <= q.since) return false;
  if (q.taskId && e.taskId !== q.taskId) return false;
  if (q.paneId && e.paneId !== q.paneId) return false;
  if (q.type && !globMatch(q.type, e.type)) return false;
  return true;
}
var LIST_PAGE = 1e3;
var EventJournal = class {
  constructor(store) {
    this.store = store;
    this.bus.setMaxListeners(0);
  }
  store;
  bus = new EventEmitter();
  tail = Promise.resolve();
  /** Appends in call order (serialized), then notifies subscribers. */
  append(type, opts = {}) {
    const run2 = async () => {
      const event = await this.store.append({ type, taskId: opts.taskId ?? null, paneId: opts.paneId ?? null, payload: opts.payload ?? {} });
      this.bus.emit("event", event);
      return event;
    };
    const p = this.tail.then(run2, run2);
    this.tail = p.catch(() => {
    });
    return p;
  }
  async list(q = {}) {
    const limit = Math.min(q.limit ?? 1e3, 1e4);
    const typePrefix = q.type ? q.type.split("*")[0] : "";
    const out = [];
    let after = q.since;
    for (; ; ) {
      const take = q.type ? LIST_PAGE : limit;
      const page = await this.store.page({ after, taskId: q.taskId, paneId: q.paneId, typePrefix: typePrefix || void 0, take });
      for (const e of page) if (matches(e, q) && out.push(e) >= limit) return out;
      if (page.length < take || !q.type) return out;
      after = page.at(-1).seq;
    }
  }
  head() {
    return this.store.head();
  }
  subscribe(listener, q = {}) {
    const fn = (e) => {
      if (matches(e, q)) listener(e);
    };
    this.bus.on("event", fn);
    return () => this.bus.off("event", fn);
  }
};

// server/core/sandbox/sandbox.ts
init_root();
import { chmodSync as chmodSync4, closeSync, existsSync as existsSync5, mkdirSync as mkdirSync3, openSync, realpathSync as realpathSync2, statSync as statSync6 } from "node:fs";
import os4 from "node:os";
import path18 from "node:path";

// server/core/sandbox/argv.ts
import path16 from "node:path";
var SANDBOX_SOCKET = "/run/switchyard/api.sock";
var AGENT_SIGNALS = "HUP,INT,QUIT,TERM,TSTP";
var PRIVATE_DIRS = ["/tmp", "/run"];
var depth = (p) => p === "/" ? 0 : p.split("/").length - 1;
var within = (p, dir) => p === dir || p.startsWith(dir.endsWith("/") ? dir : dir + "/");
function checkPath(p, what) {
  if (typeof p !== "string" || !path16.isAbsolute(p) || /[\0\r\n]/.test(p)) {
    throw new YardError("BAD_PARAMS", `sandbox: ${what} must be an absolute path without control characters`, { [what]: p ?? null });
  }
  const n = path16.resolve(p);
  if (n === "/") throw new YardError("BAD_PARAMS", `sandbox: ${what} must not be /`, { [what]: p });
  return n;
}
function sandboxMounts(plan) {
  const dataDir = checkPath(plan.dataDir, "dataDir");
  const worktree = checkPath(plan.worktree, "worktree");
  const gitDir = checkPath(plan.gitDir, "gitDir");
  const commonDir = checkPath(plan.commonDir, "commonDir");
  const home = checkPath(plan.home, "home");
  const tmp = checkPath(plan.tmp, "tmp");
  const hidden = [...PRIVATE_DIRS, dataDir];
  const isHidden = (p) => hidden.some((h) => within(p, h));
  for (const [what, p] of [["worktree", worktree], ["home", home], ["tmp", tmp]]) {
    if (hidden.includes(p)) throw new YardError("BAD_PARAMS", `sandbox: the ${what} must not be ${p} itself`, { [what]: p });
  }
  if (!within(gitDir, commonDir)) throw new YardError("BAD_PARAMS", "sandbox: the worktree's git dir must lie inside the repository's common git dir", { gitDir, commonDir });
  const rules = [];
  const add = (m, rank) => rules.push({ m, rank });
  for (const d of PRIVATE_DIRS) add({ op: "--tmpfs", dest: d }, 0);
  add({ op: "--tmpfs", dest: dataDir, perms: "0555" }, 0);
  const exposures = /* @__PURE__ */ new Set();
  for (const raw2 of [...plan.readOnly, commonDir]) {
    const p = checkPath(raw2, "readOnly");
    if (hidden.includes(p)) continue;
    if (isHidden(p)) exposures.add(p);
  }
  for (const p of exposures) add({ op: "--ro-bind", src: p, dest: p }, 1);
  if (plan.network && plan.resolvConf) {
    const r = checkPath(plan.resolvConf, "resolvConf");
    if (isHidden(r)) add({ op: "--ro-bind", src: r, dest: r }, 1);
  }
  for (const p of [worktree, path16.join(commonDir, "objects"), path16.join(commonDir, "refs"), path16.join(commonDir, "logs"), gitDir, home, tmp]) {
    add({ op: "--bind", src: p, dest: p }, 2);
  }
  for (const p of [path16.join(worktree, ".git"), path16.join(gitDir, "commondir"), path16.join(gitDir, "gitdir"), path16.join(gitDir, "config.worktree")]) {
    add({ op: "--ro-bind", src: p, dest: p }, 3);
  }
  if (plan.socket) add({ op: "--ro-bind", src: checkPath(plan.socket, "socket"), dest: SANDBOX_SOCKET }, 4);
  return rules.map((r, i) => ({ ...r, i })).sort((a, b) => depth(a.m.dest) - depth(b.m.dest) || a.rank - b.rank || a.i - b.i).map((r) => r.m);
}
function buildSandboxArgv(plan, command) {
  if (!command.length || !command[0]) throw new YardError("BAD_PARAMS", "sandbox: nothing to run");
  if (command[0].includes("=")) throw new YardError("BAD_PARAMS", `sandbox: the program name must not contain "=" (${command[0]})`, { program: command[0] });
  const bwrap = checkPath(plan.bwrap, "bwrap");
  const env = checkPath(plan.env, "env");
  const out = [env, `--ignore-signal=${AGENT_SIGNALS}`, bwrap, "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc"];
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
function probeArgv(bwrap, env, dropCapabilities = true) {
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
    ...dropCapabilities ? ["--cap-drop", "ALL"] : [],
    "--",
    env,
    `--default-signal=${AGENT_SIGNALS}`,
    "true"
  ];
}

// server/core/sandbox/probe.ts
import { spawn as spawn4 } from "node:child_process";
import { accessSync as accessSync2, constants as constants2, statSync as statSync5 } from "node:fs";
import path17 from "node:path";
var PROBE_TIMEOUT_MS = 1e4;
var runningAsRoot = () => process.getuid?.() === 0;
var INSTALL_HINT = "install bubblewrap (Debian/Ubuntu: sudo apt-get install bubblewrap; Fedora: sudo dnf install bubblewrap; Arch: sudo pacman -S bubblewrap)";
function findExecutable(name, searchPath) {
  const candidates = name.includes("/") ? [path17.resolve(name)] : (searchPath ?? "").split(path17.delimiter).filter(Boolean).map((d) => path17.join(d, name));
  for (const c of candidates) {
    try {
      if (statSync5(c).isFile()) {
        accessSync2(c, constants2.X_OK);
        return c;
      }
    } catch {
    }
  }
  return null;
}
function classifyProbeFailure(exitCode, stderr) {
  const err = stderr.trim();
  const last = err.split("\n").filter(Boolean).slice(-3).join(" | ");
  if (/(unrecognized|invalid|unknown) option.*(ignore|default)-signal/i.test(err)) {
    return { ok: false, reason: "env_unsupported", message: `The sandbox needs GNU env (coreutils 8.31 or newer, for --ignore-signal/--default-signal); this system's env refused: ${last}. Install GNU coreutils.`, stderr: err };
  }
  if (/user namespace|uid map|unprivileged|No permissions to creat|Creating new namespace failed|setting up uid map|clone.*(Operation not permitted|Permission denied)|unshare.*(Operation not permitted|Permission denied)/i.test(err)) {
    return {
      ok: false,
      reason: "namespaces_disabled",
      message: `bwrap cannot create the sandbox's namespaces (${last}). Enable unprivileged user namespaces: sysctl kernel.unprivileged_userns_clone=1 (Debian), user.max_user_namespaces > 0, and on Ubuntu 23.10+ kernel.apparmor_restrict_unprivileged_userns=0 or an AppArmor profile that allows bwrap; in a container, allow user namespaces (e.g. a seccomp profile that permits unshare/clone with namespace flags).`,
      stderr: err
    };
  }
  return { ok: false, reason: "probe_failed", message: `bwrap's start-up probe failed (exit ${exitCode ?? "by signal"})${last ? `: ${last}` : ""}`, stderr: err };
}
async function probeSandbox(opts) {
  const platform = opts.platform ?? process.platform;
  if (platform !== "linux") return { ok: false, reason: "unsupported_platform", message: `The sandbox uses Linux namespaces (bubblewrap); it is not available on ${platform}.` };
  const bwrap = findExecutable(opts.bwrap, opts.searchPath);
  if (!bwrap) return { ok: false, reason: "bwrap_missing", message: `bubblewrap is not installed (no executable ${JSON.stringify(opts.bwrap)}${opts.bwrap.includes("/") ? "" : " on PATH"}): ${INSTALL_HINT}.` };
  const env = findExecutable("env", opts.searchPath);
  if (!env) return { ok: false, reason: "env_unsupported", message: "The sandbox needs GNU env (coreutils 8.31 or newer); no env on PATH." };
  const { code, stderr, error } = await run(probeArgv(bwrap, env, runningAsRoot()), PROBE_TIMEOUT_MS);
  if (error) return { ok: false, reason: "probe_failed", message: `Could not run ${bwrap}: ${error}` };
  if (code === 0) return { ok: true, bwrap, env };
  return classifyProbeFailure(code, stderr);
}
function run(argv, timeoutMs) {
  return new Promise((resolve) => {
    const child = spawn4(argv[0], argv.slice(1), { stdio: ["ignore", "ignore", "pipe"], shell: false, windowsHide: true });
    let stderr = "";
    let settled = false;
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      finish({ code: null, stderr, error: `the probe did not finish in ${timeoutMs} ms` });
    }, timeoutMs);
    const finish = (r) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(r);
    };
    child.stderr.setEncoding("utf8");
    child.stderr.on("data", (d) => {
      if (stderr.length < 16384) stderr += d;
    });
    child.on("error", (e) => finish({ code: null, stderr, error: e.message }));
    child.on("close", (code) => finish({ code, stderr }));
  });
}

// server/core/sandbox/sandbox.ts
var TASK_ID = /^[A-Za-z0-9_-]{1,64}$/;
var Sandbox = class {
  constructor(opts) {
    this.opts = opts;
    this.gitGlobalConfig = opts.gitGlobalConfig !== void 0 ? opts.gitGlobalConfig : findGitGlobalConfig();
  }
  opts;
  probe = null;
  gitGlobalConfig;
  async availability() {
    const probe = this.probe ??= probeSandbox({ bwrap: this.opts.bwrap, searchPath: this.opts.searchPath ?? process.env.PATH });
    const a = await probe;
    if (!a.ok) {
      if (this.probe === probe) this.probe = null;
      return a;
    }
    const socket = this.opts.apiSocket();
    if ("error" in socket) {
      return { ok: false, reason: "socket_unavailable", message: `The server's API socket is not available, so a sandboxed agent (no network) could not reach the server: ${socket.error}` };
    }
    return a;
  }
  /** Throws SANDBOX_UNAVAILABLE with the reason when a sandboxed spawn cannot start. */
  async require() {
    const a = await this.availability();
    if (!a.ok) throw new YardError("SANDBOX_UNAVAILABLE", a.message, { reason: a.reason, ...a.stderr ? { stderr: a.stderr } : {} });
    const socket = this.opts.apiSocket();
    return { bwrap: a.bwrap, env: a.env, socket: socket.path };
  }
  /** The task's private dirs on the host (bound at the same paths inside). */
  dirs(taskId3) {
    if (!TASK_ID.test(taskId3)) throw new YardError("BAD_PARAMS", "sandbox: bad task id", { taskId: taskId3 });
    const root2 = path18.join(this.opts.home, "sandbox", taskId3);
    return { root: root2, home: path18.join(root2, "home"), tmp: path18.join(root2, "tmp") };
  }
  /** Everything one sandboxed spawn for a task's worktree needs; the worktree must exist. */
  async prepare(opts) {
    const tools = await this.require();
    const repo = await inspectRepo(opts.worktreePath);
    if (repo.gitDir === repo.commonDir) {
      throw new YardError("BAD_PARAMS", `sandbox: ${repo.root} is not a linked worktree; sandboxed agents run in a task's own worktree`, { worktreePath: repo.root });
    }
    const dataDir = realpathSync2(this.opts.home);
    const d = this.dirs(opts.taskId);
    for (const dir of [path18.join(dataDir, "sandbox"), d.root, d.home, d.tmp]) {
      mkdirSync3(dir, { recursive: true, mode: 448 });
      chmodSync4(dir, 448);
    }
    mkdirSync3(path18.join(repo.commonDir, "logs"), { recursive: true });
    const configWorktree = path18.join(repo.gitDir, "config.worktree");
    if (!existsSync5(configWorktree)) closeSync(openSync(configWorktree, "a"));
    const readOnly = [REPO_ROOT, path18.join(dataDir, "bin"), path18.dirname(realpathSync2(process.execPath))];
    const modules = path18.join(REPO_ROOT, "node_modules");
    if (existsSync5(modules)) readOnly.push(realpathSync2(modules));
    if (this.gitGlobalConfig) readOnly.push(this.gitGlobalConfig);
    let resolvConf = null;
    try {
      resolvConf = realpathSync2("/etc/resolv.conf");
    } catch {
    }
    const plan = {
      bwrap: tools.bwrap,
      env: tools.env,
      worktree: repo.root,
      gitDir: repo.gitDir,
      commonDir: repo.commonDir,
      dataDir,
      home: realpathSync2(d.home),
      tmp: realpathSync2(d.tmp),
      socket: tools.socket,
      network: opts.network,
      readOnly: readOnly.filter((p) => existsSync5(p)),
      resolvConf,
      dropCapabilities: runningAsRoot()
    };
    const gitGlobal = this.gitGlobalConfig;
    return {
      network: opts.network,
      wrap(argv, env) {
        const out = { ...env, HOME: plan.home, TMPDIR: plan.tmp, XDG_RUNTIME_DIR: plan.tmp, YARD_SOCKET: SANDBOX_SOCKET };
        delete out.SSH_AUTH_SOCK;
        delete out.DBUS_SESSION_BUS_ADDRESS;
        if (gitGlobal && !env.GIT_CONFIG_GLOBAL) out.GIT_CONFIG_GLOBAL = gitGlobal;
        return { argv: buildSandboxArgv(plan, argv), env: out };
      }
    };
  }
};
function findGitGlobalConfig() {
  const home = os4.homedir();
  const xdg = process.env.XDG_CONFIG_HOME || path18.join(home, ".config");
  for (const p of [path18.join(home, ".gitconfig"), path18.join(xdg, "git", "config")]) {
    try {
      if (statSync6(p).isFile()) return realpathSync2(p);
    } catch {
    }
  }
  return null;
}

// server/core/reviews/anchor.ts
var QUOTE_MAX_LINES = 200;
var HUNK = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/;
function diffLines(patch, files) {
  const sections = [];
  let cur = null;
  for (const line2 of patch.split("\n")) {
    if (line2.startsWith("diff --git ")) {
      cur = [];
      sections.push(cur);
    } else if (cur) cur.push(line2);
  }
  const out = /* @__PURE__ */ new Map();
  files.forEach((f, i) => {
    const lines = { path: f.path, status: f.status, binary: f.binary, old: /* @__PURE__ */ new Map(), new: /* @__PURE__ */ new Map() };
    let oldNo = 0;
    let newNo = 0;
    let inHunk = false;
    for (const line2 of sections[i] ?? []) {
      const h = HUNK.exec(line2);
      if (h) {
        oldNo = Number(h[1]);
        newNo = Number(h[2]);
        inHunk = true;
        continue;
      }
      if (!inHunk) continue;
      const c = line2.charAt(0);
      if (c === " ") {
        lines.old.set(oldNo++, line2.slice(1));
        lines.new.set(newNo++, line2.slice(1));
      } else if (c === "-") lines.old.set(oldNo++, line2.slice(1));
      else if (c === "+") lines.new.set(newNo++, line2.slice(1));
      else if (c !== "\\") inHunk = false;
    }
    out.set(f.path, lines);
  });
  return out;
}
function shownRanges(lines) {
  const nums = [...lines.keys()].sort((a, b) => a - b);
  const runs = [];
  for (let i = 0; i < nums.length; ) {
    let j = i;
    while (j + 1 < nums.length && nums[j + 1] === nums[j] + 1) j++;
    runs.push(nums[i] === nums[j] ? `${nums[i]}` : `${nums[i]}-${nums[j]}`);
    i = j + 1;
  }
  return runs.join(", ");
}
function quoteFor(file, side, start, end) {
  const where = start === end ? `line ${start}` : `lines ${start}-${end}`;
  if (file.binary) throw new YardError("BAD_PARAMS", `${file.path} is a binary file; it has no lines to comment on`, { path: file.path });
  const shown = file[side];
  if (shown.size === 0) {
    const why = side === "new" ? file.status === "deleted" ? "the file was deleted" : "nothing is shown" : file.status === "added" ? "the file is new" : "nothing is shown";
    throw new YardError("BAD_PARAMS", `${file.path} has no ${side}-side lines in this diff (${why}); comment on the ${side === "new" ? "old" : "new"} side`, { path: file.path, side });
  }
  const missing = [];
  for (let n = start; n <= end && missing.length < 1; n++) if (!shown.has(n)) missing.push(n);
  if (missing.length) {
    throw new YardError("BAD_PARAMS", `${file.path}: ${where} on the ${side} side ${start === end ? "is" : "are"} not all in this diff (line ${missing[0]} is not); the diff shows ${side}-side lines ${shownRanges(shown)}`, {
      path: file.path,
      side,
      startLine: start,
      endLine: end,
      firstMissing: missing[0],
      shown: shownRanges(shown)
    });
  }
  const out = [];
  for (let n = start; n <= end && out.length < QUOTE_MAX_LINES; n++) out.push(shown.get(n));
  const more = end - start + 1 - out.length;
  if (more > 0) out.push(`\u2026 (${more} more lines)`);
  return out.join("\n");
}
function fenceFor(code) {
  let longest = 0;
  for (const m of code.matchAll(/`+/g)) longest = Math.max(longest, m[0].length);
  return "`".repeat(Math.max(3, longest + 1));
}
function feedbackPrompt(round, summary, comments) {
  const parts = [`Review of round ${round}: changes requested.`];
  if (summary?.trim()) parts.push("", summary.trim());
  if (comments.length) {
    parts.push("", comments.length === 1 ? "1 comment on the diff:" : `${comments.length} comments on the diff:`);
    for (const c of comments) {
      const lines = c.startLine === c.endLine ? `${c.startLine}` : `${c.startLine}-${c.endLine}`;
      const fence = fenceFor(c.quote);
      parts.push("", `${c.path}:${lines}${c.side === "old" ? " (the base version's lines)" : ""}`, c.body.trim(), fence, c.quote, fence);
    }
  }
  parts.push("", "Make these changes in this worktree, commit them, and report again with yard task report.");
  return parts.join("\n");
}

// server/core/reviews/service.ts
var authorOf = (a) => a.kind === "user" ? "user" : a.paneId;
var ReviewService = class {
  constructor(deps) {
    this.deps = deps;
  }
  deps;
  /** Serializes reviews per task: two submits cannot both start a round. */
  chains = /* @__PURE__ */ new Map();
  // ---- comments ------------------------------------------------------------------------
  /** A draft comment on the current round's diff; BAD_PARAMS (creating nothing) unless the diff shows those lines. */
  async addComment(input, by) {
    const task = await this.deps.tasks.get(input.taskId);
    if (task.disposition) throw new YardError("CONFLICT", `The task is already ${task.disposition}; it takes no more comments`, { disposition: task.disposition });
    if (task.state === "backlog") throw new YardError("CONFLICT", "The task is in the backlog; it has no diff to comment on yet", { state: task.state });
    const diff = await this.deps.tasks.diff(input.taskId);
    const endLine = input.endLine ?? input.startLine;
    const file = diffLines(diff.diff, diff.files).get(input.path);
    if (!file) {
      throw new YardError("BAD_PARAMS", `${input.path} is not in round ${task.round}'s diff${diff.files.length ? ` (it changes ${diff.files.map((f) => f.path).join(", ")})` : " (the diff is empty)"}`, {
        path: input.path,
        files: diff.files.map((f) => f.path)
      });
    }
    const quote = quoteFor(file, input.side, input.startLine, endLine);
    const comment = await this.deps.store.createComment({
      id: newId("cmt"),
      taskId: input.taskId,
      round: task.round,
      path: input.path,
      startLine: input.startLine,
      endLine,
      side: input.side,
      body: input.body,
      quote,
      author: authorOf(by)
    });
    await this.journal(comment, "added");
    return comment;
  }
  /** A draft's author (or the user) may change its text; a submitted comment was sent as written. */
  async editComment(input, by) {
    const c = await this.draft(input.id, by, "edit");
    const comment = await this.deps.store.updateComment(c.id, { body: input.body });
    await this.journal(comment, "edited");
    return comment;
  }
  /** Anyone reviewing may resolve (or reopen) any comment, draft or submitted. */
  async resolveComment(input, _by) {
    const c = await this.existing(input.id);
    if (c.resolved === input.resolved) return c;
    const comment = await this.deps.store.updateComment(c.id, { resolved: input.resolved });
    await this.journal(comment, input.resolved ? "resolved" : "reopened");
    return comment;
  }
  /** Only drafts can be deleted (a submitted comment is part of its round's record), by their author or the user. */
  async deleteComment(input, by) {
    const c = await this.draft(input.id, by, "delete");
    await this.deps.store.deleteComment(c.id);
    await this.journal(c, "deleted");
    return c;
  }
  async listComments(input) {
    await this.deps.tasks.get(input.taskId);
    return this.deps.store.comments(input.taskId, input.round);
  }
  async existing(id2) {
    const c = await this.deps.store.comment(id2);
    if (!c) throw new YardError("NOT_FOUND", `No comment ${id2}`, { commentId: id2 });
    return c;
  }
  async draft(id2, by, what) {
    const c = await this.existing(id2);
    if (by.kind !== "user" && c.author !== authorOf(by)) throw new YardError("FORBIDDEN", `Only its author or the user may ${what} comment ${id2}`, { commentId: id2, author: c.author });
    if (c.reviewId) throw new YardError("CONFLICT", `Comment ${id2} was submitted with review ${c.reviewId}; it is part of round ${c.round}'s record and cannot be ${what === "edit" ? "edited" : "deleted"} (resolve it instead)`, { commentId: id2, reviewId: c.reviewId });
    return c;
  }
  async journal(c, action) {
    await this.deps.journal.append("task.comment", { taskId: c.taskId, payload: { action, commentId: c.id, round: c.round, path: c.path, startLine: c.startLine, endLine: c.endLine } });
  }
  // ---- reviews -------------------------------------------------------------------------
  /**
   * Approve (the task must be completed and not finished: TASK_NOT_COMPLETED otherwise) or
   * request changes (completed or input_required: CONFLICT otherwise), taking the round's
   * unresolved draft comments with it. Request changes starts the next round with the summary
   * and those comments as its prompt; when that round cannot start, the review is undone.
   */
  submitReview(input, by) {
    const run2 = () => this.submitNow(input, by);
    const prev = this.chains.get(input.taskId) ?? Promise.resolve();
    const p = prev.then(run2, run2);
    this.chains.set(input.taskId, p.catch(() => {
    }));
    return p;
  }
  async submitNow(input, by) {
    const task = await this.deps.tasks.get(input.taskId);
    const summary = input.summary ? input.summary : null;
    if (input.verdict === "approve") {
      if (task.state !== "completed" || task.disposition) {
        throw new YardError("TASK_NOT_COMPLETED", task.disposition ? `The task is already ${task.disposition}; there is nothing left to approve` : `Only a completed task can be approved; this one is ${task.state}`, {
          state: task.state,
          disposition: task.disposition
        });
      }
      if (await this.deps.store.status(task.id, task.round) === "approved") throw new YardError("CONFLICT", `Round ${task.round} is already approved`, { round: task.round });
    } else {
      if (task.disposition) throw new YardError("CONFLICT", `The task is already ${task.disposition}; it takes no more rounds`, { disposition: task.disposition });
      if (task.state !== "completed" && task.state !== "input_required") {
        throw new YardError("CONFLICT", `Changes can be requested of a completed or input_required task; this one is ${task.state}`, { state: task.state });
      }
    }
    const drafts = await this.deps.store.drafts(task.id, task.round, { unresolvedOnly: true });
    if (input.verdict === "request_changes" && !summary && drafts.length === 0) {
      throw new YardError("BAD_PARAMS", "Requesting changes needs a summary or at least one unresolved comment: that is what the agent is sent", { taskId: task.id });
    }
    const review2 = await this.deps.store.createReview(
      {
        id: newId("rev"),
        taskId: task.id,
        round: task.round,
        stage: by.kind === "user" ? "human" : "agent",
        reviewer: authorOf(by),
        verdict: input.verdict === "approve" ? "approved" : "changes_requested",
        summary,
        reviewedTree: await this.deps.tasks.snapshot(task.id)
      },
      drafts.map((c) => c.id)
    );
    if (input.verdict === "approve") {
      await this.deps.journal.append("task.review", { taskId: task.id, payload: { reviewId: review2.id, round: review2.round, verdict: review2.verdict, comments: review2.comments.length } });
      return { review: review2, task: await this.deps.tasks.get(task.id) };
    }
    let next;
    try {
      next = await this.deps.tasks.startNextRound(task.id, feedbackPrompt(task.round, summary, review2.comments));
    } catch (e) {
      await this.deps.store.deleteReview(review2.id);
      throw e;
    }
    await this.deps.journal.append("task.review", { taskId: task.id, payload: { reviewId: review2.id, round: review2.round, verdict: review2.verdict, comments: review2.comments.length, nextRound: next.round } });
    return { review: review2, task: next };
  }
  async listReviews(input) {
    const task = await this.deps.tasks.get(input.taskId);
    return { reviews: await this.deps.store.reviews(input.taskId, input.round), round: task.round, status: task.reviewStatus };
  }
  /** Where the task's current round's review stands. */
  async reviewStatus(taskId3) {
    const task = await this.deps.tasks.get(taskId3);
    return { round: task.round, status: await this.deps.store.status(taskId3, task.round) };
  }
  // ---- reads across rounds -------------------------------------------------------------
  /** Every round with its prompt, result, evidence and the reviews (with comments) of that round. */
  async rounds(taskId3) {
    const [records, reviews] = await Promise.all([this.deps.tasks.roundRecords(taskId3), this.deps.store.reviews(taskId3)]);
    return records.map((r) => ({ ...r, reviews: reviews.filter((v) => v.round === r.number) }));
  }
  /** The diff from the last review's snapshot to the worktree now (CONFLICT before any review). */
  async changesSinceLastReview(taskId3) {
    await this.deps.tasks.get(taskId3);
    const last = await this.deps.store.lastReviewWithTree(taskId3);
    if (!last?.reviewedTree) throw new YardError("CONFLICT", "No review of this task has been submitted yet, so there are no changes since one; ask for the whole diff instead", { taskId: taskId3 });
    const d = await this.deps.tasks.diffSince(taskId3, last.reviewedTree);
    return { ...d, since: { reviewId: last.id, round: last.round, verdict: last.verdict, tree: last.reviewedTree, createdAt: last.createdAt } };
  }
};

// server/db/index.ts
init_root();
import { chmodSync as chmodSync5, closeSync as closeSync2, existsSync as existsSync7, mkdirSync as mkdirSync4, openSync as openSync2 } from "node:fs";
import path22 from "node:path";
import Database2 from "better-sqlite3";
import { PrismaBetterSqlite3 as PrismaBetterSqlite32 } from "@prisma/adapter-better-sqlite3";

// server/db/generated/client.ts
import * as path19 from "node:path";
import { fileURLToPath as fileURLToPath2 } from "node:url";

// server/db/generated/internal/class.ts
import * as runtime from "@prisma/client/runtime/client";
var config = {
  "previewFeatures": [],
  "clientVersion": "7.10.0",
  "engineVersion": "0edf323efd1d98336f3f0a68684b56f689b900d3",
  "activeProvider": "sqlite",
  "inlineSchema": `// Switchyard's data model. SQLite through the better-sqlite3 driver adapter.
// Change it here, then run \`npm run migrate:new -- <name>\` to write the SQL migration;
// tests/schema-drift.test.ts fails when this file and prisma/migrations disagree.

generator client {
  provider     = "prisma-client"
  output       = "../server/db/generated"
  moduleFormat = "esm"
}

datasource db {
  provider = "sqlite"
}

model Project {
  id            String   @id
  path          String   @unique
  name          String
  defaultTarget String?
  createdAt     DateTime @default(now())
  updatedAt     DateTime @updatedAt
  tasks         Task[]
}

model AgentProfile {
  id             String   @id
  name           String
  role           String // worker | reviewer | planner
  argv           String // JSON array: argv template
  supportsHooks  Boolean  @default(false)
  env            String   @default("{}") // JSON object
  builtIn        Boolean  @default(false)
  createdAt      DateTime @default(now())
  updatedAt      DateTime @updatedAt
  sandbox        Boolean  @default(false) // its tasks run in the OS sandbox
  sandboxNetwork Boolean  @default(false) // with the host's network inside the sandbox
}

model Task {
  id                 String           @id
  title              String
  label              String?
  contextId          String?
  projectId          String?
  project            Project?         @relation(fields: [projectId], references: [id], onDelete: SetNull)
  repoPath           String
  agent              String // agent profile id, or "custom"
  argv               String? // JSON array when launched with a custom argv
  objective          String
  constraints        String           @default("[]") // JSON string[]
  acceptanceCriteria String           @default("[]") // JSON string[]
  outputFormat       String?
  parentTaskId       String?
  rootTaskId         String?
  parentPaneId       String?
  paneId             String?
  state              String // backlog | pending | working | input_required | completed | failed | canceled | rejected
  round              Int              @default(1)
  baseRef            String?
  baseSha            String?
  targetBranch       String?
  branch             String?
  branchPreexisting  Boolean          @default(false)
  worktreePath       String?
  evidence           String? // JSON: why the task is where it is (failed, input_required)
  disposition        String? // merged | discarded
  mergeCommit        String?
  cleanupError       String?
  finishedAt         DateTime?
  requiresPlanning   Boolean          @default(false)
  startOptions       String? // JSON: a backlog task's launch options (branch, path, fetch, timeouts) until it starts
  createdAt          DateTime         @default(now())
  updatedAt          DateTime         @updatedAt
  sandboxed          Boolean          @default(false) // the agent runs in the OS sandbox
  rounds             TaskRound[]
  dependencies       TaskDependency[] @relation("dependent")
  dependents         TaskDependency[] @relation("dependency")
  reviews            Review[]
  comments           ReviewComment[]
  plans              Plan[]
  messages           Message[]

  @@index([contextId])
  @@index([state])
  @@index([projectId])
}

model TaskRound {
  id        String    @id
  taskId    String
  task      Task      @relation(fields: [taskId], references: [id], onDelete: Cascade)
  number    Int
  state     String
  result    String? // JSON {status, summary, artifacts, changedFiles, evidence}
  evidence  String? // JSON
  paneId    String?
  prompt    String? // the prompt that started the round: the contract, or review feedback
  startedAt DateTime  @default(now())
  endedAt   DateTime?

  @@unique([taskId, number])
}

model TaskDependency {
  taskId      String
  task        Task   @relation("dependent", fields: [taskId], references: [id], onDelete: Cascade)
  dependsOnId String
  dependsOn   Task   @relation("dependency", fields: [dependsOnId], references: [id], onDelete: Cascade)

  @@id([taskId, dependsOnId])
}

model Pane {
  id           String    @id
  argv         String // JSON array
  cwd          String
  label        String?
  parentPaneId String?
  rootPaneId   String?
  relationship String? // fork | subagent
  taskId       String?
  agent        String?
  lifecycle    String // starting | idle | working | blocked | done | exited | unknown
  lifecycleSeq Int       @default(0)
  doneSeen     Boolean   @default(true)
  pid          Int?
  exitCode     Int?
  signal       Int?
  cols         Int       @default(120)
  rows         Int       @default(32)
  tokenHash    String?
  createdAt    DateTime  @default(now())
  updatedAt    DateTime  @updatedAt
  exitedAt     DateTime?
  sandboxed    Boolean   @default(false)

  @@index([taskId])
}

model Event {
  seq     Int      @id @default(autoincrement())
  type    String
  taskId  String?
  paneId  String?
  payload String   @default("{}") // JSON
  time    DateTime @default(now())

  @@index([type])
  @@index([taskId])
  @@index([paneId])
}

model Review {
  id           String          @id
  taskId       String
  task         Task            @relation(fields: [taskId], references: [id], onDelete: Cascade)
  round        Int
  stage        String // agent | human
  reviewerKind String // e.g. person, agent profile id
  verdict      String // approved | changes_requested
  summary      String?
  reviewedTree String? // the worktree's tree when the review was submitted ("changes since last review")
  createdAt    DateTime        @default(now())
  comments     ReviewComment[]

  @@index([taskId, round])
}

model ReviewComment {
  id        String   @id
  reviewId  String?
  review    Review?  @relation(fields: [reviewId], references: [id], onDelete: Cascade)
  taskId    String
  task      Task     @relation(fields: [taskId], references: [id], onDelete: Cascade)
  round     Int
  path      String
  startLine Int
  endLine   Int
  side      String // old | new
  body      String
  quote     String   @default("") // the code lines the comment is about, as the diff showed them
  author    String   @default("user") // "user", or the orchestrator pane that wrote it
  resolved  Boolean  @default(false)
  createdAt DateTime @default(now())
  updatedAt DateTime @updatedAt

  @@index([taskId, round])
  @@index([reviewId])
}

model Plan {
  id          String       @id
  taskId      String
  task        Task         @relation(fields: [taskId], references: [id], onDelete: Cascade)
  state       String // draft | in_review | approved | decomposed
  round       Int          @default(1)
  body        String
  annotations String       @default("[]") // JSON
  createdAt   DateTime     @default(now())
  updatedAt   DateTime     @updatedAt
  reviews     PlanReview[]

  @@index([taskId])
}

model PlanReview {
  id          String   @id
  planId      String
  plan        Plan     @relation(fields: [planId], references: [id], onDelete: Cascade)
  round       Int
  verdict     String // approved | changes_requested
  summary     String?
  annotations String   @default("[]") // JSON
  createdAt   DateTime @default(now())
}

model Message {
  id        String   @id
  taskId    String
  task      Task     @relation(fields: [taskId], references: [id], onDelete: Cascade)
  author    String
  kind      String // question | answer | information
  body      String
  createdAt DateTime @default(now())

  @@index([taskId])
}
`,
  "runtimeDataModel": {
    "models": {},
    "enums": {},
    "types": {}
  },
  "parameterizationSchema": {
    "strings": [],
    "graph": ""
  }
};
config.runtimeDataModel = JSON.parse('{"models":{"Project":{"fields":[{"name":"id","kind":"scalar","type":"String"},{"name":"path","kind":"scalar","type":"String"},{"name":"name","kind":"scalar","type":"String"},{"name":"defaultTarget","kind":"scalar","type":"String"},{"name":"createdAt","kind":"scalar","type":"DateTime"},{"name":"updatedAt","kind":"scalar","type":"DateTime"},{"name":"tasks","kind":"object","type":"Task","relationName":"ProjectToTask"}],"dbName":null,"schema":null},"AgentProfile":{"fields":[{"name":"id","kind":"scalar","type":"String"},{"name":"name","kind":"scalar","type":"String"},{"name":"role","kind":"scalar","type":"String"},{"name":"argv","kind":"scalar","type":"String"},{"name":"supportsHooks","kind":"scalar","type":"Boolean"},{"name":"env","kind":"scalar","type":"String"},{"name":"builtIn","kind":"scalar","type":"Boolean"},{"name":"createdAt","kind":"scalar","type":"DateTime"},{"name":"updatedAt","kind":"scalar","type":"DateTime"},{"name":"sandbox","kind":"scalar","type":"Boolean"},{"name":"sandboxNetwork","kind":"scalar","type":"Boolean"}],"dbName":null,"schema":null},"Task":{"fields":[{"name":"id","kind":"scalar","type":"String"},{"name":"title","kind":"scalar","type":"String"},{"name":"label","kind":"scalar","type":"String"},{"name":"contextId","kind":"scalar","type":"String"},{"name":"projectId","kind":"scalar","type":"String"},{"name":"project","kind":"object","type":"Project","relationName":"ProjectToTask"},{"name":"repoPath","kind":"scalar","type":"String"},{"name":"agent","kind":"scalar","type":"String"},{"name":"argv","kind":"scalar","type":"String"},{"name":"objective","kind":"scalar","type":"String"},{"name":"constraints","kind":"scalar","type":"String"},{"name":"acceptanceCriteria","kind":"scalar","type":"String"},{"name":"outputFormat","kind":"scalar","type":"String"},{"name":"parentTaskId","kind":"scalar","type":"String"},{"name":"rootTaskId","kind":"scalar","type":"String"},{"name":"parentPaneId","kind":"scalar","type":"String"},{"name":"paneId","kind":"scalar","type":"String"},{"name":"state","kind":"scalar","type":"String"},{"name":"round","kind":"scalar","type":"Int"},{"name":"baseRef","kind":"scalar","type":"String"},{"name":"baseSha","kind":"scalar","type":"String"},{"name":"targetBranch","kind":"scalar","type":"String"},{"name":"branch","kind":"scalar","type":"String"},{"name":"branchPreexisting","kind":"scalar","type":"Boolean"},{"name":"worktreePath","kind":"scalar","type":"String"},{"name":"evidence","kind":"scalar","type":"String"},{"name":"disposition","kind":"scalar","type":"String"},{"name":"mergeCommit","kind":"scalar","type":"String"},{"name":"cleanupError","kind":"scalar","type":"String"},{"name":"finishedAt","kind":"scalar","type":"DateTime"},{"name":"requiresPlanning","kind":"scalar","type":"Boolean"},{"name":"startOptions","kind":"scalar","type":"String"},{"name":"createdAt","kind":"scalar","type":"DateTime"},{"name":"updatedAt","kind":"scalar","type":"DateTime"},{"name":"sandboxed","kind":"scalar","type":"Boolean"},{"name":"rounds","kind":"object","type":"TaskRound","relationName":"TaskToTaskRound"},{"name":"dependencies","kind":"object","type":"TaskDependency","relationName":"dependent"},{"name":"dependents","kind":"object","type":"TaskDependency","relationName":"dependency"},{"name":"reviews","kind":"object","type":"Review","relationName":"ReviewToTask"},{"name":"comments","kind":"object","type":"ReviewComment","relationName":"ReviewCommentToTask"},{"name":"plans","kind":"object","type":"Plan","relationName":"PlanToTask"},{"name":"messages","kind":"object","type":"Message","relationName":"MessageToTask"}],"dbName":null,"schema":null},"TaskRound":{"fields":[{"name":"id","kind":"scalar","type":"String"},{"name":"taskId","kind":"scalar","type":"String"},{"name":"task","kind":"object","type":"Task","relationName":"TaskToTaskRound"},{"name":"number","kind":"scalar","type":"Int"},{"name":"state","kind":"scalar","type":"String"},{"name":"result","kind":"scalar","type":"String"},{"name":"evidence","kind":"scalar","type":"String"},{"name":"paneId","kind":"scalar","type":"String"},{"name":"prompt","kind":"scalar","type":"String"},{"name":"startedAt","kind":"scalar","type":"DateTime"},{"name":"endedAt","kind":"scalar","type":"DateTime"}],"dbName":null,"schema":null},"TaskDependency":{"fields":[{"name":"taskId","kind":"scalar","type":"String"},{"name":"task","kind":"object","type":"Task","relationName":"dependent"},{"name":"dependsOnId","kind":"scalar","type":"String"},{"name":"dependsOn","kind":"object","type":"Task","relationName":"dependency"}],"dbName":null,"schema":null},"Pane":{"fields":[{"name":"id","kind":"scalar","type":"String"},{"name":"argv","kind":"scalar","type":"String"},{"name":"cwd","kind":"scalar","type":"String"},{"name":"label","kind":"scalar","type":"String"},{"name":"parentPaneId","kind":"scalar","type":"String"},{"name":"rootPaneId","kind":"scalar","type":"String"},{"name":"relationship","kind":"scalar","type":"String"},{"name":"taskId","kind":"scalar","type":"String"},{"name":"agent","kind":"scalar","type":"String"},{"name":"lifecycle","kind":"scalar","type":"String"},{"name":"lifecycleSeq","kind":"scalar","type":"Int"},{"name":"doneSeen","kind":"scalar","type":"Boolean"},{"name":"pid","kind":"scalar","type":"Int"},{"name":"exitCode","kind":"scalar","type":"Int"},{"name":"signal","kind":"scalar","type":"Int"},{"name":"cols","kind":"scalar","type":"Int"},{"name":"rows","kind":"scalar","type":"Int"},{"name":"tokenHash","kind":"scalar","type":"String"},{"name":"createdAt","kind":"scalar","type":"DateTime"},{"name":"updatedAt","kind":"scalar","type":"DateTime"},{"name":"exitedAt","kind":"scalar","type":"DateTime"},{"name":"sandboxed","kind":"scalar","type":"Boolean"}],"dbName":null,"schema":null},"Event":{"fields":[{"name":"seq","kind":"scalar","type":"Int"},{"name":"type","kind":"scalar","type":"String"},{"name":"taskId","kind":"scalar","type":"String"},{"name":"paneId","kind":"scalar","type":"String"},{"name":"payload","kind":"scalar","type":"String"},{"name":"time","kind":"scalar","type":"DateTime"}],"dbName":null,"schema":null},"Review":{"fields":[{"name":"id","kind":"scalar","type":"String"},{"name":"taskId","kind":"scalar","type":"String"},{"name":"task","kind":"object","type":"Task","relationName":"ReviewToTask"},{"name":"round","kind":"scalar","type":"Int"},{"name":"stage","kind":"scalar","type":"String"},{"name":"reviewerKind","kind":"scalar","type":"String"},{"name":"verdict","kind":"scalar","type":"String"},{"name":"summary","kind":"scalar","type":"String"},{"name":"reviewedTree","kind":"scalar","type":"String"},{"name":"createdAt","kind":"scalar","type":"DateTime"},{"name":"comments","kind":"object","type":"ReviewComment","relationName":"ReviewToReviewComment"}],"dbName":null,"schema":null},"ReviewComment":{"fields":[{"name":"id","kind":"scalar","type":"String"},{"name":"reviewId","kind":"scalar","type":"String"},{"name":"review","kind":"object","type":"Review","relationName":"ReviewToReviewComment"},{"name":"taskId","kind":"scalar","type":"String"},{"name":"task","kind":"object","type":"Task","relationName":"ReviewCommentToTask"},{"name":"round","kind":"scalar","type":"Int"},{"name":"path","kind":"scalar","type":"String"},{"name":"startLine","kind":"scalar","type":"Int"},{"name":"endLine","kind":"scalar","type":"Int"},{"name":"side","kind":"scalar","type":"String"},{"name":"body","kind":"scalar","type":"String"},{"name":"quote","kind":"scalar","type":"String"},{"name":"author","kind":"scalar","type":"String"},{"name":"resolved","kind":"scalar","type":"Boolean"},{"name":"createdAt","kind":"scalar","type":"DateTime"},{"name":"updatedAt","kind":"scalar","type":"DateTime"}],"dbName":null,"schema":null},"Plan":{"fields":[{"name":"id","kind":"scalar","type":"String"},{"name":"taskId","kind":"scalar","type":"String"},{"name":"task","kind":"object","type":"Task","relationName":"PlanToTask"},{"name":"state","kind":"scalar","type":"String"},{"name":"round","kind":"scalar","type":"Int"},{"name":"body","kind":"scalar","type":"String"},{"name":"annotations","kind":"scalar","type":"String"},{"name":"createdAt","kind":"scalar","type":"DateTime"},{"name":"updatedAt","kind":"scalar","type":"DateTime"},{"name":"reviews","kind":"object","type":"PlanReview","relationName":"PlanToPlanReview"}],"dbName":null,"schema":null},"PlanReview":{"fields":[{"name":"id","kind":"scalar","type":"String"},{"name":"planId","kind":"scalar","type":"String"},{"name":"plan","kind":"object","type":"Plan","relationName":"PlanToPlanReview"},{"name":"round","kind":"scalar","type":"Int"},{"name":"verdict","kind":"scalar","type":"String"},{"name":"summary","kind":"scalar","type":"String"},{"name":"annotations","kind":"scalar","type":"String"},{"name":"createdAt","kind":"scalar","type":"DateTime"}],"dbName":null,"schema":null},"Message":{"fields":[{"name":"id","kind":"scalar","type":"String"},{"name":"taskId","kind":"scalar","type":"String"},{"name":"task","kind":"object","type":"Task","relationName":"MessageToTask"},{"name":"author","kind":"scalar","type":"String"},{"name":"kind","kind":"scalar","type":"String"},{"name":"body","kind":"scalar","type":"String"},{"name":"createdAt","kind":"scalar","type":"DateTime"}],"dbName":null,"schema":null}},"enums":{},"types":{}}');
config.parameterizationSchema = {
  strings: JSON.parse('["where","orderBy","cursor","project","task","rounds","dependsOn","dependencies","dependents","review","comments","_count","reviews","plan","plans","messages","tasks","Project.findUnique","Project.findUniqueOrThrow","Project.findFirst","Project.findFirstOrThrow","Project.findMany","data","Project.createOne","Project.createMany","Project.createManyAndReturn","Project.updateOne","Project.updateMany","Project.updateManyAndReturn","create","update","Project.upsertOne","Project.deleteOne","Project.deleteMany","having","_min","_max","Project.groupBy","Project.aggregate","AgentProfile.findUnique","AgentProfile.findUniqueOrThrow","AgentProfile.findFirst","AgentProfile.findFirstOrThrow","AgentProfile.findMany","AgentProfile.createOne","AgentProfile.createMany","AgentProfile.createManyAndReturn","AgentProfile.updateOne","AgentProfile.updateMany","AgentProfile.updateManyAndReturn","AgentProfile.upsertOne","AgentProfile.deleteOne","AgentProfile.deleteMany","AgentProfile.groupBy","AgentProfile.aggregate","Task.findUnique","Task.findUniqueOrThrow","Task.findFirst","Task.findFirstOrThrow","Task.findMany","Task.createOne","Task.createMany","Task.createManyAndReturn","Task.updateOne","Task.updateMany","Task.updateManyAndReturn","Task.upsertOne","Task.deleteOne","Task.deleteMany","_avg","_sum","Task.groupBy","Task.aggregate","TaskRound.findUnique","TaskRound.findUniqueOrThrow","TaskRound.findFirst","TaskRound.findFirstOrThrow","TaskRound.findMany","TaskRound.createOne","TaskRound.createMany","TaskRound.createManyAndReturn","TaskRound.updateOne","TaskRound.updateMany","TaskRound.updateManyAndReturn","TaskRound.upsertOne","TaskRound.deleteOne","TaskRound.deleteMany","TaskRound.groupBy","TaskRound.aggregate","TaskDependency.findUnique","TaskDependency.findUniqueOrThrow","TaskDependency.findFirst","TaskDependency.findFirstOrThrow","TaskDependency.findMany","TaskDependency.createOne","TaskDependency.createMany","TaskDependency.createManyAndReturn","TaskDependency.updateOne","TaskDependency.updateMany","TaskDependency.updateManyAndReturn","TaskDependency.upsertOne","TaskDependency.deleteOne","TaskDependency.deleteMany","TaskDependency.groupBy","TaskDependency.aggregate","Pane.findUnique","Pane.findUniqueOrThrow","Pane.findFirst","Pane.findFirstOrThrow","Pane.findMany","Pane.createOne","Pane.createMany","Pane.createManyAndReturn","Pane.updateOne","Pane.updateMany","Pane.updateManyAndReturn","Pane.upsertOne","Pane.deleteOne","Pane.deleteMany","Pane.groupBy","Pane.aggregate","Event.findUnique","Event.findUniqueOrThrow","Event.findFirst","Event.findFirstOrThrow","Event.findMany","Event.createOne","Event.createMany","Event.createManyAndReturn","Event.updateOne","Event.updateMany","Event.updateManyAndReturn","Event.upsertOne","Event.deleteOne","Event.deleteMany","Event.groupBy","Event.aggregate","Review.findUnique","Review.findUniqueOrThrow","Review.findFirst","Review.findFirstOrThrow","Review.findMany","Review.createOne","Review.createMany","Review.createManyAndReturn","Review.updateOne","Review.updateMany","Review.updateManyAndReturn","Review.upsertOne","Review.deleteOne","Review.deleteMany","Review.groupBy","Review.aggregate","ReviewComment.findUnique","ReviewComment.findUniqueOrThrow","ReviewComment.findFirst","ReviewComment.findFirstOrThrow","ReviewComment.findMany","ReviewComment.createOne","ReviewComment.createMany","ReviewComment.createManyAndReturn","ReviewComment.updateOne","ReviewComment.updateMany","ReviewComment.updateManyAndReturn","ReviewComment.upsertOne","ReviewComment.deleteOne","ReviewComment.deleteMany","ReviewComment.groupBy","ReviewComment.aggregate","Plan.findUnique","Plan.findUniqueOrThrow","Plan.findFirst","Plan.findFirstOrThrow","Plan.findMany","Plan.createOne","Plan.createMany","Plan.createManyAndReturn","Plan.updateOne","Plan.updateMany","Plan.updateManyAndReturn","Plan.upsertOne","Plan.deleteOne","Plan.deleteMany","Plan.groupBy","Plan.aggregate","PlanReview.findUnique","PlanReview.findUniqueOrThrow","PlanReview.findFirst","PlanReview.findFirstOrThrow","PlanReview.findMany","PlanReview.createOne","PlanReview.createMany","PlanReview.createManyAndReturn","PlanReview.updateOne","PlanReview.updateMany","PlanReview.updateManyAndReturn","PlanReview.upsertOne","PlanReview.deleteOne","PlanReview.deleteMany","PlanReview.groupBy","PlanReview.aggregate","Message.findUnique","Message.findUniqueOrThrow","Message.findFirst","Message.findFirstOrThrow","Message.findMany","Message.createOne","Message.createMany","Message.createManyAndReturn","Message.updateOne","Message.updateMany","Message.updateManyAndReturn","Message.upsertOne","Message.deleteOne","Message.deleteMany","Message.groupBy","Message.aggregate","AND","OR","NOT","id","taskId","author","kind","body","createdAt","equals","in","notIn","lt","lte","gt","gte","not","contains","startsWith","endsWith","planId","round","verdict","summary","annotations","state","updatedAt","reviewId","path","startLine","endLine","side","quote","resolved","stage","reviewerKind","reviewedTree","seq","type","paneId","payload","time","argv","cwd","label","parentPaneId","rootPaneId","relationship","agent","lifecycle","lifecycleSeq","doneSeen","pid","exitCode","signal","cols","rows","tokenHash","exitedAt","sandboxed","dependsOnId","number","result","evidence","prompt","startedAt","endedAt","title","contextId","projectId","repoPath","objective","constraints","acceptanceCriteria","outputFormat","parentTaskId","rootTaskId","baseRef","baseSha","targetBranch","branch","branchPreexisting","worktreePath","disposition","mergeCommit","cleanupError","finishedAt","requiresPlanning","startOptions","name","role","supportsHooks","env","builtIn","sandbox","sandboxNetwork","defaultTarget","every","some","none","taskId_dependsOnId","taskId_number","is","isNot","connectOrCreate","upsert","createMany","set","disconnect","delete","connect","updateMany","deleteMany","increment","decrement","multiply","divide"]'),
  graph: "qAV1wAEKEAAAgwMAINkBAACCAwAw2gEAAAcAENsBAACCAwAw3AEBAAAAAeEBQADiAgAh8wFAAOICACH1AQEAAAABsgIBAOACACG5AgEA4QIAIQEAAAABACAtAwAAhQMAIAUAAIYDACAHAACHAwAgCAAAhwMAIAoAAP0CACAMAACIAwAgDgAAiQMAIA8AAIoDACDZAQAAhAMAMNoBAAADABDbAQAAhAMAMNwBAQDgAgAh4QFAAOICACHuAQIA3wIAIfIBAQDgAgAh8wFAAOICACGAAgEA4QIAIYMCAQDhAgAhhQIBAOECACGGAgEA4QIAIYkCAQDgAgAhlAIgAOsCACGYAgEA4QIAIZwCAQDgAgAhnQIBAOECACGeAgEA4QIAIZ8CAQDgAgAhoAIBAOACACGhAgEA4AIAIaICAQDgAgAhowIBAOECACGkAgEA4QIAIaUCAQDhAgAhpgIBAOECACGnAgEA4QIAIagCAQDhAgAhqQIBAOECACGqAiAA6wIAIasCAQDhAgAhrAIBAOECACGtAgEA4QIAIa4CAQDhAgAhrwJAAO0CACGwAiAA6wIAIbECAQDhAgAhHAMAAOcEACAFAADoBAAgBwAA6QQAIAgAAOkEACAKAADmBAAgDAAA6gQAIA4AAOsEACAPAADsBAAggAIAAJIDACCDAgAAkgMAIIUCAACSAwAghgIAAJIDACCYAgAAkgMAIJ0CAACSAwAgngIAAJIDACCjAgAAkgMAIKQCAACSAwAgpQIAAJIDACCmAgAAkgMAIKcCAACSAwAgqAIAAJIDACCpAgAAkgMAIKsCAACSAwAgrAIAAJIDACCtAgAAkgMAIK4CAACSAwAgrwIAAJIDACCxAgAAkgMAIC0DAACFAwAgBQAAhgMAIAcAAIcDACAIAACHAwAgCgAA_QIAIAwAAIgDACAOAACJAwAgDwAAigMAINkBAACEAwAw2gEAAAMAENsBAACEAwAw3AEBAAAAAeEBQADiAgAh7gECAN8CACHyAQEA4AIAIfMBQADiAgAhgAIBAOECACGDAgEA4QIAIYUCAQDhAgAhhgIBAOECACGJAgEA4AIAIZQCIADrAgAhmAIBAOECACGcAgEA4AIAIZ0CAQDhAgAhngIBAOECACGfAgEA4AIAIaACAQDgAgAhoQIBAOACACGiAgEA4AIAIaMCAQDhAgAhpAIBAOECACGlAgEA4QIAIaYCAQDhAgAhpwIBAOECACGoAgEA4QIAIakCAQDhAgAhqgIgAOsCACGrAgEA4QIAIawCAQDhAgAhrQIBAOECACGuAgEA4QIAIa8CQADtAgAhsAIgAOsCACGxAgEA4QIAIQMAAAADACABAAAEADACAAAFACAKEAAAgwMAINkBAACCAwAw2gEAAAcAENsBAACCAwAw3AEBAOACACHhAUAA4gIAIfMBQADiAgAh9QEBAOACACGyAgEA4AIAIbkCAQDhAgAhAQAAAAcAIA4EAAD1AgAg2QEAAIEDADDaAQAACQAQ2wEAAIEDADDcAQEA4AIAId0BAQDgAgAh8gEBAOACACGAAgEA4QIAIZYCAgDfAgAhlwIBAOECACGYAgEA4QIAIZkCAQDhAgAhmgJAAOICACGbAkAA7QIAIQYEAADiBAAggAIAAJIDACCXAgAAkgMAIJgCAACSAwAgmQIAAJIDACCbAgAAkgMAIA8EAAD1AgAg2QEAAIEDADDaAQAACQAQ2wEAAIEDADDcAQEAAAAB3QEBAOACACHyAQEA4AIAIYACAQDhAgAhlgICAN8CACGXAgEA4QIAIZgCAQDhAgAhmQIBAOECACGaAkAA4gIAIZsCQADtAgAhvgIAAIADACADAAAACQAgAQAACgAwAgAACwAgBwQAAPUCACAGAAD1AgAg2QEAAP8CADDaAQAADQAQ2wEAAP8CADDdAQEA4AIAIZUCAQDgAgAhAgQAAOIEACAGAADiBAAgCAQAAPUCACAGAAD1AgAg2QEAAP8CADDaAQAADQAQ2wEAAP8CADDdAQEA4AIAIZUCAQDgAgAhvQIAAP4CACADAAAADQAgAQAADgAwAgAADwAgAwAAAA0AIAEAAA4AMAIAAA8AIA4EAAD1AgAgCgAA_QIAINkBAAD8AgAw2gEAABIAENsBAAD8AgAw3AEBAOACACHdAQEA4AIAIeEBQADiAgAh7gECAN8CACHvAQEA4AIAIfABAQDhAgAh-wEBAOACACH8AQEA4AIAIf0BAQDhAgAhBAQAAOIEACAKAADmBAAg8AEAAJIDACD9AQAAkgMAIA4EAAD1AgAgCgAA_QIAINkBAAD8AgAw2gEAABIAENsBAAD8AgAw3AEBAAAAAd0BAQDgAgAh4QFAAOICACHuAQIA3wIAIe8BAQDgAgAh8AEBAOECACH7AQEA4AIAIfwBAQDgAgAh_QEBAOECACEDAAAAEgAgAQAAEwAwAgAAFAAgEwQAAPUCACAJAAD7AgAg2QEAAPoCADDaAQAAFgAQ2wEAAPoCADDcAQEA4AIAId0BAQDgAgAh3gEBAOACACHgAQEA4AIAIeEBQADiAgAh7gECAN8CACHzAUAA4gIAIfQBAQDhAgAh9QEBAOACACH2AQIA3wIAIfcBAgDfAgAh-AEBAOACACH5AQEA4AIAIfoBIADrAgAhAwQAAOIEACAJAADlBAAg9AEAAJIDACATBAAA9QIAIAkAAPsCACDZAQAA-gIAMNoBAAAWABDbAQAA-gIAMNwBAQAAAAHdAQEA4AIAId4BAQDgAgAh4AEBAOACACHhAUAA4gIAIe4BAgDfAgAh8wFAAOICACH0AQEA4QIAIfUBAQDgAgAh9gECAN8CACH3AQIA3wIAIfgBAQDgAgAh-QEBAOACACH6ASAA6wIAIQMAAAAWACABAAAXADACAAAYACABAAAAEgAgAQAAABYAIAMAAAAWACABAAAXADACAAAYACANBAAA9QIAIAwAAPkCACDZAQAA-AIAMNoBAAAdABDbAQAA-AIAMNwBAQDgAgAh3QEBAOACACHgAQEA4AIAIeEBQADiAgAh7gECAN8CACHxAQEA4AIAIfIBAQDgAgAh8wFAAOICACECBAAA4gQAIAwAAOQEACANBAAA9QIAIAwAAPkCACDZAQAA-AIAMNoBAAAdABDbAQAA-AIAMNwBAQAAAAHdAQEA4AIAIeABAQDgAgAh4QFAAOICACHuAQIA3wIAIfEBAQDgAgAh8gEBAOACACHzAUAA4gIAIQMAAAAdACABAAAeADACAAAfACALDQAA9wIAINkBAAD2AgAw2gEAACEAENsBAAD2AgAw3AEBAOACACHhAUAA4gIAIe0BAQDgAgAh7gECAN8CACHvAQEA4AIAIfABAQDhAgAh8QEBAOACACECDQAA4wQAIPABAACSAwAgCw0AAPcCACDZAQAA9gIAMNoBAAAhABDbAQAA9gIAMNwBAQAAAAHhAUAA4gIAIe0BAQDgAgAh7gECAN8CACHvAQEA4AIAIfABAQDhAgAh8QEBAOACACEDAAAAIQAgAQAAIgAwAgAAIwAgAQAAACEAIAoEAAD1AgAg2QEAAPQCADDaAQAAJgAQ2wEAAPQCADDcAQEA4AIAId0BAQDgAgAh3gEBAOACACHfAQEA4AIAIeABAQDgAgAh4QFAAOICACEBBAAA4gQAIAoEAAD1AgAg2QEAAPQCADDaAQAAJgAQ2wEAAPQCADDcAQEAAAAB3QEBAOACACHeAQEA4AIAId8BAQDgAgAh4AEBAOACACHhAUAA4gIAIQMAAAAmACABAAAnADACAAAoACABAAAACQAgAQAAAA0AIAEAAAANACABAAAAEgAgAQAAABYAIAEAAAAdACABAAAAJgAgAQAAAAMAIAEAAAABACACEAAA4QQAILkCAACSAwAgAwAAAAcAIAEAADMAMAIAAAEAIAMAAAAHACABAAAzADACAAABACADAAAABwAgAQAAMwAwAgAAAQAgBxAAAOAEACDcAQEAAAAB4QFAAAAAAfMBQAAAAAH1AQEAAAABsgIBAAAAAbkCAQAAAAEBFgAANwAgBtwBAQAAAAHhAUAAAAAB8wFAAAAAAfUBAQAAAAGyAgEAAAABuQIBAAAAAQEWAAA5ADABFgAAOQAwBxAAANMEACDcAQEAjgMAIeEBQACPAwAh8wFAAI8DACH1AQEAjgMAIbICAQCOAwAhuQIBAJkDACECAAAAAQAgFgAAPAAgBtwBAQCOAwAh4QFAAI8DACHzAUAAjwMAIfUBAQCOAwAhsgIBAI4DACG5AgEAmQMAIQIAAAAHACAWAAA-ACACAAAABwAgFgAAPgAgAwAAAAEAIB0AADcAIB4AADwAIAEAAAABACABAAAABwAgBAsAANAEACAjAADSBAAgJAAA0QQAILkCAACSAwAgCdkBAADzAgAw2gEAAEUAENsBAADzAgAw3AEBAMgCACHhAUAAyQIAIfMBQADJAgAh9QEBAMgCACGyAgEAyAIAIbkCAQDRAgAhAwAAAAcAIAEAAEQAMCIAAEUAIAMAAAAHACABAAAzADACAAABACAO2QEAAPICADDaAQAASwAQ2wEAAPICADDcAQEAAAAB4QFAAOICACHzAUAA4gIAIYMCAQDgAgAhsgIBAOACACGzAgEA4AIAIbQCIADrAgAhtQIBAOACACG2AiAA6wIAIbcCIADrAgAhuAIgAOsCACEBAAAASAAgAQAAAEgAIA7ZAQAA8gIAMNoBAABLABDbAQAA8gIAMNwBAQDgAgAh4QFAAOICACHzAUAA4gIAIYMCAQDgAgAhsgIBAOACACGzAgEA4AIAIbQCIADrAgAhtQIBAOACACG2AiAA6wIAIbcCIADrAgAhuAIgAOsCACEAAwAAAEsAIAEAAEwAMAIAAEgAIAMAAABLACABAABMADACAABIACADAAAASwAgAQAATAAwAgAASAAgC9wBAQAAAAHhAUAAAAAB8wFAAAAAAYMCAQAAAAGyAgEAAAABswIBAAAAAbQCIAAAAAG1AgEAAAABtgIgAAAAAbcCIAAAAAG4AiAAAAABARYAAFAAIAvcAQEAAAAB4QFAAAAAAfMBQAAAAAGDAgEAAAABsgIBAAAAAbMCAQAAAAG0AiAAAAABtQIBAAAAAbYCIAAAAAG3AiAAAAABuAIgAAAAAQEWAABSADABFgAAUgAwC9wBAQCOAwAh4QFAAI8DACHzAUAAjwMAIYMCAQCOAwAhsgIBAI4DACGzAgEAjgMAIbQCIAC2AwAhtQIBAI4DACG2AiAAtgMAIbcCIAC2AwAhuAIgALYDACECAAAASAAgFgAAVQAgC9wBAQCOAwAh4QFAAI8DACHzAUAAjwMAIYMCAQCOAwAhsgIBAI4DACGzAgEAjgMAIbQCIAC2AwAhtQIBAI4DACG2AiAAtgMAIbcCIAC2AwAhuAIgALYDACECAAAASwAgFgAAVwAgAgAAAEsAIBYAAFcAIAMAAABIACAdAABQACAeAABVACABAAAASAAgAQAAAEsAIAMLAADNBAAgIwAAzwQAICQAAM4EACAO2QEAAPECADDaAQAAXgAQ2wEAAPECADDcAQEAyAIAIeEBQADJAgAh8wFAAMkCACGDAgEAyAIAIbICAQDIAgAhswIBAMgCACG0AiAA2QIAIbUCAQDIAgAhtgIgANkCACG3AiAA2QIAIbgCIADZAgAhAwAAAEsAIAEAAF0AMCIAAF4AIAMAAABLACABAABMADACAABIACABAAAABQAgAQAAAAUAIAMAAAADACABAAAEADACAAAFACADAAAAAwAgAQAABAAwAgAABQAgAwAAAAMAIAEAAAQAMAIAAAUAICoDAADFBAAgBQAAxgQAIAcAAMcEACAIAADIBAAgCgAAygQAIAwAAMkEACAOAADLBAAgDwAAzAQAINwBAQAAAAHhAUAAAAAB7gECAAAAAfIBAQAAAAHzAUAAAAABgAIBAAAAAYMCAQAAAAGFAgEAAAABhgIBAAAAAYkCAQAAAAGUAiAAAAABmAIBAAAAAZwCAQAAAAGdAgEAAAABngIBAAAAAZ8CAQAAAAGgAgEAAAABoQIBAAAAAaICAQAAAAGjAgEAAAABpAIBAAAAAaUCAQAAAAGmAgEAAAABpwIBAAAAAagCAQAAAAGpAgEAAAABqgIgAAAAAasCAQAAAAGsAgEAAAABrQIBAAAAAa4CAQAAAAGvAkAAAAABsAIgAAAAAbECAQAAAAEBFgAAZgAgItwBAQAAAAHhAUAAAAAB7gECAAAAAfIBAQAAAAHzAUAAAAABgAIBAAAAAYMCAQAAAAGFAgEAAAABhgIBAAAAAYkCAQAAAAGUAiAAAAABmAIBAAAAAZwCAQAAAAGdAgEAAAABngIBAAAAAZ8CAQAAAAGgAgEAAAABoQIBAAAAAaICAQAAAAGjAgEAAAABpAIBAAAAAaUCAQAAAAGmAgEAAAABpwIBAAAAAagCAQAAAAGpAgEAAAABqgIgAAAAAasCAQAAAAGsAgEAAAABrQIBAAAAAa4CAQAAAAGvAkAAAAABsAIgAAAAAbECAQAAAAEBFgAAaAAwARYAAGgAMAEAAAAHACAqAwAA7wMAIAUAAPADACAHAADxAwAgCAAA8gMAIAoAAPQDACAMAADzAwAgDgAA9QMAIA8AAPYDACDcAQEAjgMAIeEBQACPAwAh7gECAJgDACHyAQEAjgMAIfMBQACPAwAhgAIBAJkDACGDAgEAmQMAIYUCAQCZAwAhhgIBAJkDACGJAgEAjgMAIZQCIAC2AwAhmAIBAJkDACGcAgEAjgMAIZ0CAQCZAwAhngIBAJkDACGfAgEAjgMAIaACAQCOAwAhoQIBAI4DACGiAgEAjgMAIaMCAQCZAwAhpAIBAJkDACGlAgEAmQMAIaYCAQCZAwAhpwIBAJkDACGoAgEAmQMAIakCAQCZAwAhqgIgALYDACGrAgEAmQMAIawCAQCZAwAhrQIBAJkDACGuAgEAmQMAIa8CQADbAwAhsAIgALYDACGxAgEAmQMAIQIAAAAFACAWAABsACAi3AEBAI4DACHhAUAAjwMAIe4BAgCYAwAh8gEBAI4DACHzAUAAjwMAIYACAQCZAwAhgwIBAJkDACGFAgEAmQMAIYYCAQCZAwAhiQIBAI4DACGUAiAAtgMAIZgCAQCZAwAhnAIBAI4DACGdAgEAmQMAIZ4CAQCZAwAhnwIBAI4DACGgAgEAjgMAIaECAQCOAwAhogIBAI4DACGjAgEAmQMAIaQCAQCZAwAhpQIBAJkDACGmAgEAmQMAIacCAQCZAwAhqAIBAJkDACGpAgEAmQMAIaoCIAC2AwAhqwIBAJkDACGsAgEAmQMAIa0CAQCZAwAhrgIBAJkDACGvAkAA2wMAIbACIAC2AwAhsQIBAJkDACECAAAAAwAgFgAAbgAgAgAAAAMAIBYAAG4AIAEAAAAHACADAAAABQAgHQAAZgAgHgAAbAAgAQAAAAUAIAEAAAADACAZCwAA6gMAICMAAO0DACAkAADsAwAgRQAA6wMAIEYAAO4DACCAAgAAkgMAIIMCAACSAwAghQIAAJIDACCGAgAAkgMAIJgCAACSAwAgnQIAAJIDACCeAgAAkgMAIKMCAACSAwAgpAIAAJIDACClAgAAkgMAIKYCAACSAwAgpwIAAJIDACCoAgAAkgMAIKkCAACSAwAgqwIAAJIDACCsAgAAkgMAIK0CAACSAwAgrgIAAJIDACCvAgAAkgMAILECAACSAwAgJdkBAADwAgAw2gEAAHYAENsBAADwAgAw3AEBAMgCACHhAUAAyQIAIe4BAgDQAgAh8gEBAMgCACHzAUAAyQIAIYACAQDRAgAhgwIBANECACGFAgEA0QIAIYYCAQDRAgAhiQIBAMgCACGUAiAA2QIAIZgCAQDRAgAhnAIBAMgCACGdAgEA0QIAIZ4CAQDRAgAhnwIBAMgCACGgAgEAyAIAIaECAQDIAgAhogIBAMgCACGjAgEA0QIAIaQCAQDRAgAhpQIBANECACGmAgEA0QIAIacCAQDRAgAhqAIBANECACGpAgEA0QIAIaoCIADZAgAhqwIBANECACGsAgEA0QIAIa0CAQDRAgAhrgIBANECACGvAkAA5QIAIbACIADZAgAhsQIBANECACEDAAAAAwAgAQAAdQAwIgAAdgAgAwAAAAMAIAEAAAQAMAIAAAUAIAEAAAALACABAAAACwAgAwAAAAkAIAEAAAoAMAIAAAsAIAMAAAAJACABAAAKADACAAALACADAAAACQAgAQAACgAwAgAACwAgCwQAAOkDACDcAQEAAAAB3QEBAAAAAfIBAQAAAAGAAgEAAAABlgICAAAAAZcCAQAAAAGYAgEAAAABmQIBAAAAAZoCQAAAAAGbAkAAAAABARYAAH4AIArcAQEAAAAB3QEBAAAAAfIBAQAAAAGAAgEAAAABlgICAAAAAZcCAQAAAAGYAgEAAAABmQIBAAAAAZoCQAAAAAGbAkAAAAABARYAAIABADABFgAAgAEAMAsEAADoAwAg3AEBAI4DACHdAQEAjgMAIfIBAQCOAwAhgAIBAJkDACGWAgIAmAMAIZcCAQCZAwAhmAIBAJkDACGZAgEAmQMAIZoCQACPAwAhmwJAANsDACECAAAACwAgFgAAgwEAIArcAQEAjgMAId0BAQCOAwAh8gEBAI4DACGAAgEAmQMAIZYCAgCYAwAhlwIBAJkDACGYAgEAmQMAIZkCAQCZAwAhmgJAAI8DACGbAkAA2wMAIQIAAAAJACAWAACFAQAgAgAAAAkAIBYAAIUBACADAAAACwAgHQAAfgAgHgAAgwEAIAEAAAALACABAAAACQAgCgsAAOMDACAjAADmAwAgJAAA5QMAIEUAAOQDACBGAADnAwAggAIAAJIDACCXAgAAkgMAIJgCAACSAwAgmQIAAJIDACCbAgAAkgMAIA3ZAQAA7wIAMNoBAACMAQAQ2wEAAO8CADDcAQEAyAIAId0BAQDIAgAh8gEBAMgCACGAAgEA0QIAIZYCAgDQAgAhlwIBANECACGYAgEA0QIAIZkCAQDRAgAhmgJAAMkCACGbAkAA5QIAIQMAAAAJACABAACLAQAwIgAAjAEAIAMAAAAJACABAAAKADACAAALACABAAAADwAgAQAAAA8AIAMAAAANACABAAAOADACAAAPACADAAAADQAgAQAADgAwAgAADwAgAwAAAA0AIAEAAA4AMAIAAA8AIAQEAADhAwAgBgAA4gMAIN0BAQAAAAGVAgEAAAABARYAAJQBACAC3QEBAAAAAZUCAQAAAAEBFgAAlgEAMAEWAACWAQAwBAQAAN8DACAGAADgAwAg3QEBAI4DACGVAgEAjgMAIQIAAAAPACAWAACZAQAgAt0BAQCOAwAhlQIBAI4DACECAAAADQAgFgAAmwEAIAIAAAANACAWAACbAQAgAwAAAA8AIB0AAJQBACAeAACZAQAgAQAAAA8AIAEAAAANACADCwAA3AMAICMAAN4DACAkAADdAwAgBdkBAADuAgAw2gEAAKIBABDbAQAA7gIAMN0BAQDIAgAhlQIBAMgCACEDAAAADQAgAQAAoQEAMCIAAKIBACADAAAADQAgAQAADgAwAgAADwAgGdkBAADqAgAw2gEAAKgBABDbAQAA6gIAMNwBAQAAAAHdAQEA4QIAIeEBQADiAgAh8wFAAOICACGDAgEA4AIAIYQCAQDgAgAhhQIBAOECACGGAgEA4QIAIYcCAQDhAgAhiAIBAOECACGJAgEA4QIAIYoCAQDgAgAhiwICAN8CACGMAiAA6wIAIY0CAgDsAgAhjgICAOwCACGPAgIA7AIAIZACAgDfAgAhkQICAN8CACGSAgEA4QIAIZMCQADtAgAhlAIgAOsCACEBAAAApQEAIAEAAAClAQAgGdkBAADqAgAw2gEAAKgBABDbAQAA6gIAMNwBAQDgAgAh3QEBAOECACHhAUAA4gIAIfMBQADiAgAhgwIBAOACACGEAgEA4AIAIYUCAQDhAgAhhgIBAOECACGHAgEA4QIAIYgCAQDhAgAhiQIBAOECACGKAgEA4AIAIYsCAgDfAgAhjAIgAOsCACGNAgIA7AIAIY4CAgDsAgAhjwICAOwCACGQAgIA3wIAIZECAgDfAgAhkgIBAOECACGTAkAA7QIAIZQCIADrAgAhC90BAACSAwAghQIAAJIDACCGAgAAkgMAIIcCAACSAwAgiAIAAJIDACCJAgAAkgMAII0CAACSAwAgjgIAAJIDACCPAgAAkgMAIJICAACSAwAgkwIAAJIDACADAAAAqAEAIAEAAKkBADACAAClAQAgAwAAAKgBACABAACpAQAwAgAApQEAIAMAAACoAQAgAQAAqQEAMAIAAKUBACAW3AEBAAAAAd0BAQAAAAHhAUAAAAAB8wFAAAAAAYMCAQAAAAGEAgEAAAABhQIBAAAAAYYCAQAAAAGHAgEAAAABiAIBAAAAAYkCAQAAAAGKAgEAAAABiwICAAAAAYwCIAAAAAGNAgIAAAABjgICAAAAAY8CAgAAAAGQAgIAAAABkQICAAAAAZICAQAAAAGTAkAAAAABlAIgAAAAAQEWAACtAQAgFtwBAQAAAAHdAQEAAAAB4QFAAAAAAfMBQAAAAAGDAgEAAAABhAIBAAAAAYUCAQAAAAGGAgEAAAABhwIBAAAAAYgCAQAAAAGJAgEAAAABigIBAAAAAYsCAgAAAAGMAiAAAAABjQICAAAAAY4CAgAAAAGPAgIAAAABkAICAAAAAZECAgAAAAGSAgEAAAABkwJAAAAAAZQCIAAAAAEBFgAArwEAMAEWAACvAQAwFtwBAQCOAwAh3QEBAJkDACHhAUAAjwMAIfMBQACPAwAhgwIBAI4DACGEAgEAjgMAIYUCAQCZAwAhhgIBAJkDACGHAgEAmQMAIYgCAQCZAwAhiQIBAJkDACGKAgEAjgMAIYsCAgCYAwAhjAIgALYDACGNAgIA2gMAIY4CAgDaAwAhjwICANoDACGQAgIAmAMAIZECAgCYAwAhkgIBAJkDACGTAkAA2wMAIZQCIAC2AwAhAgAAAKUBACAWAACyAQAgFtwBAQCOAwAh3QEBAJkDACHhAUAAjwMAIfMBQACPAwAhgwIBAI4DACGEAgEAjgMAIYUCAQCZAwAhhgIBAJkDACGHAgEAmQMAIYgCAQCZAwAhiQIBAJkDACGKAgEAjgMAIYsCAgCYAwAhjAIgALYDACGNAgIA2gMAIY4CAgDaAwAhjwICANoDACGQAgIAmAMAIZECAgCYAwAhkgIBAJkDACGTAkAA2wMAIZQCIAC2AwAhAgAAAKgBACAWAAC0AQAgAgAAAKgBACAWAAC0AQAgAwAAAKUBACAdAACtAQAgHgAAsgEAIAEAAAClAQAgAQAAAKgBACAQCwAA1QMAICMAANgDACAkAADXAwAgRQAA1gMAIEYAANkDACDdAQAAkgMAIIUCAACSAwAghgIAAJIDACCHAgAAkgMAIIgCAACSAwAgiQIAAJIDACCNAgAAkgMAII4CAACSAwAgjwIAAJIDACCSAgAAkgMAIJMCAACSAwAgGdkBAADjAgAw2gEAALsBABDbAQAA4wIAMNwBAQDIAgAh3QEBANECACHhAUAAyQIAIfMBQADJAgAhgwIBAMgCACGEAgEAyAIAIYUCAQDRAgAhhgIBANECACGHAgEA0QIAIYgCAQDRAgAhiQIBANECACGKAgEAyAIAIYsCAgDQAgAhjAIgANkCACGNAgIA5AIAIY4CAgDkAgAhjwICAOQCACGQAgIA0AIAIZECAgDQAgAhkgIBANECACGTAkAA5QIAIZQCIADZAgAhAwAAAKgBACABAAC6AQAwIgAAuwEAIAMAAACoAQAgAQAAqQEAMAIAAKUBACAJ2QEAAN4CADDaAQAAwQEAENsBAADeAgAw3QEBAOECACH-AQIAAAAB_wEBAOACACGAAgEA4QIAIYECAQDgAgAhggJAAOICACEBAAAAvgEAIAEAAAC-AQAgCdkBAADeAgAw2gEAAMEBABDbAQAA3gIAMN0BAQDhAgAh_gECAN8CACH_AQEA4AIAIYACAQDhAgAhgQIBAOACACGCAkAA4gIAIQLdAQAAkgMAIIACAACSAwAgAwAAAMEBACABAADCAQAwAgAAvgEAIAMAAADBAQAgAQAAwgEAMAIAAL4BACADAAAAwQEAIAEAAMIBADACAAC-AQAgBt0BAQAAAAH-AQIAAAAB_wEBAAAAAYACAQAAAAGBAgEAAAABggJAAAAAAQEWAADGAQAgBt0BAQAAAAH-AQIAAAAB_wEBAAAAAYACAQAAAAGBAgEAAAABggJAAAAAAQEWAADIAQAwARYAAMgBADAG3QEBAJkDACH-AQIAmAMAIf8BAQCOAwAhgAIBAJkDACGBAgEAjgMAIYICQACPAwAhAgAAAL4BACAWAADLAQAgBt0BAQCZAwAh_gECAJgDACH_AQEAjgMAIYACAQCZAwAhgQIBAI4DACGCAkAAjwMAIQIAAADBAQAgFgAAzQEAIAIAAADBAQAgFgAAzQEAIAMAAAC-AQAgHQAAxgEAIB4AAMsBACABAAAAvgEAIAEAAADBAQAgBwsAANADACAjAADTAwAgJAAA0gMAIEUAANEDACBGAADUAwAg3QEAAJIDACCAAgAAkgMAIAnZAQAA3QIAMNoBAADUAQAQ2wEAAN0CADDdAQEA0QIAIf4BAgDQAgAh_wEBAMgCACGAAgEA0QIAIYECAQDIAgAhggJAAMkCACEDAAAAwQEAIAEAANMBADAiAADUAQAgAwAAAMEBACABAADCAQAwAgAAvgEAIAEAAAAUACABAAAAFAAgAwAAABIAIAEAABMAMAIAABQAIAMAAAASACABAAATADACAAAUACADAAAAEgAgAQAAEwAwAgAAFAAgCwQAAM4DACAKAADPAwAg3AEBAAAAAd0BAQAAAAHhAUAAAAAB7gECAAAAAe8BAQAAAAHwAQEAAAAB-wEBAAAAAfwBAQAAAAH9AQEAAAABARYAANwBACAJ3AEBAAAAAd0BAQAAAAHhAUAAAAAB7gECAAAAAe8BAQAAAAHwAQEAAAAB-wEBAAAAAfwBAQAAAAH9AQEAAAABARYAAN4BADABFgAA3gEAMAsEAADAAwAgCgAAwQMAINwBAQCOAwAh3QEBAI4DACHhAUAAjwMAIe4BAgCYAwAh7wEBAI4DACHwAQEAmQMAIfsBAQCOAwAh_AEBAI4DACH9AQEAmQMAIQIAAAAUACAWAADhAQAgCdwBAQCOAwAh3QEBAI4DACHhAUAAjwMAIe4BAgCYAwAh7wEBAI4DACHwAQEAmQMAIfsBAQCOAwAh_AEBAI4DACH9AQEAmQMAIQIAAAASACAWAADjAQAgAgAAABIAIBYAAOMBACADAAAAFAAgHQAA3AEAIB4AAOEBACABAAAAFAAgAQAAABIAIAcLAAC7AwAgIwAAvgMAICQAAL0DACBFAAC8AwAgRgAAvwMAIPABAACSAwAg_QEAAJIDACAM2QEAANwCADDaAQAA6gEAENsBAADcAgAw3AEBAMgCACHdAQEAyAIAIeEBQADJAgAh7gECANACACHvAQEAyAIAIfABAQDRAgAh-wEBAMgCACH8AQEAyAIAIf0BAQDRAgAhAwAAABIAIAEAAOkBADAiAADqAQAgAwAAABIAIAEAABMAMAIAABQAIAEAAAAYACABAAAAGAAgAwAAABYAIAEAABcAMAIAABgAIAMAAAAWACABAAAXADACAAAYACADAAAAFgAgAQAAFwAwAgAAGAAgEAQAALoDACAJAAC5AwAg3AEBAAAAAd0BAQAAAAHeAQEAAAAB4AEBAAAAAeEBQAAAAAHuAQIAAAAB8wFAAAAAAfQBAQAAAAH1AQEAAAAB9gECAAAAAfcBAgAAAAH4AQEAAAAB-QEBAAAAAfoBIAAAAAEBFgAA8gEAIA7cAQEAAAAB3QEBAAAAAd4BAQAAAAHgAQEAAAAB4QFAAAAAAe4BAgAAAAHzAUAAAAAB9AEBAAAAAfUBAQAAAAH2AQIAAAAB9wECAAAAAfgBAQAAAAH5AQEAAAAB-gEgAAAAAQEWAAD0AQAwARYAAPQBADABAAAAEgAgEAQAALgDACAJAAC3AwAg3AEBAI4DACHdAQEAjgMAId4BAQCOAwAh4AEBAI4DACHhAUAAjwMAIe4BAgCYAwAh8wFAAI8DACH0AQEAmQMAIfUBAQCOAwAh9gECAJgDACH3AQIAmAMAIfgBAQCOAwAh-QEBAI4DACH6ASAAtgMAIQIAAAAYACAWAAD4AQAgDtwBAQCOAwAh3QEBAI4DACHeAQEAjgMAIeABAQCOAwAh4QFAAI8DACHuAQIAmAMAIfMBQACPAwAh9AEBAJkDACH1AQEAjgMAIfYBAgCYAwAh9wECAJgDACH4AQEAjgMAIfkBAQCOAwAh-gEgALYDACECAAAAFgAgFgAA-gEAIAIAAAAWACAWAAD6AQAgAQAAABIAIAMAAAAYACAdAADyAQAgHgAA-AEAIAEAAAAYACABAAAAFgAgBgsAALEDACAjAAC0AwAgJAAAswMAIEUAALIDACBGAAC1AwAg9AEAAJIDACAR2QEAANgCADDaAQAAggIAENsBAADYAgAw3AEBAMgCACHdAQEAyAIAId4BAQDIAgAh4AEBAMgCACHhAUAAyQIAIe4BAgDQAgAh8wFAAMkCACH0AQEA0QIAIfUBAQDIAgAh9gECANACACH3AQIA0AIAIfgBAQDIAgAh-QEBAMgCACH6ASAA2QIAIQMAAAAWACABAACBAgAwIgAAggIAIAMAAAAWACABAAAXADACAAAYACABAAAAHwAgAQAAAB8AIAMAAAAdACABAAAeADACAAAfACADAAAAHQAgAQAAHgAwAgAAHwAgAwAAAB0AIAEAAB4AMAIAAB8AIAoEAACvAwAgDAAAsAMAINwBAQAAAAHdAQEAAAAB4AEBAAAAAeEBQAAAAAHuAQIAAAAB8QEBAAAAAfIBAQAAAAHzAUAAAAABARYAAIoCACAI3AEBAAAAAd0BAQAAAAHgAQEAAAAB4QFAAAAAAe4BAgAAAAHxAQEAAAAB8gEBAAAAAfMBQAAAAAEBFgAAjAIAMAEWAACMAgAwCgQAAKEDACAMAACiAwAg3AEBAI4DACHdAQEAjgMAIeABAQCOAwAh4QFAAI8DACHuAQIAmAMAIfEBAQCOAwAh8gEBAI4DACHzAUAAjwMAIQIAAAAfACAWAACPAgAgCNwBAQCOAwAh3QEBAI4DACHgAQEAjgMAIeEBQACPAwAh7gECAJgDACHxAQEAjgMAIfIBAQCOAwAh8wFAAI8DACECAAAAHQAgFgAAkQIAIAIAAAAdACAWAACRAgAgAwAAAB8AIB0AAIoCACAeAACPAgAgAQAAAB8AIAEAAAAdACAFCwAAnAMAICMAAJ8DACAkAACeAwAgRQAAnQMAIEYAAKADACAL2QEAANcCADDaAQAAmAIAENsBAADXAgAw3AEBAMgCACHdAQEAyAIAIeABAQDIAgAh4QFAAMkCACHuAQIA0AIAIfEBAQDIAgAh8gEBAMgCACHzAUAAyQIAIQMAAAAdACABAACXAgAwIgAAmAIAIAMAAAAdACABAAAeADACAAAfACABAAAAIwAgAQAAACMAIAMAAAAhACABAAAiADACAAAjACADAAAAIQAgAQAAIgAwAgAAIwAgAwAAACEAIAEAACIAMAIAACMAIAgNAACbAwAg3AEBAAAAAeEBQAAAAAHtAQEAAAAB7gECAAAAAe8BAQAAAAHwAQEAAAAB8QEBAAAAAQEWAACgAgAgB9wBAQAAAAHhAUAAAAAB7QEBAAAAAe4BAgAAAAHvAQEAAAAB8AEBAAAAAfEBAQAAAAEBFgAAogIAMAEWAACiAgAwCA0AAJoDACDcAQEAjgMAIeEBQACPAwAh7QEBAI4DACHuAQIAmAMAIe8BAQCOAwAh8AEBAJkDACHxAQEAjgMAIQIAAAAjACAWAAClAgAgB9wBAQCOAwAh4QFAAI8DACHtAQEAjgMAIe4BAgCYAwAh7wEBAI4DACHwAQEAmQMAIfEBAQCOAwAhAgAAACEAIBYAAKcCACACAAAAIQAgFgAApwIAIAMAAAAjACAdAACgAgAgHgAApQIAIAEAAAAjACABAAAAIQAgBgsAAJMDACAjAACWAwAgJAAAlQMAIEUAAJQDACBGAACXAwAg8AEAAJIDACAK2QEAAM8CADDaAQAArgIAENsBAADPAgAw3AEBAMgCACHhAUAAyQIAIe0BAQDIAgAh7gECANACACHvAQEAyAIAIfABAQDRAgAh8QEBAMgCACEDAAAAIQAgAQAArQIAMCIAAK4CACADAAAAIQAgAQAAIgAwAgAAIwAgAQAAACgAIAEAAAAoACADAAAAJgAgAQAAJwAwAgAAKAAgAwAAACYAIAEAACcAMAIAACgAIAMAAAAmACABAAAnADACAAAoACAHBAAAkQMAINwBAQAAAAHdAQEAAAAB3gEBAAAAAd8BAQAAAAHgAQEAAAAB4QFAAAAAAQEWAAC2AgAgBtwBAQAAAAHdAQEAAAAB3gEBAAAAAd8BAQAAAAHgAQEAAAAB4QFAAAAAAQEWAAC4AgAwARYAALgCADAHBAAAkAMAINwBAQCOAwAh3QEBAI4DACHeAQEAjgMAId8BAQCOAwAh4AEBAI4DACHhAUAAjwMAIQIAAAAoACAWAAC7AgAgBtwBAQCOAwAh3QEBAI4DACHeAQEAjgMAId8BAQCOAwAh4AEBAI4DACHhAUAAjwMAIQIAAAAmACAWAAC9AgAgAgAAACYAIBYAAL0CACADAAAAKAAgHQAAtgIAIB4AALsCACABAAAAKAAgAQAAACYAIAMLAACLAwAgIwAAjQMAICQAAIwDACAJ2QEAAMcCADDaAQAAxAIAENsBAADHAgAw3AEBAMgCACHdAQEAyAIAId4BAQDIAgAh3wEBAMgCACHgAQEAyAIAIeEBQADJAgAhAwAAACYAIAEAAMMCADAiAADEAgAgAwAAACYAIAEAACcAMAIAACgAIAnZAQAAxwIAMNoBAADEAgAQ2wEAAMcCADDcAQEAyAIAId0BAQDIAgAh3gEBAMgCACHfAQEAyAIAIeABAQDIAgAh4QFAAMkCACEOCwAAywIAICMAAM4CACAkAADOAgAg4gEBAAAAAeMBAQAAAATkAQEAAAAE5QEBAAAAAeYBAQAAAAHnAQEAAAAB6AEBAAAAAekBAQDNAgAh6gEBAAAAAesBAQAAAAHsAQEAAAABCwsAAMsCACAjAADMAgAgJAAAzAIAIOIBQAAAAAHjAUAAAAAE5AFAAAAABOUBQAAAAAHmAUAAAAAB5wFAAAAAAegBQAAAAAHpAUAAygIAIQsLAADLAgAgIwAAzAIAICQAAMwCACDiAUAAAAAB4wFAAAAABOQBQAAAAATlAUAAAAAB5gFAAAAAAecBQAAAAAHoAUAAAAAB6QFAAMoCACEI4gECAAAAAeMBAgAAAATkAQIAAAAE5QECAAAAAeYBAgAAAAHnAQIAAAAB6AECAAAAAekBAgDLAgAhCOIBQAAAAAHjAUAAAAAE5AFAAAAABOUBQAAAAAHmAUAAAAAB5wFAAAAAAegBQAAAAAHpAUAAzAIAIQ4LAADLAgAgIwAAzgIAICQAAM4CACDiAQEAAAAB4wEBAAAABOQBAQAAAATlAQEAAAAB5gEBAAAAAecBAQAAAAHoAQEAAAAB6QEBAM0CACHqAQEAAAAB6wEBAAAAAewBAQAAAAEL4gEBAAAAAeMBAQAAAATkAQEAAAAE5QEBAAAAAeYBAQAAAAHnAQEAAAAB6AEBAAAAAekBAQDOAgAh6gEBAAAAAesBAQAAAAHsAQEAAAABCtkBAADPAgAw2gEAAK4CABDbAQAAzwIAMNwBAQDIAgAh4QFAAMkCACHtAQEAyAIAIe4BAgDQAgAh7wEBAMgCACHwAQEA0QIAIfEBAQDIAgAhDQsAAMsCACAjAADLAgAgJAAAywIAIEUAANYCACBGAADLAgAg4gECAAAAAeMBAgAAAATkAQIAAAAE5QECAAAAAeYBAgAAAAHnAQIAAAAB6AECAAAAAekBAgDVAgAhDgsAANMCACAjAADUAgAgJAAA1AIAIOIBAQAAAAHjAQEAAAAF5AEBAAAABeUBAQAAAAHmAQEAAAAB5wEBAAAAAegBAQAAAAHpAQEA0gIAIeoBAQAAAAHrAQEAAAAB7AEBAAAAAQ4LAADTAgAgIwAA1AIAICQAANQCACDiAQEAAAAB4wEBAAAABeQBAQAAAAXlAQEAAAAB5gEBAAAAAecBAQAAAAHoAQEAAAAB6QEBANICACHqAQEAAAAB6wEBAAAAAewBAQAAAAEI4gECAAAAAeMBAgAAAAXkAQIAAAAF5QECAAAAAeYBAgAAAAHnAQIAAAAB6AECAAAAAekBAgDTAgAhC-IBAQAAAAHjAQEAAAAF5AEBAAAABeUBAQAAAAHmAQEAAAAB5wEBAAAAAegBAQAAAAHpAQEA1AIAIeoBAQAAAAHrAQEAAAAB7AEBAAAAAQ0LAADLAgAgIwAAywIAICQAAMsCACBFAADWAgAgRgAAywIAIOIBAgAAAAHjAQIAAAAE5AECAAAABOUBAgAAAAHmAQIAAAAB5wECAAAAAegBAgAAAAHpAQIA1QIAIQjiAQgAAAAB4wEIAAAABOQBCAAAAATlAQgAAAAB5gEIAAAAAecBCAAAAAHoAQgAAAAB6QEIANYCACEL2QEAANcCADDaAQAAmAIAENsBAADXAgAw3AEBAMgCACHdAQEAyAIAIeABAQDIAgAh4QFAAMkCACHuAQIA0AIAIfEBAQDIAgAh8gEBAMgCACHzAUAAyQIAIRHZAQAA2AIAMNoBAACCAgAQ2wEAANgCADDcAQEAyAIAId0BAQDIAgAh3gEBAMgCACHgAQEAyAIAIeEBQADJAgAh7gECANACACHzAUAAyQIAIfQBAQDRAgAh9QEBAMgCACH2AQIA0AIAIfcBAgDQAgAh-AEBAMgCACH5AQEAyAIAIfoBIADZAgAhBQsAAMsCACAjAADbAgAgJAAA2wIAIOIBIAAAAAHpASAA2gIAIQULAADLAgAgIwAA2wIAICQAANsCACDiASAAAAAB6QEgANoCACEC4gEgAAAAAekBIADbAgAhDNkBAADcAgAw2gEAAOoBABDbAQAA3AIAMNwBAQDIAgAh3QEBAMgCACHhAUAAyQIAIe4BAgDQAgAh7wEBAMgCACHwAQEA0QIAIfsBAQDIAgAh_AEBAMgCACH9AQEA0QIAIQnZAQAA3QIAMNoBAADUAQAQ2wEAAN0CADDdAQEA0QIAIf4BAgDQAgAh_wEBAMgCACGAAgEA0QIAIYECAQDIAgAhggJAAMkCACEJ2QEAAN4CADDaAQAAwQEAENsBAADeAgAw3QEBAOECACH-AQIA3wIAIf8BAQDgAgAhgAIBAOECACGBAgEA4AIAIYICQADiAgAhCOIBAgAAAAHjAQIAAAAE5AECAAAABOUBAgAAAAHmAQIAAAAB5wECAAAAAegBAgAAAAHpAQIAywIAIQviAQEAAAAB4wEBAAAABOQBAQAAAATlAQEAAAAB5gEBAAAAAecBAQAAAAHoAQEAAAAB6QEBAM4CACHqAQEAAAAB6wEBAAAAAewBAQAAAAEL4gEBAAAAAeMBAQAAAAXkAQEAAAAF5QEBAAAAAeYBAQAAAAHnAQEAAAAB6AEBAAAAAekBAQDUAgAh6gEBAAAAAesBAQAAAAHsAQEAAAABCOIBQAAAAAHjAUAAAAAE5AFAAAAABOUBQAAAAAHmAUAAAAAB5wFAAAAAAegBQAAAAAHpAUAAzAIAIRnZAQAA4wIAMNoBAAC7AQAQ2wEAAOMCADDcAQEAyAIAId0BAQDRAgAh4QFAAMkCACHzAUAAyQIAIYMCAQDIAgAhhAIBAMgCACGFAgEA0QIAIYYCAQDRAgAhhwIBANECACGIAgEA0QIAIYkCAQDRAgAhigIBAMgCACGLAgIA0AIAIYwCIADZAgAhjQICAOQCACGOAgIA5AIAIY8CAgDkAgAhkAICANACACGRAgIA0AIAIZICAQDRAgAhkwJAAOUCACGUAiAA2QIAIQ0LAADTAgAgIwAA0wIAICQAANMCACBFAADpAgAgRgAA0wIAIOIBAgAAAAHjAQIAAAAF5AECAAAABeUBAgAAAAHmAQIAAAAB5wECAAAAAegBAgAAAAHpAQIA6AIAIQsLAADTAgAgIwAA5wIAICQAAOcCACDiAUAAAAAB4wFAAAAABeQBQAAAAAXlAUAAAAAB5gFAAAAAAecBQAAAAAHoAUAAAAAB6QFAAOYCACELCwAA0wIAICMAAOcCACAkAADnAgAg4gFAAAAAAeMBQAAAAAXkAUAAAAAF5QFAAAAAAeYBQAAAAAHnAUAAAAAB6AFAAAAAAekBQADmAgAhCOIBQAAAAAHjAUAAAAAF5AFAAAAABeUBQAAAAAHmAUAAAAAB5wFAAAAAAegBQAAAAAHpAUAA5wIAIQ0LAADTAgAgIwAA0wIAICQAANMCACBFAADpAgAgRgAA0wIAIOIBAgAAAAHjAQIAAAAF5AECAAAABeUBAgAAAAHmAQIAAAAB5wECAAAAAegBAgAAAAHpAQIA6AIAIQjiAQgAAAAB4wEIAAAABeQBCAAAAAXlAQgAAAAB5gEIAAAAAecBCAAAAAHoAQgAAAAB6QEIAOkCACEZ2QEAAOoCADDaAQAAqAEAENsBAADqAgAw3AEBAOACACHdAQEA4QIAIeEBQADiAgAh8wFAAOICACGDAgEA4AIAIYQCAQDgAgAhhQIBAOECACGGAgEA4QIAIYcCAQDhAgAhiAIBAOECACGJAgEA4QIAIYoCAQDgAgAhiwICAN8CACGMAiAA6wIAIY0CAgDsAgAhjgICAOwCACGPAgIA7AIAIZACAgDfAgAhkQICAN8CACGSAgEA4QIAIZMCQADtAgAhlAIgAOsCACEC4gEgAAAAAekBIADbAgAhCOIBAgAAAAHjAQIAAAAF5AECAAAABeUBAgAAAAHmAQIAAAAB5wECAAAAAegBAgAAAAHpAQIA0wIAIQjiAUAAAAAB4wFAAAAABeQBQAAAAAXlAUAAAAAB5gFAAAAAAecBQAAAAAHoAUAAAAAB6QFAAOcCACEF2QEAAO4CADDaAQAAogEAENsBAADuAgAw3QEBAMgCACGVAgEAyAIAIQ3ZAQAA7wIAMNoBAACMAQAQ2wEAAO8CADDcAQEAyAIAId0BAQDIAgAh8gEBAMgCACGAAgEA0QIAIZYCAgDQAgAhlwIBANECACGYAgEA0QIAIZkCAQDRAgAhmgJAAMkCACGbAkAA5QIAISXZAQAA8AIAMNoBAAB2ABDbAQAA8AIAMNwBAQDIAgAh4QFAAMkCACHuAQIA0AIAIfIBAQDIAgAh8wFAAMkCACGAAgEA0QIAIYMCAQDRAgAhhQIBANECACGGAgEA0QIAIYkCAQDIAgAhlAIgANkCACGYAgEA0QIAIZwCAQDIAgAhnQIBANECACGeAgEA0QIAIZ8CAQDIAgAhoAIBAMgCACGhAgEAyAIAIaICAQDIAgAhowIBANECACGkAgEA0QIAIaUCAQDRAgAhpgIBANECACGnAgEA0QIAIagCAQDRAgAhqQIBANECACGqAiAA2QIAIasCAQDRAgAhrAIBANECACGtAgEA0QIAIa4CAQDRAgAhrwJAAOUCACGwAiAA2QIAIbECAQDRAgAhDtkBAADxAgAw2gEAAF4AENsBAADxAgAw3AEBAMgCACHhAUAAyQIAIfMBQADJAgAhgwIBAMgCACGyAgEAyAIAIbMCAQDIAgAhtAIgANkCACG1AgEAyAIAIbYCIADZAgAhtwIgANkCACG4AiAA2QIAIQ7ZAQAA8gIAMNoBAABLABDbAQAA8gIAMNwBAQDgAgAh4QFAAOICACHzAUAA4gIAIYMCAQDgAgAhsgIBAOACACGzAgEA4AIAIbQCIADrAgAhtQIBAOACACG2AiAA6wIAIbcCIADrAgAhuAIgAOsCACEJ2QEAAPMCADDaAQAARQAQ2wEAAPMCADDcAQEAyAIAIeEBQADJAgAh8wFAAMkCACH1AQEAyAIAIbICAQDIAgAhuQIBANECACEKBAAA9QIAINkBAAD0AgAw2gEAACYAENsBAAD0AgAw3AEBAOACACHdAQEA4AIAId4BAQDgAgAh3wEBAOACACHgAQEA4AIAIeEBQADiAgAhLwMAAIUDACAFAACGAwAgBwAAhwMAIAgAAIcDACAKAAD9AgAgDAAAiAMAIA4AAIkDACAPAACKAwAg2QEAAIQDADDaAQAAAwAQ2wEAAIQDADDcAQEA4AIAIeEBQADiAgAh7gECAN8CACHyAQEA4AIAIfMBQADiAgAhgAIBAOECACGDAgEA4QIAIYUCAQDhAgAhhgIBAOECACGJAgEA4AIAIZQCIADrAgAhmAIBAOECACGcAgEA4AIAIZ0CAQDhAgAhngIBAOECACGfAgEA4AIAIaACAQDgAgAhoQIBAOACACGiAgEA4AIAIaMCAQDhAgAhpAIBAOECACGlAgEA4QIAIaYCAQDhAgAhpwIBAOECACGoAgEA4QIAIakCAQDhAgAhqgIgAOsCACGrAgEA4QIAIawCAQDhAgAhrQIBAOECACGuAgEA4QIAIa8CQADtAgAhsAIgAOsCACGxAgEA4QIAIb8CAAADACDAAgAAAwAgCw0AAPcCACDZAQAA9gIAMNoBAAAhABDbAQAA9gIAMNwBAQDgAgAh4QFAAOICACHtAQEA4AIAIe4BAgDfAgAh7wEBAOACACHwAQEA4QIAIfEBAQDgAgAhDwQAAPUCACAMAAD5AgAg2QEAAPgCADDaAQAAHQAQ2wEAAPgCADDcAQEA4AIAId0BAQDgAgAh4AEBAOACACHhAUAA4gIAIe4BAgDfAgAh8QEBAOACACHyAQEA4AIAIfMBQADiAgAhvwIAAB0AIMACAAAdACANBAAA9QIAIAwAAPkCACDZAQAA-AIAMNoBAAAdABDbAQAA-AIAMNwBAQDgAgAh3QEBAOACACHgAQEA4AIAIeEBQADiAgAh7gECAN8CACHxAQEA4AIAIfIBAQDgAgAh8wFAAOICACEDugIAACEAILsCAAAhACC8AgAAIQAgEwQAAPUCACAJAAD7AgAg2QEAAPoCADDaAQAAFgAQ2wEAAPoCADDcAQEA4AIAId0BAQDgAgAh3gEBAOACACHgAQEA4AIAIeEBQADiAgAh7gECAN8CACHzAUAA4gIAIfQBAQDhAgAh9QEBAOACACH2AQIA3wIAIfcBAgDfAgAh-AEBAOACACH5AQEA4AIAIfoBIADrAgAhEAQAAPUCACAKAAD9AgAg2QEAAPwCADDaAQAAEgAQ2wEAAPwCADDcAQEA4AIAId0BAQDgAgAh4QFAAOICACHuAQIA3wIAIe8BAQDgAgAh8AEBAOECACH7AQEA4AIAIfwBAQDgAgAh_QEBAOECACG_AgAAEgAgwAIAABIAIA4EAAD1AgAgCgAA_QIAINkBAAD8AgAw2gEAABIAENsBAAD8AgAw3AEBAOACACHdAQEA4AIAIeEBQADiAgAh7gECAN8CACHvAQEA4AIAIfABAQDhAgAh-wEBAOACACH8AQEA4AIAIf0BAQDhAgAhA7oCAAAWACC7AgAAFgAgvAIAABYAIALdAQEAAAABlQIBAAAAAQcEAAD1AgAgBgAA9QIAINkBAAD_AgAw2gEAAA0AENsBAAD_AgAw3QEBAOACACGVAgEA4AIAIQLdAQEAAAABlgICAAAAAQ4EAAD1AgAg2QEAAIEDADDaAQAACQAQ2wEAAIEDADDcAQEA4AIAId0BAQDgAgAh8gEBAOACACGAAgEA4QIAIZYCAgDfAgAhlwIBAOECACGYAgEA4QIAIZkCAQDhAgAhmgJAAOICACGbAkAA7QIAIQoQAACDAwAg2QEAAIIDADDaAQAABwAQ2wEAAIIDADDcAQEA4AIAIeEBQADiAgAh8wFAAOICACH1AQEA4AIAIbICAQDgAgAhuQIBAOECACEDugIAAAMAILsCAAADACC8AgAAAwAgLQMAAIUDACAFAACGAwAgBwAAhwMAIAgAAIcDACAKAAD9AgAgDAAAiAMAIA4AAIkDACAPAACKAwAg2QEAAIQDADDaAQAAAwAQ2wEAAIQDADDcAQEA4AIAIeEBQADiAgAh7gECAN8CACHyAQEA4AIAIfMBQADiAgAhgAIBAOECACGDAgEA4QIAIYUCAQDhAgAhhgIBAOECACGJAgEA4AIAIZQCIADrAgAhmAIBAOECACGcAgEA4AIAIZ0CAQDhAgAhngIBAOECACGfAgEA4AIAIaACAQDgAgAhoQIBAOACACGiAgEA4AIAIaMCAQDhAgAhpAIBAOECACGlAgEA4QIAIaYCAQDhAgAhpwIBAOECACGoAgEA4QIAIakCAQDhAgAhqgIgAOsCACGrAgEA4QIAIawCAQDhAgAhrQIBAOECACGuAgEA4QIAIa8CQADtAgAhsAIgAOsCACGxAgEA4QIAIQwQAACDAwAg2QEAAIIDADDaAQAABwAQ2wEAAIIDADDcAQEA4AIAIeEBQADiAgAh8wFAAOICACH1AQEA4AIAIbICAQDgAgAhuQIBAOECACG_AgAABwAgwAIAAAcAIAO6AgAACQAguwIAAAkAILwCAAAJACADugIAAA0AILsCAAANACC8AgAADQAgA7oCAAASACC7AgAAEgAgvAIAABIAIAO6AgAAHQAguwIAAB0AILwCAAAdACADugIAACYAILsCAAAmACC8AgAAJgAgAAAAAcQCAQAAAAEBxAJAAAAAAQUdAACkBQAgHgAApwUAIMECAAClBQAgwgIAAKYFACDHAgAABQAgAx0AAKQFACDBAgAApQUAIMcCAAAFACAAAAAAAAAFxAICAAAAAcoCAgAAAAHLAgIAAAABzAICAAAAAc0CAgAAAAEBxAIBAAAAAQUdAACfBQAgHgAAogUAIMECAACgBQAgwgIAAKEFACDHAgAAHwAgAx0AAJ8FACDBAgAAoAUAIMcCAAAfACAAAAAAAAUdAACZBQAgHgAAnQUAIMECAACaBQAgwgIAAJwFACDHAgAABQAgCx0AAKMDADAeAACoAwAwwQIAAKQDADDCAgAApQMAMMMCAACmAwAgxAIAAKcDADDFAgAApwMAMMYCAACnAwAwxwIAAKcDADDIAgAAqQMAMMkCAACqAwAwBtwBAQAAAAHhAUAAAAAB7gECAAAAAe8BAQAAAAHwAQEAAAAB8QEBAAAAAQIAAAAjACAdAACuAwAgAwAAACMAIB0AAK4DACAeAACtAwAgARYAAJsFADALDQAA9wIAINkBAAD2AgAw2gEAACEAENsBAAD2AgAw3AEBAAAAAeEBQADiAgAh7QEBAOACACHuAQIA3wIAIe8BAQDgAgAh8AEBAOECACHxAQEA4AIAIQIAAAAjACAWAACtAwAgAgAAAKsDACAWAACsAwAgCtkBAACqAwAw2gEAAKsDABDbAQAAqgMAMNwBAQDgAgAh4QFAAOICACHtAQEA4AIAIe4BAgDfAgAh7wEBAOACACHwAQEA4QIAIfEBAQDgAgAhCtkBAACqAwAw2gEAAKsDABDbAQAAqgMAMNwBAQDgAgAh4QFAAOICACHtAQEA4AIAIe4BAgDfAgAh7wEBAOACACHwAQEA4QIAIfEBAQDgAgAhBtwBAQCOAwAh4QFAAI8DACHuAQIAmAMAIe8BAQCOAwAh8AEBAJkDACHxAQEAjgMAIQbcAQEAjgMAIeEBQACPAwAh7gECAJgDACHvAQEAjgMAIfABAQCZAwAh8QEBAI4DACEG3AEBAAAAAeEBQAAAAAHuAQIAAAAB7wEBAAAAAfABAQAAAAHxAQEAAAABAx0AAJkFACDBAgAAmgUAIMcCAAAFACAEHQAAowMAMMECAACkAwAwwwIAAKYDACDHAgAApwMAMAAAAAAAAcQCIAAAAAEHHQAAkQUAIB4AAJcFACDBAgAAkgUAIMICAACWBQAgxQIAABIAIMYCAAASACDHAgAAFAAgBR0AAI8FACAeAACUBQAgwQIAAJAFACDCAgAAkwUAIMcCAAAFACADHQAAkQUAIMECAACSBQAgxwIAABQAIAMdAACPBQAgwQIAAJAFACDHAgAABQAgAAAAAAAFHQAAiQUAIB4AAI0FACDBAgAAigUAIMICAACMBQAgxwIAAAUAIAsdAADCAwAwHgAAxwMAMMECAADDAwAwwgIAAMQDADDDAgAAxQMAIMQCAADGAwAwxQIAAMYDADDGAgAAxgMAMMcCAADGAwAwyAIAAMgDADDJAgAAyQMAMA4EAAC6AwAg3AEBAAAAAd0BAQAAAAHeAQEAAAAB4AEBAAAAAeEBQAAAAAHuAQIAAAAB8wFAAAAAAfUBAQAAAAH2AQIAAAAB9wECAAAAAfgBAQAAAAH5AQEAAAAB-gEgAAAAAQIAAAAYACAdAADNAwAgAwAAABgAIB0AAM0DACAeAADMAwAgARYAAIsFADATBAAA9QIAIAkAAPsCACDZAQAA-gIAMNoBAAAWABDbAQAA-gIAMNwBAQAAAAHdAQEA4AIAId4BAQDgAgAh4AEBAOACACHhAUAA4gIAIe4BAgDfAgAh8wFAAOICACH0AQEA4QIAIfUBAQDgAgAh9gECAN8CACH3AQIA3wIAIfgBAQDgAgAh-QEBAOACACH6ASAA6wIAIQIAAAAYACAWAADMAwAgAgAAAMoDACAWAADLAwAgEdkBAADJAwAw2gEAAMoDABDbAQAAyQMAMNwBAQDgAgAh3QEBAOACACHeAQEA4AIAIeABAQDgAgAh4QFAAOICACHuAQIA3wIAIfMBQADiAgAh9AEBAOECACH1AQEA4AIAIfYBAgDfAgAh9wECAN8CACH4AQEA4AIAIfkBAQDgAgAh-gEgAOsCACER2QEAAMkDADDaAQAAygMAENsBAADJAwAw3AEBAOACACHdAQEA4AIAId4BAQDgAgAh4AEBAOACACHhAUAA4gIAIe4BAgDfAgAh8wFAAOICACH0AQEA4QIAIfUBAQDgAgAh9gECAN8CACH3AQIA3wIAIfgBAQDgAgAh-QEBAOACACH6ASAA6wIAIQ3cAQEAjgMAId0BAQCOAwAh3gEBAI4DACHgAQEAjgMAIeEBQACPAwAh7gECAJgDACHzAUAAjwMAIfUBAQCOAwAh9gECAJgDACH3AQIAmAMAIfgBAQCOAwAh-QEBAI4DACH6ASAAtgMAIQ4EAAC4AwAg3AEBAI4DACHdAQEAjgMAId4BAQCOAwAh4AEBAI4DACHhAUAAjwMAIe4BAgCYAwAh8wFAAI8DACH1AQEAjgMAIfYBAgCYAwAh9wECAJgDACH4AQEAjgMAIfkBAQCOAwAh-gEgALYDACEOBAAAugMAINwBAQAAAAHdAQEAAAAB3gEBAAAAAeABAQAAAAHhAUAAAAAB7gECAAAAAfMBQAAAAAH1AQEAAAAB9gECAAAAAfcBAgAAAAH4AQEAAAAB-QEBAAAAAfoBIAAAAAEDHQAAiQUAIMECAACKBQAgxwIAAAUAIAQdAADCAwAwwQIAAMMDADDDAgAAxQMAIMcCAADGAwAwAAAAAAAAAAAAAAXEAgIAAAABygICAAAAAcsCAgAAAAHMAgIAAAABzQICAAAAAQHEAkAAAAABAAAABR0AAIEFACAeAACHBQAgwQIAAIIFACDCAgAAhgUAIMcCAAAFACAFHQAA_wQAIB4AAIQFACDBAgAAgAUAIMICAACDBQAgxwIAAAUAIAMdAACBBQAgwQIAAIIFACDHAgAABQAgAx0AAP8EACDBAgAAgAUAIMcCAAAFACAAAAAAAAUdAAD6BAAgHgAA_QQAIMECAAD7BAAgwgIAAPwEACDHAgAABQAgAx0AAPoEACDBAgAA-wQAIMcCAAAFACAAAAAAAAcdAADuBAAgHgAA-AQAIMECAADvBAAgwgIAAPcEACDFAgAABwAgxgIAAAcAIMcCAAABACALHQAAuQQAMB4AAL4EADDBAgAAugQAMMICAAC7BAAwwwIAALwEACDEAgAAvQQAMMUCAAC9BAAwxgIAAL0EADDHAgAAvQQAMMgCAAC_BAAwyQIAAMAEADALHQAAsAQAMB4AALQEADDBAgAAsQQAMMICAACyBAAwwwIAALMEACDEAgAAqAQAMMUCAACoBAAwxgIAAKgEADDHAgAAqAQAMMgCAAC1BAAwyQIAAKsEADALHQAApAQAMB4AAKkEADDBAgAApQQAMMICAACmBAAwwwIAAKcEACDEAgAAqAQAMMUCAACoBAAwxgIAAKgEADDHAgAAqAQAMMgCAACqBAAwyQIAAKsEADALHQAAmAQAMB4AAJ0EADDBAgAAmQQAMMICAACaBAAwwwIAAJsEACDEAgAAnAQAMMUCAACcBAAwxgIAAJwEADDHAgAAnAQAMMgCAACeBAAwyQIAAJ8EADALHQAAjwQAMB4AAJMEADDBAgAAkAQAMMICAACRBAAwwwIAAJIEACDEAgAAxgMAMMUCAADGAwAwxgIAAMYDADDHAgAAxgMAMMgCAACUBAAwyQIAAMkDADALHQAAgwQAMB4AAIgEADDBAgAAhAQAMMICAACFBAAwwwIAAIYEACDEAgAAhwQAMMUCAACHBAAwxgIAAIcEADDHAgAAhwQAMMgCAACJBAAwyQIAAIoEADALHQAA9wMAMB4AAPwDADDBAgAA-AMAMMICAAD5AwAwwwIAAPoDACDEAgAA-wMAMMUCAAD7AwAwxgIAAPsDADDHAgAA-wMAMMgCAAD9AwAwyQIAAP4DADAF3AEBAAAAAd4BAQAAAAHfAQEAAAAB4AEBAAAAAeEBQAAAAAECAAAAKAAgHQAAggQAIAMAAAAoACAdAACCBAAgHgAAgQQAIAEWAAD2BAAwCgQAAPUCACDZAQAA9AIAMNoBAAAmABDbAQAA9AIAMNwBAQAAAAHdAQEA4AIAId4BAQDgAgAh3wEBAOACACHgAQEA4AIAIeEBQADiAgAhAgAAACgAIBYAAIEEACACAAAA_wMAIBYAAIAEACAJ2QEAAP4DADDaAQAA_wMAENsBAAD-AwAw3AEBAOACACHdAQEA4AIAId4BAQDgAgAh3wEBAOACACHgAQEA4AIAIeEBQADiAgAhCdkBAAD-AwAw2gEAAP8DABDbAQAA_gMAMNwBAQDgAgAh3QEBAOACACHeAQEA4AIAId8BAQDgAgAh4AEBAOACACHhAUAA4gIAIQXcAQEAjgMAId4BAQCOAwAh3wEBAI4DACHgAQEAjgMAIeEBQACPAwAhBdwBAQCOAwAh3gEBAI4DACHfAQEAjgMAIeABAQCOAwAh4QFAAI8DACEF3AEBAAAAAd4BAQAAAAHfAQEAAAAB4AEBAAAAAeEBQAAAAAEIDAAAsAMAINwBAQAAAAHgAQEAAAAB4QFAAAAAAe4BAgAAAAHxAQEAAAAB8gEBAAAAAfMBQAAAAAECAAAAHwAgHQAAjgQAIAMAAAAfACAdAACOBAAgHgAAjQQAIAEWAAD1BAAwDQQAAPUCACAMAAD5AgAg2QEAAPgCADDaAQAAHQAQ2wEAAPgCADDcAQEAAAAB3QEBAOACACHgAQEA4AIAIeEBQADiAgAh7gECAN8CACHxAQEA4AIAIfIBAQDgAgAh8wFAAOICACECAAAAHwAgFgAAjQQAIAIAAACLBAAgFgAAjAQAIAvZAQAAigQAMNoBAACLBAAQ2wEAAIoEADDcAQEA4AIAId0BAQDgAgAh4AEBAOACACHhAUAA4gIAIe4BAgDfAgAh8QEBAOACACHyAQEA4AIAIfMBQADiAgAhC9kBAACKBAAw2gEAAIsEABDbAQAAigQAMNwBAQDgAgAh3QEBAOACACHgAQEA4AIAIeEBQADiAgAh7gECAN8CACHxAQEA4AIAIfIBAQDgAgAh8wFAAOICACEH3AEBAI4DACHgAQEAjgMAIeEBQACPAwAh7gECAJgDACHxAQEAjgMAIfIBAQCOAwAh8wFAAI8DACEIDAAAogMAINwBAQCOAwAh4AEBAI4DACHhAUAAjwMAIe4BAgCYAwAh8QEBAI4DACHyAQEAjgMAIfMBQACPAwAhCAwAALADACDcAQEAAAAB4AEBAAAAAeEBQAAAAAHuAQIAAAAB8QEBAAAAAfIBAQAAAAHzAUAAAAABDgkAALkDACDcAQEAAAAB3gEBAAAAAeABAQAAAAHhAUAAAAAB7gECAAAAAfMBQAAAAAH0AQEAAAAB9QEBAAAAAfYBAgAAAAH3AQIAAAAB-AEBAAAAAfkBAQAAAAH6ASAAAAABAgAAABgAIB0AAJcEACADAAAAGAAgHQAAlwQAIB4AAJYEACABFgAA9AQAMAIAAAAYACAWAACWBAAgAgAAAMoDACAWAACVBAAgDdwBAQCOAwAh3gEBAI4DACHgAQEAjgMAIeEBQACPAwAh7gECAJgDACHzAUAAjwMAIfQBAQCZAwAh9QEBAI4DACH2AQIAmAMAIfcBAgCYAwAh-AEBAI4DACH5AQEAjgMAIfoBIAC2AwAhDgkAALcDACDcAQEAjgMAId4BAQCOAwAh4AEBAI4DACHhAUAAjwMAIe4BAgCYAwAh8wFAAI8DACH0AQEAmQMAIfUBAQCOAwAh9gECAJgDACH3AQIAmAMAIfgBAQCOAwAh-QEBAI4DACH6ASAAtgMAIQ4JAAC5AwAg3AEBAAAAAd4BAQAAAAHgAQEAAAAB4QFAAAAAAe4BAgAAAAHzAUAAAAAB9AEBAAAAAfUBAQAAAAH2AQIAAAAB9wECAAAAAfgBAQAAAAH5AQEAAAAB-gEgAAAAAQkKAADPAwAg3AEBAAAAAeEBQAAAAAHuAQIAAAAB7wEBAAAAAfABAQAAAAH7AQEAAAAB_AEBAAAAAf0BAQAAAAECAAAAFAAgHQAAowQAIAMAAAAUACAdAACjBAAgHgAAogQAIAEWAADzBAAwDgQAAPUCACAKAAD9AgAg2QEAAPwCADDaAQAAEgAQ2wEAAPwCADDcAQEAAAAB3QEBAOACACHhAUAA4gIAIe4BAgDfAgAh7wEBAOACACHwAQEA4QIAIfsBAQDgAgAh_AEBAOACACH9AQEA4QIAIQIAAAAUACAWAACiBAAgAgAAAKAEACAWAAChBAAgDNkBAACfBAAw2gEAAKAEABDbAQAAnwQAMNwBAQDgAgAh3QEBAOACACHhAUAA4gIAIe4BAgDfAgAh7wEBAOACACHwAQEA4QIAIfsBAQDgAgAh_AEBAOACACH9AQEA4QIAIQzZAQAAnwQAMNoBAACgBAAQ2wEAAJ8EADDcAQEA4AIAId0BAQDgAgAh4QFAAOICACHuAQIA3wIAIe8BAQDgAgAh8AEBAOECACH7AQEA4AIAIfwBAQDgAgAh_QEBAOECACEI3AEBAI4DACHhAUAAjwMAIe4BAgCYAwAh7wEBAI4DACHwAQEAmQMAIfsBAQCOAwAh_AEBAI4DACH9AQEAmQMAIQkKAADBAwAg3AEBAI4DACHhAUAAjwMAIe4BAgCYAwAh7wEBAI4DACHwAQEAmQMAIfsBAQCOAwAh_AEBAI4DACH9AQEAmQMAIQkKAADPAwAg3AEBAAAAAeEBQAAAAAHuAQIAAAAB7wEBAAAAAfABAQAAAAH7AQEAAAAB_AEBAAAAAf0BAQAAAAECBAAA4QMAIN0BAQAAAAECAAAADwAgHQAArwQAIAMAAAAPACAdAACvBAAgHgAArgQAIAEWAADyBAAwCAQAAPUCACAGAAD1AgAg2QEAAP8CADDaAQAADQAQ2wEAAP8CADDdAQEA4AIAIZUCAQDgAgAhvQIAAP4CACACAAAADwAgFgAArgQAIAIAAACsBAAgFgAArQQAIAXZAQAAqwQAMNoBAACsBAAQ2wEAAKsEADDdAQEA4AIAIZUCAQDgAgAhBdkBAACrBAAw2gEAAKwEABDbAQAAqwQAMN0BAQDgAgAhlQIBAOACACEB3QEBAI4DACECBAAA3wMAIN0BAQCOAwAhAgQAAOEDACDdAQEAAAABAgYAAOIDACCVAgEAAAABAgAAAA8AIB0AALgEACADAAAADwAgHQAAuAQAIB4AALcEACABFgAA8QQAMAIAAAAPACAWAAC3BAAgAgAAAKwEACAWAAC2BAAgAZUCAQCOAwAhAgYAAOADACCVAgEAjgMAIQIGAADiAwAglQIBAAAAAQncAQEAAAAB8gEBAAAAAYACAQAAAAGWAgIAAAABlwIBAAAAAZgCAQAAAAGZAgEAAAABmgJAAAAAAZsCQAAAAAECAAAACwAgHQAAxAQAIAMAAAALACAdAADEBAAgHgAAwwQAIAEWAADwBAAwDwQAAPUCACDZAQAAgQMAMNoBAAAJABDbAQAAgQMAMNwBAQAAAAHdAQEA4AIAIfIBAQDgAgAhgAIBAOECACGWAgIA3wIAIZcCAQDhAgAhmAIBAOECACGZAgEA4QIAIZoCQADiAgAhmwJAAO0CACG-AgAAgAMAIAIAAAALACAWAADDBAAgAgAAAMEEACAWAADCBAAgDdkBAADABAAw2gEAAMEEABDbAQAAwAQAMNwBAQDgAgAh3QEBAOACACHyAQEA4AIAIYACAQDhAgAhlgICAN8CACGXAgEA4QIAIZgCAQDhAgAhmQIBAOECACGaAkAA4gIAIZsCQADtAgAhDdkBAADABAAw2gEAAMEEABDbAQAAwAQAMNwBAQDgAgAh3QEBAOACACHyAQEA4AIAIYACAQDhAgAhlgICAN8CACGXAgEA4QIAIZgCAQDhAgAhmQIBAOECACGaAkAA4gIAIZsCQADtAgAhCdwBAQCOAwAh8gEBAI4DACGAAgEAmQMAIZYCAgCYAwAhlwIBAJkDACGYAgEAmQMAIZkCAQCZAwAhmgJAAI8DACGbAkAA2wMAIQncAQEAjgMAIfIBAQCOAwAhgAIBAJkDACGWAgIAmAMAIZcCAQCZAwAhmAIBAJkDACGZAgEAmQMAIZoCQACPAwAhmwJAANsDACEJ3AEBAAAAAfIBAQAAAAGAAgEAAAABlgICAAAAAZcCAQAAAAGYAgEAAAABmQIBAAAAAZoCQAAAAAGbAkAAAAABAx0AAO4EACDBAgAA7wQAIMcCAAABACAEHQAAuQQAMMECAAC6BAAwwwIAALwEACDHAgAAvQQAMAQdAACwBAAwwQIAALEEADDDAgAAswQAIMcCAACoBAAwBB0AAKQEADDBAgAApQQAMMMCAACnBAAgxwIAAKgEADAEHQAAmAQAMMECAACZBAAwwwIAAJsEACDHAgAAnAQAMAQdAACPBAAwwQIAAJAEADDDAgAAkgQAIMcCAADGAwAwBB0AAIMEADDBAgAAhAQAMMMCAACGBAAgxwIAAIcEADAEHQAA9wMAMMECAAD4AwAwwwIAAPoDACDHAgAA-wMAMAAAAAAAAAsdAADUBAAwHgAA2QQAMMECAADVBAAwwgIAANYEADDDAgAA1wQAIMQCAADYBAAwxQIAANgEADDGAgAA2AQAMMcCAADYBAAwyAIAANoEADDJAgAA2wQAMCgFAADGBAAgBwAAxwQAIAgAAMgEACAKAADKBAAgDAAAyQQAIA4AAMsEACAPAADMBAAg3AEBAAAAAeEBQAAAAAHuAQIAAAAB8gEBAAAAAfMBQAAAAAGAAgEAAAABgwIBAAAAAYUCAQAAAAGGAgEAAAABiQIBAAAAAZQCIAAAAAGYAgEAAAABnAIBAAAAAZ0CAQAAAAGfAgEAAAABoAIBAAAAAaECAQAAAAGiAgEAAAABowIBAAAAAaQCAQAAAAGlAgEAAAABpgIBAAAAAacCAQAAAAGoAgEAAAABqQIBAAAAAaoCIAAAAAGrAgEAAAABrAIBAAAAAa0CAQAAAAGuAgEAAAABrwJAAAAAAbACIAAAAAGxAgEAAAABAgAAAAUAIB0AAN8EACADAAAABQAgHQAA3wQAIB4AAN4EACABFgAA7QQAMC0DAACFAwAgBQAAhgMAIAcAAIcDACAIAACHAwAgCgAA_QIAIAwAAIgDACAOAACJAwAgDwAAigMAINkBAACEAwAw2gEAAAMAENsBAACEAwAw3AEBAAAAAeEBQADiAgAh7gECAN8CACHyAQEA4AIAIfMBQADiAgAhgAIBAOECACGDAgEA4QIAIYUCAQDhAgAhhgIBAOECACGJAgEA4AIAIZQCIADrAgAhmAIBAOECACGcAgEA4AIAIZ0CAQDhAgAhngIBAOECACGfAgEA4AIAIaACAQDgAgAhoQIBAOACACGiAgEA4AIAIaMCAQDhAgAhpAIBAOECACGlAgEA4QIAIaYCAQDhAgAhpwIBAOECACGoAgEA4QIAIakCAQDhAgAhqgIgAOsCACGrAgEA4QIAIawCAQDhAgAhrQIBAOECACGuAgEA4QIAIa8CQADtAgAhsAIgAOsCACGxAgEA4QIAIQIAAAAFACAWAADeBAAgAgAAANwEACAWAADdBAAgJdkBAADbBAAw2gEAANwEABDbAQAA2wQAMNwBAQDgAgAh4QFAAOICACHuAQIA3wIAIfIBAQDgAgAh8wFAAOICACGAAgEA4QIAIYMCAQDhAgAhhQIBAOECACGGAgEA4QIAIYkCAQDgAgAhlAIgAOsCACGYAgEA4QIAIZwCAQDgAgAhnQIBAOECACGeAgEA4QIAIZ8CAQDgAgAhoAIBAOACACGhAgEA4AIAIaICAQDgAgAhowIBAOECACGkAgEA4QIAIaUCAQDhAgAhpgIBAOECACGnAgEA4QIAIagCAQDhAgAhqQIBAOECACGqAiAA6wIAIasCAQDhAgAhrAIBAOECACGtAgEA4QIAIa4CAQDhAgAhrwJAAO0CACGwAiAA6wIAIbECAQDhAgAhJdkBAADbBAAw2gEAANwEABDbAQAA2wQAMNwBAQDgAgAh4QFAAOICACHuAQIA3wIAIfIBAQDgAgAh8wFAAOICACGAAgEA4QIAIYMCAQDhAgAhhQIBAOECACGGAgEA4QIAIYkCAQDgAgAhlAIgAOsCACGYAgEA4QIAIZwCAQDgAgAhnQIBAOECACGeAgEA4QIAIZ8CAQDgAgAhoAIBAOACACGhAgEA4AIAIaICAQDgAgAhowIBAOECACGkAgEA4QIAIaUCAQDhAgAhpgIBAOECACGnAgEA4QIAIagCAQDhAgAhqQIBAOECACGqAiAA6wIAIasCAQDhAgAhrAIBAOECACGtAgEA4QIAIa4CAQDhAgAhrwJAAO0CACGwAiAA6wIAIbECAQDhAgAhIdwBAQCOAwAh4QFAAI8DACHuAQIAmAMAIfIBAQCOAwAh8wFAAI8DACGAAgEAmQMAIYMCAQCZAwAhhQIBAJkDACGGAgEAmQMAIYkCAQCOAwAhlAIgALYDACGYAgEAmQMAIZwCAQCOAwAhnQIBAJkDACGfAgEAjgMAIaACAQCOAwAhoQIBAI4DACGiAgEAjgMAIaMCAQCZAwAhpAIBAJkDACGlAgEAmQMAIaYCAQCZAwAhpwIBAJkDACGoAgEAmQMAIakCAQCZAwAhqgIgALYDACGrAgEAmQMAIawCAQCZAwAhrQIBAJkDACGuAgEAmQMAIa8CQADbAwAhsAIgALYDACGxAgEAmQMAISgFAADwAwAgBwAA8QMAIAgAAPIDACAKAAD0AwAgDAAA8wMAIA4AAPUDACAPAAD2AwAg3AEBAI4DACHhAUAAjwMAIe4BAgCYAwAh8gEBAI4DACHzAUAAjwMAIYACAQCZAwAhgwIBAJkDACGFAgEAmQMAIYYCAQCZAwAhiQIBAI4DACGUAiAAtgMAIZgCAQCZAwAhnAIBAI4DACGdAgEAmQMAIZ8CAQCOAwAhoAIBAI4DACGhAgEAjgMAIaICAQCOAwAhowIBAJkDACGkAgEAmQMAIaUCAQCZAwAhpgIBAJkDACGnAgEAmQMAIagCAQCZAwAhqQIBAJkDACGqAiAAtgMAIasCAQCZAwAhrAIBAJkDACGtAgEAmQMAIa4CAQCZAwAhrwJAANsDACGwAiAAtgMAIbECAQCZAwAhKAUAAMYEACAHAADHBAAgCAAAyAQAIAoAAMoEACAMAADJBAAgDgAAywQAIA8AAMwEACDcAQEAAAAB4QFAAAAAAe4BAgAAAAHyAQEAAAAB8wFAAAAAAYACAQAAAAGDAgEAAAABhQIBAAAAAYYCAQAAAAGJAgEAAAABlAIgAAAAAZgCAQAAAAGcAgEAAAABnQIBAAAAAZ8CAQAAAAGgAgEAAAABoQIBAAAAAaICAQAAAAGjAgEAAAABpAIBAAAAAaUCAQAAAAGmAgEAAAABpwIBAAAAAagCAQAAAAGpAgEAAAABqgIgAAAAAasCAQAAAAGsAgEAAAABrQIBAAAAAa4CAQAAAAGvAkAAAAABsAIgAAAAAbECAQAAAAEEHQAA1AQAMMECAADVBAAwwwIAANcEACDHAgAA2AQAMAAcAwAA5wQAIAUAAOgEACAHAADpBAAgCAAA6QQAIAoAAOYEACAMAADqBAAgDgAA6wQAIA8AAOwEACCAAgAAkgMAIIMCAACSAwAghQIAAJIDACCGAgAAkgMAIJgCAACSAwAgnQIAAJIDACCeAgAAkgMAIKMCAACSAwAgpAIAAJIDACClAgAAkgMAIKYCAACSAwAgpwIAAJIDACCoAgAAkgMAIKkCAACSAwAgqwIAAJIDACCsAgAAkgMAIK0CAACSAwAgrgIAAJIDACCvAgAAkgMAILECAACSAwAgAgQAAOIEACAMAADkBAAgAAQEAADiBAAgCgAA5gQAIPABAACSAwAg_QEAAJIDACAAAhAAAOEEACC5AgAAkgMAIAAAAAAAIdwBAQAAAAHhAUAAAAAB7gECAAAAAfIBAQAAAAHzAUAAAAABgAIBAAAAAYMCAQAAAAGFAgEAAAABhgIBAAAAAYkCAQAAAAGUAiAAAAABmAIBAAAAAZwCAQAAAAGdAgEAAAABnwIBAAAAAaACAQAAAAGhAgEAAAABogIBAAAAAaMCAQAAAAGkAgEAAAABpQIBAAAAAaYCAQAAAAGnAgEAAAABqAIBAAAAAakCAQAAAAGqAiAAAAABqwIBAAAAAawCAQAAAAGtAgEAAAABrgIBAAAAAa8CQAAAAAGwAiAAAAABsQIBAAAAAQbcAQEAAAAB4QFAAAAAAfMBQAAAAAH1AQEAAAABsgIBAAAAAbkCAQAAAAECAAAAAQAgHQAA7gQAIAncAQEAAAAB8gEBAAAAAYACAQAAAAGWAgIAAAABlwIBAAAAAZgCAQAAAAGZAgEAAAABmgJAAAAAAZsCQAAAAAEBlQIBAAAAAQHdAQEAAAABCNwBAQAAAAHhAUAAAAAB7gECAAAAAe8BAQAAAAHwAQEAAAAB-wEBAAAAAfwBAQAAAAH9AQEAAAABDdwBAQAAAAHeAQEAAAAB4AEBAAAAAeEBQAAAAAHuAQIAAAAB8wFAAAAAAfQBAQAAAAH1AQEAAAAB9gECAAAAAfcBAgAAAAH4AQEAAAAB-QEBAAAAAfoBIAAAAAEH3AEBAAAAAeABAQAAAAHhAUAAAAAB7gECAAAAAfEBAQAAAAHyAQEAAAAB8wFAAAAAAQXcAQEAAAAB3gEBAAAAAd8BAQAAAAHgAQEAAAAB4QFAAAAAAQMAAAAHACAdAADuBAAgHgAA-QQAIAgAAAAHACAWAAD5BAAg3AEBAI4DACHhAUAAjwMAIfMBQACPAwAh9QEBAI4DACGyAgEAjgMAIbkCAQCZAwAhBtwBAQCOAwAh4QFAAI8DACHzAUAAjwMAIfUBAQCOAwAhsgIBAI4DACG5AgEAmQMAISkDAADFBAAgBwAAxwQAIAgAAMgEACAKAADKBAAgDAAAyQQAIA4AAMsEACAPAADMBAAg3AEBAAAAAeEBQAAAAAHuAQIAAAAB8gEBAAAAAfMBQAAAAAGAAgEAAAABgwIBAAAAAYUCAQAAAAGGAgEAAAABiQIBAAAAAZQCIAAAAAGYAgEAAAABnAIBAAAAAZ0CAQAAAAGeAgEAAAABnwIBAAAAAaACAQAAAAGhAgEAAAABogIBAAAAAaMCAQAAAAGkAgEAAAABpQIBAAAAAaYCAQAAAAGnAgEAAAABqAIBAAAAAakCAQAAAAGqAiAAAAABqwIBAAAAAawCAQAAAAGtAgEAAAABrgIBAAAAAa8CQAAAAAGwAiAAAAABsQIBAAAAAQIAAAAFACAdAAD6BAAgAwAAAAMAIB0AAPoEACAeAAD-BAAgKwAAAAMAIAMAAO8DACAHAADxAwAgCAAA8gMAIAoAAPQDACAMAADzAwAgDgAA9QMAIA8AAPYDACAWAAD-BAAg3AEBAI4DACHhAUAAjwMAIe4BAgCYAwAh8gEBAI4DACHzAUAAjwMAIYACAQCZAwAhgwIBAJkDACGFAgEAmQMAIYYCAQCZAwAhiQIBAI4DACGUAiAAtgMAIZgCAQCZAwAhnAIBAI4DACGdAgEAmQMAIZ4CAQCZAwAhnwIBAI4DACGgAgEAjgMAIaECAQCOAwAhogIBAI4DACGjAgEAmQMAIaQCAQCZAwAhpQIBAJkDACGmAgEAmQMAIacCAQCZAwAhqAIBAJkDACGpAgEAmQMAIaoCIAC2AwAhqwIBAJkDACGsAgEAmQMAIa0CAQCZAwAhrgIBAJkDACGvAkAA2wMAIbACIAC2AwAhsQIBAJkDACEpAwAA7wMAIAcAAPEDACAIAADyAwAgCgAA9AMAIAwAAPMDACAOAAD1AwAgDwAA9gMAINwBAQCOAwAh4QFAAI8DACHuAQIAmAMAIfIBAQCOAwAh8wFAAI8DACGAAgEAmQMAIYMCAQCZAwAhhQIBAJkDACGGAgEAmQMAIYkCAQCOAwAhlAIgALYDACGYAgEAmQMAIZwCAQCOAwAhnQIBAJkDACGeAgEAmQMAIZ8CAQCOAwAhoAIBAI4DACGhAgEAjgMAIaICAQCOAwAhowIBAJkDACGkAgEAmQMAIaUCAQCZAwAhpgIBAJkDACGnAgEAmQMAIagCAQCZAwAhqQIBAJkDACGqAiAAtgMAIasCAQCZAwAhrAIBAJkDACGtAgEAmQMAIa4CAQCZAwAhrwJAANsDACGwAiAAtgMAIbECAQCZAwAhKQMAAMUEACAFAADGBAAgBwAAxwQAIAoAAMoEACAMAADJBAAgDgAAywQAIA8AAMwEACDcAQEAAAAB4QFAAAAAAe4BAgAAAAHyAQEAAAAB8wFAAAAAAYACAQAAAAGDAgEAAAABhQIBAAAAAYYCAQAAAAGJAgEAAAABlAIgAAAAAZgCAQAAAAGcAgEAAAABnQIBAAAAAZ4CAQAAAAGfAgEAAAABoAIBAAAAAaECAQAAAAGiAgEAAAABowIBAAAAAaQCAQAAAAGlAgEAAAABpgIBAAAAAacCAQAAAAGoAgEAAAABqQIBAAAAAaoCIAAAAAGrAgEAAAABrAIBAAAAAa0CAQAAAAGuAgEAAAABrwJAAAAAAbACIAAAAAGxAgEAAAABAgAAAAUAIB0AAP8EACApAwAAxQQAIAUAAMYEACAIAADIBAAgCgAAygQAIAwAAMkEACAOAADLBAAgDwAAzAQAINwBAQAAAAHhAUAAAAAB7gECAAAAAfIBAQAAAAHzAUAAAAABgAIBAAAAAYMCAQAAAAGFAgEAAAABhgIBAAAAAYkCAQAAAAGUAiAAAAABmAIBAAAAAZwCAQAAAAGdAgEAAAABngIBAAAAAZ8CAQAAAAGgAgEAAAABoQIBAAAAAaICAQAAAAGjAgEAAAABpAIBAAAAAaUCAQAAAAGmAgEAAAABpwIBAAAAAagCAQAAAAGpAgEAAAABqgIgAAAAAasCAQAAAAGsAgEAAAABrQIBAAAAAa4CAQAAAAGvAkAAAAABsAIgAAAAAbECAQAAAAECAAAABQAgHQAAgQUAIAMAAAADACAdAAD_BAAgHgAAhQUAICsAAAADACADAADvAwAgBQAA8AMAIAcAAPEDACAKAAD0AwAgDAAA8wMAIA4AAPUDACAPAAD2AwAgFgAAhQUAINwBAQCOAwAh4QFAAI8DACHuAQIAmAMAIfIBAQCOAwAh8wFAAI8DACGAAgEAmQMAIYMCAQCZAwAhhQIBAJkDACGGAgEAmQMAIYkCAQCOAwAhlAIgALYDACGYAgEAmQMAIZwCAQCOAwAhnQIBAJkDACGeAgEAmQMAIZ8CAQCOAwAhoAIBAI4DACGhAgEAjgMAIaICAQCOAwAhowIBAJkDACGkAgEAmQMAIaUCAQCZAwAhpgIBAJkDACGnAgEAmQMAIagCAQCZAwAhqQIBAJkDACGqAiAAtgMAIasCAQCZAwAhrAIBAJkDACGtAgEAmQMAIa4CAQCZAwAhrwJAANsDACGwAiAAtgMAIbECAQCZAwAhKQMAAO8DACAFAADwAwAgBwAA8QMAIAoAAPQDACAMAADzAwAgDgAA9QMAIA8AAPYDACDcAQEAjgMAIeEBQACPAwAh7gECAJgDACHyAQEAjgMAIfMBQACPAwAhgAIBAJkDACGDAgEAmQMAIYUCAQCZAwAhhgIBAJkDACGJAgEAjgMAIZQCIAC2AwAhmAIBAJkDACGcAgEAjgMAIZ0CAQCZAwAhngIBAJkDACGfAgEAjgMAIaACAQCOAwAhoQIBAI4DACGiAgEAjgMAIaMCAQCZAwAhpAIBAJkDACGlAgEAmQMAIaYCAQCZAwAhpwIBAJkDACGoAgEAmQMAIakCAQCZAwAhqgIgALYDACGrAgEAmQMAIawCAQCZAwAhrQIBAJkDACGuAgEAmQMAIa8CQADbAwAhsAIgALYDACGxAgEAmQMAIQMAAAADACAdAACBBQAgHgAAiAUAICsAAAADACADAADvAwAgBQAA8AMAIAgAAPIDACAKAAD0AwAgDAAA8wMAIA4AAPUDACAPAAD2AwAgFgAAiAUAINwBAQCOAwAh4QFAAI8DACHuAQIAmAMAIfIBAQCOAwAh8wFAAI8DACGAAgEAmQMAIYMCAQCZAwAhhQIBAJkDACGGAgEAmQMAIYkCAQCOAwAhlAIgALYDACGYAgEAmQMAIZwCAQCOAwAhnQIBAJkDACGeAgEAmQMAIZ8CAQCOAwAhoAIBAI4DACGhAgEAjgMAIaICAQCOAwAhowIBAJkDACGkAgEAmQMAIaUCAQCZAwAhpgIBAJkDACGnAgEAmQMAIagCAQCZAwAhqQIBAJkDACGqAiAAtgMAIasCAQCZAwAhrAIBAJkDACGtAgEAmQMAIa4CAQCZAwAhrwJAANsDACGwAiAAtgMAIbECAQCZAwAhKQMAAO8DACAFAADwAwAgCAAA8gMAIAoAAPQDACAMAADzAwAgDgAA9QMAIA8AAPYDACDcAQEAjgMAIeEBQACPAwAh7gECAJgDACHyAQEAjgMAIfMBQACPAwAhgAIBAJkDACGDAgEAmQMAIYUCAQCZAwAhhgIBAJkDACGJAgEAjgMAIZQCIAC2AwAhmAIBAJkDACGcAgEAjgMAIZ0CAQCZAwAhngIBAJkDACGfAgEAjgMAIaACAQCOAwAhoQIBAI4DACGiAgEAjgMAIaMCAQCZAwAhpAIBAJkDACGlAgEAmQMAIaYCAQCZAwAhpwIBAJkDACGoAgEAmQMAIakCAQCZAwAhqgIgALYDACGrAgEAmQMAIawCAQCZAwAhrQIBAJkDACGuAgEAmQMAIa8CQADbAwAhsAIgALYDACGxAgEAmQMAISkDAADFBAAgBQAAxgQAIAcAAMcEACAIAADIBAAgCgAAygQAIA4AAMsEACAPAADMBAAg3AEBAAAAAeEBQAAAAAHuAQIAAAAB8gEBAAAAAfMBQAAAAAGAAgEAAAABgwIBAAAAAYUCAQAAAAGGAgEAAAABiQIBAAAAAZQCIAAAAAGYAgEAAAABnAIBAAAAAZ0CAQAAAAGeAgEAAAABnwIBAAAAAaACAQAAAAGhAgEAAAABogIBAAAAAaMCAQAAAAGkAgEAAAABpQIBAAAAAaYCAQAAAAGnAgEAAAABqAIBAAAAAakCAQAAAAGqAiAAAAABqwIBAAAAAawCAQAAAAGtAgEAAAABrgIBAAAAAa8CQAAAAAGwAiAAAAABsQIBAAAAAQIAAAAFACAdAACJBQAgDdwBAQAAAAHdAQEAAAAB3gEBAAAAAeABAQAAAAHhAUAAAAAB7gECAAAAAfMBQAAAAAH1AQEAAAAB9gECAAAAAfcBAgAAAAH4AQEAAAAB-QEBAAAAAfoBIAAAAAEDAAAAAwAgHQAAiQUAIB4AAI4FACArAAAAAwAgAwAA7wMAIAUAAPADACAHAADxAwAgCAAA8gMAIAoAAPQDACAOAAD1AwAgDwAA9gMAIBYAAI4FACDcAQEAjgMAIeEBQACPAwAh7gECAJgDACHyAQEAjgMAIfMBQACPAwAhgAIBAJkDACGDAgEAmQMAIYUCAQCZAwAhhgIBAJkDACGJAgEAjgMAIZQCIAC2AwAhmAIBAJkDACGcAgEAjgMAIZ0CAQCZAwAhngIBAJkDACGfAgEAjgMAIaACAQCOAwAhoQIBAI4DACGiAgEAjgMAIaMCAQCZAwAhpAIBAJkDACGlAgEAmQMAIaYCAQCZAwAhpwIBAJkDACGoAgEAmQMAIakCAQCZAwAhqgIgALYDACGrAgEAmQMAIawCAQCZAwAhrQIBAJkDACGuAgEAmQMAIa8CQADbAwAhsAIgALYDACGxAgEAmQMAISkDAADvAwAgBQAA8AMAIAcAAPEDACAIAADyAwAgCgAA9AMAIA4AAPUDACAPAAD2AwAg3AEBAI4DACHhAUAAjwMAIe4BAgCYAwAh8gEBAI4DACHzAUAAjwMAIYACAQCZAwAhgwIBAJkDACGFAgEAmQMAIYYCAQCZAwAhiQIBAI4DACGUAiAAtgMAIZgCAQCZAwAhnAIBAI4DACGdAgEAmQMAIZ4CAQCZAwAhnwIBAI4DACGgAgEAjgMAIaECAQCOAwAhogIBAI4DACGjAgEAmQMAIaQCAQCZAwAhpQIBAJkDACGmAgEAmQMAIacCAQCZAwAhqAIBAJkDACGpAgEAmQMAIaoCIAC2AwAhqwIBAJkDACGsAgEAmQMAIa0CAQCZAwAhrgIBAJkDACGvAkAA2wMAIbACIAC2AwAhsQIBAJkDACEpAwAAxQQAIAUAAMYEACAHAADHBAAgCAAAyAQAIAwAAMkEACAOAADLBAAgDwAAzAQAINwBAQAAAAHhAUAAAAAB7gECAAAAAfIBAQAAAAHzAUAAAAABgAIBAAAAAYMCAQAAAAGFAgEAAAABhgIBAAAAAYkCAQAAAAGUAiAAAAABmAIBAAAAAZwCAQAAAAGdAgEAAAABngIBAAAAAZ8CAQAAAAGgAgEAAAABoQIBAAAAAaICAQAAAAGjAgEAAAABpAIBAAAAAaUCAQAAAAGmAgEAAAABpwIBAAAAAagCAQAAAAGpAgEAAAABqgIgAAAAAasCAQAAAAGsAgEAAAABrQIBAAAAAa4CAQAAAAGvAkAAAAABsAIgAAAAAbECAQAAAAECAAAABQAgHQAAjwUAIAoEAADOAwAg3AEBAAAAAd0BAQAAAAHhAUAAAAAB7gECAAAAAe8BAQAAAAHwAQEAAAAB-wEBAAAAAfwBAQAAAAH9AQEAAAABAgAAABQAIB0AAJEFACADAAAAAwAgHQAAjwUAIB4AAJUFACArAAAAAwAgAwAA7wMAIAUAAPADACAHAADxAwAgCAAA8gMAIAwAAPMDACAOAAD1AwAgDwAA9gMAIBYAAJUFACDcAQEAjgMAIeEBQACPAwAh7gECAJgDACHyAQEAjgMAIfMBQACPAwAhgAIBAJkDACGDAgEAmQMAIYUCAQCZAwAhhgIBAJkDACGJAgEAjgMAIZQCIAC2AwAhmAIBAJkDACGcAgEAjgMAIZ0CAQCZAwAhngIBAJkDACGfAgEAjgMAIaACAQCOAwAhoQIBAI4DACGiAgEAjgMAIaMCAQCZAwAhpAIBAJkDACGlAgEAmQMAIaYCAQCZAwAhpwIBAJkDACGoAgEAmQMAIakCAQCZAwAhqgIgALYDACGrAgEAmQMAIawCAQCZAwAhrQIBAJkDACGuAgEAmQMAIa8CQADbAwAhsAIgALYDACGxAgEAmQMAISkDAADvAwAgBQAA8AMAIAcAAPEDACAIAADyAwAgDAAA8wMAIA4AAPUDACAPAAD2AwAg3AEBAI4DACHhAUAAjwMAIe4BAgCYAwAh8gEBAI4DACHzAUAAjwMAIYACAQCZAwAhgwIBAJkDACGFAgEAmQMAIYYCAQCZAwAhiQIBAI4DACGUAiAAtgMAIZgCAQCZAwAhnAIBAI4DACGdAgEAmQMAIZ4CAQCZAwAhnwIBAI4DACGgAgEAjgMAIaECAQCOAwAhogIBAI4DACGjAgEAmQMAIaQCAQCZAwAhpQIBAJkDACGmAgEAmQMAIacCAQCZAwAhqAIBAJkDACGpAgEAmQMAIaoCIAC2AwAhqwIBAJkDACGsAgEAmQMAIa0CAQCZAwAhrgIBAJkDACGvAkAA2wMAIbACIAC2AwAhsQIBAJkDACEDAAAAEgAgHQAAkQUAIB4AAJgFACAMAAAAEgAgBAAAwAMAIBYAAJgFACDcAQEAjgMAId0BAQCOAwAh4QFAAI8DACHuAQIAmAMAIe8BAQCOAwAh8AEBAJkDACH7AQEAjgMAIfwBAQCOAwAh_QEBAJkDACEKBAAAwAMAINwBAQCOAwAh3QEBAI4DACHhAUAAjwMAIe4BAgCYAwAh7wEBAI4DACHwAQEAmQMAIfsBAQCOAwAh_AEBAI4DACH9AQEAmQMAISkDAADFBAAgBQAAxgQAIAcAAMcEACAIAADIBAAgCgAAygQAIAwAAMkEACAPAADMBAAg3AEBAAAAAeEBQAAAAAHuAQIAAAAB8gEBAAAAAfMBQAAAAAGAAgEAAAABgwIBAAAAAYUCAQAAAAGGAgEAAAABiQIBAAAAAZQCIAAAAAGYAgEAAAABnAIBAAAAAZ0CAQAAAAGeAgEAAAABnwIBAAAAAaACAQAAAAGhAgEAAAABogIBAAAAAaMCAQAAAAGkAgEAAAABpQIBAAAAAaYCAQAAAAGnAgEAAAABqAIBAAAAAakCAQAAAAGqAiAAAAABqwIBAAAAAawCAQAAAAGtAgEAAAABrgIBAAAAAa8CQAAAAAGwAiAAAAABsQIBAAAAAQIAAAAFACAdAACZBQAgBtwBAQAAAAHhAUAAAAAB7gECAAAAAe8BAQAAAAHwAQEAAAAB8QEBAAAAAQMAAAADACAdAACZBQAgHgAAngUAICsAAAADACADAADvAwAgBQAA8AMAIAcAAPEDACAIAADyAwAgCgAA9AMAIAwAAPMDACAPAAD2AwAgFgAAngUAINwBAQCOAwAh4QFAAI8DACHuAQIAmAMAIfIBAQCOAwAh8wFAAI8DACGAAgEAmQMAIYMCAQCZAwAhhQIBAJkDACGGAgEAmQMAIYkCAQCOAwAhlAIgALYDACGYAgEAmQMAIZwCAQCOAwAhnQIBAJkDACGeAgEAmQMAIZ8CAQCOAwAhoAIBAI4DACGhAgEAjgMAIaICAQCOAwAhowIBAJkDACGkAgEAmQMAIaUCAQCZAwAhpgIBAJkDACGnAgEAmQMAIagCAQCZAwAhqQIBAJkDACGqAiAAtgMAIasCAQCZAwAhrAIBAJkDACGtAgEAmQMAIa4CAQCZAwAhrwJAANsDACGwAiAAtgMAIbECAQCZAwAhKQMAAO8DACAFAADwAwAgBwAA8QMAIAgAAPIDACAKAAD0AwAgDAAA8wMAIA8AAPYDACDcAQEAjgMAIeEBQACPAwAh7gECAJgDACHyAQEAjgMAIfMBQACPAwAhgAIBAJkDACGDAgEAmQMAIYUCAQCZAwAhhgIBAJkDACGJAgEAjgMAIZQCIAC2AwAhmAIBAJkDACGcAgEAjgMAIZ0CAQCZAwAhngIBAJkDACGfAgEAjgMAIaACAQCOAwAhoQIBAI4DACGiAgEAjgMAIaMCAQCZAwAhpAIBAJkDACGlAgEAmQMAIaYCAQCZAwAhpwIBAJkDACGoAgEAmQMAIakCAQCZAwAhqgIgALYDACGrAgEAmQMAIawCAQCZAwAhrQIBAJkDACGuAgEAmQMAIa8CQADbAwAhsAIgALYDACGxAgEAmQMAIQkEAACvAwAg3AEBAAAAAd0BAQAAAAHgAQEAAAAB4QFAAAAAAe4BAgAAAAHxAQEAAAAB8gEBAAAAAfMBQAAAAAECAAAAHwAgHQAAnwUAIAMAAAAdACAdAACfBQAgHgAAowUAIAsAAAAdACAEAAChAwAgFgAAowUAINwBAQCOAwAh3QEBAI4DACHgAQEAjgMAIeEBQACPAwAh7gECAJgDACHxAQEAjgMAIfIBAQCOAwAh8wFAAI8DACEJBAAAoQMAINwBAQCOAwAh3QEBAI4DACHgAQEAjgMAIeEBQACPAwAh7gECAJgDACHxAQEAjgMAIfIBAQCOAwAh8wFAAI8DACEpAwAAxQQAIAUAAMYEACAHAADHBAAgCAAAyAQAIAoAAMoEACAMAADJBAAgDgAAywQAINwBAQAAAAHhAUAAAAAB7gECAAAAAfIBAQAAAAHzAUAAAAABgAIBAAAAAYMCAQAAAAGFAgEAAAABhgIBAAAAAYkCAQAAAAGUAiAAAAABmAIBAAAAAZwCAQAAAAGdAgEAAAABngIBAAAAAZ8CAQAAAAGgAgEAAAABoQIBAAAAAaICAQAAAAGjAgEAAAABpAIBAAAAAaUCAQAAAAGmAgEAAAABpwIBAAAAAagCAQAAAAGpAgEAAAABqgIgAAAAAasCAQAAAAGsAgEAAAABrQIBAAAAAa4CAQAAAAGvAkAAAAABsAIgAAAAAbECAQAAAAECAAAABQAgHQAApAUAIAMAAAADACAdAACkBQAgHgAAqAUAICsAAAADACADAADvAwAgBQAA8AMAIAcAAPEDACAIAADyAwAgCgAA9AMAIAwAAPMDACAOAAD1AwAgFgAAqAUAINwBAQCOAwAh4QFAAI8DACHuAQIAmAMAIfIBAQCOAwAh8wFAAI8DACGAAgEAmQMAIYMCAQCZAwAhhQIBAJkDACGGAgEAmQMAIYkCAQCOAwAhlAIgALYDACGYAgEAmQMAIZwCAQCOAwAhnQIBAJkDACGeAgEAmQMAIZ8CAQCOAwAhoAIBAI4DACGhAgEAjgMAIaICAQCOAwAhowIBAJkDACGkAgEAmQMAIaUCAQCZAwAhpgIBAJkDACGnAgEAmQMAIagCAQCZAwAhqQIBAJkDACGqAiAAtgMAIasCAQCZAwAhrAIBAJkDACGtAgEAmQMAIa4CAQCZAwAhrwJAANsDACGwAiAAtgMAIbECAQCZAwAhKQMAAO8DACAFAADwAwAgBwAA8QMAIAgAAPIDACAKAAD0AwAgDAAA8wMAIA4AAPUDACDcAQEAjgMAIeEBQACPAwAh7gECAJgDACHyAQEAjgMAIfMBQACPAwAhgAIBAJkDACGDAgEAmQMAIYUCAQCZAwAhhgIBAJkDACGJAgEAjgMAIZQCIAC2AwAhmAIBAJkDACGcAgEAjgMAIZ0CAQCZAwAhngIBAJkDACGfAgEAjgMAIaACAQCOAwAhoQIBAI4DACGiAgEAjgMAIaMCAQCZAwAhpAIBAJkDACGlAgEAmQMAIaYCAQCZAwAhpwIBAJkDACGoAgEAmQMAIakCAQCZAwAhqgIgALYDACGrAgEAmQMAIawCAQCZAwAhrQIBAJkDACGuAgEAmQMAIa8CQADbAwAhsAIgALYDACGxAgEAmQMAIQILAA0QBgIJAwgBBQwDBxAECBEEChwGCwAMDBUFDiAIDykLAQQAAgIEAAIGAAIDBAACChkGCwAHAgQAAgkaBQEKGwADBAACCwAKDCQJAQ0ACAEMJQABBAACBwUqAAcrAAgsAAouAAwtAA4vAA8wAAEQMQAAAAADCwASIwATJAAUAAAAAwsAEiMAEyQAFAAAAAMLABojABskABwAAAADCwAaIwAbJAAcAQNrAQEDcQEFCwAhIwAkJAAlRQAiRgAjAAAAAAAFCwAhIwAkJAAlRQAiRgAjAQQAAgEEAAIFCwAqIwAtJAAuRQArRgAsAAAAAAAFCwAqIwAtJAAuRQArRgAsAgQAAgYAAgIEAAIGAAIDCwAzIwA0JAA1AAAAAwsAMyMANCQANQAAAAULADsjAD4kAD9FADxGAD0AAAAAAAULADsjAD4kAD9FADxGAD0AAAAFCwBFIwBIJABJRQBGRgBHAAAAAAAFCwBFIwBIJABJRQBGRgBHAQQAAgEEAAIFCwBOIwBRJABSRQBPRgBQAAAAAAAFCwBOIwBRJABSRQBPRgBQAgQAAgn3AQUCBAACCf0BBQULAFcjAFokAFtFAFhGAFkAAAAAAAULAFcjAFokAFtFAFhGAFkBBAACAQQAAgULAGAjAGMkAGRFAGFGAGIAAAAAAAULAGAjAGMkAGRFAGFGAGIBDQAIAQ0ACAULAGkjAGwkAG1FAGpGAGsAAAAAAAULAGkjAGwkAG1FAGpGAGsBBAACAQQAAgMLAHIjAHMkAHQAAAADCwByIwBzJAB0EQIBEjIBEzQBFDUBFTYBFzgBGDoOGTsPGj0BGz8OHEAQH0EBIEIBIUMOJUYRJkcVJ0kWKEoWKU0WKk4WK08WLFEWLVMOLlQXL1YWMFgOMVkYMloWM1sWNFwONV8ZNmAdN2ECOGICOWMCOmQCO2UCPGcCPWkOPmoeP20CQG8OQXAfQnICQ3MCRHQOR3cgSHgmSXkDSnoDS3sDTHwDTX0DTn8DT4EBDlCCASdRhAEDUoYBDlOHAShUiAEDVYkBA1aKAQ5XjQEpWI4BL1mPAQRakAEEW5EBBFySAQRdkwEEXpUBBF-XAQ5gmAEwYZoBBGKcAQ5jnQExZJ4BBGWfAQRmoAEOZ6MBMmikATZppgE3aqcBN2uqATdsqwE3bawBN26uATdvsAEOcLEBOHGzATdytQEOc7YBOXS3ATd1uAE3drkBDne8ATp4vQFAeb8BQXrAAUF7wwFBfMQBQX3FAUF-xwFBf8kBDoABygFCgQHMAUGCAc4BDoMBzwFDhAHQAUGFAdEBQYYB0gEOhwHVAUSIAdYBSokB1wEFigHYAQWLAdkBBYwB2gEFjQHbAQWOAd0BBY8B3wEOkAHgAUuRAeIBBZIB5AEOkwHlAUyUAeYBBZUB5wEFlgHoAQ6XAesBTZgB7AFTmQHtAQaaAe4BBpsB7wEGnAHwAQadAfEBBp4B8wEGnwH1AQ6gAfYBVKEB-QEGogH7AQ6jAfwBVaQB_gEGpQH_AQamAYACDqcBgwJWqAGEAlypAYUCCKoBhgIIqwGHAgisAYgCCK0BiQIIrgGLAgivAY0CDrABjgJdsQGQAgiyAZICDrMBkwJetAGUAgi1AZUCCLYBlgIOtwGZAl-4AZoCZbkBmwIJugGcAgm7AZ0CCbwBngIJvQGfAgm-AaECCb8BowIOwAGkAmbBAaYCCcIBqAIOwwGpAmfEAaoCCcUBqwIJxgGsAg7HAa8CaMgBsAJuyQGxAgvKAbICC8sBswILzAG0AgvNAbUCC84BtwILzwG5Ag7QAboCb9EBvAIL0gG-Ag7TAb8CcNQBwAIL1QHBAgvWAcICDtcBxQJx2AHGAnU"
};
async function decodeBase64AsWasm(wasmBase64) {
  const { Buffer: Buffer2 } = await import("node:buffer");
  const wasmArray = Buffer2.from(wasmBase64, "base64");
  return new WebAssembly.Module(wasmArray);
}
config.compilerWasm = {
  getRuntime: async () => await import("@prisma/client/runtime/query_compiler_fast_bg.sqlite.mjs"),
  getQueryCompilerWasmModule: async () => {
    const { wasm } = await import("@prisma/client/runtime/query_compiler_fast_bg.sqlite.wasm-base64.mjs");
    return await decodeBase64AsWasm(wasm);
  },
  importName: "./query_compiler_fast_bg.js"
};
function getPrismaClientClass() {
  return runtime.getPrismaClient(config);
}

// server/db/generated/internal/prismaNamespace.ts
import * as runtime2 from "@prisma/client/runtime/client";
var getExtensionContext = runtime2.Extensions.getExtensionContext;
var NullTypes2 = {
  DbNull: runtime2.NullTypes.DbNull,
  JsonNull: runtime2.NullTypes.JsonNull,
  AnyNull: runtime2.NullTypes.AnyNull
};
var TransactionIsolationLevel = runtime2.makeStrictEnum({
  Serializable: "Serializable"
});
var defineExtension = runtime2.Extensions.defineExtension;

// server/db/generated/client.ts
globalThis["__dirname"] = path19.dirname(fileURLToPath2(import.meta.url));
var PrismaClient = getPrismaClientClass();

// server/db/migrations-current.ts
import { createHash as createHash4 } from "node:crypto";
import { existsSync as existsSync6, readdirSync as readdirSync2, readFileSync as readFileSync5 } from "node:fs";
import path20 from "node:path";
import Database from "better-sqlite3";
function migrationsAreCurrent(dbFile, migrationsDir) {
  if (!existsSync6(dbFile)) return false;
  const committed = readdirSync2(migrationsDir, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => ({ name: d.name, checksum: createHash4("sha256").update(readFileSync5(path20.join(migrationsDir, d.name, "migration.sql"))).digest("hex") }));
  const db = new Database(dbFile, { readonly: true, fileMustExist: true });
  try {
    const table = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = '_prisma_migrations'").get();
    if (!table) return false;
    const rows = db.prepare("SELECT migration_name AS name, checksum FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL").all();
    const applied = new Map(rows.map((r) => [r.name, r.checksum]));
    return committed.every((m) => applied.get(m.name) === m.checksum);
  } finally {
    db.close();
  }
}

// server/db/index.ts
async function openDatabase(dbFile) {
  mkdirSync4(path22.dirname(dbFile), { recursive: true, mode: 448 });
  closeSync2(openSync2(dbFile, "a", 384));
  chmodSync5(dbFile, 384);
  for (const extra of [`${dbFile}-wal`, `${dbFile}-shm`]) if (existsSync7(extra)) chmodSync5(extra, 384);
  const raw2 = new Database2(dbFile);
  raw2.pragma("journal_mode = WAL");
  raw2.close();
  const migrationsDir = path22.join(REPO_ROOT, "prisma/migrations");
  const applied = migrationsAreCurrent(dbFile, migrationsDir) ? [] : await (await Promise.resolve().then(() => (init_schema_engine(), schema_engine_exports))).applyMigrations(dbFile);
  const db = new PrismaClient({ adapter: new PrismaBetterSqlite32({ url: `file:${dbFile}` }) });
  await db.$queryRawUnsafe("PRAGMA busy_timeout = 5000");
  return { db, applied };
}

// server/security/data-dir.ts
import { chmodSync as chmodSync6, lstatSync, mkdirSync as mkdirSync5, readdirSync as readdirSync3 } from "node:fs";
import path23 from "node:path";
function tightenDataDir(home) {
  mkdirSync5(home, { recursive: true, mode: 448 });
  chmodSync6(home, 448);
  for (const name of readdirSync3(home)) {
    const p = path23.join(home, name);
    const st = lstatSync(p);
    if (st.isSymbolicLink()) continue;
    if (st.isDirectory()) {
      chmodSync6(p, 448);
      if (name === "bin") {
        for (const f of readdirSync3(p)) if (lstatSync(path23.join(p, f)).isFile()) chmodSync6(path23.join(p, f), 448);
      }
    } else if (st.isFile()) {
      chmodSync6(p, 384);
    }
  }
}

// server/stores/events.ts
function toEvent(row) {
  let payload = {};
  try {
    payload = JSON.parse(row.payload);
  } catch {
    payload = { raw: row.payload };
  }
  return { seq: row.seq, type: row.type, taskId: row.taskId, paneId: row.paneId, payload, time: row.time.toISOString() };
}
var EventStore = class {
  constructor(db) {
    this.db = db;
  }
  db;
  async append(e) {
    return toEvent(await this.db.event.create({ data: { type: e.type, taskId: e.taskId, paneId: e.paneId, payload: JSON.stringify(e.payload) } }));
  }
  /** One page in sequence order. */
  async page(q) {
    const rows = await this.db.event.findMany({
      where: { seq: q.after !== void 0 ? { gt: q.after } : void 0, taskId: q.taskId, paneId: q.paneId, type: q.typePrefix ? { startsWith: q.typePrefix } : void 0 },
      orderBy: { seq: "asc" },
      take: q.take
    });
    return rows.map(toEvent);
  }
  async head() {
    const last = await this.db.event.findFirst({ orderBy: { seq: "desc" }, select: { seq: true } });
    return last?.seq ?? 0;
  }
};

// server/stores/profiles.ts
var toProfile = (r) => ({
  id: r.id,
  name: r.name,
  role: r.role,
  argv: JSON.parse(r.argv),
  supportsHooks: r.supportsHooks,
  env: JSON.parse(r.env),
  builtIn: r.builtIn,
  sandbox: r.sandbox,
  sandboxNetwork: r.sandboxNetwork
});
var toData = (p) => ({
  name: p.name,
  role: p.role,
  argv: JSON.stringify(p.argv),
  supportsHooks: p.supportsHooks,
  env: JSON.stringify(p.env),
  builtIn: p.builtIn,
  sandbox: p.sandbox,
  sandboxNetwork: p.sandboxNetwork
});
var ProfileStore = class {
  constructor(db) {
    this.db = db;
  }
  db;
  async put(p) {
    const data = toData(p);
    return toProfile(await this.db.agentProfile.upsert({ where: { id: p.id }, create: { id: p.id, ...data }, update: data }));
  }
  async create(p) {
    return toProfile(await this.db.agentProfile.create({ data: { id: p.id, ...toData(p) } }));
  }
  async list() {
    return (await this.db.agentProfile.findMany({ orderBy: [{ builtIn: "desc" }, { id: "asc" }] })).map(toProfile);
  }
  async find(id2) {
    const row = await this.db.agentProfile.findUnique({ where: { id: id2 } });
    return row ? toProfile(row) : null;
  }
  async delete(id2) {
    await this.db.agentProfile.delete({ where: { id: id2 } });
  }
};

// server/stores/projects.ts
var toProject = (r) => ({
  id: r.id,
  path: r.path,
  name: r.name,
  defaultTarget: r.defaultTarget,
  createdAt: r.createdAt.toISOString()
});
var ProjectStore = class {
  constructor(db) {
    this.db = db;
  }
  db;
  async create(p) {
    return toProject(await this.db.project.create({ data: p }));
  }
  async find(id2) {
    const row = await this.db.project.findUnique({ where: { id: id2 } });
    return row ? toProject(row) : null;
  }
  async findByPath(path25) {
    const row = await this.db.project.findUnique({ where: { path: path25 } });
    return row ? toProject(row) : null;
  }
  async list() {
    return (await this.db.project.findMany({ orderBy: { createdAt: "asc" } })).map(toProject);
  }
  async delete(id2) {
    await this.db.project.delete({ where: { id: id2 } });
  }
  count() {
    return this.db.project.count();
  }
};

// server/services.ts
async function createServices(opts) {
  const scrollback = scrollbackLines();
  const p = paths(opts.home);
  tightenDataDir(p.home);
  const { db } = await openDatabase(p.db);
  const journal = new EventJournal(new EventStore(db));
  const agents = new AgentProfiles(new ProfileStore(db));
  await agents.seed();
  const projects = new Projects(new ProjectStore(db), async (path25) => {
    const info = await inspectRepo(path25);
    return { root: info.root, currentBranch: info.currentBranch };
  });
  const sandbox = new Sandbox({ home: p.home, bwrap: process.env.YARD_BWRAP || "bwrap", apiSocket: opts.apiSocket ?? (() => ({ error: "this server has no API socket" })) });
  let tasks = null;
  const panes = new PaneManager({
    db,
    journal,
    agents,
    home: p.home,
    url: opts.url,
    taskState: (taskId3) => tasks?.cachedState(taskId3) ?? null,
    onTransition: (info, state, t2) => tasks?.onPaneTransition(info, t2.to, t2.from, state.lastMessage),
    scrollbackLines: scrollback
  });
  tasks = new TaskEngine({
    db,
    journal,
    panes,
    agents,
    projects,
    store: new TaskStore(db),
    home: p.home,
    maxActive: envInt("YARD_MAX_ACTIVE_TASKS"),
    readyTimeoutMs: envInt("YARD_READY_TIMEOUT_MS"),
    sandbox
  });
  const reviews = new ReviewService({ store: new ReviewStore(db), tasks, journal });
  await tasks.recover(await panes.recover());
  return {
    home: p.home,
    token: opts.token,
    db,
    journal,
    projects,
    agents,
    panes,
    tasks,
    sandbox,
    reviews,
    attention: async (limit) => {
      const rows = await db.task.findMany({ where: { paneId: { not: null } }, select: { id: true, state: true, updatedAt: true } });
      return panes.attention({ limit, taskStates: new Map(rows.map((r) => [r.id, { state: r.state, at: r.updatedAt.getTime() }])) });
    },
    url: opts.url,
    async close() {
      await tasks?.shutdown();
      await panes.shutdown();
      await db.$disconnect();
    }
  };
}
function scrollbackLines() {
  const n = envInt("YARD_SCROLLBACK_LINES");
  if (n !== void 0 && (n < MIN_SCROLLBACK || n > MAX_SCROLLBACK)) {
    throw new Error(`YARD_SCROLLBACK_LINES must be from ${MIN_SCROLLBACK} to ${MAX_SCROLLBACK} (got ${n})`);
  }
  return n;
}
function envInt(name) {
  const v = process.env[name];
  if (!v) return void 0;
  const n = Number(v);
  if (!Number.isInteger(n) || n <= 0) throw new Error(`${name} must be a positive whole number (got ${JSON.stringify(v)})`);
  return n;
}

// server/http.ts
function sendJson(res, status, body, headers = {}) {
  res.writeHead(status, { "content-type": "application/json; charset=utf-8", "cache-control": "no-store", ...headers });
  res.end(JSON.stringify(body));
}
function sendError(req, res, status, code, message) {
  const wantsHtml = !req.url?.startsWith("/api/") && (req.headers.accept ?? "").includes("text/html");
  if (req.url?.startsWith("/api/trpc")) {
    const yard = { code, message, details: null, retryable: false };
    return sendJson(res, status, { error: { message, code: JSONRPC_CODE[status] ?? -32603, data: { code, httpStatus: status, yard } } });
  }
  if (!wantsHtml) return sendJson(res, status, { error: { code, message, details: null } });
  res.writeHead(status, { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" });
  res.end(
    `<!doctype html><meta charset="utf-8"><title>Switchyard</title><body style="font-family:system-ui;max-width:40rem;margin:4rem auto;line-height:1.5"><h1>Switchyard</h1><p>${escapeHtml(message)}</p>` + (code === "UNAUTHORIZED" ? `<p>Open the login link printed where the board was started, or run <code>yard status</code> to see it again.</p>` : "") + `</body>`
  );
}
var JSONRPC_CODE = { 400: -32600, 401: -32001, 403: -32003, 404: -32004, 405: -32005, 413: -32013, 500: -32603 };
var SECURITY_HEADERS = {
  "x-frame-options": "DENY",
  "content-security-policy": "frame-ancestors 'none'",
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer"
};
function readBody(req) {
  const declared = Number(req.headers["content-length"] ?? "0");
  const tooLarge2 = { status: 413, code: "PAYLOAD_TOO_LARGE", message: `The request body is larger than ${LIMITS.bodyBytes} bytes` };
  if (declared > LIMITS.bodyBytes) {
    req.resume();
    return Promise.resolve(tooLarge2);
  }
  return new Promise((resolve) => {
    let chunks = [];
    let size = 0;
    let done = false;
    req.on("data", (c) => {
      if (done) return;
      size += c.length;
      if (size > LIMITS.bodyBytes) {
        done = true;
        chunks = [];
        return resolve(tooLarge2);
      }
      chunks.push(c);
    });
    req.on("end", () => {
      if (!done) resolve(Buffer.concat(chunks).toString("utf8"));
      done = true;
    });
    req.on("error", () => {
      if (!done) resolve({ status: 400, code: "BAD_PARAMS", message: "The request body could not be read" });
      done = true;
    });
  });
}
var escapeHtml = (s) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
function portInUseMessage(port) {
  return `Port ${port} is already in use (is another Switchyard running?). Pick another with PORT=${port + 1} npm start, or yard serve --port ${port + 1}.`;
}
async function listen(server, port, host) {
  await new Promise((resolve, reject) => {
    const onError = (e) => {
      server.off("listening", onListening);
      reject(e.code === "EADDRINUSE" ? new Error(portInUseMessage(port)) : e);
    };
    const onListening = () => {
      server.off("error", onError);
      resolve();
    };
    server.once("error", onError);
    server.once("listening", onListening);
    server.listen(port, host);
  });
  return server.address().port;
}
var MAX_SOCKET_PATH = 107;
async function listenSocket(server, file) {
  if (Buffer.byteLength(file) > MAX_SOCKET_PATH) throw new Error(`${file} is longer than the ${MAX_SOCKET_PATH} bytes a Unix socket path may have (use a shorter YARD_HOME)`);
  mkdirSync6(path24.dirname(file), { recursive: true, mode: 448 });
  chmodSync7(path24.dirname(file), 448);
  let existing;
  try {
    existing = lstatSync2(file);
  } catch {
    existing = null;
  }
  if (existing) {
    if (!existing.isSocket()) throw new Error(`${file} exists and is not a socket; remove it`);
    const live = await new Promise((resolve) => {
      const c = net.connect(file);
      c.once("connect", () => {
        c.destroy();
        resolve(true);
      });
      c.once("error", () => resolve(false));
    });
    if (live) throw new Error(`another server is already listening on ${file} (a second Switchyard on the same data dir?)`);
    rmSync(file, { force: true });
  }
  await new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(file, () => {
      server.off("error", reject);
      resolve();
    });
  });
  chmodSync7(file, 384);
  return file;
}
async function startServer(opts) {
  const log = opts.log ?? ((l) => console.log(l));
  const p = paths(opts.home);
  const token = loadOrCreateToken(p.token);
  const sessions = new SessionStore(p.sessions);
  const guardCfg = { token, sessions };
  let url = "";
  let apiSocket = { error: "the server is still starting" };
  const services = await createServices({ home: opts.home, token, url: () => url, apiSocket: () => apiSocket });
  let nextHandler = null;
  let nextError = null;
  let realtime = null;
  const trpc = createHTTPHandler({
    router: appRouter,
    basePath: "/api/trpc/",
    createContext: async ({ req }) => {
      const r = req;
      return { services, principal: r.principal, pane: r.pane };
    }
  });
  const onRequest = (req, res) => {
    void handle(req, res).catch((e) => {
      log(`request ${req.method} ${req.url} failed: ${e?.stack ?? String(e)}`);
      if (!res.headersSent) sendError(req, res, 500, "INTERNAL", "Internal error");
      else res.destroy();
    });
  };
  const server = http.createServer({ connectionsCheckingInterval: 2e3 }, onRequest);
  const socketServer = http.createServer({ connectionsCheckingInterval: 2e3 }, onRequest);
  const onClientError = (err, socket) => {
    if (!socket.writable || err.code === "ECONNRESET") return socket.destroy();
    const timeout = err.code === "ERR_HTTP_REQUEST_TIMEOUT";
    const tooLarge2 = err.code === "HPE_HEADER_OVERFLOW";
    const [status, reason, code, message] = timeout ? [408, "Request Timeout", "TIMEOUT", "The request did not arrive in time"] : tooLarge2 ? [431, "Request Header Fields Too Large", "PAYLOAD_TOO_LARGE", "The request's URL or headers are too large (send large input in a POST body)"] : [400, "Bad Request", "BAD_PARAMS", "Malformed HTTP request"];
    const body = JSON.stringify({ error: { message, code: timeout ? -32008 : tooLarge2 ? -32013 : -32600, data: { code, httpStatus: status, yard: { code, message, details: null, retryable: timeout } } } });
    socket.end(`HTTP/1.1 ${status} ${reason}\r
Content-Type: application/json; charset=utf-8\r
Content-Length: ${Buffer.byteLength(body)}\r
Connection: close\r
\r
${body}`);
  };
  server.on("clientError", onClientError);
  socketServer.on("clientError", onClientError);
  async function handle(req, res) {
    for (const [k, v] of Object.entries(SECURITY_HEADERS)) res.setHeader(k, v);
    const refusedHost = checkHost(req.headers.host, guardCfg);
    if (refusedHost) return sendError(req, res, refusedHost.status, refusedHost.code, refusedHost.message);
    const u = new URL(req.url ?? "/", "http://localhost");
    if (u.pathname === "/api/health") {
      if (req.method !== "GET" && req.method !== "HEAD") return sendError(req, res, 405, "BAD_PARAMS", "GET only");
      return sendJson(res, 200, { status: "ok", version: VERSION });
    }
    const refusedOrigin = checkOrigin(req.method ?? "GET", req.headers.origin, req.headers.host, req.headers["sec-fetch-site"]);
    if (refusedOrigin) return sendError(req, res, refusedOrigin.status, refusedOrigin.code, refusedOrigin.message);
    if (u.pathname === "/login") {
      const presented = u.searchParams.get("token") ?? "";
      if (!safeEqual(presented, token)) return sendError(req, res, 401, "UNAUTHORIZED", "That login link is not valid for this board.");
      const next = u.searchParams.get("next") ?? "/";
      const target = /^\/(?!\/)[^\s\\]*$/.test(next) ? next : "/";
      const value = sessions.create(sessionCookie(req.headers.cookie));
      res.writeHead(302, { location: target, "set-cookie": sessionCookieHeader(value), "cache-control": "no-store", "referrer-policy": "no-referrer" });
      return res.end();
    }
    const principal = authenticate({ authorization: req.headers.authorization, cookie: req.headers.cookie }, guardCfg);
    if (!principal) return sendError(req, res, 401, "UNAUTHORIZED", "This board needs its login token.");
    let pane = null;
    if (principal.kind === "pane") {
      pane = await services.panes.authenticate(principal.paneId, principal.secret);
      if (!pane) return sendError(req, res, 401, "UNAUTHORIZED", "This pane token is not valid (forged, or its pane has exited).");
    }
    if (u.pathname.startsWith("/api/trpc/") || u.pathname === "/api/trpc") {
      const r = req;
      r.principal = principal;
      r.pane = pane;
      if (req.method === "POST") {
        const body = await readBody(req);
        if (typeof body !== "string") return sendError(req, res, body.status, body.code, body.message);
        if (jsonDepthExceeds(body)) return sendError(req, res, 400, "BAD_PARAMS", `The request body is nested deeper than ${LIMITS.depth} levels`);
        r.body = body;
      }
      return trpc(req, res);
    }
    if (Number(req.headers["content-length"] ?? "0") > LIMITS.bodyBytes) {
      req.resume();
      return sendError(req, res, 413, "PAYLOAD_TOO_LARGE", `The request body is larger than ${LIMITS.bodyBytes} bytes`);
    }
    if (u.pathname.startsWith("/api/")) return sendError(req, res, 404, "NOT_FOUND", `No API route ${u.pathname}`);
    if (principal.kind !== "admin") return sendError(req, res, 403, "FORBIDDEN", "Pane tokens cannot open pages");
    if (!opts.ui) return sendError(req, res, 404, "NOT_FOUND", "This server runs without the UI");
    if (nextError) return sendError(req, res, 500, "INTERNAL", `The UI failed to start: ${nextError.message}`);
    if (!nextHandler) {
      res.writeHead(503, { "content-type": "text/html; charset=utf-8", "retry-after": "1", refresh: "1" });
      return res.end(`<!doctype html><meta charset="utf-8"><title>Switchyard</title><p style="font-family:system-ui">Starting the board\u2026</p>`);
    }
    return nextHandler(req, res);
  }
  const requestTimeout = Number(process.env.YARD_REQUEST_TIMEOUT_MS) >= 1e3 ? Number(process.env.YARD_REQUEST_TIMEOUT_MS) : 2e4;
  for (const srv of [server, socketServer]) {
    srv.requestTimeout = requestTimeout;
    srv.headersTimeout = Math.min(1e4, requestTimeout);
    srv.keepAliveTimeout = 5e3;
  }
  const port = await listen(server, opts.port, opts.host);
  apiSocket = await listenSocket(socketServer, p.socket).then(
    (file) => ({ path: file }),
    (e) => ({ error: e.message })
  );
  if ("error" in apiSocket) log(`switchyard: no API socket (${apiSocket.error}); sandboxed tasks will be refused`);
  const hostForUrl = opts.host.includes(":") ? `[${opts.host}]` : opts.host === "0.0.0.0" ? "127.0.0.1" : opts.host;
  url = `http://${hostForUrl}:${port}`;
  realtime = attachRealtime(server, { services, guard: guardCfg, sessions });
  writeFileSync4(p.server, JSON.stringify({ url, port, pid: process.pid, version: VERSION }) + "\n", { mode: 384 });
  if (opts.ui) {
    const ready = (async () => {
      const { default: next } = await import("next");
      const app = next({ dev: opts.dev, hostname: opts.host, port, dir: process.cwd() });
      await app.prepare();
      const handler = app.getRequestHandler();
      nextHandler = (req, res) => handler(req, res);
    })();
    await ready.catch((e) => {
      nextError = e;
      log(`The UI failed to start: ${e.message}`);
    });
  }
  let closed = false;
  return {
    url,
    port,
    token,
    loginUrl: `${url}/login?token=${encodeURIComponent(token)}`,
    services,
    async close() {
      if (closed) return;
      closed = true;
      await realtime?.close();
      await new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      if ("path" in apiSocket) {
        await new Promise((resolve) => {
          socketServer.close(() => resolve());
          socketServer.closeAllConnections();
        });
        rmSync(apiSocket.path, { force: true });
        apiSocket = { error: "the server has shut down" };
      }
      await services.close();
      rmSync(p.server, { force: true });
    }
  };
}

// server/main.ts
var root = REPO_ROOT;
async function main() {
  let opts;
  try {
    opts = parseServeArgs(process.argv.slice(2));
  } catch (e) {
    console.error(`switchyard: ${e.message}`);
    process.exit(2);
  }
  const ui = process.env.YARD_NO_UI !== "1";
  process.chdir(root);
  if (!opts.dev) process.env.NODE_ENV = "production";
  if (ui && !opts.dev) {
    const { stale, reason } = buildIsStale(root);
    if (stale) {
      console.log(`switchyard: ${reason}.`);
      await runNextBuild(root, (l) => console.log(`switchyard: ${l}`));
    }
  }
  if (opts.allowRemote && !["127.0.0.1", "localhost", "::1"].includes(opts.host)) {
    console.warn(`switchyard: WARNING: listening on ${opts.host}: anyone who can reach this address and has the token can run commands on this machine.`);
  }
  const home = yardHome();
  const server = await startServer({ home, host: opts.host, port: opts.port, dev: opts.dev, ui });
  console.log(`Switchyard is running at ${server.url}  (data: ${home})`);
  console.log(`Open this login link once in your browser: ${server.loginUrl}`);
  let stopping = false;
  const stop = async (signal) => {
    if (stopping) return;
    stopping = true;
    console.log(`switchyard: ${signal}, shutting down\u2026`);
    const force = setTimeout(() => process.exit(1), 1e4);
    force.unref();
    await server.close();
    process.exit(0);
  };
  process.on("SIGINT", () => void stop("SIGINT"));
  process.on("SIGTERM", () => void stop("SIGTERM"));
}
main().catch((e) => {
  console.error(`switchyard: ${e.message}`);
  process.exit(1);
});
