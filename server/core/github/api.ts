// The GitHub REST calls the hand-off makes, through @octokit/rest (loaded on first use, so the
// server's start does not pay for it): create a pull request, find the open one of a branch, read
// one, and the checks of a commit (check runs and the combined commit status).
//
//   githubApi({ apiUrl, token, timeoutMs?, signal? }) -> GithubApi (each call ends after timeoutMs, 30 s)
//   githubError(e, what, token) -> YardError: 401 GITHUB_AUTH, 403 GITHUB_AUTH (or RATE_LIMITED
//     when the rate limit is spent, with `retryAt`), 404 NOT_FOUND, 409/422 CONFLICT, 429
//     RATE_LIMITED, 5xx, timeouts and network failures GITHUB_UNAVAILABLE; each with the API's own
//     message (and its validation errors) and the HTTP status in details. The token never appears
//     in a message: Octokit redacts its header, and any occurrence in a text is blanked out.
import { VERSION } from "../../version";
import { YardError, isYardError } from "../errors";
import { type CheckRun, type CommitStatus, summarizeChecks } from "./observe";
import type { PrChecks } from "../../wire/github";

export interface ApiPull {
  number: number;
  url: string;
  state: "open" | "closed";
  merged: boolean;
  draft: boolean;
  title: string;
  base: string;
  headSha: string;
  mergeCommit: string | null;
}

export interface GithubApi {
  createPull(p: {
    owner: string;
    repo: string;
    head: string;
    base: string;
    title: string;
    body: string;
    draft: boolean;
  }): Promise<ApiPull>;
  /** The open pull request whose head is `owner:branch`, or null. */
  findOpenPull(p: { owner: string; repo: string; head: string }): Promise<ApiPull | null>;
  getPull(p: { owner: string; repo: string; number: number }): Promise<ApiPull>;
  /** Check runs and commit statuses of `sha`, summarized (a source the token may not read counts as none). */
  checks(p: { owner: string; repo: string; sha: string }): Promise<PrChecks>;
}

const DEFAULT_TIMEOUT_MS = 30_000;

interface RawPull {
  number: number;
  html_url: string;
  state: string;
  merged?: boolean | null;
  merged_at?: string | null;
  draft?: boolean | null;
  title: string;
  base: { ref: string };
  head: { sha: string };
  merge_commit_sha?: string | null;
}

function toPull(p: RawPull): ApiPull {
  const merged = Boolean(p.merged ?? p.merged_at);
  return {
    number: p.number,
    url: p.html_url,
    state: p.state === "open" ? "open" : "closed",
    merged,
    draft: Boolean(p.draft),
    title: p.title,
    base: p.base.ref,
    headSha: p.head.sha,
    mergeCommit: merged ? (p.merge_commit_sha ?? null) : null,
  };
}

const SILENT = { debug() {}, info() {}, warn() {}, error() {} };

