"use client";
// A task's diff, read like GitHub's: a file tree with status and +/- counts, unified or split
// view (react-diff-view), Prism highlighting, sensible renamed / deleted / binary / empty files,
// and line comments (gutter button "Comment on line N", shift-click extends to a range, threads
// inline under their last line). Large diffs stay usable: file bodies mount only near the
// viewport, big files start collapsed ("Load diff"), highlighting is skipped for huge files.
import { memo, type ReactNode, useCallback, useEffect, useMemo, useRef, useState } from "react";
import {
  Diff,
  type ChangeData,
  type FileData,
  getChangeKey,
  Hunk,
  type HunkData,
  isDelete,
  isInsert,
  isNormal,
  markEdits,
  parseDiff,
  tokenize,
  type ViewType,
} from "react-diff-view";
import { refractor } from "refractor";
import type { DiffFileInfo, ReviewComment } from "../lib/types";
import { Button, timeAgo } from "./ui";

export interface CommentActions {
  add(c: { path: string; startLine: number; endLine: number; side: "old" | "new"; body: string }): Promise<unknown>;
  edit(id: string, body: string): Promise<unknown>;
  resolve(id: string, resolved: boolean): Promise<unknown>;
  remove(id: string): Promise<unknown>;
}

const BIG_FILE_LINES = 400;
const FIRST_CHUNK = 25;
const NEXT_CHUNK = 50;
const HIGHLIGHT_MAX_LINES = 1500;
const VIEW_KEY = "switchyard.diffView";

const LANG: Record<string, string> = {
  ts: "typescript",
  tsx: "tsx",
  js: "javascript",
  jsx: "jsx",
  mjs: "javascript",
  cjs: "javascript",
  json: "json",
  md: "markdown",
  css: "css",
  scss: "scss",
  html: "markup",
  xml: "markup",
  svg: "markup",
  py: "python",
  rb: "ruby",
  go: "go",
  rs: "rust",
  java: "java",
  kt: "kotlin",
  c: "c",
  h: "c",
  cc: "cpp",
  cpp: "cpp",
  hpp: "cpp",
  cs: "csharp",
  php: "php",
  sh: "bash",
  bash: "bash",
  yml: "yaml",
  yaml: "yaml",
  sql: "sql",
  swift: "swift",
  lua: "lua",
  diff: "diff",
  ini: "ini",
  toml: "ini",
};
function langOf(path: string): string | null {
  const ext = path.split(".").pop()?.toLowerCase() ?? "";
  const l = LANG[ext];
  return l && refractor.registered(l) ? l : null;
}

interface FileEntry {
  key: string;
  path: string;
  oldPath?: string;
  status: "added" | "modified" | "deleted" | "renamed";
  additions: number;
  deletions: number;
  binary: boolean;
  parsed: FileData | null;
}

/** Server file list + parsed patch → one entry per file, in the server's order. */
export function buildEntries(diff: string, files: DiffFileInfo[]): FileEntry[] {
  const parsed = diff.trim() ? parseDiff(diff, { nearbySequences: "zip" }) : [];
  const byPath = new Map<string, FileData>();
  for (const p of parsed) byPath.set(p.type === "delete" ? p.oldPath : p.newPath, p);
  return files.map((f) => ({
    key: f.path,
    path: f.path,
    oldPath: f.oldPath,
    status: f.status,
    additions: f.additions,
    deletions: f.deletions,
    binary: f.binary,
    parsed: byPath.get(f.path) ?? null,
  }));
}

