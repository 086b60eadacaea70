"use client";
// A task's diff, read like GitHub's: a file tree with status and +/- counts (diff/FileTree), unified
// or split view (react-diff-view) with Prism highlighting (diff/FileDiff), sensible renamed /
// deleted / binary / empty files (diff/FileBlock), and line comments (diff/comments, diff/CommentForm,
// diff/anchors: gutter button "Comment on line N", shift-click extends to a range, threads inline
// under their last line). Large diffs stay usable: file sections render in chunks, bodies mount
// only near the viewport, big files start collapsed ("Load diff"), huge files are not highlighted.
// This module owns the toolbar (totals, view switch, collapse/expand all) and the list's state.
import { useEffect, useMemo, useState } from "react";
import type { ViewType } from "react-diff-view";
import type { DiffFileInfo, ReviewComment } from "../lib/types";
import type { CommentActions } from "./diff/comments";
import { BIG_FILE_LINES, buildEntries, fileAnchor } from "./diff/entries";
import { FileBlock } from "./diff/FileBlock";
import { FileTree } from "./diff/FileTree";
import { Button } from "./ui";

const FIRST_CHUNK = 25;
const NEXT_CHUNK = 50;
const VIEW_KEY = "switchyard.diffView";

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
  const [chunked, setChunked] = useState(entries);
  if (chunked !== entries) {
    // A new diff starts over from the first chunk (state reset during render, not in an effect).
    setChunked(entries);
    setLimit(FIRST_CHUNK);
  }
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
      <FileTree entries={shownTree} filter={filter} onFilter={setFilter} onJump={jump} commentsByFile={byFile} />
      <div className="min-w-0 flex-1">
        <div className="mb-3 flex flex-wrap items-center gap-3 text-sm">
          <span className="text-fg-muted" data-testid="diff-summary">
            <strong className="text-fg">{entries.length}</strong> {entries.length === 1 ? "file" : "files"} changed,{" "}
            <span className="text-success">+{totals.add}</span> <span className="text-danger">−{totals.del}</span>
          </span>
          <fieldset aria-label="Diff view" className="ml-auto flex overflow-hidden rounded-md border border-line">
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
          </fieldset>
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
