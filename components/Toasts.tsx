"use client";
// Toasts for background outcomes (a task completed, a start refused, a merge landed): a polite live
// region in the corner; each toast can carry a link and goes away after a while or on dismiss.
import Link from "next/link";
import { createContext, type ReactNode, useCallback, useContext, useMemo, useState } from "react";

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

export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const dismiss = useCallback((id: number) => setToasts((l) => l.filter((t) => t.id !== id)), []);
  const push = useCallback(
    (t: Omit<Toast, "id">) => {
      const id = ++seq;
      setToasts((l) => [...l.slice(-4), { ...t, id }]);
      setTimeout(() => dismiss(id), t.tone === "danger" ? 12_000 : 6_000);
    },
    [dismiss],
  );
  const value = useMemo(() => push, [push]);
  const bar = { success: "bg-success", danger: "bg-danger", info: "bg-accent", attention: "bg-attention" };
  return (
    <Ctx.Provider value={value}>
      {children}
      <section
        aria-label="Notifications"
        aria-live="polite"
        className="pointer-events-none fixed bottom-4 right-4 z-50 flex w-80 flex-col gap-2"
      >
        {toasts.map((t) => (
          <div
            key={t.id}
            data-testid="toast"
            className="pointer-events-auto flex overflow-hidden rounded-lg border border-line bg-overlay text-sm text-fg shadow-lg"
          >
            <span aria-hidden className={`w-1 shrink-0 ${bar[t.tone]}`} />
            <div className="min-w-0 flex-1 px-3 py-2">
              <div className="font-semibold">
                {t.href ? (
                  <Link href={t.href} className="hover:underline">
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
              onClick={() => dismiss(t.id)}
              className="px-2 text-fg-muted hover:text-fg"
            >
              ×
            </button>
          </div>
        ))}
      </section>
    </Ctx.Provider>
  );
}
