"use client";
// Everything every page shares: the React Query cache and the typed tRPC client, the socket
// events that invalidate that cache (tasks, panes, reviews, worktrees), toasts (naming the task,
// linking to its page) and opt-in browser notifications for background outcomes, and the app-wide dialogs (new task, command palette,
// keyboard shortcuts) with their global shortcuts.
import { QueryClient, QueryClientProvider, useQueryClient } from "@tanstack/react-query";
import { usePathname, useRouter } from "next/navigation";
import { createContext, type ReactNode, useContext, useEffect, useMemo, useRef, useState } from "react";
import { kindOfState, notify } from "../lib/notify";
import { onEventsLive, subscribeEvents, type YardEvent } from "../lib/socket";
import { makeTrpcClient, TRPCProvider, useTRPC } from "../lib/trpc";
import type { BoardData } from "../lib/types";
import { CommandPalette } from "./CommandPalette";
import { NewTaskDialog } from "./NewTaskDialog";
import { ShortcutsDialog } from "./ShortcutsDialog";
import { ToastProvider, useToast } from "./Toasts";
import { STATE_WORDS } from "./ui";

interface UiState {
  openNewTask(projectId?: string | null): void;
  openPalette(): void;
  openShortcuts(): void;
  /** The project the board shows, so "New task" preselects it. */
  setCurrentProject(id: string | null): void;
}

const UiCtx = createContext<UiState>({
  openNewTask() {},
  openPalette() {},
  openShortcuts() {},
  setCurrentProject() {},
});
export const useUi = () => useContext(UiCtx);

function makeQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: {
        // Socket events keep the cache fresh; no refetch on every focus.
        staleTime: 30_000,
        refetchOnWindowFocus: false,
        retry: (n, e) =>
          n < 2 &&
          !/NOT_FOUND|BAD_REQUEST|FORBIDDEN|UNAUTHORIZED/.test(
            String((e as { data?: { code?: string } })?.data?.code ?? ""),
          ),
      },
    },
  });
}

export function Providers({ children }: { children: ReactNode }) {
  const [queryClient] = useState(makeQueryClient);
  const [trpcClient] = useState(makeTrpcClient);
  return (
    <QueryClientProvider client={queryClient}>
      <TRPCProvider trpcClient={trpcClient} queryClient={queryClient}>
        <ToastProvider>
          <AppShell>{children}</AppShell>
        </ToastProvider>
      </TRPCProvider>
    </QueryClientProvider>
  );
}

function isTyping(e: KeyboardEvent) {
  const t = e.target as HTMLElement | null;
  if (!t) return false;
  return t.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName) || !!t.closest(".xterm");
}

