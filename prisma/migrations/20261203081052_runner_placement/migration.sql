-- AlterTable
ALTER TABLE "Pane" ADD COLUMN "runner" TEXT;

-- AlterTable
ALTER TABLE "Project" ADD COLUMN "defaultRunner" TEXT;

-- AlterTable
ALTER TABLE "Task" ADD COLUMN "runner" TEXT;

-- CreateTable
CREATE TABLE "BoardProcess" (
    "instanceId" TEXT NOT NULL PRIMARY KEY,
    "address" TEXT NOT NULL,
    "secret" TEXT NOT NULL,
    "startedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "seenAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);