export async function githubApi(opts: {
  apiUrl: string;
  token: string;
  timeoutMs?: number;
  /** Ends every call at once when aborted (the poll stopping with the server). */
  signal?: AbortSignal;
}): Promise<GithubApi> {
  const { Octokit } = await import("@octokit/rest");
  const octokit = new Octokit({
    auth: opts.token,
    baseUrl: opts.apiUrl,
    userAgent: `switchyard/${VERSION}`,
    log: SILENT,
  });
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const request = () => {
    const timeout = AbortSignal.timeout(timeoutMs);
    return { signal: opts.signal ? AbortSignal.any([opts.signal, timeout]) : timeout };
  };
  const call = async <T>(what: string, fn: () => Promise<T>): Promise<T> => {
    try {
      return await fn();
    } catch (e) {
      throw githubError(e, what, opts.token);
    }
  };
  return {
    createPull: (p) =>
      call(`open a pull request on ${p.owner}/${p.repo}`, async () =>
        toPull((await octokit.rest.pulls.create({ ...p, request: request() })).data as RawPull),
      ),
    findOpenPull: (p) =>
      call(`list the pull requests of ${p.owner}/${p.repo}`, async () => {
        const { data } = await octokit.rest.pulls.list({ ...p, state: "open", per_page: 5, request: request() });
        return data.length ? toPull(data[0] as RawPull) : null;
      }),
    getPull: (p) =>
      call(`read pull request #${p.number} of ${p.owner}/${p.repo}`, async () =>
        toPull(
          (await octokit.rest.pulls.get({ owner: p.owner, repo: p.repo, pull_number: p.number, request: request() }))
            .data as RawPull,
        ),
      ),
    checks: async (p) => {
      const optional = async <T>(what: string, fn: () => Promise<T>, none: T): Promise<T> => {
        try {
          return await call(what, fn);
        } catch (e) {
          // A token without the checks or statuses permission: that source reports nothing.
          if (isYardError(e) && (e.code === "NOT_FOUND" || e.code === "GITHUB_AUTH")) return none;
          throw e;
        }
      };
      const [runs, statuses] = await Promise.all([
        optional(
          `read the check runs of ${p.sha.slice(0, 12)}`,
          async () =>
            (
              await octokit.rest.checks.listForRef({
                owner: p.owner,
                repo: p.repo,
                ref: p.sha,
                per_page: 100,
                request: request(),
              })
            ).data.check_runs as CheckRun[],
          [] as CheckRun[],
        ),
        optional(
          `read the commit status of ${p.sha.slice(0, 12)}`,
          async () =>
            (
              await octokit.rest.repos.getCombinedStatusForRef({
                owner: p.owner,
                repo: p.repo,
                ref: p.sha,
                request: request(),
              })
            ).data.statuses as CommitStatus[],
          [] as CommitStatus[],
        ),
      ]);
      return summarizeChecks(runs, statuses);
    },
  };
}

interface ErrorLike {
  status?: number;
  name?: string;
  message?: string;
  response?: { data?: unknown; headers?: Record<string, string | undefined> };
}

function githubError(e: unknown, what: string, token: string): YardError {
  if (isYardError(e)) return e;
  const err = (e ?? {}) as ErrorLike;
  const scrub = (s: string) => (token ? s.split(token).join("***") : s);
  const data = err.response?.data as
    | { message?: string; errors?: Array<{ message?: string; code?: string } | string> }
    | undefined;
  const apiMessage =
    typeof data?.message === "string"
      ? [
          data.message,
          ...(Array.isArray(data.errors)
            ? data.errors.map((x) => (typeof x === "string" ? x : (x.message ?? x.code ?? ""))).filter(Boolean)
            : []),
        ].join(": ")
      : (err.message ?? String(e));
  const message = scrub(`GitHub: could not ${what}: ${apiMessage}`).slice(0, 1000);
  const status = typeof err.status === "number" ? err.status : 0;
  const headers = err.response?.headers ?? {};
  const details: Record<string, unknown> = { status: status || null, apiMessage: scrub(apiMessage).slice(0, 1000) };
  if (err.name === "AbortError" || err.name === "TimeoutError")
    return new YardError("GITHUB_UNAVAILABLE", scrub(`GitHub: could not ${what}: no answer in time`), details);
  const rateLimited = status === 429 || (status === 403 && headers["x-ratelimit-remaining"] === "0");
  if (rateLimited) {
    const reset = Number(headers["x-ratelimit-reset"]);
    const retryAfter = Number(headers["retry-after"]);
    const retryAt = retryAfter > 0 ? Date.now() + retryAfter * 1000 : reset > 0 ? reset * 1000 : null;
    return new YardError("RATE_LIMITED", message, { ...details, retryAt });
  }
  if (status === 401 || status === 403) return new YardError("GITHUB_AUTH", message, details);
  if (status === 404) return new YardError("NOT_FOUND", message, details);
  if (status === 409 || status === 422) return new YardError("CONFLICT", message, details);
  if (status >= 400 && status < 500) return new YardError("BAD_PARAMS", message, details);
  return new YardError("GITHUB_UNAVAILABLE", message, details);
}
