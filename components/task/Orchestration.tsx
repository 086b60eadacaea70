"use client";
// Orchestration around one task: its dependencies (each with its state, met or stuck; remove and
// add while it is in the backlog), the thread of the worker's questions and the answers (the
// open question highlighted, an answer box while it waits for one, "Acknowledge result" once a
// round finished, until the task is merged or discarded) and the extra worktrees its agent registered. The dependency picker is shared
// with the board's "Depends on…" dialog.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useId, useState } from "react";
import { isPaneId, type Me, personWords, useMe } from "../../lib/people";
import type { Task } from "../../lib/types";
import { errorOf, useTRPC } from "../../lib/trpc";
import { useToast } from "../Toasts";
import { Alert, Button, fieldClass, Spinner, StateBadge, submitOnModEnter, timeAgo } from "../ui";
import { Section } from "./Section";

/** A task another one may depend on. */
export interface DependencyCandidate {
  id: string;
  title: string;
  state: string;
  disposition?: string | null;
}

/** tasks.depend with the cache refreshed after it (board, the task, its dependents). */
function useDepend(opts: { onError?: (message: string) => void; onSuccess?: (r: { started: boolean }) => void } = {}) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  return useMutation(
    trpc.tasks.depend.mutationOptions({
      onSuccess: (r) => opts.onSuccess?.(r),
      onError: (e) => opts.onError?.(errorOf(e).message),
      onSettled: (_r, _e, vars) => {
        void qc.invalidateQueries(trpc.board.pathFilter());
        void qc.invalidateQueries({ queryKey: trpc.tasks.get.queryKey({ id: vars.id }) });
        void qc.invalidateQueries(trpc.tasks.list.pathFilter());
      },
    }),
  );
}

/** A select of the tasks `taskId` could depend on and an "Add dependency" button. */
export function AddDependency({
  taskId,
  taskTitle,
  candidates,
  onAdded,
}: {
  taskId: string;
  taskTitle: string;
  candidates: DependencyCandidate[];
  onAdded?: () => void;
}) {
  const toast = useToast();
  const [pick, setPick] = useState("");
  const [error, setError] = useState<string | null>(null);
  const id = useId().replace(/:/g, "");
  const depend = useDepend({
    onError: (raw) => {
      // The server names tasks by id (a cycle: "X → Y → X"); say their titles.
      const m = withTitles(raw, [{ id: taskId, title: taskTitle }, ...candidates]);
      setError(m);
      toast({ tone: "danger", title: "Dependency refused", body: m });
    },
    onSuccess: (r) => {
      setPick("");
      const on = candidates.find((c) => c.id === depend.variables?.on);
      toast({
        tone: "success",
        title: r.started ? "Dependency met: the task started" : "Dependency added",
        body: on?.title,
      });
      onAdded?.();
    },
  });
  return (
    <form
      className="flex flex-col gap-2"
      onSubmit={(e) => {
        e.preventDefault();
        setError(null);
        if (pick) depend.mutate({ id: taskId, on: pick });
      }}
    >
      <label htmlFor={`dep-${id}`} className="text-xs text-fg-muted">
        Depends on
      </label>
      <div className="flex gap-2">
        <select
          id={`dep-${id}`}
          value={pick}
          onChange={(e) => setPick(e.target.value)}
          className={`${fieldClass} min-w-0 flex-1 py-1`}
        >
          <option value="">{candidates.length ? "Choose a task…" : "No other task in this project"}</option>
          {candidates.map((c) => (
            <option key={c.id} value={c.id}>
              {c.title} ({c.disposition ?? c.state})
            </option>
          ))}
        </select>
        <Button type="submit" size="sm" className="h-auto" disabled={!pick || depend.isPending}>
          {depend.isPending ? "Adding…" : "Add dependency"}
        </Button>
      </div>
      {error && (
        <Alert title="Not added" onDismiss={() => setError(null)}>
          {error}
        </Alert>
      )}
    </form>
  );
}

/** The project's tasks (same repository) other than the task itself and what it already depends on. */
function useCandidates(t: Task): DependencyCandidate[] {
  const trpc = useTRPC();
  const list = useQuery({
    ...trpc.tasks.list.queryOptions(t.projectId ? { projectId: t.projectId } : undefined),
    enabled: t.state === "backlog",
  });
  const taken = new Set([t.id, ...(t.waiting?.dependencies.map((d) => d.id) ?? [])]);
  return (list.data ?? []).filter(
    (x) => x.repoPath === t.repoPath && !taken.has(x.id) && x.disposition !== "discarded" && x.state !== "canceled",
  );
}

