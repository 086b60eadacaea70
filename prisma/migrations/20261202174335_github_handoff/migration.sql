-- CreateTable
CREATE TABLE "ProjectGithub" (
    "projectId" TEXT NOT NULL PRIMARY KEY,
    "token" TEXT,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "ProjectGithub_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "TaskHandoff" (
    "taskId" TEXT NOT NULL PRIMARY KEY,
    "remote" TEXT NOT NULL,
    "remoteBranch" TEXT NOT NULL,
    "pushedCommit" TEXT,
    "pushedAt" DATETIME,
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
    "polledAt" DATETIME,
    "pollError" TEXT,
    "pollFailures" INTEGER NOT NULL DEFAULT 0,
    "nextPollAt" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "TaskHandoff_taskId_fkey" FOREIGN KEY ("taskId") REFERENCES "Task" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "TaskHandoff_prState_idx" ON "TaskHandoff"("prState");
