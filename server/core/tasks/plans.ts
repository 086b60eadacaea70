// Plans: a task started with --needs-plan runs a planner agent first; it submits a plan (goal,
// steps, proposed subtasks with contracts and dependencies by key) as a new version, which moves
// the task to input_required (reason plan_review). A person, the orchestrator or an agent
// reviewer reviews it like code: request changes (the notes go to the planner through the submit
// gate; it answers with the next version) or approve. An approved plan becomes its subtasks in
// one step that creates all of them or none (backlog tasks that start by themselves as their
// dependencies are merged), and the parent task completes with its children as its result.
import type { z } from "zod";
import { type PlanBody, planBody, type planNote, type planView } from "../../wire/plans";
import { YardError } from "../errors";
import type { EventJournal } from "../events/journal";
import { validateBranchName } from "../git";
import { newId } from "../ids";
import type { NewSubtask, PlanRecord, PlanStore } from "../../stores/plans";
import type { TaskRow } from "../../stores/tasks";
import { shortGuide } from "../agents/guide";
import type { AgentProfile } from "../agents/profiles";
import { listSection } from "./contract";
import { findCycle } from "./dependencies";
import { type TaskEvent, type TaskState, transition } from "./state";
import { type ApplyExtra, defaultBranch, json, type LaunchOptions } from "./engine-state";
import { authorOf, USER_AUTHOR } from "../authors";

export interface PlanServiceDeps {
  store: PlanStore;
  journal: EventJournal;
  task: (id: string) => Promise<TaskRow>;
  apply: (taskId: string, event: TaskEvent, extra?: ApplyExtra) => Promise<unknown>;
  followUp: (taskId: string, text: string) => Promise<unknown>;
  /** An agent profile by id, or null when there is none (a subtask's must exist and run as a worker). */
  profile: (id: string) => Promise<Pick<AgentProfile, "role" | "sandboxNetwork"> | null>;
  /** Evaluates a waiting task now (the dependency scheduler): subtasks with nothing to wait for start. */
  schedule: (taskId: string) => void;
  stopPane: (paneId: string) => Promise<void>;
}

export type PlanNote = z.infer<typeof planNote>;
/** A plan version with its reviews (server/wire/plans.ts). */
export type PlanViewRecord = z.infer<typeof planView>;

/** The prompt a planner agent gets: the goal (the task's contract), the plan's shape and how to submit it. */
export function plannerPrompt(t: {
  id: string;
  title: string;
  objective: string;
  acceptanceCriteria: string[];
  constraints: string[];
}): string {
  const lines = [`Plan task ${t.id}: ${t.title}`, "", "Goal:", t.objective];
  lines.push(...listSection("Acceptance criteria", t.acceptanceCriteria), ...listSection("Constraints", t.constraints));
  lines.push(
    "",
    shortGuide("planner"),
    "",
    "Write the plan as JSON and submit it with: yard plan submit --file plan.json",
    '{"goal": "…", "steps": ["…"], "subtasks": [{"key": "a", "title": "…", "objective": "…", "acceptanceCriteria": ["…"], "dependsOn": []}, {"key": "b", "title": "…", "objective": "…", "dependsOn": ["a"]}]}',
    "Each subtask runs as its own task in its own worktree; one that depends on another starts once that one is merged. Then end your turn: the review comes back as your next prompt.",
  );
  return lines.join("\n");
}

/** What a planner is told when changes are requested. */
function planFeedbackPrompt(version: number, summary: string | null, notes: PlanNote[]): string {
  const parts = [`Review of plan version ${version}: changes requested.`];
  if (summary?.trim()) parts.push("", summary.trim());
  for (const n of notes) parts.push("", n.about ? `${n.about}:` : "-", n.body);
  parts.push("", "Submit the next version with yard plan submit.");
  return parts.join("\n");
}

export class PlanService {
  constructor(private readonly deps: PlanServiceDeps) {}

