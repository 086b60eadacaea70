"use client";
// The top bar on every page: product mark, navigation (Board, Panes, Agents, Worktrees, Insights, Audit, and People
// and Runners for admins), the signed-in person, "New task", the command
// palette button, "Needs you" with its count, keyboard shortcuts help and the theme toggle.
import Link from "next/link";
import { usePathname } from "next/navigation";
import { useMe } from "../lib/people";
import { NeedsYou } from "./NeedsYou";
import { useUi } from "./Providers";
import { ThemeToggle } from "./ThemeToggle";
import { Button } from "./ui";

export function TopBar() {
  const ui = useUi();
  const pathname = usePathname() ?? "/";
  const me = useMe();
  const nav = [
    { href: "/", label: "Board", current: pathname === "/" || pathname.startsWith("/tasks") },
    { href: "/panes", label: "Panes", current: pathname.startsWith("/panes") },
    { href: "/agents", label: "Agents", current: pathname.startsWith("/agents") },
    { href: "/worktrees", label: "Worktrees", current: pathname.startsWith("/worktrees") },
    { href: "/insights", label: "Insights", current: pathname.startsWith("/insights") },
    { href: "/audit", label: "Audit", current: pathname.startsWith("/audit") },
    ...(me?.role === "admin"
      ? [
          { href: "/people", label: "People", current: pathname.startsWith("/people") },
          { href: "/runners", label: "Runners", current: pathname.startsWith("/runners") },
        ]
      : []),
  ];
  return (
    <header className="sticky top-0 z-30 flex h-14 shrink-0 items-center gap-4 border-b border-line bg-canvas-subtle px-4">
      <Link href="/" className="flex items-center gap-2 text-[15px] font-semibold tracking-tight">
        <svg aria-hidden viewBox="0 0 32 32" className="h-6 w-6">
          <rect width="32" height="32" rx="7" className="fill-fg" />
          <path
            d="M9 24 L16 8 L23 24 M16 17 L21.5 24"
            fill="none"
            strokeWidth="2.6"
            strokeLinecap="round"
            strokeLinejoin="round"
            className="stroke-canvas"
          />
        </svg>
        Switchyard
      </Link>
      <nav aria-label="Main" className="flex items-center gap-1 text-sm">
        {nav.map((n) => (
          <Link
            key={n.href}
            href={n.href}
            aria-current={n.current ? "page" : undefined}
            className={`rounded-md px-2.5 py-1.5 ${n.current ? "bg-btn-hover font-semibold text-fg" : "text-fg-muted hover:bg-btn-hover hover:text-fg"}`}
          >
            {n.label}
          </Link>
        ))}
      </nav>
      <div className="ml-auto flex items-center gap-2">
        <button
          type="button"
          onClick={() => ui.openPalette()}
          aria-label="Command palette"
          aria-keyshortcuts="Control+K Meta+K"
          className="hidden h-8 w-56 items-center gap-2 rounded-md border border-line bg-canvas px-2.5 text-left text-sm text-fg-subtle hover:border-fg-subtle md:flex"
        >
          <svg aria-hidden viewBox="0 0 16 16" className="h-3.5 w-3.5 fill-current">
            <path d="M10.68 11.74a6 6 0 0 1-7.922-8.982 6 6 0 0 1 8.982 7.922l3.04 3.04a.749.749 0 0 1-.326 1.275.749.749 0 0 1-.734-.215ZM11.5 7a4.499 4.499 0 1 0-8.997 0A4.499 4.499 0 0 0 11.5 7Z" />
          </svg>
          <span className="flex-1">Search or jump to…</span>
          <kbd className="rounded border border-line px-1 font-mono text-[10px]">Ctrl K</kbd>
        </button>
        <Button variant="primary" onClick={() => ui.openNewTask()} aria-keyshortcuts="n">
          New task
        </Button>
        <NeedsYou />
        {me && (
          <span
            data-testid="signed-in-as"
            title={`Signed in as ${me.name} (${me.role})`}
            className="sr-only text-xs text-fg-muted 2xl:not-sr-only"
          >
            {me.name} · {me.role}
          </span>
        )}
        <Button
          variant="invisible"
          onClick={() => ui.openShortcuts()}
          aria-label="Keyboard shortcuts"
          title="Keyboard shortcuts (?)"
          className="w-8 px-0"
        >
          <span aria-hidden className="font-mono">
            ?
          </span>
        </Button>
        <ThemeToggle />
      </div>
    </header>
  );
}
