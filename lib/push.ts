// Web Push in the browser: whether this browser can get pushes at all (a service worker, the Push
// API and notifications, in a secure context: https, or localhost/127.0.0.1), the board's service
// worker registration (/sw.js), this browser's push subscription for the board's VAPID key, and
// which server notices the in-page notification kinds stand for.
import type { PushKind } from "../server/wire/push";
import type { NotifyKind } from "./notify";

/** The in-page kinds and the server's notices they stand for (completed: a round ready for review). */
const NOTICE_OF: Record<NotifyKind, PushKind> = { input: "needs_you", failed: "failed", completed: "review" };

export function pushKindsOf(v: Record<NotifyKind, boolean>): PushKind[] {
  return (Object.keys(NOTICE_OF) as NotifyKind[]).filter((k) => v[k]).map((k) => NOTICE_OF[k]);
}

export function pushSupported(): boolean {
  return (
    typeof window !== "undefined" &&
    window.isSecureContext &&
    "serviceWorker" in navigator &&
    "PushManager" in window &&
    typeof Notification !== "undefined"
  );
}

/** The board's service worker registration, registering /sw.js when there is none. */
export async function boardWorker(register: boolean): Promise<ServiceWorkerRegistration | null> {
  const reg = await navigator.serviceWorker.getRegistration("/");
  if (reg || !register) return reg ?? null;
  await navigator.serviceWorker.register("/sw.js", { scope: "/" });
  return navigator.serviceWorker.ready;
}

const bytes = (base64url: string): Uint8Array<ArrayBuffer> => {
  const b64 = base64url.replace(/-/g, "+").replace(/_/g, "/");
  const raw = atob(b64 + "=".repeat((4 - (b64.length % 4)) % 4));
  const out = new Uint8Array(new ArrayBuffer(raw.length));
  for (let i = 0; i < raw.length; i++) out[i] = raw.charCodeAt(i);
  return out;
};

const sameKey = (a: ArrayBuffer | null | undefined, b: Uint8Array): boolean => {
  if (!a || a.byteLength !== b.length) return false;
  const x = new Uint8Array(a);
  return x.every((v, i) => v === b[i]);
};

/**
 * This browser's push subscription for the board's key: the one it has, or a new one (one made
 * for another key, a board whose key changed, is dropped first: a browser holds one per worker).
 */
export async function browserSubscription(
  reg: ServiceWorkerRegistration,
  publicKey: string,
): Promise<PushSubscription> {
  const key = bytes(publicKey);
  const old = await reg.pushManager.getSubscription();
  if (old && sameKey(old.options.applicationServerKey, key)) return old;
  await old?.unsubscribe();
  return reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key });
}

/** "Firefox on Linux": which browser a subscription is, for the person's own list. */
export function browserLabel(ua: string): string {
  const browser = /Edg\//.test(ua)
    ? "Edge"
    : /Firefox\//.test(ua)
      ? "Firefox"
      : /Chrome\//.test(ua)
        ? "Chrome"
        : /Safari\//.test(ua)
          ? "Safari"
          : "A browser";
  const os = /Android/.test(ua)
    ? "Android"
    : /iPhone|iPad/.test(ua)
      ? "iOS"
      : /Windows/.test(ua)
        ? "Windows"
        : /Mac OS X/.test(ua)
          ? "macOS"
          : /Linux/.test(ua)
            ? "Linux"
            : null;
  return os ? `${browser} on ${os}` : browser;
}
