-- AlterTable
ALTER TABLE "Task" ADD COLUMN "planReviewerProfile" TEXT;
