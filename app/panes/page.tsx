"use client";
// /panes: every terminal the server runs or ran, what needs the user, and a form to start one.
// Live: refetched (debounced) on every pane/task event and after a reconnect.
import { useRouter } from "next/navigation";
import { useCallback, useEffect, useState } from "react";
import { type AttentionItem, AttentionStrip, type PaneInfo, PaneTable } from "../../components/PaneList";
import { SpawnPaneForm } from "../../components/SpawnPaneForm";
import { TopBar } from "../../components/TopBar";
import { onConnectionChange, subscribeEvents } from "../../lib/socket";
import { errorOf, trpc } from "../../lib/trpc";

export default function PanesPage() {
  const router = useRouter();
  const [panes, setPanes] = useState<PaneInfo[] | null>(null);
  const [attention, setAttention] = useState<AttentionItem[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [showExited, setShowExited] = useState(true);

  const load = useCallback(async () => {
    try {
      const [list, att] = await Promise.all([trpc.panes.list.query(), trpc.panes.attention.query()]);
      setPanes(list);
      setAttention(att.items);
      setError(null);
    } catch (e) {
      setError(errorOf(e).message);
    }
  }, []);

  useEffect(() => {
    document.title = "Panes · Switchyard";
  }, []);

  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | null = null;
    const soon = () => {
      if (timer) clearTimeout(timer);
      timer = setTimeout(() => void load(), 150);
    };
    const offPane = subscribeEvents("pane.*", soon);
    const offTask = subscribeEvents("task.*", soon);
    const offConn = onConnectionChange((up) => up && soon());
    void load();
    return () => {
      if (timer) clearTimeout(timer);
      offPane();
      offTask();
      offConn();
    };
  }, [load]);

  const running = panes?.filter((p) => p.live).length ?? 0;
  const exited = (panes?.length ?? 0) - running;
  const shown = panes?.filter((p) => showExited || p.live) ?? [];

  return (
    <div className="flex min-h-screen flex-col">
      <TopBar projects={[]} selectedId={null} />
      <main className="mx-auto flex w-full max-w-7xl flex-1 flex-col gap-4 p-4">
        <div className="flex flex-wrap items-baseline gap-3">
          <h1 className="text-lg font-semibold">Panes</h1>
          {panes && (
            <span className="text-sm text-gray-600 dark:text-gray-400">
              {running} running · {exited} exited
            </span>
          )}
        </div>

        {error && (
          <div role="alert" className="rounded-md border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-800 dark:border-red-800 dark:bg-red-950 dark:text-red-200">
            {error}
          </div>
        )}

        <AttentionStrip items={attention} panes={panes ?? []} />

        <div className="grid grid-cols-1 items-start gap-4 lg:grid-cols-[minmax(0,1fr)_22rem]">
          <section aria-label="All panes" className="flex min-w-0 flex-col gap-2">
            {panes === null ? (
              <p className="text-sm text-gray-500">Loading…</p>
            ) : panes.length === 0 ? (
              <div className="rounded-md border border-dashed border-gray-300 p-8 text-center dark:border-gray-700">
                <h2 className="font-semibold">No panes yet</h2>
                <p className="mx-auto mt-2 max-w-md text-sm text-gray-600 dark:text-gray-400">
                  A pane is a real terminal running an agent or any command. Start a shell or the demo agent to try it: pick a profile, give it a directory, press Start.
                </p>
                <p className="mt-3 text-xs text-gray-500 dark:text-gray-400">
                  From a terminal:{" "}
                  <code className="rounded bg-gray-100 px-1.5 py-0.5 font-mono dark:bg-gray-800">yard pane spawn --agent demo --cwd "$PWD"</code>
                </p>
              </div>
            ) : (
              <>
                {exited > 0 && (
                  <label className="flex items-center gap-2 self-end text-xs text-gray-600 dark:text-gray-400">
                    <input type="checkbox" checked={showExited} onChange={(e) => setShowExited(e.target.checked)} />
                    Show exited panes
                  </label>
                )}
                {shown.length > 0 ? (
                  <PaneTable panes={shown} />
                ) : (
                  <p className="rounded-md border border-dashed border-gray-300 p-4 text-sm text-gray-600 dark:border-gray-700 dark:text-gray-400">No running panes.</p>
                )}
              </>
            )}
          </section>
          <SpawnPaneForm onSpawned={(p) => router.push(`/panes/${p.id}`)} />
        </div>
      </main>
    </div>
  );
}
