// The `{{name}}` placeholders an agent profile's argv may use, each with what it expands to. Pure
// (no Node imports) so the Agents page can explain them next to the Command field; the values are
// filled in by expandArgv (server/core/agents/profiles.ts), whose table is typed by PlaceholderName so the two lists
// cannot drift apart.
export const ARGV_PLACEHOLDERS = [
  { name: "node", means: "this server's Node executable" },
  { name: "yardRoot", means: "this Switchyard checkout (e.g. {{yardRoot}}/agents/demo/demo-agent.mjs)" },
  { name: "shell", means: "$SHELL (default /bin/bash)" },
  {
    name: "claudeHookSettings",
    means: "the JSON for `claude --settings`: every Claude Code hook runs `yard hook <Event>`",
  },
  { name: "codexHooks", means: "the `-c` value registering Switchyard's hooks with Codex (`hooks={...}`)" },
  { name: "codexNotify", means: "the `-c` value making Codex's notify run `yard hook CodexNotify`" },
] as const;

export type PlaceholderName = (typeof ARGV_PLACEHOLDERS)[number]["name"];
