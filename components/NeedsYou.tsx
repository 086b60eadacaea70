"use client";
// "Needs you" in the top bar: how many panes need the user (panes.attention, ranked like
// `yard attention`), a popover listing them, each linking to its task (or its pane), and the
// opt-in browser notifications (needs input / failed / completed, each selectable), in the page and,
// with Push notifications on, through the board's service worker while no tab is open.
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useEffect, useRef, useState } from "react";
import { type NotifyKind, readNotify, writeNotify } from "../lib/notify";
import { pushKindsOf } from "../lib/push";
import { useTRPC } from "../lib/trpc";
import { REASON_TEXT } from "./PaneList";
import { PushToggle } from "./PushToggle";
import { timeAgo } from "./ui";

const DOT: Record<string, string> = {
  blocked: "bg-severe",
  input_required: "bg-severe",
  crashed: "bg-danger",
  turn_failed: "bg-danger",
  done: "bg-success",
};

export function NeedsYou() {
  const trpc = useTRPC();
  const attention = useQuery(trpc.panes.attention.queryOptions());
  const panes = useQuery({ ...trpc.panes.list.queryOptions(), enabled: (attention.data?.items.length ?? 0) > 0 });
  const tasks = useQuery({ ...trpc.tasks.list.queryOptions(), enabled: (attention.data?.items.length ?? 0) > 0 });
  const [open, setOpen] = useState(false);
  const box = useRef<HTMLDivElement>(null);
  const items = attention.data?.items ?? [];
  const count = items.length;

  useEffect(() => {
    if (!open) return;
    const onDown = (e: MouseEvent) => !box.current?.contains(e.target as Node) && setOpen(false);
    const onKey = (e: KeyboardEvent) => e.key === "Escape" && setOpen(false);
    document.addEventListener("mousedown", onDown);
    document.addEventListener("keydown", onKey);
    return () => {
      document.removeEventListener("mousedown", onDown);
      document.removeEventListener("keydown", onKey);
    };
  }, [open]);

  const paneById = new Map((panes.data ?? []).map((p) => [p.id, p]));
  const taskById = new Map((tasks.data ?? []).map((t) => [t.id, t]));

  return (
    <div ref={box} className="relative">
      <button
        type="button"
        aria-expanded={open}
        aria-controls="needs-you-panel"
        aria-label={`Needs you${count ? ` (${count})` : ""}`}
        onClick={() => setOpen((o) => !o)}
        className={`inline-flex h-8 items-center gap-1.5 rounded-md border px-2.5 text-sm font-medium ${count ? "border-severe/50 bg-severe-muted text-fg hover:brightness-105" : "border-line bg-btn text-fg-muted hover:bg-btn-hover"}`}
      >
        <svg aria-hidden viewBox="0 0 16 16" className="h-4 w-4 fill-current">
          <path d="M8 16a2 2 0 0 0 1.985-1.75c.017-.137-.097-.25-.235-.25h-3.5c-.138 0-.252.113-.235.25A2 2 0 0 0 8 16ZM3 5a5 5 0 0 1 10 0v2.947c0 .05.015.098.042.139l1.703 2.555A1.519 1.519 0 0 1 13.482 13H2.518a1.516 1.516 0 0 1-1.263-2.36l1.703-2.554A.255.255 0 0 0 3 7.947Zm5-3.5A3.5 3.5 0 0 0 4.5 5v2.947c0 .346-.102.683-.294.97l-1.703 2.556a.017.017 0 0 0-.003.01l.001.006c0 .002.002.004.004.006l.006.004.007.001h10.964l.007-.001.006-.004.004-.006.001-.007a.017.017 0 0 0-.003-.01l-1.703-2.554a1.745 1.745 0 0 1-.294-.97V5A3.5 3.5 0 0 0 8 1.5Z" />
        </svg>
        Needs you
        <span
          data-testid="attention-count"
          className={`min-w-5 rounded-full px-1.5 text-xs font-semibold leading-5 ${count ? "bg-severe text-white" : "bg-neutral-muted text-fg-muted"}`}
        >
          {count}
        </span>
      </button>
      {open && (
        <section
          id="needs-you-panel"
          aria-label="Items that need you"
          className="absolute right-0 z-40 mt-2 w-96 overflow-hidden rounded-lg border border-line bg-overlay shadow-xl"
        >
          <div className="border-b border-line px-3 py-2 text-sm font-semibold">Needs you</div>
          {attention.isPending ? (
            <div className="p-3">
              <span className="text-sm text-fg-muted">Loading…</span>
            </div>
          ) : attention.isError ? (
            <p role="alert" className="p-3 text-sm text-danger">
              Could not load: {attention.error.message}
            </p>
          ) : count === 0 ? (
            <p className="p-4 text-sm text-fg-muted">
              Nothing needs you right now. Prompts, finished turns and crashes show up here.
            </p>
          ) : (
            <ul className="max-h-96 divide-y divide-line overflow-y-auto">
              {items.map((it) => {
                const t = it.taskId ? taskById.get(it.taskId) : undefined;
                const p = paneById.get(it.paneId);
                const href = it.taskId ? `/tasks/${it.taskId}` : `/panes/${it.paneId}`;
                return (
                  <li key={it.paneId}>
                    <Link
                      href={href}
                      onClick={() => setOpen(false)}
                      data-attention={it.reason}
                      className="flex items-center gap-2 px-3 py-2 text-sm hover:bg-canvas-subtle"
                    >
                      <span
                        aria-hidden
                        className={`h-2 w-2 shrink-0 rounded-full ${DOT[it.reason] ?? "bg-fg-subtle"}`}
                      />
                      <span className="min-w-0 flex-1 truncate font-medium">{t?.title ?? p?.label ?? it.paneId}</span>
                      <span className="shrink-0 text-xs text-fg-muted">{REASON_TEXT[it.reason]}</span>
                      {it.since !== null && (
                        <span className="shrink-0 text-xs text-fg-subtle">{timeAgo(it.since)}</span>
                      )}
                    </Link>
                  </li>
                );
              })}
            </ul>
          )}
          <NotifySettings />
        </section>
      )}
    </div>
  );
}

