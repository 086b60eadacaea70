// Playwright end-to-end runs against the real server (see e2e/fixtures.ts) and Debian's Chromium:
// Playwright's own browser downloads are not used (.ci/run installs Debian's chromium packages).
import { existsSync } from "node:fs";
import { defineConfig } from "@playwright/test";

// Debian's chromium-headless-shell (Chromium's classic headless mode, what Playwright itself runs
// headless) when it is installed: the full browser in its new headless mode cost nearly twice the
// CPU for the same specs (140 -> 77 s; the e2e run alone 118 -> 80 s). Set YARD_CHROMIUM to
// /usr/bin/chromium to watch a spec run (--headed).
const HEADLESS_SHELL = "/usr/bin/chromium-headless-shell";
const CHROMIUM = process.env.YARD_CHROMIUM ?? (existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : "/usr/bin/chromium");

export default defineConfig({
  testDir: "e2e",
  testMatch: "**/*.spec.ts",
  outputDir: "test-results",
  // Builds the UI once (only when stale) so the per-spec servers never race to build it.
  globalSetup: "./e2e/global-setup.ts",
  // Spec files run in parallel across workers; the tests inside one file run in order.
  fullyParallel: false,
  workers: 2,
  retries: 0,
  forbidOnly: !!process.env.CI,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [["list"]],
  use: {
    colorScheme: "light",
    // The board's pulses and the terminal's blinking cursor stop under reduced motion (a user's
    // system setting the UI honours; board.spec.ts checks both ways). Headless Chromium composits
    // every animation frame in software, so leaving them on cost about a fifth of the suite's
    // browser CPU, with nothing asserted on them.
    reducedMotion: "reduce",
    // A click or fill whose element never comes fails within this, naming the element, instead of
    // holding its worker until the test's own (for the long walks, minutes-long) timeout.
    actionTimeout: 45_000,
    viewport: { width: 1280, height: 800 },
    // A failed test keeps a screenshot. Traces (actions, DOM snapshots, network) are off: recording
    // one for every test, to keep only the failed ones, cost 13-20% of the end-to-end run's CPU
    // (flow + terminal specs: 30.5-33.7 -> 26.7 CPU-s), and a fresh-clone CI run discards them
    // anyway. To debug a spec, record them: `npx playwright test --trace retain-on-failure`.
    trace: "off",
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath: CHROMIUM,
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--disable-quic",
      ],
    },
  },
  projects: [{ name: "chromium" }],
});
