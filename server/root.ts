// Where this checkout lives: the directory of Switchyard's package.json, found by walking up
// from this module. Works the same from the TypeScript sources and from a bundle built into a
// subdirectory, so no module computes the root from its own depth in the tree.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

function findRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const pkg = path.join(dir, "package.json");
    if (existsSync(pkg)) {
      try {
        if ((JSON.parse(readFileSync(pkg, "utf8")) as { name?: string }).name === "switchyard") return dir;
      } catch {
        /* not ours: keep walking */
      }
    }
    const up = path.dirname(dir);
    if (up === dir) throw new Error(`Switchyard's package.json was not found above ${fileURLToPath(import.meta.url)}`);
    dir = up;
  }
}

export const REPO_ROOT = findRoot();