function NotifySettings() {
  const [v, setV] = useState<Record<NotifyKind, boolean>>({ input: false, failed: false, completed: false });
  const [perm, setPerm] = useState<string>("default");
  useEffect(() => {
    setV(readNotify());
    setPerm(typeof Notification === "undefined" ? "unsupported" : Notification.permission);
  }, []);
  const set = async (k: NotifyKind, on: boolean) => {
    const next = { ...v, [k]: on };
    setV(next);
    writeNotify(next);
    if (on && typeof Notification !== "undefined" && Notification.permission === "default")
      setPerm(await Notification.requestPermission());
  };
  const opts: Array<[NotifyKind, string]> = [
    ["input", "Needs input"],
    ["failed", "Failed"],
    ["completed", "Completed"],
  ];
  return (
    <fieldset className="border-t border-line bg-canvas-subtle px-3 py-2">
      <legend className="sr-only">Browser notifications</legend>
      <div aria-hidden className="text-xs font-semibold text-fg-muted">
        Browser notifications
      </div>
      <div className="mt-1 flex flex-wrap gap-3">
        {opts.map(([k, label]) => (
          <label key={k} className="flex items-center gap-1.5 text-xs">
            <input type="checkbox" checked={v[k]} onChange={(e) => void set(k, e.target.checked)} />
            {label}
          </label>
        ))}
      </div>
      <PushToggle
        kinds={pushKindsOf(v)}
        chooseAll={() => {
          const all = { input: true, failed: true, completed: true };
          setV(all);
          writeNotify(all);
          return pushKindsOf(all);
        }}
        onPermission={setPerm}
      />
      {perm === "denied" && (
        <p className="mt-1 text-xs text-danger">Notifications are blocked for this site in the browser settings.</p>
      )}
      {perm === "unsupported" && (
        <p className="mt-1 text-xs text-fg-muted">This browser does not support notifications.</p>
      )}
    </fieldset>
  );
}
