// Which GitHub repository a git remote is, and which API to ask about it.
//
//   parseGithubRemote(url) -> { host, owner, repo } | null
//     https (with or without user:token@, .git, trailing slash), http, git://, ssh://[user@]host[:port]/,
//     and scp-like [user@]host:owner/repo forms; exactly owner/repo after the host (a path-prefixed
//     or local-path URL is null).
//   apiUrlFor(host, env) -> the REST API's base URL, or a YardError
//     GITHUB_API_URL when set (GitHub Enterprise: https://ghe.example.com/api/v3); else
//     https://api.github.com for github.com. Any other host without GITHUB_API_URL is BAD_PARAMS:
//     the token only ever goes to the API the person configured or to GitHub's own, never to a host
//     a repository's config names (an agent can edit that config).
import { YardError } from "../errors";

export interface GithubRepo {
  host: string;
  owner: string;
  repo: string;
}

const OWNER = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})$/;
const REPO = /^[A-Za-z0-9._-]{1,100}$/;

function fromPath(host: string, p: string): GithubRepo | null {
  const parts = p
    .replace(/^\/+/, "")
    .replace(/\/+$/, "")
    .replace(/\.git$/, "")
    .split("/");
  if (parts.length !== 2) return null;
  const [owner, repo] = parts as [string, string];
  if (!OWNER.test(owner) || !REPO.test(repo) || repo === "." || repo === "..") return null;
  const h = host.toLowerCase();
  if (!/^[a-z0-9.-]+$/.test(h) || !h.includes(".")) return null;
  return { host: h === "www.github.com" ? "github.com" : h, owner, repo };
}

export function parseGithubRemote(url: string | null | undefined): GithubRepo | null {
  if (!url) return null;
  const u = url.trim();
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(u);
  if (scheme) {
    if (!["https", "http", "ssh", "git", "git+ssh", "ssh+git"].includes(scheme[1]!.toLowerCase())) return null;
    let parsed: URL;
    try {
      parsed = new URL(u.replace(/^(git\+ssh|ssh\+git):/i, "ssh:"));
    } catch {
      return null;
    }
    return fromPath(parsed.hostname, decodeURIComponent(parsed.pathname));
  }
  // scp-like: [user@]host:owner/repo(.git) (a path after the colon, not a Windows drive or an absolute path)
  const scp = /^(?:[^@/\s]+@)?([A-Za-z0-9.-]+):(?!\/)(.+)$/.exec(u);
  return scp ? fromPath(scp[1]!, scp[2]!) : null;
}

export function apiUrlFor(host: string, env: NodeJS.ProcessEnv = process.env): string {
  const configured = env.GITHUB_API_URL?.trim();
  if (configured) {
    let parsed: URL;
    try {
      parsed = new URL(configured);
    } catch {
      throw new YardError("BAD_PARAMS", `GITHUB_API_URL is not a URL: ${JSON.stringify(configured)}`);
    }
    if (parsed.protocol !== "https:" && parsed.protocol !== "http:")
      throw new YardError("BAD_PARAMS", `GITHUB_API_URL must be an http(s) URL (got ${parsed.protocol})`);
    return configured.replace(/\/+$/, "");
  }
  if (host === "github.com") return "https://api.github.com";
  throw new YardError(
    "BAD_PARAMS",
    `The remote is on ${host}, not github.com: set GITHUB_API_URL in the server's environment to its API (GitHub Enterprise: https://${host}/api/v3)`,
    { host },
  );
}
