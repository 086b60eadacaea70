"use client";
// /worktrees: every Switchyard worktree (tasks' own, extra ones their agents registered, leftovers
// in the data dir's worktree folder) with its task and state, size on disk and age, the total and
// when it was measured (sizes are measured in the background: "Measure now" asks for a fresh
// walk), the disk budget, and "Clean up" (components/worktrees/CleanUpDialog.tsx). The list
// refetches on task and worktree events (components/Providers.tsx), often while a walk runs.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { TopBar } from "../../components/TopBar";
import { Alert, Button, Spinner, timeAgo } from "../../components/ui";
import { BudgetForm } from "../../components/worktrees/BudgetForm";
import { CleanUpDialog } from "../../components/worktrees/CleanUpDialog";
import { WorktreeTable } from "../../components/worktrees/WorktreeTable";
import { errorOf, useTRPC } from "../../lib/trpc";
import { formatSize } from "../../server/wire/sizes";

export default function WorktreesPage() {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const list = useQuery({
    ...trpc.worktrees.list.queryOptions(),
    refetchInterval: (q) => (q.state.data?.measuring ? 1500 : 60_000),
  });
  const measure = useMutation(
    trpc.worktrees.measure.mutationOptions({
      onSuccess: () => void qc.invalidateQueries(trpc.worktrees.pathFilter()),
    }),
  );
  const [cleaning, setCleaning] = useState(false);
  // "measured 2m ago" stays true as time passes.
  const [, tick] = useState(0);
  useEffect(() => {
    document.title = "Worktrees · Switchyard";
    const t = setInterval(() => tick((n) => n + 1), 30_000);
    return () => clearInterval(t);
  }, []);

  const d = list.data;
  const removable = d?.worktrees.filter((w) => w.status === "finished" || w.status === "leftover").length ?? 0;
  return (
    <div className="flex min-h-screen flex-col">
      <TopBar />
      <main className="mx-auto flex w-full max-w-7xl flex-1 flex-col gap-4 p-4">
        <div className="flex flex-wrap items-baseline gap-3">
          <h1 className="text-lg font-semibold">Worktrees</h1>
          {d && (
            <p className="text-sm text-fg-muted">
              <span className="font-semibold text-fg">
                {d.partial ? "≥ " : ""}
                {formatSize(d.totalBytes)}
              </span>{" "}
              in {d.worktrees.length} worktree{d.worktrees.length === 1 ? "" : "s"}
              {d.budget && ` of a ${formatSize(d.budget.bytes)} budget`}
              {" · "}
              {d.measuring ? "measuring…" : d.measuredAt ? `measured ${timeAgo(d.measuredAt)}` : "not measured yet"}
            </p>
          )}
          <div className="ml-auto flex gap-2">
            <Button onClick={() => measure.mutate()} disabled={measure.isPending || d?.measuring}>
              Measure now
            </Button>
            <Button variant="outline-danger" onClick={() => setCleaning(true)} disabled={!d}>
              Clean up{removable ? ` (${removable})` : ""}
            </Button>
          </div>
        </div>
        <p className="max-w-3xl text-sm text-fg-muted">
          Each task works in a git worktree of its own, under the data dir unless it was given a path. A finished
          task&apos;s worktree goes when it is merged or discarded; what stays behind (a failed cleanup, an interrupted
          start, a folder no task has) is listed here, and Clean up removes it. Sizes are what the files take on disk,
          measured in the background.
        </p>
        {d?.overBudget && d.budget && (
          <Alert tone="attention" title="Over the disk budget">
            The worktrees use more than the {formatSize(d.budget.bytes)} budget.
          </Alert>
        )}
        {d && <BudgetForm usage={d} />}
        {list.error && <Alert>{errorOf(list.error).message}</Alert>}
        {!d ? !list.error && <Spinner /> : <WorktreeTable rows={d.worktrees} />}
      </main>
      <CleanUpDialog open={cleaning} onClose={() => setCleaning(false)} />
    </div>
  );
}
