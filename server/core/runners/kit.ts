// What `yard runner install` copies to a runner: the pane host's bundle and its mirror workers
// (server/dist), with the few packages they load from node_modules (node-pty, the headless xterm
// and its serializer, zod), as one stream of length-prefixed files that a small node script on the
// runner unpacks (kit-scripts.ts), so node is all a runner needs. Beside the host: the `yard` CLI
// a pane there calls (its bundle, the hook and setup wrappers, and a launcher, bin/yard) and the
// demo agent. The kit's name is this version and a hash of its bytes: a rebuilt bundle installs
// beside the old one, never over a running one.
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { REPO_ROOT } from "../../root";
import { VERSION } from "../../version";
import { YardError } from "../errors";

/** Files (relative to the repository) and the directories whose files are taken, minus types and maps. */
const FILES = [
  "server/dist/panehost.mjs",
  "server/dist/mirror-worker.mjs",
  "cli/dist/yard.mjs",
  "cli/bin/hook.mjs",
  "cli/bin/tls-pin.mjs",
  "cli/bin/setup.mjs",
];
const TREES = [
  "node_modules/node-pty/package.json",
  "node_modules/node-pty/lib",
  "node_modules/node-pty/build/Release",
  "node_modules/@xterm/headless/package.json",
  "node_modules/@xterm/headless/lib-headless",
  "node_modules/@xterm/addon-serialize/package.json",
  "node_modules/@xterm/addon-serialize/lib",
  "node_modules/zod",
  "agents/demo",
];
const SKIP = /(\.d\.c?ts|\.map|\.test\.[jt]s|\.md)$|\/src\/|\/obj\.target\/|\/\.deps\//;

/**
 * Files made for the kit: the `yard` a runner's pane finds first on its PATH. `yard hook` takes the
 * fast path as on the board (no bundle loaded); anything else runs the CLI's bundle.
 */
const MADE: { path: string; mode: number; text: string }[] = [
  {
    path: "yard-runner.mjs",
    mode: 0o644,
    text: `if (process.argv[2] === "hook") {\n  const { runHook } = await import("./cli/bin/hook.mjs");\n  await runHook(process.argv[3], process.argv[4]);\n} else await import("./cli/dist/yard.mjs");\n`,
  },
  {
    path: "bin/yard",
    mode: 0o755,
    text: `#!/bin/sh\nunset NODE_EXTRA_CA_CERTS\nexec node "$(dirname "$0")/../yard-runner.mjs" "$@"\n`,
  },
];

export interface KitFile {
  path: string;
  mode: number;
  data: Buffer;
}

/**
 * The regular files at `root`/`rel` (itself when it is one, else under it), relative to `root`, that
 * `keep` takes; links inside are not followed, other kinds of file are left out.
 */
function walk(root: string, rel: string, out: string[], keep: (rel: string) => boolean = () => true): void {
  const abs = path.join(root, rel);
  const st = statSync(abs);
  if (st.isFile()) {
    if (keep(rel)) out.push(rel);
    return;
  }
  if (!st.isDirectory()) return;
  for (const e of readdirSync(abs, { withFileTypes: true }))
    if (!e.isSymbolicLink()) walk(root, rel ? `${rel}/${e.name}` : e.name, out, keep);
}

/** One file of `root` as the kit carries it (its path in the kit: `as`). */
function kitFile(root: string, rel: string, as = rel): KitFile {
  const abs = path.join(root, rel);
  return { path: as, mode: statSync(abs).mode & 0o755, data: readFileSync(abs) };
}

let cachedName: { key: string; name: string } | null = null;

/** The kit's name without keeping its bytes (cached while the bundles' mtimes stay the same). */
export function buildKitName(): string {
  const key = FILES.map((f) => {
    try {
      return statSync(path.join(REPO_ROOT, f)).mtimeMs;
    } catch {
      return 0;
    }
  }).join(",");
  if (cachedName?.key !== key) cachedName = { key, name: buildKit().name };
  return cachedName.name;
}

/** The kit's files, read now, with its name (`<version>-<hash>`). */
export function buildKit(): { name: string; files: KitFile[]; bytes: number } {
  const rels: string[] = [];
  try {
    for (const f of [...FILES, ...TREES]) walk(REPO_ROOT, f, rels, (rel) => !SKIP.test(`/${rel}`));
  } catch (e) {
    throw new YardError(
      "CONFLICT",
      `The runner kit is incomplete here (${(e as Error).message}): build the server first (npm run build:server)`,
    );
  }
  const hash = createHash("sha256");
  const files = rels.sort().map((rel) => {
    const f = kitFile(REPO_ROOT, rel, rel.replace(/^server\/dist\//, ""));
    hash.update(rel).update("\0").update(f.data);
    return f;
  });
  for (const m of MADE) {
    const data = Buffer.from(m.text);
    hash.update(m.path).update("\0").update(data);
    files.push({ path: m.path, mode: m.mode, data });
  }
  return {
    name: `${VERSION}-${hash.digest("hex").slice(0, 12)}`,
    files,
    bytes: files.reduce((n, f) => n + f.data.length, 0),
  };
}

/** The kit as the unpacking script reads it: per file a JSON header line, then its bytes; an end line. */
export function encodeKit(files: KitFile[]): Buffer {
  const parts: Buffer[] = [];
  for (const f of files) {
    parts.push(Buffer.from(`${JSON.stringify({ path: f.path, mode: f.mode, size: f.data.length })}\n`), f.data);
  }
  parts.push(Buffer.from(`${JSON.stringify({ end: true })}\n`));
  return Buffer.concat(parts);
}

/** Every regular file under `dir` (links and other kinds are left out), as kit files with paths relative to it. */
export function filesUnder(dir: string): KitFile[] {
  const rels: string[] = [];
  walk(dir, "", rels);
  return rels.map((rel) => kitFile(dir, rel));
}
