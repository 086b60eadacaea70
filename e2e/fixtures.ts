// Playwright fixtures for Switchyard e2e specs.
//
// - `server`: the real server (server/main.ts with the production UI) on a random port with a
//   throwaway YARD_HOME. One server per spec file, shared by that file's tests (they run in
//   order); a test or describe block that needs a pristine board asks for its own with
//   `test.use({ freshServer: true })`; `serverEnv` (an option, or a fixture computing it) is
//   the environment such a fresh server gets on top of the test process's.
// - `page`: already logged in (the login link was visited: the session cookie is set and the
//   login page left the session key in the board origin's localStorage). `baseURL` is the
//   server's URL, so `page.goto("/")` works. `page.request` calls the API as the board's own
//   client does, with the cookie and that key (read from the page's storage). For a logged-out
//   browser use `browser.newContext()`.
// - `yard(args)`: runs the real `yard` CLI against the server (found from YARD_HOME).
// - `makeRepo()`: a temp git repository on branch main with one commit; `makeDir()`: a plain
//   temp directory. Both are removed after the test.
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { type APIRequestContext, test as base, expect, type Locator, type Page } from "@playwright/test";
import { SESSION_KEY_HEADER, SESSION_KEY_STORAGE } from "../server/wire/session-key";
import { makeRepo as makeGitRepo, removeRepo } from "../tests/helpers/git";
import {
  type CliResult,
  demoTaskArgs,
  startTestServer,
  type TestServer,
  yard as runYard,
} from "../tests/helpers/server";

export { expect };

/** Makes `api` (a context's request API, which sends the context's cookies) send the session key too. */
function withSessionKey(api: APIRequestContext, key: string): void {
  const fetch = api.fetch.bind(api);
  api.fetch = (url, options = {}) =>
    fetch(url, { ...options, headers: { [SESSION_KEY_HEADER]: key, ...options.headers } });
}

export interface YardServer {
  url: string;
  loginUrl: string;
  home: string;
  token: string;
  port: number;
  /** Everything the server printed so far. */
  output(): string;
}

export type YardCli = (
  args: string[],
  opts?: { env?: Record<string, string>; input?: string; cwd?: string },
) => Promise<CliResult>;

interface TestFixtures {
  /** Give this test a server of its own instead of the spec file's shared one. */
  freshServer: boolean;
  /** Environment for a fresh server (freshServer), e.g. a stub's URL. */
  serverEnv: Record<string, string>;
  server: YardServer;
  yard: YardCli;
  makeRepo: (prefix?: string) => string;
  makeDir: (prefix?: string) => string;
}

interface WorkerFixtures {
  _serverPool: ServerPool;
}

const startServer = (env?: Record<string, string>) => startTestServer({ ui: true, env });

const view = (s: TestServer): YardServer => ({
  url: s.url,
  loginUrl: s.loginUrl,
  home: s.home,
  token: s.token,
  port: s.port,
  output: s.output,
});

/** Keeps one server for the spec file the worker is running; the next file gets a new one. */
class ServerPool {
  private current: { file: string; server: Promise<TestServer> } | null = null;

  async forFile(file: string): Promise<TestServer> {
    if (this.current?.file !== file) {
      await this.dispose();
      this.current = { file, server: startServer() };
    }
    return this.current.server;
  }

  async dispose(): Promise<void> {
    const c = this.current;
    this.current = null;
    if (!c) return;
    const s = await c.server.catch(() => null);
    await s?.dispose();
  }
}

export const test = base.extend<TestFixtures, WorkerFixtures>({
  _serverPool: [
    async ({}, use) => {
      const pool = new ServerPool();
      await use(pool);
      await pool.dispose();
    },
    { scope: "worker", timeout: 60_000 },
  ],

  freshServer: [false, { option: true }],
  serverEnv: [{}, { option: true }],

  // Its own timeout, so a slow start on a loaded machine does not eat the test's budget.
  server: [
    async ({ freshServer, serverEnv, _serverPool }, use, testInfo) => {
      const s = freshServer ? await startServer(serverEnv) : await _serverPool.forFile(testInfo.file);
      try {
        await use(view(s));
      } finally {
        if (testInfo.status !== testInfo.expectedStatus) {
          await testInfo.attach("server output", { body: s.output(), contentType: "text/plain" });
        }
        if (freshServer) await s.dispose();
      }
    },
    { timeout: 90_000 },
  ],

  baseURL: async ({ server }, use) => {
    await use(server.url);
  },

  page: async ({ page, server }, use) => {
    const res = await page.goto(server.loginUrl);
    expect(res?.ok(), `login link answered ${res?.status()}`).toBe(true);
    // Landed on the board (which may already have put the selected project into the query).
    await expect(page).toHaveURL(new RegExp(`^${server.url.replace(/[.]/g, "\\.")}/(\\?project=[a-z0-9]+)?$`));
    const key = await page.evaluate((k) => localStorage.getItem(k), SESSION_KEY_STORAGE);
    expect(key, "the login page left no session key in localStorage").toBeTruthy();
    withSessionKey(page.request, key!);
    await use(page);
  },

  yard: async ({ server }, use) => {
    await use((args, opts) => runYard(server, args, opts));
  },

  makeRepo: async ({}, use) => {
    const dirs: string[] = [];
    await use((prefix) => {
      const d = makeGitRepo(prefix ?? "yard-e2e-repo-");
      dirs.push(d);
      return d;
    });
    for (const d of dirs) removeRepo(d);
  },

  makeDir: async ({}, use) => {
    const dirs: string[] = [];
    await use((prefix) => {
      const d = mkdtempSync(path.join(os.tmpdir(), prefix ?? "yard-e2e-dir-"));
      dirs.push(d);
      return d;
    });
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  },
});

/** Where the specs' screenshots go (gitignored). */
const SCREENSHOTS = path.join(path.dirname(new URL(import.meta.url).pathname), "screenshots");

/**
 * Screenshots of part of the page in both themes, switched by the system's colour scheme (the
 * board follows it until a theme is chosen), so the focus stays where it is.
 */
export async function shootPart(page: Page, part: Locator, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  for (const scheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.waitForTimeout(400); // colour transitions settle
    await part.screenshot({ path: path.join(SCREENSHOTS, `${name}-${scheme}.png`) });
  }
  await page.emulateMedia({ colorScheme: "light" });
}

/** Starts a task running the demo agent (its prompt: `objective`) and asserts that `yard` accepted it. */
export async function startDemoTask(
  yard: YardCli,
  o: { project: string; objective: string; title?: string },
): Promise<CliResult> {
  const r = await yard(demoTaskArgs(o));
  expect(r.code, r.stdout + r.stderr).toBe(0);
  return r;
}
