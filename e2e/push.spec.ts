// The "Push notifications" switch in the Needs you popover, in a real browser against the real
// server: turning it on registers the board's service worker (/sw.js, served from the board's
// origin), subscribes this browser with the board's VAPID key and stores that subscription with the
// kinds chosen; changing the kinds updates it; turning it off removes it. The browser's push
// service is the one thing stubbed (a headless browser has none): PushManager hands out a
// subscription with a real P-256 key on an FCM endpoint, which the server accepts without sending.
// The refusals (no Push API, notifications blocked) show as messages: the last test.
import { expect, test } from "./fixtures";

test.use({ permissions: ["notifications"] });

interface Sub {
  endpoint: string;
  kinds: string[];
  label: string | null;
}

test("Push notifications: on registers the service worker and subscribes; kinds follow; off unsubscribes", async ({
  page,
}) => {
  await page.addInitScript(() => {
    // The context grants notifications, but Chromium's headless shell still reports "denied" to
    // the page (its permissions API says "granted"): the page is told what the context grants.
    Object.defineProperty(Notification, "permission", { get: () => "granted" });
    // The stand-in push service: one subscription per page, made with the key the board asked for.
    let current: unknown = null;
    const proto = PushManager.prototype as unknown as Record<string, unknown>;
    proto.getSubscription = async () => current;
    proto.subscribe = async (opts: PushSubscriptionOptionsInit) => {
      const pair = await crypto.subtle.generateKey({ name: "ECDH", namedCurve: "P-256" }, true, ["deriveBits"]);
      const raw = new Uint8Array(await crypto.subtle.exportKey("raw", pair.publicKey));
      const b64 = (b: Uint8Array) =>
        btoa(String.fromCharCode(...b))
          .replace(/\+/g, "-")
          .replace(/\//g, "_")
          .replace(/=+$/, "");
      const endpoint = `https://fcm.googleapis.com/fcm/send/e2e-${Math.random().toString(36).slice(2)}`;
      const keys = { p256dh: b64(raw), auth: b64(crypto.getRandomValues(new Uint8Array(16))) };
      const sub = {
        endpoint,
        options: { applicationServerKey: (opts.applicationServerKey as Uint8Array).buffer, userVisibleOnly: true },
        toJSON: () => ({ endpoint, keys }),
        unsubscribe: async () => {
          current = null;
          return true;
        },
      };
      (window as unknown as { __applicationServerKey: string }).__applicationServerKey = b64(
        new Uint8Array(opts.applicationServerKey as Uint8Array),
      );
      current = sub;
      return sub;
    };
  });
  const mine = async (): Promise<Sub[]> => (await (await page.request.get("/api/trpc/push.list")).json()).result.data;

  await page.goto("/");
  await page.getByRole("button", { name: /Needs you/ }).click();
  const push = page.getByRole("checkbox", { name: "Push notifications" });
  await expect(push).not.toBeChecked();
  await expect(push).toBeEnabled();
  expect(await mine()).toEqual([]);

  // None of the kinds chosen yet: turning push on chooses them all.
  await push.click(); // not check(): the box turns on once the subscription is stored
  await expect(push).toBeChecked();
  for (const kind of ["Needs input", "Failed", "Completed"])
    await expect(page.getByRole("checkbox", { name: kind })).toBeChecked();
  await expect.poll(mine).toHaveLength(1);
  const [sub] = await mine();
  expect(sub).toMatchObject({ kinds: ["needs_you", "review", "failed"], label: expect.stringMatching(/on Linux$/) });
  expect(sub!.endpoint).toMatch(/^https:\/\/fcm\.googleapis\.com\/fcm\/send\/e2e-/);
  // Subscribed with the board's own key, through the board's service worker at /sw.js.
  const key = (await (await page.request.get("/api/trpc/push.key")).json()).result.data.publicKey;
  expect(
    await page.evaluate(() => (window as unknown as { __applicationServerKey: string }).__applicationServerKey),
  ).toBe(key);
  const worker = await page.evaluate(async () => {
    const reg = await navigator.serviceWorker.ready;
    return { script: reg.active?.scriptURL, scope: reg.scope };
  });
  expect(worker).toEqual({ script: new URL("/sw.js", page.url()).href, scope: new URL("/", page.url()).href });

  // The kinds chosen follow: Failed off, the server stops sending failures here.
  await page.getByRole("checkbox", { name: "Failed" }).uncheck();
  await expect.poll(async () => (await mine())[0]?.kinds).toEqual(["needs_you", "review"]);

  // A reopened popover shows it on (this browser's subscription is the server's).
  await page.keyboard.press("Escape");
  await page.getByRole("button", { name: /Needs you/ }).click();
  await expect(push).toBeChecked();

  await push.click();
  await expect(push).not.toBeChecked();
  await expect.poll(mine).toEqual([]);
  await expect(page.locator("#needs-you-panel").getByRole("alert")).toHaveCount(0);
});

test("Push notifications say why not: notifications blocked, or no Push API in this browser", async ({
  browser,
  page,
  server,
}) => {
  const mine = async () => (await (await page.request.get("/api/trpc/push.list")).json()).result.data;
  // Blocked: the page reads "denied" (the headless shell's answer to a page it granted nothing).
  const blocked = await browser.newContext();
  const p1 = await blocked.newPage();
  await p1.addInitScript(() => Object.defineProperty(Notification, "permission", { get: () => "denied" }));
  await p1.goto(server.loginUrl);
  await p1.waitForURL((u) => u.pathname === "/");
  await p1.getByRole("button", { name: /Needs you/ }).click();
  await p1.getByRole("checkbox", { name: "Push notifications" }).click();
  await expect(p1.getByText("Notifications are blocked for this site in the browser settings.")).toBeVisible();
  await expect(p1.getByRole("checkbox", { name: "Push notifications" })).not.toBeChecked();
  await blocked.close();

  // No Push API (an older browser, or the board over plain http to another address): the switch is off and says so.
  await page.addInitScript(() => {
    delete (window as { PushManager?: unknown }).PushManager;
  });
  await page.goto("/");
  await page.getByRole("button", { name: /Needs you/ }).click();
  await expect(page.getByRole("checkbox", { name: "Push notifications" })).toBeDisabled();
  await expect(page.getByText(/This browser has no Push API here/)).toBeVisible();
  expect(await mine()).toEqual([]);
});
