import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["server/**/*.test.ts", "cli/**/*.test.ts", "agents/**/*.test.ts", "tests/**/*.test.ts"],
    environment: "node",
    globalSetup: ["tests/global-setup.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
    // A worker process runs file after file (not one fresh process per file): the files restore
    // what they change (env, timers), and re-importing the shared modules for every one of ~60
    // files cost about 15 s of a 183 s run.
    isolate: false,
    maxWorkers: 2,
  },
});
