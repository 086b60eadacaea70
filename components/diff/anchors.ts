// Where comments sit in a file's diff: line numbers per side mapped to react-diff-view's change
// keys, the draft range being commented on (a gutter click, shift-click extends it on the same
// side), the changes it selects, and which change each existing comment hangs under (its last line).
import { type ChangeData, getChangeKey, type HunkData, isDelete, isInsert, isNormal } from "react-diff-view";
import type { ReviewComment } from "../../lib/types";

export type Side = "old" | "new";

/** The line range a comment is being written on. */
export interface Draft {
  side: Side;
  start: number;
  end: number;
}

export const newLineOf = (c: ChangeData) => (isInsert(c) ? c.lineNumber : isNormal(c) ? c.newLineNumber : -1);
export const oldLineOf = (c: ChangeData) => (isDelete(c) ? c.lineNumber : isNormal(c) ? c.oldLineNumber : -1);

export type LineKeys = Record<Side, Map<number, string>>;

/** Line number → change key, per side. */
export function lineKeys(hunks: HunkData[]): LineKeys {
  const byNew = new Map<number, string>();
  const byOld = new Map<number, string>();
  for (const h of hunks)
    for (const c of h.changes) {
      const k = getChangeKey(c);
      const n = newLineOf(c);
      const o = oldLineOf(c);
      if (n > 0) byNew.set(n, k);
      if (o > 0 && !byOld.has(o)) byOld.set(o, k);
    }
  return { new: byNew, old: byOld };
}

/** A gutter click on `line`: a new one-line draft, or (shift-click, same side) the draft extended to it. */
export function nextDraft(d: Draft | null, side: Side, line: number, extend: boolean): Draft {
  return extend && d && d.side === side
    ? { side, start: Math.min(d.start, line), end: Math.max(d.end, line) }
    : { side, start: line, end: line };
}

/** The change keys a draft covers (highlighted while writing). */
export function draftKeys(draft: Draft | null, keys: LineKeys): string[] {
  if (!draft) return [];
  const out: string[] = [];
  const map = keys[draft.side];
  for (let l = draft.start; l <= draft.end; l++) {
    const k = map.get(l);
    if (k) out.push(k);
  }
  return out;
}

/** Comments grouped under the change of their last line (comments on lines the diff no longer shows are left out). */
export function placeComments(comments: ReviewComment[], keys: LineKeys): Map<string, ReviewComment[]> {
  const place = new Map<string, ReviewComment[]>();
  for (const c of comments) {
    const k = keys[c.side as Side].get(c.endLine);
    if (!k) continue;
    place.set(k, [...(place.get(k) ?? []), c]);
  }
  return place;
}
