import { describe, expect, it } from "vitest";
import { apiUrlFor as apiUrlForEnv, parseGithubRemote } from "./remote";

const apiUrlFor = (host: string, env: Record<string, string>) => apiUrlForEnv(host, env as NodeJS.ProcessEnv);

describe("parseGithubRemote", () => {
  const acme = { host: "github.com", owner: "acme", repo: "widgets" };
  it.each([
    ["https://github.com/acme/widgets.git", acme],
    ["https://github.com/acme/widgets", acme],
    ["https://github.com/acme/widgets/", acme],
    ["https://x-access-token:ghp_abc@github.com/acme/widgets.git", acme],
    ["http://www.github.com/acme/widgets", acme],
    ["git://github.com/acme/widgets.git", acme],
    ["ssh://git@github.com/acme/widgets.git", acme],
    ["ssh://git@github.com:22/acme/widgets", acme],
    ["git+ssh://git@github.com/acme/widgets.git", acme],
    ["git@github.com:acme/widgets.git", acme],
    ["github.com:acme/widgets", acme],
    ["git@ghe.example.com:team-a/api.v2.git", { host: "ghe.example.com", owner: "team-a", repo: "api.v2" }],
    ["https://GHE.Example.com/team/repo", { host: "ghe.example.com", owner: "team", repo: "repo" }],
  ])("%s", (url, want) => {
    expect(parseGithubRemote(url)).toEqual(want);
  });

  it.each([
    ["/tmp/remote.git"],
    ["file:///tmp/remote.git"],
    ["../sibling"],
    ["https://github.com/acme"],
    ["https://gitlab.example.com/group/sub/repo.git"],
    ["git@github.com:/abs/path"],
    ["https://github.com/-bad/widgets"],
    ["https://github.com/acme/.."],
    ["localhost:acme/widgets"],
    [""],
  ])("%s is not a GitHub repository", (url) => {
    expect(parseGithubRemote(url)).toBeNull();
  });
});

describe("apiUrlFor", () => {
  it("uses GITHUB_API_URL when set (GitHub Enterprise), else GitHub's own API for github.com only", () => {
    expect(apiUrlFor("github.com", {})).toBe("https://api.github.com");
    expect(apiUrlFor("ghe.example.com", { GITHUB_API_URL: "https://ghe.example.com/api/v3/" })).toBe(
      "https://ghe.example.com/api/v3",
    );
    expect(apiUrlFor("github.com", { GITHUB_API_URL: "http://127.0.0.1:9/api" })).toBe("http://127.0.0.1:9/api");
  });

  it("never derives an API host from the remote: another host without GITHUB_API_URL is refused", () => {
    expect(() => apiUrlFor("evil.example.com", {})).toThrow(/GITHUB_API_URL/);
    expect(() => apiUrlFor("github.com", { GITHUB_API_URL: "ftp://x" })).toThrow(/http/);
    expect(() => apiUrlFor("github.com", { GITHUB_API_URL: "not a url" })).toThrow(/not a URL/);
  });
});
