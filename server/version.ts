// The running version, from package.json (one source of truth for server, CLI and /api/health).
import { readFileSync } from "node:fs";

export const VERSION: string = (JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version: string }).version;
