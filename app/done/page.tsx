"use client";
// /done: a project's Done cards (merged, discarded, canceled), newest first, a page at a time
// ("Older" loads the next): the board itself carries only the newest few, so a board with a long
// history stays quick. The project comes from ?project= (else the first project).
import { useInfiniteQuery, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter, useSearchParams } from "next/navigation";
import { Suspense, useEffect, useId } from "react";
import { TopBar } from "../../components/TopBar";
import { Alert, Button, Spinner, StateBadge, timeAgo } from "../../components/ui";
import { errorOf, useTRPC } from "../../lib/trpc";

function DonePage() {
  const trpc = useTRPC();
  const id = useId();
  const router = useRouter();
  const params = useSearchParams();
  const projects = useQuery(trpc.projects.list.queryOptions());
  const projectId = params.get("project") ?? projects.data?.[0]?.id ?? null;
  const project = projects.data?.find((p) => p.id === projectId) ?? null;
  const pages = useInfiniteQuery(
    trpc.board.done.infiniteQueryOptions(
      { projectId: projectId ?? "", limit: 50 },
      { enabled: projectId !== null, initialCursor: undefined, getNextPageParam: (last) => last.next ?? undefined },
    ),
  );
  useEffect(() => {
    document.title = `Done${project ? ` · ${project.name}` : ""} · Switchyard`;
  }, [project]);
  const cards = pages.data?.pages.flatMap((p) => p.cards) ?? [];
  const total = pages.data?.pages[0]?.total;

  return (
    <div className="flex min-h-screen flex-col">
      <TopBar />
      <main className="mx-auto flex w-full max-w-5xl flex-1 flex-col gap-4 p-4">
        <h1 className="text-lg font-semibold">Done</h1>
        <div className="flex flex-wrap items-end gap-3">
          <div className="flex flex-col gap-1">
            <label htmlFor={`${id}-project`} className="text-sm font-semibold">
              Project
            </label>
            <select
              id={`${id}-project`}
              value={projectId ?? ""}
              onChange={(e) => router.replace(`/done?project=${encodeURIComponent(e.target.value)}`)}
              className="rounded-md border border-line bg-canvas px-2 py-1.5 text-sm"
            >
              {(projects.data ?? []).map((p) => (
                <option key={p.id} value={p.id}>
                  {p.name}
                </option>
              ))}
            </select>
          </div>
          {total !== undefined && (
            <p className="pb-1.5 text-sm text-fg-muted">
              {total === 1 ? "1 done task" : `${total} done tasks`}, newest first
            </p>
          )}
          {projectId && (
            <Link href={`/?project=${projectId}`} className="ml-auto pb-1.5 text-sm text-accent hover:underline">
              Back to the board
            </Link>
          )}
        </div>
        {(projects.error || pages.error) && <Alert>{errorOf(projects.error ?? pages.error).message}</Alert>}
        {projects.data && projects.data.length === 0 && <p className="text-sm text-fg-muted">No projects yet.</p>}
        {pages.isLoading && <Spinner />}
        {pages.data && cards.length === 0 && <p className="text-sm text-fg-muted">Nothing is done yet.</p>}
        {cards.length > 0 && (
          <ol aria-label="Done tasks" className="flex flex-col divide-y divide-line rounded-md border border-line">
            {cards.map((c) => (
              <li key={c.id} className="flex flex-wrap items-baseline gap-2 px-3 py-2 text-sm">
                <Link href={`/tasks/${c.id}`} className="font-medium text-fg hover:text-accent hover:underline">
                  {c.title}
                </Link>
                <StateBadge state={c.state} disposition={c.disposition} size="sm" />
                {c.startedBy && <span className="text-xs text-fg-muted">started by {c.startedBy}</span>}
                <time dateTime={c.updatedAt} title={c.updatedAt} className="ml-auto text-xs text-fg-muted">
                  {timeAgo(c.updatedAt)}
                </time>
              </li>
            ))}
          </ol>
        )}
        {pages.hasNextPage && (
          <Button onClick={() => void pages.fetchNextPage()} disabled={pages.isFetchingNextPage}>
            {pages.isFetchingNextPage ? "Loading…" : "Older"}
          </Button>
        )}
      </main>
    </div>
  );
}

export default function Page() {
  return (
    <Suspense fallback={<Spinner />}>
      <DonePage />
    </Suspense>
  );
}
