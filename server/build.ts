// Production mode needs a Next.js build: this decides whether the build in .next is missing or
// older than the UI sources, and runs `next build` with its progress visible when it is.
import { spawn } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";

const UI_SOURCES = [
  "app",
  "components",
  "lib",
  "next.config.ts",
  "postcss.config.mjs",
  "package.json",
  "tsconfig.json",
];

function newestMtime(p: string): number {
  if (!existsSync(p)) return 0;
  const st = statSync(p);
  if (!st.isDirectory()) return st.mtimeMs;
  let newest = st.mtimeMs;
  for (const entry of readdirSync(p)) newest = Math.max(newest, newestMtime(path.join(p, entry)));
  return newest;
}

export function buildIsStale(root: string): { stale: boolean; reason: string } {
  const buildId = path.join(root, ".next", "BUILD_ID");
  if (!existsSync(buildId)) return { stale: true, reason: "no build yet" };
  const built = statSync(buildId).mtimeMs;
  const newest = Math.max(...UI_SOURCES.map((s) => newestMtime(path.join(root, s))));
  return newest > built
    ? { stale: true, reason: "UI sources changed since the last build" }
    : { stale: false, reason: "" };
}

export async function runNextBuild(root: string, log: (l: string) => void): Promise<void> {
  const started = Date.now();
  log("Building the board UI (next build); this takes a minute or two the first time…");
  await new Promise<void>((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(root, "node_modules/next/dist/bin/next"), "build"], {
      cwd: root,
      stdio: ["ignore", "inherit", "inherit"],
      env: { ...process.env, NODE_ENV: "production", NEXT_TELEMETRY_DISABLED: "1" },
    });
    child.on("error", reject);
    child.on("exit", (code) =>
      code === 0 ? resolve() : reject(new Error(`next build failed with exit code ${code}`)),
    );
  });
  log(`UI built in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
}
