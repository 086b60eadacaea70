"use client";
// The "Plan" region of a --needs-plan task: the current version's goal, steps and proposed
// subtasks (title, objective, "after: …" for its dependencies), the version history with each
// review's verdict and notes, and — while a version is in review — "Approve plan" and "Request
// changes" (a "Plan feedback" box plus optional notes, "Send feedback"). Once decomposed each
// subtask links to its task page. Rendered only for tasks that have plans.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import type { Outputs, Task } from "../../lib/types";
import { errorOf, useTRPC } from "../../lib/trpc";
import { useToast } from "../Toasts";
import { Alert, Button, inputClass, StateBadge, submitOnModEnter, timeAgo } from "../ui";
import { isPaneId, personWords, useMe } from "../../lib/people";

type PlanVersion = Outputs["plans"]["list"]["plans"][number];

const PLAN_STATE_WORDS: Record<PlanVersion["state"], string> = {
  in_review: "in review",
  changes_requested: "changes requested",
  approved: "approved",
  decomposed: "approved",
  superseded: "superseded",
};

export function PlanSection({ task: t }: { task: Task }) {
  const trpc = useTRPC();
  const plans = useQuery({ ...trpc.plans.list.queryOptions({ id: t.id }), retry: false });
  const list = plans.data?.plans ?? [];
  if (plans.isError) {
    // A server without plans (NOT_FOUND) or a task without any: nothing to show.
    return null;
  }
  if (!list.length) return null;
  const current = list.at(-1)!;
  const older = list.slice(0, -1);
  return (
    <section aria-labelledby="sec-plan" className="mb-4 rounded-md border border-line">
      <h2
        id="sec-plan"
        className="flex items-center gap-2 border-b border-line bg-canvas-subtle px-3 py-2 text-sm font-semibold"
      >
        Plan
        <span className="font-normal text-fg-muted">version {current.version}</span>
        <StateBadge state={current.state} disposition={PLAN_STATE_WORDS[current.state]} size="sm" />
      </h2>
      <div className="flex flex-col gap-3 p-3 text-sm">
        <PlanBody plan={current} />
        {current.state === "in_review" && !t.disposition && <PlanReview task={t} plan={current} />}
        {current.reviews.length > 0 && <Reviews plan={current} />}
        {older.length > 0 && (
          <div>
            <h3 className="text-xs font-semibold uppercase tracking-wide text-fg-muted">Version history</h3>
            <ol aria-label="Plan versions" className="mt-1 flex flex-col gap-2">
              {[...older].reverse().map((p) => (
                <li
                  key={p.id}
                  aria-label={`Version ${p.version}: ${PLAN_STATE_WORDS[p.state]}`}
                  className="rounded-md border border-line"
                >
                  <details>
                    <summary className="flex cursor-pointer items-center gap-2 px-2.5 py-1.5">
                      <strong>v{p.version}</strong>
                      <StateBadge state={p.state} disposition={PLAN_STATE_WORDS[p.state]} size="sm" />
                      <span className="ml-auto text-xs text-fg-muted" title={p.createdAt}>
                        {timeAgo(p.createdAt)}
                      </span>
                    </summary>
                    <div className="border-t border-line p-2.5">
                      <PlanBody plan={p} />
                    </div>
                  </details>
                  {p.reviews.length > 0 && (
                    <div className="border-t border-line px-2.5 py-1.5">
                      <Reviews plan={p} />
                    </div>
                  )}
                </li>
              ))}
            </ol>
          </div>
        )}
      </div>
    </section>
  );
}

