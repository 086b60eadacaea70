// The MCP tools `yard mcp` serves: one row per tool, naming the tRPC procedure it calls, whether
// that is a query or a mutation, its input schema and what an agent reads about it. This file owns
// the table and nothing else; cli/mcp/server.ts turns each row into a registered tool. Adding a
// procedure is one row here.
//
// Input schemas are the API's own where a contract exports them (server/wire/*). The rest
// are written here with the same limits (server/wire/common.ts), because their procedures
// declare them inline or in server modules the CLI must not bundle (the task service, the pane
// manager); tests/mcp.test.ts checks every row against the router, so none can drift from it.
// The server still validates every call: these schemas tell the agent what to send.
//
// `wrap` names the key the CLI's `--json` document puts the result under (`yard --json task
// get` prints {"task": ...}), so a tool's result is the same document the CLI prints.
// `fill` supplies what the CLI takes from where it runs (relative paths, $YARD_TASK).
import path from "node:path";
import { z } from "zod";
import { absolutePath, paneId, taskId } from "../../server/wire/common";
import { eventsListInput } from "../../server/wire/events";
import { readInput, sendKeysInput, submitInput } from "../../server/wire/panes";
import {
  addCommentInput,
  deleteCommentInput,
  editCommentInput,
  listCommentsInput,
  listReviewsInput,
  resolveCommentInput,
  submitReviewInput,
} from "../../server/wire/reviews";
import {
  ackInput,
  agentReviewInput,
  answerInput,
  askInput,
  dependInput,
  registerWorktreeInput,
  threadInput,
} from "../../server/wire/orchestration";
import { planReviewInput, planSubmitInput } from "../../server/wire/plans";
import { updateInput } from "../../server/wire/branches";
import {
  eventsInput as taskEventsInput,
  taskIdInput,
  finishInput,
  followUpInput,
  listInput,
  reportInput,
  resumeInput,
  startInput,
  taskDiffInput,
  waitInput,
} from "../../server/wire/tasks";
import { revertTurnInput } from "../../server/wire/turns";
import type { YardClient } from "../connection";

/** Every procedure of the API with its kind, as the tRPC client sees them: "tasks.get" → query. */
type Procedures<T, P extends string = ""> = {
  [K in keyof T & string]: T[K] extends { query: (...a: never[]) => unknown }
    ? { path: `${P}${K}`; kind: "query" }
    : T[K] extends { mutate: (...a: never[]) => unknown }
      ? { path: `${P}${K}`; kind: "mutation" }
      : Procedures<T[K], `${P}${K}.`>;
}[keyof T & string];
type Procedure = Procedures<YardClient>;

export type Tool = Procedure & {
  name: string;
  description: string;
  /** The procedure's input; z.object({}) for one that takes none. */
  input: z.ZodObject;
  wrap?: string;
  fill?: (args: Record<string, unknown>) => Record<string, unknown>;
};

// ---- schemas the API declares where the CLI cannot import them ---------------------------------

const none = z.object({});
const byTaskId = z.object({ id: taskId });
const byPaneId = z.object({ id: paneId });
const profile = z.string().regex(/^[a-z0-9][a-z0-9-]{0,39}$/);
const argv = z.array(z.string().max(8192)).min(1).max(256);

/** panes.spawn (spawnInput in server/core/panes/manager.ts). */
const spawnInput = z.object({
  argv: argv.optional(),
  agent: profile.optional(),
  cwd: absolutePath.optional(),
  env: z
    .record(
      z
        .string()
        .max(256)
        .regex(/^[A-Za-z_][A-Za-z0-9_]*$/),
      z.string().max(32768),
    )
    .optional(),
  label: z.string().trim().min(1).max(120).optional(),
  parentPaneId: z
    .string()
    .regex(/^pane[a-z0-9]+$/)
    .optional(),
  relationship: z.enum(["fork", "subagent"]).optional(),
  cols: z.number().int().min(10).max(1000).optional(),
  rows: z.number().int().min(4).max(500).optional(),
});
const paneListInput = z.object({ taskId: z.string().max(64).optional(), live: z.boolean().optional() });
const attentionInput = z.object({ limit: z.number().int().min(1).max(1000).optional() });

