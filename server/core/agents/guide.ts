// The usage guide for agents: how each role drives Switchyard through `yard` (commands, JSON
// shapes, error codes and what to do on each, the wait semantics). `yard guide [role]` prints the
// full text; the prompt each agent gets carries its role's short guide. Pure text, no I/O.
import { ERROR_CODES, type ErrorCode } from "../errors";

export const GUIDE_ROLES = ["orchestrator", "worker", "reviewer", "planner"] as const;
export type GuideRole = (typeof GUIDE_ROLES)[number];

/** What to do on each error code, for an agent reading `{"error":{"code",...}}` from `yard --json`. */
const ON_ERROR: Record<ErrorCode, string> = {
  BAD_PARAMS: "fix the arguments (the message names the field); do not retry unchanged",
  UNAUTHORIZED: "you are outside your pane or its token died with it; stop",
  FORBIDDEN: "your role may not do that (see `yard whoami`); ask your orchestrator instead",
  NOT_FOUND: "check the id (`yard task list`, `yard pane list`)",
  CONFLICT: "the object is in another state (the message says which); read it again (`yard task get ID`) and decide",
  RATE_LIMITED: "too many tasks run; `yard task wait` for one to settle, then retry",
  TIMEOUT: "nothing happened in time; retry the wait or look at the pane (`yard pane read ID`)",
  PANE_BUSY: "the agent is working; wait (`yard task wait ID`) and retry",
  AGENT_NOT_READY: "the agent is starting; retry in a few seconds",
  PANE_EXITED: "the agent's process ended; `yard task resume ID` or start a new task",
  SUBMIT_STALLED: "the prompt was typed but the agent did not start; read its screen (`yard pane read ID`)",
  TASK_NOT_COMPLETED: "only a completed task merges; wait for it or follow up",
  DIRTY_TARGET: "the target checkout has uncommitted changes; a person must clean it",
  DIRTY_SOURCE: "the task's worktree has uncommitted changes; follow up asking the worker to commit",
  MERGE_CONFLICT:
    "nothing was merged; `yard task update ID` brings the target into the branch (its conflicts become the worker's round)",
  NOT_FAST_FORWARD: "the target moved on; `yard task update ID --rebase`, or merge with another --strategy",
  PAYLOAD_TOO_LARGE: "send less (split the text)",
  GIT_FAILED: "a git command failed; the message has git's output",
  SERVER_UNAVAILABLE: "the board is down; retry later (`retryable`)",
  SANDBOX_UNAVAILABLE: "start the task without --sandbox, or ask a person to install bubblewrap",
  PANE_HOST_UNAVAILABLE: "the terminal host is restarting; retry",
  NO_REMOTE: "the repository has no such remote (the message names those it has); a person pushes",
  GITHUB_TOKEN_MISSING: "pull requests need the person's GitHub token; ask a person",
  GITHUB_AUTH: "GitHub refused the token; ask a person",
  GITHUB_UNAVAILABLE: "GitHub did not answer; retry later (`retryable`)",
  INTERNAL: "a bug in Switchyard; report the message to a person",
  HOST_KEY_UNKNOWN: "a runner's host key is not trusted: a person checks it and runs `yard runner trust`; stop",
  HOST_KEY_CHANGED: "a runner's host key changed: a person must look into it; stop",
  RUNNER_UNAVAILABLE: "the runner is unreachable; wait and retry, or start the task elsewhere",
};

const COMMON = [
  "Every command takes --json: the result is one JSON object on stdout; a failure is",
  '{"error":{"code":"…","message":"…","retryable":true|false}} on stdout with exit code 1',
  "(2 for bad arguments). `yard whoami` says who you are: role, pane, task, context.",
];

const SHORT: Record<GuideRole, string[]> = {
  worker: [
    "You are a worker in a Switchyard task: work only in this worktree and branch.",
    '- Stuck on a question only your orchestrator can answer? `yard task ask "QUESTION"`, then end your turn: the answer arrives as your next prompt.',
    "- Made extra git worktrees for this task? `yard task register-worktree PATH [--branch B]`.",
    '- Done: commit, then `yard task report --status completed --summary "…"` (failed / rejected if not).',
    "- `yard guide worker` has the details.",
  ],
  orchestrator: [
    "You orchestrate Switchyard tasks: start workers, wait, answer them, review, then merge or discard.",
    "- `yard --json task start --project P --objective TEXT [--depends-on ID]...` then `yard --json task wait ID`.",
    '- input_required with a question: `yard task answer ID "…"`; a result: read `yard task diff ID`, then `yard task ack ID`.',
    "- `yard guide orchestrator` has the details.",
  ],
  reviewer: [
    "You review a Switchyard task's work: read the contract, the result and the diff; write a review.",
    '- `yard --json task get ID`, `yard task diff ID`, `yard task comment ID --path P --line N "…"`, `yard task review ID --approve | --request-changes --summary "…"`.',
    "- `yard guide reviewer` has the details.",
  ],
  planner: [
    "You plan a Switchyard task: write a plan with steps and proposed subtasks (contracts, dependencies).",
    "- Submit it with `yard plan submit --file plan.json`, then end your turn: a review comes back as your next prompt.",
    "- `yard guide planner` has the details.",
  ],
};

