"use client";
// The board route: one project's board (or all projects'), filters by project, label, context
// and agent, search by title (all kept in the URL), "Add project", "Project settings" and the welcome state, and a
// "Graph" view of the shown tasks' dependencies (also in the URL: view=graph). Data
// comes from board.get through React Query; socket events keep it live (components/Providers).
import { useMutation, useQueries, useQuery, useQueryClient } from "@tanstack/react-query";
import { useSearchParams } from "next/navigation";
import { Suspense, useEffect, useMemo, useState } from "react";
import { AddProjectDialog } from "../components/AddProjectDialog";
import { ProjectSettingsDialog } from "../components/ProjectSettingsDialog";
import { BoardColumns, type Card, type Columns } from "../components/Board";
import { DependencyGraph } from "../components/DependencyGraph";
import { DiskBudgetBanner } from "../components/DiskBudgetBanner";
import { withTitles } from "../components/task/Orchestration";
import { useUi } from "../components/Providers";
import { useToast } from "../components/Toasts";
import { TopBar } from "../components/TopBar";
import { Alert, Button, fieldClass } from "../components/ui";
import { useApi } from "../lib/api";
import { replaceUrl } from "../lib/query-url";
import { errorOf } from "../lib/trpc";
import { COLUMNS } from "../server/wire/columns";

const LAST_PROJECT = "switchyard.project";
const ALL = "all";

