"use client";
// /audit: who did what on this board, newest first (the journal's events people's calls made),
// filtered by person and by how far back; "Older" pages back. The same as `yard audit`.
import { useInfiniteQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useEffect, useId, useState } from "react";
import { TopBar } from "../../components/TopBar";
import { Alert, Button, inputClass, Spinner, timeAgo } from "../../components/ui";
import { errorOf, useTRPC } from "../../lib/trpc";

const SINCE = [
  { value: "", label: "Any time" },
  { value: "1h", label: "Last hour" },
  { value: "1d", label: "Last day" },
  { value: "7d", label: "Last 7 days" },
  { value: "30d", label: "Last 30 days" },
];

export default function AuditPage() {
  const trpc = useTRPC();
  const id = useId();
  const [user, setUser] = useState("");
  const [since, setSince] = useState("");
  const filter = { user: user.trim() || undefined, since: since || undefined, limit: 100 };
  const trail = useInfiniteQuery(
    trpc.audit.list.infiniteQueryOptions(filter, {
      initialCursor: undefined,
      getNextPageParam: (last) => last.next ?? undefined,
    }),
  );
  useEffect(() => {
    document.title = "Audit · Switchyard";
  }, []);
  const entries = trail.data?.pages.flatMap((p) => p.entries) ?? [];

  return (
    <div className="flex min-h-screen flex-col">
      <TopBar />
      <main className="mx-auto flex w-full max-w-5xl flex-1 flex-col gap-4 p-4">
        <h1 className="text-lg font-semibold">Audit</h1>
        <p className="max-w-3xl text-sm text-fg-muted">
          What people did on this board: tasks started, comments, reviews, merges, discards, answers. It is kept as long
          as the board&apos;s journal keeps its events.
        </p>
        <form
          aria-label="Filter the audit"
          className="flex flex-wrap items-end gap-3"
          onSubmit={(e) => e.preventDefault()}
        >
          <div className="flex flex-col gap-1">
            <label htmlFor={`${id}-user`} className="text-sm font-semibold">
              Person
            </label>
            <input
              id={`${id}-user`}
              value={user}
              onChange={(e) => setUser(e.target.value)}
              placeholder="everyone"
              className={inputClass}
            />
          </div>
          <div className="flex flex-col gap-1">
            <label htmlFor={`${id}-since`} className="text-sm font-semibold">
              Since
            </label>
            <select
              id={`${id}-since`}
              value={since}
              onChange={(e) => setSince(e.target.value)}
              className="rounded-md border border-line bg-canvas px-2 py-1.5 text-sm"
            >
              {SINCE.map((s) => (
                <option key={s.value} value={s.value}>
                  {s.label}
                </option>
              ))}
            </select>
          </div>
        </form>
        {trail.error && <Alert>{errorOf(trail.error).message}</Alert>}
        {trail.isPending && <Spinner />}
        {trail.data && !entries.length && <p className="text-sm text-fg-muted">Nothing recorded.</p>}
        {entries.length > 0 && (
          <ol aria-label="Audit trail" className="flex flex-col divide-y divide-line rounded-md border border-line">
            {entries.map((e) => (
              <li key={e.seq} className="flex flex-wrap items-baseline gap-2 px-3 py-2 text-sm">
                <span className="font-semibold">{e.actor}</span>
                <span>
                  <Summary text={e.summary} taskId={e.taskId} />
                </span>
                <time dateTime={e.time} title={e.time} className="ml-auto text-xs text-fg-muted">
                  {timeAgo(e.time)}
                </time>
              </li>
            ))}
          </ol>
        )}
        {trail.hasNextPage && (
          <Button onClick={() => void trail.fetchNextPage()} disabled={trail.isFetchingNextPage}>
            {trail.isFetchingNextPage ? "Loading…" : "Older"}
          </Button>
        )}
      </main>
    </div>
  );
}

/** The entry's line with its task id as a link to the task. */
function Summary({ text, taskId }: { text: string; taskId: string | null }) {
  const at = taskId ? text.indexOf(taskId) : -1;
  if (!taskId || at < 0) return <>{text}</>;
  return (
    <>
      {text.slice(0, at)}
      <Link href={`/tasks/${taskId}`} className="font-mono text-accent hover:underline">
        {taskId}
      </Link>
      {text.slice(at + taskId.length)}
    </>
  );
}
