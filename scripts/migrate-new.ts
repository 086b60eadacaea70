// `npm run migrate:new -- <name>`: writes prisma/migrations/<timestamp>_<name>/migration.sql
// with the SQL that takes the committed migrations to prisma/schema.prisma (offline, WASM engine).
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { MIGRATIONS_DIR, pendingSchemaSql } from "../server/db/schema-engine";

const name = (process.argv[2] ?? "").trim();
if (!/^[a-z0-9_]{1,60}$/.test(name)) {
  console.error("usage: npm run migrate:new -- <name>   (lowercase letters, digits and _ only)");
  process.exit(2);
}
const scratch = await mkdtemp(path.join(os.tmpdir(), "yard-migrate-"));
try {
  const sql = await pendingSchemaSql(path.join(scratch, "scratch.db"));
  if (!sql) {
    console.log("schema.prisma and prisma/migrations already agree; no migration written.");
    process.exit(0);
  }
  const stamp = new Date().toISOString().replace(/[-:T]/g, "").slice(0, 14);
  const dir = path.join(MIGRATIONS_DIR, `${stamp}_${name}`);
  await mkdir(dir, { recursive: true });
  await writeFile(path.join(dir, "migration.sql"), `${sql}\n`);
  await writeFile(path.join(MIGRATIONS_DIR, "migration_lock.toml"), 'provider = "sqlite"\n');
  console.log(`wrote ${path.relative(process.cwd(), dir)}/migration.sql`);
} finally {
  await rm(scratch, { recursive: true, force: true });
}
