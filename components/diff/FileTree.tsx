"use client";
// The diff's "Changed files" navigation: a filter box and one button per file (status, name,
// comment count, +/− counts) that jumps to the file's section; and the A/M/D/R status mark the
// file sections share.
import type { ReviewComment } from "../../lib/types";
import type { FileEntry } from "./entries";

export function FileTree({
  entries,
  filter,
  onFilter,
  onJump,
  commentsByFile,
}: {
  entries: FileEntry[];
  filter: string;
  onFilter: (v: string) => void;
  onJump: (key: string) => void;
  commentsByFile: Map<string, ReviewComment[]>;
}) {
  return (
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
          onChange={(e) => onFilter(e.target.value)}
          className="w-full rounded-md border border-line bg-canvas px-2 py-1 text-xs focus:border-accent focus:outline-none"
        />
      </div>
      <ul className="min-h-0 flex-1 overflow-y-auto py-1 text-xs">
        {entries.map((e) => {
          const comments = commentsByFile.get(e.path)?.length ?? 0;
          return (
            <li key={e.key}>
              <button
                type="button"
                onClick={() => onJump(e.key)}
                title={e.path}
                className="flex w-full items-center gap-1.5 px-2 py-1 text-left hover:bg-canvas-subtle"
              >
                <StatusIcon status={e.status} />
                <span className="min-w-0 flex-1 truncate font-mono">{e.path.split("/").pop()}</span>
                {comments > 0 && (
                  <span className="inline-flex items-center gap-0.5 text-fg-muted" title="Comments">
                    <svg aria-hidden viewBox="0 0 16 16" className="h-3 w-3 fill-current">
                      <path d="M1 2.75C1 1.784 1.784 1 2.75 1h10.5c.966 0 1.75.784 1.75 1.75v7.5A1.75 1.75 0 0 1 13.25 12H9.06l-2.573 2.573A1.458 1.458 0 0 1 4 13.543V12H2.75A1.75 1.75 0 0 1 1 10.25Zm1.75-.25a.25.25 0 0 0-.25.25v7.5c0 .138.112.25.25.25h2a.75.75 0 0 1 .75.75v2.19l2.72-2.72a.749.749 0 0 1 .53-.22h4.5a.25.25 0 0 0 .25-.25v-7.5a.25.25 0 0 0-.25-.25Z" />
                    </svg>
                    {comments}
                    <span className="sr-only">comments</span>
                  </span>
                )}
                <span className="shrink-0 text-success">+{e.additions}</span>
                <span className="shrink-0 text-danger">−{e.deletions}</span>
              </button>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}

export function StatusIcon({ status }: { status: FileEntry["status"] }) {
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
