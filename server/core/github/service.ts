// The hand-off to GitHub: pushing a task's branch, opening its pull request, reading the
// hand-off back, refreshing a pull request for the poll (poll.ts), and the project's token.
//
//   push(taskId, { remote?, forceWithLease? }) -> { push, handoff }
//     The task's branch (by its commit) to `remote` (default: where it went before, else the target's
//     upstream remote, else origin; NO_REMOTE names the remotes otherwise). A plain push refuses a
//     non-fast-forward (CONFLICT); forceWithLease replaces the remote branch only while it holds
//     what Switchyard last pushed there (else its remote-tracking commit; else it must not exist).
//   openPullRequest(taskId, { draft?, remote? }) -> { created, push, pullRequest }
//     The token first (GITHUB_TOKEN_MISSING says how to set one), owner/repo from the remote's URL
//     (as configured, else as git rewrites it), the branch pushed when the remote does not hold its
//     commit yet, then the pull request: title the task's, body its contract, result and review
//     (body.ts), base the target's branch on that remote. An open one already recorded is returned
//     as it is (created: false); one GitHub already has for the branch is adopted.
//   refresh(row, nextPollAt, signal?) — the poll's one step for one task: the pull request and its head's
//     checks read, observePull's changes recorded and journaled (task.pull_request), and a merged
//     one finishes its task (the engine's finishViaPullRequest: once the task is completed).
//   handoff(taskId), status(projectId), setToken(projectId, token|null).
// A task's project's own token wins over the server's GITHUB_TOKEN; tokens are never returned.
import type { HandoffRow, HandoffStore, PullRequestFields } from "../../stores/handoff";
import type { StoredReview } from "../../stores/reviews";
import type { TaskRow } from "../../stores/tasks";
import type { HandoffView, PrChecks, PrState, PullRequestView, PushResult } from "../../wire/github";
import { YardError, isYardError } from "../errors";
import type { EventJournal } from "../events/journal";
import { branchTip } from "../git";
import { defaultRemote, pushBranch, remoteTracking, remoteUrls, upstreamOf, withoutCredentials } from "../git/push";
import type { TaskView } from "../tasks/views";
import { type ApiPull, githubApi, type GithubApi } from "./api";
import { prBody } from "./body";
import { observePull } from "./observe";
import { apiUrlFor, type GithubRepo, parseGithubRemote } from "./remote";

interface PullRequestMerge {
  number: number;
  url: string;
  base: string | null;
  headSha: string | null;
  mergeCommit: string | null;
}

