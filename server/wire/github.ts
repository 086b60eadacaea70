// The hand-off to GitHub's contract: zod schemas for `tasks.push`, `tasks.pr`, `tasks.handoff`
// (where a task's branch was pushed and its pull request, kept current by the background poll)
// and the project's GitHub settings (`projects.github`, `projects.setGithubToken`: the token is
// write-only, callers learn only whether one is set and where from).
import { z } from "zod";
import { id, taskId } from "./common";

/** A git remote's name, as `git remote` lists it (no option, no path tricks). */
const remoteName = z
  .string()
  .trim()
  .min(1)
  .max(100)
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, "not a remote name");

export const pushInput = z.object({
  id: taskId,
  /** The remote to push to (default: the target branch's upstream remote, else origin). */
  remote: remoteName.optional(),
  /** Overwrite the remote branch only while it still holds what Switchyard last pushed there (never a plain force push). */
  forceWithLease: z.boolean().optional(),
});

/** What a push did: `new` branch, fast-forward `updated`, `forced` (with lease) or `up_to_date`. */
const pushResult = z.object({
  remote: z.string(),
  remoteBranch: z.string(),
  commit: z.string(),
  status: z.enum(["new", "updated", "forced", "up_to_date"]),
  /** Files the worktree has that are not committed: they were not pushed. */
  uncommitted: z.number().int(),
});
export type PushResult = z.infer<typeof pushResult>;

export const prInput = z.object({
  id: taskId,
  /** Open it as a draft. */
  draft: z.boolean().optional(),
  /** The remote to push to first (default: where the branch was pushed before, else as for push). */
  remote: remoteName.optional(),
});

const checkState = z.enum(["pending", "success", "failure", "neutral", "skipped"]);

/** The head commit's checks (check runs and commit statuses), summarized. */
const prChecks = z.object({
  /** none: no checks reported; pending: some still run; failure: any failed; else success. */
  state: z.enum(["none", "pending", "success", "failure"]),
  total: z.number().int(),
  passed: z.number().int(),
  failed: z.number().int(),
  pending: z.number().int(),
  /** At most 50, failures first. */
  items: z.array(z.object({ name: z.string(), state: checkState, url: z.string().nullable() })),
});
export type PrChecks = z.infer<typeof prChecks>;

const prState = z.enum(["open", "closed", "merged"]);
export type PrState = z.infer<typeof prState>;

const pullRequestView = z.object({
  number: z.number().int(),
  url: z.string(),
  /** owner/repo */
  repo: z.string(),
  base: z.string().nullable(),
  title: z.string().nullable(),
  state: prState,
  draft: z.boolean(),
  headSha: z.string().nullable(),
  mergeCommit: z.string().nullable(),
  checks: prChecks.nullable(),
  /** When the poll last read it (null: not yet). */
  polledAt: z.string().nullable(),
  /** Why the last poll failed (it backs off and tries again), null after a good one. */
  pollError: z.string().nullable(),
});
export type PullRequestView = z.infer<typeof pullRequestView>;

/** A task's hand-off: its last push and its pull request (none until pushed). */
const handoffView = z.object({
  remote: z.string(),
  remoteBranch: z.string(),
  pushedCommit: z.string().nullable(),
  pushedAt: z.string().nullable(),
  pullRequest: pullRequestView.nullable(),
});
export type HandoffView = z.infer<typeof handoffView>;

export const pushOutput = z.object({ push: pushResult, handoff: handoffView });

export const prOutput = z.object({
  /** false: the task's open pull request (or one GitHub already had for the branch) was adopted. */
  created: z.boolean(),
  /** The push made first (null when the remote branch already held the task's commit). */
  push: pushResult.nullable(),
  pullRequest: pullRequestView,
});

export const handoffInput = z.object({ id: taskId });
export const handoffOutput = handoffView.nullable();

export const githubStatusInput = z.object({ id });
/** Where pull requests of the project would get their token: its own (set), the server's GITHUB_TOKEN, or none. */
export const githubStatus = z.object({
  tokenSource: z.enum(["project", "env"]).nullable(),
  /** GITHUB_API_URL when the server has it (GitHub Enterprise), else null: api.github.com. */
  apiUrl: z.string().nullable(),
});

export const setGithubTokenInput = z.object({
  id,
  /** The token (a personal access token or fine-grained token); null removes the project's own. */
  token: z
    .string()
    .trim()
    .min(1)
    .max(1000)
    .regex(/^[\x21-\x7e]+$/, "a token is printable ASCII without spaces")
    .nullable(),
});
