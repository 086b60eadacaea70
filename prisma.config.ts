// Prisma CLI config (used by `npm run prisma:generate`). The server never reads it:
// it builds its own datasource URL from the data dir (server/config.ts).
import { defineConfig } from "prisma/config";

export default defineConfig({
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations" },
  datasource: { url: "file:./.yard-dev/yard.db" },
});
