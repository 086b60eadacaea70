// @ts-check
// Bundling TypeScript entry points into plain ESM JavaScript with esbuild, with a freshness
// stamp: the shared half of scripts/build-cli.mjs (the `yard` CLI) and scripts/build-server.mjs
// (the server), so neither compiles TypeScript through tsx on every start.
//
// Next to each bundle, `<name>.stamp.json` lists every file the bundle was built from (as
// esbuild's metafile lists them, plus package.json and the build script) with its mtime.
// `bundleIsFresh` (cli/bin/bundle.mjs) stats those files: about fifty stat calls, well under a
// millisecond. A file whose mtime is newer than the build's start (minus a margin for coarse
// file-system clocks) may have changed while esbuild read it; it is recorded as unknown, so the
// next check builds again. Bundle and stamp are replaced atomically (temporary name, then
// rename; the bundle first, so a new stamp never vouches for an old bundle), so concurrent
// builds are safe.
import { randomBytes } from "node:crypto";
import { mkdirSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
/** Margin for file systems whose timestamps lag the wall clock. */
const MTIME_MARGIN_MS = 1000;

/**
 * @typedef {{ format: 1, builtAt: number, inputs: Record<string, number> }} Stamp
 * inputs: path relative to the repository root -> mtimeMs when built (0: unknown, rebuild)
 */

/**
 * Builds each entry (relative to the root) into its output file (absolute) and writes `stamp`
 * for all of them; the first output is the one reported.
 * @param {{ entries: Array<{ entry: string, outfile: string }>, stamp: string, extraInputs: string[], options: import("esbuild").BuildOptions }} b
 *   stamp absolute; extraInputs absolute (the build script itself, …)
 * @returns {Promise<{ bundle: string, bytes: number, inputs: number, ms: number }>}
 */
export async function bundle(b) {
  const started = Date.now();
  const esbuild = await import("esbuild");
  const outdir = path.dirname(b.entries[0].outfile);
  if (b.entries.some((e) => path.dirname(e.outfile) !== outdir))
    throw new Error("all outputs of one bundle go into one directory");
  const result = await esbuild.build({
    absWorkingDir: ROOT,
    entryPoints: b.entries.map((e) => ({ in: e.entry, out: path.basename(e.outfile).replace(/\.mjs$/, "") })),
    outdir,
    outExtension: { ".js": ".mjs" },
    bundle: true,
    platform: "node",
    target: "node20",
    format: "esm",
    write: false,
    metafile: true,
    logLevel: "silent",
    legalComments: "none",
    ...b.options,
  });
  const outs = b.entries.map((e) => result.outputFiles.find((f) => f.path === e.outfile));
  if (outs.some((o) => !o)) throw new Error("esbuild did not produce every bundle");
  // (inputs in a plugin's namespace, "name:path", are not files)
  const files = [
    ...Object.keys(result.metafile.inputs)
      .filter((p) => !/^[a-z-]+:/.test(p))
      .map((p) => path.resolve(ROOT, p)),
    path.join(ROOT, "package.json"),
    fileURLToPath(import.meta.url),
    ...b.extraInputs,
  ];
  /** @type {Record<string, number>} */
  const inputs = {};
  for (const file of files) {
    const mtime = statSync(file).mtimeMs;
    inputs[path.relative(ROOT, file)] = mtime > started - MTIME_MARGIN_MS ? 0 : mtime;
  }
  /** @type {Stamp} */
  const stamp = { format: 1, builtAt: started, inputs };
  mkdirSync(outdir, { recursive: true });
  const tmp = `.${process.pid}-${randomBytes(4).toString("hex")}.tmp`;
  try {
    for (const [i, e] of b.entries.entries()) {
      writeFileSync(e.outfile + tmp, /** @type {import("esbuild").OutputFile} */ (outs[i]).contents);
    }
    writeFileSync(b.stamp + tmp, `${JSON.stringify(stamp)}\n`);
    for (const e of b.entries) renameSync(e.outfile + tmp, e.outfile);
    renameSync(b.stamp + tmp, b.stamp);
  } finally {
    for (const e of b.entries) rmSync(e.outfile + tmp, { force: true });
    rmSync(b.stamp + tmp, { force: true });
  }
  return {
    bundle: b.entries[0].outfile,
    bytes: /** @type {import("esbuild").OutputFile} */ (outs[0]).contents.length,
    inputs: files.length,
    ms: Date.now() - started,
  };
}

/**
 * The command-line half of a build script: `--if-stale` skips a fresh bundle; prints one line,
 * or the errors and exits 1.
 * @param {string} label @param {() => boolean} isFresh @param {() => Promise<{ bundle: string, bytes: number, inputs: number, ms: number }>} build
 */
export async function buildMain(label, isFresh, build) {
  if (process.argv.includes("--if-stale") && isFresh()) return;
  try {
    const r = await build();
    process.stdout.write(
      `${label}: built ${path.relative(ROOT, r.bundle)} (${Math.round(r.bytes / 1024)} KiB from ${r.inputs} files) in ${r.ms} ms\n`,
    );
  } catch (e) {
    const err = /** @type {{ errors?: Array<{ text: string, location?: { file: string, line: number } | null }> }} */ (
      e
    );
    if (err.errors?.length) {
      for (const m of err.errors)
        process.stderr.write(
          `${label} build: ${m.location ? `${m.location.file}:${m.location.line}: ` : ""}${m.text}\n`,
        );
    } else process.stderr.write(`${label} build: ${/** @type {Error} */ (e).stack ?? e}\n`);
    process.exit(1);
  }
}
