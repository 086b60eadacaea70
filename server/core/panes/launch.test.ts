import { describe, expect, it } from "vitest";
import type { AgentProfiles } from "../agents/profiles";
import { resolveLaunch } from "./launch";

const profiles = (argv: string[]) =>
  ({
    get: async (id: string) => ({
      id,
      name: id,
      role: "worker",
      argv,
      supportsHooks: true,
      env: {},
      builtIn: false,
      sandbox: false,
      sandboxNetwork: false,
    }),
  }) as unknown as AgentProfiles;

describe("resolveLaunch", () => {
  it("knows a custom profile runs Claude Code from its template's hook settings placeholder, not the expanded argv", async () => {
    const l = await resolveLaunch(profiles(["{{node}}", "--settings", "{{claudeHookSettings}}"]), {
      agent: "my-claude",
    });
    expect(l.argv.join(" ")).not.toContain("{{claudeHookSettings}}");
    expect(l.kind).toBe("claude");
  });

  it("a plain program is no known agent", async () => {
    expect((await resolveLaunch(profiles(["{{node}}", "-e", "0"]), { agent: "plain" })).kind).toBeNull();
  });
});
