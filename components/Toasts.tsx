"use client";
// Toasts for background outcomes (a task completed, a start refused, a merge landed): a polite live
// region in the corner; a toast's title can link somewhere (a task's page: reachable with Tab, it
// is the region's link). Each goes away after a while, or on dismiss; not while the pointer is on
// it or the keyboard focus is in it, so it can be read and followed.
import Link from "next/link";
import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from "react";

export interface Toast {
  id: number;
  tone: "success" | "danger" | "info" | "attention";
  title: string;
  body?: string;
  href?: string;
}

const Ctx = createContext<(t: Omit<Toast, "id">) => void>(() => {});
export const useToast = () => useContext(Ctx);

let seq = 0;

const BAR = { success: "bg-success", danger: "bg-danger", info: "bg-accent", attention: "bg-attention" };

export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const dismiss = useCallback((id: number) => setToasts((l) => l.filter((t) => t.id !== id)), []);
  const push = useCallback((t: Omit<Toast, "id">) => {
    const id = ++seq;
    setToasts((l) => [...l.slice(-4), { ...t, id }]);
  }, []);
  const value = useMemo(() => push, [push]);
  return (
    <Ctx.Provider value={value}>
      {children}
      <section
        aria-label="Notifications"
        aria-live="polite"
        className="pointer-events-none fixed bottom-4 right-4 z-50 w-80"
      >
        <ul className="flex flex-col gap-2">
          {toasts.map((t) => (
            <ToastItem key={t.id} toast={t} onDismiss={dismiss} />
          ))}
        </ul>
      </section>
    </Ctx.Provider>
  );
}

function ToastItem({ toast: t, onDismiss }: { toast: Toast; onDismiss: (id: number) => void }) {
  const [hovered, setHovered] = useState(false);
  const [focused, setFocused] = useState(false);
  const held = hovered || focused;
  useEffect(() => {
    if (held) return;
    const timer = setTimeout(() => onDismiss(t.id), t.tone === "danger" ? 12_000 : 6_000);
    return () => clearTimeout(timer);
  }, [held, onDismiss, t.id, t.tone]);
  return (
    <li
      data-testid="toast"
      onMouseEnter={() => setHovered(true)}
      onMouseLeave={() => setHovered(false)}
      onFocus={() => setFocused(true)}
      onBlur={(e) => setFocused(e.currentTarget.contains(e.relatedTarget as Node | null))}
      className="pointer-events-auto flex overflow-hidden rounded-lg border border-line bg-overlay text-sm text-fg shadow-lg"
    >
      <span aria-hidden className={`w-1 shrink-0 ${BAR[t.tone]}`} />
      <div className="min-w-0 flex-1 px-3 py-2">
        <div className="font-semibold">
          {t.href ? (
            <Link href={t.href} className="rounded-sm text-accent hover:underline focus-visible:underline">
              {t.title}
            </Link>
          ) : (
            t.title
          )}
        </div>
        {t.body && <div className="mt-0.5 break-words text-fg-muted">{t.body}</div>}
      </div>
      <button
        type="button"
        aria-label="Dismiss notification"
        onClick={() => onDismiss(t.id)}
        className="px-2 text-fg-muted hover:text-fg"
      >
        ×
      </button>
    </li>
  );
}
