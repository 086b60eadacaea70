// The task page's header: title and id, the state in words, round, agent, branch → target, base
// (with a copy button), context, label, parent links and when it was opened.
import Link from "next/link";
import { isPaneId, personWords, useMe } from "../../lib/people";
import type { Task } from "../../lib/types";
import { SetupBadge } from "../SetupBadge";
import { CopyButton, Label, StateBadge, STATE_WORDS, timeAgo } from "../ui";

/** A commit id shortened for display ("—" when there is none). */
export const shortSha = (s: string | null | undefined) => (s ? s.slice(0, 7) : "—");

export function TaskHeader({ task: t }: { task: Task }) {
  const me = useMe();
  return (
    <header className="border-b border-line pb-4">
      <div className="text-sm text-fg-muted">
        <Link href={t.projectId ? `/?project=${t.projectId}` : "/"} className="hover:text-accent hover:underline">
          ← Board
        </Link>
      </div>
      <h1 className="mt-1 text-2xl font-semibold leading-tight">
        {t.title} <span className="font-normal text-fg-subtle">{t.id}</span>
      </h1>
      <div className="mt-2 flex flex-wrap items-center gap-x-3 gap-y-2 text-sm text-fg-muted">
        {t.state === "pending" && (t.evidence as { stage?: unknown } | null)?.stage === "setup" ? (
          <SetupBadge size="md" />
        ) : (
          <StateBadge state={t.state} disposition={t.disposition} />
        )}
        <span data-testid="task-state-words" className="sr-only">
          {STATE_WORDS[t.state] ?? t.state}
        </span>
        <span data-testid="task-round">round {t.round}</span>
        <span>
          agent <strong className="font-medium text-fg">{t.agent}</strong>
        </span>
        {t.runner && (
          <span data-testid="task-runner">
            on runner <strong className="font-medium text-fg">{t.runner}</strong>
          </span>
        )}
        {t.startedBy && (
          <span data-testid="task-started-by">
            started by{" "}
            <strong className="font-medium text-fg">
              {isPaneId(t.startedBy) ? t.startedBy : personWords(t.startedBy, me)}
            </strong>
          </span>
        )}
        {t.branch && (
          <span className="flex items-center gap-1 font-mono text-xs">
            <span className="rounded-md bg-accent-muted px-1.5 py-0.5 text-accent">{t.branch}</span>
            <span aria-hidden>→</span>
            <span className="sr-only">into</span>
            <span className="rounded-md bg-accent-muted px-1.5 py-0.5 text-accent">
              {t.targetBranch ?? "(no target)"}
            </span>
          </span>
        )}
        <span className="flex items-center gap-0.5">
          base{" "}
          <span className="font-mono text-xs text-fg" data-testid="base-sha" title={t.baseSha ?? ""}>
            {shortSha(t.baseSha)}
          </span>
          {t.baseSha && <CopyButton text={t.baseSha} label="Copy base SHA" />}
        </span>
        {t.contextId && (
          <span>
            context{" "}
            <Link
              href={`/?project=${t.projectId ?? "all"}&context=${encodeURIComponent(t.contextId)}`}
              className="font-mono text-xs text-accent hover:underline"
            >
              {t.contextId}
            </Link>
          </span>
        )}
        {t.label && <Label>{t.label}</Label>}
        {t.parentTaskId && (
          <Link href={`/tasks/${t.parentTaskId}`} className="text-accent hover:underline">
            parent task
          </Link>
        )}
        {t.parentPaneId && (
          <Link href={`/panes/${t.parentPaneId}`} className="text-accent hover:underline">
            parent pane
          </Link>
        )}
        <span title={t.createdAt}>opened {timeAgo(t.createdAt)}</span>
      </div>
    </header>
  );
}
