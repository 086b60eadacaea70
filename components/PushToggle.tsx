"use client";
// The "Push notifications" switch under the browser notifications in the Needs you popover: on, it
// registers the board's service worker (/sw.js), subscribes this browser with the board's VAPID key
// and gives the server that subscription with the kinds chosen above (push.subscribe), so a task's
// notice reaches this browser even while no board tab is open; off, it drops both. It says so when
// the browser has no Push API here, or notifications are not allowed.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { boardWorker, browserLabel, browserSubscription, pushSupported } from "../lib/push";
import { errorOf, useTRPC } from "../lib/trpc";
import type { PushKind } from "../server/wire/push";

type State = "loading" | "unsupported" | "off" | "on" | "busy";

function subscriptionInput(sub: PushSubscription) {
  const j = sub.toJSON();
  if (!j.endpoint || !j.keys?.p256dh || !j.keys.auth) throw new Error("This browser's push subscription has no keys");
  return { endpoint: j.endpoint, keys: { p256dh: j.keys.p256dh, auth: j.keys.auth } };
}

export function PushToggle({
  kinds,
  chooseAll,
  onPermission,
}: {
  /** The notices chosen above, as the server names them. */
  kinds: PushKind[];
  /** Chooses every kind (turning push on with none chosen) and returns them. */
  chooseAll: () => PushKind[];
  /** The notification permission, once asked. */
  onPermission: (p: NotificationPermission) => void;
}) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const subscribe = useMutation(trpc.push.subscribe.mutationOptions());
  const unsubscribe = useMutation(trpc.push.unsubscribe.mutationOptions());
  const [state, setState] = useState<State>("loading");
  const [message, setMessage] = useState<string | null>(null);

  // On when this browser holds a subscription the server still has for this person.
  // biome-ignore lint/correctness/useExhaustiveDependencies: read once, when the popover opens
  useEffect(() => {
    let live = true;
    (async () => {
      if (!pushSupported()) return setState("unsupported");
      const sub = await (await boardWorker(false))?.pushManager.getSubscription();
      const mine = sub ? await qc.fetchQuery(trpc.push.list.queryOptions()) : [];
      if (live) setState(sub && mine.some((s) => s.endpoint === sub.endpoint) ? "on" : "off");
    })().catch((e: unknown) => {
      if (!live) return;
      setState("off");
      setMessage(errorOf(e).message);
    });
    return () => {
      live = false;
    };
  }, []);

  const enable = async () => {
    setMessage(null);
    setState("busy");
    try {
      const perm =
        Notification.permission === "default" ? await Notification.requestPermission() : Notification.permission;
      onPermission(perm);
      if (perm !== "granted") {
        setState("off");
        if (perm === "default") setMessage("Notifications were not allowed, so push stays off.");
        return;
      }
      const use = kinds.length ? kinds : chooseAll();
      const { publicKey } = await qc.fetchQuery(trpc.push.key.queryOptions());
      const reg = await boardWorker(true);
      if (!reg) throw new Error("The board's service worker did not register");
      const sub = await browserSubscription(reg, publicKey);
      try {
        await subscribe.mutateAsync({
          ...subscriptionInput(sub),
          kinds: use,
          label: browserLabel(navigator.userAgent),
        });
      } catch (e) {
        await sub.unsubscribe().catch(() => {});
        throw e;
      }
      setState("on");
    } catch (e) {
      setState("off");
      setMessage(errorOf(e).message);
    }
  };

  const disable = async () => {
    setMessage(null);
    setState("busy");
    const sub = await (await boardWorker(false).catch(() => null))?.pushManager.getSubscription().catch(() => null);
    // The browser's side goes whatever the server says: a later send then finds it gone (410) and drops it.
    const told = sub ? unsubscribe.mutateAsync({ endpoint: sub.endpoint }).then(() => null, errorOf) : null;
    await sub?.unsubscribe().catch(() => {});
    const failed = await told;
    setState("off");
    if (failed) setMessage(failed.message);
  };

  // The kinds chosen above changed while push is on: the server sends those (none chosen: push goes off).
  const kindsKey = kinds.join(",");
  // biome-ignore lint/correctness/useExhaustiveDependencies: follows the chosen kinds only
  useEffect(() => {
    if (state !== "on") return;
    if (!kinds.length) {
      void disable();
      return;
    }
    void (async () => {
      const sub = await (await boardWorker(false))?.pushManager.getSubscription();
      if (sub)
        await subscribe.mutateAsync({ ...subscriptionInput(sub), kinds, label: browserLabel(navigator.userAgent) });
    })().catch((e: unknown) => setMessage(errorOf(e).message));
  }, [kindsKey]);

  return (
    <div className="mt-2">
      <label className="flex items-center gap-1.5 text-xs">
        <input
          type="checkbox"
          aria-label="Push notifications"
          aria-describedby="push-hint"
          checked={state === "on"}
          disabled={state === "loading" || state === "busy" || state === "unsupported"}
          onChange={(e) => void (e.target.checked ? enable() : disable())}
        />
        Push notifications
        <span id="push-hint" className="text-fg-muted">
          (even when the board is closed)
        </span>
      </label>
      {state === "unsupported" && (
        <p className="mt-1 text-xs text-fg-muted">
          This browser has no Push API here (it needs service workers and Push, and the board on https or localhost).
        </p>
      )}
      {message && (
        <p role="alert" className="mt-1 text-xs text-danger">
          {message}
        </p>
      )}
    </div>
  );
}
