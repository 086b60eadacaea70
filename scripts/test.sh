#!/usr/bin/env bash
# The test command (`npm test`): Prisma client, the yard CLI bundle, format and lint (Biome), unused code (knip), typecheck, the pinned agent
# CLIs (Claude Code, Codex: installed once into a cache outside the repo, a no-op afterwards),
# unit + integration tests (vitest), UI build when stale, end-to-end tests (Playwright against the
# real server and Debian's Chromium), then the clock-bound vitest files (LATE_TESTS below). The
# typecheck, and the UI build + end-to-end tests + clock-bound files, run beside the other vitest
# files (their output is printed when they end).
# Every stage runs even when an earlier one failed (except when the Prisma client or the UI
# cannot be built); the exit status is non-zero if anything failed.
# The last line is always `N passed, M failed`: N and M are the vitest + Playwright test counts;
# a failed stage that reported no failing test (typecheck, a crash) counts as one failure, so
# "0 failed" means everything passed.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
ROOT="$(pwd)"
export NEXT_TELEMETRY_DISABLED=1

# The JSON reports and the background stages' logs; kept when YARD_TEST_REPORTS names a directory.
KEEP_REPORTS=0
if [ -n "${YARD_TEST_REPORTS:-}" ]; then
  REPORTS="$YARD_TEST_REPORTS"
  KEEP_REPORTS=1
  mkdir -p "$REPORTS"
else
  REPORTS="$(mktemp -d "${TMPDIR:-/tmp}/yard-test-reports.XXXXXX")"
fi
PG_DIR=""
cleanup() {
  if [ -n "$PG_DIR" ]; then node scripts/pg-cluster.mjs stop "$PG_DIR" || true; fi
  if [ "$KEEP_REPORTS" -eq 0 ]; then rm -rf "$REPORTS"; fi
}
trap cleanup EXIT
VITEST_JSON="$REPORTS/vitest.json"
LATE_JSON="$REPORTS/vitest-late.json"
# Vitest files that mostly wait on clocks (the real agents' start-up, retries and dialogs; ready
# timeouts, stall and quiet detection) rather than use a core: they run in a lane of their own,
# one file at a time, beside the other vitest files and the end-to-end tests, so that their
# waiting overlaps the others' work instead of adding to it.
LATE_TESTS=(tests/real-claude.test.ts tests/real-codex.test.ts tests/panes.test.ts tests/tasks-failures.test.ts)
PLAYWRIGHT_JSON="$REPORTS/playwright.json"

PASSED=0
FAILED=0
FAILED_STAGES=()
SUITE_START=$SECONDS
STAGE_START=$SECONDS

header() {
  STAGE_START=$SECONDS
  printf '\n==> %s\n\n' "$1"
}

stage_done() { # name status
  local took=$((SECONDS - STAGE_START))
  if [ "$2" -eq 0 ]; then
    printf '\n--> %s: ok (%ss)\n' "$1" "$took"
  else
    printf '\n--> %s: FAILED with exit code %s (%ss)\n' "$1" "$2" "$took"
    FAILED_STAGES+=("$1")
  fi
}

# Prints "passed failed" from a vitest (jest-style) or Playwright JSON report, or nothing when the
# report is missing or unreadable.
count_tests() { # kind file
  [ -s "$2" ] || return 0
  node -e '
    const [kind, file] = process.argv.slice(1);
    try {
      const r = JSON.parse(require("fs").readFileSync(file, "utf8"));
      if (kind === "vitest") console.log(`${r.numPassedTests ?? 0} ${r.numFailedTests ?? 0}`);
      else console.log(`${(r.stats?.expected ?? 0) + (r.stats?.flaky ?? 0)} ${r.stats?.unexpected ?? 0}`);
    } catch {}
  ' "$1" "$2" || true
}

tally() { # name kind file status
  local counts p=0 f=0
  counts="$(count_tests "$2" "$3")"
  if [ -n "$counts" ]; then
    read -r p f <<<"$counts"
  fi
  PASSED=$((PASSED + p))
  FAILED=$((FAILED + f))
  if [ "$4" -ne 0 ] && [ "$f" -eq 0 ]; then
    FAILED=$((FAILED + 1))
  fi
  printf '%s: %s passed, %s failed\n' "$1" "$p" "$f"
}

