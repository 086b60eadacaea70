-- CreateTable
CREATE TABLE "Project" (
    "id" TEXT NOT NULL,
    "path" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "defaultTarget" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,
    "trustAgents" BOOLEAN NOT NULL DEFAULT true,
    "reviewerProfile" TEXT,
    "plannerProfile" TEXT,
    "repoConfig" TEXT,
    "mergeStrategy" TEXT,
    "requiredApprovals" INTEGER NOT NULL DEFAULT 0,
    "noSelfApproval" BOOLEAN NOT NULL DEFAULT false,
    "webhookUrl" TEXT,
    "webhookEvents" TEXT,
    "webhookSecret" TEXT,

    CONSTRAINT "Project_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "WebhookDelivery" (
    "id" TEXT NOT NULL,
    "projectId" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "body" TEXT NOT NULL,
    "events" INTEGER NOT NULL,
    "status" TEXT NOT NULL,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "lastStatus" INTEGER,
    "lastError" TEXT,
    "nextAttemptAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "deliveredAt" TIMESTAMP(3),

    CONSTRAINT "WebhookDelivery_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "AgentProfile" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "role" TEXT NOT NULL,
    "argv" TEXT NOT NULL,
    "supportsHooks" BOOLEAN NOT NULL DEFAULT false,
    "env" TEXT NOT NULL DEFAULT '{}',
    "builtIn" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,
    "sandbox" BOOLEAN NOT NULL DEFAULT false,
    "sandboxNetwork" BOOLEAN NOT NULL DEFAULT false,

    CONSTRAINT "AgentProfile_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Task" (
    "id" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "label" TEXT,
    "contextId" TEXT,
    "projectId" TEXT,
    "repoPath" TEXT NOT NULL,
    "startedBy" TEXT,
    "agent" TEXT NOT NULL,
    "argv" TEXT,
    "objective" TEXT NOT NULL,
    "constraints" TEXT NOT NULL DEFAULT '[]',
    "acceptanceCriteria" TEXT NOT NULL DEFAULT '[]',
    "outputFormat" TEXT,
    "parentTaskId" TEXT,
    "rootTaskId" TEXT,
    "parentPaneId" TEXT,
    "paneId" TEXT,
    "state" TEXT NOT NULL,
    "round" INTEGER NOT NULL DEFAULT 1,
    "baseRef" TEXT,
    "baseSha" TEXT,
    "targetBranch" TEXT,
    "branch" TEXT,
    "branchPreexisting" BOOLEAN NOT NULL DEFAULT false,
    "worktreePath" TEXT,
    "evidence" TEXT,
    "disposition" TEXT,
    "mergeCommit" TEXT,
    "cleanupError" TEXT,
    "finishedAt" TIMESTAMP(3),
    "requiresPlanning" BOOLEAN NOT NULL DEFAULT false,
    "startOptions" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,
    "sandboxed" BOOLEAN NOT NULL DEFAULT false,
    "agentSessionId" TEXT,
    "agentTranscriptPath" TEXT,
    "reviewerProfile" TEXT,
    "plannerProfile" TEXT,
    "planReviewerProfile" TEXT,
    "agentReviewState" TEXT,
    "agentReviewPaneId" TEXT,
    "agentReviewRuns" INTEGER NOT NULL DEFAULT 0,
    "autoStartWhen" TEXT,
    "resultAckedAt" TIMESTAMP(3),
    "mergeInFlight" TEXT,
    "columnSince" TIMESTAMP(3),
    "updateInFlight" TEXT,
    "mergeStrategy" TEXT,

    CONSTRAINT "Task_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "TaskRound" (
    "id" TEXT NOT NULL,
    "taskId" TEXT NOT NULL,
    "number" INTEGER NOT NULL,
    "state" TEXT NOT NULL,
    "result" TEXT,
    "evidence" TEXT,
    "paneId" TEXT,
    "prompt" TEXT,
    "startedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "endedAt" TIMESTAMP(3),

    CONSTRAINT "TaskRound_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "TaskDiffStat" (
    "taskId" TEXT NOT NULL,
    "files" INTEGER NOT NULL,
    "additions" INTEGER NOT NULL,
    "deletions" INTEGER NOT NULL,
    "commit" TEXT,
    "computedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "TaskDiffStat_pkey" PRIMARY KEY ("taskId")
);

-- CreateTable
CREATE TABLE "TaskSetup" (
    "taskId" TEXT NOT NULL,
    "config" TEXT NOT NULL,
    "ports" TEXT NOT NULL DEFAULT '[]',
    "portsReleasedAt" TIMESTAMP(3),
    "teardown" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "TaskSetup_pkey" PRIMARY KEY ("taskId")
);

-- CreateTable
CREATE TABLE "TaskTurn" (
    "taskId" TEXT NOT NULL,
    "number" INTEGER NOT NULL,
    "round" INTEGER NOT NULL,
    "kind" TEXT NOT NULL,
    "revertOf" INTEGER,
    "commit" TEXT NOT NULL,
    "tree" TEXT NOT NULL,
    "files" INTEGER NOT NULL,
    "additions" INTEGER NOT NULL,
    "deletions" INTEGER NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "TaskTurn_pkey" PRIMARY KEY ("taskId","number")
);

-- CreateTable
CREATE TABLE "TaskBehind" (
    "taskId" TEXT NOT NULL,
    "target" TEXT NOT NULL,
    "behind" INTEGER NOT NULL,
    "targetCommit" TEXT NOT NULL,
    "branchCommit" TEXT NOT NULL,
    "computedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "TaskBehind_pkey" PRIMARY KEY ("taskId")
);

-- CreateTable
CREATE TABLE "TaskDependency" (
    "taskId" TEXT NOT NULL,
    "dependsOnId" TEXT NOT NULL,

    CONSTRAINT "TaskDependency_pkey" PRIMARY KEY ("taskId","dependsOnId")
);

-- CreateTable
CREATE TABLE "Pane" (
    "id" TEXT NOT NULL,
    "argv" TEXT NOT NULL,
    "cwd" TEXT NOT NULL,
    "label" TEXT,
    "parentPaneId" TEXT,
    "rootPaneId" TEXT,
    "relationship" TEXT,
    "taskId" TEXT,
    "agent" TEXT,
    "lifecycle" TEXT NOT NULL,
    "lifecycleSeq" INTEGER NOT NULL DEFAULT 0,
    "doneSeen" BOOLEAN NOT NULL DEFAULT true,
    "hooksSeen" BOOLEAN NOT NULL DEFAULT false,
    "pid" INTEGER,
    "exitCode" INTEGER,
    "signal" INTEGER,
    "cols" INTEGER NOT NULL DEFAULT 120,
    "rows" INTEGER NOT NULL DEFAULT 32,
    "tokenHash" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,
    "exitedAt" TIMESTAMP(3),
    "sandboxed" BOOLEAN NOT NULL DEFAULT false,
    "role" TEXT NOT NULL DEFAULT 'orchestrator',

    CONSTRAINT "Pane_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Event" (
    "seq" SERIAL NOT NULL,
    "type" TEXT NOT NULL,
    "taskId" TEXT,
    "paneId" TEXT,
    "actor" TEXT,
    "payload" TEXT NOT NULL DEFAULT '{}',
    "time" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Event_pkey" PRIMARY KEY ("seq")
);

-- CreateTable
CREATE TABLE "Review" (
    "id" TEXT NOT NULL,
    "taskId" TEXT NOT NULL,
    "round" INTEGER NOT NULL,
    "stage" TEXT NOT NULL,
    "reviewerKind" TEXT NOT NULL,
    "verdict" TEXT NOT NULL,
    "summary" TEXT,
    "reviewedTree" TEXT,
    "reviewedCommit" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Review_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ReviewComment" (
    "id" TEXT NOT NULL,
    "reviewId" TEXT,
    "taskId" TEXT NOT NULL,
    "round" INTEGER NOT NULL,
    "path" TEXT NOT NULL,
    "startLine" INTEGER NOT NULL,
    "endLine" INTEGER NOT NULL,
    "side" TEXT NOT NULL,
    "body" TEXT NOT NULL,
    "quote" TEXT NOT NULL DEFAULT '',
    "author" TEXT NOT NULL DEFAULT 'user',
    "resolved" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,
    "outdated" BOOLEAN NOT NULL DEFAULT false,

    CONSTRAINT "ReviewComment_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Plan" (
    "id" TEXT NOT NULL,
    "taskId" TEXT NOT NULL,
    "state" TEXT NOT NULL,
    "round" INTEGER NOT NULL DEFAULT 1,
    "body" TEXT NOT NULL,
    "annotations" TEXT NOT NULL DEFAULT '[]',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Plan_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "PlanReview" (
    "id" TEXT NOT NULL,
    "planId" TEXT NOT NULL,
    "round" INTEGER NOT NULL,
    "verdict" TEXT NOT NULL,
    "summary" TEXT,
    "annotations" TEXT NOT NULL DEFAULT '[]',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "PlanReview_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Message" (
    "id" TEXT NOT NULL,
    "taskId" TEXT NOT NULL,
    "author" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "body" TEXT NOT NULL,
    "replyTo" TEXT,
    "round" INTEGER NOT NULL DEFAULT 1,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Message_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "TaskWorktree" (
    "id" TEXT NOT NULL,
    "taskId" TEXT NOT NULL,
    "path" TEXT NOT NULL,
    "branch" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "TaskWorktree_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ProjectGithub" (
    "projectId" TEXT NOT NULL,
    "token" TEXT,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ProjectGithub_pkey" PRIMARY KEY ("projectId")
);

-- CreateTable
CREATE TABLE "TaskHandoff" (
    "taskId" TEXT NOT NULL,
    "remote" TEXT NOT NULL,
    "remoteBranch" TEXT NOT NULL,
    "pushedCommit" TEXT,
    "pushedAt" TIMESTAMP(3),
    "prNumber" INTEGER,
    "prUrl" TEXT,
    "prHost" TEXT,
    "prRepo" TEXT,
    "prBase" TEXT,
    "prTitle" TEXT,
    "prState" TEXT,
    "prDraft" BOOLEAN NOT NULL DEFAULT false,
    "prHeadSha" TEXT,
    "prMergeCommit" TEXT,
    "prChecks" TEXT,
    "polledAt" TIMESTAMP(3),
    "pollError" TEXT,
    "pollFailures" INTEGER NOT NULL DEFAULT 0,
    "nextPollAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "TaskHandoff_pkey" PRIMARY KEY ("taskId")
);

-- CreateTable
CREATE TABLE "TaskTemplate" (
    "id" TEXT NOT NULL,
    "projectId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "title" TEXT,
    "objective" TEXT NOT NULL,
    "constraints" TEXT NOT NULL DEFAULT '[]',
    "acceptanceCriteria" TEXT NOT NULL DEFAULT '[]',
    "outputFormat" TEXT,
    "label" TEXT,
    "agent" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "TaskTemplate_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Setting" (
    "key" TEXT NOT NULL,
    "value" TEXT NOT NULL,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Setting_pkey" PRIMARY KEY ("key")
);

-- CreateTable
CREATE TABLE "User" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "role" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "createdBy" TEXT,
    "removedAt" TIMESTAMP(3),

    CONSTRAINT "User_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "UserToken" (
    "id" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "hash" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "createdBy" TEXT,
    "lastUsedAt" TIMESTAMP(3),
    "revokedAt" TIMESTAMP(3),

    CONSTRAINT "UserToken_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "UserInvite" (
    "id" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "codeHash" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "usedAt" TIMESTAMP(3),

    CONSTRAINT "UserInvite_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "Project_path_key" ON "Project"("path");

-- CreateIndex
CREATE INDEX "WebhookDelivery_projectId_createdAt_idx" ON "WebhookDelivery"("projectId", "createdAt");

-- CreateIndex
CREATE INDEX "WebhookDelivery_status_idx" ON "WebhookDelivery"("status");

-- CreateIndex
CREATE INDEX "Task_contextId_idx" ON "Task"("contextId");

-- CreateIndex
CREATE INDEX "Task_state_idx" ON "Task"("state");

-- CreateIndex
CREATE INDEX "Task_projectId_idx" ON "Task"("projectId");

-- CreateIndex
CREATE UNIQUE INDEX "TaskRound_taskId_number_key" ON "TaskRound"("taskId", "number");

-- CreateIndex
CREATE INDEX "Pane_taskId_idx" ON "Pane"("taskId");

-- CreateIndex
CREATE INDEX "Event_type_idx" ON "Event"("type");

-- CreateIndex
CREATE INDEX "Event_taskId_idx" ON "Event"("taskId");

-- CreateIndex
CREATE INDEX "Event_paneId_idx" ON "Event"("paneId");

-- CreateIndex
CREATE INDEX "Event_actor_seq_idx" ON "Event"("actor", "seq");

-- CreateIndex
CREATE INDEX "Review_taskId_round_idx" ON "Review"("taskId", "round");

-- CreateIndex
CREATE INDEX "ReviewComment_taskId_round_idx" ON "ReviewComment"("taskId", "round");

-- CreateIndex
CREATE INDEX "ReviewComment_reviewId_idx" ON "ReviewComment"("reviewId");

-- CreateIndex
CREATE INDEX "Plan_taskId_idx" ON "Plan"("taskId");

-- CreateIndex
CREATE INDEX "Message_taskId_idx" ON "Message"("taskId");

-- CreateIndex
CREATE UNIQUE INDEX "TaskWorktree_taskId_path_key" ON "TaskWorktree"("taskId", "path");

-- CreateIndex
CREATE INDEX "TaskHandoff_prState_idx" ON "TaskHandoff"("prState");

-- CreateIndex
CREATE UNIQUE INDEX "TaskTemplate_projectId_name_key" ON "TaskTemplate"("projectId", "name");

-- CreateIndex
CREATE UNIQUE INDEX "User_name_key" ON "User"("name");

-- CreateIndex
CREATE UNIQUE INDEX "UserToken_hash_key" ON "UserToken"("hash");

-- CreateIndex
CREATE INDEX "UserToken_userId_idx" ON "UserToken"("userId");

-- CreateIndex
CREATE UNIQUE INDEX "UserInvite_codeHash_key" ON "UserInvite"("codeHash");

-- CreateIndex
CREATE INDEX "UserInvite_userId_idx" ON "UserInvite"("userId");

-- AddForeignKey
ALTER TABLE "WebhookDelivery" ADD CONSTRAINT "WebhookDelivery_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Task" ADD CONSTRAINT "Task_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "TaskRound" ADD CONSTRAINT "TaskRound_taskId_fkey" FOREIGN KEY ("taskId") REFERENCES "Task"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "TaskDiffStat" ADD CONSTRAINT "TaskDiffStat_taskId_fkey" FOREIGN KEY ("taskId") REFERENCES "Task"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "TaskSetup" ADD CONSTRAINT "TaskSetup_taskId_fkey" FOREIGN KEY ("taskId") REFERENCES "Task"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "TaskTurn" ADD CONSTRAINT "TaskTurn_taskId_fkey" FOREIGN KEY ("taskId") REFERENCES "Task"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "TaskBehind" ADD CONSTRAINT "TaskBehind_taskId_fkey" FOREIGN KEY ("taskId") REFERENCES "Task"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "TaskDependency" ADD CONSTRAINT "TaskDependency_taskId_fkey" FOREIGN KEY ("taskId") REFERENCES "Task"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "TaskDependency" ADD CONSTRAINT "TaskDependency_dependsOnId_fkey" FOREIGN KEY ("dependsOnId") REFERENCES "Task"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Review" ADD CONSTRAINT "Review_taskId_fkey" FOREIGN KEY ("taskId") REFERENCES "Task"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ReviewComment" ADD CONSTRAINT "ReviewComment_reviewId_fkey" FOREIGN KEY ("reviewId") REFERENCES "Review"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ReviewComment" ADD CONSTRAINT "ReviewComment_taskId_fkey" FOREIGN KEY ("taskId") REFERENCES "Task"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Plan" ADD CONSTRAINT "Plan_taskId_fkey" FOREIGN KEY ("taskId") REFERENCES "Task"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PlanReview" ADD CONSTRAINT "PlanReview_planId_fkey" FOREIGN KEY ("planId") REFERENCES "Plan"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Message" ADD CONSTRAINT "Message_taskId_fkey" FOREIGN KEY ("taskId") REFERENCES "Task"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "TaskWorktree" ADD CONSTRAINT "TaskWorktree_taskId_fkey" FOREIGN KEY ("taskId") REFERENCES "Task"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ProjectGithub" ADD CONSTRAINT "ProjectGithub_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "TaskHandoff" ADD CONSTRAINT "TaskHandoff_taskId_fkey" FOREIGN KEY ("taskId") REFERENCES "Task"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "TaskTemplate" ADD CONSTRAINT "TaskTemplate_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "UserToken" ADD CONSTRAINT "UserToken_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "UserInvite" ADD CONSTRAINT "UserInvite_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;
