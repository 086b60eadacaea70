"use client";
// /panes: every terminal the server runs or ran, what needs the user, and a form to start one.
// Live through React Query: socket events invalidate the panes and attention queries.
import { useQuery } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useEffect, useState } from "react";
import { AttentionStrip, PaneTable } from "../../components/PaneList";
import { SpawnPaneForm } from "../../components/SpawnPaneForm";
import { TopBar } from "../../components/TopBar";
import { Alert, Spinner } from "../../components/ui";
import { useTRPC } from "../../lib/trpc";

export default function PanesPage() {
  const router = useRouter();
  const trpc = useTRPC();
  const panesQ = useQuery(trpc.panes.list.queryOptions());
  const attentionQ = useQuery(trpc.panes.attention.queryOptions());
  const [showExited, setShowExited] = useState(true);
  const panes = panesQ.data ?? null;
  const error = panesQ.error ?? attentionQ.error;

  useEffect(() => {
    document.title = "Panes · Switchyard";
  }, []);

  const running = panes?.filter((p) => p.live).length ?? 0;
  const exited = (panes?.length ?? 0) - running;
  const shown = panes?.filter((p) => showExited || p.live) ?? [];

  return (
    <div className="flex min-h-screen flex-col">
      <TopBar />
      <main className="mx-auto flex w-full max-w-7xl flex-1 flex-col gap-4 p-4">
        <div className="flex flex-wrap items-baseline gap-3">
          <h1 className="text-lg font-semibold">Panes</h1>
          {panes && (
            <span className="text-sm text-fg-muted">
              {running} running · {exited} exited
            </span>
          )}
        </div>

        {error && <Alert>{error.message}</Alert>}

        <AttentionStrip items={attentionQ.data?.items ?? []} panes={panes ?? []} />

        <div className="grid grid-cols-1 items-start gap-4 lg:grid-cols-[minmax(0,1fr)_22rem]">
          <section aria-label="All panes" className="flex min-w-0 flex-col gap-2">
            {panes === null ? (
              <Spinner />
            ) : panes.length === 0 ? (
              <div className="rounded-md border border-dashed border-line p-8 text-center">
                <h2 className="font-semibold">No panes yet</h2>
                <p className="mx-auto mt-2 max-w-md text-sm text-fg-muted">
                  A pane is a real terminal running an agent or any command. Start a shell or the demo agent to try it:
                  pick a profile, give it a directory, press Start.
                </p>
                <p className="mt-3 text-xs text-fg-muted">
                  From a terminal:{" "}
                  <code className="rounded bg-neutral-muted px-1.5 py-0.5 font-mono">
                    yard pane spawn --agent demo --cwd "$PWD"
                  </code>
                </p>
              </div>
            ) : (
              <>
                {exited > 0 && (
                  <label className="flex items-center gap-2 self-end text-xs text-fg-muted">
                    <input type="checkbox" checked={showExited} onChange={(e) => setShowExited(e.target.checked)} />
                    Show exited panes
                  </label>
                )}
                {shown.length > 0 ? (
                  <PaneTable panes={shown} />
                ) : (
                  <p className="rounded-md border border-dashed border-line p-4 text-sm text-fg-muted">
                    No running panes.
                  </p>
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
