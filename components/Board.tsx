"use client";
// The board's five derived columns and their cards. Each card is a link to its task page with
// title, label, agent, state, round, how long it has been in its column, its diff size (files,
// +added −deleted lines) and a "needs you" marker. Arrow keys
// move between cards (Enter opens), a Backlog card can be dragged to In progress (or started
// with its "Start" button) to start it. A Backlog card says what it waits for; dropping any card
// onto a Backlog card makes the latter depend on it (or use its "Depends on…" button).
import Link from "next/link";
import { memo, type KeyboardEvent, useCallback, useMemo, useRef, useState } from "react";
import { COLUMN_TITLES, COLUMNS, type Column } from "../server/wire/columns";
import type { BoardCardData } from "../lib/types";
import { ColumnAge, DiffSizeLabel } from "./CardFacts";
import { SetupBadge, SetupLine } from "./SetupBadge";
import { AddDependency, withTitles } from "./task/Orchestration";
import { Button, Label, Modal, StateBadge } from "./ui";
import { initials, isPaneId } from "../lib/people";

/** A board card with its project; on the all-projects board it also names the project. */
export type Card = BoardCardData & { projectId?: string; projectName?: string };

const TASK_TYPE = "application/x-yard-task";
const DEP_TYPE = "application/x-yard-dependency";

export type Columns = Record<Column, Card[]>;

const HINTS: Record<Column, string> = {
  backlog: "Saved tasks, not started yet. Drag one to In progress to start it.",
  in_progress: "Agents at work.",
  needs_you: "Waiting on a prompt or your input, or failed.",
  review: "Finished work waiting for your review.",
  done: "Merged, discarded or canceled.",
};

const ACCENT: Record<Column, string> = {
  backlog: "bg-fg-subtle",
  in_progress: "bg-accent",
  needs_you: "bg-severe",
  review: "bg-success",
  done: "bg-done",
};

