"use client";
// The review comments of a task and what the diff's comment UI may do with them (add, edit,
// resolve, delete), through the review procedures; the cache is refreshed after each change and
// a refusal comes back as an Error carrying the server's message.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useMemo } from "react";
import { useApi } from "../../lib/api";
import { errorOf } from "../../lib/trpc";
import type { CommentActions } from "../diff/comments";

export function useComments(taskId: string) {
  const api = useApi();
  const q = useQuery({ ...api.reviews.listComments.queryOptions({ taskId }), retry: false });
  return { list: q.data?.comments ?? [], error: q.error ? errorOf(q.error).message : null };
}

export function useCommentActions(taskId: string): {
  actions: CommentActions;
  comments: ReturnType<typeof useComments>;
} {
  const api = useApi();
  const qc = useQueryClient();
  const comments = useComments(taskId);
  const refresh = () => qc.invalidateQueries(api.reviews.pathFilter());
  const add = useMutation(api.reviews.addComment.mutationOptions({ onSuccess: refresh }));
  const edit = useMutation(api.reviews.editComment.mutationOptions({ onSuccess: refresh }));
  const resolve = useMutation(api.reviews.resolveComment.mutationOptions({ onSuccess: refresh }));
  const remove = useMutation(api.reviews.deleteComment.mutationOptions({ onSuccess: refresh }));
  // mutateAsync is stable for a mounted mutation: the actions change only with the task.
  const actions = useMemo<CommentActions>(
    () => ({
      add: (c) => withMessage(add.mutateAsync({ taskId, ...c })),
      edit: (id, body) => withMessage(edit.mutateAsync({ id, body })),
      resolve: (id, resolved) => withMessage(resolve.mutateAsync({ id, resolved })),
      remove: (id) => withMessage(remove.mutateAsync({ id })),
    }),
    [taskId, add.mutateAsync, edit.mutateAsync, resolve.mutateAsync, remove.mutateAsync],
  );
  return { actions, comments };
}

/** A refusal as an Error with the server's message (what the comment UI shows). */
async function withMessage<T>(p: Promise<T>): Promise<T> {
  try {
    return await p;
  } catch (e) {
    throw new Error(errorOf(e).message);
  }
}
