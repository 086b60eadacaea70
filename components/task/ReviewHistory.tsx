"use client";
// The Review tab's "History": every round, newest first, with its prompt, its result, its reviews
// (an agent reviewer's as an article with its own comments) and the comments on it. Only the
// current round's comments keep their actions (edit, resolve, delete), and only while the task
// takes comments.
import { useQuery } from "@tanstack/react-query";
import { useApi } from "../../lib/api";
import type { ReviewComment, Task, TaskRound } from "../../lib/types";
import { errorOf } from "../../lib/trpc";
import { type CommentActions, CommentCard } from "../diff/comments";
import { Spinner, StateBadge, timeAgo } from "../ui";
import { personWords, useMe } from "../../lib/people";

export function ReviewHistory({
  task,
  comments,
  actions,
}: {
  task: Task;
  comments: ReviewComment[];
  /** What the current round's comments may do (null: read only). */
  actions: CommentActions | null;
}) {
  const api = useApi();
  const rounds = useQuery({ ...api.tasks.rounds.queryOptions({ id: task.id }), retry: false });
  return (
    <section aria-labelledby="history" className="flex flex-col gap-3">
      <h2 id="history" className="text-base font-semibold">
        History
      </h2>
      {rounds.isPending ? (
        <Spinner />
      ) : rounds.isError ? (
        <p className="text-sm text-fg-muted">Could not load the rounds: {errorOf(rounds.error).message}</p>
      ) : (
        <ol className="flex flex-col gap-3">
          {[...rounds.data.rounds].reverse().map((r) => (
            <RoundItem
              key={r.number}
              round={r}
              task={task}
              comments={comments.filter((c) => c.round === r.number)}
              actions={r.number === task.round ? actions : null}
            />
          ))}
        </ol>
      )}
    </section>
  );
}

function RoundItem({
  round: r,
  task,
  comments,
  actions,
}: {
  round: TaskRound;
  task: Task;
  comments: ReviewComment[];
  actions: CommentActions | null;
}) {
  return (
    <li data-round={r.number} className="rounded-md border border-line">
      <div className="flex items-center gap-2 border-b border-line bg-canvas-subtle px-3 py-2 text-sm">
        <strong>Round {r.number}</strong>
        <StateBadge state={r.state} size="sm" />
        <span className="ml-auto text-xs text-fg-muted">
          {timeAgo(r.startedAt)}
          {r.endedAt ? ` · ended ${timeAgo(r.endedAt)}` : ""}
        </span>
      </div>
      <div className="flex flex-col gap-2 p-3 text-sm">
        {r.prompt && (
          <details>
            <summary className="cursor-pointer text-xs font-semibold text-fg-muted">Prompt</summary>
            <pre className="mt-1 max-h-60 overflow-auto whitespace-pre-wrap rounded border border-line bg-canvas-subtle p-2 font-mono text-xs">
              {r.prompt}
            </pre>
          </details>
        )}
        {r.result && (
          <div>
            <span className="text-xs font-semibold text-fg-muted">Result ({r.result.status}): </span>
            {r.result.summary}
          </div>
        )}
        {r.reviews.map((rv) =>
          rv.stage === "agent" ? (
            <article
              key={rv.id}
              aria-label={`Agent review, round ${r.number}`}
              className="flex flex-col gap-1.5 rounded-md border border-accent/40 bg-accent-muted/40 p-2"
            >
              <Verdict review={rv} task={task} />
              {rv.comments.map((c) => (
                <CommentCard key={c.id} comment={c} actions={null} showWhere />
              ))}
            </article>
          ) : (
            <div key={rv.id} className="flex items-center gap-2">
              <Verdict review={rv} task={task} />
            </div>
          ),
        )}
        {comments
          .filter((c) => !r.reviews.some((rv) => rv.stage === "agent" && rv.id === c.reviewId))
          .map((c) => (
            <CommentCard key={c.id} comment={c} actions={actions} showWhere />
          ))}
      </div>
    </li>
  );
}

function Verdict({ review: rv, task }: { review: TaskRound["reviews"][number]; task: Task }) {
  const me = useMe();
  const agent = rv.stage === "agent";
  return (
    <div className="flex flex-wrap items-center gap-2">
      {agent && (
        <span className="text-xs font-semibold">
          Agent review
          {task.agentReview.reviewer && (
            <span className="font-normal text-fg-muted"> by {task.agentReview.reviewer}</span>
          )}
        </span>
      )}
      <StateBadge
        state={rv.verdict}
        disposition={rv.verdict === "approved" ? "approved" : "changes requested"}
        size="sm"
      />
      <span className="text-xs text-fg-muted">
        {agent ? <span className="font-mono">{rv.reviewer}</span> : personWords(rv.reviewer, me)} ·{" "}
        {timeAgo(rv.createdAt)}
      </span>
      {rv.summary && <span className="whitespace-pre-wrap">{rv.summary}</span>}
    </div>
  );
}
