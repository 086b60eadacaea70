"use client";
// The Review tab's review box for the current round: where the verdicts stand ("Approved",
// "Approval outdated" when the branch moved past the approved commit, the agent reviewer's
// approval left to a person) and the form — "Summary", "Request changes", "Approve" (a request
// for changes starts the next round). Drawn once the reviews are in, alerts and box together.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useApi } from "../../lib/api";
import { useMe } from "../../lib/people";
import type { Review, Task } from "../../lib/types";
import { errorOf } from "../../lib/trpc";
import { useToast } from "../Toasts";
import { Alert, Button } from "../ui";

export function ReviewBox({
  task,
  reviews,
  status,
  comments,
}: {
  task: Task;
  /** Every review of the task (the current round's are used). */
  reviews: Review[];
  /** The round's review status: "outdated" when the branch moved past the approved commit. */
  status: string | undefined;
  /** How many comments this round has. */
  comments: number;
}) {
  const api = useApi();
  const qc = useQueryClient();
  const toast = useToast();
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
  const thisRound = reviews.filter((r) => r.round === task.round);
  // An approval holds for the commit it saw: once the branch moved, the round needs a new one.
  const outdated = status === "outdated";
  const lastApproval = thisRound.filter((r) => r.verdict === "approved").at(-1);
  // An agent reviewer's approval leaves the round to a person: only a human approval counts here.
  const approved = !outdated && thisRound.some((r) => r.verdict === "approved" && r.stage !== "agent");
  const agentApproved =
    !outdated && !approved && thisRound.some((r) => r.verdict === "approved" && r.stage === "agent");
  const canReview = task.state === "completed";
  // Under the project's required approvals each person approves once: Approve stays open to those who have not.
  const me = useMe();
  const approvedByMe =
    !outdated &&
    thisRound.some(
      (r) => r.verdict === "approved" && r.stage !== "agent" && (r.reviewer === me?.name || r.reviewer === "user"),
    );
  const approveClosed = task.approvals ? approvedByMe : approved;
  const waitsFor = task.approvals?.why ?? null;
  const at = lastApproval?.reviewedCommit ? (
    <>
      {" "}
      at <code className="font-mono">{lastApproval.reviewedCommit.slice(0, 12)}</code>
    </>
  ) : null;
  const send = (verdict: "approve" | "request_changes") =>
    submit.mutate({ taskId: task.id, verdict, summary: summary.trim() || undefined });

  return (
    <>
      {approved && !waitsFor && (
        <Alert tone="success" role="status" title="Approved">
          This round is approved{at} and ready to merge.
        </Alert>
      )}
      {approved && waitsFor && (
        <Alert tone="attention" role="status" title="Approved, waiting for more approvals">
          {waitsFor}
        </Alert>
      )}
      {outdated && (
        <Alert tone="attention" role="status" title="Approval outdated">
          {lastApproval?.stage === "agent" ? "The agent reviewer approved" : "This round was approved"}
          {at}, and the branch has moved since (a new commit). Review the changes and approve again: until then it does
          not merge.
        </Alert>
      )}
      {agentApproved && (
        <Alert tone="accent" role="status" title="The agent reviewer approved this round">
          {task.agentReview.reviewer ? `${task.agentReview.reviewer} approved it; ` : ""}your review decides: approve it
          to merge, or request changes.
        </Alert>
      )}
      <section aria-labelledby="review-box" className="rounded-md border border-line">
        <h2 id="review-box" className="border-b border-line bg-canvas-subtle px-3 py-2 text-sm font-semibold">
          Review round {task.round}
          <span className="ml-2 font-normal text-fg-muted">
            {comments} {comments === 1 ? "comment" : "comments"} on this round
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
            <Button disabled={!canReview || submit.isPending} onClick={() => send("request_changes")}>
              Request changes
            </Button>
            <Button
              variant="primary"
              disabled={!canReview || submit.isPending || approveClosed}
              onClick={() => send("approve")}
            >
              Approve
            </Button>
          </div>
        </div>
      </section>
    </>
  );
}
