-- AlterTable
ALTER TABLE "Task" ADD COLUMN "autoStartWhen" TEXT;
ALTER TABLE "Task" ADD COLUMN "resultAckedAt" DATETIME;

-- CreateTable
CREATE TABLE "TaskWorktree" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "taskId" TEXT NOT NULL,
    "path" TEXT NOT NULL,
    "branch" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "TaskWorktree_taskId_fkey" FOREIGN KEY ("taskId") REFERENCES "Task" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_Message" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "taskId" TEXT NOT NULL,
    "author" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "body" TEXT NOT NULL,
    "replyTo" TEXT,
    "round" INTEGER NOT NULL DEFAULT 1,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "Message_taskId_fkey" FOREIGN KEY ("taskId") REFERENCES "Task" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_Message" ("author", "body", "createdAt", "id", "kind", "taskId") SELECT "author", "body", "createdAt", "id", "kind", "taskId" FROM "Message";
DROP TABLE "Message";
ALTER TABLE "new_Message" RENAME TO "Message";
CREATE INDEX "Message_taskId_idx" ON "Message"("taskId");
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
    "hooksSeen" BOOLEAN NOT NULL DEFAULT false,
    "pid" INTEGER,
    "exitCode" INTEGER,
    "signal" INTEGER,
    "cols" INTEGER NOT NULL DEFAULT 120,
    "rows" INTEGER NOT NULL DEFAULT 32,
    "tokenHash" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    "exitedAt" DATETIME,
    "sandboxed" BOOLEAN NOT NULL DEFAULT false,
    "role" TEXT NOT NULL DEFAULT 'orchestrator'
);
INSERT INTO "new_Pane" ("agent", "argv", "cols", "createdAt", "cwd", "doneSeen", "exitCode", "exitedAt", "hooksSeen", "id", "label", "lifecycle", "lifecycleSeq", "parentPaneId", "pid", "relationship", "rootPaneId", "rows", "sandboxed", "signal", "taskId", "tokenHash", "updatedAt") SELECT "agent", "argv", "cols", "createdAt", "cwd", "doneSeen", "exitCode", "exitedAt", "hooksSeen", "id", "label", "lifecycle", "lifecycleSeq", "parentPaneId", "pid", "relationship", "rootPaneId", "rows", "sandboxed", "signal", "taskId", "tokenHash", "updatedAt" FROM "Pane";
DROP TABLE "Pane";
ALTER TABLE "new_Pane" RENAME TO "Pane";
CREATE INDEX "Pane_taskId_idx" ON "Pane"("taskId");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- CreateIndex
CREATE UNIQUE INDEX "TaskWorktree_taskId_path_key" ON "TaskWorktree"("taskId", "path");
UPDATE "Pane" SET "role" = 'worker' WHERE "taskId" IS NOT NULL;
