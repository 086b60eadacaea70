// Profile updates: env values stay write-only (omitted keys keep their values, removal by name),
// built-ins take env changes only, and the env given to a built-in survives the next start.
import { describe, expect, it } from "vitest";
import type { ProfileStore } from "../../stores/profiles";
import { type AgentProfile, AgentProfiles, BUILT_IN_PROFILES, expandArgv } from "./profiles";

function memoryStore(): ProfileStore {
  const rows = new Map<string, AgentProfile>();
  const store = {
    async put(p: AgentProfile) {
      rows.set(p.id, structuredClone(p));
      return structuredClone(p);
    },
    async create(p: AgentProfile) {
      rows.set(p.id, structuredClone(p));
      return structuredClone(p);
    },
    async list() {
      return [...rows.values()].map((p) => structuredClone(p));
    },
    async find(id: string) {
      const p = rows.get(id);
      return p ? structuredClone(p) : null;
    },
    async delete(id: string) {
      rows.delete(id);
    },
  };
  return store as unknown as ProfileStore;
}

describe("AgentProfiles.update", () => {
  it("sets and removes variables by name and keeps the others; views never show values", async () => {
    const profiles = new AgentProfiles(memoryStore());
    await profiles.add({ id: "aider", argv: ["aider"], env: { OPENAI_API_KEY: "sk-one", OTHER: "keep-me" } });
    const v = await profiles.update({ id: "aider", env: { set: { OPENAI_API_KEY: "sk-two", NEW: "n" }, remove: [] } });
    expect(v.envNames).toEqual(["NEW", "OPENAI_API_KEY", "OTHER"]);
    expect(JSON.stringify(v)).not.toContain("sk-two");
    expect((await profiles.get("aider")).env).toEqual({ OPENAI_API_KEY: "sk-two", OTHER: "keep-me", NEW: "n" });
    await profiles.update({ id: "aider", env: { remove: ["NEW"] } });
    expect((await profiles.get("aider")).env).toEqual({ OPENAI_API_KEY: "sk-two", OTHER: "keep-me" });
    await profiles.update({ id: "aider", name: "Aider", argv: ["aider", "--yes"] });
    expect(await profiles.get("aider")).toMatchObject({
      name: "Aider",
      argv: ["aider", "--yes"],
      env: { OPENAI_API_KEY: "sk-two", OTHER: "keep-me" },
    });
  });

  it("refuses to remove a variable that is not there, and bad argv or placeholders", async () => {
    const profiles = new AgentProfiles(memoryStore());
    await profiles.add({ id: "x", argv: ["x"] });
    await expect(profiles.update({ id: "x", env: { remove: ["NOPE"] } })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(profiles.update({ id: "x", argv: ["x", "{{nope}}"] })).rejects.toMatchObject({ code: "BAD_PARAMS" });
    await expect(profiles.update({ id: "missing", env: { set: { A: "1" } } })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
  });

  it("built-ins take env changes only, and keep them across a restart's re-seed", async () => {
    const store = memoryStore();
    const profiles = new AgentProfiles(store);
    await profiles.seed();
    await profiles.update({ id: "claude-code", env: { set: { ANTHROPIC_API_KEY: "sk-ant" } } });
    await expect(profiles.update({ id: "claude-code", argv: ["claude"] })).rejects.toMatchObject({ code: "CONFLICT" });
    await new AgentProfiles(store).seed();
    expect((await profiles.get("claude-code")).env).toEqual({ ANTHROPIC_API_KEY: "sk-ant" });
    expect((await profiles.get("claude-code")).argv).toEqual(
      BUILT_IN_PROFILES.find((p) => p.id === "claude-code")!.argv,
    );
  });
});

describe("the codex built-in", () => {
  it("runs without Codex's shared daemon, without a login shell, with Switchyard's hooks and notify", () => {
    const codex = BUILT_IN_PROFILES.find((p) => p.id === "codex")!;
    expect(codex.supportsHooks).toBe(true);
    const argv = expandArgv(codex.argv);
    expect(argv.slice(0, 4)).toEqual(["codex", "--no-daemon", "-c", "allow_login_shell=false"]);
    expect(argv[5]).toMatch(/^hooks=\{SessionStart=/);
    expect(argv[7]).toBe('notify=["yard","hook","CodexNotify"]');
  });
});
