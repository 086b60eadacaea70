"use client";
// /tasks/<id>: the task's header (state in words, round, agent, base with copy, branch → target,
// context, parent links), its contract, latest result, timeline, the finish actions and a
// follow-up box, its dependencies, the worker's question thread and extra worktrees
// (components/task/Orchestration), and three tabs — Terminal (the live pane, typeable), Changes (the diff against
// the base; "since last review" between rounds) and Review (comments, verdicts, rounds).
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useParams, useSearchParams } from "next/navigation";
import { type ReactNode, Suspense, useEffect, useRef, useState } from "react";
import { DiffView } from "../../../components/DiffView";
import { PaneTerminal, type TerminalHandle } from "../../../components/Terminal";
import { AgentReviewSection } from "../../../components/task/AgentReview";
import { FinishPanel } from "../../../components/task/FinishPanel";
import { DependenciesSection, ThreadSection, WorktreesSection } from "../../../components/task/Orchestration";
import { PlanSection } from "../../../components/task/PlanSection";
import { ReviewPanel, useCommentActions } from "../../../components/task/ReviewPanel";
import { TopBar } from "../../../components/TopBar";
import { Alert, Button, CopyButton, Label, Spinner, StateBadge, STATE_WORDS, timeAgo } from "../../../components/ui";
import { useApi } from "../../../lib/api";
import { replaceUrl } from "../../../lib/query-url";
import type { PaneInfo } from "../../../lib/socket";
import type { Task } from "../../../lib/types";
import { errorOf } from "../../../lib/trpc";
import { Section } from "../../../components/task/Section";

const TABS = ["terminal", "changes", "review"] as const;
type Tab = (typeof TABS)[number];
const TAB_NAMES: Record<Tab, string> = { terminal: "Terminal", changes: "Changes", review: "Review" };

