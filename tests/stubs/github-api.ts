// A small local stand-in for GitHub's REST API in the tests (like model-api.ts for the model
// APIs): the endpoints the hand-off uses, served under a GitHub Enterprise-style prefix
// (`<url>/api/v3`, what GITHUB_API_URL points at), with state the test drives:
//
//   const gh = await startGithubStub({ token: "ghp_test", repos: { "acme/widgets": bareRepoPath } });
//   // server env: GITHUB_API_URL = gh.apiUrl, GITHUB_TOKEN = "ghp_test"
//   gh.setChecks(sha, { runs: [...], statuses: [...] }); gh.merge(1); gh.closePull(1); gh.failNext(2, 503);
//
//   POST /repos/:owner/:repo/pulls              create (422 when the head branch is not in the
//                                               repository's bare remote, or already has an open one)
//   GET  /repos/:owner/:repo/pulls?head=&state= list (open ones of a head)
//   GET  /repos/:owner/:repo/pulls/:number      one (its head read from the bare remote each time)
//   GET  /repos/:owner/:repo/commits/:ref/check-runs, /status   the checks set for that commit
//
// Every request needs `Authorization: token|Bearer <token>` (401 "Bad credentials" otherwise) and
// is recorded (method, path, query, body, the token it carried) for assertions.
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";

interface CheckRun {
  name: string;
  status: string;
  conclusion: string | null;
  html_url?: string;
}
interface CommitStatus {
  context: string;
  state: string;
  target_url?: string;
}

interface Pull {
  number: number;
  owner: string;
  repo: string;
  title: string;
  body: string;
  head: string;
  base: string;
  draft: boolean;
  state: "open" | "closed";
  merged: boolean;
  mergeCommit: string | null;
  /** The head commit when no bare repository backs the stub's repo. */
  headSha: string;
}

interface RecordedGithubRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  body: Record<string, unknown> | null;
  /** The token the request carried (null: none). */
  token: string | null;
  status: number;
}

export interface GithubStub {
  url: string;
  /** What GITHUB_API_URL is set to. */
  apiUrl: string;
  requests: RecordedGithubRequest[];
  pulls: Map<number, Pull>;
  /** Sets the checks GitHub reports for a commit. */
  setChecks(sha: string, checks: { runs?: CheckRun[]; statuses?: CommitStatus[] }): void;
  /** Merges the pull request (as a person would on github.com); returns its merge commit. */
  merge(number: number, mergeCommit?: string): string;
  /** Closes it unmerged. */
  closePull(number: number): void;
  reopenPull(number: number): void;
  /** The next `n` requests fail with `status` (and GitHub's message for it). */
  failNext(n: number, status: number, message?: string): void;
  waitForRequest(pred: (r: RecordedGithubRequest) => boolean, timeoutMs?: number): Promise<RecordedGithubRequest>;
  close(): Promise<void>;
}

