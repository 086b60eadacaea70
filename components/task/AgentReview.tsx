"use client";
// The agent reviewer stage of a task (task.agentReview): which profile reviews each completed
// round and where the stage stands ("Agent review running", "approved by <profile>", "skipped",
// …), with "Skip agent review" while it runs (the task goes to a person) and "Run agent review
// again" on a completed, unfinished task. Not shown for a planned task (its plan is reviewed
// as a plan) or when no reviewer is configured and the stage never ran.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import type { Task } from "../../lib/types";
import { errorOf, useTRPC } from "../../lib/trpc";
import { useToast } from "../Toasts";
import { Alert, Button, StateBadge } from "../ui";

function words(state: string | null, reviewer: string | null): string {
  const by = reviewer ? ` by ${reviewer}` : "";
  switch (state) {
    case "running":
      return `Agent review running${by}`;
    case "approved":
      return `Agent review: approved${by}`;
    case "changes_requested":
      return `Agent review: changes requested${by}; the next round runs`;
    case "skipped":
      return "Agent review skipped: the task waits for your review";
    case "capped":
      return "Agent review stopped after too many change requests: the task waits for your review";
    case "failed":
      return "Agent review failed: the reviewer ended without a review; the task waits for your review";
    default:
      return reviewer ? `Each completed round is reviewed by ${reviewer} first` : "No agent reviewer";
  }
}

export function AgentReviewSection({ task: t }: { task: Task }) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const toast = useToast();
  const plans = useQuery({ ...trpc.plans.list.queryOptions({ id: t.id }), retry: false });
  const act = useMutation(
    trpc.tasks.agentReview.mutationOptions({
      onSuccess: (_r, v) =>
        toast({ tone: "success", title: v.action === "skip" ? "Agent review skipped" : "Agent review started" }),
      onSettled: () => {
        void qc.invalidateQueries({ queryKey: trpc.tasks.get.queryKey({ id: t.id }) });
        void qc.invalidateQueries(trpc.board.pathFilter());
      },
    }),
  );
  const { reviewer, state, paneId } = t.agentReview;
  if (!reviewer && !state) return null;
  if (plans.data?.plans.length) return null;
  // A finished task's reviewer was stopped with it: nothing runs, nothing is left to skip.
  const running = state === "running" && !t.disposition;
  const canRerun = !!reviewer && !running && t.state === "completed" && !t.disposition;
  return (
    <section aria-labelledby="sec-agent-review" className="border-b border-line pb-4 last:border-b-0">
      <h2 id="sec-agent-review" className="mb-2 text-xs font-semibold uppercase tracking-wide text-fg-muted">
        Agent review
      </h2>
      <div className="flex flex-col gap-2 text-sm">
        <p role="status" data-testid="agent-review-status" className="flex flex-wrap items-center gap-2">
          {state && <StateBadge state={state} disposition={state.replace(/_/g, " ")} size="sm" />}
          <span>{words(state, reviewer)}</span>
        </p>
        {running && paneId && (
          <Link href={`/panes/${paneId}`} className="text-xs text-accent hover:underline">
            Watch the reviewer’s pane
          </Link>
        )}
        {act.error && <Alert>{errorOf(act.error).message}</Alert>}
        <div className="flex flex-wrap gap-2">
          {running && (
            <Button size="sm" disabled={act.isPending} onClick={() => act.mutate({ id: t.id, action: "skip" })}>
              Skip agent review
            </Button>
          )}
          {canRerun && (
            <Button size="sm" disabled={act.isPending} onClick={() => act.mutate({ id: t.id, action: "rerun" })}>
              Run agent review again
            </Button>
          )}
        </div>
      </div>
    </section>
  );
}