function TaskPage() {
  const params = useParams<{ id: string }>();
  const id = decodeURIComponent(String(params?.id ?? ""));
  const search = useSearchParams();
  const api = useApi();
  const { trpc } = api;
  const task = useQuery({ ...trpc.tasks.get.queryOptions({ id }), retry: false });
  const t = task.data;
  const tab: Tab = (TABS as readonly string[]).includes(search.get("tab") ?? "")
    ? (search.get("tab") as Tab)
    : "terminal";
  const setTab = (v: Tab) => replaceUrl(`/tasks/${id}?tab=${v}`);
  // A diff can be megabytes: no structural sharing (a deep compare on every refetch).
  const diff = useQuery({
    ...trpc.tasks.diff.queryOptions({ id }),
    enabled: !!t && !!t.worktreePath && tab !== "terminal",
    retry: false,
    structuralSharing: false,
  });

  useEffect(() => {
    if (t) document.title = `${t.title} · Switchyard`;
  }, [t?.title]);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const el = e.target as HTMLElement;
      if (
        e.ctrlKey ||
        e.metaKey ||
        e.altKey ||
        /^(INPUT|TEXTAREA|SELECT)$/.test(el.tagName) ||
        el.closest(".xterm") ||
        document.querySelector("dialog[open]")
      )
        return;
      const i = ["1", "2", "3"].indexOf(e.key);
      if (i >= 0) setTab(TABS[i]!);
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  });

  if (task.isError) {
    const y = errorOf(task.error);
    return (
      <Shell>
        <main className="mx-auto mt-16 w-full max-w-xl p-4">
          <div role="alert" className="rounded-lg border border-line p-8 text-center">
            <h1 className="text-lg font-semibold">
              {y.code === "NOT_FOUND" || y.code === "BAD_PARAMS" ? "No such task" : "Could not open this task"}
            </h1>
            <p className="mt-2 text-sm text-fg-muted">
              {y.code === "BAD_PARAMS" ? `“${id}” is not a task id.` : y.message}
            </p>
            <Link
              href="/"
              className="mt-4 inline-block rounded-md border border-line bg-btn px-3 py-1.5 text-sm hover:bg-btn-hover"
            >
              ← Board
            </Link>
          </div>
        </main>
      </Shell>
    );
  }
  if (!t) {
    return (
      <Shell>
        <main className="p-6">
          <Spinner label="Loading the task…" />
        </main>
      </Shell>
    );
  }

  const files = diff.data?.files.length;
  return (
    <Shell>
      <main className="mx-auto flex w-full max-w-[1400px] flex-1 flex-col px-4 pb-8 pt-4">
        <TaskHeader task={t} />
        <div className="mt-4 grid min-h-0 grid-cols-1 gap-6 xl:grid-cols-[minmax(0,1fr)_20rem]">
          <div className="min-w-0">
            <PlanSection task={t} />
            <div role="tablist" aria-label="Task views" className="flex gap-1 border-b border-line">
              {TABS.map((v) => (
                <button
                  key={v}
                  role="tab"
                  id={`tab-${v}`}
                  aria-selected={tab === v}
                  aria-controls={`panel-${v}`}
                  tabIndex={tab === v ? 0 : -1}
                  onClick={() => setTab(v)}
                  onKeyDown={(e) => {
                    const i = TABS.indexOf(v);
                    if (e.key === "ArrowRight") setTab(TABS[(i + 1) % TABS.length]!);
                    if (e.key === "ArrowLeft") setTab(TABS[(i + TABS.length - 1) % TABS.length]!);
                  }}
                  className={`-mb-px flex items-center gap-2 border-b-2 px-3 py-2 text-sm ${tab === v ? "border-severe font-semibold text-fg" : "border-transparent text-fg-muted hover:border-line hover:text-fg"}`}
                >
                  {TAB_NAMES[v]}
                  {v === "changes" && files !== undefined && (
                    <span className="rounded-full bg-neutral-muted px-1.5 text-xs font-medium leading-5">{files}</span>
                  )}
                </button>
              ))}
            </div>
            <div
              role="tabpanel"
              id="panel-terminal"
              aria-labelledby="tab-terminal"
              hidden={tab !== "terminal"}
              className="pt-3"
            >
              <TerminalTab task={t} visible={tab === "terminal"} />
            </div>
            {tab === "changes" && (
              <div role="tabpanel" id="panel-changes" aria-labelledby="tab-changes" className="pt-3">
                <ChangesTab task={t} diff={diff} />
              </div>
            )}
            {tab === "review" && (
              <div role="tabpanel" id="panel-review" aria-labelledby="tab-review" className="pt-3">
                {t.worktreePath ? (
                  <ReviewPanel task={t} diff={diff} />
                ) : (
                  <p className="text-sm text-fg-muted">Nothing to review yet: the task has not started.</p>
                )}
              </div>
            )}
          </div>
          <aside aria-label="Task details" className="flex min-w-0 flex-col gap-5">
            <FinishPanel task={t} />
            <AgentReviewSection task={t} />
            {t.state === "input_required" &&
              !["question", "plan_review"].includes(String((t.evidence as { reason?: string } | null)?.reason)) && (
                <FollowUp task={t} />
              )}
            {t.state === "backlog" && <StartBacklog task={t} />}
            <DependenciesSection task={t} />
            <ThreadSection task={t} />
            <Details task={t} />
            <WorktreesSection task={t} />
            <Contract task={t} />
            <Result task={t} />
            <Timeline task={t} />
          </aside>
        </div>
      </main>
    </Shell>
  );
}

function Shell({ children }: { children: ReactNode }) {
  return (
    <div className="flex min-h-screen flex-col">
      <TopBar />
      {children}
    </div>
  );
}

const short = (s: string | null | undefined) => (s ? s.slice(0, 7) : "—");

