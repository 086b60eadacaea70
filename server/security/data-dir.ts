// The data dir's permissions: the directory 0700 and everything directly in it owner-only
// (files 0600, directories 0700, the `yard` launcher 0700), tightened at every start so a data
// dir created by an older version or a wide umask is closed too. Worktrees' contents are the
// user's files and are left as they are.
import { chmodSync, lstatSync, mkdirSync, readdirSync } from "node:fs";
import path from "node:path";

export function tightenDataDir(home: string): void {
  mkdirSync(home, { recursive: true, mode: 0o700 });
  chmodSync(home, 0o700);
  for (const name of readdirSync(home)) {
    const p = path.join(home, name);
    const st = lstatSync(p);
    if (st.isSymbolicLink()) continue;
    if (st.isDirectory()) {
      chmodSync(p, 0o700);
      if (name === "bin")
        for (const f of readdirSync(p)) if (lstatSync(path.join(p, f)).isFile()) chmodSync(path.join(p, f), 0o700);
    } else if (st.isFile()) {
      chmodSync(p, 0o600);
    }
  }
}
