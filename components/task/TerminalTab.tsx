"use client";
// The task page's Terminal tab: the task's live pane (typeable: permission prompts, questions),
// or its final screen once the agent exited, with a link to the pane's own page.
import Link from "next/link";
import { useEffect, useRef, useState } from "react";
import type { PaneInfo } from "../../lib/socket";
import type { Task } from "../../lib/types";
import { PaneTerminal, type TerminalHandle } from "../Terminal";
import { Alert } from "../ui";

export function TerminalTab({ task: t, visible }: { task: Task; visible: boolean }) {
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