export function BoardColumns({
  columns,
  onStart,
  startingId,
  onDepend,
  doneHref,
}: {
  columns: Columns | null;
  onStart: (id: string) => void;
  startingId: string | null;
  onDepend: (id: string, on: string) => void;
  /** Where every Done card is, page by page (the board carries only the newest). */
  doneHref?: string;
}) {
  const root = useRef<HTMLDivElement>(null);
  const [dragging, setDragging] = useState<string | null>(null);
  const [over, setOver] = useState(false);
  const [dependOf, setDependOf] = useState<Card | null>(null);
  const all = useMemo(() => (columns ? COLUMNS.flatMap((c) => columns[c]) : []), [columns]);
  const titles = useMemo(() => new Map(all.map((c) => [c.id, c.title])), [all]);
  const draggingBacklog = dragging !== null && columns?.backlog.some((c) => c.id === dragging) === true;

  const onKeyDown = useCallback((e: KeyboardEvent<HTMLDivElement>) => {
    if (!["ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight", "Home", "End"].includes(e.key)) return;
    const el = (e.target as HTMLElement).closest<HTMLElement>("[data-card]");
    if (!el || !root.current) return;
    const col = Number(el.dataset.col);
    const row = Number(el.dataset.row);
    const find = (c: number, r: number) =>
      root.current!.querySelector<HTMLElement>(`[data-card][data-col="${c}"][data-row="${r}"]`);
    const count = (c: number) => root.current!.querySelectorAll(`[data-card][data-col="${c}"]`).length;
    let target: HTMLElement | null = null;
    if (e.key === "ArrowDown") target = find(col, row + 1);
    else if (e.key === "ArrowUp") target = find(col, row - 1);
    else if (e.key === "Home") target = find(col, 0);
    else if (e.key === "End") target = find(col, count(col) - 1);
    else {
      const dir = e.key === "ArrowRight" ? 1 : -1;
      for (let c = col + dir; c >= 0 && c < COLUMNS.length; c += dir) {
        const n = count(c);
        if (n > 0) {
          target = find(c, Math.min(row, n - 1));
          break;
        }
      }
    }
    if (target) {
      e.preventDefault();
      target.focus();
      target.scrollIntoView({ block: "nearest" });
    }
  }, []);

  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: arrow keys bubble up from the focused card (each card is a link); the grid itself takes no focus
    <div
      ref={root}
      onKeyDown={onKeyDown}
      className="grid min-h-0 flex-1 grid-cols-1 gap-3 md:grid-cols-5"
      data-testid="board-columns"
    >
      {COLUMNS.map((c, ci) => {
        const cards = columns?.[c] ?? [];
        const droppable = c === "in_progress" && draggingBacklog;
        return (
          <section
            key={c}
            aria-labelledby={`col-${c}`}
            data-column={c}
            onDragOver={
              c === "in_progress"
                ? (e) => {
                    if (!e.dataTransfer.types.includes(TASK_TYPE)) return;
                    e.preventDefault();
                    e.dataTransfer.dropEffect = "move";
                    setOver(true);
                  }
                : undefined
            }
            onDragLeave={c === "in_progress" ? () => setOver(false) : undefined}
            onDrop={
              c === "in_progress"
                ? (e) => {
                    const id = e.dataTransfer.getData(TASK_TYPE);
                    setOver(false);
                    setDragging(null);
                    if (id) {
                      e.preventDefault();
                      onStart(id);
                    }
                  }
                : undefined
            }
            className={`flex min-h-64 min-w-0 flex-col rounded-lg border bg-canvas-subtle transition-colors ${droppable && over ? "border-accent ring-2 ring-accent/30" : droppable ? "border-dashed border-accent/60" : "border-line"}`}
          >
            <h2 id={`col-${c}`} className="flex items-center gap-2 px-3 pb-2 pt-2.5 text-sm font-semibold">
              <span aria-hidden className={`h-2.5 w-2.5 rounded-full ${ACCENT[c]}`} />
              {COLUMN_TITLES[c]}
              <span className="ml-auto rounded-full bg-neutral-muted px-2 text-xs font-medium leading-5 text-fg-muted">
                <span aria-hidden>{columns ? cards.length : "…"}</span>
                <span className="sr-only">{columns ? `${cards.length} tasks` : "loading"}</span>
              </span>
            </h2>
            <ul className="flex min-h-0 flex-1 flex-col gap-2 overflow-y-auto px-2 pb-2">
              {columns === null &&
                [0, 1].map((i) => (
                  <li key={i} aria-hidden className="h-[74px] animate-pulse rounded-md border border-line bg-canvas" />
                ))}
              {cards.map((t, ri) => (
                <BoardCard
                  key={t.id}
                  card={t}
                  col={ci}
                  row={ri}
                  starting={startingId === t.id}
                  onStart={onStart}
                  onDrag={setDragging}
                  dragging={dragging}
                  titles={titles}
                  onDepend={onDepend}
                  onDependOn={setDependOf}
                />
              ))}
              {columns && cards.length === 0 && <li className="px-1 py-2 text-xs text-fg-muted">{HINTS[c]}</li>}
            </ul>
            {c === "done" && doneHref && cards.length > 0 && (
              <Link href={doneHref} className="px-3 pb-2.5 text-xs font-medium text-accent hover:underline">
                All done tasks
              </Link>
            )}
          </section>
        );
      })}
      <Modal
        open={dependOf !== null}
        onClose={() => setDependOf(null)}
        title={dependOf ? `${dependOf.title} depends on…` : ""}
      >
        {dependOf && (
          <div className="flex flex-col gap-3 p-4 text-sm">
            <p className="text-fg-muted">
              It waits in the backlog until every dependency is met, then starts by itself. Tip: you can also drop a
              card onto it.
            </p>
            <AddDependency
              taskId={dependOf.id}
              taskTitle={dependOf.title}
              candidates={all.filter(
                (c) =>
                  c.id !== dependOf.id &&
                  c.projectId === dependOf.projectId &&
                  !dependOf.dependsOn.includes(c.id) &&
                  c.disposition !== "discarded" &&
                  c.state !== "canceled",
              )}
              onAdded={() => setDependOf(null)}
            />
          </div>
        )}
      </Modal>
    </div>
  );
}

/** A Backlog card's line: the server's reason with task ids replaced by titles the board knows. */
function waitingLine(t: Card, titles: Map<string, string>): { text: string; blocked: boolean } | null {
  if (!t.waiting) return null;
  return {
    text: withTitles(
      t.waiting,
      t.dependsOn.map((id) => ({ id, title: titles.get(id) ?? id })).filter((d) => d.title !== d.id),
    ),
    blocked: t.waiting.startsWith("Blocked"),
  };
}

