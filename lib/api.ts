// useApi(): the typed tRPC proxy for React Query (queryOptions / mutationOptions / pathFilter),
// with the review procedures grouped the way the UI uses them. Every type comes from the router.
import { useTRPC } from "./trpc";

export function useApi() {
  const trpc = useTRPC();
  return {
    trpc,
    reviews: trpc.reviews,
    tasks: {
      rounds: trpc.tasks.rounds,
      startBacklog: trpc.tasks.startBacklog,
      followUp: trpc.tasks.followUp,
      diffSince: trpc.tasks.diff,
    },
    projects: { refs: trpc.projects.refs },
  };
}
