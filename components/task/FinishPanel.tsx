"use client";
// Finishing a task: "Merge" (target branch shown, keep-branch option, ignore-dirty only behind an
// explicit warning; refused while the approval is outdated) and "Discard" (a "Delete branch"
// checkbox, off by default; the uncommitted files it deletes are listed), each behind a
// confirmation dialog that says exactly what will happen; "Cancel task" for a running one.
// Every refusal from the core is shown with its details in an alert; a cleanup error after a
// landed merge is shown apart from the merge's success. A finished task (merged or discarded)
// shows what finishing did instead (FinishedSummary): no action is left on it.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type ReactNode, useState } from "react";
import type { Task } from "../../lib/types";
import { errorOf, useTRPC, type YardErrorData } from "../../lib/trpc";
import { useToast } from "../Toasts";
import { Alert, Button, Modal, Spinner } from "../ui";
import { FinishedSummary } from "./FinishedSummary";
import type { MergeStrategy } from "../../server/wire/branches";
import { MergeStrategyChoice } from "./MergeStrategy";

function RefusalAlert({ error, onDismiss }: { error: YardErrorData; onDismiss?: () => void }) {
  const d = (error.details ?? {}) as Record<string, unknown>;
  const files = Array.isArray(d.files) ? (d.files as string[]) : [];
  const titles: Record<string, string> = {
    DIRTY_TARGET: "The target checkout has uncommitted changes",
    DIRTY_SOURCE: "The task's worktree has uncommitted changes",
    MERGE_CONFLICT: "Merge conflict: nothing was merged",
    NOT_FAST_FORWARD: "The branch cannot be fast-forwarded: nothing was merged",
    TASK_NOT_COMPLETED: "The task is not completed",
    RATE_LIMITED: "At the running-task cap",
  };
  let title = titles[error.code] ?? "Refused";
  if ("expected" in d && "actual" in d)
    title = error.code === "CONFLICT" ? "The target branch moved" : "The target branch is not checked out";
  return (
    <Alert title={title} onDismiss={onDismiss}>
      <p data-testid="refusal-message" className={error.code === "DIRTY_SOURCE" ? "sr-only" : ""}>
        {error.message}
      </p>
      {"expected" in d && "actual" in d && (
        <dl className="mt-1 grid grid-cols-[auto_1fr] gap-x-3 font-mono text-xs">
          <dt className="text-fg-muted">expected</dt>
          <dd>{String(d.expected ?? "—")}</dd>
          <dt className="text-fg-muted">actual</dt>
          <dd>{String(d.actual ?? "(detached HEAD)")}</dd>
        </dl>
      )}
      {files.length > 0 && (
        <>
          <p className="mt-1 text-xs font-semibold">{error.code === "MERGE_CONFLICT" ? "Conflicted files" : "Files"}</p>
          <ul
            aria-label={error.code === "MERGE_CONFLICT" ? "Conflicted files" : "Files"}
            className="mt-0.5 list-inside list-disc font-mono text-xs"
          >
            {files.slice(0, 50).map((f) => (
              <li key={f}>{f}</li>
            ))}
            {files.length > 50 && <li>… and {files.length - 50} more</li>}
          </ul>
        </>
      )}
      {error.code === "DIRTY_SOURCE" && (
        <p className="mt-1 text-xs">Have the agent commit them, or merge with “Leave out uncommitted changes”.</p>
      )}
      {error.code === "DIRTY_TARGET" && (
        <p className="mt-1 text-xs">Commit or stash them in the target checkout, then merge again.</p>
      )}
      {error.code === "MERGE_CONFLICT" && (
        <p className="mt-1 text-xs">
          The merge was aborted and the target is clean. Update the branch (Branch section) so the agent resolves them,
          or resolve by hand.
        </p>
      )}
    </Alert>
  );
}