export function DependenciesSection({ task: t }: { task: Task }) {
  const deps = t.waiting?.dependencies ?? [];
  const backlog = t.state === "backlog";
  const candidates = useCandidates(t);
  const toast = useToast();
  const remove = useDepend({ onError: (m) => toast({ tone: "danger", title: "Dependency not removed", body: m }) });
  if (!deps.length && !backlog) return null;
  return (
    <Section title="Dependencies" id="sec-dependencies">
      {t.waiting?.reason && backlog && (
        <p
          data-testid="waiting-reason"
          className={`mb-2 text-xs ${t.waiting.dependencies.some((d) => d.stuck) ? "text-danger" : "text-fg-muted"}`}
        >
          {withTitles(t.waiting.reason, deps)}
        </p>
      )}
      {deps.length === 0 ? (
        <p className="mb-2 text-xs text-fg-muted">None: it starts when you start it.</p>
      ) : (
        <ul aria-label="Dependencies" className="mb-3 flex flex-col gap-1.5">
          {deps.map((d) => (
            <li key={d.id} className="flex items-center gap-2 text-sm">
              <Link href={`/tasks/${d.id}`} className="min-w-0 flex-1 truncate text-accent hover:underline">
                {d.title}
              </Link>
              <StateBadge state={d.state} disposition={d.disposition} size="sm" />
              <span className={`text-xs ${d.met ? "text-success" : d.stuck ? "text-danger" : "text-fg-muted"}`}>
                {d.met ? "met" : d.stuck ? `stuck: ${d.stuck}` : "waiting"}
              </span>
              {backlog && (
                <Button
                  variant="invisible"
                  size="sm"
                  aria-label={`Remove dependency ${d.title}`}
                  disabled={remove.isPending}
                  onClick={() => remove.mutate({ id: t.id, on: d.id, remove: true })}
                >
                  ×
                </Button>
              )}
            </li>
          ))}
        </ul>
      )}
      {backlog && deps.length > 0 && (
        <p className="mb-2 text-xs text-fg-muted">
          It starts by itself once every dependency is met; removing the last unmet one starts it now.
        </p>
      )}
      {backlog && <AddDependency taskId={t.id} taskTitle={t.title} candidates={candidates} />}
    </Section>
  );
}

/** A waiting reason ("Waits for tsk… to be merged") with the ids replaced by the tasks' titles. */
export function withTitles(reason: string, tasks: Array<{ id: string; title: string }>): string {
  let out = reason;
  for (const d of tasks) out = out.split(d.id).join(`“${d.title}”`);
  return out;
}

const ACKABLE = ["completed", "failed", "rejected"];

/** An author (a person's name or a pane id) in words: You, the person, Worker, Orchestrator, or the pane's id. */
function authorWords(author: string, t: Task, me: Me | null): string {
  if (!isPaneId(author)) return personWords(author, me);
  if (author === t.paneId) return "Worker";
  if (author === t.parentPaneId) return "Orchestrator";
  return author;
}

