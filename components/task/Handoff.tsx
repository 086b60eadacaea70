"use client";
// The task page's "GitHub" section: the hand-off of a started task's branch. "Push branch" (with
// your own git credentials; a remote branch that moved on is refused, and "Replace with lease"
// then overwrites it only while it holds what was pushed before), "Open pull request" (a "Draft"
// checkbox; without a token the refusal says how to set one and takes the project's token here,
// write-only), then where the branch went and the pull request: its link, state, and the checks
// of its head as the background poll last read them (failures first, each linked). A finished
// task keeps the link and shows no action.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useId, useState } from "react";
import { errorOf, useTRPC, type YardErrorData } from "../../lib/trpc";
import type { Outputs, Task } from "../../lib/types";
import { useToast } from "../Toasts";
import { Alert, Button, timeAgo } from "../ui";
import { Section } from "./Section";
import { shortSha } from "./TaskHeader";

type Pull = NonNullable<NonNullable<Outputs["tasks"]["handoff"]>["pullRequest"]>;

const PR_STATE: Record<Pull["state"], string> = { open: "Open", closed: "Closed without merging", merged: "Merged" };
const CHECK_MARK: Record<string, string> = { success: "✓", failure: "✗", pending: "●", neutral: "–", skipped: "–" };
const CHECK_TONE: Record<string, string> = {
  success: "text-success",
  failure: "text-danger",
  pending: "text-attention",
  neutral: "text-fg-muted",
  skipped: "text-fg-muted",
};

export function HandoffSection({ task: t }: { task: Task }) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const toast = useToast();
  const [draft, setDraft] = useState(false);
  const [error, setError] = useState<YardErrorData | null>(null);
  const draftId = useId();
  const handoff = useQuery({ ...trpc.tasks.handoff.queryOptions({ id: t.id }), enabled: Boolean(t.branch) });
  const refresh = () => {
    void qc.invalidateQueries({ queryKey: trpc.tasks.handoff.queryKey({ id: t.id }) });
    void qc.invalidateQueries({ queryKey: trpc.tasks.events.queryKey({ id: t.id }) });
  };
  const push = useMutation(
    trpc.tasks.push.mutationOptions({
      onMutate: () => setError(null),
      onSuccess: (r) => {
        toast({
          tone: "success",
          title: r.push.status === "up_to_date" ? "Already up to date" : `Pushed to ${r.push.remote}`,
          body: `${r.push.remoteBranch} at ${shortSha(r.push.commit)}`,
        });
        refresh();
      },
      onError: (e) => setError(errorOf(e)),
    }),
  );
  const pr = useMutation(
    trpc.tasks.pr.mutationOptions({
      onMutate: () => setError(null),
      onSuccess: (r) => {
        toast({
          tone: "success",
          title: r.created
            ? `Opened pull request #${r.pullRequest.number}`
            : `Pull request #${r.pullRequest.number} is open`,
          body: t.title,
        });
        refresh();
      },
      onError: (e) => setError(errorOf(e)),
    }),
  );

  if (!t.branch || t.state === "backlog") return null;
  const h = handoff.data ?? null;
  const p = h?.pullRequest ?? null;
  const finished = Boolean(t.disposition);
  if (finished && !p) return null;
  const busy = push.isPending || pr.isPending;
  const openPr = p?.state === "open";
  const rejected =
    error?.code === "CONFLICT" && /non-fast-forward|fetch first/.test(String(error.details?.reason ?? ""));

  return (
    <Section title="GitHub" id="sec-github">
      <div className="flex flex-col gap-2 text-xs">
        {error && (
          <Alert title={errorTitle(error)} onDismiss={() => setError(null)}>
            <p className="text-xs">{error.message}</p>
            {rejected && (
              <Button
                size="sm"
                variant="outline-danger"
                className="mt-2"
                disabled={busy}
                onClick={() => push.mutate({ id: t.id, forceWithLease: true })}
              >
                Replace with lease
              </Button>
            )}
            {error.code === "GITHUB_TOKEN_MISSING" && t.projectId && (
              <TokenForm projectId={t.projectId} onSaved={() => setError(null)} />
            )}
          </Alert>
        )}
        {h && (
          <p>
            Pushed to{" "}
            <span className="font-mono">
              {h.remote}/{h.remoteBranch}
            </span>
            {h.pushedCommit && (
              <>
                {" "}
                at{" "}
                <span className="font-mono" title={h.pushedCommit}>
                  {shortSha(h.pushedCommit)}
                </span>
              </>
            )}
            {h.pushedAt && <span className="text-fg-muted"> ({timeAgo(h.pushedAt)})</span>}
          </p>
        )}
        {p && <PullRequest pull={p} />}
        {!finished && (
          <>
            <div className="flex flex-wrap items-center gap-2">
              <Button size="sm" disabled={busy} onClick={() => push.mutate({ id: t.id })}>
                {push.isPending ? "Pushing…" : "Push branch"}
              </Button>
              {!openPr && (
                <Button size="sm" variant="primary" disabled={busy} onClick={() => pr.mutate({ id: t.id, draft })}>
                  {pr.isPending ? "Opening…" : "Open pull request"}
                </Button>
              )}
            </div>
            {!openPr && (
              <label htmlFor={draftId} className="flex items-center gap-2">
                <input id={draftId} type="checkbox" checked={draft} onChange={(e) => setDraft(e.target.checked)} />
                Draft
              </label>
            )}
            {!h && (
              <p className="text-fg-muted">
                Pushes <span className="font-mono">{t.branch}</span> with your own git credentials; a pull request needs
                a GitHub token.
              </p>
            )}
          </>
        )}
      </div>
    </Section>
  );
}

