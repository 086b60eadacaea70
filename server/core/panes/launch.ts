// What a spawn will run, worked out before anything is created: the agent profile (or a custom
// argv) with its placeholders expanded, its environment and hook support, and the program found
// on PATH and executable. A launch that cannot work is refused here, so a refused task or pane
// leaves no row, branch or worktree behind.
import { type AgentKind, agentKindOf } from "../agents/kinds";
import { accessSync, constants, statSync } from "node:fs";
import path from "node:path";
import { type AgentProfiles, expandArgv } from "../agents/profiles";
import { YardError } from "../errors";

export interface Launch {
  argv: string[];
  /** The profile's environment (empty for a custom argv). */
  env: Record<string, string>;
  hooks: boolean;
  agent: string | null;
  /** The profile asks for the OS sandbox. */
  sandbox: boolean;
  /** The known agent CLI it runs, from the profile's template (before its placeholders are expanded). */
  kind: AgentKind | null;
  /** The profile's role (worker, reviewer, planner, orchestrator); null for a custom argv. */
  profileRole: string | null;
}

export async function resolveLaunch(
  agents: AgentProfiles,
  opts: { agent?: string; argv?: string[]; pathEnv?: string },
): Promise<Launch> {
  let launch: Launch;
  if (opts.agent) {
    const profile = await agents.get(opts.agent);
    launch = {
      argv: expandArgv(profile.argv),
      env: profile.env,
      hooks: profile.supportsHooks,
      agent: profile.id,
      sandbox: profile.sandbox,
      kind: agentKindOf({ profileId: profile.id, argv: profile.argv }),
      profileRole: profile.role,
    };
  } else if (opts.argv) {
    launch = {
      argv: expandArgv(opts.argv),
      env: {},
      hooks: false,
      agent: null,
      sandbox: false,
      kind: agentKindOf({ argv: opts.argv }),
      profileRole: null,
    };
  } else {
    throw new YardError("BAD_PARAMS", "Give an agent profile or a command (argv)");
  }
  findProgram(launch.argv[0]!, opts.pathEnv ?? process.env.PATH ?? "");
  return launch;
}

/** The executable `program` names (a path, or a name looked up on PATH); BAD_PARAMS when none. */
export function findProgram(program: string, pathEnv: string): string {
  const isFile = (p: string) => {
    try {
      if (!statSync(p).isFile()) return false;
      accessSync(p, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  };
  if (program.includes("/")) {
    if (!path.isAbsolute(program))
      throw new YardError(
        "BAD_PARAMS",
        `The program ${JSON.stringify(program)} must be an absolute path or a name on PATH`,
        { program },
      );
    if (isFile(program)) return program;
    throw new YardError("BAD_PARAMS", `The program ${program} does not exist or is not executable`, { program });
  }
  for (const dir of pathEnv.split(path.delimiter)) {
    if (!dir || !path.isAbsolute(dir)) continue;
    const candidate = path.join(dir, program);
    if (isFile(candidate)) return candidate;
  }
  throw new YardError("BAD_PARAMS", `The program ${JSON.stringify(program)} was not found on PATH`, { program });
}
