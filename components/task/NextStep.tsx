"use client";
// What the task page offers between turns: a "Follow-up prompt" for an input_required task whose
// agent ended its turn without reporting, and "Start" for a task saved in the backlog.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useApi } from "../../lib/api";
import type { Task } from "../../lib/types";
import { errorOf } from "../../lib/trpc";
import { Alert, Button } from "../ui";
import { Section } from "./Section";

export function FollowUp({ task: t }: { task: Task }) {
  const api = useApi();
  const qc = useQueryClient();
  const [text, setText] = useState("");
  const send = useMutation(
    api.tasks.followUp.mutationOptions({
      onSuccess: () => {
        setText("");
        void qc.invalidateQueries({ queryKey: api.trpc.tasks.get.queryKey({ id: t.id }) });
      },
    }),
  );
  return (
    <Section title="Follow-up prompt" id="sec-followup">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (text.trim()) send.mutate({ id: t.id, text });
        }}
        className="flex flex-col gap-2"
      >
        <label htmlFor="follow-up" className="text-xs text-fg-muted">
          The agent ended its turn without reporting. Tell it what to do next.
        </label>
        <textarea
          id="follow-up"
          aria-label="Follow-up prompt"
          rows={3}
          value={text}
          onChange={(e) => setText(e.target.value)}
          className="w-full rounded-md border border-line bg-canvas px-2 py-1.5 text-sm focus:border-accent focus:outline-none"
        />
        {send.error && (
          <Alert>
            {errorOf(send.error).code === "NOT_FOUND"
              ? "This server cannot send follow-ups yet; type in the Terminal tab instead."
              : errorOf(send.error).message}
          </Alert>
        )}
        <Button type="submit" variant="primary" disabled={!text.trim() || send.isPending} className="self-end">
          {send.isPending ? "Sending…" : "Send follow-up"}
        </Button>
      </form>
    </Section>
  );
}

export function StartBacklog({ task: t }: { task: Task }) {
  const api = useApi();
  const qc = useQueryClient();
  const start = useMutation(
    api.tasks.startBacklog.mutationOptions({ onSuccess: () => void qc.invalidateQueries(api.trpc.tasks.pathFilter()) }),
  );
  return (
    <Section title="Backlog" id="sec-backlog">
      <p className="mb-2 text-xs text-fg-muted">
        Saved, not started. Starting creates its worktree and launches {t.agent}.
      </p>
      {start.error && <Alert>{errorOf(start.error).message}</Alert>}
      <Button variant="primary" onClick={() => start.mutate({ id: t.id })} disabled={start.isPending}>
        Start
      </Button>
    </Section>
  );
}
