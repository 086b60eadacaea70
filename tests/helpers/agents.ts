// The real agent CLIs for integration tests: the pinned installs from scripts/install-agents.mjs
// (a cache outside the repository), and a user's machine set up for each of them offline against
// the model stub (tests/stubs/model-api.ts): what a real user has after installing the CLI and
// giving it an API key — nothing Switchyard-specific.
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import path from "node:path";
import { agentCache, agentPaths } from "../../scripts/install-agents.mjs";
import type { ModelStub } from "../stubs/model-api";

/** The directory holding the pinned `claude` and `codex` programs; fails loudly when they are missing. */
function agentBinDirs(): string[] {
  const out: string[] = [];
  for (const name of ["claude", "codex"] as const) {
    const { bin } = agentPaths(name);
    if (!existsSync(bin))
      throw new Error(
        `${name} is not installed at ${bin}: run \`node scripts/install-agents.mjs\` once (npm test and .ci/run do)`,
      );
    out.push(path.dirname(bin));
  }
  return out;
}

/** An Anthropic-looking key: Claude Code approves custom keys by their last 20 characters. */
const ANTHROPIC_KEY = `sk-ant-api03-${"stub".repeat(15)}SWITCHYARDTESTKEY000`;

/**
 * A HOME where Claude Code has been set up by its user: onboarding done, the API key approved,
 * and the user's own choice of classic permission prompts (Claude 2.1's default auto mode cannot
 * check actions against a non-Anthropic base URL). Returns the env a server needs to reach the stub.
 */
export function claudeUser(home: string, stub: ModelStub, extra: Record<string, unknown> = {}): Record<string, string> {
  mkdirSync(path.join(home, ".claude"), { recursive: true });
  writeFileSync(
    path.join(home, ".claude.json"),
    JSON.stringify(
      {
        hasCompletedOnboarding: true,
        customApiKeyResponses: { approved: [ANTHROPIC_KEY.slice(-20)], rejected: [] },
        userMarker: "kept",
        ...extra,
      },
      null,
      2,
    ),
    { mode: 0o600 },
  );
  writeFileSync(
    path.join(home, ".claude", "settings.json"),
    JSON.stringify({ permissions: { defaultMode: "default", disableAutoMode: "disable" } }, null, 2),
  );
  return {
    HOME: home,
    ANTHROPIC_API_KEY: ANTHROPIC_KEY,
    ANTHROPIC_BASE_URL: stub.anthropicBaseUrl,
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
    DISABLE_AUTOUPDATER: "1",
  };
}

/**
 * A scratch folder outside /tmp, for a CODEX_HOME: Codex's sandbox helper refuses to run from a
 * Codex home under /tmp (every sandboxed command then fails).
 */
export function scratchOutsideTmp(prefix: string): string {
  const base = path.join(path.dirname(agentCache()), "test-homes");
  mkdirSync(base, { recursive: true });
  return mkdtempSync(path.join(base, prefix));
}

/** A CODEX_HOME whose config.toml points Codex at the stub (a user's own provider setup). */
export function codexUser(home: string, stub: ModelStub): Record<string, string> {
  const codexHome = path.join(home, ".codex");
  mkdirSync(codexHome, { recursive: true });
  writeFileSync(
    path.join(codexHome, "config.toml"),
    [
      "# the user's own Codex config",
      'model = "stub-model"',
      'model_provider = "stub"',
      "check_for_update_on_startup = false",
      "",
      "[model_providers.stub]",
      'name = "stub"',
      `base_url = "${stub.openaiBaseUrl}"`,
      'env_key = "OPENAI_API_KEY"',
      'wire_api = "responses"',
      "",
      "[analytics]",
      "enabled = false",
      "",
    ].join("\n"),
  );
  return { HOME: home, CODEX_HOME: codexHome, OPENAI_API_KEY: "sk-stub-switchyard-test" };
}

/** PATH with the pinned agents first. */
export function pathWithAgents(): string {
  return [...agentBinDirs(), process.env.PATH ?? "/usr/bin:/bin"].join(path.delimiter);
}
