// Persistence for the hand-off to GitHub: the only code that reads or writes TaskHandoff rows (a
// task's last push and its pull request) and ProjectGithub rows (a project's write-only token).
import type { Db } from "../db";

export type HandoffRow = NonNullable<Awaited<ReturnType<Db["taskHandoff"]["findUnique"]>>>;

/** What a pull request's record holds, as the API last said. */
export interface PullRequestFields {
  prNumber: number;
  prUrl: string;
  prHost: string;
  prRepo: string;
  prBase: string | null;
  prTitle: string | null;
  prState: string;
  prDraft: boolean;
  prHeadSha: string | null;
  prMergeCommit: string | null;
  prChecks: string | null;
}

export class HandoffStore {
  constructor(private readonly db: Db) {}

  row(taskId: string): Promise<HandoffRow | null> {
    return this.db.taskHandoff.findUnique({ where: { taskId } });
  }

  /** Records a push: the remote, its branch and the commit left there (a push elsewhere starts a new record). */
  async recordPush(taskId: string, p: { remote: string; remoteBranch: string; commit: string; at: Date }) {
    const push = { remote: p.remote, remoteBranch: p.remoteBranch, pushedCommit: p.commit, pushedAt: p.at };
    return this.db.taskHandoff.upsert({ where: { taskId }, create: { taskId, ...push }, update: push });
  }

  /** Records a pull request just opened (or adopted): polled from now on. */
  openPullRequest(taskId: string, pr: PullRequestFields, at: Date): Promise<HandoffRow> {
    return this.db.taskHandoff.update({
      where: { taskId },
      data: { ...pr, polledAt: at, pollError: null, pollFailures: 0, nextPollAt: null },
    });
  }

  /** What a poll read (the pull request's fields), and when to look again. */
  polled(taskId: string, pr: Partial<PullRequestFields>, at: Date, nextPollAt: Date): Promise<HandoffRow> {
    return this.db.taskHandoff.update({
      where: { taskId },
      data: { ...pr, polledAt: at, pollError: null, pollFailures: 0, nextPollAt },
    });
  }

  /** A poll that failed: why, how many in a row, and when to try again. */
  pollFailed(taskId: string, error: string, failures: number, nextPollAt: Date): Promise<HandoffRow> {
    return this.db.taskHandoff.update({
      where: { taskId },
      data: { pollError: error, pollFailures: failures, nextPollAt },
    });
  }

  /**
   * What the poll looks at: open pull requests, and merged ones whose task is not finished yet
   * (it finishes once it is completed), with the task's project.
   */
  pollable(): Promise<Array<HandoffRow & { task: { projectId: string | null; disposition: string | null } }>> {
    return this.db.taskHandoff.findMany({
      where: {
        prNumber: { not: null },
        OR: [{ prState: "open" }, { prState: "merged", task: { disposition: null } }],
      },
      include: { task: { select: { projectId: true, disposition: true } } },
      orderBy: { taskId: "asc" },
    });
  }

  async projectToken(projectId: string): Promise<string | null> {
    return (await this.db.projectGithub.findUnique({ where: { projectId } }))?.token ?? null;
  }

  async setProjectToken(projectId: string, token: string | null): Promise<void> {
    await this.db.projectGithub.upsert({ where: { projectId }, create: { projectId, token }, update: { token } });
  }
}