export function FinishPanel({ task }: { task: Task }) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const toast = useToast();
  const [dialog, setDialog] = useState<"merge" | "discard" | "cancel" | null>(null);
  const [keepBranch, setKeepBranch] = useState(false);
  const [ignoreDirty, setIgnoreDirty] = useState(false);
  const [deleteBranch, setDeleteBranch] = useState(false);
  const [strategy, setStrategy] = useState<MergeStrategy | null>(null);
  const [error, setError] = useState<YardErrorData | null>(null);
  const refresh = () => {
    void qc.invalidateQueries({ queryKey: trpc.tasks.get.queryKey({ id: task.id }) });
    void qc.invalidateQueries(trpc.board.pathFilter());
  };
  const finish = useMutation(
    trpc.tasks.finish.mutationOptions({
      onMutate: () => setError(null),
      // A failed cleanup is recorded on the task: the finished summary shows it.
      onSuccess: (r, vars) => {
        setDialog(null);
        toast({
          tone: "success",
          title: vars.merge ? `Merged into ${r.merge?.target ?? task.targetBranch}` : "Discarded",
          body: task.title,
        });
        refresh();
      },
      onError: (e) => {
        setDialog(null);
        setError(errorOf(e));
      },
    }),
  );
  const cancel = useMutation(
    trpc.tasks.cancel.mutationOptions({
      onSuccess: () => {
        setDialog(null);
        toast({ tone: "info", title: "Task canceled", body: task.title });
        refresh();
      },
      onError: (e) => {
        setDialog(null);
        setError(errorOf(e));
      },
    }),
  );

  const running = ["pending", "working", "input_required"].includes(task.state);
  const canMerge = task.state === "completed";
  // The project's required approvals: Merge waits for them and says why.
  const approvalsWait = task.approvals?.why ?? null;
  const canDiscard = task.state !== "backlog";
  const target = task.targetBranch;

  if (task.disposition) return <FinishedSummary task={task} />;
  return (
    <div className="flex flex-col gap-2" data-testid="finish-panel">
      {error && <RefusalAlert error={error} onDismiss={() => setError(null)} />}
      <div className="flex flex-wrap gap-2">
        {canMerge && (
          <Button
            variant="primary"
            onClick={() => setDialog("merge")}
            disabled={approvalsWait !== null}
            aria-describedby={approvalsWait ? "merge-waits merge-target" : "merge-target"}
          >
            Merge
          </Button>
        )}
        {canDiscard && (
          <Button variant="outline-danger" onClick={() => setDialog("discard")}>
            Discard
          </Button>
        )}
        {running && (
          <Button onClick={() => setDialog("cancel")} disabled={cancel.isPending}>
            Cancel task
          </Button>
        )}
      </div>
      {canMerge && approvalsWait && (
        <p id="merge-waits" role="status" className="text-sm text-attention">
          {approvalsWait}
        </p>
      )}
      {canMerge && task.approvals && !approvalsWait && (
        <p className="text-xs text-fg-muted">
          Approved by {task.approvals.have.join(", ")} ({task.approvals.required} required)
        </p>
      )}
      {canMerge && (
        <p id="merge-target" className="text-xs text-fg-muted">
          into <span className="font-mono text-fg">{target ?? "(no target: detached HEAD)"}</span>
        </p>
      )}

      <Modal open={dialog === "merge"} onClose={() => setDialog(null)} title={`Merge into ${target ?? "?"}`}>
        <div className="flex flex-col gap-3 p-4 text-sm">
          <p>
            Merges branch <Code>{task.branch}</Code> into <Code>{target}</Code> in <Code>{task.repoPath}</Code>.{" "}
            {target} must be checked out there and clean.
          </p>
          <MergeStrategyChoice task={task} value={strategy} onChange={setStrategy} />
          {task.reviewStatus === "outdated" && (
            <Alert tone="attention" role="status" title="The approval is outdated">
              The branch has moved since it was approved: the merge is refused until the round is approved again (Review
              tab).
            </Alert>
          )}
          <ul className="list-inside list-disc text-fg-muted">
            {task.reviewStatus !== "outdated" && (
              <li>
                {task.reviewStatus === "approved"
                  ? "Exactly the approved commit is merged; a commit made since is not."
                  : "The branch is merged as it is now (no approval pins it)."}
              </li>
            )}
            <li>The task’s agent is stopped and its worktree removed afterwards.</li>
            <li>
              {keepBranch || task.branchPreexisting
                ? `The branch ${task.branch} is kept.`
                : `The branch ${task.branch} is deleted after the merge.`}
            </li>
            <li>
              {ignoreDirty
                ? "Uncommitted changes in the worktree are left out and lost with the worktree."
                : "Refused if the worktree has uncommitted changes."}
            </li>
          </ul>
          <label className="flex items-center gap-2">
            <input
              type="checkbox"
              checked={keepBranch}
              onChange={(e) => setKeepBranch(e.target.checked)}
              disabled={task.branchPreexisting}
            />
            Keep the branch after merging
          </label>
          <label className="flex items-start gap-2">
            <input
              type="checkbox"
              className="mt-1"
              checked={ignoreDirty}
              onChange={(e) => setIgnoreDirty(e.target.checked)}
            />
            <span>Leave out uncommitted changes</span>
          </label>
          {ignoreDirty && (
            <Alert tone="attention" role="status" title="Uncommitted work will not be merged">
              Only what is committed on {task.branch} lands. Files the agent did not commit are not merged and are
              deleted with the worktree.
            </Alert>
          )}
        </div>
        <DialogButtons>
          <Button onClick={() => setDialog(null)}>Cancel</Button>
          <Button
            variant="primary"
            disabled={finish.isPending || task.reviewStatus === "outdated"}
            onClick={() =>
              finish.mutate({
                id: task.id,
                merge: {
                  keepBranch: keepBranch || undefined,
                  ignoreDirty: ignoreDirty || undefined,
                  strategy: strategy ?? undefined,
                },
              })
            }
          >
            {finish.isPending ? "Merging…" : "Merge"}
          </Button>
        </DialogButtons>
      </Modal>

      <Modal open={dialog === "discard"} onClose={() => setDialog(null)} title="Discard this task">
        <div className="flex flex-col gap-3 p-4 text-sm">
          <p>
            Nothing is merged into <Code>{target ?? "the target branch"}</Code>.{" "}
            {running ? "The agent is stopped first, then " : ""}the worktree at <Code>{task.worktreePath}</Code> is
            removed with any uncommitted changes.
          </p>
          <LostFiles taskId={task.id} open={dialog === "discard"} />
          <p className="text-fg-muted">
            {task.branchPreexisting
              ? `The branch ${task.branch} existed before the task and is always kept.`
              : deleteBranch
                ? `The branch ${task.branch} is deleted, with its commits.`
                : `The branch ${task.branch} is kept, so its commits stay reachable.`}
          </p>
          <label className="flex items-center gap-2">
            <input
              type="checkbox"
              checked={deleteBranch}
              onChange={(e) => setDeleteBranch(e.target.checked)}
              disabled={task.branchPreexisting}
            />
            Delete branch
          </label>
        </div>
        <DialogButtons>
          <Button onClick={() => setDialog(null)}>Cancel</Button>
          <Button
            variant="danger"
            disabled={finish.isPending}
            onClick={() => finish.mutate({ id: task.id, discard: { deleteBranch: deleteBranch || undefined } })}
          >
            {finish.isPending ? "Discarding…" : "Discard"}
          </Button>
        </DialogButtons>
      </Modal>

      <Modal open={dialog === "cancel"} onClose={() => setDialog(null)} title="Cancel this task">
        <p className="p-4 text-sm">
          The agent is stopped and the task becomes canceled. Its worktree and branch stay until you discard it.
        </p>
        <DialogButtons>
          <Button onClick={() => setDialog(null)}>Keep running</Button>
          <Button variant="danger" disabled={cancel.isPending} onClick={() => cancel.mutate({ id: task.id })}>
            Cancel task
          </Button>
        </DialogButtons>
      </Modal>
    </div>
  );
}

