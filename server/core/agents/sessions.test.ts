import { describe, expect, it } from "vitest";
import { claudeTokenUsage } from "./sessions";

describe("claudeTokenUsage", () => {
  const msg = (id: string, usage: Record<string, number>, model = "claude-opus-5-5") => JSON.stringify({ type: "assistant", message: { id, model, usage } });
  it("sums each assistant message once (a message written in several lines counts once), skipping synthetic error messages", () => {
    const jsonl = [
      JSON.stringify({ type: "user", message: { content: "hi" } }),
      msg("m1", { input_tokens: 100, output_tokens: 10, cache_read_input_tokens: 50, cache_creation_input_tokens: 5 }),
      msg("m1", { input_tokens: 100, output_tokens: 12, cache_read_input_tokens: 50, cache_creation_input_tokens: 5 }),
      msg("m2", { input_tokens: 20, output_tokens: 3 }),
      msg("err", { input_tokens: 0, output_tokens: 0 }, "<synthetic>"),
      "{not json",
    ].join("\n");
    expect(claudeTokenUsage(jsonl)).toEqual({ inputTokens: 120, outputTokens: 15, cacheReadTokens: 50, cacheWriteTokens: 5, totalTokens: 190 });
  });
  it("is null for a transcript without assistant usage", () => {
    expect(claudeTokenUsage(JSON.stringify({ type: "user" }))).toBeNull();
  });
});