const FULL: Record<GuideRole, string[]> = {
  worker: [
    "Commands:",
    "  yard --json task get $YARD_TASK          your task: contract, state, round, evidence",
    '  yard task ask "QUESTION"                  ask your orchestrator; the task waits (input_required)',
    "                                           until the answer is typed to you as a prompt. End your turn after asking.",
    "  yard task register-worktree PATH [--branch B]   list an extra worktree you made for this task on its page",
    '  yard task report --status completed|failed|rejected --summary "…" [--changed-file PATH]... [--artifact X]...',
    "                                           ends your round; commit your work first",
    "  yard whoami                              your role, pane, task and context",
    "You may read only your own task and pane; starting or finishing tasks is refused (FORBIDDEN).",
  ],
  orchestrator: [
    "Commands (all take --json):",
    "  yard task start --project P --objective TEXT [--title T] [--accept C]... [--constraint C]... [--agent PROFILE]",
    "                  [--context ID] [--depends-on ID]... [--start-when merged|completed] [--backlog]",
    '      → {"task":{id,state,branch,worktreePath,...},"pane":{id,...}|null}. With unmet --depends-on the task waits',
    "        in the backlog and starts by itself when they are met (default: merged, so its base has their work).",
    "  yard task depend ID --on OTHER [--remove]  add or remove a dependency (a cycle is CONFLICT, naming it)",
    "  yard task wait [ID | --context C] [--until settled|terminal|working|STATE,...] [--timeout-ms N]",
    '      → {"tasks":[…]} once every named task is in the set. settled = completed, failed, canceled, rejected,',
    "        input_required. A timeout returns the tasks as they are (check their state).",
    "  yard task get ID · yard task list [--context C] · yard task events ID",
    "  yard task diff ID · yard task changes ID   the worker's changes against its base / since the last review",
    "  yard task turns ID · yard task diff ID --turn N · yard task revert-turn ID N --yes   each of the worker's turns,",
    "      one turn's changes, the worktree's files back to before turn N (its commits and branch stay; not while it works)",
    '  yard task answer ID "TEXT"                answer the worker\'s question (typed to it through the submit gate)',
    '  yard task follow-up ID "TEXT"             any other prompt to an input_required task',
    "  yard task ack ID                          acknowledge a result; until then it stays in your `yard attention`",
    "  yard task start … --needs-plan [--planner P]   a planner writes the plan first; review it with",
    '  yard plan show ID · yard plan review ID --approve | --request-changes --summary "…" [--note "…"]...',
    "      (approved: the subtasks are created, linked to the task, and start in dependency order)",
    "  yard task agent-review ID --skip | --rerun   the agent reviewer stage (a project's or task's --reviewer)",
    '  yard task review ID --approve | --request-changes --summary "FEEDBACK"   (changes start the next round)',
    "  yard task finish ID --merge [--target B] | --discard     land or drop the work",
    "  yard task cancel ID · yard task resume ID · yard attention",
    "You may act on tasks you started, their subtasks, and tasks in your own task's context.",
    "Task states: backlog → pending → working ⇄ input_required → completed | failed | canceled | rejected.",
  ],
  reviewer: [
    "Commands:",
    "  yard --json task get ID                  the contract and the worker's result",
    "  yard --json task diff ID · yard --json task changes ID   (all changes / since the last review)",
    '  yard task comment ID --path FILE --line N [--end-line M] [--side old|new] "COMMENT"',
    '  yard task review ID --approve [--summary "…"] | --request-changes --summary "WHAT TO CHANGE"',
    "You may not edit the worktree, start, finish or report tasks.",
  ],
  planner: [
    "Write a plan for your task: the goal, the steps, and the subtasks to run (each with an objective,",
    "acceptance criteria and the subtasks it depends on). `yard --json task get $YARD_TASK` has the goal.",
    "  yard plan submit --file plan.json | --plan-json TEXT     a new version; the task waits for its review",
    '      {"goal": "…", "steps": ["…"], "subtasks": [{"key": "a", "title": "…", "objective": "…",',
    '       "acceptanceCriteria": ["…"], "constraints": [], "dependsOn": ["other key"], "agent": "profile (optional)"}]}',
    "  yard plan show $YARD_TASK                  every version and its reviews",
    "Changes requested come back as your next prompt: submit the next version. Once approved, the subtasks",
    "are created (all or none) and start as their dependencies are merged; your work is done.",
    "You may read your task; starting, finishing or reporting other tasks is refused.",
  ],
};

export function shortGuide(role: GuideRole): string {
  return SHORT[role].join("\n");
}

export function fullGuide(role: GuideRole): string {
  const errors = (Object.keys(ON_ERROR) as ErrorCode[]).map(
    (c) => `  ${c.padEnd(22)} ${ERROR_CODES[c].retryable ? "(retryable) " : ""}${ON_ERROR[c]}`,
  );
  return [
    `Switchyard for the ${role}`,
    "",
    ...SHORT[role].slice(0, 1),
    "",
    ...FULL[role],
    "",
    ...COMMON,
    "",
    "Error codes and what to do:",
    ...errors,
  ].join("\n");
}

/** The Claude Code skill for orchestrators (`yard skill install`): SKILL.md with its frontmatter. */
export function orchestratorSkill(): string {
  return [
    "---",
    "name: switchyard-orchestrator",
    "description: Orchestrate coding agents with Switchyard's yard CLI - start worker tasks in their own git worktrees, wait for them, answer their questions, review their diffs, and merge or discard. Use when asked to split work across agents, run parallel tasks, or drive a Switchyard board.",
    "---",
    "",
    "# Orchestrating with Switchyard",
    "",
    "Run `yard whoami` first: it says your role and, inside a task, its context. Use `yard --json` for every call",
    "and read the JSON; on an error, act on its code as listed below.",
    "",
    fullGuide("orchestrator"),
    "",
  ].join("\n");
}
