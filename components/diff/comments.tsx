"use client";
// Line comments as the diff and the review history show them: what the comment UI may do
// (CommentActions: add, edit, resolve, remove; null for a read-only view), a thread of comments
// under a line, and one comment (author, when, where, round, resolved, outdated; Edit / Resolve / Delete;
// a resolved one folds away behind Show).
import { useEffect, useState } from "react";
import type { ReviewComment } from "../../lib/types";
import { Button, timeAgo } from "../ui";

export interface CommentActions {
  add(c: { path: string; startLine: number; endLine: number; side: "old" | "new"; body: string }): Promise<unknown>;
  edit(id: string, body: string): Promise<unknown>;
  resolve(id: string, resolved: boolean): Promise<unknown>;
  remove(id: string): Promise<unknown>;
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
        {c.outdated && <span className="rounded-full border border-attention/40 px-1.5 text-attention">outdated</span>}
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
                <Button
                  size="sm"
                  onClick={() => {
                    setEditing(false);
                    setBody(c.body);
                  }}
                >
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
