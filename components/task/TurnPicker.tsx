"use client";
// The Changes tab's turn picker: "All changes" or one of the task's turn snapshots ("Turn N": what
// that turn changed, its snapshot against the one before), and "Revert turn N…" behind a
// confirmation that lists, file by file, what the revert changes in the worktree (read when the
// dialog opens), and says what it leaves alone (the branch, the agent's commits, ignored files).
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useId, useState } from "react";
import type { Outputs, Task } from "../../lib/types";
import { errorOf, useTRPC } from "../../lib/trpc";
import { useToast } from "../Toasts";
import { Alert, Button, fieldClass, Modal, Spinner } from "../ui";

type Turn = Outputs["tasks"]["turns"]["turns"][number];
type Change = Outputs["tasks"]["revertPreview"]["files"][number];

const ACTION_WORDS: Record<Change["action"], string> = {
  restore: "restored",
  remove: "removed",
  recreate: "re-created",
};

/** "Turn 3 · round 2 · 1 file", "Turn 4 · revert of turn 2 · 4 files". */
function turnLabel(t: Turn): string {
  const what =
    t.kind === "revert"
      ? `revert of turn ${t.revertOf}`
      : t.kind === "edits"
        ? "changes between turns"
        : `round ${t.round}`;
  return `Turn ${t.number} · ${what} · ${t.files} ${t.files === 1 ? "file" : "files"}`;
}

/** What a revert of turn n goes back to, in words. */
const restoresWords = (n: number) => (n > 1 ? `how they were after turn ${n - 1}` : "the task's base commit");

export function TurnPicker({
  task: t,
  turn,
  onChange,
}: {
  task: Task;
  /** The turn shown, or null for all changes. */
  turn: number | null;
  onChange: (turn: number | null) => void;
}) {
  const trpc = useTRPC();
  const id = useId();
  const [confirming, setConfirming] = useState(false);
  const turns = useQuery({ ...trpc.tasks.turns.queryOptions({ id: t.id }), retry: false });
  const list = turns.data?.turns ?? [];
  if (!list.length) return null;
  return (
    <div className="flex flex-wrap items-center gap-2 text-xs">
      <label htmlFor={`turn-${id}`} className="text-fg-muted">
        Turn
      </label>
      <select
        id={`turn-${id}`}
        value={turn === null ? "" : String(turn)}
        onChange={(e) => onChange(e.target.value ? Number(e.target.value) : null)}
        className={`${fieldClass} py-1 text-xs`}
      >
        <option value="">All changes</option>
        {list.map((x) => (
          <option key={x.number} value={String(x.number)}>
            {turnLabel(x)}
          </option>
        ))}
      </select>
      {turn !== null && !t.disposition && (
        <Button size="sm" variant="outline-danger" onClick={() => setConfirming(true)}>
          Revert turn {turn}…
        </Button>
      )}
      {turn !== null && (
        <RevertDialog
          task={t}
          turn={turn}
          last={list.at(-1)!.number}
          open={confirming}
          onClose={() => setConfirming(false)}
          onReverted={() => onChange(null)}
        />
      )}
    </div>
  );
}

function RevertDialog({
  task: t,
  turn,
  last,
  open,
  onClose,
  onReverted,
}: {
  task: Task;
  turn: number;
  last: number;
  open: boolean;
  onClose: () => void;
  onReverted: () => void;
}) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const toast = useToast();
  const preview = useQuery({
    ...trpc.tasks.revertPreview.queryOptions({ id: t.id, turn }),
    enabled: open,
    retry: false,
    staleTime: 0,
    gcTime: 0,
  });
  const revert = useMutation(
    trpc.tasks.revertTurn.mutationOptions({
      onSuccess: (r) => {
        onClose();
        onReverted();
        toast({
          tone: "success",
          title: r.files.length ? `Reverted turn ${turn}` : "Nothing to revert",
          body: r.snapshot ? `${t.title}: recorded as turn ${r.snapshot.number}` : t.title,
        });
        void qc.invalidateQueries({ queryKey: trpc.tasks.diff.queryKey({ id: t.id }) });
        void qc.invalidateQueries({ queryKey: trpc.tasks.turns.queryKey({ id: t.id }) });
      },
    }),
  );
  const close = () => {
    revert.reset();
    onClose();
  };
  const files = preview.data?.files ?? [];
  const refusal = revert.error ? errorOf(revert.error) : preview.error ? errorOf(preview.error) : null;
  return (
    <Modal open={open} onClose={close} title={`Revert turn ${turn}`}>
      <div className="flex flex-col gap-3 p-4 text-sm">
        <p>
          The worktree’s files go back to {restoresWords(turn)}: tracked and untracked files as they were recorded, and
          files made in turn {turn}
          {turn < last ? " or later" : ""} removed.
        </p>
        {preview.isPending ? (
          <Spinner label="Reading what changes…" />
        ) : refusal ? (
          <Alert title={refusal.code === "PANE_BUSY" ? "The agent is busy" : "Cannot revert this turn"}>
            {refusal.message}
          </Alert>
        ) : files.length ? (
          <Alert
            tone="attention"
            role="status"
            title={`${files.length}${preview.data?.truncated ? "+" : ""} ${files.length === 1 ? "file changes" : "files change"}`}
          >
            <ul aria-label="Files that change" className="mt-1 max-h-48 overflow-auto font-mono text-xs">
              {files.map((f) => (
                <li key={`${f.action}:${f.path}`}>
                  <span className="inline-block w-20 font-sans text-fg-muted">{ACTION_WORDS[f.action]}</span> {f.path}
                </li>
              ))}
              {preview.data?.truncated && <li>…and more</li>}
            </ul>
          </Alert>
        ) : (
          <p className="text-fg-muted">The worktree already matches: nothing changes.</p>
        )}
        <ul className="list-inside list-disc text-fg-muted">
          <li>
            The branch <span className="font-mono">{t.branch}</span> and the agent’s commits are not touched: what it
            committed in those turns stays on the branch and shows as uncommitted changes that undo it.
          </li>
          <li>Ignored files stay as they are.</li>
          <li>The revert is recorded as a new turn, so it can be reverted too.</li>
        </ul>
      </div>
      <div className="flex justify-end gap-2 border-t border-line bg-canvas-subtle px-4 py-3">
        <Button onClick={close}>Cancel</Button>
        <Button
          variant="danger"
          disabled={revert.isPending || !files.length || !!refusal}
          onClick={() => revert.mutate({ id: t.id, turn })}
        >
          {revert.isPending ? "Reverting…" : `Revert turn ${turn}`}
        </Button>
      </div>
    </Modal>
  );
}
