-- AlterTable
ALTER TABLE "Task" ADD COLUMN "columnSince" DATETIME;

-- CreateTable
CREATE TABLE "TaskDiffStat" (
    "taskId" TEXT NOT NULL PRIMARY KEY,
    "files" INTEGER NOT NULL,
    "additions" INTEGER NOT NULL,
    "deletions" INTEGER NOT NULL,
    "commit" TEXT,
    "computedAt" DATETIME NOT NULL,
    CONSTRAINT "TaskDiffStat_taskId_fkey" FOREIGN KEY ("taskId") REFERENCES "Task" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
