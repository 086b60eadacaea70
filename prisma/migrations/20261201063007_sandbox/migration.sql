-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_AgentProfile" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "name" TEXT NOT NULL,
    "role" TEXT NOT NULL,
    "argv" TEXT NOT NULL,
    "supportsHooks" BOOLEAN NOT NULL DEFAULT false,
    "env" TEXT NOT NULL DEFAULT '{}',
    "builtIn" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    "sandbox" BOOLEAN NOT NULL DEFAULT false,
    "sandboxNetwork" BOOLEAN NOT NULL DEFAULT false
);
INSERT INTO "new_AgentProfile" ("argv", "builtIn", "createdAt", "env", "id", "name", "role", "supportsHooks", "updatedAt") SELECT "argv", "builtIn", "createdAt", "env", "id", "name", "role", "supportsHooks", "updatedAt" FROM "AgentProfile";
DROP TABLE "AgentProfile";
ALTER TABLE "new_AgentProfile" RENAME TO "AgentProfile";
CREATE TABLE "new_Pane" (
    "id" TEXT NOT NULL PRIMARY KEY,
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
    "pid" INTEGER,
    "exitCode" INTEGER,
    "signal" INTEGER,
    "cols" INTEGER NOT NULL DEFAULT 120,
    "rows" INTEGER NOT NULL DEFAULT 32,
    "tokenHash" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    "exitedAt" DATETIME,
    "sandboxed" BOOLEAN NOT NULL DEFAULT false
);
INSERT INTO "new_Pane" ("agent", "argv", "cols", "createdAt", "cwd", "doneSeen", "exitCode", "exitedAt", "id", "label", "lifecycle", "lifecycleSeq", "parentPaneId", "pid", "relationship", "rootPaneId", "rows", "signal", "taskId", "tokenHash", "updatedAt") SELECT "agent", "argv", "cols", "createdAt", "cwd", "doneSeen", "exitCode", "exitedAt", "id", "label", "lifecycle", "lifecycleSeq", "parentPaneId", "pid", "relationship", "rootPaneId", "rows", "signal", "taskId", "tokenHash", "updatedAt" FROM "Pane";
DROP TABLE "Pane";
ALTER TABLE "new_Pane" RENAME TO "Pane";
CREATE INDEX "Pane_taskId_idx" ON "Pane"("taskId");
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
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    "sandboxed" BOOLEAN NOT NULL DEFAULT false,
    CONSTRAINT "Task_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);
INSERT INTO "new_Task" ("acceptanceCriteria", "agent", "argv", "baseRef", "baseSha", "branch", "branchPreexisting", "cleanupError", "constraints", "contextId", "createdAt", "disposition", "evidence", "finishedAt", "id", "label", "mergeCommit", "objective", "outputFormat", "paneId", "parentPaneId", "parentTaskId", "projectId", "repoPath", "requiresPlanning", "rootTaskId", "round", "state", "targetBranch", "title", "updatedAt", "worktreePath") SELECT "acceptanceCriteria", "agent", "argv", "baseRef", "baseSha", "branch", "branchPreexisting", "cleanupError", "constraints", "contextId", "createdAt", "disposition", "evidence", "finishedAt", "id", "label", "mergeCommit", "objective", "outputFormat", "paneId", "parentPaneId", "parentTaskId", "projectId", "repoPath", "requiresPlanning", "rootTaskId", "round", "state", "targetBranch", "title", "updatedAt", "worktreePath" FROM "Task";
DROP TABLE "Task";
ALTER TABLE "new_Task" RENAME TO "Task";
CREATE INDEX "Task_contextId_idx" ON "Task"("contextId");
CREATE INDEX "Task_state_idx" ON "Task"("state");
CREATE INDEX "Task_projectId_idx" ON "Task"("projectId");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;
