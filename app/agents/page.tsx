"use client";
// /agents: the agent profiles (how each kind of agent is launched). List, add, edit and remove
// profiles, set a built-in's environment, and "Try it": start a profile in a scratch pane and see
// whether it got ready or which start-up dialog it stopped at (agents.try / agents.tryStatus).
import { useMutation, useQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { ProfileDialog } from "../../components/agents/ProfileDialog";
import { ProfileTable } from "../../components/agents/ProfileTable";
import { RemoveProfileDialog } from "../../components/agents/RemoveProfileDialog";
import { type Trial, TrialPanel } from "../../components/agents/TrialPanel";
import { TopBar } from "../../components/TopBar";
import { Alert, Button, Spinner } from "../../components/ui";
import type { AgentProfile } from "../../lib/types";
import { errorOf, useTRPC } from "../../lib/trpc";

export default function AgentsPage() {
  const trpc = useTRPC();
  const list = useQuery(trpc.agents.list.queryOptions());
  const [dialog, setDialog] = useState<{ profile: AgentProfile | null } | null>(null);
  const [removing, setRemoving] = useState<string | null>(null);
  const [trial, setTrial] = useState<Trial | null>(null);
  const [tryError, setTryError] = useState<{ id: string; message: string } | null>(null);
  const start = useMutation(
    trpc.agents.try.mutationOptions({
      onSuccess: (r, v) => setTrial({ profileId: v.id, paneId: r.paneId }),
      onError: (e, v) => setTryError({ id: v.id, message: errorOf(e).message }),
    }),
  );

  useEffect(() => {
    document.title = "Agents · Switchyard";
  }, []);

  const profiles = list.data ?? null;
  const custom = profiles?.filter((p) => !p.builtIn).length ?? 0;

  return (
    <div className="flex min-h-screen flex-col">
      <TopBar />
      <main className="mx-auto flex w-full max-w-7xl flex-1 flex-col gap-4 p-4">
        <div className="flex flex-wrap items-baseline gap-3">
          <h1 className="text-lg font-semibold">Agents</h1>
          {profiles && (
            <span className="text-sm text-fg-muted">
              {profiles.length - custom} built-in · {custom} custom
            </span>
          )}
          <Button variant="primary" className="ml-auto" onClick={() => setDialog({ profile: null })}>
            Add agent
          </Button>
        </div>
        <p className="max-w-3xl text-sm text-fg-muted">
          A profile says how an agent is launched: its command, its role, whether it reports through hooks, and the
          environment it gets. Tasks and panes pick one by id. &ldquo;Try it&rdquo; starts a profile in an empty scratch
          folder and tells you whether it got ready or which start-up dialog (trust, login, …) it waits at.
        </p>

        {list.error && <Alert>{errorOf(list.error).message}</Alert>}
        {tryError && (
          <Alert title={`Could not try ${tryError.id}`} onDismiss={() => setTryError(null)}>
            {tryError.message}
          </Alert>
        )}

        {profiles === null ? (
          !list.error && <Spinner />
        ) : (
          <ProfileTable
            profiles={profiles}
            trying={start.isPending ? (start.variables?.id ?? null) : null}
            onEdit={(p) => setDialog({ profile: p })}
            onRemove={(p) => setRemoving(p.id)}
            onTry={(p) => {
              setTryError(null);
              start.mutate({ id: p.id });
            }}
          />
        )}

        {trial && <TrialPanel key={trial.paneId} trial={trial} onClose={() => setTrial(null)} />}
      </main>
      <ProfileDialog open={dialog !== null} profile={dialog?.profile ?? null} onClose={() => setDialog(null)} />
      <RemoveProfileDialog id={removing} onClose={() => setRemoving(null)} />
    </div>
  );
}
