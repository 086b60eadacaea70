-- AlterTable
ALTER TABLE "Project" ADD COLUMN "mergeStrategy" TEXT;

-- AlterTable
ALTER TABLE "Task" ADD COLUMN "mergeStrategy" TEXT;
ALTER TABLE "Task" ADD COLUMN "updateInFlight" TEXT;

-- CreateTable
CREATE TABLE "TaskBehind" (
    "taskId" TEXT NOT NULL PRIMARY KEY,
    "target" TEXT NOT NULL,
    "behind" INTEGER NOT NULL,
    "targetCommit" TEXT NOT NULL,
    "branchCommit" TEXT NOT NULL,
    "computedAt" DATETIME NOT NULL,
    CONSTRAINT "TaskBehind_taskId_fkey" FOREIGN KEY ("taskId") REFERENCES "Task" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_ReviewComment" (
    "id" TEXT NOT NULL PRIMARY KEY,
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
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    "outdated" BOOLEAN NOT NULL DEFAULT false,
    CONSTRAINT "ReviewComment_reviewId_fkey" FOREIGN KEY ("reviewId") REFERENCES "Review" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "ReviewComment_taskId_fkey" FOREIGN KEY ("taskId") REFERENCES "Task" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_ReviewComment" ("author", "body", "createdAt", "endLine", "id", "path", "quote", "resolved", "reviewId", "round", "side", "startLine", "taskId", "updatedAt") SELECT "author", "body", "createdAt", "endLine", "id", "path", "quote", "resolved", "reviewId", "round", "side", "startLine", "taskId", "updatedAt" FROM "ReviewComment";
DROP TABLE "ReviewComment";
ALTER TABLE "new_ReviewComment" RENAME TO "ReviewComment";
CREATE INDEX "ReviewComment_taskId_round_idx" ON "ReviewComment"("taskId", "round");
CREATE INDEX "ReviewComment_reviewId_idx" ON "ReviewComment"("reviewId");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;
