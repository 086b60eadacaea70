"use client";
// The task page's "Branch" section: how far the task's branch is behind its target ("3 commits
// behind main", counted by the server in the background), and "Update branch", which brings the
// target's new commits in (merged, or rebased onto with "Rebase instead of merging"). An update
// whose conflicts the agent is resolving says so and names the files; one that was refused says
// why (conflicts without an agent, uncommitted work, a busy agent) in an alert naming the files.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { errorOf, useTRPC, type YardErrorData } from "../../lib/trpc";
import type { Task } from "../../lib/types";
import { useToast } from "../Toasts";
import { Alert, Button } from "../ui";
import { Section } from "./Section";

/** "3 commits behind main" / "Up to date with main" / "Not counted yet". */
function behindWords(t: Task): string {
  if (!t.behind) return `Not counted yet against ${t.targetBranch ?? "its target"}`;
  const n = t.behind.count;
  return n === 0 ? `Up to date with ${t.behind.target}` : `${n} commit${n === 1 ? "" : "s"} behind ${t.behind.target}`;
}

export function UpdateBranch({ task: t }: { task: Task }) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const toast = useToast();
  const [rebase, setRebase] = useState(false);
  const [error, setError] = useState<YardErrorData | null>(null);
  const update = useMutation(
    trpc.tasks.update.mutationOptions({
      onMutate: () => setError(null),
      onSuccess: ({ update: u }) => {
        toast({
          tone: u.outcome === "conflict_round" ? "attention" : "success",
          title:
            u.outcome === "up_to_date"
              ? `Already up to date with ${u.target}`
              : u.outcome === "updated"
                ? `Branch updated with ${u.commits} commit${u.commits === 1 ? "" : "s"} of ${u.target}`
                : `Conflicts in ${u.files.length} file${u.files.length === 1 ? "" : "s"}: the agent resolves them`,
          body: t.title,
        });
        void qc.invalidateQueries({ queryKey: trpc.tasks.get.queryKey({ id: t.id }) });
        void qc.invalidateQueries({ queryKey: trpc.tasks.diff.queryKey({ id: t.id }) });
      },
      onError: (e) => setError(errorOf(e)),
    }),
  );
  if (!t.branch || !t.targetBranch || !t.worktreePath || t.disposition || t.state === "backlog") return null;
  const busy = t.state === "pending" || t.state === "working";
  return (
    <Section title="Branch" id="sec-branch">
      <div className="flex flex-col gap-2 text-xs">
        <p data-testid="behind">
          <span className="font-semibold">{behindWords(t)}</span>
          {t.behind && t.behind.count > 0 && (
            <span className="text-fg-muted"> (new commits the branch does not have)</span>
          )}
        </p>
        {t.updating && (
          <Alert tone="attention" role="status" title="The agent is resolving update conflicts">
            <span>
              Round {t.updating.round} resolves the {t.updating.mode} with {t.updating.target} in:
            </span>
            <FileList files={t.updating.files} label="Files in conflict" />
          </Alert>
        )}
        {error && <UpdateRefusal error={error} onDismiss={() => setError(null)} />}
        {!t.updating && (
          <>
            <label className="flex items-center gap-2">
              <input type="checkbox" checked={rebase} onChange={(e) => setRebase(e.target.checked)} />
              Rebase instead of merging
            </label>
            <Button
              className="self-start"
              onClick={() => update.mutate({ id: t.id, rebase: rebase || undefined })}
              disabled={update.isPending || busy}
              title={busy ? "The agent is working; update once its turn has ended" : undefined}
            >
              {update.isPending ? "Updating…" : "Update branch"}
            </Button>
          </>
        )}
      </div>
    </Section>
  );
}

function UpdateRefusal({ error, onDismiss }: { error: YardErrorData; onDismiss: () => void }) {
  const d = (error.details ?? {}) as { files?: unknown; aborted?: boolean };
  const files = Array.isArray(d.files) ? (d.files as string[]) : [];
  const title =
    error.code === "CONFLICT" && d.aborted
      ? "Update conflicts: nothing was changed"
      : error.code === "DIRTY_SOURCE"
        ? "The task's worktree has uncommitted changes"
        : error.code === "PANE_BUSY"
          ? "The agent is working"
          : "The branch was not updated";
  return (
    <Alert title={title} onDismiss={onDismiss}>
      <p>{error.message}</p>
      {files.length > 0 && <FileList files={files} label={d.aborted ? "Conflicted files" : "Files"} />}
      {d.aborted && <p className="mt-1">No agent runs to resolve them: resume the task or resolve them by hand.</p>}
    </Alert>
  );
}

function FileList({ files, label }: { files: string[]; label: string }) {
  return (
    <ul aria-label={label} className="mt-0.5 list-inside list-disc font-mono text-xs">
      {files.slice(0, 50).map((f) => (
        <li key={f}>{f}</li>
      ))}
      {files.length > 50 && <li>… and {files.length - 50} more</li>}
    </ul>
  );
}