function TaskHeader({ task: t }: { task: Task }) {
  return (
    <header className="border-b border-line pb-4">
      <div className="text-sm text-fg-muted">
        <Link href={t.projectId ? `/?project=${t.projectId}` : "/"} className="hover:text-accent hover:underline">
          ← Board
        </Link>
      </div>
      <h1 className="mt-1 text-2xl font-semibold leading-tight">
        {t.title} <span className="font-normal text-fg-subtle">{t.id}</span>
      </h1>
      <div className="mt-2 flex flex-wrap items-center gap-x-3 gap-y-2 text-sm text-fg-muted">
        <StateBadge state={t.state} disposition={t.disposition} />
        <span data-testid="task-state-words" className="sr-only">
          {STATE_WORDS[t.state] ?? t.state}
        </span>
        <span data-testid="task-round">round {t.round}</span>
        <span>
          agent <strong className="font-medium text-fg">{t.agent}</strong>
        </span>
        {t.branch && (
          <span className="flex items-center gap-1 font-mono text-xs">
            <span className="rounded-md bg-accent-muted px-1.5 py-0.5 text-accent">{t.branch}</span>
            <span aria-label="into">→</span>
            <span className="rounded-md bg-accent-muted px-1.5 py-0.5 text-accent">
              {t.targetBranch ?? "(no target)"}
            </span>
          </span>
        )}
        <span className="flex items-center gap-0.5">
          base{" "}
          <span className="font-mono text-xs text-fg" data-testid="base-sha" title={t.baseSha ?? ""}>
            {short(t.baseSha)}
          </span>
          {t.baseSha && <CopyButton text={t.baseSha} label="Copy base SHA" />}
        </span>
        {t.contextId && (
          <span>
            context{" "}
            <Link
              href={`/?project=${t.projectId ?? "all"}&context=${encodeURIComponent(t.contextId)}`}
              className="font-mono text-xs text-accent hover:underline"
            >
              {t.contextId}
            </Link>
          </span>
        )}
        {t.label && <Label>{t.label}</Label>}
        {t.parentTaskId && (
          <Link href={`/tasks/${t.parentTaskId}`} className="text-accent hover:underline">
            parent task
          </Link>
        )}
        {t.parentPaneId && (
          <Link href={`/panes/${t.parentPaneId}`} className="text-accent hover:underline">
            parent pane
          </Link>
        )}
        <span title={t.createdAt}>opened {timeAgo(t.createdAt)}</span>
      </div>
    </header>
  );
}

function TerminalTab({ task: t, visible }: { task: Task; visible: boolean }) {
  const termRef = useRef<TerminalHandle>(null);
  const [pane, setPane] = useState<PaneInfo | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [empty, setEmpty] = useState(false);
  useEffect(() => {
    if (visible) termRef.current?.focus();
  }, [visible]);
  if (!t.paneId)
    return (
      <p className="rounded-md border border-dashed border-line p-6 text-center text-sm text-fg-muted">
        {t.state === "backlog" ? "This task is in the backlog: start it to get a terminal." : "This task has no pane."}
      </p>
    );
  const exited = pane ? !pane.live : false;
  return (
    <div className="flex flex-col gap-2">
      <div className="flex items-center gap-2 text-xs text-fg-muted">
        <span>
          {exited
            ? "The agent exited; this is its final screen."
            : "Live terminal: type here to answer the agent (permission prompts, questions)."}
        </span>
        {pane && <span className="font-mono">{pane.lifecycle}</span>}
        <Link href={`/panes/${t.paneId}`} className="ml-auto text-accent hover:underline">
          Open pane full screen
        </Link>
      </div>
      {error && <Alert>Could not attach to the terminal: {error}</Alert>}
      <div className="relative h-[60vh] min-h-80 overflow-hidden rounded-md border border-line bg-canvas">
        <div className="absolute inset-0 m-2">
          <PaneTerminal
            ref={termRef}
            paneId={t.paneId}
            onPane={setPane}
            onError={(e) => setError(e.message)}
            onReady={({ empty }) => {
              setError(null);
              setEmpty(empty);
            }}
          />
        </div>
        {exited && empty && (
          <p className="absolute inset-x-0 top-16 mx-auto w-fit rounded-md border border-line bg-canvas-subtle px-4 py-2 text-sm text-fg-muted">
            No screen to show: the pane printed nothing, or the server restarted since it ended.
          </p>
        )}
      </div>
    </div>
  );
}

