"use client";
// The board: the selected project's five derived columns, with empty states that say what to do.
import { COLUMN_TITLES, COLUMNS, type Column } from "../server/core/tasks/columns";
import type { Board as BoardData } from "../server/core/tasks/board";

const HINTS: Record<Column, string> = {
  backlog: "Tasks not started yet.",
  in_progress: "Agents at work.",
  needs_you: "Blocked on a prompt, waiting for input, or failed.",
  review: "Finished work waiting for your review.",
  done: "Merged, discarded or canceled.",
};

export function BoardColumns({ board, projectId }: { board: BoardData | null; projectId: string }) {
  const total = board ? COLUMNS.reduce((n, c) => n + board[c].length, 0) : 0;
  return (
    <div className="flex flex-col gap-3">
      {board && total === 0 && (
        <div className="rounded-md border border-dashed border-gray-300 p-4 text-sm text-gray-600 dark:border-gray-700 dark:text-gray-400">
          No tasks in this project yet. Start one from a terminal:
          <code className="ml-1 rounded bg-gray-100 px-1.5 py-0.5 font-mono text-xs dark:bg-gray-800">
            yard task start --project {projectId} --agent demo --objective &quot;…&quot;
          </code>
        </div>
      )}
      <div className="grid grid-cols-1 gap-3 md:grid-cols-5" data-testid="board-columns">
        {COLUMNS.map((c) => (
          <section
            key={c}
            aria-labelledby={`col-${c}`}
            data-column={c}
            className="flex min-h-64 flex-col rounded-md border border-gray-200 bg-gray-50 dark:border-gray-800 dark:bg-[#161b22]"
          >
            <h2 id={`col-${c}`} className="flex items-center justify-between border-b border-gray-200 px-3 py-2 text-sm font-semibold dark:border-gray-800">
              {COLUMN_TITLES[c]}
              <span className="rounded-full bg-gray-200 px-2 text-xs font-medium dark:bg-gray-700">{board ? board[c].length : "…"}</span>
            </h2>
            <ul className="flex flex-col gap-2 p-2">
              {board?.[c].map((t) => (
                <li key={t.id} className="rounded-md border border-gray-200 bg-white p-2 text-sm shadow-sm dark:border-gray-700 dark:bg-[#0d1117]">
                  <div className="font-medium">{t.title}</div>
                  <div className="mt-1 flex gap-2 text-xs text-gray-500 dark:text-gray-400">
                    <span>{t.state.replace("_", " ")}</span>
                    {t.branch && <span className="font-mono">{t.branch}</span>}
                  </div>
                </li>
              ))}
              {board && board[c].length === 0 && <li className="px-1 text-xs text-gray-500 dark:text-gray-400">{HINTS[c]}</li>}
            </ul>
          </section>
        ))}
      </div>
    </div>
  );
}
