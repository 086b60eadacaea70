"use client";
// The task page's "Timeline" section: the task's journal events in words (state changes, results,
// finishing, dependencies, questions and answers, plans, agent reviews, review events), each
// with how long ago it happened.
import { useQuery } from "@tanstack/react-query";
import { useApi } from "../../lib/api";
import type { Task } from "../../lib/types";
import { Spinner, STATE_WORDS, timeAgo } from "../ui";
import { Section } from "./Section";

const EVENT_WORDS: Record<string, (p: Record<string, unknown>) => string> = {
  "task.created": () => "Task created",
  "task.state": (p) =>
    `${STATE_WORDS[String(p.from)] ?? p.from} → ${STATE_WORDS[String(p.to)] ?? p.to}${p.cause ? ` (${String(p.cause).replace(/_/g, " ")})` : ""}`,
  "task.result": (p) => `Reported ${p.status}: ${String(p.summary ?? "").slice(0, 80)}`,
  "task.finished": (p) => (p.disposition === "merged" ? `Merged into ${p.target ?? "target"}` : "Discarded"),
  "task.merge_failed": (p) => `Merge refused: ${p.code}`,
  "task.cleanup": () => "Cleanup retried",
  "task.dependencies": (p) =>
    Array.isArray(p.removed)
      ? `Dependency removed: ${(p.removed as string[]).join(", ")}`
      : `Depends on ${((p.added as string[] | undefined) ?? []).join(", ")}`,
  "task.auto_started": () => "Started by itself: its dependencies were met",
  "task.auto_start_failed": (p) => `Could not start by itself: ${String(p.message ?? p.code ?? "")}`,
  "task.question": (p) => `The worker asked: ${String(p.text ?? "").slice(0, 80)}`,
  "task.answer": (p) => `Answered: ${String(p.text ?? "").slice(0, 80)}`,
  "task.acknowledged": () => "Result acknowledged",
  "task.worktree_registered": () => "Extra worktree registered",
  "task.plan": (p) =>
    p.state === "in_review"
      ? `Plan version ${p.version} submitted for review`
      : p.state === "changes_requested"
        ? `Changes requested to plan version ${p.version}`
        : p.state === "decomposed"
          ? `Plan version ${p.version} approved: subtasks created`
          : `Plan version ${p.version}: ${p.state}`,
  "task.agent_review": (p) =>
    `Agent review ${String(p.state ?? "").replace(/_/g, " ")}${p.reviewer ? ` (${p.reviewer})` : ""}`,
};

export function Timeline({ task: t }: { task: Task }) {
  const { trpc } = useApi();
  const events = useQuery(trpc.tasks.events.queryOptions({ id: t.id }));
  const list = (events.data?.events ?? []).filter((e) => e.type in EVENT_WORDS || e.type.startsWith("review."));
  return (
    <Section title="Timeline" id="sec-timeline">
      {events.isPending ? (
        <Spinner />
      ) : events.isError ? (
        <p className="text-xs text-danger">{events.error.message}</p>
      ) : list.length === 0 ? (
        <p className="text-xs text-fg-muted">No events yet.</p>
      ) : (
        <ol className="relative flex flex-col gap-2 border-l border-line pl-3 text-xs">
          {list.map((e) => (
            <li key={e.seq} className="relative">
              <span
                aria-hidden
                className="absolute -left-[17px] top-1 h-2 w-2 rounded-full border border-canvas bg-fg-subtle"
              />
              <div>
                {(EVENT_WORDS[e.type] ?? ((p) => `${e.type}${p.round ? ` (round ${p.round})` : ""}`))(e.payload ?? {})}
              </div>
              <div className="text-fg-subtle" title={e.time}>
                {timeAgo(e.time)}
              </div>
            </li>
          ))}
        </ol>
      )}
    </Section>
  );
}
