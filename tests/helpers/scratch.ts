// Throwaway directories and git repositories for one test file, removed together at the end.
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { makeRepo } from "./git";

export function scratch(prefix = "yard-test-") {
  const dirs: string[] = [];
  return {
    /** A new empty temp directory. */
    tmp(p = prefix): string {
      const d = mkdtempSync(path.join(os.tmpdir(), p));
      dirs.push(d);
      return d;
    },
    /** A new repository on branch main with one commit. */
    repo(): string {
      const r = makeRepo();
      dirs.push(r);
      return r;
    },
    /** Remembers a directory to remove. */
    track(dir: string): string {
      dirs.push(dir);
      return dir;
    },
    cleanup(): void {
      for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
    },
  };
}
