// What Switchyard prepares in an agent's own configuration right before it launches the agent
// for a task (the one place that writes there; README "What Switchyard changes in your agent
// config"):
// - Claude Code, when the task's project has `trustAgents` on: the repository's workspace trust
//   in the Claude config file the agent will read (claude-config.ts). That file is found from the
//   environment the agent gets: CLAUDE_CONFIG_DIR, else HOME — for a sandboxed task, the
//   sandbox's private home, since that is the HOME the agent sees.
// - Codex: trust for Switchyard's own hooks, and, when the project has `trustAgents` on, the
//   repository's folder trust, both in the Codex config the agent will read (codex.ts).
// Nothing else (never the permission mode, never the user's own hooks). A preparation that fails
// does not stop the launch: the agent then shows its dialog, which the screen watcher reports.
//
// A sandboxed agent can write its own config (the sandbox's home, and its temp dir), and this
// preparation runs on the host: there the Claude file is read and written only as a regular file
// of the user's that really lies inside the sandbox (never through a link, never a FIFO), and the
// Codex home is never handed to Codex's app-server (codex.ts `isolate`). A refusal fails the
// preparation with the reason (`task.prepare_failed`) and leaves everything as it was.
import { type AgentKind, agentKindOf } from "./kinds";
import { claudeConfigFile, recordClaudeTrust, type TrustResult } from "./claude-config";
import { codexHome, codexHooksOverride, type CodexPrepareResult, prepareCodexLaunch } from "./codex";
import path from "node:path";
import { findProgram } from "../panes/launch";
import { isUnder } from "../safe-fs";
import type { EventJournal } from "../events/journal";
import type { Launch } from "../panes/launch";

interface LaunchPrepInput {
  profileId: string | null;
  /** the argv the agent is launched with (placeholders expanded) */
  argv: string[];
  /** the agent CLI the launch runs, as its profile's template says (else worked out from argv) */
  kind?: AgentKind | null;
  /** the profile's environment (on top of the server's) */
  profileEnv: Record<string, string>;
  /** the task's worktree */
  cwd: string;
  /** the repository to record trust for (the project's root), or null when the project says no */
  trustDir: string | null;
  /** the sandbox's private home, when the agent runs sandboxed */
  sandboxHome: string | null;
  /** the PATH panes get (to find the agent's program) */
  pathEnv: string;
}

export interface LaunchPrepResult {
  kind: AgentKind | null;
  claude?: TrustResult;
  codex?: CodexPrepareResult;
}

/** The environment the agent will see, as far as finding its config (and its transcripts) goes. */
export function agentEnvironment(input: {
  profileEnv: Record<string, string>;
  sandboxHome: string | null;
  pathEnv?: string;
}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !k.startsWith("YARD_")) env[k] = v;
  Object.assign(env, input.profileEnv, input.pathEnv !== undefined ? { PATH: input.pathEnv } : {});
  if (input.sandboxHome) env.HOME = input.sandboxHome;
  return env;
}

async function prepareAgentLaunch(input: LaunchPrepInput): Promise<LaunchPrepResult> {
  const kind = input.kind !== undefined ? input.kind : agentKindOf({ profileId: input.profileId, argv: input.argv });
  const env = agentEnvironment(input);
  // What the agent can write: for a sandboxed one, its home and temp dir (the sandbox's dir) and its worktree.
  const sandboxDir = input.sandboxHome ? path.dirname(input.sandboxHome) : null;
  // The directory a path must really stay inside when it lies where the sandboxed agent can write, else null.
  const confinedTo = (p: string): string | null =>
    sandboxDir === null ? null : isUnder(p, sandboxDir) ? sandboxDir : isUnder(p, input.cwd) ? input.cwd : null;
  if (kind === "claude") {
    if (!input.trustDir) return { kind };
    const file = claudeConfigFile(env);
    return { kind, claude: await recordClaudeTrust([input.trustDir], { file, within: confinedTo(file) ?? undefined }) };
  }
  if (kind === "codex") {
    const withOurHooks = input.argv.includes(codexHooksOverride());
    if (!withOurHooks && !input.trustDir) return { kind };
    const program = findProgram(input.argv[0]!, input.pathEnv);
    const home = codexHome(env);
    const within = confinedTo(home);
    const isolate = within ? { scratchParent: sandboxDir!, within } : null;
    return {
      kind,
      codex: await prepareCodexLaunch({
        program,
        env,
        cwd: input.cwd,
        trustHooks: withOurHooks,
        trustDir: input.trustDir,
        isolate,
      }),
    };
  }
  return { kind };
}

/**
 * The task engine's launch hook: prepares the agent's own config before it starts, and journals
 * what it changed (task.agent_config). `pathEnv`: the PATH panes get.
 */
export function journaledLaunchPrep(journal: EventJournal, pathEnv: () => string) {
  return async (b: {
    taskId: string;
    launch: Launch;
    cwd: string;
    trustDir: string | null;
    sandboxHome: string | null;
  }): Promise<void> => {
    const r = await prepareAgentLaunch({
      profileId: b.launch.agent,
      argv: b.launch.argv,
      kind: b.launch.kind,
      profileEnv: b.launch.env,
      cwd: b.cwd,
      trustDir: b.trustDir,
      sandboxHome: b.sandboxHome,
      pathEnv: pathEnv(),
    });
    const changed = (r.claude?.written ? [`claude trust in ${r.claude.file}`] : []).concat(
      r.codex && !r.codex.skipped ? [`codex config in ${r.codex.codexHome}`] : [],
    );
    if (changed.length)
      await journal.append("task.agent_config", {
        taskId: b.taskId,
        payload: { kind: r.kind, claude: r.claude ?? null, codex: r.codex ?? null },
      });
  };
}
