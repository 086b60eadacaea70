"use client";
// The disk budget on the worktrees page: the current one and where it comes from (saved here, or
// YARD_DISK_BUDGET), a field to set it ("20GB") and Remove for a saved one. Above it, the board
// shows a warning banner (components/DiskBudgetBanner.tsx).
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import type { DiskUsage } from "../../lib/types";
import { errorOf, useTRPC } from "../../lib/trpc";
import { formatSize, parseSize } from "../../server/wire/sizes";
import { Button, fieldClass } from "../ui";

export function BudgetForm({ usage }: { usage: DiskUsage }) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const [text, setText] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const save = useMutation(
    trpc.worktrees.setBudget.mutationOptions({
      onSuccess: () => {
        setText("");
        void qc.invalidateQueries(trpc.worktrees.pathFilter());
      },
      onError: (e) => setProblem(errorOf(e).message),
    }),
  );
  const b = usage.budget;
  return (
    <form
      aria-label="Disk budget"
      className="flex flex-wrap items-center gap-2 text-sm"
      onSubmit={(e) => {
        e.preventDefault();
        if (parseSize(text) === null) return setProblem("Not a size: write it like 20GB or 500MB.");
        setProblem(null);
        save.mutate({ budget: text.trim() });
      }}
    >
      <label htmlFor="wt-budget" className="font-semibold">
        Disk budget
      </label>
      <span id="wt-budget-now" className="text-fg-muted">
        {b
          ? `${formatSize(b.bytes)} (${b.source === "env" ? "from YARD_DISK_BUDGET; saving one here overrides it" : "saved here"})`
          : "none: the board never warns"}
      </span>
      <input
        id="wt-budget"
        value={text}
        onChange={(e) => setText(e.target.value)}
        placeholder="e.g. 20GB"
        aria-describedby={problem ? "wt-budget-err" : "wt-budget-now"}
        aria-invalid={!!problem}
        className={`${fieldClass} w-32 py-1`}
      />
      <Button type="submit" size="sm" disabled={save.isPending || !text.trim()}>
        Save budget
      </Button>
      {b?.source === "setting" && (
        <Button size="sm" variant="invisible" disabled={save.isPending} onClick={() => save.mutate({ budget: null })}>
          Remove budget
        </Button>
      )}
      {problem && (
        <span id="wt-budget-err" role="alert" className="text-xs text-danger">
          {problem}
        </span>
      )}
    </form>
  );
}
