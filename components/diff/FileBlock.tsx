"use client";
// One changed file's section: a sticky header (collapse toggle, +/− counts, status, path or
// old → new for a rename, comment count) and its body, mounted only once it comes near the
// viewport (one file per task, so a jump or a fast scroll never blocks the page). Binary, empty,
// renamed-only and mode-only files say so; a big file starts collapsed behind "Load diff".
import { memo, type ReactNode, useEffect, useRef, useState } from "react";
import type { ViewType } from "react-diff-view";
import type { ReviewComment } from "../../lib/types";
import { Button } from "../ui";
import type { CommentActions } from "./comments";
import { BIG_FILE_LINES, type FileEntry, fileAnchor } from "./entries";
import { FileDiff } from "./FileDiff";
import { StatusIcon } from "./FileTree";

/**
 * Files that came near the viewport mount one per task (a queue drained with setTimeout), so a
 * jump or a fast scroll never renders many files in one long main-thread task.
 */
const mountQueue: Array<() => void> = [];
let draining = false;
function enqueueMount(fn: () => void) {
  mountQueue.push(fn);
  if (draining) return;
  draining = true;
  const step = () => {
    const next = mountQueue.shift();
    if (!next) {
      draining = false;
      return;
    }
    next();
    setTimeout(step, 0);
  };
  setTimeout(step, 0);
}

/** Mount children only once the element is near the viewport (and keep them). */
function useNearViewport<T extends Element>(): [React.RefObject<T | null>, boolean] {
  const ref = useRef<T>(null);
  const [near, setNear] = useState(false);
  useEffect(() => {
    const el = ref.current;
    if (!el || near) return;
    if (typeof IntersectionObserver === "undefined") return setNear(true);
    let queued = false;
    let live = true;
    const io = new IntersectionObserver(
      (es) => {
        if (queued || !es.some((e) => e.isIntersecting)) return;
        queued = true;
        io.disconnect();
        enqueueMount(() => live && setNear(true));
      },
      { rootMargin: "400px 0px" },
    );
    io.observe(el);
    return () => {
      live = false;
      io.disconnect();
    };
  }, [near]);
  return [ref, near];
}

export const FileBlock = memo(function FileBlock({
  entry: e,
  view,
  collapsed,
  onToggle,
  comments,
  actions,
}: {
  entry: FileEntry;
  view: ViewType;
  collapsed: boolean;
  onToggle: (v: boolean) => void;
  comments?: ReviewComment[];
  actions: CommentActions | null;
}) {
  const [ref, near] = useNearViewport<HTMLDivElement>();
  const lines = e.additions + e.deletions;
  const hunks = e.parsed?.hunks ?? [];
  const big = lines > BIG_FILE_LINES;
  let body: ReactNode;
  if (e.binary) body = <Note>Binary file not shown.</Note>;
  else if (hunks.length === 0)
    body = (
      <Note>
        {e.status === "renamed"
          ? "File renamed without changes."
          : e.status === "added"
            ? "Empty file added."
            : e.status === "deleted"
              ? "Empty file deleted."
              : "No content changes (mode or metadata only)."}
      </Note>
    );
  else if (!near) body = <div style={{ height: Math.min(20_000, 24 + lines * 20) }} aria-hidden />;
  else body = <FileDiff entry={e} hunks={hunks} view={view} comments={comments} actions={actions} />;

  return (
    <section
      id={fileAnchor(e.key)}
      aria-label={e.path}
      data-diff-file={e.path}
      className="scroll-mt-16 overflow-hidden rounded-md border border-line"
    >
      <header className="sticky top-0 z-10 flex items-center gap-2 border-b border-line bg-canvas-subtle px-3 py-1.5 text-sm">
        <button
          type="button"
          aria-expanded={!collapsed}
          aria-label={`${collapsed ? "Expand" : "Collapse"} ${e.path}`}
          onClick={() => onToggle(!collapsed)}
          className="rounded p-0.5 text-fg-muted hover:bg-btn-hover hover:text-fg"
        >
          <svg
            aria-hidden
            viewBox="0 0 16 16"
            className={`h-4 w-4 fill-current transition-transform ${collapsed ? "-rotate-90" : ""}`}
          >
            <path d="M12.78 5.22a.749.749 0 0 1 0 1.06l-4.25 4.25a.749.749 0 0 1-1.06 0L3.22 6.28a.749.749 0 1 1 1.06-1.06L8 8.939l3.72-3.719a.749.749 0 0 1 1.06 0Z" />
          </svg>
        </button>
        <span className="hidden font-mono text-xs sm:inline">
          <span className="text-success">+{e.additions}</span> <span className="text-danger">−{e.deletions}</span>
        </span>
        <StatusIcon status={e.status} />
        <span className="min-w-0 truncate font-mono text-[13px] font-semibold">
          {e.status === "renamed" && e.oldPath ? (
            <>
              <span className="font-normal text-fg-muted">{e.oldPath}</span> → {e.path}
            </>
          ) : (
            e.path
          )}
        </span>
        {e.status === "added" && (
          <span className="rounded-full border border-success/40 px-1.5 text-[11px] text-success">new</span>
        )}
        {e.status === "deleted" && (
          <span className="rounded-full border border-danger/40 px-1.5 text-[11px] text-danger">deleted</span>
        )}
        {(comments?.length ?? 0) > 0 && (
          <span className="ml-auto shrink-0 text-xs text-fg-muted">
            {comments!.length} {comments!.length === 1 ? "comment" : "comments"}
          </span>
        )}
      </header>
      <div ref={ref}>
        {collapsed ? (
          big && hunks.length > 0 ? (
            <div className="flex items-center justify-center gap-3 bg-canvas px-4 py-6 text-sm text-fg-muted">
              Large diffs are not rendered by default ({lines.toLocaleString()} changed lines).
              <Button size="sm" onClick={() => onToggle(false)}>
                Load diff
              </Button>
            </div>
          ) : null
        ) : (
          body
        )}
      </div>
    </section>
  );
});

function Note({ children }: { children: ReactNode }) {
  return <div className="bg-canvas px-4 py-4 text-center text-sm text-fg-muted">{children}</div>;
}
