// A pull request's body for a task: its contract, the current round's result and the latest
// review of that round with its comments, as Markdown.
//
// Every text that came from a task (objective, constraints, a worker's summary, file names,
// review summaries and comments: any of it may be an agent's) is put in a fenced block, longer
// than any run of backticks in it. There GitHub renders it as written and acts on none of it: no
// @mention notifies anyone, no "Fixes #12" closes an issue when the pull request merges, no image
// or link loads. Each text is cut to a bound and the body to GitHub's limit.
import { cutText } from "../../wire/common";

export interface PrBodyInput {
  task: {
    id: string;
    round: number;
    branch: string | null;
    contract: { objective: string; constraints: string[]; acceptanceCriteria: string[]; outputFormat: string | null };
    result: { status: string; summary: string; changedFiles: string[]; artifacts: string[] } | null;
  };
  review: {
    verdict: "approved" | "changes_requested";
    stage: string;
    reviewer: string;
    summary: string | null;
    comments: Array<{
      path: string;
      startLine: number;
      endLine: number;
      side: string;
      body: string;
      resolved: boolean;
      author: string;
    }>;
  } | null;
}

/** GitHub refuses bodies over 65,536 characters. */
const MAX_BODY = 60_000;
const MAX_TEXT = 8_000;
const MAX_LIST = 200;
const MAX_COMMENTS = 50;

/** `text` in a fenced block GitHub shows verbatim (its fence longer than any backtick run inside). */
export function fenced(text: string, max = MAX_TEXT): string {
  const t = cutText(text, max);
  const longest = Math.max(2, ...[...t.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = "`".repeat(longest + 1);
  return `${fence}text\n${t}\n${fence}`;
}

function list(items: string[]): string {
  const shown = items.slice(0, MAX_LIST).map((i) => `- ${i.replace(/\n/g, " ")}`);
  if (items.length > MAX_LIST) shown.push(`… and ${items.length - MAX_LIST} more`);
  return fenced(shown.join("\n"));
}

export function prBody({ task, review }: PrBodyInput): string {
  const out: string[] = [
    `Opened by Switchyard from task \`${task.id}\` (round ${task.round}).`,
    "Text from the task is quoted as written.",
    "",
    "## Contract",
    "",
    "**Objective**",
    "",
    fenced(task.contract.objective),
  ];
  if (task.contract.constraints.length) out.push("", "**Constraints**", "", list(task.contract.constraints));
  if (task.contract.acceptanceCriteria.length)
    out.push("", "**Acceptance criteria**", "", list(task.contract.acceptanceCriteria));
  if (task.contract.outputFormat) out.push("", "**Output format**", "", fenced(task.contract.outputFormat));

  out.push("", "## Result", "");
  if (task.result) {
    out.push(`**${task.result.status}**`, "", fenced(task.result.summary));
    if (task.result.changedFiles.length) out.push("", "**Changed files**", "", list(task.result.changedFiles));
    if (task.result.artifacts.length) out.push("", "**Artifacts**", "", list(task.result.artifacts));
  } else out.push("No result was reported for this round.");

  out.push("", "## Review", "");
  if (review) {
    const verdict = review.verdict === "approved" ? "Approved" : "Changes requested";
    out.push(
      `**${verdict}** (${review.stage === "agent" ? "agent stage" : "human"}; reviewer \`${safeId(review.reviewer)}\`)`,
    );
    if (review.summary) out.push("", fenced(review.summary));
    if (review.comments.length) out.push("", `**Comments** (${review.comments.length})`);
    for (const c of review.comments.slice(0, MAX_COMMENTS)) {
      const lines = c.startLine === c.endLine ? `line ${c.startLine}` : `lines ${c.startLine}-${c.endLine}`;
      out.push(
        "",
        `- ${lines} (${c.side === "old" ? "base" : "change"})${c.resolved ? ", resolved" : ""}; author \`${safeId(c.author)}\``,
        "",
        fenced(`${c.path}\n\n${c.body}`, 4000),
      );
    }
    if (review.comments.length > MAX_COMMENTS)
      out.push("", `… and ${review.comments.length - MAX_COMMENTS} more comments`);
  } else out.push("This round has no review.");

  return cutText(out.join("\n"), MAX_BODY);
}

/** A reviewer or author id inside a code span: word characters, dashes and dots only. */
function safeId(s: string): string {
  return s.replace(/[^A-Za-z0-9_.:-]/g, "?").slice(0, 80);
}
