#!/usr/bin/env node
// @ts-check
// Builds the `yard` CLI into one plain ESM file, cli/dist/yard.mjs, so a `yard` call costs one
// Node start-up instead of compiling TypeScript through tsx every time (orchestrator agents call
// it hundreds of times per task). esbuild bundles cli/main.ts with everything it imports
// (commander, the tRPC client, the few server modules the CLI shares) for Node 20.
//
// Next to the bundle it writes cli/dist/yard.stamp.json: every file the bundle was built from
// (as esbuild's metafile lists them, plus package.json and this script) with its mtime. The
// `yard` launcher (cli/bin/yard.js, through cli/bin/bundle.mjs) stats those files on each call
// and rebuilds when any of them changed or is gone: about fifty stat calls, well under a
// millisecond. A file whose mtime is newer than the build's start (minus a margin for coarse
// file-system clocks) may have changed while esbuild read it; it is recorded as unknown, so
// the next call builds again.
//
// The bundle must stay small and native-free: a CLI that pulled in Prisma, node-pty, xterm or
// Next would take seconds to start. Importing any of them fails the build with the importer's
// name (the CLI needs only types from the server's router: `import type`).
//
// The MCP server (`yard mcp`, cli/mcp/) is a second bundle, cli/dist/yard-mcp.mjs with its own
// stamp, built the same way with the MCP SDK inside: only `yard mcp` loads it (and rebuilds it
// when stale), so the SDK neither slows the other commands nor adds to the stamp they check.
//
// Run: node scripts/build-cli.mjs [--if-stale]   (postinstall and npm test build; npm start and
// npm run dev build only when stale; `yard` itself rebuilds a stale bundle before running).
// Prints one line per bundle (nothing when --if-stale finds it fresh), or the errors and exits 1.
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { bundle, buildMain, ROOT } from "./bundle.mjs";

export const BUNDLE = path.join(ROOT, "cli/dist/yard.mjs");
export const STAMP = path.join(ROOT, "cli/dist/yard.stamp.json");
export const MCP_BUNDLE = path.join(ROOT, "cli/dist/yard-mcp.mjs");
export const MCP_STAMP = path.join(ROOT, "cli/dist/yard-mcp.stamp.json");
const SELF = fileURLToPath(import.meta.url);

/** Packages that must never end up in the CLI bundle (slow to load, native, or server-only). */
const FORBIDDEN =
  /^(@prisma\/|prisma$|better-sqlite3|node-pty|@xterm\/|next$|next\/|react|socket\.io|@trpc\/server\/adapters)/;

/**
 * Bundles cli/main.ts into cli/dist/yard.mjs and writes the stamp. Both files are replaced
 * atomically (write to a temporary name, then rename), so concurrent `yard` calls that each
 * decide to rebuild never see a half-written bundle.
 * @returns {Promise<{ bundle: string, bytes: number, inputs: number, ms: number }>}
 */
export async function buildCli() {
  return bundle({
    entries: [{ entry: "cli/main.ts", outfile: BUNDLE }],
    stamp: STAMP,
    extraInputs: [SELF],
    options: options(),
  });
}

/**
 * Bundles cli/mcp/server.ts (the MCP SDK included) into cli/dist/yard-mcp.mjs and writes its stamp.
 * @returns {Promise<{ bundle: string, bytes: number, inputs: number, ms: number }>}
 */
export async function buildMcp() {
  return bundle({
    entries: [{ entry: "cli/mcp/server.ts", outfile: MCP_BUNDLE }],
    stamp: MCP_STAMP,
    extraInputs: [SELF],
    options: options(),
  });
}

/** What both bundles are built with: the version fixed, forbidden packages refused, a require(). */
function options() {
  const version = /** @type {{ version: string }} */ (JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")))
    .version;

  /** @type {import("esbuild").Plugin} */
  const plugin = {
    name: "yard-cli",
    setup(build) {
      // server/version.ts reads package.json next to the server; the bundle lives elsewhere,
      // so the version is fixed at build time (package.json is one of the stamp's inputs).
      build.onLoad({ filter: /[\\/]server[\\/]version\.ts$/ }, () => ({
        contents: `export const VERSION = ${JSON.stringify(version)};\n`,
        loader: "ts",
      }));
      build.onResolve({ filter: /^[^./]/ }, (args) => {
        if (FORBIDDEN.test(args.path)) {
          return {
            errors: [
              {
                text: `the yard CLI must not import ${args.path} (imported by ${path.relative(ROOT, args.importer)}); use \`import type\` for types`,
              },
            ],
          };
        }
        return undefined;
      });
    },
  };

  /** @type {import("esbuild").BuildOptions} */
  return {
    // tsx is loaded only by `yard serve`'s fallback, which runs the server's TypeScript in-process.
    external: ["tsx", "tsx/*"],
    // tRPC's httpLink tests every input with `instanceof FormData`; on Node that global is a
    // lazy getter that loads undici (~10 ms per call). The CLI never sends FormData, so the
    // bundle checks against an empty class of its own instead.
    define: { FormData: "__yardNoFormData" },
    // Bundled CommonJS (commander) calls require() for Node built-ins: give ESM a require.
    banner: {
      js: [
        'import { createRequire as __yardCreateRequire } from "node:module";',
        "const require = __yardCreateRequire(import.meta.url);",
        "class __yardNoFormData {}",
      ].join("\n"),
    },
    plugins: [plugin],
  };
}

if (process.argv[1] && pathToFileURL(path.resolve(process.argv[1])).href === import.meta.url) {
  const { bundleIsFresh } = await import("../cli/bin/bundle.mjs");
  await buildMain("yard CLI", () => bundleIsFresh(), buildCli);
  await buildMain("yard MCP server", () => bundleIsFresh(MCP_STAMP, MCP_BUNDLE, ROOT), buildMcp);
}
