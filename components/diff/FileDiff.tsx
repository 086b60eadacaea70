"use client";
// One file's hunks as react-diff-view renders them (unified or split), highlighted with Prism
// when small enough, with a "Comment on line N" gutter button per line (shift-click extends the
// range), the comment form under the draft's last line and existing threads under theirs.
import { type ReactNode, useCallback, useMemo, useState } from "react";
import {
  type ChangeData,
  Diff,
  Hunk,
  type HunkData,
  isDelete,
  markEdits,
  tokenize,
  type ViewType,
} from "react-diff-view";
import { refractor } from "refractor";
import type { ReviewComment } from "../../lib/types";
import { type Draft, draftKeys, lineKeys, newLineOf, nextDraft, oldLineOf, placeComments, type Side } from "./anchors";
import { CommentForm } from "./CommentForm";
import { type CommentActions, Thread } from "./comments";
import { type FileEntry, HIGHLIGHT_MAX_LINES, langOf, MARK_EDITS_MAX_LINES } from "./entries";

export function FileDiff({
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
      const enhancers = lines <= MARK_EDITS_MAX_LINES ? [markEdits(hunks, { type: "block" })] : [];
      if (!language) return tokenize(hunks, { enhancers });
      const r = { highlight: (text: string, lang: string) => refractor.highlight(text, lang).children };
      return tokenize(hunks, { highlight: true, refractor: r as never, language, enhancers });
    } catch {
      return null;
    }
  }, [hunks, entry.path, lines]);

  const keys = useMemo(() => lineKeys(hunks), [hunks]);
  const [draft, setDraft] = useState<Draft | null>(null);
  const onGutter = useCallback(
    (side: Side, line: number, extend: boolean) => setDraft((d) => nextDraft(d, side, line, extend)),
    [],
  );
  const selected = useMemo(() => draftKeys(draft, keys), [draft, keys]);

  const widgets = useMemo(() => {
    const w: Record<string, ReactNode> = {};
    for (const [k, list] of placeComments(comments ?? [], keys)) w[k] = <Thread comments={list} actions={actions} />;
    if (draft && actions) {
      const k = keys[draft.side].get(draft.end);
      if (k)
        w[k] = (
          <>
            {w[k]}
            <CommentForm
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
    ({ change, side, renderDefault }: { change: ChangeData; side: Side; renderDefault: () => ReactNode }) => {
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
        hs.flatMap((h) => [
          <tbody key={`dec-${h.content}`} className="diff-decoration">
            <tr>
              <td colSpan={view === "split" ? 4 : 3} className="diff-hunk-header">
                <div className="diff-hunk-header-content">{h.content}</div>
              </td>
            </tr>
          </tbody>,
          <Hunk key={`h-${h.content}`} hunk={h} />,
        ])
      }
    </Diff>
  );
}