export function DiffView({
  diff,
  files,
  comments,
  actions,
  emptyText = "No changes against the base.",
}: {
  diff: string;
  files: DiffFileInfo[];
  comments?: ReviewComment[];
  actions?: CommentActions | null;
  emptyText?: string;
}) {
  const entries = useMemo(() => buildEntries(diff, files), [diff, files]);
  const [view, setView] = useState<ViewType>("unified");
  useEffect(() => {
    const v = localStorage.getItem(VIEW_KEY);
    if (v === "split" || v === "unified") setView(v);
  }, []);
  const chooseView = (v: ViewType) => {
    setView(v);
    localStorage.setItem(VIEW_KEY, v);
  };
  const [collapsed, setCollapsed] = useState<Record<string, boolean>>({});
  const [filter, setFilter] = useState("");
  const totals = useMemo(
    () => entries.reduce((t, e) => ({ add: t.add + e.additions, del: t.del + e.deletions }), { add: 0, del: 0 }),
    [entries],
  );
  const byFile = useMemo(() => {
    const m = new Map<string, ReviewComment[]>();
    for (const c of comments ?? []) m.set(c.path, [...(m.get(c.path) ?? []), c]);
    return m;
  }, [comments]);
  // File sections render in chunks (one per task), so a 300-file diff never blocks the first paint.
  const [limit, setLimit] = useState(FIRST_CHUNK);
  useEffect(() => setLimit(FIRST_CHUNK), [entries]);
  useEffect(() => {
    if (limit >= entries.length) return;
    const t = setTimeout(() => setLimit((l) => l + NEXT_CHUNK), 0);
    return () => clearTimeout(t);
  }, [limit, entries.length]);
  const shownTree = (
    filter ? entries.filter((e) => e.path.toLowerCase().includes(filter.toLowerCase())) : entries
  ).slice(0, filter ? undefined : limit);

  if (entries.length === 0)
    return (
      <p className="rounded-md border border-dashed border-line p-6 text-center text-sm text-fg-muted">{emptyText}</p>
    );

  const jump = (key: string) => {
    setCollapsed((c) => ({ ...c, [key]: false }));
    setLimit(entries.length);
    requestAnimationFrame(() => document.getElementById(fileAnchor(key))?.scrollIntoView({ block: "start" }));
  };

  return (
    <div className="flex min-h-0 gap-4">
      <nav
        aria-label="Changed files"
        className="sticky top-0 hidden max-h-[calc(100vh-8rem)] w-64 shrink-0 flex-col self-start overflow-hidden rounded-md border border-line lg:flex"
      >
        <div className="border-b border-line p-2">
          <input
            type="search"
            aria-label="Filter changed files"
            placeholder="Filter files…"
            value={filter}
            onChange={(e) => setFilter(e.target.value)}
            className="w-full rounded-md border border-line bg-canvas px-2 py-1 text-xs focus:border-accent focus:outline-none"
          />
        </div>
        <ul className="min-h-0 flex-1 overflow-y-auto py-1 text-xs">
          {shownTree.map((e) => (
            <li key={e.key}>
              <button
                type="button"
                onClick={() => jump(e.key)}
                title={e.path}
                className="flex w-full items-center gap-1.5 px-2 py-1 text-left hover:bg-canvas-subtle"
              >
                <StatusIcon status={e.status} />
                <span className="min-w-0 flex-1 truncate font-mono">{e.path.split("/").pop()}</span>
                {(byFile.get(e.path)?.length ?? 0) > 0 && (
                  <span className="inline-flex items-center gap-0.5 text-fg-muted" title="Comments">
                    <svg aria-hidden viewBox="0 0 16 16" className="h-3 w-3 fill-current">
                      <path d="M1 2.75C1 1.784 1.784 1 2.75 1h10.5c.966 0 1.75.784 1.75 1.75v7.5A1.75 1.75 0 0 1 13.25 12H9.06l-2.573 2.573A1.458 1.458 0 0 1 4 13.543V12H2.75A1.75 1.75 0 0 1 1 10.25Zm1.75-.25a.25.25 0 0 0-.25.25v7.5c0 .138.112.25.25.25h2a.75.75 0 0 1 .75.75v2.19l2.72-2.72a.749.749 0 0 1 .53-.22h4.5a.25.25 0 0 0 .25-.25v-7.5a.25.25 0 0 0-.25-.25Z" />
                    </svg>
                    {byFile.get(e.path)!.length}
                    <span className="sr-only">comments</span>
                  </span>
                )}
                <span className="shrink-0 text-success">+{e.additions}</span>
                <span className="shrink-0 text-danger">−{e.deletions}</span>
              </button>
            </li>
          ))}
        </ul>
      </nav>
      <div className="min-w-0 flex-1">
        <div className="mb-3 flex flex-wrap items-center gap-3 text-sm">
          <span className="text-fg-muted" data-testid="diff-summary">
            <strong className="text-fg">{entries.length}</strong> {entries.length === 1 ? "file" : "files"} changed,{" "}
            <span className="text-success">+{totals.add}</span> <span className="text-danger">−{totals.del}</span>
          </span>
          <div
            role="group"
            aria-label="Diff view"
            className="ml-auto flex overflow-hidden rounded-md border border-line"
          >
            {(["unified", "split"] as const).map((v) => (
              <button
                key={v}
                type="button"
                aria-pressed={view === v}
                onClick={() => chooseView(v)}
                className={`px-3 py-1 text-xs font-medium ${view === v ? "bg-neutral-muted text-fg" : "bg-btn text-fg-muted hover:bg-btn-hover"}`}
              >
                {v === "unified" ? "Unified" : "Split"}
              </button>
            ))}
          </div>
          <Button size="sm" onClick={() => setCollapsed(Object.fromEntries(entries.map((e) => [e.key, true])))}>
            Collapse all
          </Button>
          <Button size="sm" onClick={() => setCollapsed(Object.fromEntries(entries.map((e) => [e.key, false])))}>
            Expand all
          </Button>
        </div>
        <div className="flex flex-col gap-4">
          {entries.slice(0, limit).map((e) => (
            <FileBlock
              key={e.key}
              entry={e}
              view={view}
              collapsed={collapsed[e.key] ?? e.additions + e.deletions > BIG_FILE_LINES}
              onToggle={(v) => setCollapsed((c) => ({ ...c, [e.key]: v }))}
              comments={byFile.get(e.path)}
              actions={actions ?? null}
            />
          ))}
        </div>
      </div>
    </div>
  );
}