function ChangesTab({
  task: t,
  diff,
}: {
  task: Task;
  diff: { data?: import("../../../lib/types").TaskDiff; isPending: boolean; error: { message: string } | null };
}) {
  const api = useApi();
  const [since, setSince] = useState(false);
  const sinceQ = useQuery({
    ...api.tasks.diffSince.queryOptions({ id: t.id, since: "last_review" }),
    enabled: since,
    retry: false,
  });
  const { actions, comments } = useCommentActions(t.id);
  if (!t.worktreePath)
    return (
      <p className="rounded-md border border-dashed border-line p-6 text-center text-sm text-fg-muted">
        No changes yet: the task has not started.
      </p>
    );
  const shown = since ? sinceQ : diff;
  return (
    <div className="flex flex-col gap-3">
      {t.round > 1 && (
        <div
          role="group"
          aria-label="Which changes"
          className="flex w-fit overflow-hidden rounded-md border border-line text-xs"
        >
          <button
            type="button"
            aria-pressed={!since}
            onClick={() => setSince(false)}
            className={`px-3 py-1 ${!since ? "bg-neutral-muted font-semibold" : "bg-btn hover:bg-btn-hover"}`}
          >
            All changes
          </button>
          <button
            type="button"
            aria-pressed={since}
            onClick={() => setSince(true)}
            className={`px-3 py-1 ${since ? "bg-neutral-muted font-semibold" : "bg-btn hover:bg-btn-hover"}`}
          >
            Changes since last review
          </button>
        </div>
      )}
      {diff.data?.source === "branch" && !since && (
        <p className="text-xs text-fg-muted">The worktree is gone; this is the committed work on the branch.</p>
      )}
      {shown.isPending ? (
        <Spinner label="Loading the diff…" />
      ) : shown.error ? (
        <Alert title="Could not load the diff">{shown.error.message}</Alert>
      ) : shown.data ? (
        <DiffView
          diff={shown.data.diff}
          files={shown.data.files}
          comments={since ? [] : comments.list.filter((c) => c.round === t.round)}
          actions={since ? null : actions}
          emptyText={since ? "No changes since the last review." : "No changes against the base yet."}
        />
      ) : null}
    </div>
  );
}

function Details({ task: t }: { task: Task }) {
  const rows: Array<[string, ReactNode]> = [
    ["State", STATE_WORDS[t.state] ?? t.state],
    ["Round", String(t.round)],
    ["Agent", t.agent],
    ["Branch", t.branch ? <span className="font-mono">{t.branch}</span> : "—"],
    ["Target", t.targetBranch ? <span className="font-mono">{t.targetBranch}</span> : "—"],
    [
      "Base",
      <span key="b" className="font-mono" title={t.baseSha ?? ""}>
        {short(t.baseSha)}
        {t.baseRef ? ` (${t.baseRef})` : ""}
      </span>,
    ],
    ["Worktree", t.worktreePath ? <span className="break-all font-mono text-[11px]">{t.worktreePath}</span> : "—"],
    [
      "Pane",
      t.paneId ? (
        <Link href={`/panes/${t.paneId}`} className="font-mono text-accent hover:underline">
          {t.paneId}
        </Link>
      ) : (
        "—"
      ),
    ],
  ];
  return (
    <Section title="Details" id="sec-details">
      <dl className="grid grid-cols-[5.5rem_1fr] gap-x-2 gap-y-1 text-xs">
        {rows.map(([k, v]) => (
          <div key={k} className="contents">
            <dt className="text-fg-muted">{k}</dt>
            <dd className="min-w-0">{v}</dd>
          </div>
        ))}
      </dl>
    </Section>
  );
}

function Contract({ task: t }: { task: Task }) {
  const c = t.contract;
  return (
    <Section title="Contract" id="sec-contract">
      <div className="flex flex-col gap-2 text-sm">
        <div>
          <div className="text-xs font-semibold">Objective</div>
          <pre className="mt-0.5 max-h-48 overflow-auto whitespace-pre-wrap font-mono text-xs">{c.objective}</pre>
        </div>
        {c.constraints.length > 0 && <List title="Constraints" items={c.constraints} />}
        {c.acceptanceCriteria.length > 0 && <List title="Acceptance criteria" items={c.acceptanceCriteria} />}
        {c.outputFormat && (
          <div>
            <div className="text-xs font-semibold">Expected output format</div>
            <p className="mt-0.5 whitespace-pre-wrap text-xs">{c.outputFormat}</p>
          </div>
        )}
      </div>
    </Section>
  );
}

