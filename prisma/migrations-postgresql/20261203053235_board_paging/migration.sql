-- DropIndex
DROP INDEX "Task_projectId_idx";

-- CreateIndex
CREATE INDEX "Task_projectId_disposition_state_idx" ON "Task"("projectId", "disposition", "state");

-- CreateIndex
CREATE INDEX "Task_projectId_updatedAt_id_idx" ON "Task"("projectId", "updatedAt", "id");
