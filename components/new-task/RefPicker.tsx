"use client";
// The "New task" form's base ref: a text input with a picker of the project's branches and recent
// commits (projects.refs; typing while it is open narrows the list, a click outside closes it).
import { useQuery } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { useApi } from "../../lib/api";
import { errorOf } from "../../lib/trpc";
import { Button, inputClass } from "../ui";

/** A text input for a ref with a picker of the project's branches and recent commits (projects.refs). */
export function RefPicker({
  id,
  projectId,
  value,
  onChange,
  invalid,
}: {
  id: string;
  projectId: string;
  value: string;
  onChange: (v: string) => void;
  invalid: boolean;
}) {
  const api = useApi();
  const [open, setOpen] = useState(false);
  // Opening the picker lists everything; typing while it is open narrows the list.
  const [typed, setTyped] = useState<string | null>(null);
  const [query, setQuery] = useState("");
  useEffect(() => {
    const t = setTimeout(() => setQuery(typed ?? ""), 200);
    return () => clearTimeout(t);
  }, [typed]);
  const refs = useQuery({
    ...api.projects.refs.queryOptions({ id: projectId, query: query || undefined }),
    enabled: open && !!projectId,
    retry: false,
  });
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!open) return;
    const onDown = (e: MouseEvent) => !box.current?.contains(e.target as Node) && setOpen(false);
    document.addEventListener("mousedown", onDown);
    return () => document.removeEventListener("mousedown", onDown);
  }, [open]);
  const pick = (v: string) => {
    onChange(v);
    setOpen(false);
    document.getElementById(id)?.focus();
  };
  return (
    <div ref={box} className="relative flex gap-1">
      <input
        id={id}
        value={value}
        onChange={(e) => {
          onChange(e.target.value);
          if (open) setTyped(e.target.value);
        }}
        aria-invalid={invalid}
        aria-describedby={invalid ? `${id}-err` : `${id}-hint`}
        placeholder="HEAD"
        className={`${inputClass} font-mono`}
        onKeyDown={(e) => e.key === "ArrowDown" && setOpen(true)}
      />
      <Button
        aria-label="Pick a branch or commit"
        aria-expanded={open}
        onClick={() => {
          setTyped(null);
          setOpen((o) => !o);
        }}
        className="w-8 px-0"
      >
        ▾
      </Button>
      {open && (
        <div
          role="listbox"
          aria-label="Branches and commits"
          className="absolute right-0 top-9 z-50 max-h-72 w-80 overflow-y-auto rounded-lg border border-line bg-overlay py-1 text-sm shadow-xl"
        >
          {refs.isPending ? (
            <div className="px-3 py-2 text-fg-muted">Loading…</div>
          ) : refs.isError ? (
            <div className="px-3 py-2 text-fg-muted">
              No list from the server ({errorOf(refs.error).message}); type a branch, tag or commit.
            </div>
          ) : (
            <>
              {refs.data.branches.length === 0 && refs.data.commits.length === 0 && (
                <div className="px-3 py-2 text-fg-muted">No branch or commit matches “{query}”.</div>
              )}
              <div className="px-3 pb-1 pt-1.5 text-xs font-semibold text-fg-muted">Branches</div>
              {refs.data.branches.map((b) => (
                <button
                  key={b.name}
                  type="button"
                  role="option"
                  aria-selected={value === b.name}
                  onClick={() => pick(b.name)}
                  className="flex w-full items-center gap-2 px-3 py-1 text-left hover:bg-canvas-subtle"
                >
                  <span className="font-mono">{b.name}</span>
                  {b.current && (
                    <span className="rounded-full border border-line px-1.5 text-[10px] text-fg-muted">current</span>
                  )}
                  <span className="ml-auto font-mono text-xs text-fg-subtle">{b.sha.slice(0, 7)}</span>
                </button>
              ))}
              <div className="px-3 pb-1 pt-2 text-xs font-semibold text-fg-muted">Recent commits</div>
              {refs.data.commits.map((c) => (
                <button
                  key={c.sha}
                  type="button"
                  role="option"
                  aria-selected={value === c.sha}
                  onClick={() => pick(c.sha)}
                  className="flex w-full items-center gap-2 px-3 py-1 text-left hover:bg-canvas-subtle"
                >
                  <span className="font-mono text-xs text-accent">{c.sha.slice(0, 7)}</span>
                  <span className="truncate">{c.subject}</span>
                </button>
              ))}
            </>
          )}
        </div>
      )}
    </div>
  );
}
