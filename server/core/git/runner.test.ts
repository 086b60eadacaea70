// The git runner: what it starts runs as its child (not this process's), with the caller's input,
// cwd and environment; a timeout or an overflow kills it; a runner that dies fails the calls in
// flight and the next call gets a fresh one; runGit through it answers as before.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runGit } from "./git";
import { gitRunner, type RunnerRequest } from "./runner";

const dir = mkdtempSync(path.join(os.tmpdir(), "yard-runner-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const req = (file: string, args: string[], extra: Partial<RunnerRequest> = {}): RunnerRequest => ({
  file,
  args,
  cwd: dir,
  env: { PATH: process.env.PATH ?? "/usr/bin:/bin", ONLY_THIS: "yes" },
  timeoutMs: 10_000,
  maxBuffer: 1 << 20,
  stderrKeep: 1024,
  ...extra,
});

describe("git runner", () => {
  const runner = gitRunner()!;

  it("runs the program as its own child, in the given cwd with exactly the given environment and input", async () => {
    const r = await runner.run(
      req("sh", ["-c", 'echo "$PPID $(pwd) $ONLY_THIS $(test -n "$HOME" && echo home || echo nohome)"; cat'], {
        input: "in",
      }),
    );
    expect(r).toMatchObject({ code: 0, signal: null, overflow: false, timedOut: false });
    const [ppid, cwd, only, home] = ("stdout" in r ? r.stdout : "").split("\n")[0]!.split(" ");
    expect(Number(ppid)).toBe(runner.pid);
    expect(Number(ppid)).not.toBe(process.pid);
    expect(cwd).toBe(dir);
    expect([only, home]).toEqual(["yes", "nohome"]);
    expect("stdout" in r && r.stdout.endsWith("\nin")).toBe(true);
  });

  it("kills what outlives its timeout, and what writes more than its cap", async () => {
    const started = Date.now();
    expect(await runner.run(req("sh", ["-c", "sleep 30"], { timeoutMs: 200 }))).toMatchObject({ timedOut: true });
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(await runner.run(req("sh", ["-c", "yes | head -c 100000"], { maxBuffer: 1000 }))).toMatchObject({
      overflow: true,
      stdout: "",
    });
  });

  it("says when the program cannot start", async () => {
    expect(await runner.run(req("/nonexistent/git", []))).toMatchObject({ spawnError: { code: "ENOENT" } });
  });

  it("fails the calls in flight when it dies, and the next call gets a fresh runner", async () => {
    const inFlight = runner.run(req("sh", ["-c", "sleep 30"]));
    await new Promise((r) => setTimeout(r, 100));
    const first = runner.pid!;
    process.kill(first, "SIGKILL");
    expect(await inFlight).toMatchObject({ runnerGone: expect.stringContaining("exited") });
    const again = await runner.run(req("sh", ["-c", "echo $PPID"]));
    expect("stdout" in again && Number(again.stdout.trim())).toBe(runner.pid);
    expect(runner.pid).not.toBe(first);
  });

  it("carries runGit: results, GIT_FAILED with git's message, and TIMEOUT as before", async () => {
    execFileSync("git", ["init", "-q", "-b", "main", dir]);
    expect((await runGit(["rev-parse", "--is-inside-work-tree"], { cwd: dir })).stdout.trim()).toBe("true");
    await expect(runGit(["rev-parse", "--verify", "nope"], { cwd: dir })).rejects.toMatchObject({
      code: "GIT_FAILED",
      details: { code: 128 },
    });
    expect((await runGit(["hash-object", "--stdin"], { cwd: dir, input: "x\n" })).stdout.trim()).toMatch(
      /^[0-9a-f]{40}$/,
    );
  });
});
