import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { globProblem } from "../../wire/repo-config";
import { effectiveConfig, parseRepoConfig, readCommittedConfig } from "./config";

const refusal = (fn: () => unknown) => {
  try {
    fn();
  } catch (e) {
    return e as { code: string; message: string; details: { path: string } };
  }
  throw new Error("expected a refusal");
};

describe(".switchyard.json validation", () => {
  it("takes every field", () => {
    const c = parseRepoConfig({
      $schema: "x",
      setup: ["npm ci"],
      teardown: ["docker compose down"],
      copy: [".env*", "config/*.local.json", "**/.envrc"],
      link: ["data"],
      ports: 3,
    });
    expect(c).toMatchObject({ setup: ["npm ci"], ports: 3 });
  });

  // [input, the path the error names]
  const bad: Array<[unknown, string]> = [
    [{ setup: ["npm ci", "ok", ""] }, "setup.2"],
    [{ setup: "npm ci" }, "setup"],
    [{ teardown: [42] }, "teardown.0"],
    [{ copy: ["../outside"] }, "copy.0"],
    [{ copy: [".env", "/etc/passwd"] }, "copy.1"],
    [{ link: ["a/../../b"] }, "link.0"],
    [{ copy: [".git/config"] }, "copy.0"],
    [{ copy: ["a**b"] }, "copy.0"],
    [{ ports: -1 }, "ports"],
    [{ ports: 21 }, "ports"],
    [{ ports: 1.5 }, "ports"],
    [{ setUp: ["typo"] }, ""],
    [[], ""],
  ];
  it.each(bad)("%j is BAD_PARAMS naming %s", (input, at) => {
    const e = refusal(() => parseRepoConfig(input));
    expect(e.code).toBe("BAD_PARAMS");
    expect(e.details.path).toBe(at);
    expect(e.message).toMatch(/^\.switchyard\.json: /);
  });

  it.each([
    ["../x", "must not contain '..'"],
    ["/abs", "no absolute path"],
    ["~/x", "no absolute path"],
    ["a//b", "empty or '.'"],
    ["./a", "empty or '.'"],
    ["x/.git/hooks", ".git"],
    ["a\\b", "backslash"],
    [".env*", null],
    ["config/**/*.json", null],
    ["dir/", null],
  ])("glob %s: %s", (g, problem) => {
    const p = globProblem(g);
    if (problem === null) expect(p).toBeNull();
    else expect(p).toContain(problem);
  });
});

describe("the effective config", () => {
  it("is null when neither the file nor the project gives a field", () => {
    expect(effectiveConfig(null, null)).toBeNull();
    expect(effectiveConfig({}, {})).toBeNull();
  });

  it("takes each field the override gives instead of the file's, and says where each came from", () => {
    const e = effectiveConfig(
      { setup: ["npm ci"], copy: [".env"], ports: 2 },
      { setup: ["pnpm install"], teardown: [] },
    );
    expect(e).toEqual({
      setup: ["pnpm install"],
      teardown: [],
      copy: [".env"],
      link: [],
      ports: 2,
      sources: { setup: "project", teardown: "project", copy: "file", ports: "file" },
    });
  });
});

describe("reading the committed file", () => {
  const dirs: string[] = [];
  afterAll(() => {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });
  const git = (cwd: string, ...args: string[]) =>
    execFileSync("git", ["-c", "user.name=T", "-c", "user.email=t@e", ...args], { cwd, encoding: "utf8" }).trim();
  const repo = () => {
    const d = mkdtempSync(path.join(os.tmpdir(), "yard-cfg-"));
    dirs.push(d);
    git(d, "init", "-q", "-b", "main");
    return d;
  };

  it("reads the file at the commit, not what the checkout holds now", async () => {
    const d = repo();
    writeFileSync(path.join(d, ".switchyard.json"), JSON.stringify({ setup: ["echo committed"] }));
    git(d, "add", ".");
    git(d, "commit", "-qm", "c");
    const sha = git(d, "rev-parse", "HEAD");
    writeFileSync(path.join(d, ".switchyard.json"), JSON.stringify({ setup: ["echo rewritten"] }));
    expect(await readCommittedConfig(d, sha)).toEqual({ setup: ["echo committed"] });
  });

  it("is null without the file, and refuses a symlink or broken JSON there", async () => {
    const d = repo();
    writeFileSync(path.join(d, "README"), "x");
    git(d, "add", ".");
    git(d, "commit", "-qm", "c");
    expect(await readCommittedConfig(d, git(d, "rev-parse", "HEAD"))).toBeNull();
    symlinkSync("/etc/passwd", path.join(d, ".switchyard.json"));
    git(d, "add", ".");
    git(d, "commit", "-qm", "link");
    await expect(readCommittedConfig(d, git(d, "rev-parse", "HEAD"))).rejects.toMatchObject({
      code: "BAD_PARAMS",
      message: expect.stringMatching(/not a regular file/),
    });
    git(d, "rm", "-q", ".switchyard.json");
    writeFileSync(path.join(d, ".switchyard.json"), "{ nope");
    git(d, "add", ".");
    git(d, "commit", "-qm", "broken");
    await expect(readCommittedConfig(d, git(d, "rev-parse", "HEAD"))).rejects.toMatchObject({
      code: "BAD_PARAMS",
      message: expect.stringMatching(/not valid JSON/),
    });
  });
});
