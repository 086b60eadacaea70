import { execFileSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  CODEX_HOOK_EVENTS,
  codexHome,
  codexHooksOverride,
  codexNotifyAsHook,
  codexNotifyOverride,
  codexProjectTrusted,
  codexResumeArgv,
  codexTokenUsage,
  prepareCodexLaunch,
} from "./codex";

describe("Codex launch flags", () => {
  it("registers every Switchyard hook as a session flag, each running yard hook <Event>", () => {
    const v = codexHooksOverride();
    expect(v.startsWith("hooks={")).toBe(true);
    for (const e of CODEX_HOOK_EVENTS)
      expect(v).toContain(`${e}=[{hooks=[{type="command",command="yard hook ${e}"}]}]`);
    expect(codexNotifyOverride()).toBe('notify=["yard","hook","CodexNotify"]');
  });

  it("resumes with the profile's own options after `resume <session>`", () => {
    expect(codexResumeArgv(["codex", "--no-daemon", "-c", "x=1"], "s-1")).toEqual([
      "codex",
      "resume",
      "s-1",
      "--no-daemon",
      "-c",
      "x=1",
    ]);
  });

  it("finds the Codex home like Codex does", () => {
    expect(codexHome({ HOME: "/home/me" })).toBe("/home/me/.codex");
    expect(codexHome({ HOME: "/home/me", CODEX_HOME: "/srv/codex" })).toBe("/srv/codex");
  });
});

describe("codexNotifyAsHook", () => {
  const turn = (thread: string, extra: Record<string, unknown> = {}) => ({
    type: "agent-turn-complete",
    "thread-id": thread,
    "turn-id": "t1",
    "last-assistant-message": "All done.",
    ...extra,
  });
  it("maps the pane's own thread to a Stop with the last message", () => {
    expect(codexNotifyAsHook(turn("s-main"), "s-main")).toEqual({
      event: "Stop",
      payload: {
        hook_event_name: "Stop",
        session_id: "s-main",
        last_assistant_message: "All done.",
        source: "codex-notify",
      },
    });
  });
  it.each([
    ["another thread (the title request)", turn("s-title"), "s-main"],
    ["no session known yet", turn("s-main"), null],
    ["another notification type", { ...turn("s-main"), type: "approval-requested" }, "s-main"],
    ["no thread id", { type: "agent-turn-complete" }, "s-main"],
  ] as const)("ignores %s", (_l, payload, session) => {
    expect(codexNotifyAsHook(payload as Record<string, unknown>, session)).toBeNull();
  });
});

describe("codexProjectTrusted (a text check of config.toml)", () => {
  const cfg = [
    'model = "x"',
    "",
    '[projects."/repo/a"]',
    'trust_level = "trusted"',
    "",
    '[projects."/repo/b"]',
    'trust_level = "untrusted"',
    "",
    "[tui]",
    "x = 1",
  ].join("\n");
  it.each([
    ["/repo/a", true],
    ["/repo/b", false],
    ["/repo/c", false],
  ] as const)("%s -> %s", (dir, trusted) => {
    expect(codexProjectTrusted(cfg, dir)).toBe(trusted);
  });
  it("does not read a later table's trust_level", () => {
    expect(
      codexProjectTrusted('[projects."/repo/x"]\nfoo = 1\n[projects."/repo/y"]\ntrust_level = "trusted"\n', "/repo/x"),
    ).toBe(false);
  });
});

describe("codexTokenUsage", () => {
  it("takes the last token_count total of the rollout file", () => {
    const line = (input: number, output: number) =>
      JSON.stringify({
        type: "event_msg",
        payload: {
          type: "token_count",
          info: {
            total_token_usage: {
              input_tokens: input,
              cached_input_tokens: 5,
              cache_write_input_tokens: 0,
              output_tokens: output,
              total_tokens: input + output,
            },
          },
        },
      });
    const jsonl = [
      JSON.stringify({ type: "session_meta", payload: {} }),
      line(120, 30),
      '{"type":"response_item"}',
      line(240, 60),
      '{"half a li',
    ].join("\n");
    expect(codexTokenUsage(jsonl)).toEqual({
      inputTokens: 240,
      outputTokens: 60,
      cacheReadTokens: 5,
      cacheWriteTokens: 0,
      totalTokens: 300,
    });
    expect(codexTokenUsage('{"type":"session_meta"}')).toBeNull();
  });
});

