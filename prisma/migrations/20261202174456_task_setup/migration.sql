-- AlterTable
ALTER TABLE "Project" ADD COLUMN "repoConfig" TEXT;

-- CreateTable
CREATE TABLE "TaskSetup" (
    "taskId" TEXT NOT NULL PRIMARY KEY,
    "config" TEXT NOT NULL,
    "ports" TEXT NOT NULL DEFAULT '[]',
    "portsReleasedAt" DATETIME,
    "teardown" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "TaskSetup_taskId_fkey" FOREIGN KEY ("taskId") REFERENCES "Task" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
