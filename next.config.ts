// Next.js configuration for the UI build (server/main.ts serves it). `next build` and `--dev` read
// this file; the server's Next reads next.config.mjs, its plain-JavaScript build
// (scripts/build-server.mjs), so a start never loads Next's native SWC binding just to compile a
// TypeScript config (~27 MB of RSS and ~100 ms at each start).
import { realpathSync } from "node:fs";
import type { NextConfig } from "next";
import path from "node:path";

// The repository: Next runs from it (`next build` there; the server passes dir: process.cwd()).
const here = process.cwd();

/**
 * Turbopack only resolves files under its root. A git worktree whose node_modules is a symlink to
 * another checkout's needs a root above both; a normal checkout keeps its own folder.
 */
function workspaceRoot(): string {
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

const nextConfig: NextConfig = {
  // Type-checking runs once over the whole repo in `npm test` (tsc --noEmit); repeating it
  // inside `next build` would double the slowest step of the first start.
  typescript: { ignoreBuildErrors: true },
  serverExternalPackages: ["node-pty", "better-sqlite3", "@prisma/client", "@xterm/headless"],
  poweredByHeader: false,
  // The board is served to a browser on the same machine (loopback by default): gzip there only
  // costs CPU on both ends (profiled over the browser specs: ~3% of a UI server's CPU was zlib,
  // mostly the 1.5 MB of scripts each fresh browser context loads).
  compress: false,
  reactStrictMode: true,
  devIndicators: false,
  turbopack: { root },
  outputFileTracingRoot: root,
};

export default nextConfig;
