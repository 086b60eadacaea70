// The order vitest starts test files in. With its results cache (node_modules/.vite/vitest) it
// runs the longest first, which keeps both workers busy to the end; a fresh clone has no cache,
// and vitest then runs the largest files first, whatever they cost (measured on the 2-core CI
// machine: npm test from a fresh clone ~12 s slower). Until every file has a cached duration,
// the files below (seconds, measured warm on that machine) go first, longest first.
import path from "node:path";
import { BaseSequencer, type TestSpecification } from "vitest/node";

const TYPICAL_SECONDS: Record<string, number> = {
  "tests/orchestration.test.ts": 85,
  "tests/reviews.test.ts": 66,
  "tests/real-claude.test.ts": 63,
  "tests/pane-host.test.ts": 44,
  "tests/tasks-failures.test.ts": 41,
  "tests/real-codex.test.ts": 39,
  "tests/sandbox.test.ts": 32,
  "tests/scenario.test.ts": 23,
  "tests/fuzz.test.ts": 22,
  "tests/pane-exit.test.ts": 18,
  "tests/tasks-acceptance.test.ts": 16,
  "tests/foundation.test.ts": 14,
  "tests/panes.test.ts": 11,
  "tests/hardening.test.ts": 10,
  "tests/npm-start.test.ts": 9,
  "agents/demo/demo-agent.test.ts": 8,
  "tests/mcp.test.ts": 6,
  "server/core/git/merge.test.ts": 6,
  "server/core/agents/claude-config.test.ts": 5,
  "server/core/git/worktree.test.ts": 5,
  "server/core/agents/screen-watch.test.ts": 5,
  "server/core/panes/mirror.test.ts": 4,
};

export default class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const root = this.ctx.config.root;
    const key = (f: TestSpecification) => `${f.project.name}:${path.relative(root, f.moduleId)}`;
    if (sorted.every((f) => this.ctx.cache.getFileTestResults(key(f)))) return sorted;
    const typical = (f: TestSpecification) => TYPICAL_SECONDS[path.relative(root, f.moduleId)] ?? 0;
    return [...sorted].sort((a, b) => typical(b) - typical(a)); // stable: the rest keep vitest's order
  }
}
