-- AlterTable
ALTER TABLE "Review" ADD COLUMN "reviewedCommit" TEXT;

-- AlterTable
ALTER TABLE "Task" ADD COLUMN "mergeInFlight" TEXT;