function List({ title, items }: { title: string; items: string[] }) {
  return (
    <div>
      <div className="text-xs font-semibold">{title}</div>
      <ul className="mt-0.5 list-inside list-disc text-xs">
        {items.map((x, i) => (
          <li key={i}>{x}</li>
        ))}
      </ul>
    </div>
  );
}

function Result({ task: t }: { task: Task }) {
  const r = t.result;
  // A decomposed plan's result: the subtasks it became ({key, id, title}).
  const raw = (r?.evidence as { subtasks?: unknown } | null | undefined)?.subtasks;
  const subtasks = Array.isArray(raw)
    ? (raw as Array<{ id?: unknown; title?: unknown }>).filter(
        (s): s is { id: string; title: string } => typeof s.id === "string" && typeof s.title === "string",
      )
    : [];
  return (
    <Section title="Latest result" id="sec-result">
      {!r ? (
        <p className="text-xs text-fg-muted">
          {t.evidence ? "No report; see the evidence below." : "No report yet for this round."}
        </p>
      ) : (
        <div className="flex flex-col gap-2 text-sm" data-testid="task-result">
          <div className="flex items-center gap-2">
            <StateBadge state={r.status} size="sm" />
          </div>
          <p className="whitespace-pre-wrap">{r.summary}</p>
          {r.changedFiles.length > 0 && <List title="Changed files" items={r.changedFiles} />}
          {subtasks.length > 0 && (
            <div>
              <div className="text-xs font-semibold">Subtasks</div>
              <ul aria-label="Subtasks" className="mt-0.5 list-inside list-disc text-xs">
                {subtasks.map((s) => (
                  <li key={s.id}>
                    <Link href={`/tasks/${s.id}`} className="text-accent hover:underline">
                      {s.title}
                    </Link>
                  </li>
                ))}
              </ul>
            </div>
          )}
          {r.artifacts.filter((a) => !subtasks.some((s) => s.id === a)).length > 0 && (
            <List title="Artifacts" items={r.artifacts.filter((a) => !subtasks.some((s) => s.id === a))} />
          )}
          {r.evidence && <Evidence value={r.evidence} />}
        </div>
      )}
      {t.evidence && <Evidence value={t.evidence as Record<string, unknown>} title="Why it is here" />}
    </Section>
  );
}

function Evidence({ value, title = "Evidence" }: { value: Record<string, unknown>; title?: string }) {
  return (
    <details className="mt-1 text-xs">
      <summary className="cursor-pointer font-semibold">{title}</summary>
      <pre className="mt-1 max-h-48 overflow-auto rounded border border-line bg-canvas-subtle p-2 font-mono text-[11px]">
        {JSON.stringify(value, null, 2)}
      </pre>
    </details>
  );
}

const EVENT_WORDS: Record<string, (p: Record<string, unknown>) => string> = {
  "task.created": () => "Task created",
  "task.state": (p) =>
    `${STATE_WORDS[String(p.from)] ?? p.from} → ${STATE_WORDS[String(p.to)] ?? p.to}${p.cause ? ` (${String(p.cause).replace(/_/g, " ")})` : ""}`,
  "task.result": (p) => `Reported ${p.status}: ${String(p.summary ?? "").slice(0, 80)}`,
  "task.finished": (p) => (p.disposition === "merged" ? `Merged into ${p.target ?? "target"}` : "Discarded"),
  "task.merge_failed": (p) => `Merge refused: ${p.code}`,
  "task.cleanup": () => "Cleanup retried",
  "task.dependencies": (p) =>
    Array.isArray(p.removed)
      ? `Dependency removed: ${(p.removed as string[]).join(", ")}`
      : `Depends on ${((p.added as string[] | undefined) ?? []).join(", ")}`,
  "task.auto_started": () => "Started by itself: its dependencies were met",
  "task.auto_start_failed": (p) => `Could not start by itself: ${String(p.message ?? p.code ?? "")}`,
  "task.question": (p) => `The worker asked: ${String(p.text ?? "").slice(0, 80)}`,
  "task.answer": (p) => `Answered: ${String(p.text ?? "").slice(0, 80)}`,
  "task.acknowledged": () => "Result acknowledged",
  "task.worktree_registered": () => "Extra worktree registered",
  "task.plan": (p) =>
    p.state === "in_review"
      ? `Plan version ${p.version} submitted for review`
      : p.state === "changes_requested"
        ? `Changes requested to plan version ${p.version}`
        : p.state === "decomposed"
          ? `Plan version ${p.version} approved: subtasks created`
          : `Plan version ${p.version}: ${p.state}`,
  "task.agent_review": (p) =>
    `Agent review ${String(p.state ?? "").replace(/_/g, " ")}${p.reviewer ? ` (${p.reviewer})` : ""}`,
};