  async list(taskId: string): Promise<PlanViewRecord[]> {
    await this.deps.task(taskId);
    return (await this.deps.store.list(taskId)).map(toView);
  }

  /** The planner (or a person) submits the next version of a task's plan. */
  async submit(taskId: string, raw: unknown, by: { paneId: string | null }): Promise<PlanViewRecord> {
    const plan = planBody.parse(raw);
    checkPlan(plan);
    const t = await this.deps.task(taskId);
    if (!t.requiresPlanning) throw new YardError("CONFLICT", `${taskId} was not started with --needs-plan`, { taskId });
    await checkSubtaskAgents(this.deps.profile, t, plan); // a plan that could never be approved is refused now, not at its review
    const existing = await this.deps.store.list(taskId);
    if (existing.some((p) => p.state === "approved" || p.state === "decomposed"))
      throw new YardError("CONFLICT", "The task's plan is approved already", { taskId });
    const version = (existing.at(-1)?.version ?? 0) + 1;
    const id = newId("pln");
    transition(t.state as TaskState, { type: "plan_submitted", planId: id, version }); // CONFLICT before anything is written
    await this.deps.store.add({ id, taskId, version, body: JSON.stringify(plan) });
    await this.deps.apply(taskId, { type: "plan_submitted", planId: id, version });
    await this.deps.journal.append("task.plan", {
      taskId,
      payload: { planId: id, version, state: "in_review", subtasks: plan.subtasks.length, by: authorOf(by.paneId) },
    });
    return (await this.list(taskId)).find((p) => p.id === id)!;
  }

  /**
   * Reviews the version in review. Request changes sends the notes to the planner (refused, and
   * nothing recorded, when its pane cannot take them); approve creates every subtask or none.
   */
  async review(
    input: { taskId: string; verdict: "approve" | "request_changes"; summary?: string; notes: PlanNote[] },
    by: { paneId: string | null; reviewerAgent?: boolean },
  ): Promise<{ plan: PlanViewRecord; subtasks: Array<{ key: string; id: string; title: string }> }> {
    const t = await this.deps.task(input.taskId);
    const current = (await this.deps.store.list(input.taskId)).find((p) => p.state === "in_review");
    if (!current) throw new YardError("CONFLICT", "No plan of this task waits for review", { taskId: input.taskId });
    const reviewer = authorOf(by.paneId);
    const summary = input.summary?.trim() || null;
    const annotations = JSON.stringify({ reviewer, notes: input.notes });
    if (input.verdict === "request_changes") {
      if (!summary && input.notes.length === 0)
        throw new YardError(
          "BAD_PARAMS",
          "Requesting changes to a plan needs a summary or a note: that is what the planner is sent",
        );
      await this.deps.followUp(input.taskId, planFeedbackPrompt(current.version, summary, input.notes));
      await this.deps.store.review(current.id, {
        version: current.version,
        verdict: "changes_requested",
        summary,
        annotations,
        state: "changes_requested",
      });
      await this.deps.journal.append("task.plan", {
        taskId: t.id,
        payload: {
          planId: current.id,
          version: current.version,
          state: "changes_requested",
          by: reviewer,
          byAgent: by.reviewerAgent === true,
        },
      });
      return { plan: (await this.list(t.id)).find((p) => p.id === current.id)!, subtasks: [] };
    }
    const plan = planBody.parse(JSON.parse(current.body));
    const { subtasks, keys, created } = await this.prepareSubtasks(t, plan);
    await this.deps.store.decompose(current.id, { version: current.version, summary, annotations }, subtasks, keys);
    await this.deps.journal.append("task.plan", {
      taskId: t.id,
      payload: { planId: current.id, version: current.version, state: "decomposed", subtasks: keys, by: reviewer },
    });
    for (const s of subtasks)
      await this.deps.journal.append("task.created", {
        taskId: s.fields.id,
        payload: {
          title: s.fields.title,
          contextId: s.fields.contextId,
          backlog: true,
          parentTaskId: t.id,
          dependsOn: s.dependsOn,
        },
      });
    await this.endParentRound(t, current.version, created);
    return { plan: (await this.list(t.id)).find((p) => p.id === current.id)!, subtasks: created };
  }

