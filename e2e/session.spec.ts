// The browser session in a real browser: logged in through the link, the board works (in new tabs
// and after a restart too); a dev server on another port of 127.0.0.1, opened in the same browser,
// receives the session cookie but not the key, and replaying what it received gets 401 on the API
// and on the socket handshake.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { request } from "../tests/helpers/http";
import { expect, test } from "./fixtures";

const KEY = "switchyard.sessionKey";

/** An agent's dev server: a page on another port of 127.0.0.1 that records what the browser sends it. */
async function devServer(): Promise<{ url: string; cookies: string[]; close(): Promise<void> }> {
  const cookies: string[] = [];
  const srv = http.createServer((req, res) => {
    if (req.headers.cookie) cookies.push(req.headers.cookie);
    res.writeHead(200, { "content-type": "text/html" });
    res.end("<!doctype html><title>dev server</title><p>my app</p>");
  });
  await new Promise<void>((resolve) => srv.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(srv.address() as AddressInfo).port}`,
    cookies,
    close: () => new Promise((r) => srv.close(() => r())),
  };
}

test("a dev server on another port gets the cookie but no usable session; the board keeps working", async ({
  page,
  server,
  browser,
}) => {
  // Logged in through the link: the cookie is this install's __Host- cookie, the key is in storage.
  const cookies = await page.context().cookies(server.url);
  expect(cookies).toHaveLength(1);
  expect(cookies[0]).toMatchObject({
    name: expect.stringMatching(/^__Host-yard-[0-9a-f]{12}$/),
    secure: true,
    httpOnly: true,
    sameSite: "Strict",
    path: "/",
  });
  expect(await page.evaluate((k) => localStorage.getItem(k), KEY)).toMatch(/^[A-Za-z0-9_-]{43}$/);
  // The board loads its data (this fresh board has no project yet) and its live socket.
  await expect(page.getByRole("heading", { name: "Welcome to Switchyard" })).toBeVisible();
  await expect
    .poll(() =>
      page.evaluate(() => (window as unknown as { __yardSocket?: { connected: boolean } }).__yardSocket?.connected),
    )
    .toBe(true);

  const dev = await devServer();
  try {
    const other = await page.context().newPage();
    await other.goto(dev.url);
    await expect(other.getByText("my app")).toBeVisible();
    // Cookies ignore ports: the dev server received the board's session cookie...
    const received = dev.cookies.join("; ");
    expect(received).toContain(`${cookies[0]!.name}=${cookies[0]!.value}`);
    // ...but not the key: its origin's storage is its own.
    expect(await other.evaluate((k) => localStorage.getItem(k), KEY)).toBeNull();
    // Replayed (curl-style) against the board: refused on the API and on the socket handshake.
    const api = await request(`${server.url}/api/trpc/projects.list`, { headers: { cookie: received } });
    expect(api.status).toBe(401);
    const handshake = await request(`${server.url}/socket.io/?EIO=4&transport=polling`, {
      headers: { cookie: received },
    });
    expect(handshake.status).toBe(401);
    await other.close();
  } finally {
    await dev.close();
  }

  // A new tab of the board's origin shares the key: it works without logging in again.
  const tab = await page.context().newPage();
  await tab.goto("/panes");
  await expect(tab.getByRole("heading", { name: "No panes yet" })).toBeVisible();
  await tab.close();

  // A browser restart keeps both (the cookie lasts 30 days, localStorage persists).
  const state = await page.context().storageState();
  const restarted = await browser.newContext({ storageState: state, baseURL: server.url });
  try {
    const p = await restarted.newPage();
    await p.goto("/");
    await expect(p.getByRole("heading", { name: "Welcome to Switchyard" })).toBeVisible();
  } finally {
    await restarted.close();
  }

  // The cookie without the key (storage cleared): the shell loads, its data does not, and it says what to do.
  const keyless = await browser.newContext({
    storageState: { cookies: state.cookies, origins: [] },
    baseURL: server.url,
  });
  try {
    const p = await keyless.newPage();
    await p.goto("/");
    await expect(p.getByText("Could not load projects")).toBeVisible();
    await expect(p.getByText(/session key is missing or stale: open the login link again/).first()).toBeVisible();
  } finally {
    await keyless.close();
  }
});
