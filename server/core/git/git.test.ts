import { afterAll, describe, expect, it } from "vitest";
import { chmod } from "node:fs/promises";
import path from "node:path";
import { YardError } from "../errors";
import { FALLBACK_IDENTITY, committerIdentityArgs, gitEnv, isHexObjectId, runGit } from "./git";
import { git, makeRepo, removeTmpDirs, write } from "../../../tests/helpers/git-core";

afterAll(removeTmpDirs);

async function caught(p: Promise<unknown>): Promise<YardError> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(YardError);
    return e as YardError;
  }
  throw new Error("expected a rejection");
}

describe("runGit", () => {
  it("returns stdout, stderr and exit code", async () => {
    const { root, head } = await makeRepo();
    const r = await runGit(["rev-parse", "HEAD"], { cwd: root });
    expect(r).toEqual({ stdout: `${head}\n`, stderr: "", code: 0 });
  });

  it("throws GIT_FAILED with args, code and stderr on failure", async () => {
    const { root } = await makeRepo();
    const e = await caught(runGit(["rev-parse", "--verify", "no-such-ref"], { cwd: root }));
    expect(e.code).toBe("GIT_FAILED");
    expect(e.details).toMatchObject({ args: ["rev-parse", "--verify", "no-such-ref"], code: 128, cwd: root });
    expect(String(e.details!.stderr)).toContain("fatal: Needed a single revision");
  });

  it("returns the code instead of throwing with allowFail", async () => {
    const { root } = await makeRepo();
    const r = await runGit(["rev-parse", "-q", "--verify", "no-such-ref"], { cwd: root, allowFail: true });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
  });

  it("feeds input on stdin", async () => {
    const { root } = await makeRepo();
    const r = await runGit(["hash-object", "--stdin"], { cwd: root, input: "hello\n" });
    expect(r.stdout.trim()).toBe("ce013625030ba8dba906f756967f9e9ca394464a");
  });

  it("passes arguments verbatim (no shell): metacharacters are data", async () => {
    const { root } = await makeRepo();
    const r = await runGit(["check-ref-format", "--allow-onelevel", "$(touch pwned)"], { cwd: root, allowFail: true });
    expect(r.code).not.toBe(0);
    const ls = await git(root, "status", "--porcelain");
    expect(ls).toBe("");
  });

  it("rejects NUL bytes in arguments before spawning", async () => {
    const e = await caught(runGit(["status", "a\0b"], { cwd: "/" }));
    expect(e.code).toBe("BAD_PARAMS");
  });

  it("ignores GIT_DIR / GIT_INDEX_FILE inherited from the parent process", async () => {
    const a = await makeRepo();
    const b = await makeRepo({ "other.txt": "x\n" });
    const saved = { dir: process.env.GIT_DIR, idx: process.env.GIT_INDEX_FILE };
    process.env.GIT_DIR = path.join(b.root, ".git");
    process.env.GIT_INDEX_FILE = "/nonexistent/index";
    try {
      const r = await runGit(["rev-parse", "HEAD"], { cwd: a.root });
      expect(r.stdout.trim()).toBe(a.head);
    } finally {
      if (saved.dir === undefined) delete process.env.GIT_DIR;
      else process.env.GIT_DIR = saved.dir;
      if (saved.idx === undefined) delete process.env.GIT_INDEX_FILE;
      else process.env.GIT_INDEX_FILE = saved.idx;
    }
  });

  it("sets a non-interactive, C-locale environment", () => {
    const env = gitEnv({ EXTRA: "1", GIT_TERMINAL_PROMPT: undefined });
    expect(env.LC_ALL).toBe("C");
    expect(env.GIT_OPTIONAL_LOCKS).toBe("0");
    expect(env.EXTRA).toBe("1");
    expect(env.GIT_TERMINAL_PROMPT).toBeUndefined();
    expect(gitEnv().GIT_TERMINAL_PROMPT).toBe("0");
  });

  it("prints non-ASCII paths unquoted (core.quotepath=off)", async () => {
    const { root } = await makeRepo({ "ünïcode.txt": "x\n" });
    const r = await runGit(["ls-files"], { cwd: root });
    expect(r.stdout).toBe("ünïcode.txt\n");
  });

  it("kills git and throws TIMEOUT when timeoutMs elapses", async () => {
    const { root } = await makeRepo();
    await write(root, ".git/hooks/pre-commit", "#!/bin/sh\nsleep 3\n");
    await chmod(path.join(root, ".git/hooks/pre-commit"), 0o755);
    const e = await caught(
      // (the call's own -c comes after runGit's safe config, so this hook does run)
      runGit(
        [
          "-c",
          "core.hooksPath=.git/hooks",
          "-c",
          "user.name=x",
          "-c",
          "user.email=x@x",
          "commit",
          "--allow-empty",
          "-m",
          "x",
        ],
        { cwd: root, timeoutMs: 300 },
      ),
    );
    // Had git not been killed, the commit would have succeeded after the 3 s hook.
    expect(e.code).toBe("TIMEOUT");
    expect(await runGit(["rev-list", "--all", "--count"], { cwd: root }).then((r) => r.stdout.trim())).toBe("1");
  });

  it("reports a missing cwd as GIT_FAILED", async () => {
    const e = await caught(runGit(["status"], { cwd: "/nonexistent/dir/for/yard" }));
    expect(e.code).toBe("GIT_FAILED");
  });
});

describe("committerIdentityArgs", () => {
  it("supplies the fallback identity only when none is configured", async () => {
    const { root } = await makeRepo();
    expect(await committerIdentityArgs(root)).toEqual([
      "-c",
      `user.name=${FALLBACK_IDENTITY.name}`,
      "-c",
      `user.email=${FALLBACK_IDENTITY.email}`,
    ]);
    await git(root, "config", "user.email", "me@example.com");
    expect(await committerIdentityArgs(root)).toEqual(["-c", `user.name=${FALLBACK_IDENTITY.name}`]);
    await git(root, "config", "user.name", "Me");
    expect(await committerIdentityArgs(root)).toEqual([]);
  });
});

describe("isHexObjectId", () => {
  it("accepts 4..64 hex digits only", () => {
    expect(isHexObjectId("abcd")).toBe(true);
    expect(isHexObjectId("a".repeat(40))).toBe(true);
    expect(isHexObjectId("abc")).toBe(false);
    expect(isHexObjectId("HEAD")).toBe(false);
    expect(isHexObjectId("-abcd")).toBe(false);
    expect(isHexObjectId(undefined)).toBe(false);
  });
});