  /** The parent's round ends with an approved plan: its result is the plan's subtasks; the planner's work is done. */
  private async endParentRound(
    t: TaskRow,
    version: number,
    created: Array<{ key: string; id: string; title: string }>,
  ): Promise<void> {
    await this.deps.apply(
      t.id,
      { type: "report", status: "completed" },
      {
        result: {
          status: "completed",
          summary: `Plan version ${version} approved: ${created.length} subtasks (${created.map((c) => c.id).join(", ")})`,
          artifacts: created.map((c) => c.id),
          changedFiles: [],
          evidence: { subtasks: created },
        },
      },
    );
    if (t.paneId) await this.deps.stopPane(t.paneId);
    for (const c of created) this.deps.schedule(c.id);
  }

  /**
   * At start-up: an approved plan whose subtasks were created but whose task's round was never
   * ended (the server stopped between the two) ends it now, as the approval would have.
   */
  async recover(): Promise<string[]> {
    const done: string[] = [];
    for (const p of await this.deps.store.decomposedWithOpenTask()) {
      const keys = json<{ subtasks?: Record<string, string> }>(p.annotations, {}).subtasks ?? {};
      const created: Array<{ key: string; id: string; title: string }> = [];
      for (const [key, id] of Object.entries(keys))
        created.push({ key, id, title: (await this.deps.task(id).catch(() => null))?.title ?? id });
      await this.endParentRound(await this.deps.task(p.taskId), p.version, created);
      await this.deps.journal.append("task.plan", {
        taskId: p.taskId,
        payload: { planId: p.id, version: p.version, state: "decomposed", recovered: true },
      });
      done.push(p.taskId);
    }
    return done;
  }

  /** Every subtask's row, checked before anything is written (profiles exist, branch names are valid). */
  private async prepareSubtasks(
    parent: TaskRow,
    plan: PlanBody,
  ): Promise<{
    subtasks: NewSubtask[];
    keys: Record<string, string>;
    created: Array<{ key: string; id: string; title: string }>;
  }> {
    await checkSubtaskAgents(this.deps.profile, parent, plan); // again: a profile may have changed since the plan was submitted
    const keys: Record<string, string> = {};
    for (const s of plan.subtasks) keys[s.key] = newId("tsk");
    const subtasks: NewSubtask[] = [];
    for (const s of plan.subtasks) {
      const agent = s.agent ?? parent.agent;
      const id = keys[s.key]!;
      const branch = await validateBranchName(defaultBranch(s.title, id));
      subtasks.push({
        fields: {
          id,
          title: s.title,
          label: parent.label,
          contextId: parent.contextId ?? parent.id,
          projectId: parent.projectId,
          repoPath: parent.repoPath,
          agent,
          argv: s.agent ? null : parent.argv,
          objective: s.objective,
          constraints: JSON.stringify(s.constraints),
          acceptanceCriteria: JSON.stringify(s.acceptanceCriteria),
          outputFormat: null,
          parentTaskId: parent.id,
          rootTaskId: parent.rootTaskId ?? parent.id,
          parentPaneId: parent.parentPaneId,
          baseRef: null,
          sandboxed: parent.sandboxed,
          reviewerProfile: parent.reviewerProfile,
        },
        startOptions: {
          branch,
          baseRef: null,
          fetch: false,
          path: null,
          readyTimeoutMs: null,
          stallMs: null,
          dialogTimeoutMs: null,
        } satisfies LaunchOptions,
        dependsOn: s.dependsOn.map((k) => keys[k]!),
      });
    }
    return { subtasks, keys, created: plan.subtasks.map((s) => ({ key: s.key, id: keys[s.key]!, title: s.title })) };
  }
}