export interface GithubHandoffDeps {
  store: HandoffStore;
  journal: EventJournal;
  task(id: string): Promise<TaskRow>;
  view(id: string): Promise<TaskView>;
  /** The round's reviews, oldest first, with their comments. */
  reviews(taskId: string, round: number): Promise<StoredReview[]>;
  uncommitted(taskId: string): Promise<{ files: string[] }>;
  /** Finishes a task whose pull request merged (false while the task is not completed). */
  finishViaPullRequest(taskId: string, pr: PullRequestMerge): Promise<{ finished: boolean; state: string }>;
  projectExists(id: string): Promise<void>;
  env?: () => NodeJS.ProcessEnv;
  api?: typeof githubApi;
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export class GithubHandoff {
  constructor(private readonly deps: GithubHandoffDeps) {}

  private env(): NodeJS.ProcessEnv {
    return this.deps.env?.() ?? process.env;
  }

  async push(taskId: string, opts: { remote?: string; forceWithLease?: boolean } = {}) {
    const t = await this.unfinished(taskId);
    const push = await this.pushNow(t, opts.remote, opts.forceWithLease ?? false);
    return { push, handoff: (await this.handoff(taskId))! };
  }

  async openPullRequest(taskId: string, opts: { draft?: boolean; remote?: string } = {}) {
    const t = await this.unfinished(taskId);
    const token = await this.tokenFor(t.projectId);
    const rec = await this.deps.store.row(taskId);
    const remote = opts.remote ?? rec?.remote ?? (await defaultRemote(t.repoPath, t.targetBranch));
    const gh = await this.githubRepoOf(t.repoPath, remote);
    const api = await (this.deps.api ?? githubApi)({ apiUrl: apiUrlFor(gh.host, this.env()), token });

    // The remote must hold the branch's commit before a pull request can show it.
    const tip = await branchTip(t.repoPath, t.branch!);
    const pushed = rec && rec.remote === remote && rec.pushedCommit === tip;
    const push = pushed ? null : await this.pushNow(t, remote, false);
    const current = (await this.deps.store.row(taskId))!;

    if (current.prNumber && current.prState === "open" && current.prRepo === `${gh.owner}/${gh.repo}`)
      return { created: false, push, pullRequest: pullRequestOf(current)! };

    const base = await this.baseOf(t, remote);
    let pull: ApiPull;
    let created = true;
    try {
      pull = await api.createPull({
        owner: gh.owner,
        repo: gh.repo,
        head: current.remoteBranch,
        base,
        title: t.title,
        body: await this.body(taskId),
        draft: opts.draft ?? false,
      });
    } catch (e) {
      // GitHub already has an open pull request for the branch: that one is the task's.
      const existing =
        isYardError(e) && e.code === "CONFLICT"
          ? await api.findOpenPull({ owner: gh.owner, repo: gh.repo, head: `${gh.owner}:${current.remoteBranch}` })
          : null;
      if (!existing) throw e;
      pull = existing;
      created = false;
    }
    const row = await this.deps.store.openPullRequest(taskId, fieldsOf(pull, gh, null), new Date());
    await this.deps.journal.append("task.pull_request", {
      taskId,
      payload: {
        action: created ? "opened" : "adopted",
        number: pull.number,
        url: pull.url,
        state: row.prState as PrState,
        draft: pull.draft,
      },
    });
    return { created, push, pullRequest: pullRequestOf(row)! };
  }

  async refresh(
    row: HandoffRow & { task: { projectId: string | null } },
    nextPollAt: Date,
    signal?: AbortSignal,
  ): Promise<void> {
    const taskId = row.taskId;
    if (!row.prNumber || !row.prRepo || !row.prHost) return;
    const prev = { state: (row.prState ?? "open") as PrState, draft: row.prDraft, headSha: row.prHeadSha };
    if (prev.state !== "merged") {
      const token = await this.tokenFor(row.task.projectId);
      const [owner, repo] = row.prRepo.split("/") as [string, string];
      const api: GithubApi = await (this.deps.api ?? githubApi)({
        apiUrl: apiUrlFor(row.prHost, this.env()),
        token,
        signal,
      });
      const pull = await api.getPull({ owner, repo, number: row.prNumber });
      const checks = await api.checks({ owner, repo, sha: pull.headSha });
      const seen = observePull(prev, pull);
      const gh = { host: row.prHost, owner, repo };
      const updated = await this.deps.store.polled(
        taskId,
        fieldsOf(pull, gh, checks, seen.state),
        new Date(),
        nextPollAt,
      );
      const checksChanged = checksKey(row.prChecks) !== checksKey(updated.prChecks);
      // A merge the task cannot take yet (it is not completed) says what it waits for.
      const state = seen.changes.includes("merged") ? (await this.deps.task(taskId)).state : null;
      for (const action of [...seen.changes, ...(checksChanged ? (["checks"] as const) : [])]) {
        await this.deps.journal.append("task.pull_request", {
          taskId,
          payload: {
            action,
            number: pull.number,
            url: pull.url,
            state: seen.state,
            draft: pull.draft,
            checks: counts(checks),
            ...(action === "merged" && state && state !== "completed" ? { waitingFor: state } : {}),
          },
        });
      }
      if (seen.state !== "merged") return;
    }
    const now = (await this.deps.store.row(taskId))!;
    await this.deps.finishViaPullRequest(taskId, {
      number: now.prNumber!,
      url: now.prUrl!,
      base: now.prBase,
      headSha: now.prHeadSha,
      mergeCommit: now.prMergeCommit,
    });
  }

  async handoff(taskId: string): Promise<HandoffView | null> {
    await this.deps.task(taskId);
    const r = await this.deps.store.row(taskId);
    if (!r) return null;
    return {
      remote: r.remote,
      remoteBranch: r.remoteBranch,
      pushedCommit: r.pushedCommit,
      pushedAt: iso(r.pushedAt),
      pullRequest: pullRequestOf(r),
    };
  }

  async status(projectId: string): Promise<{ tokenSource: "project" | "env" | null; apiUrl: string | null }> {
    await this.deps.projectExists(projectId);
    const own = await this.deps.store.projectToken(projectId);
    const env = this.env();
    return {
      tokenSource: own ? "project" : env.GITHUB_TOKEN?.trim() ? "env" : null,
      apiUrl: env.GITHUB_API_URL?.trim() || null,
    };
  }

  async setToken(projectId: string, token: string | null) {
    await this.deps.projectExists(projectId);
    await this.deps.store.setProjectToken(projectId, token);
    return this.status(projectId);
  }

  // ---- internals ----------------------------------------------------------------------------

  private async unfinished(taskId: string): Promise<TaskRow> {
    const t = await this.deps.task(taskId);
    if (t.disposition)
      throw new YardError("CONFLICT", `The task is already ${t.disposition}: there is nothing to hand off`, {
        disposition: t.disposition,
      });
    if (!t.branch || !t.baseSha)
      throw new YardError("CONFLICT", "The task has not started: it has no branch to push yet", { state: t.state });
    return t;
  }

  private async tokenFor(projectId: string | null): Promise<string> {
    const own = projectId ? await this.deps.store.projectToken(projectId) : null;
    const token = own ?? (this.env().GITHUB_TOKEN?.trim() || null);
    if (!token)
      throw new YardError(
        "GITHUB_TOKEN_MISSING",
        projectId
          ? `No GitHub token: set GITHUB_TOKEN in the server's environment, or the project's own with \`yard project github-token ${projectId}\` (it reads the token from stdin)`
          : "No GitHub token: set GITHUB_TOKEN in the server's environment",
        { projectId },
      );
    return token;
  }

  private async pushNow(t: TaskRow, remoteArg: string | undefined, force: boolean): Promise<PushResult> {
    const rec = await this.deps.store.row(t.id);
    const remote = remoteArg ?? rec?.remote ?? (await defaultRemote(t.repoPath, t.targetBranch));
    const sameRemote = rec?.remote === remote;
    const remoteBranch = sameRemote ? rec!.remoteBranch : t.branch!;
    const lease = force
      ? {
          expect:
            (sameRemote ? rec!.pushedCommit : null) ?? (await remoteTracking(t.repoPath, remote, remoteBranch)) ?? "",
        }
      : null;
    const r = await pushBranch({ repoRoot: t.repoPath, remote, branch: t.branch!, remoteBranch, lease });
    await this.deps.store.recordPush(t.id, { remote, remoteBranch, commit: r.commit, at: new Date() });
    await this.deps.journal.append("task.pushed", {
      taskId: t.id,
      payload: { remote, remoteBranch, commit: r.commit, status: r.status },
    });
    const uncommitted = (await this.deps.uncommitted(t.id).catch(() => ({ files: [] }))).files.length;
    return { remote, remoteBranch, commit: r.commit, status: r.status, uncommitted };
  }

  private async githubRepoOf(repoPath: string, remote: string): Promise<GithubRepo> {
    const urls = await remoteUrls(repoPath, remote);
    const gh = parseGithubRemote(urls.configured) ?? parseGithubRemote(urls.effective);
    if (!gh)
      throw new YardError(
        "BAD_PARAMS",
        `The remote '${remote}' (${withoutCredentials(urls.configured ?? urls.effective ?? "no URL")}) is not a GitHub repository URL (https://HOST/OWNER/REPO or git@HOST:OWNER/REPO)`,
        { remote },
      );
    return gh;
  }

  /** The pull request's base: the target's branch on that remote (its upstream there), else the target's name. */
  private async baseOf(t: TaskRow, remote: string): Promise<string> {
    if (!t.targetBranch)
      throw new YardError(
        "BAD_PARAMS",
        "The task has no target branch (it started on a detached HEAD): nothing to open a pull request against",
      );
    const up = await upstreamOf(t.repoPath, t.targetBranch).catch(() => null);
    return up && up.remote === remote ? up.branch : t.targetBranch;
  }

  private async body(taskId: string): Promise<string> {
    const view = await this.deps.view(taskId);
    const reviews = await this.deps.reviews(taskId, view.round);
    const last = reviews.at(-1) ?? null;
    return prBody({
      task: { id: view.id, round: view.round, branch: view.branch, contract: view.contract, result: view.result },
      review: last
        ? {
            verdict: last.verdict,
            stage: last.stage,
            reviewer: last.reviewer,
            summary: last.summary,
            comments: last.comments.map((c) => ({
              path: c.path,
              startLine: c.startLine,
              endLine: c.endLine,
              side: c.side,
              body: c.body,
              resolved: c.resolved,
              author: c.author,
            })),
          }
        : null,
    });
  }
}

function fieldsOf(pull: ApiPull, gh: GithubRepo, checks: PrChecks | null, state?: PrState): PullRequestFields {
  // The board links to it: only a web address.
  if (!/^https?:\/\//.test(pull.url))
    throw new YardError("GITHUB_UNAVAILABLE", `GitHub answered with a pull request URL that is not a web address`, {
      url: pull.url.slice(0, 200),
    });
  return {
    prNumber: pull.number,
    prUrl: pull.url,
    prHost: gh.host,
    prRepo: `${gh.owner}/${gh.repo}`,
    prBase: pull.base,
    prTitle: pull.title,
    prState: state ?? (pull.merged ? "merged" : pull.state),
    prDraft: pull.draft,
    prHeadSha: pull.headSha,
    prMergeCommit: pull.mergeCommit,
    prChecks: checks ? JSON.stringify(checks) : null,
  };
}

function parseChecks(s: string | null): PrChecks | null {
  if (!s) return null;
  try {
    return JSON.parse(s) as PrChecks;
  } catch {
    return null;
  }
}

const counts = (c: PrChecks | null) =>
  c ? { state: c.state, total: c.total, passed: c.passed, failed: c.failed, pending: c.pending } : null;
const checksKey = (s: string | null) => JSON.stringify(counts(parseChecks(s)));

function pullRequestOf(r: HandoffRow): PullRequestView | null {
  if (!r.prNumber || !r.prUrl || !r.prRepo) return null;
  return {
    number: r.prNumber,
    url: r.prUrl,
    repo: r.prRepo,
    base: r.prBase,
    title: r.prTitle,
    state: (r.prState ?? "open") as PrState,
    draft: r.prDraft,
    headSha: r.prHeadSha,
    mergeCommit: r.prMergeCommit,
    checks: parseChecks(r.prChecks),
    polledAt: iso(r.polledAt),
    pollError: r.pollError,
  };
}
