// Generates the Prisma client into server/db/generated without any engine download:
// PRISMA_SCHEMA_ENGINE_BINARY only has to name an existing file for `generate` to skip
// its download check (no engine is downloaded or run). Skips the work when the client is newer than the schema.
import { spawnSync } from "node:child_process";
import { existsSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const schema = path.join(root, "prisma/schema.prisma");
const marker = path.join(root, "server/db/generated/client.ts");
const force = process.argv.includes("--force");
if (!force && existsSync(marker) && statSync(marker).mtimeMs >= statSync(schema).mtimeMs) process.exit(0);

const res = spawnSync(
  process.execPath,
  [path.join(root, "node_modules/prisma/build/index.js"), "generate", "--schema", schema],
  {
    cwd: root,
    stdio: ["ignore", "inherit", "inherit"],
    env: {
      ...process.env,
      PRISMA_SCHEMA_ENGINE_BINARY: process.execPath,
      PRISMA_HIDE_UPDATE_MESSAGE: "1",
      CHECKPOINT_DISABLE: "1",
    },
  },
);
process.exit(res.status ?? 1);
