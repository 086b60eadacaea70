"use client";
// "Clean up": shows what the clean-up would remove (its dry run: each worktree with its task, size
// and uncommitted files, the branches it would delete) and what it keeps and why, with the options
// `yard gc` has (merged branches too; worktrees with uncommitted changes too; only older ones).
// Confirming removes exactly the worktrees it showed (the run is limited to their paths).
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import type { GcResult } from "../../lib/types";
import { errorOf, useTRPC } from "../../lib/trpc";
import { formatSize } from "../../server/wire/sizes";
import { useToast } from "../Toasts";
import { Alert, Button, fieldClass, Modal, Spinner } from "../ui";

const AGES: Array<[string, number | undefined]> = [
  ["Any age", undefined],
  ["Older than a day", 86_400_000],
  ["Older than a week", 7 * 86_400_000],
  ["Older than 30 days", 30 * 86_400_000],
];

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

export function CleanUpDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const toast = useToast();
  const [branches, setBranches] = useState(false);
  const [force, setForce] = useState(false);
  const [age, setAge] = useState(0);
  const opts = { branches, force, olderThanMs: AGES[age]![1] };
  const plan = useMutation(trpc.worktrees.gc.mutationOptions());
  const run = useMutation(
    trpc.worktrees.gc.mutationOptions({
      onSuccess: (r) => {
        void qc.invalidateQueries(trpc.worktrees.pathFilter());
        const failed = r.kept.filter((k) => k.reason.startsWith("not removed:")).length;
        toast({
          tone: failed ? "danger" : "success",
          title: `Removed ${plural(r.removed.length, "worktree")}${r.branches.deleted.length ? ` and ${plural(r.branches.deleted.length, "branch", "branches")}` : ""}`,
          body: `${formatSize(r.freedBytes)} freed${failed ? `; ${failed} could not be removed` : ""}`,
        });
        onClose();
      },
    }),
  );

  // biome-ignore lint/correctness/useExhaustiveDependencies: the dry run follows the options shown (plan.mutate is stable)
  useEffect(() => {
    if (open) plan.mutate({ ...opts, dryRun: true });
  }, [open, branches, force, age]);
  useEffect(() => {
    if (!open) run.reset();
  }, [open, run.reset]);

  const p: GcResult | undefined = plan.isPending ? undefined : plan.data;
  const n = p?.removed.length ?? 0;
  const b = p?.branches.deleted.length ?? 0;
  const confirm = () => p && run.mutate({ ...opts, paths: p.removed.map((r) => r.path), branches: branches && b > 0 });

  return (
    <Modal open={open} onClose={onClose} title="Clean up worktrees" width="max-w-3xl">
      <div className="flex max-h-[75vh] flex-col">
        <div className="flex flex-col gap-3 overflow-y-auto px-4 py-4 text-sm">
          <p className="text-fg-muted">
            Removes leftover worktrees and those of finished (merged or discarded) tasks. A live task&apos;s worktree is
            never removed.
          </p>
          <fieldset className="flex flex-col gap-1.5">
            <legend className="sr-only">Options</legend>
            <label className="flex items-center gap-2">
              <input type="checkbox" checked={branches} onChange={(e) => setBranches(e.target.checked)} />
              Also delete merged branches Switchyard created
            </label>
            <label className="flex items-center gap-2">
              <input type="checkbox" checked={force} onChange={(e) => setForce(e.target.checked)} />
              Also remove worktrees with uncommitted changes (the changes are lost)
            </label>
            <label className="flex items-center gap-2">
              <span>Age</span>
              <select
                value={age}
                onChange={(e) => setAge(Number(e.target.value))}
                className={`${fieldClass} w-auto py-0.5`}
              >
                {AGES.map(([words], i) => (
                  <option key={words} value={i}>
                    {words}
                  </option>
                ))}
              </select>
            </label>
          </fieldset>
          {plan.error && <Alert title="Could not work out what to remove">{errorOf(plan.error).message}</Alert>}
          {run.error && <Alert title="The clean-up failed">{errorOf(run.error).message}</Alert>}
          {!p ? (
            !plan.error && <Spinner label="Working out what would go…" />
          ) : (
            <>
              <section aria-label="Will be removed">
                <h3 className="font-semibold">
                  {n ? `Will remove ${plural(n, "worktree")} (${formatSize(p.freedBytes)})` : "No worktree to remove"}
                </h3>
                <ul className="mt-1 flex flex-col gap-1">
                  {p.removed.map((r) => (
                    <li key={r.path} className="rounded-md border border-line px-2 py-1">
                      <code className="font-mono text-xs [overflow-wrap:anywhere]">{r.path}</code>
                      <span className="ml-2 text-xs text-fg-muted">
                        {r.task ? r.task.title : "no task"}
                        {r.bytes !== null && ` · ${formatSize(r.bytes)}`}
                        {r.uncommitted.length > 0 && ` · with ${plural(r.uncommitted.length, "uncommitted file")}`}
                      </span>
                    </li>
                  ))}
                </ul>
              </section>
              {branches && (
                <section aria-label="Branches">
                  <h3 className="font-semibold">
                    {b ? `Will delete ${plural(b, "branch", "branches")}` : "No branch to delete"}
                  </h3>
                  <ul className="mt-1 flex flex-col gap-0.5 text-xs">
                    {p.branches.deleted.map((x) => (
                      <li key={`${x.repoPath}:${x.branch}`}>
                        <code className="font-mono">{x.branch}</code>
                      </li>
                    ))}
                    {p.branches.kept.map((x) => (
                      <li key={`${x.repoPath}:${x.branch}`} className="text-fg-muted">
                        <code className="font-mono">{x.branch}</code> kept: {x.reason}
                      </li>
                    ))}
                  </ul>
                </section>
              )}
              {p.kept.length > 0 && (
                <details>
                  <summary className="cursor-pointer font-semibold">Kept ({p.kept.length})</summary>
                  <ul className="mt-1 flex flex-col gap-1 text-xs">
                    {p.kept.map((k) => (
                      <li key={k.path}>
                        <code className="font-mono [overflow-wrap:anywhere]">{k.path}</code>
                        <span className="text-fg-muted">: {k.reason}</span>
                        {k.uncommitted.length > 0 && (
                          <div className="ml-3 text-fg-muted">uncommitted: {k.uncommitted.join(", ")}</div>
                        )}
                      </li>
                    ))}
                  </ul>
                </details>
              )}
            </>
          )}
        </div>
        <div className="flex items-center justify-end gap-2 border-t border-line bg-canvas-subtle px-4 py-3">
          <Button onClick={onClose}>Cancel</Button>
          <Button variant="danger" disabled={!p || (!n && !b) || run.isPending} onClick={confirm}>
            {run.isPending
              ? "Removing…"
              : !p || (!n && !b)
                ? "Nothing to remove"
                : `Remove ${[n ? plural(n, "worktree") : "", b ? plural(b, "branch", "branches") : ""].filter(Boolean).join(" and ")}`}
          </Button>
        </div>
      </div>
    </Modal>
  );
}
