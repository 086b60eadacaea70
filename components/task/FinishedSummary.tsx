"use client";
// A finished task's "Finished" region, in place of the actions that no longer apply: how it ended
// ("Merged into <target>" or "Discarded", a status), the merge commit (with a copy button), how
// it landed when not as a merge commit (squashed, rebased, fast-forwarded), when and by whom (a pull
// request merged on GitHub: linked), and what the cleanup did (worktree removed, branch deleted or kept, uncommitted
// files deleted with a discard; a cleanup that failed says so). Who and the cleanup come from the
// task's task.finished journal event; what the task row holds is shown before it is read.
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { exactTime } from "../../lib/duration";
import { useTRPC } from "../../lib/trpc";
import type { Task } from "../../lib/types";
import { Alert, CopyButton, timeAgo } from "../ui";
import { Row } from "./Details";
import { Section } from "./Section";
import { shortSha } from "./TaskHeader";
import { isPaneId, type Me, personWords, useMe } from "../../lib/people";

interface Finished {
  target?: string;
  by?: string;
  uncommittedCount?: number;
  cleanup?: { worktreeRemoved?: boolean; worktreeMissing?: boolean; branchDeleted?: boolean; error?: string };
  /** Merged on GitHub: its pull request. */
  pullRequest?: { number?: number; url?: string };
}

const LANDED = { squash: "one squashed commit", rebase: "its commits rebased on top", ff: "a fast-forward" };

export function FinishedSummary({ task: t }: { task: Task }) {
  const trpc = useTRPC();
  const events = useQuery(trpc.tasks.events.queryOptions({ id: t.id }));
  const me = useMe();
  const f = (events.data?.events.findLast((e) => e.type === "task.finished")?.payload ?? {}) as Finished;
  const merged = t.disposition === "merged";
  const target = f.target ?? t.targetBranch;
  const cleanup = f.cleanup;
  return (
    <Section title="Finished" id="sec-finished">
      <div className="flex flex-col gap-2" data-testid="finished-summary">
        <Alert
          tone={merged ? "success" : "accent"}
          role="status"
          title={merged ? `Merged into ${target ?? "the target branch"}` : "Discarded"}
        >
          <span className="text-xs">
            {merged
              ? f.pullRequest
                ? "The task is done: its pull request was merged on GitHub."
                : "The task is done: its work is on the target branch."
              : `Nothing was merged into ${target ?? "the target branch"}.`}{" "}
            Nothing is left to review or merge.
          </span>
        </Alert>
        <dl className="grid grid-cols-[5.5rem_1fr] gap-x-2 gap-y-1 text-xs">
          {merged && t.mergeCommit && (
            <Row name="Merge commit">
              <span className="inline-flex items-center gap-0.5">
                <span className="font-mono" title={t.mergeCommit}>
                  {shortSha(t.mergeCommit)}
                </span>
                <CopyButton text={t.mergeCommit} label="Copy merge commit" />
              </span>
            </Row>
          )}
          {merged && t.mergeStrategy && t.mergeStrategy !== "merge" && (
            <Row name="Landed as">{LANDED[t.mergeStrategy]}</Row>
          )}
          {t.finishedAt && (
            <Row name={merged ? "Merged" : "Discarded"}>
              <time dateTime={t.finishedAt} title={t.finishedAt}>
                {exactTime(t.finishedAt)} ({timeAgo(t.finishedAt)})
              </time>
            </Row>
          )}
          {f.by && <Row name="By">{byWords(f.by, t, me)}</Row>}
          {f.pullRequest?.url && /^https?:\/\//.test(f.pullRequest.url) && (
            <Row name="Via">
              <a
                href={f.pullRequest.url}
                target="_blank"
                rel="noreferrer noopener"
                className="text-accent hover:underline"
              >
                Pull request #{f.pullRequest.number}
              </a>
            </Row>
          )}
          {cleanup && (
            <Row name="Worktree">
              {cleanup.worktreeRemoved || cleanup.worktreeMissing ? "removed" : "still on disk (cleanup failed)"}
            </Row>
          )}
          {t.branch && cleanup && (
            <Row name="Branch">
              <span className="font-mono">{t.branch}</span> {cleanup.branchDeleted ? "deleted" : "kept"}
            </Row>
          )}
          {!merged && f.uncommittedCount !== undefined && (
            <Row name="Uncommitted">
              {f.uncommittedCount === 0
                ? "none lost"
                : `${f.uncommittedCount} ${f.uncommittedCount === 1 ? "file" : "files"} deleted with the worktree`}
            </Row>
          )}
        </dl>
        {t.cleanupError && (
          <Alert tone="attention" title={merged ? "The merge landed, but cleanup failed" : "Cleanup failed"}>
            {t.cleanupError}
          </Alert>
        )}
      </div>
    </Section>
  );
}

/** Who finished the task: you, another person (by name), GitHub, or the pane that did. */
function byWords(by: string, t: Task, me: Me | null) {
  if (by === "github") return "GitHub (its pull request was merged)";
  if (!isPaneId(by)) return personWords(by, me);
  return (
    <Link href={`/panes/${by}`} className="font-mono text-accent hover:underline">
      {by === t.parentPaneId ? `${by} (orchestrator)` : by}
    </Link>
  );
}