/**
 * What a planner may ask its subtasks to run, checked before anything is created: a profile that
 * exists and runs as a worker (a planner may not make orchestrators, which would act on the
 * parent's context), and, under a sandboxed parent, one whose sandbox has no network the
 * parent's agent lacks. A subtask that names no profile runs the parent's agent, as its starter chose.
 */
async function checkSubtaskAgents(profile: PlanServiceDeps["profile"], parent: TaskRow, plan: PlanBody): Promise<void> {
  const parentNetwork =
    parent.sandboxed && parent.agent !== "custom" && !parent.argv
      ? ((await profile(parent.agent))?.sandboxNetwork ?? false)
      : false;
  for (const s of plan.subtasks) {
    const agent = s.agent ?? parent.agent;
    if (agent === "custom") continue;
    const p = await profile(agent);
    if (!p)
      throw new YardError("NOT_FOUND", `Subtask ${s.key} names the agent profile ${agent}, which does not exist`, {
        key: s.key,
        agent,
      });
    if (!s.agent) continue;
    if (p.role !== "worker")
      throw new YardError(
        "BAD_PARAMS",
        `Subtask ${s.key} names the agent profile ${agent}, whose role is ${p.role}: a plan's subtasks run worker profiles`,
        { key: s.key, agent, role: p.role },
      );
    if (parent.sandboxed && p.sandboxNetwork && !parentNetwork) {
      throw new YardError(
        "BAD_PARAMS",
        `Subtask ${s.key} names the agent profile ${agent}, whose sandbox has the network: task ${parent.id} runs sandboxed without it`,
        { key: s.key, agent },
      );
    }
  }
}

/** A plan's own consistency: unique keys, dependencies on keys of the plan, no cycle. */
function checkPlan(plan: PlanBody): void {
  const keys = new Set<string>();
  for (const s of plan.subtasks) {
    if (keys.has(s.key)) throw new YardError("BAD_PARAMS", `Two subtasks have the key ${s.key}`, { key: s.key });
    keys.add(s.key);
  }
  const edges: Array<{ taskId: string; dependsOnId: string }> = [];
  for (const s of plan.subtasks) {
    for (const d of s.dependsOn) {
      if (!keys.has(d))
        throw new YardError("BAD_PARAMS", `Subtask ${s.key} depends on ${d}, which is not a subtask of the plan`, {
          key: s.key,
          dependsOn: d,
        });
      if (d === s.key) throw new YardError("BAD_PARAMS", `Subtask ${s.key} depends on itself`, { key: s.key });
    }
  }
  for (const s of plan.subtasks) {
    const cycle = findCycle(edges, s.key, s.dependsOn);
    if (cycle)
      throw new YardError("BAD_PARAMS", `The plan's dependencies make a cycle: ${cycle.join(" → ")}`, { cycle });
    for (const d of s.dependsOn) edges.push({ taskId: s.key, dependsOnId: d });
  }
}

function toView(p: PlanRecord): PlanViewRecord {
  const ann = json<{ subtasks?: Record<string, string> }>(p.annotations, {});
  return {
    id: p.id,
    taskId: p.taskId,
    version: p.version,
    state: p.state,
    plan: planBody.parse(JSON.parse(p.body)),
    createdAt: p.createdAt.toISOString(),
    reviews: p.reviews.map((r) => {
      const a = json<{ reviewer?: string; notes?: PlanNote[] }>(r.annotations, {});
      return {
        id: r.id,
        verdict: r.verdict as "approved" | "changes_requested",
        summary: r.summary,
        notes: a.notes ?? [],
        reviewer: a.reviewer ?? USER_AUTHOR,
        createdAt: r.createdAt.toISOString(),
      };
    }),
    subtasks: ann.subtasks ?? null,
  };
}
