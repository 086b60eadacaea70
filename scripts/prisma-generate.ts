// Generates the Prisma clients without any engine download: server/db/generated (SQLite, the
// embedded default) from prisma/schema.prisma, and server/db/postgresql/generated (PostgreSQL) from the
// same models with the PostgreSQL provider (server/db/schema-source.ts derives that schema: one
// source of the data model). PRISMA_SCHEMA_ENGINE_BINARY only has to name an existing file for
// `generate` to skip its download check (no engine is downloaded or run). Skips the work when both
// clients are newer than the schema.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { postgresSchema } from "../server/db/schema-source";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const schema = path.join(root, "prisma/schema.prisma");
const markers = ["server/db/generated/client.ts", "server/db/postgresql/generated/client.ts"].map((m) =>
  path.join(root, m),
);
const force = process.argv.includes("--force");
const fresh = (m: string) => existsSync(m) && statSync(m).mtimeMs >= statSync(schema).mtimeMs;
if (!force && markers.every(fresh)) process.exit(0);

function generate(schemaFile: string): number {
  const res = spawnSync(
    process.execPath,
    [path.join(root, "node_modules/prisma/build/index.js"), "generate", "--schema", schemaFile],
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
  return res.status ?? 1;
}

let status = generate(schema);
if (status === 0) {
  const tmp = mkdtempSync(path.join(os.tmpdir(), "yard-prisma-pg-"));
  try {
    const pgSchema = path.join(tmp, "schema.prisma");
    writeFileSync(pgSchema, postgresSchema(path.join(root, "server/db/postgresql/generated")));
    status = generate(pgSchema);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}
process.exit(status);
