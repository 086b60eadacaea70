import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // Type-checking runs once over the whole repo in `npm test` (tsc --noEmit); repeating it
  // inside `next build` would double the slowest step of the first start.
  typescript: { ignoreBuildErrors: true },
  serverExternalPackages: ["node-pty", "better-sqlite3", "@prisma/client", "@xterm/headless"],
  poweredByHeader: false,
  reactStrictMode: true,
  devIndicators: false,
};

export default nextConfig;
