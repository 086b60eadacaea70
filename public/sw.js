// The board's service worker: it shows the Web Push notices the server sends to this browser (a
// task needs you, is ready for review, failed, was merged) even while no board tab is open, and a
// click on one focuses the board tab already showing that task, or opens it. Plain JavaScript,
// served as is from the board's own origin (scope "/"); it caches nothing and handles no fetch.
/// <reference lib="webworker" />
// @ts-check
const sw = /** @type {ServiceWorkerGlobalScope} */ (/** @type {unknown} */ (self));

sw.addEventListener("install", () => void sw.skipWaiting());
sw.addEventListener("activate", (event) => event.waitUntil(sw.clients.claim()));

/** A URL on this board's origin, or null: a notice can only open the board's own pages. */
function boardUrl(/** @type {unknown} */ url) {
  try {
    const u = new URL(typeof url === "string" ? url : "/", sw.location.origin);
    return u.origin === sw.location.origin ? u.href : null;
  } catch {
    return null;
  }
}

sw.addEventListener("push", (event) => {
  /** @type {{ title?: unknown, body?: unknown, tag?: unknown, url?: unknown }} */
  let notice = {};
  try {
    notice = event.data ? event.data.json() : {};
  } catch {
    // Not JSON: shown as a generic notice (a push must always show one).
  }
  const title = typeof notice.title === "string" && notice.title ? notice.title : "Switchyard";
  event.waitUntil(
    sw.registration.showNotification(title, {
      body: typeof notice.body === "string" ? notice.body : "",
      tag: typeof notice.tag === "string" ? notice.tag : undefined,
      icon: "/icon.svg",
      data: { url: boardUrl(notice.url) ?? boardUrl("/") },
    }),
  );
});

sw.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const target = boardUrl(event.notification.data?.url) ?? boardUrl("/");
  if (!target) return;
  event.waitUntil(
    (async () => {
      const tabs = await sw.clients.matchAll({ type: "window", includeUncontrolled: true });
      const open = tabs.find((c) => c.url === target);
      if (open) return open.focus();
      return sw.clients.openWindow(target);
    })(),
  );
});
