"use client";
// /tasks/<id>: one task. The header, the plan (for a --needs-plan task), the Terminal / Changes /
// Review tabs and the side column of details and actions live in components/task/; this page
// reads the task, names the browser tab after it, and says so when there is no such task.
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useParams } from "next/navigation";
import { type ReactNode, Suspense, useEffect } from "react";
import { PlanSection } from "../../../components/task/PlanSection";
import { TaskAside } from "../../../components/task/TaskAside";
import { TaskHeader } from "../../../components/task/TaskHeader";
import { TaskTabs } from "../../../components/task/TaskTabs";
import { TopBar } from "../../../components/TopBar";
import { Spinner } from "../../../components/ui";
import { errorOf, useTRPC } from "../../../lib/trpc";

function TaskPage() {
  const params = useParams<{ id: string }>();
  const id = decodeURIComponent(String(params?.id ?? ""));
  const trpc = useTRPC();
  const task = useQuery({ ...trpc.tasks.get.queryOptions({ id }), retry: false });
  const t = task.data;
  const title = t?.title;

  useEffect(() => {
    if (title) document.title = `${title} · Switchyard`;
  }, [title]);

  if (task.isError) {
    const y = errorOf(task.error);
    return (
      <Shell>
        <main className="mx-auto mt-16 w-full max-w-xl p-4">
          <div role="alert" className="rounded-lg border border-line p-8 text-center">
            <h1 className="text-lg font-semibold">
              {y.code === "NOT_FOUND" || y.code === "BAD_PARAMS" ? "No such task" : "Could not open this task"}
            </h1>
            <p className="mt-2 text-sm text-fg-muted">
              {y.code === "BAD_PARAMS" ? `“${id}” is not a task id.` : y.message}
            </p>
            <Link
              href="/"
              className="mt-4 inline-block rounded-md border border-line bg-btn px-3 py-1.5 text-sm hover:bg-btn-hover"
            >
              ← Board
            </Link>
          </div>
        </main>
      </Shell>
    );
  }
  if (!t) {
    return (
      <Shell>
        <main className="p-6">
          <Spinner label="Loading the task…" />
        </main>
      </Shell>
    );
  }

  return (
    <Shell>
      <main className="mx-auto flex w-full max-w-[1400px] flex-1 flex-col px-4 pb-8 pt-4">
        <TaskHeader task={t} />
        <div className="mt-4 grid min-h-0 grid-cols-1 gap-6 xl:grid-cols-[minmax(0,1fr)_20rem]">
          <div className="min-w-0">
            <PlanSection task={t} />
            <TaskTabs task={t} />
          </div>
          <TaskAside task={t} />
        </div>
      </main>
    </Shell>
  );
}

function Shell({ children }: { children: ReactNode }) {
  return (
    <div className="flex min-h-screen flex-col">
      <TopBar />
      {children}
    </div>
  );
}

export default function Page() {
  return (
    <Suspense>
      <TaskPage />
    </Suspense>
  );
}
