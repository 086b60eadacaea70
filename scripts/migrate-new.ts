// `npm run migrate:new -- <name>`: writes prisma/migrations/<timestamp>_<name>/migration.sql
// (SQLite) and prisma/migrations-postgresql/<timestamp>_<name>/migration.sql (PostgreSQL) with the
// SQL that takes each provider's committed migrations to prisma/schema.prisma (offline, WASM
// engine). The PostgreSQL diff replays the migrations on a scratch database: the server
// YARD_TEST_PG_URL names, or else a throwaway cluster started here (scripts/pg-cluster.mjs, needs
// Debian's postgresql package).
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { MIGRATIONS_DIRS, pendingSchemaSql } from "../server/db/schema-engine";
import type { Provider } from "../server/db/schema-source";
// @ts-expect-error: plain JavaScript module without types
import { startCluster, stopCluster } from "./pg-cluster.mjs";

const name = (process.argv[2] ?? "").trim();
if (!/^[a-z0-9_]{1,60}$/.test(name)) {
  console.error("usage: npm run migrate:new -- <name>   (lowercase letters, digits and _ only)");
  process.exit(2);
}
const scratch = await mkdtemp(path.join(os.tmpdir(), "yard-migrate-"));
const stamp = new Date().toISOString().replace(/[-:T]/g, "").slice(0, 14);
let cluster: string | null = null;
try {
  let pgUrl = process.env.YARD_TEST_PG_URL;
  if (!pgUrl) {
    // Its own temp dir: the cluster runs as `postgres` when we are root, which cannot enter ours.
    cluster = await mkdtemp(path.join(os.tmpdir(), "yard-migrate-pg-"));
    pgUrl = (await startCluster(cluster)) as string;
  }
  const pending: Record<Provider, string> = {
    sqlite: await pendingSchemaSql({ provider: "sqlite", file: path.join(scratch, "scratch.db") }),
    postgresql: await pendingSchemaSql({ provider: "postgresql", url: pgUrl }),
  };
  for (const provider of ["sqlite", "postgresql"] as const) {
    const sql = pending[provider];
    if (!sql) {
      console.log(`${provider}: schema.prisma and its migrations already agree; no migration written.`);
      continue;
    }
    const dir = path.join(MIGRATIONS_DIRS[provider], `${stamp}_${name}`);
    await mkdir(dir, { recursive: true });
    await writeFile(path.join(dir, "migration.sql"), `${sql}\n`);
    await writeFile(path.join(MIGRATIONS_DIRS[provider], "migration_lock.toml"), `provider = "${provider}"\n`);
    console.log(`wrote ${path.relative(process.cwd(), dir)}/migration.sql`);
  }
} finally {
  if (cluster) stopCluster(cluster);
  await rm(scratch, { recursive: true, force: true });
}
