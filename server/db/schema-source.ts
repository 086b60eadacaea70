// The data model's one source, prisma/schema.prisma (SQLite), and the PostgreSQL schema derived
// from it: the same models with the PostgreSQL provider and its own client output. The models use
// only types both providers map the same way (String, Int, Boolean, DateTime), so nothing else
// differs; each provider has its own committed migrations (prisma/migrations,
// prisma/migrations-postgresql).
import { readFileSync } from "node:fs";
import path from "node:path";
import { REPO_ROOT } from "../root";

export const SCHEMA_PATH = path.join(REPO_ROOT, "prisma/schema.prisma");

export type Provider = "sqlite" | "postgresql";

export const MIGRATIONS_DIRS: Record<Provider, string> = {
  sqlite: path.join(REPO_ROOT, "prisma/migrations"),
  postgresql: path.join(REPO_ROOT, "prisma/migrations-postgresql"),
};

/** The schema text for `provider`; `output` replaces the client's output dir when given. */
export function schemaFor(provider: Provider, output?: string): string {
  const text = readFileSync(SCHEMA_PATH, "utf8");
  if (provider === "sqlite") return text;
  return postgresSchema(output ?? path.join(REPO_ROOT, "server/db/postgresql/generated"), text);
}

export function postgresSchema(output: string, text = readFileSync(SCHEMA_PATH, "utf8")): string {
  const swapped = text
    .replace(/(datasource db \{\s*provider\s*=\s*)"sqlite"/, '$1"postgresql"')
    .replace(/(generator client \{[^}]*output\s*=\s*)"[^"]*"/, `$1${JSON.stringify(output)}`);
  if (!swapped.includes('provider = "postgresql"'))
    throw new Error("schema.prisma: no sqlite datasource to derive from");
  return swapped;
}
