"use client";
// The form for a new line comment, shown under the last line of the draft range: which lines it
// is on, a "Comment" box (Ctrl/Cmd-Enter saves, Escape cancels), "Cancel" and "Save comment";
// a refusal from the server is shown under the box and the text is kept.
import { useEffect, useRef, useState } from "react";
import { Button } from "../ui";
import type { Draft } from "./anchors";

export function CommentForm({
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