export async function startGithubStub(opts: { token: string; repos?: Record<string, string> }): Promise<GithubStub> {
  const pulls = new Map<number, Pull>();
  const checks = new Map<string, { runs: CheckRun[]; statuses: CommitStatus[] }>();
  const requests: RecordedGithubRequest[] = [];
  const waiters = new Set<{
    pred: (r: RecordedGithubRequest) => boolean;
    resolve: (r: RecordedGithubRequest) => void;
  }>();
  let failures: { n: number; status: number; message: string } | null = null;
  let next = 1;
  let url = "";

  /** The head branch's commit in the repository's bare remote (null: not pushed there). */
  const headOf = (p: Pick<Pull, "owner" | "repo" | "head" | "headSha">): string | null => {
    const bare = opts.repos?.[`${p.owner}/${p.repo}`];
    if (!bare) return p.headSha;
    try {
      return execFileSync("git", ["rev-parse", "-q", "--verify", `refs/heads/${p.head}`], {
        cwd: bare,
        encoding: "utf8",
      }).trim();
    } catch {
      return null;
    }
  };

  const view = (p: Pull) => ({
    number: p.number,
    html_url: `https://github.com/${p.owner}/${p.repo}/pull/${p.number}`,
    url: `${url}/api/v3/repos/${p.owner}/${p.repo}/pulls/${p.number}`,
    state: p.state,
    title: p.title,
    body: p.body,
    draft: p.draft,
    merged: p.merged,
    merged_at: p.merged ? new Date().toISOString() : null,
    merge_commit_sha: p.mergeCommit ?? "0".repeat(40),
    head: { ref: p.head, sha: (p.merged ? null : headOf(p)) ?? p.headSha, label: `${p.owner}:${p.head}` },
    base: { ref: p.base, label: `${p.owner}:${p.base}` },
  });

  const server = http.createServer((req, res) => {
    let data = "";
    req.setEncoding("utf8");
    req.on("data", (d) => (data += d));
    req.on("end", () => {
      const u = new URL(req.url ?? "/", "http://stub");
      const auth = req.headers.authorization ?? "";
      const token = /^(?:token|bearer)\s+(.+)$/i.exec(auth)?.[1] ?? null;
      let body: Record<string, unknown> | null = null;
      try {
        body = data ? (JSON.parse(data) as Record<string, unknown>) : null;
      } catch {
        body = null;
      }
      const rec: RecordedGithubRequest = {
        method: req.method ?? "GET",
        path: u.pathname,
        query: Object.fromEntries(u.searchParams),
        body,
        token,
        status: 0,
      };
      const send = (status: number, payload: unknown) => {
        rec.status = status;
        requests.push(rec);
        for (const w of [...waiters])
          if (w.pred(rec)) {
            waiters.delete(w);
            w.resolve(rec);
          }
        const text = JSON.stringify(payload);
        res.writeHead(status, {
          "content-type": "application/json; charset=utf-8",
          "content-length": Buffer.byteLength(text),
        });
        res.end(text);
      };
      if (failures && failures.n > 0) {
        failures.n--;
        return send(failures.status, { message: failures.message });
      }
      if (token !== opts.token)
        return send(401, { message: "Bad credentials", documentation_url: "https://docs.github.com/rest" });
      const m = /^(?:\/api\/v3)?\/repos\/([^/]+)\/([^/]+)\/(.+)$/.exec(u.pathname);
      if (!m) return send(404, { message: "Not Found" });
      const [, owner, repo, rest] = m as unknown as [string, string, string, string];
      if (opts.repos && !opts.repos[`${owner}/${repo}`]) return send(404, { message: "Not Found" });

      if (rest === "pulls" && req.method === "POST") {
        const head = String(body?.head ?? "");
        const base = String(body?.base ?? "");
        const sha = headOf({ owner, repo, head, headSha: randomBytes(20).toString("hex") });
        if (!head || !base || !body?.title)
          return send(422, {
            message: "Validation Failed",
            errors: [{ resource: "PullRequest", code: "missing_field" }],
          });
        if (!sha)
          return send(422, {
            message: "Validation Failed",
            errors: [{ resource: "PullRequest", field: "head", code: "invalid" }],
          });
        if (
          [...pulls.values()].some((p) => p.owner === owner && p.repo === repo && p.head === head && p.state === "open")
        )
          return send(422, {
            message: "Validation Failed",
            errors: [
              {
                resource: "PullRequest",
                code: "custom",
                message: `A pull request already exists for ${owner}:${head}.`,
              },
            ],
          });
        const p: Pull = {
          number: next++,
          owner,
          repo,
          title: String(body.title),
          body: String(body.body ?? ""),
          head,
          base,
          draft: body.draft === true,
          state: "open",
          merged: false,
          mergeCommit: null,
          headSha: sha,
        };
        pulls.set(p.number, p);
        return send(201, view(p));
      }
      if (rest === "pulls" && req.method === "GET") {
        const head = u.searchParams.get("head");
        const state = u.searchParams.get("state") ?? "open";
        const list = [...pulls.values()].filter(
          (p) =>
            p.owner === owner &&
            p.repo === repo &&
            (!head || `${p.owner}:${p.head}` === head) &&
            (state === "all" || p.state === state),
        );
        return send(200, list.map(view));
      }
      const one = /^pulls\/(\d+)$/.exec(rest);
      if (one && req.method === "GET") {
        const p = pulls.get(Number(one[1]));
        return p && p.owner === owner && p.repo === repo ? send(200, view(p)) : send(404, { message: "Not Found" });
      }
      const runs = /^commits\/([^/]+)\/check-runs$/.exec(rest);
      if (runs && req.method === "GET") {
        const c = checks.get(runs[1]!)?.runs ?? [];
        return send(200, { total_count: c.length, check_runs: c.map((r, i) => ({ id: i + 1, ...r })) });
      }
      const status = /^commits\/([^/]+)\/status$/.exec(rest);
      if (status && req.method === "GET") {
        const s = checks.get(status[1]!)?.statuses ?? [];
        const state = s.some((x) => x.state === "failure" || x.state === "error")
          ? "failure"
          : s.some((x) => x.state === "pending") || s.length === 0
            ? "pending"
            : "success";
        return send(200, { state, sha: status[1], total_count: s.length, statuses: s });
      }
      send(404, { message: "Not Found" });
    });
  });

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const pull = (n: number) => {
    const p = pulls.get(n);
    if (!p) throw new Error(`stub: no pull request #${n}`);
    return p;
  };
  return {
    url,
    apiUrl: `${url}/api/v3`,
    requests,
    pulls,
    setChecks(sha, c) {
      checks.set(sha, { runs: c.runs ?? [], statuses: c.statuses ?? [] });
    },
    merge(n, mergeCommit) {
      const p = pull(n);
      p.headSha = headOf(p) ?? p.headSha; // what GitHub merged: the head at that moment
      p.state = "closed";
      p.merged = true;
      p.mergeCommit = mergeCommit ?? randomBytes(20).toString("hex");
      return p.mergeCommit;
    },
    closePull(n) {
      pull(n).state = "closed";
    },
    reopenPull(n) {
      pull(n).state = "open";
    },
    failNext(n, status, message) {
      failures = { n, status, message: message ?? (status >= 500 ? "Server Error" : "Forbidden") };
    },
    waitForRequest(pred, timeoutMs = 30_000) {
      const hit = requests.find(pred);
      if (hit) return Promise.resolve(hit);
      return new Promise((resolve, reject) => {
        const w = {
          pred,
          resolve: (r: RecordedGithubRequest) => {
            clearTimeout(timer);
            resolve(r);
          },
        };
        const timer = setTimeout(() => {
          waiters.delete(w);
          reject(new Error(`github stub: no matching request within ${timeoutMs} ms (${requests.length} recorded)`));
        }, timeoutMs);
        waiters.add(w);
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
