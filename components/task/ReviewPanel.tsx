"use client";
// The Review tab: the review box ("Summary", "Approve", "Request changes"; "Approved" once
// approved, "Approval outdated" when the branch moved past the approved commit), the current round's diff with line comments, and every round's history (prompt,
// result, review, comments). Comments and reviews come from the review procedures.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useApi } from "../../lib/api";
import type { Task } from "../../lib/types";
import { errorOf } from "../../lib/trpc";
import { CommentCard } from "../diff/comments";
import { DiffView } from "../DiffView";
import { useToast } from "../Toasts";
import { Alert, Button, Spinner, StateBadge, timeAgo } from "../ui";
import type { DiffQuery } from "./ChangesTab";
import { useCommentActions } from "./comment-actions";

export function ReviewPanel({ task, diff }: { task: Task; diff: DiffQuery }) {
  const api = useApi();
  const qc = useQueryClient();
  const toast = useToast();
  const { actions, comments } = useCommentActions(task.id);
  const reviews = useQuery({ ...api.reviews.list.queryOptions({ taskId: task.id }), retry: false });
  const rounds = useQuery({ ...api.tasks.rounds.queryOptions({ id: task.id }), retry: false });
  const [summary, setSummary] = useState("");
  const submit = useMutation(
    api.reviews.submit.mutationOptions({
      onSuccess: (_r, v) => {
        setSummary("");
        toast({
          tone: "success",
          title: v.verdict === "approve" ? "Approved" : `Changes requested: round ${task.round + 1} starts`,
        });
        void qc.invalidateQueries(api.reviews.pathFilter());
        void qc.invalidateQueries(api.trpc.tasks.pathFilter());
        void qc.invalidateQueries(api.trpc.board.pathFilter());
      },
    }),
  );
  const loadError = comments.error ?? (reviews.error ? errorOf(reviews.error).message : null);
  const current = comments.list.filter((c) => c.round === task.round);
  const thisRoundReviews = (reviews.data?.reviews ?? []).filter((r) => r.round === task.round);
  // An approval holds for the commit it saw: once the branch moved, the round needs a new one.
  const outdated = reviews.data?.status === "outdated";
  const lastApproval = thisRoundReviews.filter((r) => r.verdict === "approved").at(-1);
  // An agent reviewer's approval leaves the round to a person: only a human approval counts here.
  const approved = !outdated && thisRoundReviews.some((r) => r.verdict === "approved" && r.stage !== "agent");
  const agentApproved =
    !outdated && !approved && thisRoundReviews.some((r) => r.verdict === "approved" && r.stage === "agent");
  const canReview = task.state === "completed" && !task.disposition;

  return (
    <div className="flex flex-col gap-4">
      {loadError && <Alert title="Could not load this task's reviews">{loadError}</Alert>}
      {/* The verdict alerts and the review box appear together once the reviews are in: a box
          drawn first would move down under a late alert, under the reviewer's pointer. */}
      {reviews.isPending ? (
        <Spinner label="Loading the reviews…" />
      ) : (
        <>
          {approved && (
            <Alert tone="success" role="status" title="Approved">
              This round is approved
              {lastApproval?.reviewedCommit ? (
                <>
                  {" "}
                  at <code className="font-mono">{lastApproval.reviewedCommit.slice(0, 12)}</code>
                </>
              ) : null}{" "}
              and ready to merge.
            </Alert>
          )}
          {outdated && (
            <Alert tone="attention" role="status" title="Approval outdated">
              {lastApproval?.stage === "agent" ? "The agent reviewer approved" : "This round was approved"}
              {lastApproval?.reviewedCommit ? (
                <>
                  {" "}
                  at <code className="font-mono">{lastApproval.reviewedCommit.slice(0, 12)}</code>
                </>
              ) : null}
              , and the branch has moved since (a new commit). Review the changes and approve again: until then it does
              not merge.
            </Alert>
          )}
          {agentApproved && (
            <Alert tone="accent" role="status" title="The agent reviewer approved this round">
              {task.agentReview.reviewer ? `${task.agentReview.reviewer} approved it; ` : ""}your review decides:
              approve it to merge, or request changes.
            </Alert>
          )}
          <section aria-labelledby="review-box" className="rounded-md border border-line">
            <h2 id="review-box" className="border-b border-line bg-canvas-subtle px-3 py-2 text-sm font-semibold">
              Review round {task.round}
              <span className="ml-2 font-normal text-fg-muted">
                {current.length} {current.length === 1 ? "comment" : "comments"} on this round
              </span>
            </h2>
            <div className="flex flex-col gap-2 p-3">
              <label htmlFor="review-summary" className="text-sm font-semibold">
                Summary
              </label>
              <textarea
                id="review-summary"
                rows={3}
                value={summary}
                onChange={(e) => setSummary(e.target.value)}
                placeholder="Overall feedback (optional). Line comments go along with it."
                className="w-full rounded-md border border-line bg-canvas px-3 py-2 text-sm focus:border-accent focus:outline-none"
              />
              {submit.error && <Alert>{errorOf(submit.error).message}</Alert>}
              {!canReview && (
                <p className="text-xs text-fg-muted">
                  A review is submitted once the round is completed (the task is {task.state.replace("_", " ")}).
                </p>
              )}
              <div className="flex justify-end gap-2">
                <Button
                  disabled={!canReview || submit.isPending}
                  onClick={() =>
                    submit.mutate({ taskId: task.id, verdict: "request_changes", summary: summary.trim() || undefined })
                  }
                >
                  Request changes
                </Button>
                <Button
                  variant="primary"
                  disabled={!canReview || submit.isPending || approved}
                  onClick={() =>
                    submit.mutate({ taskId: task.id, verdict: "approve", summary: summary.trim() || undefined })
                  }
                >
                  Approve
                </Button>
              </div>
            </div>
          </section>
        </>
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
            {[...rounds.data.rounds].reverse().map((r) => {
              const rc = comments.list.filter((c) => c.round === r.number);
              return (
                <li key={r.number} data-round={r.number} className="rounded-md border border-line">
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
                    {r.reviews.map((rv) => {
                      const agent = rv.stage === "agent";
                      const own = agent ? rv.comments : [];
                      return (
                        <div
                          key={rv.id}
                          role={agent ? "article" : undefined}
                          aria-label={agent ? `Agent review, round ${r.number}` : undefined}
                          className={
                            agent
                              ? "flex flex-col gap-1.5 rounded-md border border-accent/40 bg-accent-muted/40 p-2"
                              : "flex items-center gap-2"
                          }
                        >
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
                              {agent ? (
                                <span className="font-mono">{rv.reviewer}</span>
                              ) : rv.reviewer === "user" ? (
                                "You"
                              ) : (
                                rv.reviewer
                              )}{" "}
                              · {timeAgo(rv.createdAt)}
                            </span>
                            {rv.summary && <span className="whitespace-pre-wrap">{rv.summary}</span>}
                          </div>
                          {own.map((c) => (
                            <CommentCard key={c.id} comment={c} actions={null} showWhere />
                          ))}
                        </div>
                      );
                    })}
                    {rc
                      .filter((c) => !r.reviews.some((rv) => rv.stage === "agent" && rv.id === c.reviewId))
                      .map((c) => (
                        <CommentCard
                          key={c.id}
                          comment={c}
                          actions={r.number === task.round ? actions : null}
                          showWhere
                        />
                      ))}
                  </div>
                </li>
              );
            })}
          </ol>
        )}
      </section>
    </div>
  );
}
