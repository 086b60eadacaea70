// What a task's pane runs when its repository has setup commands: a shell that runs the setup
// wrapper (cli/bin/setup.mjs: each command with `sh -c`, printed with its output in the pane,
// progress posted to the server) and, only when it succeeded, execs the agent in its place, so
// the agent is the pane's process from then on and a failed setup starts no agent. The sandbox,
// when the task has it, wraps all of it: setup runs where the agent would.
import path from "node:path";
import { REPO_ROOT } from "../../root";

const SETUP_WRAPPER = path.join(REPO_ROOT, "cli/bin/setup.mjs");

/** The shell's script: $1 node, $2 the wrapper, $3 its JSON; the rest is the agent's argv. */
const SCRIPT = 'n=$1 w=$2 s=$3; shift 3; "$n" "$w" "$s" || exit; exec "$@"';

export function setupArgv(commands: readonly string[], agentArgv: readonly string[]): string[] {
  return [
    "/bin/sh",
    "-c",
    SCRIPT,
    "yard-setup",
    process.execPath,
    SETUP_WRAPPER,
    JSON.stringify({ commands }),
    ...agentArgv,
  ];
}
