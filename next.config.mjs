// Next.js configuration for the UI build (server/main.ts serves it). Plain JavaScript on purpose:
// a TypeScript config makes every server start load Next's native SWC binding to compile it
// (~27 MB of RSS and ~100 ms at each start).
import { realpathSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));

/**
 * Turbopack only resolves files under its root. A git worktree whose node_modules is a symlink to
 * another checkout's needs a root above both; a normal checkout keeps its own folder.
 * @returns {string}
 */
function workspaceRoot() {
  let nm;
  try {
    nm = realpathSync(path.join(here, "node_modules"));
  } catch {
    return here;
  }
  let root = here;
  while (!(nm + path.sep).startsWith(root + path.sep) && path.dirname(root) !== root) root = path.dirname(root);
  return root;
}

const root = workspaceRoot();

/** @type {import("next").NextConfig} */
const nextConfig = {
  // Type-checking runs once over the whole repo in `npm test` (tsc --noEmit); repeating it
  // inside `next build` would double the slowest step of the first start.
  typescript: { ignoreBuildErrors: true },
  serverExternalPackages: ["node-pty", "better-sqlite3", "@prisma/client", "@xterm/headless"],
  poweredByHeader: false,
  reactStrictMode: true,
  devIndicators: false,
  turbopack: { root },
  outputFileTracingRoot: root,
};

export default nextConfig;
