// The UI's data types, inferred from the server's router (never hand-copied), plus the review
// contract's types for the procedures the review backend adds. UI code takes its types from here
// (tests/architecture.test.ts holds it to that: no UI file imports server code but server/wire).
import type { inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "../server/api/router";

export type Outputs = inferRouterOutputs<AppRouter>;

export type Project = Outputs["projects"]["list"][number];
export type BoardData = Outputs["board"]["get"];
export type BoardCardData = BoardData[keyof BoardData][number];
export type Task = Outputs["tasks"]["get"];
export type TaskDiff = Outputs["tasks"]["diff"];
export type DiffFileInfo = TaskDiff["files"][number];
type Pane = Outputs["panes"]["get"];
/** A pane as the socket's terminal events carry it: the same shape as Pane. */
export type PaneInfo = Pane;
export type AttentionItem = Outputs["panes"]["attention"]["items"][number];
export type AttentionReason = AttentionItem["reason"];
/** A journal event: a union discriminated by `type`, each with its own payload. */
export type YardEvent = Outputs["events"]["list"]["events"][number];
export type AgentProfile = Outputs["agents"]["list"][number];

export type { Review, ReviewComment, TaskRound } from "../server/wire/reviews";
export type WorktreeRow = Outputs["worktrees"]["list"]["worktrees"][number];
export type DiskUsage = Outputs["worktrees"]["usage"];
export type GcResult = Outputs["worktrees"]["gc"];
export type TaskTemplate = Outputs["templates"]["list"][number];
