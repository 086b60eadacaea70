// tRPC procedures for the hand-off to GitHub: tasks.push (the branch to a remote), tasks.pr (a
// pull request through GitHub's API), tasks.handoff (where it went and the pull request as the
// poll last read it), and a project's GitHub settings (projects.github, projects.setGithubToken:
// write-only). Thin: the contract in and out (server/wire/github.ts), one core call each
// (core/github/service.ts); who may call which is the role gate table's (roles.ts).
import {
  githubStatus,
  githubStatusInput,
  handoffInput,
  handoffOutput,
  prInput,
  prOutput,
  pushInput,
  pushOutput,
  setGithubTokenInput,
} from "../wire/github";
import { callerProcedure } from "./trpc";

export const githubTaskProcedures = {
  /** Push the task's branch (never a plain force: forceWithLease replaces only what Switchyard pushed). */
  push: callerProcedure
    .input(pushInput)
    .output(pushOutput)
    .mutation(({ ctx, input }) =>
      ctx.services.github.push(input.id, { remote: input.remote, forceWithLease: input.forceWithLease }),
    ),
  /** Open the task's pull request (pushing its branch first when the remote does not have its commit). */
  pr: callerProcedure
    .input(prInput)
    .output(prOutput)
    .mutation(({ ctx, input }) =>
      ctx.services.github.openPullRequest(input.id, { draft: input.draft, remote: input.remote }),
    ),
  /** Where the task's branch was pushed and its pull request (state, checks), or null. */
  handoff: callerProcedure
    .input(handoffInput)
    .output(handoffOutput)
    .query(({ ctx, input }) => ctx.services.github.handoff(input.id)),
};

export const githubProjectProcedures = {
  /** Where the project's pull requests get their token (its own, the server's GITHUB_TOKEN, none); never the token. */
  github: callerProcedure
    .input(githubStatusInput)
    .output(githubStatus)
    .query(({ ctx, input }) => ctx.services.github.status(input.id)),
  /** Set (or, with null, remove) the project's own GitHub token; write-only. */
  setGithubToken: callerProcedure
    .input(setGithubTokenInput)
    .output(githubStatus)
    .mutation(({ ctx, input }) => ctx.services.github.setToken(input.id, input.token)),
};