function errorTitle(e: YardErrorData): string {
  switch (e.code) {
    case "CONFLICT":
      return "Refused";
    case "NO_REMOTE":
      return "No remote to push to";
    case "GITHUB_TOKEN_MISSING":
      return "No GitHub token";
    case "GITHUB_AUTH":
      return "GitHub refused the token";
    case "GITHUB_UNAVAILABLE":
      return "GitHub did not answer";
    default:
      return "Could not hand off";
  }
}

function PullRequest({ pull: p }: { pull: Pull }) {
  const c = p.checks;
  return (
    <div className="flex flex-col gap-1" data-testid="pull-request">
      <p className="flex flex-wrap items-center gap-x-2">
        <a href={p.url} target="_blank" rel="noreferrer noopener" className="font-medium text-accent hover:underline">
          Pull request #{p.number}
        </a>
        <span>
          {PR_STATE[p.state]}
          {p.draft && p.state === "open" ? " (draft)" : ""}
        </span>
        {p.base && (
          <span className="text-fg-muted">
            into <span className="font-mono">{p.base}</span>
          </span>
        )}
      </p>
      {c && c.state !== "none" && (
        <div>
          <p>
            Checks:{" "}
            <span
              className={CHECK_TONE[c.state === "failure" ? "failure" : c.state === "pending" ? "pending" : "success"]}
            >
              {c.passed}/{c.total} passed
              {c.failed ? `, ${c.failed} failed` : ""}
              {c.pending ? `, ${c.pending} running` : ""}
            </span>
          </p>
          <ul aria-label="Checks" className="mt-0.5 flex flex-col gap-0.5">
            {c.items.map((i) => (
              <li key={`${i.name}-${i.state}`} className="flex items-center gap-1.5">
                <span aria-hidden className={CHECK_TONE[i.state]}>
                  {CHECK_MARK[i.state]}
                </span>
                {i.url ? (
                  <a href={i.url} target="_blank" rel="noreferrer noopener" className="hover:underline">
                    {i.name}
                  </a>
                ) : (
                  <span>{i.name}</span>
                )}
                <span className="sr-only">: {i.state}</span>
              </li>
            ))}
          </ul>
        </div>
      )}
      {c?.state === "none" && <p className="text-fg-muted">No checks reported.</p>}
      {p.pollError && <p className="text-fg-muted">Last refresh failed: {p.pollError}</p>}
    </div>
  );
}

/** The project's own GitHub token, write-only: saved, never shown again. */
function TokenForm({ projectId, onSaved }: { projectId: string; onSaved: () => void }) {
  const trpc = useTRPC();
  const [token, setToken] = useState("");
  const id = useId();
  const save = useMutation(trpc.projects.setGithubToken.mutationOptions({ onSuccess: onSaved }));
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (token.trim()) save.mutate({ id: projectId, token: token.trim() });
  };
  return (
    <form onSubmit={submit} className="mt-2 flex flex-col gap-1">
      <label htmlFor={id} className="text-xs font-semibold">
        Project GitHub token
      </label>
      <div className="flex gap-2">
        <input
          id={id}
          type="password"
          autoComplete="off"
          value={token}
          onChange={(e) => setToken(e.target.value)}
          className="min-w-0 flex-1 rounded-md border border-line bg-canvas px-2 py-1 font-mono text-xs"
        />
        <Button size="sm" type="submit" disabled={save.isPending || !token.trim()}>
          Save token
        </Button>
      </div>
      {save.error && <p className="text-xs text-danger">{errorOf(save.error).message}</p>}
    </form>
  );
}
