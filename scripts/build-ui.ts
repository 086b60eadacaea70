// Makes sure the production UI build in .next is current before any e2e server starts: runs
// `next build` only when .next/BUILD_ID is missing or older than the UI sources (server/build.ts
// decides). When another `next build` holds the .next lock (someone else building in the same
// tree), waits for it and re-checks instead of failing.
// Used by the Playwright global setup and the benchmarks, and runnable on its own: `npx tsx
// scripts/build-ui.ts`; `--check` only says whether a build is needed (exit 0: up to date, 10:
// stale), which scripts/test.sh uses to plan its lanes; `--at-install` is npm's postinstall step
// (the UI is built at install, like the CLI and server bundles, so the first `npm start` serves
// at once): a failed build there is a warning, not a failed install, and the next `npm start` or
// `npm test` builds again and shows why.
import { spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { setTimeout as delay } from "node:timers/promises";
import { buildIsStale } from "../server/build";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const NEXT_BIN = path.join(ROOT, "node_modules/next/dist/bin/next");
const LOCKED = /Another next build process is already running/;
const LOCK_WAIT_MS = 10 * 60_000;

/** Runs `next build`, streaming its output; resolves with whether it failed on the build lock. */
function nextBuild(): Promise<{ code: number | null; locked: boolean }> {
  return new Promise((resolve, reject) => {
    let out = "";
    const child = spawn(process.execPath, [NEXT_BIN, "build"], {
      cwd: ROOT,
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, NODE_ENV: "production", NEXT_TELEMETRY_DISABLED: "1" },
    });
    child.stdout.on("data", (d: Buffer) => {
      out += d;
      process.stdout.write(d);
    });
    child.stderr.on("data", (d: Buffer) => {
      out += d;
      process.stderr.write(d);
    });
    child.on("error", reject);
    child.on("exit", (code) => resolve({ code, locked: code !== 0 && LOCKED.test(out) }));
  });
}

export async function ensureUiBuilt(log: (line: string) => void = (l) => console.log(`ui: ${l}`)): Promise<void> {
  const started = Date.now();
  for (;;) {
    const { stale, reason } = buildIsStale(ROOT);
    if (!stale) {
      log("the UI build in .next is up to date.");
      return;
    }
    log(`${reason}: running next build…`);
    const { code, locked } = await nextBuild();
    if (code === 0) {
      log(`UI built in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
      return;
    }
    if (!locked) throw new Error(`next build failed with exit code ${code}`);
    if (Date.now() - started > LOCK_WAIT_MS)
      throw new Error("gave up waiting for another next build in this tree to finish");
    log("another next build is running in this tree; waiting for it, then checking again.");
    await delay(5_000);
  }
}

const runAsScript = !!process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (runAsScript && process.argv[2] === "--check") {
  const { stale, reason } = buildIsStale(ROOT);
  console.log(stale ? `ui: ${reason}` : "ui: the UI build in .next is up to date.");
  process.exit(stale ? 10 : 0);
} else if (runAsScript) {
  const atInstall = process.argv[2] === "--at-install";
  ensureUiBuilt().catch((e: Error) => {
    console.error(`ui: ${e.message}`);
    if (atInstall)
      console.error(
        "ui: the board UI did not build at install; `npm start` and `npm test` will build it again and show why.",
      );
    process.exit(atInstall ? 0 : 1);
  });
}