const fileAnchor = (key: string) => `diff-${key.replace(/[^A-Za-z0-9_-]/g, "_")}`;

function StatusIcon({ status }: { status: FileEntry["status"] }) {
  const m = {
    added: ["A", "text-success border-success/50", "added"],
    modified: ["M", "text-attention border-attention/50", "modified"],
    deleted: ["D", "text-danger border-danger/50", "deleted"],
    renamed: ["R", "text-accent border-accent/50", "renamed"],
  }[status];
  return (
    <span
      title={m[2]}
      className={`inline-flex h-4 w-4 shrink-0 items-center justify-center rounded border text-[10px] font-bold ${m[1]}`}
    >
      <span aria-hidden>{m[0]}</span>
      <span className="sr-only">{m[2]}</span>
    </span>
  );
}

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
    if (!next) return void (draining = false);
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

const FileBlock = memo(function FileBlock({
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
          <span className="rounded-full border border-success/40 px-1.5 text-[11px] text-success">
            new{e.parsed?.newMode ? "" : ""}
          </span>
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

interface Draft {
  side: "old" | "new";
  start: number;
  end: number;
}

const newLineOf = (c: ChangeData) => (isInsert(c) ? c.lineNumber : isNormal(c) ? c.newLineNumber : -1);
const oldLineOf = (c: ChangeData) => (isDelete(c) ? c.lineNumber : isNormal(c) ? c.oldLineNumber : -1);

function FileDiff({
  entry,
  hunks,
  view,
  comments,
  actions,
}: {
  entry: FileEntry;
  hunks: HunkData[];
  view: ViewType;
  comments?: ReviewComment[];
  actions: CommentActions | null;
}) {
  const lines = entry.additions + entry.deletions;
  const tokens = useMemo(() => {
    const language = langOf(entry.path);
    if (lines > HIGHLIGHT_MAX_LINES) return null;
    try {
      const enhancers = lines <= 500 ? [markEdits(hunks, { type: "block" })] : [];
      if (!language) return tokenize(hunks, { enhancers });
      const r = { highlight: (text: string, lang: string) => refractor.highlight(text, lang).children };
      return tokenize(hunks, { highlight: true, refractor: r as never, language, enhancers });
    } catch {
      return null;
    }
  }, [hunks, entry.path, lines]);

  // line number → change key, per side (for selection and for placing threads)
  const keys = useMemo(() => {
    const byNew = new Map<number, string>();
    const byOld = new Map<number, string>();
    for (const h of hunks)
      for (const c of h.changes) {
        const k = getChangeKey(c);
        const n = newLineOf(c);
        const o = oldLineOf(c);
        if (n > 0) byNew.set(n, k);
        if (o > 0 && !byOld.has(o)) byOld.set(o, k);
      }
    return { new: byNew, old: byOld };
  }, [hunks]);

  const [draft, setDraft] = useState<Draft | null>(null);

  const onGutter = useCallback((side: "old" | "new", line: number, extend: boolean) => {
    setDraft((d) =>
      extend && d && d.side === side
        ? { side, start: Math.min(d.start, line), end: Math.max(d.end, line) }
        : { side, start: line, end: line },
    );
  }, []);

  const selected = useMemo(() => {
    if (!draft) return [];
    const out: string[] = [];
    const map = keys[draft.side];
    for (let l = draft.start; l <= draft.end; l++) {
      const k = map.get(l);
      if (k) out.push(k);
    }
    return out;
  }, [draft, keys]);

  const widgets = useMemo(() => {
    const w: Record<string, ReactNode> = {};
    const place = new Map<string, ReviewComment[]>();
    for (const c of comments ?? []) {
      const k = keys[c.side as "old" | "new"].get(c.endLine);
      if (!k) continue;
      place.set(k, [...(place.get(k) ?? []), c]);
    }
    for (const [k, list] of place) w[k] = <Thread comments={list} actions={actions} />;
    if (draft && actions) {
      const k = keys[draft.side].get(draft.end);
      if (k)
        w[k] = (
          <>
            {w[k]}
            <Composer
              key={`${draft.side}-${draft.start}-${draft.end}`}
              draft={draft}
              onCancel={() => setDraft(null)}
              onSave={async (body) => {
                await actions.add({
                  path: entry.path,
                  startLine: draft.start,
                  endLine: draft.end,
                  side: draft.side,
                  body,
                });
                setDraft(null);
              }}
            />
          </>
        );
    }
    return w;
  }, [comments, keys, draft, actions, entry.path]);

  const renderGutter = useCallback(
    ({ change, side, renderDefault }: { change: ChangeData; side: "old" | "new"; renderDefault: () => ReactNode }) => {
      const line = side === "new" ? newLineOf(change) : oldLineOf(change);
      // In the unified view a context line's comment button sits on the new side only.
      const commentable = actions && line > 0 && (side === "new" || isDelete(change));
      return (
        <span className="relative block">
          {commentable && (
            <button
              type="button"
              aria-label={side === "old" ? `Comment on deleted line ${line}` : `Comment on line ${line}`}
              title="Comment (shift-click: extend to a range)"
              onClick={(e) => onGutter(side, line, e.shiftKey)}
              className="absolute -left-1 top-0.5 z-[1] inline-flex h-4 w-4 items-center justify-center rounded bg-accent text-[12px] font-bold leading-none text-white opacity-0 focus:opacity-100 group-hover/line:opacity-100 [tr:hover_&]:opacity-100"
            >
              +
            </button>
          )}
          {renderDefault()}
        </span>
      );
    },
    [actions, onGutter],
  );

  return (
    <Diff
      viewType={view}
      diffType={entry.parsed?.type ?? "modify"}
      hunks={hunks}
      tokens={tokens}
      widgets={widgets}
      selectedChanges={selected}
      renderGutter={renderGutter as never}
      optimizeSelection
    >
      {(hs) =>
        hs
          .map((h) => [
            <tbody key={`dec-${h.content}`} className="diff-decoration">
              <tr>
                <td colSpan={view === "split" ? 4 : 3} className="diff-hunk-header">
                  <div className="diff-hunk-header-content">{h.content}</div>
                </td>
              </tr>
            </tbody>,
            <Hunk key={`h-${h.content}`} hunk={h} />,
          ])
          .flat()
      }
    </Diff>
  );
}

function Composer({
  draft,
  onSave,
  onCancel,
}: {
  draft: Draft;
  onSave: (body: string) => Promise<void>;
  onCancel: () => void;
}) {
  const [body, setBody] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const ref = useRef<HTMLTextAreaElement>(null);
  useEffect(() => ref.current?.focus(), []);
  const save = async () => {
    if (!body.trim()) return setError("Write something first.");
    setBusy(true);
    setError(null);
    try {
      await onSave(body);
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };
  const range = draft.start === draft.end ? `line ${draft.start}` : `lines ${draft.start}–${draft.end}`;
  return (
    <div className="border-y border-line bg-canvas-subtle p-3">
      <div className="rounded-md border border-line bg-canvas">
        <div className="border-b border-line px-3 py-1.5 text-xs text-fg-muted" data-testid="comment-range">
          Commenting on {draft.side === "old" ? "deleted " : ""}
          {range}
          <span className="ml-2 text-fg-subtle">Shift-click another line’s + to extend the range.</span>
        </div>
        <textarea
          ref={ref}
          aria-label="Comment"
          rows={3}
          value={body}
          onChange={(e) => setBody(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) void save();
            if (e.key === "Escape") onCancel();
          }}
          placeholder="Leave a comment"
          className="block w-full resize-y bg-transparent px-3 py-2 text-sm focus:outline-none"
        />
      </div>
      {error && (
        <p role="alert" className="mt-1 text-xs text-danger">
          {error}
        </p>
      )}
      <div className="mt-2 flex justify-end gap-2">
        <Button size="sm" onClick={onCancel}>
          Cancel
        </Button>
        <Button size="sm" variant="primary" disabled={busy} onClick={() => void save()}>
          {busy ? "Saving…" : "Save comment"}
        </Button>
      </div>
    </div>
  );
}

export function Thread({ comments, actions }: { comments: ReviewComment[]; actions: CommentActions | null }) {
  return (
    <div className="border-y border-line bg-canvas-subtle px-3 py-2">
      <div className="flex flex-col gap-2">
        {comments.map((c) => (
          <CommentCard key={c.id} comment={c} actions={actions} />
        ))}
      </div>
    </div>
  );
}

export function CommentCard({
  comment: c,
  actions,
  showWhere = false,
}: {
  comment: ReviewComment;
  actions: CommentActions | null;
  showWhere?: boolean;
}) {
  const [editing, setEditing] = useState(false);
  const [body, setBody] = useState(c.body);
  const [error, setError] = useState<string | null>(null);
  const [open, setOpen] = useState(!c.resolved);
  useEffect(() => setOpen(!c.resolved), [c.resolved]);
  const run = async (p: Promise<unknown>) => {
    setError(null);
    try {
      await p;
      return true;
    } catch (e) {
      setError((e as Error).message);
      return false;
    }
  };
  const where = c.startLine === c.endLine ? `line ${c.startLine}` : `lines ${c.startLine}–${c.endLine}`;
  return (
    <article
      aria-label={`Comment on ${c.path} ${where}`}
      data-comment-id={c.id}
      className={`rounded-md border border-line bg-canvas ${c.resolved ? "opacity-80" : ""}`}
    >
      <header className="flex items-center gap-2 border-b border-line px-3 py-1.5 text-xs text-fg-muted">
        <strong className="text-fg">{c.author}</strong>
        <span>{timeAgo(c.createdAt)}</span>
        <span className={showWhere ? "font-mono" : ""}>
          {showWhere ? `${c.path}:${c.startLine === c.endLine ? c.startLine : `${c.startLine}-${c.endLine}`}` : where}
        </span>
        <span className="rounded-full border border-line px-1.5">round {c.round}</span>
        {c.resolved && <span className="rounded-full border border-success/40 px-1.5 text-success">resolved</span>}
        {c.resolved && (
          <button type="button" className="ml-auto hover:text-fg" aria-expanded={open} onClick={() => setOpen(!open)}>
            {open ? "Hide" : "Show"}
          </button>
        )}
      </header>
      {open && (
        <div className="px-3 py-2">
          {showWhere && c.quote && (
            <pre className="mb-2 overflow-x-auto rounded border border-line bg-canvas-subtle px-2 py-1 font-mono text-xs">
              {c.quote}
            </pre>
          )}
          {editing ? (
            <>
              <textarea
                aria-label="Edit comment"
                value={body}
                onChange={(e) => setBody(e.target.value)}
                rows={3}
                className="w-full rounded-md border border-line bg-canvas px-2 py-1 text-sm focus:border-accent focus:outline-none"
              />
              <div className="mt-1 flex justify-end gap-2">
                <Button size="sm" onClick={() => (setEditing(false), setBody(c.body))}>
                  Cancel
                </Button>
                <Button
                  size="sm"
                  variant="primary"
                  onClick={async () => actions && (await run(actions.edit(c.id, body))) && setEditing(false)}
                >
                  Update comment
                </Button>
              </div>
            </>
          ) : (
            <p className="whitespace-pre-wrap text-sm">{c.body}</p>
          )}
          {actions && !editing && (
            <div className="mt-2 flex gap-1">
              <Button size="sm" variant="invisible" onClick={() => setEditing(true)}>
                Edit
              </Button>
              <Button size="sm" variant="invisible" onClick={() => void run(actions.resolve(c.id, !c.resolved))}>
                {c.resolved ? "Unresolve" : "Resolve"}
              </Button>
              <Button size="sm" variant="invisible" onClick={() => void run(actions.remove(c.id))}>
                Delete
              </Button>
            </div>
          )}
          {error && (
            <p role="alert" className="mt-1 text-xs text-danger">
              {error}
            </p>
          )}
        </div>
      )}
    </article>
  );
}
