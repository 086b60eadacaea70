// tRPC procedures for ready worktrees: `tasks.ports` (a task's ports and which ones something
// listens on, for the Preview links) and `projects.repoConfig` (what a project's tasks would start
// with: the committed .switchyard.json, the project's override, both combined). Thin: the wire's
// schemas (server/wire/repo-config.ts) in and out, one core call each.
import { z } from "zod";
import { projectRepoConfig } from "../core/repo/config";
import { id } from "../wire/common";
import { projectRepoConfigOutput, taskPortsOutput } from "../wire/repo-config";
import { taskIdInput } from "../wire/tasks";
import { callerProcedure } from "./trpc";

export const taskSetupProcedures = {
  ports: callerProcedure
    .input(taskIdInput)
    .output(taskPortsOutput)
    .query(({ ctx, input }) => ctx.services.tasks.ports(input.id)),
};

export const projectSetupProcedures = {
  repoConfig: callerProcedure
    .input(z.object({ id }))
    .output(projectRepoConfigOutput)
    .query(async ({ ctx, input }) => projectRepoConfig(await ctx.services.projects.get(input.id))),
};