function PlanBody({ plan: p }: { plan: PlanVersion }) {
  const byKey = new Map(p.plan.subtasks.map((s) => [s.key, s]));
  return (
    <div className="flex flex-col gap-2">
      <div>
        <div className="text-xs font-semibold text-fg-muted">Goal</div>
        <p className="whitespace-pre-wrap">{p.plan.goal}</p>
      </div>
      {p.plan.steps.length > 0 && (
        <div>
          <div className="text-xs font-semibold text-fg-muted">Steps</div>
          <ol aria-label="Steps" className="list-inside list-decimal">
            {p.plan.steps.map((s, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: a submitted plan version's list never changes order
              <li key={i}>{s}</li>
            ))}
          </ol>
        </div>
      )}
      <div>
        <div className="text-xs font-semibold text-fg-muted">Subtasks</div>
        <ol aria-label={`Subtasks of version ${p.version}`} className="mt-1 flex flex-col gap-1.5">
          {p.plan.subtasks.map((s) => {
            const id = p.subtasks?.[s.key];
            const after = s.dependsOn.map((k) => byKey.get(k)?.title ?? k);
            return (
              <li key={s.key} className="rounded-md border border-line bg-canvas px-2.5 py-1.5">
                <div className="flex flex-wrap items-baseline gap-2">
                  {id ? (
                    <Link href={`/tasks/${id}`} className="font-semibold text-accent hover:underline">
                      {s.title}
                    </Link>
                  ) : (
                    <span className="font-semibold">{s.title}</span>
                  )}
                  <span className="font-mono text-[11px] text-fg-subtle">{s.key}</span>
                  {s.agent && <span className="text-xs text-fg-muted">agent {s.agent}</span>}
                  {after.length > 0 && <span className="text-xs text-fg-muted">after: {after.join(", ")}</span>}
                </div>
                <pre className="mt-0.5 max-h-32 overflow-auto whitespace-pre-wrap font-mono text-xs">{s.objective}</pre>
                {s.acceptanceCriteria.length > 0 && (
                  <ul className="mt-0.5 list-inside list-disc text-xs" aria-label={`Acceptance criteria of ${s.title}`}>
                    {s.acceptanceCriteria.map((c, i) => (
                      // biome-ignore lint/suspicious/noArrayIndexKey: a submitted plan version's list never changes order
                      <li key={i}>{c}</li>
                    ))}
                  </ul>
                )}
                {s.constraints.length > 0 && (
                  <ul
                    className="mt-0.5 list-inside list-[square] text-xs text-fg-muted"
                    aria-label={`Constraints of ${s.title}`}
                  >
                    {s.constraints.map((c, i) => (
                      // biome-ignore lint/suspicious/noArrayIndexKey: a submitted plan version's list never changes order
                      <li key={i}>{c}</li>
                    ))}
                  </ul>
                )}
              </li>
            );
          })}
        </ol>
      </div>
    </div>
  );
}

function Reviews({ plan: p }: { plan: PlanVersion }) {
  const me = useMe();
  return (
    <ul aria-label={`Reviews of version ${p.version}`} className="flex flex-col gap-1.5">
      {p.reviews.map((r) => (
        <li key={r.id} className="text-sm">
          <div className="flex flex-wrap items-center gap-2">
            <StateBadge
              state={r.verdict === "approved" ? "completed" : "rejected"}
              disposition={r.verdict === "approved" ? "approved" : "changes requested"}
              size="sm"
            />
            <span className="text-xs text-fg-muted">
              {isPaneId(r.reviewer) ? r.reviewer : personWords(r.reviewer, me)} · {timeAgo(r.createdAt)}
            </span>
            {r.summary && <span className="whitespace-pre-wrap">{r.summary}</span>}
          </div>
          {r.notes.length > 0 && (
            <ul className="ml-4 mt-0.5 list-disc text-xs" aria-label="Notes">
              {r.notes.map((n, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: a submitted plan version's list never changes order
                <li key={i} className="whitespace-pre-wrap">
                  {n.about && <strong>{n.about}: </strong>}
                  {n.body}
                </li>
              ))}
            </ul>
          )}
        </li>
      ))}
    </ul>
  );
}

