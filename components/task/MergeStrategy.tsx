"use client";
// The Merge dialog's choice of how the branch lands: a merge commit, one squashed commit, its
// commits rebased on top, or a fast-forward (refused when the target has moved on). Starts at the
// project's default (`yard project set --merge-strategy`), else a merge commit. A radio group:
// arrow keys move between the choices.
import { useQuery } from "@tanstack/react-query";
import { useEffect } from "react";
import type { MergeStrategy } from "../../server/wire/branches";
import { useTRPC } from "../../lib/trpc";
import type { Task } from "../../lib/types";

const CHOICES: Array<{ value: MergeStrategy; label: string; hint: (t: Task) => string }> = [
  {
    value: "merge",
    label: "Create a merge commit",
    hint: (t) => `All of ${t.branch}'s commits, joined by a merge commit.`,
  },
  {
    value: "squash",
    label: "Squash and merge",
    hint: () => "One new commit on the target with all of the task's changes.",
  },
  {
    value: "rebase",
    label: "Rebase and merge",
    hint: () => "The task's commits replayed on top of the target: a straight line.",
  },
  {
    value: "ff",
    label: "Fast-forward only",
    hint: (t) => `The target moves to ${t.branch}'s commit; refused when the target has commits the branch lacks.`,
  },
];

/** The project's default strategy (null while it is read, or without a project). */
function useDefaultStrategy(t: Task): MergeStrategy | null {
  const trpc = useTRPC();
  const project = useQuery({
    ...trpc.projects.get.queryOptions({ id: t.projectId ?? "" }),
    enabled: t.projectId !== null,
    retry: false,
  });
  if (t.projectId === null || project.error) return "merge";
  return project.data ? (project.data.mergeStrategy ?? "merge") : null;
}

export function MergeStrategyChoice({
  task: t,
  value,
  onChange,
}: {
  task: Task;
  value: MergeStrategy | null;
  onChange: (s: MergeStrategy) => void;
}) {
  const fallback = useDefaultStrategy(t);
  useEffect(() => {
    if (value === null && fallback !== null) onChange(fallback);
  }, [value, fallback, onChange]);
  return (
    <fieldset className="flex flex-col gap-1.5">
      <legend className="mb-1 text-xs font-semibold">Merge strategy</legend>
      {CHOICES.map((c) => (
        <label key={c.value} className="flex items-start gap-2">
          <input
            type="radio"
            name="merge-strategy"
            className="mt-1"
            value={c.value}
            checked={value === c.value}
            onChange={() => onChange(c.value)}
          />
          <span>
            {c.label}
            {fallback === c.value && <span className="text-fg-muted"> (project default)</span>}
            <span className="block text-xs text-fg-muted">{c.hint(t)}</span>
          </span>
        </label>
      ))}
    </fieldset>
  );
}