# Prints each failing test of the JSON reports (file and full name, with the first line of its
# error), so that the summary, the end of a long log, names what failed.
list_failures() {
  node -e '
    const fs = require("fs");
    const read = (f) => { try { return JSON.parse(fs.readFileSync(f, "utf8")); } catch { return null; } };
    const first = (m) => String(m ?? "").replace(/\x1b\[[0-9;]*m/g, "").split("\n").find((l) => l.trim()) ?? "";
    for (const f of process.argv.slice(1, 3)) {
      const r = read(f);
      for (const file of r?.testResults ?? [])
        for (const t of file.assertionResults ?? [])
          if (t.status === "failed")
            console.log(`  FAILED ${file.name.replace(process.cwd() + "/", "")} > ${t.fullName}\n         ${first(t.failureMessages?.[0]).slice(0, 300)}`);
    }
    const walk = (s, file) => {
      for (const spec of s.specs ?? [])
        for (const t of spec.tests ?? [])
          if (t.status === "unexpected")
            console.log(`  FAILED ${spec.file ?? file}:${spec.line} > ${spec.title}\n         ${first(t.results?.at(-1)?.error?.message).slice(0, 300)}`);
      for (const c of s.suites ?? []) walk(c, s.file ?? file);
    };
    for (const s of read(process.argv[3])?.suites ?? []) walk(s, s.file);
  ' "$VITEST_JSON" "$LATE_JSON" "$PLAYWRIGHT_JSON" || true
}

finish() {
  printf '\n==> Summary (%ss)\n\n' "$((SECONDS - SUITE_START))"
  if [ "${#FAILED_STAGES[@]}" -gt 0 ]; then
    printf 'Failed stages: %s\n' "${FAILED_STAGES[*]}"
    list_failures
  else
    printf 'All stages passed.\n'
  fi
  printf '%s passed, %s failed\n' "$PASSED" "$FAILED"
  [ "${#FAILED_STAGES[@]}" -eq 0 ]
}

# 1. Prisma client (offline; a fast no-op when the generated client is newer than the schema).
header "Prisma client (scripts/prisma-generate.ts)"
status=0
npx tsx scripts/prisma-generate.ts || status=$?
stage_done "prisma-generate" "$status"
if [ "$status" -ne 0 ]; then
  FAILED=$((FAILED + 1))
  finish || exit 1
fi

# 2. The bundles the tests run: the yard CLI (cli/bin/yard.js runs cli/dist/yard.mjs) and the
# server (server/dist/main.mjs, what npm start runs). Built every time: a failure here must
# show, not hide behind yard's slower run-from-source fallback.
header "Bundles (scripts/build-cli.mjs, scripts/build-server.mjs)"
status=0
{ node scripts/build-cli.mjs && node scripts/build-server.mjs; } || status=$?
stage_done "bundles" "$status"
[ "$status" -eq 0 ] || FAILED=$((FAILED + 1))

# Node reads and parses the file NODE_EXTRA_CA_CERTS names at every start: with a system-wide
# bundle (144 roots, as on our CI machines) that is ~45 ms of CPU per process, against ~30 ms for
# the rest of Node's start-up. The suite starts about two thousand Node processes (servers, pane
# hosts, agents, every `yard` call) and they talk to nothing but loopback, so the stages below run
# without it. Only the agent install, which downloads from the npm registry, keeps it.
CA_ENV=()
if [ -n "${NODE_EXTRA_CA_CERTS+x}" ]; then
  CA_ENV=(env "NODE_EXTRA_CA_CERTS=$NODE_EXTRA_CA_CERTS")
  unset NODE_EXTRA_CA_CERTS
fi

# 2a. A throwaway PostgreSQL cluster (Debian's postgresql package: scripts/pg-cluster.mjs) for the
# tests that run on both databases (YARD_TEST_PG_URL; ~1 s to start). Without the package those
# tests run on SQLite only, with a notice, unless YARD_REQUIRE_PG=1 (.ci/run), where it fails.
header "PostgreSQL for the tests (scripts/pg-cluster.mjs)"
status=0
if node scripts/pg-cluster.mjs available; then
  PG_DIR="$(mktemp -d "${TMPDIR:-/tmp}/yard-test-pg.XXXXXX")"
  chmod 755 "$PG_DIR"
  if YARD_TEST_PG_URL="$(node scripts/pg-cluster.mjs start "$PG_DIR/cluster")"; then
    export YARD_TEST_PG_URL
    echo "PostgreSQL at $YARD_TEST_PG_URL"
  else
    status=1
  fi
elif [ "${YARD_REQUIRE_PG:-0}" = "1" ]; then
  echo "YARD_REQUIRE_PG=1 but PostgreSQL is not installed (apt-get install postgresql)"
  status=1
else
  echo "PostgreSQL is not installed: the tests that run on both databases run on SQLite only (apt-get install postgresql)"
fi
stage_done "postgresql" "$status"
[ "$status" -eq 0 ] || FAILED=$((FAILED + 1))

# 2b. Format and lint (Biome: biome.json; `npm run format` fixes what it can). Under a second.
header "Format and lint (biome check)"
status=0
npx biome check --max-diagnostics=50 . || status=$?
stage_done "biome" "$status"
[ "$status" -eq 0 ] || FAILED=$((FAILED + 1))

# 2c. Unused exports, files and dependencies (knip: knip.json names the entry points). ~4 s.
header "Unused code (knip)"
status=0
npx knip --no-progress || status=$?
stage_done "knip" "$status"
[ "$status" -eq 0 ] || FAILED=$((FAILED + 1))

# 3-7 run side by side: the typecheck, the UI build followed by the end-to-end tests, and the
# clock-bound vitest files, in the background (their output is kept and printed when they end),
# while the other unit and integration tests run in the foreground. Overlapped, the stages keep
# both cores busy (one after another, each left a core idle much of the time), and the clock-bound
# files' waiting overlaps the others' work.
LOGS="$REPORTS/logs"
mkdir -p "$LOGS"

# Runs a background stage: its output to $LOGS/<name>.log, "status seconds" to $LOGS/<name>.status.
bg_run() { # name command...
  local name="$1" start=$SECONDS status=0
  shift
  "$@" >"$LOGS/$name.log" 2>&1 || status=$?
  echo "$status $((SECONDS - start))" >"$LOGS/$name.status"
  return "$status"
}

# Prints a background stage's output and its result line (stage_done); BG_STATUS is its status.
bg_report() { # name
  local took
  cat "$LOGS/$1.log"
  read -r BG_STATUS took <"$LOGS/$1.status" || { BG_STATUS=1; took=0; }
  STAGE_START=$((SECONDS - took))
  stage_done "$1" "$BG_STATUS"
}

# 3. Typecheck (background), with TypeScript 7's native compiler (the devDependency alias
# typescript-native): from a fresh clone it checks the repo in ~7 CPU-s against ~24 for
# TypeScript 5.9's tsc. 5.9 stays the `typescript` package: Next.js and editors load its JS API,
# which TypeScript 7 does not ship. Single-threaded (and one Go scheduler thread): it runs beside
# the other stages on busy cores, where its parallel checkers only cost more CPU. Alone, 3.0 CPU-s
# against 3.8; in the loaded suite it had been measured at 6 to 23 CPU-s.
bg_run typecheck env GOMAXPROCS=1 node node_modules/typescript-native/bin/tsc --noEmit -p . --singleThreaded &
TYPECHECK_PID=$!

# 5-6. The production UI build the e2e servers serve (only when .next is missing or stale), then the
# end-to-end tests (background).
(
  if bg_run ui-build npx tsx scripts/build-ui.ts; then
    PLAYWRIGHT_JSON_OUTPUT_NAME="$PLAYWRIGHT_JSON" bg_run playwright npx playwright test --reporter=list,json || true
  fi
) &
E2E_PID=$!

# 3b. The real agent CLIs the real-agent integration tests run (tests/real-*.test.ts): pinned
# versions from the npm registry into ${YARD_AGENT_CACHE:-$HOME/.cache/switchyard/agents}; a
# no-op when they are there. If this fails, those tests fail and say how to install them.
header "Agent CLIs (scripts/install-agents.mjs)"
status=0
${CA_ENV[@]+"${CA_ENV[@]}"} node scripts/install-agents.mjs || status=$?
stage_done "install-agents" "$status"
[ "$status" -eq 0 ] || FAILED=$((FAILED + 1))

# 7. The clock-bound vitest files, one at a time (background), once the agent CLIs are installed.
bg_run vitest-late npx vitest run --maxWorkers=1 --reporter=default --reporter=json --outputFile.json="$LATE_JSON" "${LATE_TESTS[@]}" &
LATE_PID=$!

# 4. Unit and integration tests but the clock-bound ones (foreground, streamed).
header "Unit and integration tests (vitest; the typecheck, the end-to-end tests and the clock-bound files run beside it)"
status=0
exclude=()
for f in "${LATE_TESTS[@]}"; do exclude+=(--exclude "$f"); done
npx vitest run --maxWorkers="${YARD_VITEST_WORKERS:-3}" --reporter=default --reporter=json --outputFile.json="$VITEST_JSON" "${exclude[@]}" || status=$?
stage_done "vitest" "$status"
tally "vitest" vitest "$VITEST_JSON" "$status"

# The background stages' output, in order, once each has ended.
wait "$TYPECHECK_PID" || true
header "Typecheck (TypeScript 7 tsc --noEmit, ran beside vitest)"
bg_report typecheck
[ "$BG_STATUS" -eq 0 ] || FAILED=$((FAILED + 1))

wait "$E2E_PID" || true
header "UI build (next build, when stale; ran beside vitest)"
bg_report ui-build
if [ "$BG_STATUS" -ne 0 ]; then
  FAILED=$((FAILED + 1))
  printf '\n==> End-to-end tests (Playwright): skipped, the UI did not build\n'
  FAILED_STAGES+=("playwright (skipped)")
else
  header "End-to-end tests (Playwright, $ROOT/e2e; ran beside vitest)"
  bg_report playwright
  tally "playwright" playwright "$PLAYWRIGHT_JSON" "$BG_STATUS"
fi

wait "$LATE_PID" || true
header "Clock-bound integration tests (vitest: ${LATE_TESTS[*]}; ran beside the others)"
bg_report vitest-late
tally "vitest-late" vitest "$LATE_JSON" "$BG_STATUS"

finish
