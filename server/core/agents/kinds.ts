// Which known agent CLI a launch runs (Claude Code, Codex), worked out from its profile id and
// argv, so the parts that know an agent (trust, hooks, screen reading, resume) apply to the
// built-in profiles and to custom profiles that run the same program.
import path from "node:path";

const AGENT_KINDS = ["claude", "codex"] as const;
export type AgentKind = (typeof AGENT_KINDS)[number];

/** The agent a profile (or custom argv) runs, or null for anything else. */
export function agentKindOf(opts: { profileId?: string | null; argv: readonly string[] }): AgentKind | null {
  if (opts.profileId === "claude-code") return "claude";
  if (opts.profileId === "codex") return "codex";
  const argv = opts.argv;
  if (argv.some((a) => a.includes("{{claudeHookSettings}}"))) return "claude";
  if (argv.some((a) => a.includes("{{codexHooks}}"))) return "codex";
  const program = path.basename(argv[0] ?? "");
  if (program === "claude" || program === "claude.exe") return "claude";
  if (program === "codex" || program === "codex.js") return "codex";
  return null;
}
