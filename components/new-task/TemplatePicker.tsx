"use client";
// "Use template" in the New task form: the chosen project's saved task contracts (yard template
// add), by name; picking one fills the form's title, contract, label and agent (what the
// template leaves empty is cleared, so the form shows exactly the template).
import { useQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import type { TaskTemplate } from "../../lib/types";
import { useTRPC } from "../../lib/trpc";
import { inputClass } from "../ui";

export function TemplatePicker({
  open,
  projectId,
  onPick,
}: {
  open: boolean;
  projectId: string;
  onPick: (t: TaskTemplate) => void;
}) {
  const trpc = useTRPC();
  const list = useQuery({
    ...trpc.templates.list.queryOptions({ projectId }),
    enabled: open && !!projectId,
  });
  const [chosen, setChosen] = useState("");
  useEffect(() => {
    if (!open || projectId) setChosen("");
  }, [open, projectId]);
  const templates = list.data ?? [];
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor="nt-template" className="text-sm font-semibold">
        Use template
      </label>
      <select
        id="nt-template"
        value={chosen}
        disabled={!templates.length}
        aria-describedby="nt-template-hint"
        onChange={(e) => {
          const t = templates.find((x) => x.id === e.target.value);
          setChosen(e.target.value);
          if (t) onPick(t);
        }}
        className={`${inputClass} disabled:opacity-60`}
      >
        <option value="">
          {list.isPending && projectId ? "Loading…" : templates.length ? "Choose a template…" : "No templates"}
        </option>
        {templates.map((t) => (
          <option key={t.id} value={t.id}>
            {t.name}
          </option>
        ))}
      </select>
      <span id="nt-template-hint" className="text-xs text-fg-muted">
        {templates.length
          ? "Fills the form with a saved contract of this project."
          : "Save one with yard template add --project … (or --from-task ID)."}
      </span>
    </div>
  );
}