function Code({ children }: { children: ReactNode }) {
  return <code className="break-all rounded bg-neutral-muted px-1 py-0.5 font-mono text-xs">{children}</code>;
}

function DialogButtons({ children }: { children: ReactNode }) {
  return <div className="flex justify-end gap-2 border-t border-line bg-canvas-subtle px-4 py-3">{children}</div>;
}

/** The discard confirmation's list of what it deletes: the worktree's uncommitted files, read when the dialog opens. */
function LostFiles({ taskId, open }: { taskId: string; open: boolean }) {
  const trpc = useTRPC();
  const q = useQuery({
    ...trpc.tasks.uncommitted.queryOptions({ id: taskId }),
    enabled: open,
    retry: false,
    staleTime: 0,
  });
  if (!open) return null;
  if (q.isPending) return <Spinner label="Checking for uncommitted work…" />;
  if (q.error)
    return (
      <Alert tone="attention" title="Could not list the uncommitted files">
        {errorOf(q.error).message}
      </Alert>
    );
  const { files, truncated } = q.data;
  if (!files.length)
    return (
      <p className="text-fg-muted">The worktree has no uncommitted changes: nothing is lost but the worktree itself.</p>
    );
  return (
    <Alert
      tone="attention"
      role="status"
      title={`${files.length}${truncated ? "+" : ""} uncommitted ${files.length === 1 ? "file is" : "files are"} deleted`}
    >
      <ul aria-label="Uncommitted files" className="mt-1 max-h-40 overflow-auto font-mono text-xs">
        {files.map((f) => (
          <li key={f}>{f}</li>
        ))}
        {truncated && <li>…and more</li>}
      </ul>
    </Alert>
  );
}
