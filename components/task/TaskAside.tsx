"use client";
// The task page's side column ("Task details"), top to bottom: finishing (or what finishing did),
// the hand-off to GitHub (push, pull request), the branch (how far behind its target, Update branch),
// the agent reviewer stage, the next step (follow-up, backlog start), dependencies, the worker's
// thread, its environment (setup, ports and Preview links), details, extra worktrees, the contract,
// the latest result and the timeline.
import type { Task } from "../../lib/types";
import { AgentReviewSection } from "./AgentReview";
import { Contract, Details } from "./Details";
import { FinishPanel } from "./FinishPanel";
import { HandoffSection } from "./Handoff";
import { FollowUp, StartBacklog } from "./NextStep";
import { DependenciesSection, ThreadSection, WorktreesSection } from "./Orchestration";
import { Result } from "./Result";
import { SetupSection } from "./SetupSection";
import { Timeline } from "./Timeline";
import { UpdateBranch } from "./UpdateBranch";

export function TaskAside({ task: t }: { task: Task }) {
  const reason = String((t.evidence as { reason?: string } | null)?.reason);
  return (
    <aside aria-label="Task details" className="flex min-w-0 flex-col gap-5">
      <FinishPanel task={t} />
      <HandoffSection task={t} />
      <UpdateBranch task={t} />
      <AgentReviewSection task={t} />
      {t.state === "input_required" && !["question", "plan_review"].includes(reason) && <FollowUp task={t} />}
      {t.state === "backlog" && <StartBacklog task={t} />}
      <DependenciesSection task={t} />
      <ThreadSection task={t} />
      <SetupSection task={t} />
      <Details task={t} />
      <WorktreesSection task={t} />
      <Contract task={t} />
      <Result task={t} />
      <Timeline task={t} />
    </aside>
  );
}