function BoardPage() {
  const params = useSearchParams();
  const api = useApi();
  const { trpc } = api;
  const ui = useUi();
  const toast = useToast();
  const qc = useQueryClient();
  const [adding, setAdding] = useState(false);
  const [settings, setSettings] = useState(false);
  const [startError, setStartError] = useState<string | null>(null);

  const projects = useQuery(trpc.projects.list.queryOptions());
  const list = projects.data;
  const requested = params.get("project");
  const selectedId =
    requested === ALL
      ? ALL
      : (list?.find((p) => p.id === requested)?.id ??
        list?.find((p) => p.id === localGet(LAST_PROJECT))?.id ??
        list?.[0]?.id ??
        null);
  const selected = list?.find((p) => p.id === selectedId) ?? null;

  // Remember the chosen project, so a reload or a bare "/" shows the same board (choosing one puts
  // it in the URL). A URL naming a project that is not there is corrected; a bare "/" is left as it
  // is: writing the URL when the list arrives could land in the middle of a click on a link, and a
  // history write then cancels that navigation (seen as a click on Worktrees that stayed put).
  useEffect(() => {
    if (!selectedId) return;
    localStorage.setItem(LAST_PROJECT, selectedId);
    ui.setCurrentProject(selectedId === ALL ? null : selectedId);
    if (requested !== null && requested !== selectedId) {
      const next = new URLSearchParams(params.toString());
      next.set("project", selectedId);
      replaceUrl(`/?${next.toString()}`);
    }
  }, [selectedId, requested, params, ui]);

  useEffect(() => {
    document.title = `${selected ? selected.name : selectedId === ALL ? "All projects" : "Board"} · Switchyard`;
  }, [selected, selectedId]);

  const ids = selectedId === ALL ? (list ?? []).map((p) => p.id) : selectedId ? [selectedId] : [];
  const boards = useQueries({ queries: ids.map((id) => trpc.board.get.queryOptions({ projectId: id })) });
  const loaded = boards.length > 0 && boards.every((b) => b.data);
  const boardError = boards.find((b) => b.error)?.error;

  const filters = {
    label: params.get("label") ?? "",
    context: params.get("context") ?? "",
    agent: params.get("agent") ?? "",
    q: params.get("q") ?? "",
  };
  const setFilter = (k: keyof typeof filters, v: string) => {
    const next = new URLSearchParams(params.toString());
    if (v) next.set(k, v);
    else next.delete(k);
    replaceUrl(`/?${next.toString()}`);
  };

  const dataKey = boards.map((b) => b.dataUpdatedAt).join(",");
  // biome-ignore lint/correctness/useExhaustiveDependencies: recomputed when any board query returns new data (dataKey), not at every render
  const { columns, options, total } = useMemo(() => {
    if (!loaded) return { columns: null, options: { label: [], context: [], agent: [] }, total: 0 };
    const names = new Map((list ?? []).map((p) => [p.id, p.name]));
    const all = Object.fromEntries(COLUMNS.map((c) => [c, [] as Card[]])) as Columns;
    const label = new Set<string>();
    const context = new Set<string>();
    const agent = new Set<string>();
    let total = 0;
    const q = filters.q.trim().toLowerCase();
    boards.forEach((b, i) => {
      for (const c of COLUMNS) {
        for (const raw of b.data![c]) {
          const card = raw as Card;
          total++;
          if (card.label) label.add(card.label);
          if (card.contextId) context.add(card.contextId);
          agent.add(card.agent);
          if (filters.label && card.label !== filters.label) continue;
          if (filters.context && card.contextId !== filters.context) continue;
          if (filters.agent && card.agent !== filters.agent) continue;
          if (q && !card.title.toLowerCase().includes(q)) continue;
          all[c].push(
            selectedId === ALL
              ? { ...card, projectId: ids[i], projectName: names.get(ids[i]!) }
              : { ...card, projectId: ids[i] },
          );
        }
      }
    });
    if (selectedId === ALL)
      for (const c of COLUMNS) all[c].sort((a, b) => Date.parse(b.updatedAt) - Date.parse(a.updatedAt));
    const sorted = (s: Set<string>) => [...s].sort((a, b) => a.localeCompare(b));
    return { columns: all, options: { label: sorted(label), context: sorted(context), agent: sorted(agent) }, total };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [dataKey, loaded, filters.label, filters.context, filters.agent, filters.q, selectedId, list]);

  const startBacklog = useMutation(
    api.tasks.startBacklog.mutationOptions({
      onMutate: () => setStartError(null),
      onSuccess: () => {
        void qc.invalidateQueries(trpc.board.pathFilter());
        toast({ tone: "success", title: "Task started" });
      },
      onError: (e) => {
        const y = errorOf(e);
        setStartError(y.message);
        toast({
          tone: "danger",
          title: y.code === "RATE_LIMITED" ? "At the running-task cap" : "Could not start the task",
          body: y.message,
        });
      },
    }),
  );

  // Dropping a card onto a Backlog card (or its "Depends on…" dialog): the latter waits for it.
  const depend = useMutation(
    trpc.tasks.depend.mutationOptions({
      onSuccess: (r, vars) => {
        const title = (id: string) => columns && COLUMNS.flatMap((c) => columns[c]).find((x) => x.id === id)?.title;
        toast({
          tone: "success",
          title: r.started ? "Dependency met: the task started" : "Dependency added",
          body: `${title(vars.id) ?? vars.id} waits for ${title(vars.on) ?? vars.on}`,
        });
      },
      // The server names tasks by id (a cycle: "X → Y → X"); the toast says their titles.
      onError: (e) =>
        toast({
          tone: "danger",
          title: "Dependency refused",
          body: withTitles(errorOf(e).message, columns ? COLUMNS.flatMap((c) => columns[c]) : []),
        }),
      onSettled: () => {
        void qc.invalidateQueries(trpc.board.pathFilter());
        void qc.invalidateQueries(trpc.tasks.pathFilter());
      },
    }),
  );
  const graph = params.get("view") === "graph";
  const toggleGraph = () => {
    const next = new URLSearchParams(params.toString());
    if (graph) next.delete("view");
    else next.set("view", "graph");
    replaceUrl(`/?${next.toString()}`);
  };

  const select = (id: string) => {
    const next = new URLSearchParams();
    next.set("project", id);
    replaceUrl(`/?${next.toString()}`);
  };
  const filtered = filters.label || filters.context || filters.agent || filters.q;

  return (
    <div className="flex h-screen flex-col">
      <TopBar />
      <main className="flex min-h-0 flex-1 flex-col gap-3 px-4 py-3">
        {projects.isError && <Alert title="Could not load projects">{projects.error.message}</Alert>}
        <DiskBudgetBanner />
        {projects.isPending ? (
          <div className="grid flex-1 grid-cols-5 gap-3" aria-busy="true">
            <span className="sr-only">Loading…</span>
            {COLUMNS.map((c) => (
              <div key={c} className="animate-pulse rounded-lg border border-line bg-canvas-subtle" />
            ))}
          </div>
        ) : list && list.length === 0 ? (
          <>
            <div className="flex flex-wrap items-center gap-2">
              <h1 className="mr-2 text-lg font-semibold">Board</h1>
              <select aria-label="Project" disabled className={`${fieldClass} w-auto max-w-56 py-1`}>
                <option>No projects yet</option>
              </select>
              <Button onClick={() => setAdding(true)}>+ Add project</Button>
            </div>
            <div className="mx-auto mt-12 max-w-xl rounded-xl border border-line bg-canvas-subtle p-8 text-center">
              <h2 className="text-xl font-semibold">Welcome to Switchyard</h2>
              <p className="mt-2 text-sm text-fg-muted">
                Add a local git repository to get a board for it. Each task then runs an agent in its own worktree and
                branch, and you review its diff before it lands.
              </p>
              <Button variant="primary" className="mt-5" onClick={() => setAdding(true)}>
                Add your first project
              </Button>
            </div>
          </>
        ) : (
          <>
            <div className="flex flex-wrap items-center gap-2">
              <h1 className="mr-1 flex min-w-0 items-baseline gap-2 text-lg font-semibold">
                <span className="truncate">{selected ? selected.name : "All projects"}</span>
                {selected && (
                  <span className="hidden max-w-64 truncate font-mono text-xs font-normal text-fg-muted 2xl:inline">
                    {selected.path}
                  </span>
                )}
              </h1>
              <select
                aria-label="Project"
                value={selectedId ?? ""}
                onChange={(e) => select(e.target.value)}
                className={`${fieldClass} w-auto max-w-44 py-1`}
              >
                <option value={ALL}>All projects</option>
                {list?.map((p) => (
                  <option key={p.id} value={p.id} title={p.path}>
                    {p.name}
                  </option>
                ))}
              </select>
              <Button onClick={() => setAdding(true)}>+ Add project</Button>
              {selected && <Button onClick={() => setSettings(true)}>Project settings</Button>}
              <Button
                aria-pressed={graph}
                onClick={toggleGraph}
                title="Show the dependencies between the shown tasks"
                className={graph ? "bg-neutral-muted font-semibold" : ""}
              >
                Graph
              </Button>
              <div className="ml-auto flex flex-wrap items-center justify-end gap-2">
                <input
                  type="search"
                  aria-label="Search tasks"
                  placeholder="Search tasks by title"
                  value={filters.q}
                  onChange={(e) => setFilter("q", e.target.value)}
                  className={`${fieldClass} w-48 py-1`}
                />
                <FilterSelect
                  label="Label"
                  value={filters.label}
                  options={options.label}
                  onChange={(v) => setFilter("label", v)}
                />
                <FilterSelect
                  label="Context"
                  value={filters.context}
                  options={options.context}
                  onChange={(v) => setFilter("context", v)}
                />
                <FilterSelect
                  label="Agent"
                  value={filters.agent}
                  options={options.agent}
                  onChange={(v) => setFilter("agent", v)}
                />
                {filtered && (
                  <Button variant="invisible" size="sm" onClick={() => replaceUrl(`/?project=${selectedId}`)}>
                    Clear filters
                  </Button>
                )}
              </div>
            </div>
            {boardError && <Alert title="Could not load the board">{boardError.message}</Alert>}
            {startError && (
              <Alert title="The task was not started" onDismiss={() => setStartError(null)}>
                {startError}
              </Alert>
            )}
            {loaded && total === 0 && (
              <div className="flex items-center gap-3 rounded-md border border-dashed border-line px-4 py-3 text-sm text-fg-muted">
                <span className="flex-1">
                  No tasks in this project yet. Start one with New task (press n), or from a terminal with{" "}
                  <code className="rounded bg-neutral-muted px-1.5 py-0.5 font-mono text-xs">yard task start</code>.
                </span>
                <Button
                  variant="primary"
                  size="sm"
                  onClick={() => ui.openNewTask(selectedId === ALL ? null : selectedId)}
                >
                  New task
                </Button>
              </div>
            )}
            {loaded && total > 0 && filtered && columns && COLUMNS.every((c) => columns[c].length === 0) && (
              <p className="text-sm text-fg-muted">No task matches these filters.</p>
            )}
            {graph ? (
              <DependencyGraph
                cards={columns ? COLUMNS.flatMap((c) => columns[c]) : null}
                scope={filters.context ? `context ${filters.context}` : selected ? selected.name : "all projects"}
              />
            ) : (
              <BoardColumns
                columns={columns}
                onStart={(id) => startBacklog.mutate({ id })}
                startingId={startBacklog.isPending ? (startBacklog.variables?.id ?? null) : null}
                onDepend={(id, on) => depend.mutate({ id, on })}
                doneHref={selectedId && selectedId !== ALL ? `/done?project=${selectedId}` : "/done"}
              />
            )}
          </>
        )}
      </main>
      <AddProjectDialog open={adding} onClose={() => setAdding(false)} onAdded={(p) => select(p.id)} />
      {selected && <ProjectSettingsDialog project={selected} open={settings} onClose={() => setSettings(false)} />}
    </div>
  );
}

function FilterSelect({
  label,
  value,
  options,
  onChange,
}: {
  label: string;
  value: string;
  options: string[];
  onChange: (v: string) => void;
}) {
  return (
    <select
      aria-label={`Filter by ${label.toLowerCase()}`}
      value={value}
      onChange={(e) => onChange(e.target.value)}
      className={`${fieldClass} w-auto max-w-36 py-1`}
    >
      <option value="">{label}: any</option>
      {value && !options.includes(value) && <option value={value}>{value}</option>}
      {options.map((o) => (
        <option key={o} value={o}>
          {o}
        </option>
      ))}
    </select>
  );
}

function localGet(key: string): string | null {
  return typeof localStorage === "undefined" ? null : localStorage.getItem(key);
}

export default function Page() {
  return (
    <Suspense>
      <BoardPage />
    </Suspense>
  );
}
