import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { YardError } from "../errors";
import { KNOWN_HOOK_EVENTS, MAX_HOOK_POST_BYTES, isKnownHookEvent, isSubagentPayload, parseHookPost } from "./payload";

const FIXTURES = new URL("./fixtures/", import.meta.url);
const fixtureFiles = readdirSync(FIXTURES).filter((f) => f.endsWith(".json"));
const fixture = (file: string): Record<string, unknown> =>
  JSON.parse(readFileSync(new URL(file, FIXTURES), "utf8")) as Record<string, unknown>;

function badParams(fn: () => unknown): YardError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(YardError);
    expect((e as YardError).code).toBe("BAD_PARAMS");
    return e as YardError;
  }
  throw new Error("expected BAD_PARAMS, nothing was thrown");
}

describe("parseHookPost: fixtures", () => {
  it("has fixtures", () => {
    expect(fixtureFiles.length).toBeGreaterThanOrEqual(14);
  });

  it.each(fixtureFiles)("accepts %s as an object and as raw text", (file) => {
    const payload = fixture(file);
    const event = payload.hook_event_name as string;
    for (const raw of [{ event, payload }, JSON.stringify({ event, payload })]) {
      const r = parseHookPost(raw);
      expect(r.event).toBe(event);
      expect(r.known).toBe(true);
      expect(r.payload).toEqual(payload); // extra fields pass through
      expect(r.subagent).toBe("agent_id" in payload);
    }
  });

  it("flags subagent payloads", () => {
    expect(parseHookPost({ event: "PreToolUse", payload: fixture("PreToolUse-subagent.json") }).subagent).toBe(true);
    expect(parseHookPost({ event: "SubagentStop", payload: fixture("SubagentStop.json") }).subagent).toBe(true);
    expect(parseHookPost({ event: "Stop", payload: fixture("Stop.json") }).subagent).toBe(false);
  });
});

describe("parseHookPost: lenient", () => {
  it.each([
    ["unknown event name", { event: "SomethingNew", payload: { session_id: "s" } }, false],
    ["empty payload object", { event: "Stop", payload: {} }, true],
    ["no session_id", { event: "Stop", payload: { last_assistant_message: "hi" } }, true],
    ["extra envelope-free fields in payload", { event: "Notification", payload: { foo: [1, { bar: null }] } }, true],
  ])("%s", (_name, raw, known) => {
    const r = parseHookPost(raw);
    expect(r.known).toBe(known);
  });

  it("KNOWN_HOOK_EVENTS covers the documented events", () => {
    for (const e of [
      "SessionStart",
      "UserPromptSubmit",
      "PreToolUse",
      "PermissionRequest",
      "PostToolUse",
      "PostToolUseFailure",
      "Notification",
      "Stop",
      "StopFailure",
      "SubagentStart",
      "SubagentStop",
      "PreCompact",
      "SessionEnd",
    ]) {
      expect(KNOWN_HOOK_EVENTS).toContain(e);
      expect(isKnownHookEvent(e)).toBe(true);
    }
    expect(isKnownHookEvent("stop")).toBe(false);
  });

  it("isSubagentPayload treats any present agent_id as a subagent", () => {
    expect(isSubagentPayload({ agent_id: "" })).toBe(true);
    expect(isSubagentPayload({})).toBe(false);
    expect(isSubagentPayload(null)).toBe(false);
  });
});

describe("parseHookPost: malformed", () => {
  const stop = fixture("Stop.json");
  it.each<[string, unknown, RegExp]>([
    ["undefined", undefined, /expected a JSON object/],
    ["null", null, /expected a JSON object/],
    ["a number", 42, /expected a JSON object/],
    ["an array", [stop], /expected a JSON object/],
    ["invalid JSON text", "{not json", /not valid JSON/],
    ["JSON text of a string", '"Stop"', /expected a JSON object/],
    ["missing event", { payload: stop }, /event/],
    ["event with digits", { event: "Stop1", payload: stop }, /event/],
    ["event with spaces", { event: "Stop now", payload: stop }, /event/],
    ["empty event", { event: "", payload: stop }, /event/],
    ["event too long", { event: "A".repeat(65), payload: stop }, /event/],
    ["event not a string", { event: 7, payload: stop }, /event/],
    ["missing payload", { event: "Stop" }, /payload/],
    ["payload null", { event: "Stop", payload: null }, /payload/],
    ["payload an array", { event: "Stop", payload: [1, 2] }, /payload/],
    ["payload a string", { event: "Stop", payload: "{}" }, /payload/],
    ["session_id not a string", { event: "Stop", payload: { ...stop, session_id: 123 } }, /payload\.session_id/],
    ["agent_id not a string", { event: "Stop", payload: { ...stop, agent_id: 1 } }, /payload\.agent_id/],
    [
      "notification_type not a string",
      { event: "Notification", payload: { notification_type: {} } },
      /notification_type/,
    ],
    ["event/hook_event_name mismatch", { event: "SessionStart", payload: stop }, /mismatch/],
  ])("rejects %s", (_name, raw, message) => {
    const e = badParams(() => parseHookPost(raw));
    expect(e.message).toMatch(message);
  });

  it("rejects values that are not JSON-serializable", () => {
    const cyclic: Record<string, unknown> = { event: "Stop" };
    cyclic.payload = cyclic;
    expect(badParams(() => parseHookPost(cyclic)).message).toMatch(/not JSON-serializable/);
    expect(badParams(() => parseHookPost({ event: "Stop", payload: { n: 1n } })).message).toMatch(
      /not JSON-serializable/,
    );
  });

  it("lists zod issues in details", () => {
    const e = badParams(() => parseHookPost({ event: "bad name!", payload: [] }));
    const issues = (e.details as { issues: Array<{ path: string }> }).issues;
    expect(issues.map((i) => i.path).sort()).toEqual(["event", "payload"]);
  });
});

describe("parseHookPost: size limit", () => {
  const big = (bytes: number) => ({ event: "Stop", payload: { last_assistant_message: "x".repeat(bytes) } });

  it("accepts a post just under the limit", () => {
    const overhead = JSON.stringify(big(0)).length;
    expect(() => parseHookPost(big(MAX_HOOK_POST_BYTES - overhead))).not.toThrow();
  });

  it("rejects an oversized object", () => {
    const overhead = JSON.stringify(big(0)).length;
    const e = badParams(() => parseHookPost(big(MAX_HOOK_POST_BYTES - overhead + 1)));
    expect(e.message).toMatch(/payload too large/);
    expect(e.details).toMatchObject({ maxBytes: MAX_HOOK_POST_BYTES, bytes: MAX_HOOK_POST_BYTES + 1 });
  });

  it("rejects oversized raw text before parsing it", () => {
    const text = `{${" ".repeat(MAX_HOOK_POST_BYTES)}}`; // also not a valid post: size wins
    expect(badParams(() => parseHookPost(text)).message).toMatch(/payload too large/);
  });

  it("counts UTF-8 bytes, not characters", () => {
    const overhead = JSON.stringify(big(0)).length;
    const chars = Math.floor((MAX_HOOK_POST_BYTES - overhead) / 3) + 1; // "€" is 3 bytes
    const post = { event: "Stop", payload: { last_assistant_message: "€".repeat(chars) } };
    expect(JSON.stringify(post).length).toBeLessThan(MAX_HOOK_POST_BYTES);
    expect(badParams(() => parseHookPost(post)).message).toMatch(/payload too large/);
  });
});
