"use client";
// Two facts on a board card: the size of the task's diff, read like a pull request's ("3 files
// +12 −4", in words for screen readers), and how long the card has been in its column ("3m",
// "2h", "1d"; the exact time in a tooltip on hover, and while the card has keyboard focus). The
// span ticks once a minute through one shared timer, re-rendering only these labels.
import { useSyncExternalStore } from "react";
import { compactSpan, exactTime, spanWords } from "../lib/duration";

export interface DiffSize {
  files: number;
  additions: number;
  deletions: number;
}

/** "2 files changed, 12 additions, 4 deletions". */
function diffWords(d: DiffSize): string {
  const n = (v: number, one: string, many: string) => `${v} ${v === 1 ? one : many}`;
  return `${n(d.files, "file", "files")} changed, ${n(d.additions, "addition", "additions")}, ${n(d.deletions, "deletion", "deletions")}`;
}

export function DiffSizeLabel({ diff }: { diff: DiffSize }) {
  return (
    <span data-testid="card-diff" title={diffWords(diff)} className="inline-flex items-center gap-1.5 font-mono">
      <span aria-hidden className="inline-flex items-center gap-0.5">
        <svg aria-hidden viewBox="0 0 16 16" className="h-3 w-3 fill-current">
          <path d="M2 1.75C2 .784 2.784 0 3.75 0h6.586c.464 0 .909.184 1.237.513l2.914 2.914c.329.328.513.773.513 1.237v9.586A1.75 1.75 0 0 1 13.25 16h-9.5A1.75 1.75 0 0 1 2 14.25Zm1.75-.25a.25.25 0 0 0-.25.25v12.5c0 .138.112.25.25.25h9.5a.25.25 0 0 0 .25-.25V6h-2.75A1.75 1.75 0 0 1 9 4.25V1.5Zm6.75.062V4.25c0 .138.112.25.25.25h2.688l-.011-.013-2.914-2.914-.013-.011Z" />
        </svg>
        {diff.files}
      </span>
      <span aria-hidden className="text-success">
        +{diff.additions}
      </span>
      <span aria-hidden className="text-danger">
        −{diff.deletions}
      </span>
      <span className="sr-only">{diffWords(diff)}</span>
    </span>
  );
}

// One timer for every label on the page: subscribers are told each minute.
const listeners = new Set<() => void>();
let timer: ReturnType<typeof setInterval> | null = null;
let minute = Math.floor(Date.now() / 60_000);
function subscribe(fn: () => void): () => void {
  listeners.add(fn);
  if (!timer)
    timer = setInterval(() => {
      minute = Math.floor(Date.now() / 60_000);
      for (const l of listeners) l();
    }, 15_000);
  return () => {
    listeners.delete(fn);
    if (!listeners.size && timer) {
      clearInterval(timer);
      timer = null;
    }
  };
}
const currentMinute = () => minute;

export function ColumnAge({ id, since, column }: { id: string; since: string; column: string }) {
  useSyncExternalStore(subscribe, currentMinute, currentMinute);
  const span = Date.now() - Date.parse(since);
  const exact = exactTime(since);
  return (
    <span id={id} data-testid="column-age" className="group/age relative mt-0.5 shrink-0 text-[11px] text-fg-subtle">
      <time dateTime={since} aria-hidden>
        {compactSpan(span)}
      </time>
      <span className="sr-only">
        In {column} for {spanWords(span)}, since {exact}
      </span>
      <span
        aria-hidden
        className="pointer-events-none absolute right-0 top-full z-20 mt-1 hidden w-max max-w-48 rounded-md border border-line bg-overlay px-2 py-1 text-right text-xs text-fg shadow-lg group-hover/age:block group-has-[a:focus-visible]:block"
      >
        In {column} since <span className="whitespace-nowrap">{exact}</span>
      </span>
    </span>
  );
}