function PlanReview({ task: t, plan: p }: { task: Task; plan: PlanVersion }) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const toast = useToast();
  const [asking, setAsking] = useState(false);
  const [summary, setSummary] = useState("");
  const [notes, setNotes] = useState<string[]>([]);
  // Feedback goes to the planner through the submit gate, which answers PANE_BUSY /
  // AGENT_NOT_READY (nothing recorded) until the planner's turn ended: tried again for ~15 s.
  const review = useMutation({
    ...trpc.plans.review.mutationOptions({
      onSuccess: (r, v) => {
        setAsking(false);
        setSummary("");
        setNotes([]);
        toast({
          tone: "success",
          title:
            v.verdict === "approve"
              ? `Plan approved: ${r.subtasks.length} subtasks created`
              : "Feedback sent to the planner",
        });
      },
      onSettled: () => {
        void qc.invalidateQueries({ queryKey: trpc.plans.list.queryKey({ id: t.id }) });
        void qc.invalidateQueries({ queryKey: trpc.tasks.get.queryKey({ id: t.id }) });
        void qc.invalidateQueries(trpc.board.pathFilter());
        void qc.invalidateQueries(trpc.tasks.list.pathFilter());
      },
    }),
    retry: (n, e) => n < 30 && ["PANE_BUSY", "AGENT_NOT_READY"].includes(errorOf(e).code),
    retryDelay: 500,
  });
  const cleanNotes = notes.map((n) => n.trim()).filter(Boolean);
  return (
    <div className="flex flex-col gap-2 rounded-md border border-attention/50 bg-attention-muted p-2.5">
      <p className="text-xs">
        Version {p.version} waits for your review. Approving creates its {p.plan.subtasks.length} subtasks; requesting
        changes sends your feedback to the planner.
      </p>
      {review.error && <Alert title="Not sent">{errorOf(review.error).message}</Alert>}
      {!asking ? (
        <div className="flex justify-end gap-2">
          <Button onClick={() => setAsking(true)} disabled={review.isPending}>
            Request changes
          </Button>
          <Button
            variant="primary"
            disabled={review.isPending}
            onClick={() => review.mutate({ taskId: t.id, verdict: "approve", notes: [] })}
          >
            {review.isPending && review.variables?.verdict === "approve" ? "Approving…" : "Approve plan"}
          </Button>
        </div>
      ) : (
        <form
          className="flex flex-col gap-2"
          onKeyDown={(e) => {
            if (e.key === "Escape" && !review.isPending) {
              e.preventDefault();
              setAsking(false);
            }
          }}
          onSubmit={(e) => {
            e.preventDefault();
            review.mutate({
              taskId: t.id,
              verdict: "request_changes",
              summary: summary.trim() || undefined,
              notes: cleanNotes.map((body) => ({ body })),
            });
          }}
        >
          <label htmlFor="plan-feedback" className="text-xs font-semibold">
            Plan feedback
          </label>
          <textarea
            id="plan-feedback"
            autoFocus
            rows={3}
            value={summary}
            onChange={(e) => setSummary(e.target.value)}
            onKeyDown={submitOnModEnter}
            className={`${inputClass} bg-canvas`}
          />
          {notes.map((n, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: the notes are edited in place; a row has no identity but its position
            <div key={i} className="flex items-center gap-2">
              <input
                aria-label={`Note ${i + 1}`}
                value={n}
                onChange={(e) => setNotes(notes.map((x, j) => (j === i ? e.target.value : x)))}
                className={`${inputClass} bg-canvas`}
              />
              <Button
                variant="invisible"
                size="sm"
                aria-label={`Remove note ${i + 1}`}
                onClick={() => setNotes(notes.filter((_, j) => j !== i))}
              >
                ×
              </Button>
            </div>
          ))}
          <div className="flex items-center gap-2">
            <Button variant="invisible" size="sm" onClick={() => setNotes([...notes, ""])}>
              + Add note
            </Button>
            <span className="ml-auto" />
            <Button onClick={() => setAsking(false)} disabled={review.isPending}>
              Cancel
            </Button>
            <Button
              type="submit"
              variant="primary"
              disabled={review.isPending || (!summary.trim() && cleanNotes.length === 0)}
            >
              {review.isPending
                ? review.failureCount > 0
                  ? "Waiting for the planner’s turn to end…"
                  : "Sending…"
                : "Send feedback"}
            </Button>
          </div>
        </form>
      )}
    </div>
  );
}
