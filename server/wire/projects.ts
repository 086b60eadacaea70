// The project, agent-profile and status contract: zod schemas for the outputs of `projects.*`,
// `agents.*` and `status` (their inputs live with the core's validation: projectAddInput,
// agentProfileInput).
import { z } from "zod";
import { mergeStrategy } from "./branches";
import { lifecycle, paneInfo } from "./panes";
import { repoConfigOverride } from "./repo-config";

/** What an agent profile's agent does: its role in a task (worker, reviewer, planner, orchestrator). */
export const profileRole = z.enum(["worker", "reviewer", "planner", "orchestrator"]);

export const project = z.object({
  id: z.string(),
  path: z.string(),
  name: z.string(),
  defaultTarget: z.string().nullable(),
  createdAt: z.string(),
  /** "Let agents work in this repository without the agent's trust prompt". */
  trustAgents: z.boolean(),
  reviewerProfile: z.string().nullable(),
  plannerProfile: z.string().nullable(),
  /** Fields that replace .switchyard.json's for this project's tasks (null: none). */
  repoConfig: repoConfigOverride.nullable(),
  /** How its tasks' branches land by default (null: a merge commit). */
  mergeStrategy: mergeStrategy.nullable(),
  /** Distinct people who must approve a task's current tip before it merges. */
  requiredApprovals: z.number().int(),
  /** The person who started a task does not count among its approvers. */
  noSelfApproval: z.boolean(),
  /** The runner its tasks run on when a start names none (null: this machine). */
  defaultRunner: z.string().nullable(),
});
export const projectList = z.array(project);

/** An agent profile as callers see it: env variable names, never their values. */
export const profileView = z.object({
  id: z.string(),
  name: z.string(),
  role: profileRole,
  argv: z.array(z.string()),
  supportsHooks: z.boolean(),
  builtIn: z.boolean(),
  envNames: z.array(z.string()),
  /** Runs under the OS sandbox by default (a task may override it). */
  sandbox: z.boolean(),
  /** The sandbox keeps the network. */
  sandboxNetwork: z.boolean(),
});
export const profileList = z.array(profileView);

/** agents.try: the scratch pane the profile was started in. */
export const trialStarted = z.object({ paneId: z.string() });

/** agents.tryStatus: did the trial agent get ready, or which start-up dialog does it wait at. */
export const trialStatus = z.object({
  paneId: z.string(),
  profileId: z.string(),
  lifecycle,
  ready: z.boolean(),
  readyAfterMs: z.number().nullable(),
  dialog: paneInfo.shape.dialog,
  exited: z.boolean(),
  exitCode: z.number().int().nullable(),
  screen: z.string(),
});
export const profileRemoved = z.object({ removed: z.string() });

export const statusReply = z.object({
  ok: z.literal(true),
  version: z.string(),
  /** The data dir; only for a person (install token, a person's token or browser session). */
  home: z.string().optional(),
  url: z.string(),
  principal: z.enum(["person", "pane"]),
  /** For a person: their name and role on the board. */
  person: z.object({ name: z.string(), role: z.enum(["member", "reviewer", "admin"]) }).optional(),
  projects: z.number().int(),
  panes: z.number().int(),
  tasks: z.number().int(),
  /** Called from a pane: whether that pane runs in the OS sandbox. */
  sandboxed: z.boolean().optional(),
  /** For the user: whether sandboxed tasks can start on this machine, and if not why. */
  sandbox: z
    .object({ available: z.boolean(), reason: z.string().nullable(), message: z.string().nullable() })
    .optional(),
});

/** `yard stop [--all]`: the server stops right after answering; with `all` its agents and the pane host too. */
export const stopInput = z
  .object({ all: z.boolean().default(false) })
  .strict()
  .optional();
export const stopReply = z.object({
  stopping: z.literal(true),
  all: z.boolean(),
  /** Agents running now (they keep running unless `all`). */
  agents: z.number().int(),
  serverPid: z.number().int(),
  hostPid: z.number().int(),
});