// A sandboxed task's CODEX_HOME is the agent's to write; the preparation runs on the host. What
// the agent planted there is refused before any app-server starts, and nothing it points at moves.
describe("prepareCodexLaunch for a Codex home the agent can write (isolate)", () => {
  const base = mkdtempSync(path.join(os.tmpdir(), "yard-codex-prep-"));
  afterAll(() => rmSync(base, { recursive: true, force: true }));
  let n = 0;
  /** A sandbox dir with its home, a host dir with a host config, and a codex program that leaves a mark when it runs. */
  function setup() {
    const root = path.join(base, `case-${++n}`);
    const sandboxDir = path.join(root, "sandbox", "task1");
    const home = path.join(sandboxDir, "home");
    mkdirSync(home, { recursive: true });
    const hostDir = path.join(root, "host-codex");
    mkdirSync(hostDir);
    const hostConfig = path.join(hostDir, "config.toml");
    writeFileSync(hostConfig, '# the host\'s own config\nmodel = "x"\n');
    const ran = path.join(root, "app-server-ran");
    const program = path.join(root, "codex");
    writeFileSync(program, `#!/bin/sh\ntouch '${ran}'\nexit 1\n`, { mode: 0o755 });
    const prep = () =>
      prepareCodexLaunch({
        program,
        env: { PATH: process.env.PATH ?? "", HOME: home },
        cwd: root,
        trustHooks: true,
        trustDir: "/repo",
        isolate: { scratchParent: sandboxDir, within: home },
        timeoutMs: 5000,
      });
    return { home, hostDir, hostConfig, ran, prep, sandboxDir };
  }

  it("refuses a config.toml that is a link to a host file: the host file stays byte-identical, no app-server runs", async () => {
    const c = setup();
    mkdirSync(path.join(c.home, ".codex"));
    symlinkSync(c.hostConfig, path.join(c.home, ".codex", "config.toml"));
    const before = readFileSync(c.hostConfig);
    await expect(c.prep()).rejects.toMatchObject({
      code: "CONFLICT",
      message: expect.stringContaining("symbolic link"),
    });
    expect(readFileSync(c.hostConfig).equals(before)).toBe(true);
    expect(existsSync(c.ran)).toBe(false);
  });

  it("refuses a CODEX_HOME that is a link to a host directory: nothing is created there", async () => {
    const c = setup();
    symlinkSync(c.hostDir, path.join(c.home, ".codex"));
    await expect(c.prep()).rejects.toMatchObject({
      code: "CONFLICT",
      message: expect.stringContaining("leads out of"),
    });
    expect(readdirSync(c.hostDir)).toEqual(["config.toml"]);
    expect(existsSync(c.ran)).toBe(false);
  });

  it("refuses a config.toml that is a FIFO at once", async () => {
    const c = setup();
    mkdirSync(path.join(c.home, ".codex"));
    execFileSync("mkfifo", [path.join(c.home, ".codex", "config.toml")]);
    await expect(c.prep()).rejects.toMatchObject({
      code: "CONFLICT",
      message: expect.stringContaining("not a regular file"),
    });
    expect(existsSync(c.ran)).toBe(false);
  });

  it("never starts the app-server in the agent's CODEX_HOME: it runs in a private scratch dir, removed afterwards", async () => {
    const c = setup();
    mkdirSync(path.join(c.home, ".codex"));
    writeFileSync(path.join(c.home, ".codex", "config.toml"), 'model = "agent"\n');
    // The fake codex fails; what matters is where it ran, and that the agent's dir was not handed to it.
    const program = path.join(path.dirname(c.ran), "codex");
    writeFileSync(program, `#!/bin/sh\nprintf '%s\\n' "$CODEX_HOME" "$HOME" "$PWD" > '${c.ran}'\nexit 1\n`, {
      mode: 0o755,
    });
    await expect(c.prep()).rejects.toThrow(/app-server/);
    const [codexHomeSeen, homeSeen, cwdSeen] = readFileSync(c.ran, "utf8").trim().split("\n");
    expect(path.dirname(codexHomeSeen!)).toBe(c.sandboxDir);
    expect(homeSeen).toBe(codexHomeSeen);
    expect(cwdSeen).toBe(codexHomeSeen);
    expect(existsSync(codexHomeSeen!)).toBe(false);
    expect(readdirSync(path.join(c.home, ".codex"))).toEqual(["config.toml"]);
  });
});
