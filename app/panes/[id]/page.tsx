"use client";
// /panes/<id>: one live terminal, full height, with its label or command, lifecycle, cwd, pid and
// a Kill button. Keystrokes go to the pane; the screen survives reloads and reconnects.
import Link from "next/link";
import { useParams } from "next/navigation";
import { useCallback, useEffect, useRef, useState } from "react";
import { commandLine, LifecycleBadge, type PaneInfo, paneTitle } from "../../../components/PaneList";
import { PaneTerminal, type TerminalHandle } from "../../../components/Terminal";
import { TopBar } from "../../../components/TopBar";
import { onConnectionChange } from "../../../lib/socket";
import { errorOf, trpc } from "../../../lib/trpc";

type Missing = { code: string; message: string };

export default function PanePage() {
  const params = useParams<{ id: string }>();
  const id = decodeURIComponent(String(params?.id ?? ""));
  const [pane, setPane] = useState<PaneInfo | null>(null);
  const [missing, setMissing] = useState<Missing | null>(null);
  const [attachError, setAttachError] = useState<string | null>(null);
  const [connected, setConnected] = useState(true);
  const [confirmKill, setConfirmKill] = useState(false);
  const [killError, setKillError] = useState<string | null>(null);
  const [killing, setKilling] = useState(false);
  const [noScreen, setNoScreen] = useState(false);
  const termRef = useRef<TerminalHandle>(null);

  useEffect(() => {
    let live = true;
    setPane(null);
    setMissing(null);
    trpc.panes.get
      .query({ id })
      .then((p) => live && setPane(p))
      .catch((e) => {
        if (!live) return;
        const y = errorOf(e);
        setMissing({ code: y.code, message: y.code === "BAD_PARAMS" ? `“${id}” is not a pane id.` : y.message });
      });
    return () => {
      live = false;
    };
  }, [id]);

  useEffect(() => {
    let wasUp = false;
    return onConnectionChange((up) => {
      if (up) wasUp = true;
      setConnected(up || !wasUp);
    });
  }, []);

  // Looking at a pane whose turn just ended counts as seeing it.
  const lifecycle = pane?.lifecycle;
  useEffect(() => {
    if (lifecycle !== "done" || document.visibilityState !== "visible") return;
    trpc.panes.markSeen.mutate({ id }).catch(() => {});
  }, [lifecycle, id]);

  useEffect(() => {
    if (pane) document.title = `${paneTitle(pane)} · Switchyard`;
  }, [pane?.label, pane?.argv.join(" ")]);

  const onPane = useCallback((p: PaneInfo) => setPane(p), []);
  const onError = useCallback((e: { message: string }) => setAttachError(e.message), []);

  async function kill() {
    setKilling(true);
    setKillError(null);
    try {
      setPane(await trpc.panes.kill.mutate({ id }));
      setConfirmKill(false);
    } catch (e) {
      setKillError(errorOf(e).message);
    } finally {
      setKilling(false);
      termRef.current?.focus();
    }
  }

  if (missing) {
    return (
      <div className="flex min-h-screen flex-col">
        <TopBar projects={[]} selectedId={null} />
        <main className="mx-auto mt-16 w-full max-w-xl p-4">
          <div role="alert" className="rounded-lg border border-gray-200 p-8 text-center dark:border-gray-800">
            <h1 className="text-lg font-semibold">{missing.code === "NOT_FOUND" || missing.code === "BAD_PARAMS" ? "No such pane" : "Could not open this pane"}</h1>
            <p className="mt-2 text-sm text-gray-600 dark:text-gray-400">{missing.message}</p>
            <Link href="/panes" className="mt-4 inline-block rounded-md border border-gray-300 px-3 py-1.5 text-sm hover:bg-gray-100 dark:border-gray-700 dark:hover:bg-gray-800">
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
      <TopBar projects={[]} selectedId={null} />
      <header className="flex flex-wrap items-center gap-x-3 gap-y-1 border-b border-gray-200 px-4 py-2 dark:border-gray-800">
        <Link href="/panes" className="text-sm text-gray-600 hover:text-blue-700 hover:underline dark:text-gray-400 dark:hover:text-blue-400">
          ← Panes
        </Link>
        {pane ? (
          <>
            <h1 className="min-w-0 max-w-[50vw] truncate text-base font-semibold" title={commandLine(pane.argv)}>
              {paneTitle(pane)}
            </h1>
            <LifecycleBadge pane={pane} />
            <dl className="flex min-w-0 flex-wrap items-center gap-x-3 text-xs text-gray-600 dark:text-gray-400">
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
              <span role="status" className="rounded-full bg-yellow-100 px-2 py-0.5 text-xs text-yellow-900 dark:bg-yellow-900/40 dark:text-yellow-200">
                Reconnecting…
              </span>
            )}
            <div className="ml-auto flex items-center gap-2">
              {killError && (
                <span role="alert" className="text-xs text-red-600 dark:text-red-400">
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
                      className="rounded-md border border-gray-300 px-3 py-1 text-sm hover:bg-gray-100 dark:border-gray-700 dark:hover:bg-gray-800"
                    >
                      Cancel
                    </button>
                  </>
                ) : (
                  <button
                    type="button"
                    onClick={() => setConfirmKill(true)}
                    className="rounded-md border border-gray-300 px-3 py-1 text-sm font-medium text-red-700 hover:border-red-600 hover:bg-red-600 hover:text-white dark:border-gray-700 dark:text-red-400 dark:hover:border-red-600 dark:hover:bg-red-700 dark:hover:text-white"
                  >
                    Kill
                  </button>
                ))}
            </div>
          </>
        ) : (
          <span className="text-sm text-gray-500">Loading…</span>
        )}
      </header>
      {attachError && (
        <div role="alert" className="border-b border-red-300 bg-red-50 px-4 py-2 text-sm text-red-800 dark:border-red-800 dark:bg-red-950 dark:text-red-200">
          Could not attach to the terminal: {attachError}
        </div>
      )}
      <div className="relative min-h-0 flex-1 bg-white dark:bg-[#0d1117]">
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
          <p className="absolute inset-x-0 top-16 mx-auto w-fit rounded-md border border-gray-200 bg-gray-50 px-4 py-2 text-sm text-gray-600 dark:border-gray-700 dark:bg-[#161b22] dark:text-gray-400">
            No screen to show: the pane printed nothing, or the server restarted since it ended.
          </p>
        )}
      </div>
    </div>
  );
}
