"use client";
// The current round's comments whose lines changed when the task's branch was updated (its base
// moved): kept, each with the code it quoted, in a list above the diff instead of on a line they
// were not written about.
import type { ReviewComment } from "../../lib/types";
import { type CommentActions, CommentCard } from "../diff/comments";

export function OutdatedComments({ comments, actions }: { comments: ReviewComment[]; actions: CommentActions | null }) {
  if (!comments.length) return null;
  return (
    <section aria-labelledby="outdated-comments" className="rounded-md border border-attention/40 p-2">
      <h3 id="outdated-comments" className="mb-2 text-xs font-semibold">
        Outdated comments ({comments.length}): their lines changed when the branch was updated
      </h3>
      <div className="flex flex-col gap-2">
        {comments.map((c) => (
          <CommentCard key={c.id} comment={c} actions={actions} showWhere />
        ))}
      </div>
    </section>
  );
}
