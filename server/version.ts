// The running version, from package.json (one source of truth for server, CLI and /api/health).
import { readFileSync } from "node:fs";
import path from "node:path";
import { REPO_ROOT } from "./root";

export const VERSION: string = (
  JSON.parse(readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")) as { version: string }
).version;
