import { defineConfig } from "vitest/config";
import { BaseSequencer, type TestSpecification } from "vitest/node";

/**
 * Files that take longest (most wait on servers, agents and clocks), started first so that none of
 * them begins late and runs on alone at the end (a fresh clone has no timing cache for vitest to
 * order by). The rest follow in vitest's own order.
 */
const SLOW_FIRST = [
  "tests/runners.test.ts",
  "tests/orchestration.test.ts",
  "tests/branch-update.test.ts",
  "tests/fuzz.test.ts",
  "tests/pane-host.test.ts",
  "tests/reviews.test.ts",
  "tests/sandbox.test.ts",
  "tests/repo-setup.test.ts",
  "tests/scenario.test.ts",
  "tests/turns.test.ts",
  "tests/review-integrity.test.ts",
  "tests/worktrees.test.ts",
  "tests/github.test.ts",
  "tests/scope-fuzz.test.ts",
  "tests/agent-files.test.ts",
];

class SlowFirst extends BaseSequencer {
  async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (f: TestSpecification) => {
      const i = SLOW_FIRST.findIndex((p) => f.moduleId.endsWith(`/${p}`));
      return i < 0 ? SLOW_FIRST.length : i;
    };
    return sorted
      .map((f, i) => ({ f, i }))
      .sort((a, b) => rank(a.f) - rank(b.f) || a.i - b.i)
      .map(({ f }) => f);
  }
}

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
    sequence: { sequencer: SlowFirst },
  },
});
