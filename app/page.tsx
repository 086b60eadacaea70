"use client";
// The board route: pick a project (remembered in the URL and locally), see its columns,
// add a project through the dialog.
import { useRouter, useSearchParams } from "next/navigation";
import { Suspense, useCallback, useEffect, useState } from "react";
import { AddProjectDialog } from "../components/AddProjectDialog";
import { BoardColumns } from "../components/Board";
import { type ProjectOption, TopBar } from "../components/TopBar";
import { subscribeEvents } from "../lib/socket";
import { errorOf, trpc } from "../lib/trpc";
import type { Board } from "../server/core/tasks/board";

const LAST_PROJECT = "switchyard.project";

function BoardPage() {
  const router = useRouter();
  const params = useSearchParams();
  const [projects, setProjects] = useState<ProjectOption[] | null>(null);
  const [board, setBoard] = useState<Board | null>(null);
  const [adding, setAdding] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const requested = params.get("project");
  const selected = projects?.find((p) => p.id === requested) ?? projects?.find((p) => p.id === localStorageGet(LAST_PROJECT)) ?? projects?.[0] ?? null;

  const loadProjects = useCallback(async () => {
    try {
      setProjects(await trpc.projects.list.query());
    } catch (e) {
      setError(errorOf(e).message);
    }
  }, []);

  useEffect(() => {
    void loadProjects();
  }, [loadProjects]);

  useEffect(() => {
    if (!selected) return;
    localStorage.setItem(LAST_PROJECT, selected.id);
    let live = true;
    let timer: ReturnType<typeof setTimeout> | null = null;
    setBoard(null);
    const load = () =>
      trpc.board.get
        .query({ projectId: selected.id })
        .then((b) => live && setBoard(b))
        .catch((e) => live && setError(errorOf(e).message));
    // Cards move as tasks and their panes change: refetch (debounced) on every such event.
    const soon = () => {
      if (timer) clearTimeout(timer);
      timer = setTimeout(() => void load(), 150);
    };
    const offTask = subscribeEvents("task.*", soon);
    const offPane = subscribeEvents("pane.lifecycle", soon);
    void load();
    return () => {
      live = false;
      if (timer) clearTimeout(timer);
      offTask();
      offPane();
    };
  }, [selected?.id]);

  const select = (id: string) => router.replace(`/?project=${encodeURIComponent(id)}`);

  return (
    <div className="flex min-h-screen flex-col">
      <TopBar projects={projects ?? []} selectedId={selected?.id ?? null} onSelect={select} onAddProject={() => setAdding(true)} />
      <main className="flex-1 p-4">
        {error && (
          <div role="alert" className="mb-3 rounded-md border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-800 dark:border-red-800 dark:bg-red-950 dark:text-red-200">
            {error}
          </div>
        )}
        {projects === null ? (
          <p className="text-sm text-gray-500">Loading…</p>
        ) : projects.length === 0 ? (
          <div className="mx-auto mt-16 max-w-xl rounded-lg border border-gray-200 p-8 text-center dark:border-gray-800">
            <h1 className="text-xl font-semibold">Welcome to Switchyard</h1>
            <p className="mt-2 text-sm text-gray-600 dark:text-gray-400">
              Add a local git repository to get a board for it. Each task then runs an agent in its own worktree and branch, and you review its diff before it lands.
            </p>
            <button type="button" onClick={() => setAdding(true)} className="mt-4 rounded-md bg-green-700 px-4 py-2 text-sm font-medium text-white hover:bg-green-800">
              Add your first project
            </button>
          </div>
        ) : selected ? (
          <>
            <h1 className="mb-3 flex items-baseline gap-2 text-lg font-semibold">
              {selected.name}
              <span className="font-mono text-xs font-normal text-gray-500 dark:text-gray-400">{selected.path}</span>
            </h1>
            <BoardColumns board={board} projectId={selected.id} />
          </>
        ) : null}
      </main>
      <AddProjectDialog
        open={adding}
        onClose={() => setAdding(false)}
        onAdded={(p) => {
          void loadProjects();
          select(p.id);
        }}
      />
    </div>
  );
}

function localStorageGet(key: string): string | null {
  return typeof localStorage === "undefined" ? null : localStorage.getItem(key);
}

export default function Page() {
  return (
    <Suspense>
      <BoardPage />
    </Suspense>
  );
}
