"use client";
// The top bar: product name, project switcher, "Add project", navigation and theme toggle.
import Link from "next/link";
import { PanesNavLink } from "./PanesNavLink";
import { ThemeToggle } from "./ThemeToggle";

export interface ProjectOption {
  id: string;
  name: string;
  path: string;
}

export function TopBar({
  projects,
  selectedId,
  onSelect,
  onAddProject,
}: {
  projects: ProjectOption[];
  selectedId: string | null;
  onSelect?: (id: string) => void;
  onAddProject?: () => void;
}) {
  return (
    <header className="flex items-center gap-3 border-b border-gray-200 bg-gray-50 px-4 py-2 dark:border-gray-800 dark:bg-[#161b22]">
      <Link href="/" className="font-semibold tracking-tight">
        <svg aria-hidden="true" viewBox="0 0 16 16" className="mr-1.5 inline h-4 w-4 align-[-2px]" fill="none" stroke="currentColor" strokeWidth="1.6">
          <path d="M2 14 L8 2 M14 14 L8 2 M8 9 L13 14" />
        </svg>
        Switchyard
      </Link>
      {onSelect && (
        <label className="flex items-center gap-2 text-sm">
          <span className="sr-only">Project</span>
          <select
            aria-label="Project"
            value={selectedId ?? ""}
            onChange={(e) => onSelect(e.target.value)}
            disabled={projects.length === 0}
            className="max-w-xs rounded-md border border-gray-300 bg-white px-2 py-1 text-sm dark:border-gray-700 dark:bg-[#0d1117]"
          >
            {projects.length === 0 && <option value="">No projects yet</option>}
            {projects.map((p) => (
              <option key={p.id} value={p.id} title={p.path}>
                {p.name}
              </option>
            ))}
          </select>
        </label>
      )}
      {onAddProject && (
        <button
          type="button"
          onClick={onAddProject}
          className="rounded-md border border-gray-300 px-2 py-1 text-sm hover:bg-gray-100 dark:border-gray-700 dark:hover:bg-gray-800"
        >
          + Add project
        </button>
      )}
      <nav className="ml-auto flex items-center gap-3 text-sm">
        <Link href="/" className="hover:underline">
          Board
        </Link>
        <PanesNavLink />
        <ThemeToggle />
      </nav>
    </header>
  );
}
