"use client";
// Shared UI primitives with one look: buttons, badges (task state, column colours), a modal
// dialog on the native <dialog>, alerts, loading / empty states, relative times, copy button.
import {
  type ButtonHTMLAttributes,
  forwardRef,
  type KeyboardEvent,
  type ReactNode,
  useEffect,
  useId,
  useRef,
  useState,
} from "react";

type Variant = "default" | "primary" | "danger" | "invisible" | "outline-danger";

const VARIANTS: Record<Variant, string> = {
  default: "border border-line bg-btn text-fg hover:bg-btn-hover shadow-[0_1px_0_rgba(31,35,40,0.04)]",
  primary:
    "border border-[rgba(31,35,40,0.15)] bg-primary text-white hover:bg-primary-hover shadow-[0_1px_0_rgba(31,35,40,0.1)]",
  danger: "border border-[rgba(31,35,40,0.15)] bg-danger text-white hover:brightness-95",
  "outline-danger": "border border-line bg-btn text-danger hover:bg-danger hover:text-white hover:border-danger",
  invisible: "border border-transparent text-fg-muted hover:bg-btn-hover hover:text-fg",
};

export const Button = forwardRef<
  HTMLButtonElement,
  ButtonHTMLAttributes<HTMLButtonElement> & { variant?: Variant; size?: "sm" | "md" }
>(function Button({ variant = "default", size = "md", className = "", type = "button", ...rest }, ref) {
  const sz = size === "sm" ? "h-7 px-2.5 text-xs" : "h-8 px-3 text-sm";
  return (
    <button
      ref={ref}
      type={type}
      className={`inline-flex shrink-0 items-center justify-center gap-1.5 whitespace-nowrap rounded-md font-medium transition-colors disabled:cursor-not-allowed disabled:opacity-50 ${sz} ${VARIANTS[variant]} ${className}`}
      {...rest}
    />
  );
});

/** Task states in words, with a colour that reads in both themes. */
export const STATE_WORDS: Record<string, string> = {
  backlog: "backlog",
  pending: "pending",
  working: "working",
  input_required: "input required",
  completed: "completed",
  failed: "failed",
  canceled: "canceled",
  rejected: "rejected",
};

const STATE_TONE: Record<string, string> = {
  backlog: "neutral",
  pending: "attention",
  working: "accent",
  input_required: "severe",
  completed: "success",
  failed: "danger",
  canceled: "neutral",
  rejected: "danger",
  merged: "done",
  discarded: "neutral",
  approved: "success",
  changes_requested: "severe",
  // Words used as badges (reviews, plans, the agent review stage).
  "changes requested": "severe",
  "in review": "severe",
  running: "accent",
  skipped: "neutral",
  capped: "attention",
  superseded: "neutral",
};

const TONES: Record<string, { pill: string; dot: string }> = {
  neutral: { pill: "border-line bg-neutral-muted text-fg-muted", dot: "bg-fg-subtle" },
  accent: { pill: "border-accent/40 bg-accent-muted text-accent", dot: "bg-accent" },
  attention: { pill: "border-attention/40 bg-attention-muted text-attention", dot: "bg-attention" },
  severe: { pill: "border-severe/40 bg-severe-muted text-severe", dot: "bg-severe" },
  success: { pill: "border-success/40 bg-success-muted text-success", dot: "bg-success" },
  danger: { pill: "border-danger/40 bg-danger-muted text-danger", dot: "bg-danger" },
  done: { pill: "border-done/40 bg-done-muted text-done", dot: "bg-done" },
};

function toneOf(key: string) {
  return TONES[STATE_TONE[key] ?? "neutral"]!;
}

export function StateBadge({
  state,
  disposition,
  size = "md",
}: {
  state: string;
  disposition?: string | null;
  size?: "sm" | "md";
}) {
  const key = disposition ?? state;
  const t = toneOf(key);
  const words = disposition ?? STATE_WORDS[state] ?? state.replace(/_/g, " ");
  return (
    <span
      data-testid="state-badge"
      data-state={state}
      className={`inline-flex shrink-0 items-center gap-1.5 whitespace-nowrap rounded-full border font-medium ${size === "sm" ? "px-1.5 py-0 text-[11px] leading-[18px]" : "px-2 py-0.5 text-xs"} ${t.pill}`}
    >
      <span aria-hidden className={`h-1.5 w-1.5 rounded-full ${t.dot} ${state === "working" ? "animate-pulse" : ""}`} />
      {words}
    </span>
  );
}

export function Label({ children }: { children: ReactNode }) {
  return (
    <span className="inline-flex items-center rounded-full border border-line px-2 text-[11px] font-medium leading-[18px] text-fg-muted">
      {children}
    </span>
  );
}

export function Alert({
  tone = "danger",
  title,
  children,
  onDismiss,
  role = "alert",
  className = "",
}: {
  tone?: "danger" | "attention" | "success" | "accent";
  title?: ReactNode;
  children?: ReactNode;
  onDismiss?: () => void;
  role?: "alert" | "status";
  className?: string;
}) {
  const cls = {
    danger: "border-danger/40 bg-danger-muted",
    attention: "border-attention/40 bg-attention-muted",
    success: "border-success/40 bg-success-muted",
    accent: "border-accent/40 bg-accent-muted",
  }[tone];
  return (
    <div
      role={role}
      className={`flex items-start gap-3 rounded-md border px-3 py-2 text-sm text-fg ${cls} ${className}`}
    >
      <div className="min-w-0 flex-1">
        {title && <div className="font-semibold">{title}</div>}
        {children && <div className={title ? "mt-0.5" : ""}>{children}</div>}
      </div>
      {onDismiss && (
        <button
          type="button"
          aria-label="Dismiss"
          onClick={onDismiss}
          className="rounded px-1 text-fg-muted hover:text-fg"
        >
          ×
        </button>
      )}
    </div>
  );
}