// ---- what the CLI fills in from where it runs ----------------------------------------------------

/** Relative paths resolve against the directory `yard mcp` runs in, as the CLI's do against its own. */
const resolved =
  (...keys: string[]) =>
  (args: Record<string, unknown>) => {
    const out = { ...args };
    for (const k of keys) if (typeof out[k] === "string" && out[k] !== "") out[k] = path.resolve(out[k] as string);
    return out;
  };

// ---- the table --------------------------------------------------------------------------------------

export const TOOLS: Tool[] = [
  {
    name: "status",
    path: "status",
    kind: "query",
    input: none,
    description:
      "Is the Switchyard server up: version, URL, who you are to it (admin or pane), counts of projects, tasks and panes.",
  },
  {
    name: "project_list",
    path: "projects.list",
    kind: "query",
    input: none,
    wrap: "projects",
    description:
      "The projects (git repositories) on the board, with their ids for task_start's projectId. The user's token only.",
  },
  {
    name: "agent_list",
    path: "agents.list",
    kind: "query",
    input: none,
    wrap: "agents",
    description: "The agent profiles a task can run (task_start's agent), e.g. demo, claude, codex.",
  },

  {
    name: "task_start",
    path: "tasks.start",
    kind: "mutation",
    input: startInput,
    fill: resolved("repoPath", "path"),
    description:
      "Start a worker task: a new worktree and branch of the project (projectId) or repository (repoPath), and an agent (agent profile, or argv) working on the objective. Returns {task, pane}. With backlog: true it is only recorded; start it later with task_start_backlog.",
  },
  {
    name: "task_start_backlog",
    path: "tasks.startBacklog",
    kind: "mutation",
    input: taskIdInput,
    description:
      "Start a backlog task now: worktree, branch and agent (RATE_LIMITED at the cap of running tasks, nothing changed).",
  },
  {
    name: "task_get",
    path: "tasks.get",
    kind: "query",
    input: byTaskId,
    wrap: "task",
    description:
      "One task: state, branch, worktree, contract, result, evidence. A worker pane may read only its own task.",
  },
  {
    name: "task_list",
    path: "tasks.list",
    kind: "query",
    input: listInput.unwrap(),
    wrap: "tasks",
    description: "List tasks, optionally only one context, project or some states.",
  },
  {
    name: "task_wait",
    path: "tasks.wait",
    kind: "query",
    input: waitInput,
    description:
      "Wait until a task (id) or every task of a context (contextId) reaches `until`: settled (default: terminal or input_required), terminal, working, or a list of states. TIMEOUT after timeoutMs (default 600000); keep it below your MCP client's tool-call timeout.",
  },
  {
    name: "task_report",
    path: "tasks.report",
    kind: "mutation",
    input: reportInput,
    wrap: "task",
    fill: (a) => ({ ...a, taskId: a.taskId ?? (process.env.YARD_TASK || undefined) }),
    description:
      "Report this task's result from its worker (taskId defaults to $YARD_TASK): status completed, failed or rejected, a summary, changed files, artifacts, evidence.",
  },
  {
    name: "task_follow_up",
    path: "tasks.followUp",
    kind: "mutation",
    input: followUpInput,
    description:
      "Send a follow-up prompt to a task waiting for input, through the submit gate (refused while the agent is busy or not ready).",
  },
  {
    name: "task_diff",
    path: "tasks.diff",
    kind: "query",
    input: taskDiffInput,
    description:
      "The task's changes against its base commit (tracked and untracked files): the unified diff and the file list with line counts. since: last_review gives only what changed since the last review; turn: N only what turn N changed (see task_turns).",
  },
  {
    name: "task_turns",
    path: "tasks.turns",
    kind: "query",
    input: taskIdInput,
    description:
      "The task's turn snapshots: the worktree recorded at the end of each of the agent's turns (numbered across rounds), with what each changed.",
  },
  {
    name: "task_revert_turn",
    path: "tasks.revertTurn",
    kind: "mutation",
    input: revertTurnInput,
    description:
      "Restore the task worktree's files to the snapshot before turn N (tracked and untracked; files made since are removed). The branch and the agent's commits stay. Refused while the agent is busy (PANE_BUSY) and for a finished task.",
  },
  {
    name: "task_rounds",
    path: "tasks.rounds",
    kind: "query",
    input: byTaskId,
    description: "Every round of the task: state, prompt, result and reviews.",
  },
  {
    name: "task_cancel",
    path: "tasks.cancel",
    kind: "mutation",
    input: byTaskId,
    wrap: "task",
    description: "Stop the worker and mark the task canceled (worktree and branch are kept).",
  },
  {
    name: "task_finish",
    path: "tasks.finish",
    kind: "mutation",
    input: finishInput,
    description:
      "Finish a task: merge ({target?, keepBranch?, ignoreDirty?, strategy?: merge|squash|rebase|ff}) its branch into the target (exactly the approved commit, when approved), or discard ({deleteBranch?, force?}) it and remove the worktree; a pane must pass force to discard uncommitted work (see task_uncommitted). Exactly one of merge or discard.",
  },
  {
    name: "task_update",
    path: "tasks.update",
    kind: "mutation",
    input: updateInput,
    description:
      "Bring a task's branch up to date with its target ({id, rebase?}): the target's new commits merged in (or rebased onto). Conflicts become the agent's next round when it runs idle, else CONFLICT naming the files (nothing changed).",
  },
  {
    name: "task_uncommitted",
    path: "tasks.uncommitted",
    kind: "query",
    input: taskIdInput,
    description: "The task worktree's uncommitted files: what a discard would delete.",
  },
  {
    name: "task_resume",
    path: "tasks.resume",
    kind: "mutation",
    input: resumeInput,
    description: "Continue a failed or canceled task's agent in its recorded session, in a fresh pane (a new round).",
  },
  {
    name: "task_depend",
    path: "tasks.depend",
    kind: "mutation",
    input: dependInput,
    description:
      "Make a task that has not started wait for another (on); it starts by itself once every dependency is met (startWhen: merged, the default, or completed). remove: true drops a dependency. A cycle is CONFLICT naming it.",
  },
  {
    name: "task_ask",
    path: "tasks.ask",
    kind: "mutation",
    input: askInput,
    description:
      "Inside a task's pane: ask whoever started your task a question. The task waits (input_required) and the answer arrives as your next prompt: end your turn after asking.",
  },
  {
    name: "task_answer",
    path: "tasks.answer",
    kind: "mutation",
    input: answerInput,
    description:
      "Answer a worker's question (typed to it through the submit gate; refused while it is busy) and keep it in the task's thread.",
  },
  {
    name: "task_ack",
    path: "tasks.ack",
    kind: "mutation",
    input: ackInput,
    description:
      "Acknowledge a finished task's result; until then it stays in your attention as result_unacknowledged.",
  },
  {
    name: "task_agent_review",
    path: "tasks.agentReview",
    kind: "mutation",
    input: agentReviewInput,
    wrap: "task",
    description:
      "The agent reviewer stage of a task: action skip (stop the reviewer; the task goes to a person) or rerun (review the current round again).",
  },
  {
    name: "plan_submit",
    path: "plans.submit",
    kind: "mutation",
    input: planSubmitInput,
    wrap: "plan",
    description:
      "Submit the next version of your task's plan (a planner pane; the person names taskId): {goal, steps, subtasks: [{key, title, objective, acceptanceCriteria, dependsOn: [keys]}]}. The task then waits for the plan's review.",
  },
  {
    name: "plan_list",
    path: "plans.list",
    kind: "query",
    input: taskIdInput,
    description: "Every version of a task's plan with its reviews, and once approved the subtasks it became.",
  },
  {
    name: "plan_review",
    path: "plans.review",
    kind: "mutation",
    input: planReviewInput,
    description:
      "Review the plan version in review: approve (its subtasks are created, all or none) or request_changes (the summary and notes go to the planner).",
  },
  {
    name: "task_thread",
    path: "tasks.thread",
    kind: "query",
    input: threadInput,
    description: "The task's questions and answers, the open question, and when its result was acknowledged.",
  },
  {
    name: "task_register_worktree",
    path: "tasks.registerWorktree",
    kind: "mutation",
    input: registerWorktreeInput,
    fill: resolved("path"),
    description:
      "Inside a task's pane: list an extra git worktree you made for your task (path; branch is checked against git).",
  },
  {
    name: "whoami",
    path: "whoami",
    kind: "query",
    input: none,
    description:
      "Who you are to Switchyard: role, pane, and for a task's pane its task, context, lineage and your role's short guide.",
  },
  {
    name: "task_events",
    path: "tasks.events",
    kind: "query",
    input: taskEventsInput,
    description: "The task's event history, optionally only after sequence number `since`.",
  },

  {
    name: "review_submit",
    path: "reviews.submit",
    kind: "mutation",
    input: submitReviewInput,
    description:
      "Review the task's current round: approve (the task must be completed), or request_changes (sends the summary and the round's unresolved comments to the agent as the next round).",
  },
  {
    name: "review_comment",
    path: "reviews.addComment",
    kind: "mutation",
    input: addCommentInput,
    description:
      "Comment on lines of the task's current diff: path (relative to the repository root), startLine, endLine, side new (the task's version, default) or old (the base's).",
  },
  {
    name: "review_comments",
    path: "reviews.listComments",
    kind: "query",
    input: listCommentsInput,
    description: "The task's review comments, every round or one.",
  },
  {
    name: "review_comment_edit",
    path: "reviews.editComment",
    kind: "mutation",
    input: editCommentInput,
    description: "Change a draft comment's text (its author or the user).",
  },
  {
    name: "review_comment_resolve",
    path: "reviews.resolveComment",
    kind: "mutation",
    input: resolveCommentInput,
    description: "Resolve a comment, or reopen it with resolved: false.",
  },
  {
    name: "review_comment_delete",
    path: "reviews.deleteComment",
    kind: "mutation",
    input: deleteCommentInput,
    description: "Delete a draft comment (submitted ones stay with their review).",
  },
  {
    name: "review_list",
    path: "reviews.list",
    kind: "query",
    input: listReviewsInput,
    description: "The task's reviews and where its current round's review stands.",
  },

  {
    name: "pane_spawn",
    path: "panes.spawn",
    kind: "mutation",
    input: spawnInput,
    wrap: "pane",
    fill: (a) => resolved("cwd")({ ...a, cwd: a.cwd ?? process.cwd() }),
    description:
      "Start a terminal pane running an agent profile (agent) or a command (argv), in cwd (default: where yard mcp runs).",
  },
  {
    name: "pane_list",
    path: "panes.list",
    kind: "query",
    input: paneListInput,
    wrap: "panes",
    description: "List panes (live: only running ones; taskId: only one task's).",
  },
  {
    name: "pane_get",
    path: "panes.get",
    kind: "query",
    input: byPaneId,
    wrap: "pane",
    description:
      "One pane: lifecycle (starting, idle, working, blocked, done, exited), exit code, task, what it is blocked on.",
  },
  {
    name: "pane_read",
    path: "panes.read",
    kind: "query",
    input: readInput,
    description:
      "Read a pane's rendered terminal: mode screen (default: what is on screen now), tail (the last `lines` lines), or delta (what came after `cursor`, from the previous read; 0 from the start; give a stable `reader` name).",
  },
  {
    name: "pane_submit",
    path: "panes.submit",
    kind: "mutation",
    input: submitInput,
    description:
      "Submit a prompt to the agent in a pane safely: refused when it is busy, not ready or gone; confirmed by the agent starting work.",
  },
  {
    name: "pane_send_keys",
    path: "panes.sendKeys",
    kind: "mutation",
    input: sendKeysInput,
    description: "Type raw keys into a pane (e.g. answer a prompt with y); enter: true presses Enter after the text.",
  },
  {
    name: "pane_kill",
    path: "panes.kill",
    kind: "mutation",
    input: byPaneId,
    wrap: "pane",
    description: "Stop a pane's whole process group.",
  },
  {
    name: "attention",
    path: "panes.attention",
    kind: "query",
    input: attentionInput,
    description:
      "Panes that need someone: blocked on a prompt or a start-up dialog, turn done and unseen, crashed, input required.",
  },
  {
    name: "events",
    path: "events.list",
    kind: "query",
    input: eventsListInput.unwrap(),
    description:
      "The event journal: events after sequence number `since`, optionally of one type glob (task.*), task or pane.",
  },
];