function AppShell({ children }: { children: ReactNode }) {
  const [newTask, setNewTask] = useState<{ open: boolean; projectId: string | null }>({ open: false, projectId: null });
  const [palette, setPalette] = useState(false);
  const [shortcuts, setShortcuts] = useState(false);
  // The board's project: state, not a ref, so a dialog opened before the board knew it (a click
  // while the project list loads) takes it as soon as it is known, instead of the first project.
  const [current, setCurrent] = useState<string | null>(null);
  const router = useRouter();

  const ui = useMemo<UiState>(
    () => ({
      openNewTask: (projectId) => setNewTask({ open: true, projectId: projectId ?? null }),
      openPalette: () => setPalette(true),
      openShortcuts: () => setShortcuts(true),
      setCurrentProject: (id) => setCurrent(id),
    }),
    [],
  );

  useEffect(() => {
    let pendingG = false;
    const onKey = (e: KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === "k") {
        e.preventDefault();
        setPalette((p) => !p);
        return;
      }
      if (e.ctrlKey || e.metaKey || e.altKey || isTyping(e) || document.querySelector("dialog[open]")) return;
      if (pendingG) {
        pendingG = false;
        if (e.key === "b") router.push("/");
        else if (e.key === "p") router.push("/panes");
        else if (e.key === "a") router.push("/agents");
        else if (e.key === "w") router.push("/worktrees");
        return;
      }
      if (e.key === "?") {
        e.preventDefault();
        setShortcuts(true);
      } else if (e.key === "n") {
        e.preventDefault();
        ui.openNewTask();
      } else if (e.key === "g") {
        pendingG = true;
        setTimeout(() => (pendingG = false), 1000);
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [router, ui]);

  return (
    <UiCtx.Provider value={ui}>
      <LiveCache />
      {children}
      <NewTaskDialog
        open={newTask.open}
        projectId={newTask.projectId ?? current}
        onClose={() => setNewTask((s) => ({ ...s, open: false }))}
      />
      <CommandPalette open={palette} onClose={() => setPalette(false)} />
      <ShortcutsDialog open={shortcuts} onClose={() => setShortcuts(false)} />
    </UiCtx.Provider>
  );
}

/**
 * Socket events → cache: task events invalidate the board, the task's own queries and the
 * attention list (a counted diff size only the board); pane events invalidate panes and attention
 * (a blocked pane moves its card).
 * Debounced so a burst of events costs one refetch per query. Once the subscriptions stream (the
 * first connection, a reconnect), what was read before them is refetched.
 */
function LiveCache() {
  const qc = useQueryClient();
  const trpc = useTRPC();
  const toast = useToast();
  const pathname = usePathname();
  const where = useRef(pathname);
  where.current = pathname;

  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | null = null;
    const dirty = new Set<string>();
    const tasks = new Set<string>();
    const flush = () => {
      timer = null;
      if (dirty.has("diff_stat") && !dirty.has("task")) void qc.invalidateQueries(trpc.board.pathFilter());
      if (dirty.has("task")) {
        void qc.invalidateQueries(trpc.board.pathFilter());
        void qc.invalidateQueries(trpc.tasks.list.pathFilter());
        for (const id of tasks) {
          void qc.invalidateQueries({ queryKey: trpc.tasks.get.queryKey({ id }) });
          void qc.invalidateQueries({ queryKey: trpc.tasks.events.queryKey({ id }) });
          void qc.invalidateQueries({
            predicate: (q) => JSON.stringify(q.queryKey).includes(id) && !JSON.stringify(q.queryKey).includes('"diff"'),
          });
        }
        // A dependency moved: the tasks waiting on it show its new state (and may start).
        const changed = new Set(tasks);
        void qc.invalidateQueries({
          ...trpc.tasks.get.pathFilter(),
          predicate: (q) =>
            !!(
              q.state.data as { waiting?: { dependencies: Array<{ id: string }> } | null } | undefined
            )?.waiting?.dependencies.some((d) => changed.has(d.id)),
        });
        void qc.invalidateQueries({ queryKey: [["reviews"]] });
        void qc.invalidateQueries(trpc.worktrees.list.pathFilter());
      }
      if (dirty.has("pane") || dirty.has("task")) {
        void qc.invalidateQueries(trpc.panes.pathFilter());
        if (dirty.has("blocked")) void qc.invalidateQueries(trpc.board.pathFilter());
      }
      dirty.clear();
      tasks.clear();
    };
    const soon = () => {
      if (!timer) timer = setTimeout(flush, 120);
    };
    const onTask = (e: YardEvent) => {
      // A task's diff size was counted: only the boards show it.
      if (e.type === "task.diff_stat") {
        dirty.add("diff_stat");
        return soon();
      }
      dirty.add("task");
      if (e.taskId) tasks.add(e.taskId);
      // The diff changes when the agent ends a turn or a round, a turn is reverted, the branch is updated or a runner task's work comes back changed; refetch it then (it is costly).
      if (
        e.taskId &&
        (e.type === "task.state" ||
          e.type === "task.result" ||
          e.type === "task.finished" ||
          e.type === "task.turn_reverted" ||
          e.type === "task.branch_update" ||
          e.type === "task.runner_synced")
      ) {
        void qc.invalidateQueries({ queryKey: trpc.tasks.diff.queryKey({ id: e.taskId }) });
      }
      if (e.type === "task.state" && e.taskId) void outcome(e);
      soon();
    };
    // A toast names its task: from the task's page or a board already read, else asked for (its id if that fails).
    const taskTitle = async (id: string): Promise<string> => {
      const cached = qc.getQueryData(trpc.tasks.get.queryKey({ id }))?.title;
      if (cached) return cached;
      for (const [, board] of qc.getQueriesData<BoardData>(trpc.board.get.pathFilter())) {
        const card =
          board &&
          Object.values(board)
            .flat()
            .find((c) => c.id === id);
        if (card) return card.title;
      }
      return qc
        .fetchQuery({ ...trpc.tasks.get.queryOptions({ id }), staleTime: 5_000 })
        .then((t) => t.title)
        .catch(() => id);
    };
    const onPane = (e: YardEvent) => {
      dirty.add("pane");
      if (e.type === "pane.lifecycle" || e.type === "pane.exit") dirty.add("blocked");
      if (e.taskId) tasks.add(e.taskId);
      soon();
    };
    const outcome = async (e: YardEvent) => {
      const to = String(e.payload?.to ?? "");
      const kind = kindOfState(to);
      if (!kind || !e.taskId) return;
      const href = `/tasks/${e.taskId}`;
      const title = await taskTitle(e.taskId);
      const words = STATE_WORDS[to] ?? to;
      if (where.current !== href)
        toast({
          tone: kind === "failed" ? "danger" : kind === "input" ? "attention" : "success",
          title: `${title}: ${words}`,
          href,
        });
      if (document.visibilityState !== "visible" || where.current !== href)
        notify(
          kind,
          `${title}: ${words}`,
          kind === "input"
            ? "The agent is waiting for you."
            : kind === "failed"
              ? "The task failed."
              : "Ready for review.",
          href,
        );
    };
    const offT = subscribeEvents("task.*", onTask);
    const offP = subscribeEvents("pane.*", onPane);
    // A worktree total was announced (it crossed the disk budget, or moved) or a clean-up ran.
    const offW = subscribeEvents("worktrees.*", () => void qc.invalidateQueries(trpc.worktrees.pathFilter()));
    const offR = subscribeEvents("review.*", () => {
      void qc.invalidateQueries({ queryKey: [["reviews"]] });
      dirty.add("task");
      soon();
    });
    // Streaming events (the first connection, or a reconnect): what was read or in flight before
    // may predate an event this page never got. Read after, it is current.
    const offC = onEventsLive(() => {
      const live = Date.now();
      void qc.invalidateQueries({
        predicate: (q) => q.state.fetchStatus === "fetching" || q.state.dataUpdatedAt < live,
      });
    });
    return () => {
      if (timer) clearTimeout(timer);
      offT();
      offP();
      offR();
      offW();
      offC();
    };
  }, [qc, trpc, toast]);
  return null;
}