export function ThreadSection({ task: t }: { task: Task }) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const toast = useToast();
  const thread = useQuery(trpc.tasks.thread.queryOptions({ id: t.id }));
  const me = useMe();
  const [text, setText] = useState("");
  const refresh = () => {
    void qc.invalidateQueries({ queryKey: trpc.tasks.thread.queryKey({ id: t.id }) });
    void qc.invalidateQueries({ queryKey: trpc.tasks.get.queryKey({ id: t.id }) });
    void qc.invalidateQueries(trpc.board.pathFilter());
  };
  // The task is input_required as soon as the worker asks, which can be before its turn ended:
  // the submit gate then answers PANE_BUSY / AGENT_NOT_READY (nothing typed, nothing recorded),
  // so the answer is tried again until the worker is ready (about 15 s).
  const answer = useMutation({
    ...trpc.tasks.answer.mutationOptions({
      onSuccess: () => {
        setText("");
        refresh();
      },
    }),
    retry: (n, e) => n < 30 && ["PANE_BUSY", "AGENT_NOT_READY"].includes(errorOf(e).code),
    retryDelay: 500,
  });
  const ack = useMutation(
    trpc.tasks.ack.mutationOptions({
      onSuccess: () => {
        toast({ tone: "success", title: "Result acknowledged", body: t.title });
        refresh();
      },
    }),
  );
  const messages = thread.data?.messages ?? [];
  const open = thread.data?.openQuestion ?? null;
  const acknowledgedAt = thread.data?.acknowledgedAt ?? t.acknowledgedAt;
  const canAnswer = t.state === "input_required" && !!open;
  // A finished (merged or discarded) task is out of everyone's attention: nothing is left to acknowledge.
  const ackable = ACKABLE.includes(t.state) && (!t.disposition || !!acknowledgedAt);
  return (
    <Section title="Thread" id="sec-thread">
      {thread.isPending ? (
        <Spinner />
      ) : thread.isError ? (
        <p className="text-xs text-danger">{errorOf(thread.error).message}</p>
      ) : messages.length === 0 ? (
        <p className="text-xs text-fg-muted">No questions from the worker.</p>
      ) : (
        <ol aria-label="Messages" className="flex flex-col gap-2">
          {messages.map((m) => {
            const isOpen = m.id === open;
            return (
              <li
                key={m.id}
                data-kind={m.kind}
                aria-current={isOpen ? "true" : undefined}
                className={`rounded-md border px-2.5 py-1.5 text-sm ${isOpen ? "border-attention/60 bg-attention-muted" : m.kind === "question" ? "border-line bg-canvas-subtle" : "ml-4 border-line bg-canvas"}`}
              >
                <div className="flex items-baseline gap-2 text-xs text-fg-muted">
                  <span className="font-semibold text-fg">{authorWords(m.author, t, me)}</span>
                  <span>{m.kind === "question" ? "asked" : m.kind === "answer" ? "answered" : "wrote"}</span>
                  {isOpen && (
                    <span className="rounded-full border border-attention/50 px-1.5 text-[10px] font-semibold text-attention">
                      open question
                    </span>
                  )}
                  <time dateTime={m.createdAt} title={m.createdAt} className="ml-auto">
                    {timeAgo(m.createdAt)}
                  </time>
                </div>
                <p className="mt-0.5 whitespace-pre-wrap break-words">{m.body}</p>
              </li>
            );
          })}
        </ol>
      )}
      {canAnswer && (
        <form
          className="mt-3 flex flex-col gap-2"
          onSubmit={(e) => {
            e.preventDefault();
            if (text.trim()) answer.mutate({ id: t.id, text });
          }}
        >
          <label htmlFor="thread-answer" className="text-xs text-fg-muted">
            The worker waits for your answer; it is typed into its terminal.
          </label>
          <textarea
            id="thread-answer"
            aria-label="Answer"
            rows={3}
            value={text}
            onChange={(e) => setText(e.target.value)}
            onKeyDown={submitOnModEnter}
            className="w-full rounded-md border border-line bg-canvas px-2 py-1.5 text-sm focus:border-accent focus:outline-none"
          />
          {answer.error && <Alert title="Not sent">{errorOf(answer.error).message}</Alert>}
          <Button type="submit" variant="primary" disabled={!text.trim() || answer.isPending} className="self-end">
            {answer.isPending
              ? answer.failureCount > 0
                ? "Waiting for the worker’s turn to end…"
                : "Sending…"
              : "Send answer"}
          </Button>
        </form>
      )}
      {ackable && (
        <div className="mt-3 flex flex-col gap-1">
          {acknowledgedAt ? (
            <p role="status" className="text-xs text-success">
              Acknowledged{" "}
              <time dateTime={acknowledgedAt} title={acknowledgedAt}>
                {timeAgo(acknowledgedAt)}
              </time>
            </p>
          ) : (
            <Button className="self-start" onClick={() => ack.mutate({ id: t.id })} disabled={ack.isPending}>
              {ack.isPending ? "Acknowledging…" : "Acknowledge result"}
            </Button>
          )}
          {ack.error && <Alert>{errorOf(ack.error).message}</Alert>}
        </div>
      )}
    </Section>
  );
}

export function WorktreesSection({ task: t }: { task: Task }) {
  const trpc = useTRPC();
  const list = useQuery({ ...trpc.tasks.worktrees.queryOptions({ id: t.id }), enabled: t.state !== "backlog" });
  const rows = list.data?.worktrees ?? [];
  if (!rows.length) return null;
  return (
    <Section title="Extra worktrees" id="sec-worktrees">
      <ul aria-label="Extra worktrees" className="flex flex-col gap-1.5 text-xs">
        {rows.map((w) => (
          <li key={w.path} className="flex flex-col">
            <span className="break-all font-mono">{w.path}</span>
            <span className="text-fg-muted">
              {w.branch ? <span className="font-mono">{w.branch}</span> : "no branch"} · registered{" "}
              {timeAgo(w.createdAt)}
            </span>
          </li>
        ))}
      </ul>
    </Section>
  );
}
