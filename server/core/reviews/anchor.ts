// Anchoring review comments to a round's diff, and turning comments into the next round's
// prompt. Pure functions over the unified diff text `tasks.diff` returns:
//   diffLines(patch, files)            -> per file: the line numbers and text the diff shows on
//                                         each side (old = base, new = the task's version)
//   quoteFor(file, side, start, end)   -> the quoted code of lines start..end, or BAD_PARAMS
//                                         naming the file and the lines the diff does show
//   feedbackPrompt(round, summary, comments) -> the prompt that starts the next round
import { YardError } from "../errors";

export type Side = "old" | "new";

export interface DiffFileRef {
  path: string;
  status: string;
  binary: boolean;
}

export interface FileLines {
  path: string;
  status: string;
  binary: boolean;
  old: Map<number, string>;
  new: Map<number, string>;
}

/** Longest quote kept with a comment (lines); a longer range keeps its first lines and says how many more. */
export const QUOTE_MAX_LINES = 200;

const HUNK = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/;

/**
 * The lines each file's section of the patch shows. Sections come in the same order as the
 * diff's file list (one `diff --git` section per file), so paths are taken from the list, never
 * re-parsed from the headers.
 */
export function diffLines(patch: string, files: DiffFileRef[]): Map<string, FileLines> {
  const sections: string[][] = [];
  let cur: string[] | null = null;
  for (const line of patch.split("\n")) {
    if (line.startsWith("diff --git ")) {
      cur = [];
      sections.push(cur);
    } else if (cur) cur.push(line);
  }
  const out = new Map<string, FileLines>();
  files.forEach((f, i) => {
    const lines: FileLines = { path: f.path, status: f.status, binary: f.binary, old: new Map(), new: new Map() };
    let oldNo = 0;
    let newNo = 0;
    let inHunk = false;
    for (const line of sections[i] ?? []) {
      const h = HUNK.exec(line);
      if (h) {
        oldNo = Number(h[1]);
        newNo = Number(h[2]);
        inHunk = true;
        continue;
      }
      if (!inHunk) continue;
      const c = line.charAt(0);
      if (c === " ") {
        lines.old.set(oldNo++, line.slice(1));
        lines.new.set(newNo++, line.slice(1));
      } else if (c === "-") lines.old.set(oldNo++, line.slice(1));
      else if (c === "+") lines.new.set(newNo++, line.slice(1));
      else if (c !== "\\") inHunk = false; // "\ No newline at end of file" stays inside the hunk
    }
    out.set(f.path, lines);
  });
  return out;
}

/** "1-12, 40-52": the runs of line numbers a side shows. */
export function shownRanges(lines: Map<number, string>): string {
  const nums = [...lines.keys()].sort((a, b) => a - b);
  const runs: string[] = [];
  for (let i = 0; i < nums.length; ) {
    let j = i;
    while (j + 1 < nums.length && nums[j + 1] === nums[j]! + 1) j++;
    runs.push(nums[i] === nums[j] ? `${nums[i]}` : `${nums[i]}-${nums[j]}`);
    i = j + 1;
  }
  return runs.join(", ");
}

/** The code lines start..end on one side of a file's diff; BAD_PARAMS when the diff does not show them all. */
export function quoteFor(file: FileLines, side: Side, start: number, end: number): string {
  const where = start === end ? `line ${start}` : `lines ${start}-${end}`;
  if (file.binary)
    throw new YardError("BAD_PARAMS", `${file.path} is a binary file; it has no lines to comment on`, {
      path: file.path,
    });
  const shown = file[side];
  if (shown.size === 0) {
    const why =
      side === "new"
        ? file.status === "deleted"
          ? "the file was deleted"
          : "nothing is shown"
        : file.status === "added"
          ? "the file is new"
          : "nothing is shown";
    throw new YardError(
      "BAD_PARAMS",
      `${file.path} has no ${side}-side lines in this diff (${why}); comment on the ${side === "new" ? "old" : "new"} side`,
      { path: file.path, side },
    );
  }
  const missing: number[] = [];
  for (let n = start; n <= end && missing.length < 1; n++) if (!shown.has(n)) missing.push(n);
  if (missing.length) {
    throw new YardError(
      "BAD_PARAMS",
      `${file.path}: ${where} on the ${side} side ${start === end ? "is" : "are"} not all in this diff (line ${missing[0]} is not); the diff shows ${side}-side lines ${shownRanges(shown)}`,
      {
        path: file.path,
        side,
        startLine: start,
        endLine: end,
        firstMissing: missing[0],
        shown: shownRanges(shown),
      },
    );
  }
  const out: string[] = [];
  for (let n = start; n <= end && out.length < QUOTE_MAX_LINES; n++) out.push(shown.get(n)!);
  const more = end - start + 1 - out.length;
  if (more > 0) out.push(`… (${more} more lines)`);
  return out.join("\n");
}

export interface FeedbackComment {
  path: string;
  startLine: number;
  endLine: number;
  side: Side;
  body: string;
  quote: string;
}

/** A fence longer than any run of backticks in the code, so the code cannot close it. */
function fenceFor(code: string): string {
  let longest = 0;
  for (const m of code.matchAll(/`+/g)) longest = Math.max(longest, m[0].length);
  return "`".repeat(Math.max(3, longest + 1));
}

/**
 * The prompt that starts the round after `round`: the reviewer's summary, then each comment as
 * `path:start-end`, its body and the quoted code. Only the feedback: an agent that still runs
 * holds the contract already, and a fresh one gets the contract in front of this.
 */
export function feedbackPrompt(round: number, summary: string | null | undefined, comments: FeedbackComment[]): string {
  const parts: string[] = [`Review of round ${round}: changes requested.`];
  if (summary?.trim()) parts.push("", summary.trim());
  if (comments.length) {
    parts.push("", comments.length === 1 ? "1 comment on the diff:" : `${comments.length} comments on the diff:`);
    for (const c of comments) {
      const lines = c.startLine === c.endLine ? `${c.startLine}` : `${c.startLine}-${c.endLine}`;
      const fence = fenceFor(c.quote);
      parts.push(
        "",
        `${c.path}:${lines}${c.side === "old" ? " (the base version's lines)" : ""}`,
        c.body.trim(),
        fence,
        c.quote,
        fence,
      );
    }
  }
  parts.push("", "Make these changes in this worktree, commit them, and report again with yard task report.");
  return parts.join("\n");
}
