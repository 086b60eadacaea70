// @ts-check
// Which code `yard` runs: the prebuilt bundle cli/dist/yard.mjs when it is up to date with its
// sources, else a fresh build of it (scripts/build-cli.mjs, about a tenth of a second), else,
// when it cannot be built (no esbuild), the TypeScript sources through tsx.
//
// "Up to date" is decided from the stamp the build writes beside the bundle: every input file
// with its mtime at build time. Checking it costs one small JSON read and a stat per input
// (about fifty), so it runs on every call. Any input changed, missing or recorded as unknown
// makes the bundle stale. A new file can only change the bundle through an import added to a
// file that is already an input, which changes that file's mtime.
import { readFileSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const BUNDLE = new URL("../dist/yard.mjs", import.meta.url);
const STAMP = fileURLToPath(new URL("../dist/yard.stamp.json", import.meta.url));
const ROOT = fileURLToPath(new URL("../../", import.meta.url));

/**
 * Whether the bundle exists and was built from the files as they are now.
 * @param {string} stampPath @param {string} bundlePath @param {string} root inputs are relative to it
 */
export function bundleIsFresh(stampPath = STAMP, bundlePath = fileURLToPath(BUNDLE), root = ROOT) {
  /** @type {{ format?: number, inputs?: Record<string, number> }} */
  let stamp;
  try {
    stamp = JSON.parse(readFileSync(stampPath, "utf8"));
    statSync(bundlePath);
  } catch {
    return false;
  }
  if (stamp.format !== 1 || !stamp.inputs) return false;
  for (const [rel, mtime] of Object.entries(stamp.inputs)) {
    const st = statSync(path.resolve(root, rel), { throwIfNoEntry: false });
    if (!st || st.mtimeMs !== mtime) return false;
  }
  return true;
}

/**
 * The module to import for the CLI: the bundle (rebuilt first when stale), or null when it
 * cannot be built and the caller should run the sources through tsx.
 * @returns {Promise<URL | null>}
 */
export async function cliEntry() {
  if (bundleIsFresh()) return BUNDLE;
  try {
    const { buildCli } = await import("../../scripts/build-cli.mjs");
    await buildCli();
    return BUNDLE;
  } catch (e) {
    const err = /** @type {{ errors?: Array<{ text: string }>, message?: string }} */ (e);
    const why = err.errors?.[0]?.text ?? err.message ?? String(e);
    process.stderr.write(
      `yard: could not build the CLI bundle (${why.split("\n")[0]}); running from source, which is slower\n`,
    );
    return null;
  }
}
