-- DropIndex
DROP INDEX "Review_taskId_idx";

-- AlterTable
ALTER TABLE "Review" ADD COLUMN "reviewedTree" TEXT;

-- AlterTable
ALTER TABLE "Task" ADD COLUMN "startOptions" TEXT;

-- AlterTable
ALTER TABLE "TaskRound" ADD COLUMN "prompt" TEXT;

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
    CONSTRAINT "ReviewComment_reviewId_fkey" FOREIGN KEY ("reviewId") REFERENCES "Review" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "ReviewComment_taskId_fkey" FOREIGN KEY ("taskId") REFERENCES "Task" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_ReviewComment" ("body", "createdAt", "endLine", "id", "path", "resolved", "reviewId", "round", "side", "startLine", "taskId", "updatedAt") SELECT "body", "createdAt", "endLine", "id", "path", "resolved", "reviewId", "round", "side", "startLine", "taskId", "updatedAt" FROM "ReviewComment";
DROP TABLE "ReviewComment";
ALTER TABLE "new_ReviewComment" RENAME TO "ReviewComment";
CREATE INDEX "ReviewComment_taskId_round_idx" ON "ReviewComment"("taskId", "round");
CREATE INDEX "ReviewComment_reviewId_idx" ON "ReviewComment"("reviewId");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- CreateIndex
CREATE INDEX "Review_taskId_round_idx" ON "Review"("taskId", "round");
