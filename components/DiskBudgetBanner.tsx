"use client";
// The board's disk budget warning: when Switchyard's worktrees together use more than the disk
// budget (a setting, or YARD_DISK_BUDGET), a banner says how much and links to /worktrees, where
// they can be cleaned up. Reads the cached total (worktrees.usage: no walk); a `worktrees.usage`
// journal event refetches it (components/Providers.tsx).
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useTRPC } from "../lib/trpc";
import { formatSize } from "../server/wire/sizes";
import { Alert } from "./ui";

export function DiskBudgetBanner() {
  const trpc = useTRPC();
  const usage = useQuery(trpc.worktrees.usage.queryOptions());
  const u = usage.data;
  if (!u?.overBudget || !u.budget) return null;
  return (
    <Alert tone="attention" title="Worktrees are over the disk budget">
      Switchyard&apos;s worktrees use {u.partial ? "at least " : ""}
      {formatSize(u.totalBytes)}, more than the {formatSize(u.budget.bytes)} budget.{" "}
      <Link href="/worktrees" className="font-semibold text-accent underline">
        Review worktrees
      </Link>
    </Alert>
  );
}
