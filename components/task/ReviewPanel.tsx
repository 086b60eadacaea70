"use client";
// The Review tab: the review box for the current round (ReviewBox: verdicts, "Summary", "Approve",
// "Request changes"), the current round's diff with its line comments, and every round's history
// (ReviewHistory). A finished task (merged or discarded) says its reviews are closed instead of
// showing the box, and its diff and comments are read only. Comments and reviews come from the
// review procedures.
import { useQuery } from "@tanstack/react-query";
import { useApi } from "../../lib/api";
import type { Task } from "../../lib/types";
import { errorOf } from "../../lib/trpc";
import { DiffView } from "../DiffView";
import { Alert, Spinner } from "../ui";
import type { DiffQuery } from "./ChangesTab";
import { useCommentActions } from "./comment-actions";
import { ReviewBox } from "./ReviewBox";
import { ReviewHistory } from "./ReviewHistory";

export function ReviewPanel({ task, diff }: { task: Task; diff: DiffQuery }) {
  const api = useApi();
  const { actions: commentActions, comments } = useCommentActions(task.id);
  const reviews = useQuery({ ...api.reviews.list.queryOptions({ taskId: task.id }), retry: false });
  const loadError = comments.error ?? (reviews.error ? errorOf(reviews.error).message : null);
  const current = comments.list.filter((c) => c.round === task.round);
  const actions = task.disposition ? null : commentActions;

  return (
    <div className="flex flex-col gap-4">
      {loadError && <Alert title="Could not load this task's reviews">{loadError}</Alert>}
      {task.disposition ? (
        <p data-testid="reviews-closed" className="rounded-md border border-line bg-canvas-subtle px-3 py-2 text-sm">
          Reviews are closed: this task is {task.disposition}. Its rounds, reviews and comments stay below as its
          record.
        </p>
      ) : reviews.isPending ? (
        // The verdict alerts and the review box appear together once the reviews are in: a box
        // drawn first would move down under a late alert, under the reviewer's pointer.
        <Spinner label="Loading the reviews…" />
      ) : (
        <ReviewBox
          task={task}
          reviews={reviews.data?.reviews ?? []}
          status={reviews.data?.status}
          comments={current.length}
        />
      )}

      <section aria-label="Diff for review">
        {diff.isPending ? (
          <Spinner label="Loading the diff…" />
        ) : diff.error ? (
          <Alert title="Could not load the diff">{diff.error.message}</Alert>
        ) : diff.data ? (
          <DiffView diff={diff.data.diff} files={diff.data.files} comments={current} actions={actions} />
        ) : null}
      </section>

      <ReviewHistory task={task} comments={comments.list} actions={actions} />
    </div>
  );
}
