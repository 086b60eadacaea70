"use client";
// The command palette (Ctrl/Cmd-K): jump to the board, a project, a task, the panes or the agents, and run
// actions (new task, theme, shortcuts). Type to filter; arrows choose; Enter runs.
import { useQuery } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useEffect, useMemo, useRef, useState } from "react";
import { applyTheme } from "../lib/theme";
import { useTRPC } from "../lib/trpc";
import { useUi } from "./Providers";
import { Modal, STATE_WORDS } from "./ui";

interface Item {
  id: string;
  group: "Actions" | "Navigation" | "Projects" | "Tasks";
  label: string;
  hint?: string;
  run(): void;
}

export function CommandPalette({ open, onClose }: { open: boolean; onClose: () => void }) {
  const trpc = useTRPC();
  const router = useRouter();
  const ui = useUi();
  const [q, setQ] = useState("");
  const [active, setActive] = useState(0);
  const listRef = useRef<HTMLUListElement>(null);
  const projects = useQuery({ ...trpc.projects.list.queryOptions(), enabled: open });
  const tasks = useQuery({ ...trpc.tasks.list.queryOptions(), enabled: open });

  useEffect(() => {
    if (open) {
      setQ("");
      setActive(0);
    }
  }, [open]);

  const items = useMemo<Item[]>(() => {
    const go = (href: string) => () => router.push(href);
    const base: Item[] = [
      { id: "new", group: "Actions", label: "New task…", hint: "n", run: () => ui.openNewTask() },
      { id: "shortcuts", group: "Actions", label: "Keyboard shortcuts", hint: "?", run: () => ui.openShortcuts() },
      { id: "light", group: "Actions", label: "Theme: light", run: () => applyTheme("light") },
      { id: "dark", group: "Actions", label: "Theme: dark", run: () => applyTheme("dark") },
      { id: "system", group: "Actions", label: "Theme: follow the system", run: () => applyTheme("system") },
      { id: "board", group: "Navigation", label: "Go to the board", hint: "g b", run: go("/") },
      { id: "all", group: "Navigation", label: "Go to all projects", run: go("/?project=all") },
      { id: "panes", group: "Navigation", label: "Go to panes", hint: "g p", run: go("/panes") },
      { id: "agents", group: "Navigation", label: "Go to agents", hint: "g a", run: go("/agents") },
      { id: "worktrees", group: "Navigation", label: "Go to worktrees", hint: "g w", run: go("/worktrees") },
    ];
    for (const p of projects.data ?? [])
      base.push({ id: `p-${p.id}`, group: "Projects", label: p.name, hint: p.path, run: go(`/?project=${p.id}`) });
    for (const t of [...(tasks.data ?? [])].reverse())
      base.push({
        id: `t-${t.id}`,
        group: "Tasks",
        label: t.title,
        hint: STATE_WORDS[t.state] ?? t.state,
        run: go(`/tasks/${t.id}`),
      });
    return base;
  }, [projects.data, tasks.data, router, ui]);

  const shown = useMemo(() => {
    const words = q.toLowerCase().split(/\s+/).filter(Boolean);
    const hit = items.filter((it) =>
      words.every((w) => `${it.label} ${it.group} ${it.hint ?? ""}`.toLowerCase().includes(w)),
    );
    return hit.slice(0, 60);
  }, [items, q]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: the first hit is active again whenever the query changes
  useEffect(() => setActive(0), [q]);
  useEffect(() => {
    listRef.current?.querySelector(`[data-index="${active}"]`)?.scrollIntoView({ block: "nearest" });
  }, [active]);

  const run = (it: Item | undefined) => {
    if (!it) return;
    onClose();
    setTimeout(() => it.run(), 0);
  };

  let lastGroup = "";
  return (
    <Modal open={open} onClose={onClose} title="Command palette" width="max-w-xl">
      <div className="p-2">
        <input
          autoFocus
          role="combobox"
          aria-expanded="true"
          aria-controls="palette-list"
          aria-activedescendant={shown[active] ? `palette-${shown[active]!.id}` : undefined}
          aria-label="Search commands and tasks"
          placeholder="Type a command, project or task…"
          value={q}
          onChange={(e) => setQ(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === "ArrowDown") {
              e.preventDefault();
              setActive((a) => Math.min(shown.length - 1, a + 1));
            } else if (e.key === "ArrowUp") {
              e.preventDefault();
              setActive((a) => Math.max(0, a - 1));
            } else if (e.key === "Enter") {
              e.preventDefault();
              run(shown[active]);
            }
          }}
          className="w-full rounded-md border border-line bg-canvas px-3 py-2 text-sm focus:border-accent focus:outline-none"
        />
      </div>
      <ul
        id="palette-list"
        ref={listRef}
        // biome-ignore lint/a11y/noNoninteractiveElementToInteractiveRole: the combobox pattern: a listbox of options the input drives through aria-activedescendant
        role="listbox"
        aria-label="Results"
        className="max-h-[50vh] overflow-y-auto px-2 pb-2"
      >
        {shown.length === 0 && <li className="px-3 py-6 text-center text-sm text-fg-muted">Nothing matches “{q}”.</li>}
        {shown.map((it, i) => {
          const header = it.group !== lastGroup ? it.group : null;
          lastGroup = it.group;
          return (
            <li key={it.id} role="presentation">
              {header && (
                <div role="presentation" className="px-3 pb-1 pt-2 text-xs font-semibold text-fg-muted">
                  {header}
                </div>
              )}
              {/* biome-ignore lint/a11y/useKeyWithClickEvents: an option of the combobox: the input handles the keys (arrows, Enter) and keeps focus */}
              {/* biome-ignore lint/a11y/useFocusableInteractive: an option of the combobox: the input keeps focus (aria-activedescendant) */}
              <div
                id={`palette-${it.id}`}
                role="option"
                aria-selected={i === active}
                data-index={i}
                onMouseMove={() => setActive(i)}
                onClick={() => run(it)}
                className={`flex cursor-pointer items-center gap-3 rounded-md px-3 py-1.5 text-sm ${i === active ? "bg-accent-muted text-fg" : "text-fg"}`}
              >
                <span className="min-w-0 flex-1 truncate">{it.label}</span>
                {it.hint && <span className="max-w-[45%] shrink-0 truncate text-xs text-fg-muted">{it.hint}</span>}
              </div>
            </li>
          );
        })}
      </ul>
    </Modal>
  );
}
