// useApi(): the typed tRPC proxy for React Query (queryOptions / mutationOptions / pathFilter).
// The review procedures (reviews.*, tasks.rounds, tasks.startBacklog, tasks.followUp,
// projects.refs) come from the review contract (server/contracts/reviews.ts); until the router
// declares them, this file types them from that contract's zod schemas so the UI builds, and a
// server without them answers NOT_FOUND, which the UI shows as "not available".
import type { QueryFilters, QueryKey, UseMutationOptions, UseQueryOptions } from "@tanstack/react-query";
import type { z } from "zod";
import type * as C from "../server/contracts/reviews";
import type { DiffFileInfo } from "./types";
import { useTRPC } from "./trpc";

type Q<I, O> = {
  queryOptions(input: I, opts?: { enabled?: boolean; retry?: boolean | number; refetchOnWindowFocus?: boolean }): UseQueryOptions<O, Error, O, QueryKey> & { queryKey: QueryKey };
  queryKey(input?: I): QueryKey;
  pathFilter(): QueryFilters;
};
type M<I, O> = { mutationOptions(opts?: Omit<UseMutationOptions<O, Error, I>, "mutationFn">): UseMutationOptions<O, Error, I> };
type Router = { pathFilter(): QueryFilters };

export interface RefsOutput {
  branches: Array<{ name: string; sha: string; current: boolean }>;
  commits: Array<{ sha: string; subject: string }>;
}

export interface PendingApi {
  reviews: Router & {
    addComment: M<z.input<typeof C.addCommentInput>, C.ReviewComment | { comment: C.ReviewComment }>;
    editComment: M<z.input<typeof C.editCommentInput>, unknown>;
    resolveComment: M<z.input<typeof C.resolveCommentInput>, unknown>;
    deleteComment: M<z.input<typeof C.deleteCommentInput>, unknown>;
    listComments: Q<z.input<typeof C.listCommentsInput>, z.output<typeof C.commentsOutput>>;
    submit: M<z.input<typeof C.submitReviewInput>, unknown>;
    list: Q<z.input<typeof C.listReviewsInput>, z.output<typeof C.reviewsOutput>>;
  };
  tasksExtra: {
    rounds: Q<{ id: string }, z.output<typeof C.roundsOutput>>;
    startBacklog: M<{ id: string }, unknown>;
    followUp: M<{ id: string; text: string }, unknown>;
    diffSince: Q<{ id: string; since?: "last_review" }, { diff: string; files: DiffFileInfo[]; baseSha: string; source: string }>;
  };
  projectsExtra: {
    refs: Q<{ id: string; query?: string }, RefsOutput>;
  };
}

export function useApi() {
  const trpc = useTRPC();
  // The procedures the review backend adds, reached through the same proxy (see the header).
  const raw = trpc as unknown as {
    reviews: PendingApi["reviews"];
    tasks: { rounds: PendingApi["tasksExtra"]["rounds"]; startBacklog: PendingApi["tasksExtra"]["startBacklog"]; followUp: PendingApi["tasksExtra"]["followUp"]; diff: PendingApi["tasksExtra"]["diffSince"] };
    projects: { refs: PendingApi["projectsExtra"]["refs"] };
  };
  return {
    trpc,
    reviews: raw.reviews,
    tasks: { rounds: raw.tasks.rounds, startBacklog: raw.tasks.startBacklog, followUp: raw.tasks.followUp, diffSince: raw.tasks.diff },
    projects: { refs: raw.projects.refs },
  };
}