function Timeline({ task: t }: { task: Task }) {
  const { trpc } = useApi();
  const events = useQuery(trpc.tasks.events.queryOptions({ id: t.id }));
  const list = (events.data?.events ?? []).filter((e) => e.type in EVENT_WORDS || e.type.startsWith("review."));
  return (
    <Section title="Timeline" id="sec-timeline">
      {events.isPending ? (
        <Spinner />
      ) : events.isError ? (
        <p className="text-xs text-danger">{events.error.message}</p>
      ) : list.length === 0 ? (
        <p className="text-xs text-fg-muted">No events yet.</p>
      ) : (
        <ol className="relative flex flex-col gap-2 border-l border-line pl-3 text-xs">
          {list.map((e) => (
            <li key={e.seq} className="relative">
              <span
                aria-hidden
                className="absolute -left-[17px] top-1 h-2 w-2 rounded-full border border-canvas bg-fg-subtle"
              />
              <div>
                {(EVENT_WORDS[e.type] ?? ((p) => `${e.type}${p.round ? ` (round ${p.round})` : ""}`))(e.payload ?? {})}
              </div>
              <div className="text-fg-subtle" title={e.time}>
                {timeAgo(e.time)}
              </div>
            </li>
          ))}
        </ol>
      )}
    </Section>
  );
}

function FollowUp({ task: t }: { task: Task }) {
  const api = useApi();
  const qc = useQueryClient();
  const [text, setText] = useState("");
  const send = useMutation(
    api.tasks.followUp.mutationOptions({
      onSuccess: () => {
        setText("");
        void qc.invalidateQueries({ queryKey: api.trpc.tasks.get.queryKey({ id: t.id }) });
      },
    }),
  );
  return (
    <Section title="Follow-up prompt" id="sec-followup">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (text.trim()) send.mutate({ id: t.id, text });
        }}
        className="flex flex-col gap-2"
      >
        <label htmlFor="follow-up" className="text-xs text-fg-muted">
          The agent ended its turn without reporting. Tell it what to do next.
        </label>
        <textarea
          id="follow-up"
          aria-label="Follow-up prompt"
          rows={3}
          value={text}
          onChange={(e) => setText(e.target.value)}
          className="w-full rounded-md border border-line bg-canvas px-2 py-1.5 text-sm focus:border-accent focus:outline-none"
        />
        {send.error && (
          <Alert>
            {errorOf(send.error).code === "NOT_FOUND"
              ? "This server cannot send follow-ups yet; type in the Terminal tab instead."
              : errorOf(send.error).message}
          </Alert>
        )}
        <Button type="submit" variant="primary" disabled={!text.trim() || send.isPending} className="self-end">
          {send.isPending ? "Sending…" : "Send follow-up"}
        </Button>
      </form>
    </Section>
  );
}

function StartBacklog({ task: t }: { task: Task }) {
  const api = useApi();
  const qc = useQueryClient();
  const start = useMutation(
    api.tasks.startBacklog.mutationOptions({ onSuccess: () => void qc.invalidateQueries(api.trpc.tasks.pathFilter()) }),
  );
  return (
    <Section title="Backlog" id="sec-backlog">
      <p className="mb-2 text-xs text-fg-muted">
        Saved, not started. Starting creates its worktree and launches {t.agent}.
      </p>
      {start.error && <Alert>{errorOf(start.error).message}</Alert>}
      <Button variant="primary" onClick={() => start.mutate({ id: t.id })} disabled={start.isPending}>
        Start
      </Button>
    </Section>
  );
}

export default function Page() {
  return (
    <Suspense>
      <TaskPage />
    </Suspense>
  );
}
