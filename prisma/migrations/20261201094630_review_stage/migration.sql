-- AlterTable
ALTER TABLE "Project" ADD COLUMN "plannerProfile" TEXT;
ALTER TABLE "Project" ADD COLUMN "reviewerProfile" TEXT;

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_Task" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "title" TEXT NOT NULL,
    "label" TEXT,
    "contextId" TEXT,
    "projectId" TEXT,
    "repoPath" TEXT NOT NULL,
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
    "finishedAt" DATETIME,
    "requiresPlanning" BOOLEAN NOT NULL DEFAULT false,
    "startOptions" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    "sandboxed" BOOLEAN NOT NULL DEFAULT false,
    "agentSessionId" TEXT,
    "agentTranscriptPath" TEXT,
    "reviewerProfile" TEXT,
    "plannerProfile" TEXT,
    "agentReviewState" TEXT,
    "agentReviewPaneId" TEXT,
    "agentReviewRuns" INTEGER NOT NULL DEFAULT 0,
    "autoStartWhen" TEXT,
    "resultAckedAt" DATETIME,
    CONSTRAINT "Task_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);
INSERT INTO "new_Task" ("acceptanceCriteria", "agent", "agentSessionId", "agentTranscriptPath", "argv", "autoStartWhen", "baseRef", "baseSha", "branch", "branchPreexisting", "cleanupError", "constraints", "contextId", "createdAt", "disposition", "evidence", "finishedAt", "id", "label", "mergeCommit", "objective", "outputFormat", "paneId", "parentPaneId", "parentTaskId", "projectId", "repoPath", "requiresPlanning", "resultAckedAt", "rootTaskId", "round", "sandboxed", "startOptions", "state", "targetBranch", "title", "updatedAt", "worktreePath") SELECT "acceptanceCriteria", "agent", "agentSessionId", "agentTranscriptPath", "argv", "autoStartWhen", "baseRef", "baseSha", "branch", "branchPreexisting", "cleanupError", "constraints", "contextId", "createdAt", "disposition", "evidence", "finishedAt", "id", "label", "mergeCommit", "objective", "outputFormat", "paneId", "parentPaneId", "parentTaskId", "projectId", "repoPath", "requiresPlanning", "resultAckedAt", "rootTaskId", "round", "sandboxed", "startOptions", "state", "targetBranch", "title", "updatedAt", "worktreePath" FROM "Task";
DROP TABLE "Task";
ALTER TABLE "new_Task" RENAME TO "Task";
CREATE INDEX "Task_contextId_idx" ON "Task"("contextId");
CREATE INDEX "Task_state_idx" ON "Task"("state");
CREATE INDEX "Task_projectId_idx" ON "Task"("projectId");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;