export function Spinner({ label = "Loading…" }: { label?: string }) {
  return (
    <span role="status" className="inline-flex items-center gap-2 text-sm text-fg-muted">
      <span aria-hidden className="h-3.5 w-3.5 animate-spin rounded-full border-2 border-line border-t-accent" />
      {label}
    </span>
  );
}

/** A modal on the native <dialog> (focus trap, Escape, top layer), labelled by its title. */
export function Modal({
  open,
  onClose,
  title,
  children,
  width = "max-w-lg",
  labelId,
}: {
  open: boolean;
  onClose: () => void;
  title: ReactNode;
  children: ReactNode;
  width?: string;
  labelId?: string;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const autoId = useId();
  const id = labelId ?? `dlg${autoId.replace(/:/g, "")}`;
  useEffect(() => {
    const d = ref.current;
    if (!d) return;
    if (open && !d.open) {
      d.showModal();
      // The first field (or a [data-autofocus] control) gets focus, not the header's close button.
      const first =
        d.querySelector<HTMLElement>("[data-autofocus], input:not([type=hidden]):not([disabled]), textarea, select") ??
        d.querySelector<HTMLElement>("[data-modal-body] button");
      first?.focus();
    } else if (!open && d.open) d.close();
  }, [open]);
  return (
    <dialog
      ref={ref}
      onClose={onClose}
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
      aria-labelledby={id}
      className={`m-auto w-[calc(100%-2rem)] ${width} rounded-xl border border-line bg-overlay p-0 text-fg shadow-2xl backdrop:bg-black/50`}
    >
      {open && (
        <>
          <div className="flex items-center justify-between border-b border-line px-4 py-3">
            <h2 id={id} className="text-base font-semibold">
              {title}
            </h2>
            <button
              type="button"
              aria-label="Close"
              onClick={onClose}
              className="rounded-md px-2 py-0.5 text-lg leading-none text-fg-muted hover:bg-btn-hover hover:text-fg"
            >
              ×
            </button>
          </div>
          <div data-modal-body>{children}</div>
        </>
      )}
    </dialog>
  );
}

export function timeAgo(at: string | number | null | undefined, now = Date.now()): string {
  if (at === null || at === undefined) return "";
  const t = typeof at === "number" ? at : Date.parse(at);
  if (!Number.isFinite(t)) return "";
  const s = Math.max(0, Math.round((now - t) / 1000));
  if (s < 45) return "just now";
  const m = Math.round(s / 60);
  if (m < 60) return `${m}m ago`;
  const h = Math.round(m / 60);
  if (h < 24) return `${h}h ago`;
  return `${Math.round(h / 24)}d ago`;
}

export function CopyButton({ text, label }: { text: string; label: string }) {
  const [done, setDone] = useState(false);
  return (
    <button
      type="button"
      aria-label={label}
      title={label}
      onClick={() => {
        void navigator.clipboard?.writeText(text).then(
          () => setDone(true),
          () => setDone(false),
        );
        setTimeout(() => setDone(false), 1500);
      }}
      className="inline-flex h-5 items-center rounded px-1 text-fg-muted hover:bg-btn-hover hover:text-fg"
    >
      {done ? (
        <svg aria-hidden viewBox="0 0 16 16" className="h-3.5 w-3.5 fill-success">
          <path d="M13.78 4.22a.75.75 0 0 1 0 1.06l-7.25 7.25a.75.75 0 0 1-1.06 0L2.22 9.28a.75.75 0 0 1 1.06-1.06L6 10.94l6.72-6.72a.75.75 0 0 1 1.06 0Z" />
        </svg>
      ) : (
        <svg aria-hidden viewBox="0 0 16 16" className="h-3.5 w-3.5 fill-current">
          <path d="M0 6.75C0 5.784.784 5 1.75 5h1.5a.75.75 0 0 1 0 1.5h-1.5a.25.25 0 0 0-.25.25v7.5c0 .138.112.25.25.25h7.5a.25.25 0 0 0 .25-.25v-1.5a.75.75 0 0 1 1.5 0v1.5A1.75 1.75 0 0 1 9.25 16h-7.5A1.75 1.75 0 0 1 0 14.25Z" />
          <path d="M5 1.75C5 .784 5.784 0 6.75 0h7.5C15.216 0 16 .784 16 1.75v7.5A1.75 1.75 0 0 1 14.25 11h-7.5A1.75 1.75 0 0 1 5 9.25Zm1.75-.25a.25.25 0 0 0-.25.25v7.5c0 .138.112.25.25.25h7.5a.25.25 0 0 0 .25-.25v-7.5a.25.25 0 0 0-.25-.25Z" />
        </svg>
      )}
    </button>
  );
}

/** A field's look without its width (toolbars size their own). */
export const fieldClass =
  "rounded-md border border-line bg-canvas px-3 py-1.5 text-sm text-fg placeholder:text-fg-subtle focus:border-accent focus:outline-none focus:ring-2 focus:ring-accent/30 aria-[invalid=true]:border-danger";
export const inputClass = `w-full ${fieldClass}`;

/** onKeyDown for a form's textarea: Ctrl+Enter (Cmd+Enter on a Mac) submits the form. */
export function submitOnModEnter(e: KeyboardEvent<HTMLTextAreaElement>): void {
  if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) {
    e.preventDefault();
    e.currentTarget.form?.requestSubmit();
  }
}
