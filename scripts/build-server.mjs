#!/usr/bin/env node
// @ts-check
// Builds the server (and the pane host with its mirror workers: server/dist/panehost.mjs,
// mirror-worker.mjs) into plain ESM JavaScript, server/dist/main.mjs, so `npm start` and
// `yard serve` run Node on it directly instead of compiling TypeScript through tsx at every
// start (tsx's loader and esbuild service cost about a second and ~60 MB). Our own modules are
// bundled; every npm package stays external and loads from node_modules as usual (Next,
// Prisma's runtime, node-pty and better-sqlite3 must not be bundled). Freshness works as for the
// CLI: a stamp of the inputs' mtimes beside the bundle (scripts/bundle.mjs).
// Run: node scripts/build-server.mjs [--if-stale]
import { existsSync, readdirSync, rmSync } from "node:fs";
import esbuild from "esbuild";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { bundle, buildMain, ROOT } from "./bundle.mjs";

export const SERVER_BUNDLE = path.join(ROOT, "server/dist/main.mjs");
/** The pane host process and its mirror worker threads, built with the server (same stamp). */
export const HOST_BUNDLE = path.join(ROOT, "server/dist/panehost.mjs");
export const MIRROR_WORKER_BUNDLE = path.join(ROOT, "server/dist/mirror-worker.mjs");
/** `yard db copy`'s code (server/db/copy.ts), which the CLI loads from here (built with the server, same stamp). */
export const DB_COPY_BUNDLE = path.join(ROOT, "server/dist/db-copy.mjs");
export const SERVER_STAMP = path.join(ROOT, "server/dist/main.stamp.json");
/** next.config.ts compiled to plain JavaScript (git-ignored), which Next prefers over the .ts. */
export const NEXT_CONFIG = path.join(ROOT, "next.config.mjs");

/**
 * Next compiles a TypeScript config with its native SWC binding at every start (~27 MB of RSS
 * that stays, ~100 ms); given next.config.mjs beside it, it loads that plain module instead.
 */
async function buildNextConfig() {
  await esbuild.build({
    entryPoints: [path.join(ROOT, "next.config.ts")],
    outfile: NEXT_CONFIG,
    format: "esm",
    platform: "node",
    target: "node20",
    logLevel: "silent",
    banner: { js: "// Generated from next.config.ts by scripts/build-server.mjs; edit that file, not this one." },
  });
}

/**
 * Prisma's runtime is one large CommonJS file. Imported from ESM, Node first scans all of it for
 * its export names (cjs-module-lexer) and wraps it; required, it only runs: ~70-90 ms less of
 * every server start. It is bundled as a one-line CommonJS module that requires the package (the
 * `require` of the banner below).
 * @type {import("esbuild").Plugin}
 */
const requireCommonJs = {
  name: "require-commonjs",
  setup(build) {
    const filter = /^@prisma\/client\/runtime\/client$/;
    build.onResolve({ filter }, (a) =>
      a.namespace === "require-commonjs"
        ? { path: a.path, external: true }
        : { path: a.path, namespace: "require-commonjs" },
    );
    build.onLoad({ filter: /.*/, namespace: "require-commonjs" }, (a) => ({
      contents: `module.exports = require(${JSON.stringify(a.path)});`,
      loader: "js",
      resolveDir: ROOT,
    }));
  },
};

/**
 * zod/mini, which the pane host's contract (server/panehost/ops.ts) is written in, is bundled
 * rather than loaded from node_modules: its package entry loads all of zod's core and its 64
 * locales (~12 MB of RSS and tens of ms in a process that loads no other zod, the pane host), of
 * which the contract uses a few schemas and one locale. The server's own zod stays external.
 * @type {import("esbuild").Plugin}
 */
const bundleZodMini = {
  name: "bundle-zod-mini",
  setup(build) {
    build.onResolve({ filter: /^zod\/(mini|v4\/locales\/en\.js)$/ }, (a) => ({
      path: fileURLToPath(import.meta.resolve(a.path)),
    }));
  },
};

export async function buildServer() {
  const built = await bundle({
    entries: [
      { entry: "server/main.ts", outfile: SERVER_BUNDLE },
      { entry: "server/panehost/main.ts", outfile: HOST_BUNDLE },
      { entry: "server/panehost/mirror-worker.ts", outfile: MIRROR_WORKER_BUNDLE },
      { entry: "server/db/copy.ts", outfile: DB_COPY_BUNDLE },
    ],
    stamp: SERVER_STAMP,
    extraInputs: [fileURLToPath(import.meta.url), path.join(ROOT, "next.config.ts")],
    options: {
      packages: "external",
      plugins: [requireCommonJs, bundleZodMini],
      // The generated Prisma client and some dependencies call require(): give ESM one.
      banner: {
        js: 'import { createRequire as __yardCreateRequire } from "node:module";\nconst require = __yardCreateRequire(import.meta.url);',
      },
    },
  });
  await buildNextConfig();
  // Copies of older worker bundles that running pane hosts made (server/panehost/mirror-pool.ts);
  // a host that needs its copy again writes it again.
  for (const f of readdirSync(path.dirname(MIRROR_WORKER_BUNDLE)))
    if (/^\.mirror-worker-[0-9a-f]+\.mjs$/.test(f))
      rmSync(path.join(path.dirname(MIRROR_WORKER_BUNDLE), f), { force: true });
  return built;
}

/** Whether server/dist/main.mjs was built from the files as they are now. */
export async function serverBundleIsFresh() {
  const { bundleIsFresh } = await import("../cli/bin/bundle.mjs");
  return existsSync(NEXT_CONFIG) && bundleIsFresh(SERVER_STAMP, SERVER_BUNDLE, ROOT);
}

if (process.argv[1] && pathToFileURL(path.resolve(process.argv[1])).href === import.meta.url) {
  const fresh = await serverBundleIsFresh();
  await buildMain("server", () => fresh, buildServer);
}
