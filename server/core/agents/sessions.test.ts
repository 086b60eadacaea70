import { execFileSync } from "node:child_process";
import { appendFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { checkTranscriptPath, claudeTokenUsage, TranscriptUsage, transcriptRoots } from "./sessions";

describe("claudeTokenUsage", () => {
  const msg = (id: string, usage: Record<string, number>, model = "claude-opus-5-5") =>
    JSON.stringify({ type: "assistant", message: { id, model, usage } });
  it("sums each assistant message once (a message written in several lines counts once), skipping synthetic error messages", () => {
    const jsonl = [
      JSON.stringify({ type: "user", message: { content: "hi" } }),
      msg("m1", { input_tokens: 100, output_tokens: 10, cache_read_input_tokens: 50, cache_creation_input_tokens: 5 }),
      msg("m1", { input_tokens: 100, output_tokens: 12, cache_read_input_tokens: 50, cache_creation_input_tokens: 5 }),
      msg("m2", { input_tokens: 20, output_tokens: 3 }),
      msg("err", { input_tokens: 0, output_tokens: 0 }, "<synthetic>"),
      "{not json",
    ].join("\n");
    expect(claudeTokenUsage(jsonl)).toEqual({
      inputTokens: 120,
      outputTokens: 15,
      cacheReadTokens: 50,
      cacheWriteTokens: 5,
      totalTokens: 190,
    });
  });
  it("is null for a transcript without assistant usage", () => {
    expect(claudeTokenUsage(JSON.stringify({ type: "user" }))).toBeNull();
  });
});

describe("where a transcript may be read from (checkTranscriptPath)", () => {
  const base = mkdtempSync(path.join(os.tmpdir(), "yard-transcripts-"));
  afterAll(() => rmSync(base, { recursive: true, force: true }));
  const projects = path.join(base, "home", ".claude", "projects");
  mkdirSync(path.join(projects, "-repo"), { recursive: true });
  writeFileSync(path.join(base, "host-secret.jsonl"), "{}\n");
  const roots = [{ dir: projects, confinedTo: null }];

  it("accepts a file (existing or not yet) under the agent's directory", async () => {
    writeFileSync(path.join(projects, "-repo", "s1.jsonl"), "");
    expect(await checkTranscriptPath(path.join(projects, "-repo", "s1.jsonl"), roots)).toMatchObject({ ok: true });
    expect(await checkTranscriptPath(path.join(projects, "-repo", "later.jsonl"), roots)).toMatchObject({ ok: true });
  });

  it.each([
    ["a path outside the agent's directory", () => path.join(base, "host-secret.jsonl"), "not inside"],
    ["a path that climbs out with ..", () => path.join(projects, "..", "..", "..", "host-secret.jsonl"), "not inside"],
    [
      "a symbolic link to a host file",
      () => link("host-link.jsonl", path.join(base, "host-secret.jsonl")),
      "symbolic link",
    ],
    ["a symbolic link to /dev/zero", () => link("zero.jsonl", "/dev/zero"), "symbolic link"],
    ["a FIFO", () => fifo("fifo.jsonl"), "not a regular file"],
    [
      "a file behind a linked directory",
      () => path.join(link("linked-dir", base), "host-secret.jsonl"),
      "leads out of",
    ],
    ["a relative path", () => "projects/x.jsonl", "absolute"],
  ])("refuses %s", async (_what, make, reason) => {
    expect(await checkTranscriptPath(make(), roots)).toMatchObject({
      ok: false,
      reason: expect.stringContaining(reason),
    });
  });

  it("refuses everything for an agent with no known transcript directory", async () => {
    expect(await checkTranscriptPath(path.join(projects, "-repo", "s1.jsonl"), [])).toMatchObject({ ok: false });
  });

  it("in a sandbox's home, refuses a transcript directory that a link leads out of the home", async () => {
    const home = path.join(base, "sandbox-home");
    mkdirSync(home);
    mkdirSync(path.join(base, "host-claude", "projects"), { recursive: true });
    symlinkSync(path.join(base, "host-claude"), path.join(home, ".claude"));
    const confined = transcriptRoots("claude", { HOME: home }, home);
    expect(confined).toEqual([{ dir: path.join(home, ".claude", "projects"), confinedTo: home }]);
    expect(await checkTranscriptPath(path.join(home, ".claude", "projects", "s.jsonl"), confined)).toMatchObject({
      ok: false,
      reason: expect.stringContaining("sandbox"),
    });
  });

  function link(name: string, target: string): string {
    const p = path.join(projects, "-repo", name);
    symlinkSync(target, p);
    return p;
  }
  function fifo(name: string): string {
    const p = path.join(projects, "-repo", name);
    execFileSync("mkfifo", [p]);
    return p;
  }
});

describe("transcriptRoots", () => {
  it("is <config dir>/projects for Claude Code and $CODEX_HOME/sessions for Codex, nothing for other agents", () => {
    expect(transcriptRoots("claude", { HOME: "/home/me" }, null)).toEqual([
      { dir: "/home/me/.claude/projects", confinedTo: null },
    ]);
    expect(transcriptRoots("claude", { HOME: "/home/me", CLAUDE_CONFIG_DIR: "/cfg" }, null)).toEqual([
      { dir: "/cfg/projects", confinedTo: null },
    ]);
    expect(transcriptRoots("codex", { HOME: "/home/me" }, null)).toEqual([
      { dir: "/home/me/.codex/sessions", confinedTo: null },
    ]);
    expect(transcriptRoots("codex", { HOME: "/sbx/home", CODEX_HOME: "/sbx/home/cx" }, "/sbx/home")).toEqual([
      { dir: "/sbx/home/cx/sessions", confinedTo: "/sbx/home" },
    ]);
    expect(transcriptRoots(null, { HOME: "/home/me" }, null)).toEqual([]);
  });
});

describe("TranscriptUsage (the last known usage, counted in the background)", () => {
  const base = mkdtempSync(path.join(os.tmpdir(), "yard-usage-"));
  afterAll(() => rmSync(base, { recursive: true, force: true }));
  const root = path.join(base, "projects");
  mkdirSync(root);
  const roots = async () => [{ dir: root, confinedTo: null }];
  const line = (id: string, input: number, output: number) =>
    `${JSON.stringify({
      type: "assistant",
      message: { id, model: "m", usage: { input_tokens: input, output_tokens: output } },
    })}\n`;

  it("answers from memory at once, counts once refreshed, then reads only what was appended (a partial last line waits)", async () => {
    const usage = new TranscriptUsage({ refreshMs: 0 });
    const file = path.join(root, "a.jsonl");
    writeFileSync(file, line("m1", 10, 1));
    expect(usage.peek("t1", file, roots)).toBeNull(); // never waits for the file
    await usage.settled();
    expect(usage.peek("t1", file, roots)).toMatchObject({ inputTokens: 10, outputTokens: 1 });
    await usage.settled();
    const next = line("m2", 20, 2);
    appendFileSync(file, next.slice(0, 25));
    usage.peek("t1", file, roots);
    await usage.settled();
    appendFileSync(file, next.slice(25));
    usage.peek("t1", file, roots);
    await usage.settled();
    expect(usage.peek("t1", file, roots)).toMatchObject({ inputTokens: 30, outputTokens: 3, totalTokens: 33 });
  });

  it("counts a Codex rollout file by its last token_count", async () => {
    const usage = new TranscriptUsage({ refreshMs: 0 });
    const file = path.join(root, "rollout.jsonl");
    const count = (i: number, o: number) =>
      `${JSON.stringify({
        type: "event_msg",
        payload: {
          type: "token_count",
          info: { total_token_usage: { input_tokens: i, output_tokens: o, total_tokens: i + o } },
        },
      })}\n`;
    writeFileSync(file, count(5, 1) + count(50, 10));
    usage.peek("t2", file, roots);
    await usage.settled();
    expect(usage.peek("t2", file, roots)).toMatchObject({ inputTokens: 50, outputTokens: 10, totalTokens: 60 });
  });

  it("forgets the usage when the file is swapped for a FIFO or a link to /dev/zero, and never blocks on it", async () => {
    const usage = new TranscriptUsage({ refreshMs: 0 });
    const file = path.join(root, "swapped.jsonl");
    writeFileSync(file, line("m1", 7, 7));
    usage.peek("t3", file, roots);
    await usage.settled();
    expect(usage.peek("t3", file, roots)).toMatchObject({ inputTokens: 7 });
    await usage.settled();
    rmSync(file);
    execFileSync("mkfifo", [file]);
    usage.peek("t3", file, roots);
    await usage.settled(); // a read of the FIFO would never return
    expect(usage.peek("t3", file, roots)).toBeNull();
    await usage.settled();
    rmSync(file);
    symlinkSync("/dev/zero", file);
    usage.peek("t3", file, roots);
    await usage.settled();
    expect(usage.peek("t3", file, roots)).toBeNull();
  });

  it("does not read a path outside the agent's directory", async () => {
    const usage = new TranscriptUsage({ refreshMs: 0 });
    const outside = path.join(base, "outside.jsonl");
    writeFileSync(outside, line("m1", 1, 1));
    usage.peek("t4", outside, roots);
    await usage.settled();
    expect(usage.peek("t4", outside, roots)).toBeNull();
  });
});
