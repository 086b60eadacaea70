"use client";
// The task page's Changes tab: the diff against the base (the branch once the worktree is gone)
// with this round's line comments (those an update left outdated listed above it), from round 2 on a
// switch to "Changes since last review", and the turn picker (one turn's changes, "Revert turn": TurnPicker).
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useApi } from "../../lib/api";
import type { Task, TaskDiff } from "../../lib/types";
import { DiffView } from "../DiffView";
import { Alert, Spinner } from "../ui";
import { useCommentActions } from "./comment-actions";
import { TurnPicker } from "./TurnPicker";
import { OutdatedComments } from "./OutdatedComments";

/** The task's diff as its query holds it (the page reads it once for the Changes and Review tabs). */
export interface DiffQuery {
  data?: TaskDiff;
  isPending: boolean;
  error: { message: string } | null;
}

export function ChangesTab({ task: t, diff }: { task: Task; diff: DiffQuery }) {
  const api = useApi();
  const [since, setSince] = useState(false);
  const [turn, setTurn] = useState<number | null>(null);
  const sinceQ = useQuery({
    ...api.tasks.diffSince.queryOptions({ id: t.id, since: "last_review" }),
    enabled: since,
    retry: false,
  });
  const turnQ = useQuery({
    ...api.tasks.diffSince.queryOptions({ id: t.id, turn: turn ?? 1 }),
    enabled: turn !== null,
    retry: false,
    structuralSharing: false,
  });
  const { actions, comments } = useCommentActions(t.id);
  if (!t.worktreePath)
    return (
      <p className="rounded-md border border-dashed border-line p-6 text-center text-sm text-fg-muted">
        No changes yet: the task has not started.
      </p>
    );
  const shown = turn !== null ? turnQ : since ? sinceQ : diff;
  const all = !since && turn === null;
  // A finished task takes no more comments: its diff is a record.
  const commentable = all && !t.disposition;
  return (
    <div className="flex flex-col gap-3">
      <div className="flex flex-wrap items-center gap-3">
        {t.round > 1 && (
          <fieldset
            aria-label="Which changes"
            className="flex w-fit overflow-hidden rounded-md border border-line text-xs"
          >
            <button
              type="button"
              aria-pressed={all}
              onClick={() => {
                setSince(false);
                setTurn(null);
              }}
              className={`px-3 py-1 ${all ? "bg-neutral-muted font-semibold" : "bg-btn hover:bg-btn-hover"}`}
            >
              All changes
            </button>
            <button
              type="button"
              aria-pressed={since}
              onClick={() => {
                setSince(true);
                setTurn(null);
              }}
              className={`px-3 py-1 ${since ? "bg-neutral-muted font-semibold" : "bg-btn hover:bg-btn-hover"}`}
            >
              Changes since last review
            </button>
          </fieldset>
        )}
        <TurnPicker
          task={t}
          turn={turn}
          onChange={(n) => {
            setTurn(n);
            if (n !== null) setSince(false);
          }}
        />
      </div>
      {diff.data?.source === "branch" && all && (
        <p className="text-xs text-fg-muted">The worktree is gone; this is the committed work on the branch.</p>
      )}
      {all && (
        <OutdatedComments
          comments={comments.list.filter((c) => c.round === t.round && c.outdated)}
          actions={commentable ? actions : null}
        />
      )}
      {shown.isPending ? (
        <Spinner label="Loading the diff…" />
      ) : shown.error ? (
        <Alert title="Could not load the diff">{shown.error.message}</Alert>
      ) : shown.data ? (
        <DiffView
          diff={shown.data.diff}
          files={shown.data.files}
          comments={all ? comments.list.filter((c) => c.round === t.round && !c.outdated) : []}
          actions={commentable ? actions : null}
          emptyText={
            turn !== null
              ? `Turn ${turn} changed nothing.`
              : since
                ? "No changes since the last review."
                : "No changes against the base yet."
          }
        />
      ) : null}
    </div>
  );
}
