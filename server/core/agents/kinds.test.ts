import { describe, expect, it } from "vitest";
import { agentKindOf } from "./kinds";

describe("agentKindOf", () => {
  it.each([
    [{ profileId: "claude-code", argv: ["anything"] }, "claude"],
    [{ profileId: "codex", argv: ["anything"] }, "codex"],
    [{ profileId: "my-claude", argv: ["/opt/claude/bin/claude", "--model", "x"] }, "claude"],
    [{ profileId: "wrapped", argv: ["env", "FOO=1", "sh", "-c", "x", "{{claudeHookSettings}}"] }, "claude"],
    [{ profileId: "my-codex", argv: ["/usr/local/bin/codex"] }, "codex"],
    [{ profileId: null, argv: ["codex.js"] }, "codex"],
    [{ profileId: "demo", argv: ["node", "agents/demo/demo-agent.mjs"] }, null],
    [{ profileId: "shell", argv: ["/bin/bash"] }, null],
  ] as const)("%j -> %s", (input, kind) => {
    expect(agentKindOf(input)).toBe(kind);
  });
});
