"use client";
// The task page's three tabs — Terminal (the live pane), Changes (the diff against the base) and
// Review (comments, verdicts, rounds) — as an ARIA tablist: the tab is in the URL (?tab=), arrow
// keys move between tabs, and 1/2/3 switch outside text fields. The diff is read once here for
// the Changes and Review tabs (and the file count on the Changes tab).
import { useQuery } from "@tanstack/react-query";
import { useSearchParams } from "next/navigation";
import { useEffect } from "react";
import { useTRPC } from "../../lib/trpc";
import { replaceUrl } from "../../lib/query-url";
import type { Task } from "../../lib/types";
import { ChangesTab } from "./ChangesTab";
import { ReviewPanel } from "./ReviewPanel";
import { TerminalTab } from "./TerminalTab";

const TABS = ["terminal", "changes", "review"] as const;
type Tab = (typeof TABS)[number];
const TAB_NAMES: Record<Tab, string> = { terminal: "Terminal", changes: "Changes", review: "Review" };

export function TaskTabs({ task: t }: { task: Task }) {
  const search = useSearchParams();
  const trpc = useTRPC();
  const tab: Tab = (TABS as readonly string[]).includes(search.get("tab") ?? "")
    ? (search.get("tab") as Tab)
    : "terminal";
  const setTab = (v: Tab) => replaceUrl(`/tasks/${t.id}?tab=${v}`);
  // A diff can be megabytes: no structural sharing (a deep compare on every refetch).
  const diff = useQuery({
    ...trpc.tasks.diff.queryOptions({ id: t.id }),
    enabled: !!t.worktreePath && tab !== "terminal",
    retry: false,
    structuralSharing: false,
  });

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const el = e.target as HTMLElement;
      if (
        e.ctrlKey ||
        e.metaKey ||
        e.altKey ||
        /^(INPUT|TEXTAREA|SELECT)$/.test(el.tagName) ||
        el.closest(".xterm") ||
        document.querySelector("dialog[open]")
      )
        return;
      const i = ["1", "2", "3"].indexOf(e.key);
      if (i >= 0) setTab(TABS[i]!);
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  });

  const files = diff.data?.files.length;
  return (
    <>
      <div role="tablist" aria-label="Task views" className="flex gap-1 border-b border-line">
        {TABS.map((v) => (
          <button
            type="button"
            key={v}
            role="tab"
            id={`tab-${v}`}
            aria-selected={tab === v}
            aria-controls={`panel-${v}`}
            tabIndex={tab === v ? 0 : -1}
            onClick={() => setTab(v)}
            onKeyDown={(e) => {
              const i = TABS.indexOf(v);
              if (e.key === "ArrowRight") setTab(TABS[(i + 1) % TABS.length]!);
              if (e.key === "ArrowLeft") setTab(TABS[(i + TABS.length - 1) % TABS.length]!);
            }}
            className={`-mb-px flex items-center gap-2 border-b-2 px-3 py-2 text-sm ${tab === v ? "border-severe font-semibold text-fg" : "border-transparent text-fg-muted hover:border-line hover:text-fg"}`}
          >
            {TAB_NAMES[v]}
            {v === "changes" && files !== undefined && (
              <span className="rounded-full bg-neutral-muted px-1.5 text-xs font-medium leading-5">{files}</span>
            )}
          </button>
        ))}
      </div>
      <div
        role="tabpanel"
        id="panel-terminal"
        aria-labelledby="tab-terminal"
        hidden={tab !== "terminal"}
        className="pt-3"
      >
        <TerminalTab task={t} visible={tab === "terminal"} />
      </div>
      {tab === "changes" && (
        <div role="tabpanel" id="panel-changes" aria-labelledby="tab-changes" className="pt-3">
          <ChangesTab task={t} diff={diff} />
        </div>
      )}
      {tab === "review" && (
        <div role="tabpanel" id="panel-review" aria-labelledby="tab-review" className="pt-3">
          {t.worktreePath ? (
            <ReviewPanel task={t} diff={diff} />
          ) : (
            <p className="text-sm text-fg-muted">Nothing to review yet: the task has not started.</p>
          )}
        </div>
      )}
    </>
  );
}
