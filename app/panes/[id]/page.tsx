"use client";
// /panes/<id>: one live terminal, full height, with its label or command, lifecycle, cwd, pid and
// a Kill button. Keystrokes go to the pane; the screen survives reloads and reconnects.
import Link from "next/link";
import { useParams } from "next/navigation";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useRef, useState } from "react";
import { commandLine, LifecycleBadge, type PaneInfo, paneTitle } from "../../../components/PaneList";
import { PaneTerminal, type TerminalHandle } from "../../../components/Terminal";
import { TopBar } from "../../../components/TopBar";
import { onConnectionChange } from "../../../lib/socket";
import { errorOf, useTRPC } from "../../../lib/trpc";

type Missing = { code: string; message: string };

export default function PanePage() {
  const params = useParams<{ id: string }>();
  const id = decodeURIComponent(String(params?.id ?? ""));
  const trpc = useTRPC();
  const qc = useQueryClient();
  const paneQ = useQuery({ ...trpc.panes.get.queryOptions({ id }), retry: false });
  const [live, setLive] = useState<PaneInfo | null>(null);
  // The terminal's own updates (attach reply, lifecycle, exit) are fresher than the query.
  const pane: PaneInfo | null = live ?? paneQ.data ?? null;
  const setPane = setLive;
  const missing: Missing | null = paneQ.error
    ? (() => {
        const y = errorOf(paneQ.error);
        return { code: y.code, message: y.code === "BAD_PARAMS" ? `“${id}” is not a pane id.` : y.message };
      })()
    : null;
  const [attachError, setAttachError] = useState<string | null>(null);
  const [connected, setConnected] = useState(true);
  const [confirmKill, setConfirmKill] = useState(false);
  const killM = useMutation(trpc.panes.kill.mutationOptions());
  const seenM = useMutation(trpc.panes.markSeen.mutationOptions());
  const killError = killM.error ? errorOf(killM.error).message : null;
  const killing = killM.isPending;
  const [noScreen, setNoScreen] = useState(false);
  const termRef = useRef<TerminalHandle>(null);

  // biome-ignore lint/correctness/useExhaustiveDependencies: the live state resets when the page shows another pane
  useEffect(() => setLive(null), [id]);

  useEffect(() => {
    let wasUp = false;
    return onConnectionChange((up) => {
      if (up) wasUp = true;
      setConnected(up || !wasUp);
    });
  }, []);

  // Looking at a pane whose turn just ended counts as seeing it.
  const lifecycle = pane?.lifecycle;
  // biome-ignore lint/correctness/useExhaustiveDependencies: marks the pane seen when its turn ends, not when the mutation object changes
  useEffect(() => {
    if (lifecycle !== "done" || document.visibilityState !== "visible") return;
    seenM.mutate({ id }, { onSuccess: () => void qc.invalidateQueries(trpc.panes.attention.pathFilter()) });
  }, [lifecycle, id]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: the title follows what it shows (label and command), not every pane update
  useEffect(() => {
    if (pane) document.title = `${paneTitle(pane)} · Switchyard`;
  }, [pane?.label, pane?.argv.join(" ")]);

  const onPane = useCallback((p: PaneInfo) => setPane(p), []);
  const onError = useCallback((e: { message: string }) => setAttachError(e.message), []);

  async function kill() {
    try {
      setPane(await killM.mutateAsync({ id }));
      setConfirmKill(false);
    } catch {
      /* shown from killM.error */
    } finally {
      termRef.current?.focus();
    }
  }

  if (missing) {
    return (
      <div className="flex min-h-screen flex-col">
        <TopBar />
        <main className="mx-auto mt-16 w-full max-w-xl p-4">
          <div role="alert" className="rounded-lg border border-line p-8 text-center">
            <h1 className="text-lg font-semibold">
              {missing.code === "NOT_FOUND" || missing.code === "BAD_PARAMS"
                ? "No such pane"
                : "Could not open this pane"}
            </h1>
            <p className="mt-2 text-sm text-fg-muted">{missing.message}</p>
            <Link
              href="/panes"
              className="mt-4 inline-block rounded-md border border-line bg-btn px-3 py-1.5 text-sm hover:bg-btn-hover"
            >
              ← All panes
            </Link>
          </div>
        </main>
      </div>
    );
  }

  const exited = pane?.lifecycle === "exited" || pane?.live === false;

  return (
    <div className="flex h-screen flex-col overflow-hidden">
      <TopBar />
      <header className="flex flex-wrap items-center gap-x-3 gap-y-1 border-b border-line px-4 py-2">
        <Link href="/panes" className="text-sm text-fg-muted hover:text-accent hover:underline">
          ← Panes
        </Link>
        {pane ? (
          <>
            <h1 className="min-w-0 max-w-[50vw] truncate text-base font-semibold" title={commandLine(pane.argv)}>
              {paneTitle(pane)}
            </h1>
            <LifecycleBadge pane={pane} />
            <dl className="flex min-w-0 flex-wrap items-center gap-x-3 text-xs text-fg-muted">
              {pane.label && (
                <div className="flex min-w-0 gap-1">
                  <dt className="sr-only">Command</dt>
                  <dd className="max-w-[24rem] truncate font-mono" title={commandLine(pane.argv)}>
                    {commandLine(pane.argv)}
                  </dd>
                </div>
              )}
              <div className="flex min-w-0 gap-1">
                <dt>cwd</dt>
                <dd className="max-w-[24rem] truncate font-mono" title={pane.cwd} data-testid="pane-cwd">
                  {pane.cwd}
                </dd>
              </div>
              {pane.pid !== null && !exited && (
                <div className="flex gap-1">
                  <dt>pid</dt>
                  <dd className="font-mono" data-testid="pane-pid">
                    {pane.pid}
                  </dd>
                </div>
              )}
              <div className="flex gap-1">
                <dt className="sr-only">Id</dt>
                <dd className="font-mono">{pane.id}</dd>
              </div>
            </dl>
            {!connected && (
              <span
                role="status"
                className="rounded-full bg-yellow-100 px-2 py-0.5 text-xs text-yellow-900 dark:bg-yellow-900/40 dark:text-yellow-200"
              >
                Reconnecting…
              </span>
            )}
            <div className="ml-auto flex items-center gap-2">
              {killError && (
                <span role="alert" className="text-xs text-danger">
                  {killError}
                </span>
              )}
              {!exited &&
                (confirmKill ? (
                  <>
                    <span className="text-sm">Kill this process?</span>
                    <button
                      type="button"
                      onClick={() => void kill()}
                      disabled={killing}
                      autoFocus
                      className="rounded-md bg-red-700 px-3 py-1 text-sm font-medium text-white hover:bg-red-800 focus:outline-none focus-visible:ring-2 focus-visible:ring-red-500 focus-visible:ring-offset-1 disabled:opacity-50"
                    >
                      {killing ? "Killing…" : "Yes, kill"}
                    </button>
                    <button
                      type="button"
                      onClick={() => {
                        setConfirmKill(false);
                        termRef.current?.focus();
                      }}
                      className="rounded-md border border-line bg-btn px-3 py-1 text-sm hover:bg-btn-hover"
                    >
                      Cancel
                    </button>
                  </>
                ) : (
                  <button
                    type="button"
                    onClick={() => setConfirmKill(true)}
                    className="rounded-md border border-line bg-btn px-3 py-1 text-sm font-medium text-danger hover:border-danger hover:bg-danger hover:text-white"
                  >
                    Kill
                  </button>
                ))}
            </div>
          </>
        ) : (
          <span className="text-sm text-fg-muted">Loading…</span>
        )}
      </header>
      {attachError && (
        <div role="alert" className="border-b border-danger/40 bg-danger-muted px-4 py-2 text-sm text-fg">
          Could not attach to the terminal: {attachError}
        </div>
      )}
      <div className="relative min-h-0 flex-1 bg-canvas">
        {pane && (
          <div className="absolute inset-0 mx-2 mb-1 mt-2">
            <PaneTerminal
              ref={termRef}
              paneId={pane.id}
              onPane={onPane}
              onError={onError}
              onReady={({ empty }) => {
                setAttachError(null);
                setNoScreen(empty);
              }}
            />
          </div>
        )}
        {pane && exited && noScreen && (
          <p className="absolute inset-x-0 top-16 mx-auto w-fit rounded-md border border-line bg-canvas-subtle px-4 py-2 text-sm text-fg-muted">
            No screen to show: the pane printed nothing, or the server restarted since it ended.
          </p>
        )}
      </div>
    </div>
  );
}
