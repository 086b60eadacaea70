-- AlterTable
ALTER TABLE "Pane" ADD COLUMN     "runner" TEXT;

-- AlterTable
ALTER TABLE "Project" ADD COLUMN     "defaultRunner" TEXT;

-- AlterTable
ALTER TABLE "Task" ADD COLUMN     "runner" TEXT;

-- CreateTable
CREATE TABLE "BoardProcess" (
    "instanceId" TEXT NOT NULL,
    "address" TEXT NOT NULL,
    "secret" TEXT NOT NULL,
    "startedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "seenAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "BoardProcess_pkey" PRIMARY KEY ("instanceId")
);