const BoardCard = memo(function BoardCard({
  card: t,
  col,
  row,
  starting,
  onStart,
  onDrag,
  dragging,
  titles,
  onDepend,
  onDependOn,
}: {
  card: Card;
  col: number;
  row: number;
  starting: boolean;
  onStart: (id: string) => void;
  onDrag: (id: string | null) => void;
  dragging: string | null;
  titles: Map<string, string>;
  onDepend: (id: string, on: string) => void;
  onDependOn: (card: Card) => void;
}) {
  const backlog = t.state === "backlog";
  const needs = t.needsUser;
  const titleId = `card-${t.id}-title`;
  const metaId = `card-${t.id}-meta`;
  const waitId = `card-${t.id}-waits`;
  const ageId = `card-${t.id}-age`;
  const setupId = `card-${t.id}-setup`;
  const [over, setOver] = useState(false);
  // Another card dragged over a Backlog card: dropping it makes this one depend on it.
  const target = backlog && dragging !== null && dragging !== t.id;
  const waiting = backlog ? waitingLine(t, titles) : null;
  return (
    <li
      className={`card-cv group relative rounded-md border bg-canvas shadow-[0_1px_0_rgba(31,35,40,0.04)] hover:border-fg-subtle/60 ${target && over ? "border-accent ring-2 ring-accent/30" : target ? "border-dashed border-accent/60" : "border-line"}`}
      data-task-id={t.id}
      draggable
      onDragStart={(e) => {
        if (backlog) e.dataTransfer.setData(TASK_TYPE, t.id);
        e.dataTransfer.setData(DEP_TYPE, t.id);
        e.dataTransfer.effectAllowed = backlog ? "copyMove" : "copy";
        onDrag(t.id);
      }}
      onDragEnd={() => onDrag(null)}
      onDragOver={
        backlog
          ? (e) => {
              if (!e.dataTransfer.types.includes(DEP_TYPE) || dragging === t.id) return;
              e.preventDefault();
              e.stopPropagation();
              e.dataTransfer.dropEffect = "copy";
              setOver(true);
            }
          : undefined
      }
      onDragLeave={backlog ? () => setOver(false) : undefined}
      onDrop={
        backlog
          ? (e) => {
              const on = e.dataTransfer.getData(DEP_TYPE);
              setOver(false);
              onDrag(null);
              if (!on || on === t.id) return;
              e.preventDefault();
              e.stopPropagation();
              onDepend(t.id, on);
            }
          : undefined
      }
    >
      <Link
        href={`/tasks/${t.id}`}
        prefetch={false}
        data-card
        data-col={col}
        data-row={row}
        aria-labelledby={titleId}
        aria-describedby={[metaId, ageId, waiting && waitId, t.setup && setupId].filter(Boolean).join(" ")}
        className="block rounded-md px-3 py-2 focus-visible:outline-offset-0"
        draggable={false}
      >
        <div className="flex items-start gap-2">
          <span id={titleId} className="min-w-0 flex-1 text-sm font-semibold leading-5 text-fg group-hover:text-accent">
            {t.title}
          </span>
          <ColumnAge id={ageId} since={t.columnSince} column={COLUMN_TITLES[COLUMNS[col]!]} />
          {needs && (
            <span
              data-testid="needs-you-marker"
              title="Needs you"
              className="mt-1 inline-flex h-2.5 w-2.5 shrink-0 rounded-full bg-severe ring-2 ring-severe/25"
            >
              <span className="sr-only">needs you</span>
            </span>
          )}
        </div>
        <div id={metaId} className="mt-1.5 flex flex-wrap items-center gap-x-2 gap-y-1 text-xs text-fg-muted">
          {t.setup ? <SetupBadge /> : <StateBadge state={t.state} disposition={t.disposition} size="sm" />}
          {t.startedBy && !isPaneId(t.startedBy) && <Avatar name={t.startedBy} />}
          {t.label && <Label>{t.label}</Label>}
          <span title="Agent">{t.agent}</span>
          {t.runner && (
            <span title="Runs on this runner" data-testid="card-runner">
              on {t.runner}
            </span>
          )}
          <span title="Round">round {t.round}</span>
          {t.diffStat && <DiffSizeLabel diff={t.diffStat} />}
          {t.reviewStatus === "approved" && <span className="text-success">approved</span>}
          {t.reviewStatus === "outdated" && (
            <span
              className="text-attention"
              title="Approved, but the branch has moved since: it needs a new review before it merges"
            >
              approval outdated
            </span>
          )}
          {t.reviewStatus === "changes_requested" && <span className="text-severe">changes requested</span>}
        </div>
        {t.setup && <SetupLine setup={t.setup} id={setupId} />}
        {waiting && (
          <div
            id={waitId}
            data-testid="card-waiting"
            className={`mt-1.5 text-xs leading-4 ${waiting.blocked ? "text-danger" : "text-attention"}`}
          >
            {waiting.text}
          </div>
        )}
        {t.projectName && <div className="mt-1 truncate text-[11px] text-fg-subtle">{t.projectName}</div>}
      </Link>
      {backlog && (
        <div className="flex gap-1.5 px-3 pb-2">
          <Button size="sm" onClick={() => onStart(t.id)} disabled={starting} aria-label={`Start ${t.title}`}>
            {starting ? "Starting…" : "Start"}
          </Button>
          <Button
            size="sm"
            variant="invisible"
            onClick={() => onDependOn(t)}
            aria-label={`Depends on… (${t.title})`}
            aria-haspopup="dialog"
          >
            Depends on…
          </Button>
        </div>
      )}
    </li>
  );
});

/** Who started a task, as initials (the full name for the mouse and for screen readers). */
function Avatar({ name }: { name: string }) {
  return (
    <span
      title={`Started by ${name}`}
      className="inline-flex h-5 w-5 items-center justify-center rounded-full bg-accent-muted text-[10px] font-semibold text-accent"
    >
      <span aria-hidden>{initials(name)}</span>
      <span className="sr-only">started by {name}</span>
    </span>
  );
}
