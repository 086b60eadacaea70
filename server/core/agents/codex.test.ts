import { describe, expect, it } from "vitest";
import { CODEX_HOOK_EVENTS, codexHome, codexHooksOverride, codexNotifyAsHook, codexNotifyOverride, codexProjectTrusted, codexResumeArgv, codexTokenUsage } from "./codex";

describe("Codex launch flags", () => {
  it("registers every Switchyard hook as a session flag, each running yard hook <Event>", () => {
    const v = codexHooksOverride();
    expect(v.startsWith("hooks={")).toBe(true);
    for (const e of CODEX_HOOK_EVENTS) expect(v).toContain(`${e}=[{hooks=[{type="command",command="yard hook ${e}"}]}]`);
    expect(codexNotifyOverride()).toBe('notify=["yard","hook","CodexNotify"]');
  });

  it("resumes with the profile's own options after `resume <session>`", () => {
    expect(codexResumeArgv(["codex", "--no-daemon", "-c", "x=1"], "s-1")).toEqual(["codex", "resume", "s-1", "--no-daemon", "-c", "x=1"]);
  });

  it("finds the Codex home like Codex does", () => {
    expect(codexHome({ HOME: "/home/me" })).toBe("/home/me/.codex");
    expect(codexHome({ HOME: "/home/me", CODEX_HOME: "/srv/codex" })).toBe("/srv/codex");
  });
});

describe("codexNotifyAsHook", () => {
  const turn = (thread: string, extra: Record<string, unknown> = {}) => ({ type: "agent-turn-complete", "thread-id": thread, "turn-id": "t1", "last-assistant-message": "All done.", ...extra });
  it("maps the pane's own thread to a Stop with the last message", () => {
    expect(codexNotifyAsHook(turn("s-main"), "s-main")).toEqual({ event: "Stop", payload: { hook_event_name: "Stop", session_id: "s-main", last_assistant_message: "All done.", source: "codex-notify" } });
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
  const cfg = ['model = "x"', "", '[projects."/repo/a"]', 'trust_level = "trusted"', "", '[projects."/repo/b"]', 'trust_level = "untrusted"', "", "[tui]", "x = 1"].join("\n");
  it.each([
    ["/repo/a", true],
    ["/repo/b", false],
    ["/repo/c", false],
  ] as const)("%s -> %s", (dir, trusted) => {
    expect(codexProjectTrusted(cfg, dir)).toBe(trusted);
  });
  it("does not read a later table's trust_level", () => {
    expect(codexProjectTrusted('[projects."/repo/x"]\nfoo = 1\n[projects."/repo/y"]\ntrust_level = "trusted"\n', "/repo/x")).toBe(false);
  });
});

describe("codexTokenUsage", () => {
  it("takes the last token_count total of the rollout file", () => {
    const line = (input: number, output: number) => JSON.stringify({ type: "event_msg", payload: { type: "token_count", info: { total_token_usage: { input_tokens: input, cached_input_tokens: 5, cache_write_input_tokens: 0, output_tokens: output, total_tokens: input + output } } } });
    const jsonl = [JSON.stringify({ type: "session_meta", payload: {} }), line(120, 30), '{"type":"response_item"}', line(240, 60), '{"half a li'].join("\n");
    expect(codexTokenUsage(jsonl)).toEqual({ inputTokens: 240, outputTokens: 60, cacheReadTokens: 5, cacheWriteTokens: 0, totalTokens: 300 });
    expect(codexTokenUsage('{"type":"session_meta"}')).toBeNull();
  });
});
