"use client";
// The "New task" form's "Depends on": the project's tasks as checkboxes (by title; discarded and
// canceled ones left out, picks from another project dropped) and "Start when" a dependency
// counts as met (merged, or completed).
import { useQuery } from "@tanstack/react-query";
import { useEffect } from "react";
import { useApi } from "../../lib/api";

/** "Depends on": the project's tasks as checkboxes (by title), and when a dependency counts as met. */
export function DependsOnPicker({
  open,
  projectId,
  value,
  onChange,
  startWhen,
  onStartWhen,
  error,
}: {
  open: boolean;
  projectId: string;
  value: string[];
  onChange: (v: string[]) => void;
  startWhen: "merged" | "completed";
  onStartWhen: (v: "merged" | "completed") => void;
  error?: string;
}) {
  const { trpc } = useApi();
  const list = useQuery({ ...trpc.tasks.list.queryOptions({ projectId }), enabled: open && !!projectId });
  const tasks = (list.data ?? []).filter((t) => t.disposition !== "discarded" && t.state !== "canceled");
  // A project change drops picks from the other project.
  useEffect(() => {
    if (list.data && value.some((id) => !list.data.some((t) => t.id === id)))
      onChange(value.filter((id) => list.data.some((t) => t.id === id)));
  }, [list.data, value, onChange]);
  return (
    <div className="grid grid-cols-[minmax(0,1fr)_auto] gap-3">
      <fieldset aria-describedby={error ? "nt-deps-err" : "nt-deps-hint"} className="flex min-w-0 flex-col gap-1">
        <legend className="mb-1 text-sm font-semibold">Depends on</legend>
        {list.isPending && projectId ? (
          <span className="text-xs text-fg-muted">Loading…</span>
        ) : tasks.length === 0 ? (
          <span className="text-xs text-fg-muted">No other task in this project yet.</span>
        ) : (
          <div className="flex max-h-32 flex-col overflow-y-auto rounded-md border border-line bg-canvas px-2 py-1">
            {tasks.map((t) => (
              <div key={t.id} className="flex items-center gap-2 py-0.5 text-sm">
                <input
                  type="checkbox"
                  id={`nt-dep-${t.id}`}
                  checked={value.includes(t.id)}
                  onChange={(e) => onChange(e.target.checked ? [...value, t.id] : value.filter((x) => x !== t.id))}
                />
                <label htmlFor={`nt-dep-${t.id}`} className="min-w-0 flex-1 truncate">
                  {t.title}
                </label>
                <span className="shrink-0 text-[11px] text-fg-subtle">
                  {t.disposition ?? t.state.replace(/_/g, " ")}
                </span>
              </div>
            ))}
          </div>
        )}
        {error ? (
          <span id="nt-deps-err" role="alert" className="text-xs text-danger">
            {error}
          </span>
        ) : (
          <span id="nt-deps-hint" className="text-xs text-fg-muted">
            With any not yet met, the task waits in the backlog and starts by itself.
          </span>
        )}
      </fieldset>
      <fieldset className="flex flex-col gap-1" disabled={value.length === 0}>
        <legend className="mb-1 text-sm font-semibold">Start when</legend>
        {(["merged", "completed"] as const).map((w) => (
          <label key={w} className="flex items-center gap-2 text-sm has-[:disabled]:opacity-60">
            <input
              type="radio"
              name="nt-start-when"
              value={w}
              checked={startWhen === w}
              onChange={() => onStartWhen(w)}
            />
            {w === "merged" ? "merged" : "completed"}
          </label>
        ))}
        <span className="max-w-44 text-xs text-fg-muted">
          {startWhen === "merged" ? "Its base then has their work." : "Before review or merge."}
        </span>
      </fieldset>
    </div>
  );
}
