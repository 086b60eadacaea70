"use client";
// The outcome of "Try it": agents.tryStatus polled until the trial settles (ready, or the pane
// exited; at a start-up dialog it keeps polling slowly, since the user may answer it in the pane).
// Shows ready (and after how long), the dialog it stopped at with its text, or how it exited, and
// the rendered screen, with a link to the pane and a Stop button (polling resumes until it exited).
import { useMutation, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { errorOf, useTRPC } from "../../lib/trpc";
import { Alert, Button, Spinner } from "../ui";

export interface Trial {
  profileId: string;
  paneId: string;
}

export function TrialPanel({ trial, onClose }: { trial: Trial; onClose: () => void }) {
  const trpc = useTRPC();
  const [stopping, setStopping] = useState(false);
  const status = useQuery({
    ...trpc.agents.tryStatus.queryOptions({ paneId: trial.paneId }),
    retry: false,
    refetchInterval: (q) => {
      const s = q.state.data;
      if (q.state.error || s?.exited) return false;
      if (stopping) return 300;
      if (s?.ready) return false;
      return s?.dialog ? 1500 : 400;
    },
  });
  const kill = useMutation(
    trpc.panes.kill.mutationOptions({
      onMutate: () => setStopping(true),
      onSuccess: () => void status.refetch(),
      onError: () => setStopping(false),
    }),
  );
  const s = status.data;
  const headingId = `trial-${trial.paneId}`;
  return (
    <section
      aria-labelledby={headingId}
      className="flex flex-col gap-3 rounded-md border border-line bg-canvas-subtle p-4"
    >
      <div className="flex flex-wrap items-center gap-2">
        <h2 id={headingId} className="text-base font-semibold">
          Try it: <code className="font-mono">{trial.profileId}</code>
        </h2>
        <span className="font-mono text-xs text-fg-muted">{trial.paneId}</span>
        <div className="ml-auto flex items-center gap-2">
          <Link
            href={`/panes/${trial.paneId}`}
            className="inline-flex h-7 items-center rounded-md border border-line bg-btn px-2.5 text-xs font-medium text-fg hover:bg-btn-hover"
          >
            Open pane
          </Link>
          {s && !s.exited && (
            <Button
              size="sm"
              variant="outline-danger"
              disabled={kill.isPending}
              onClick={() => kill.mutate({ id: trial.paneId })}
            >
              Stop
            </Button>
          )}
          <Button size="sm" variant="invisible" aria-label="Close the trial" onClick={onClose}>
            ×
          </Button>
        </div>
      </div>

      {status.error && <Alert>{errorOf(status.error).message}</Alert>}
      {kill.error && <Alert>{errorOf(kill.error).message}</Alert>}

      <div role="status" aria-label="Trial outcome" className="text-sm">
        {!s ? (
          <Spinner label={`Starting ${trial.profileId}…`} />
        ) : s.dialog && !s.exited ? (
          <Outcome tone="severe" word="stopped at a start-up dialog">
            {s.dialog.title}
          </Outcome>
        ) : s.ready ? (
          <Outcome tone="success" word="ready">
            {s.readyAfterMs !== null ? `after ${(s.readyAfterMs / 1000).toFixed(1)} s` : ""}
            {s.exited ? `; it has exited since (code ${s.exitCode ?? "none"})` : " — it waits for a prompt in its pane"}
          </Outcome>
        ) : s.exited ? (
          <Outcome tone="danger" word="exited">
            with code {s.exitCode ?? "none"} before it was ready
          </Outcome>
        ) : (
          <Spinner label={`Waiting for ${trial.profileId} to get ready (${s.lifecycle})…`} />
        )}
      </div>

      {s?.dialog && !s.exited && (
        <figure aria-labelledby="trial-dialog-text" className="m-0 flex flex-col gap-1">
          <h3 id="trial-dialog-text" className="text-sm font-semibold">
            Dialog text
          </h3>
          <pre className="max-h-64 overflow-auto rounded-md border border-severe/40 bg-canvas p-3 font-mono text-xs leading-5 whitespace-pre-wrap text-fg">
            {s.dialog.text}
          </pre>
          <p className="text-xs text-fg-muted">Answer it in the pane (Open pane); the outcome here follows.</p>
        </figure>
      )}

      {s && (
        <figure aria-labelledby="trial-screen" className="m-0 flex flex-col gap-1">
          <h3 id="trial-screen" className="text-sm font-semibold">
            Screen
          </h3>
          <pre className="max-h-96 overflow-auto rounded-md border border-line bg-canvas p-3 font-mono text-xs leading-5 text-fg">
            {s.screen || "(nothing on the screen yet)"}
          </pre>
        </figure>
      )}
    </section>
  );
}

function Outcome({
  tone,
  word,
  children,
}: {
  tone: "success" | "severe" | "danger";
  word: string;
  children?: React.ReactNode;
}) {
  const cls = {
    success: "border-success/40 bg-success-muted text-success",
    severe: "border-severe/40 bg-severe-muted text-severe",
    danger: "border-danger/40 bg-danger-muted text-danger",
  }[tone];
  return (
    <span className="inline-flex flex-wrap items-center gap-2">
      <span className={`rounded-full border px-2 py-0.5 text-xs font-semibold ${cls}`}>{word}</span>
      <span>{children}</span>
    </span>
  );
}
