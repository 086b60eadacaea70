-- AlterTable
ALTER TABLE "Pane" ADD COLUMN "owner" TEXT;

-- CreateIndex
CREATE INDEX "Pane_owner_lifecycle_idx" ON "Pane"("owner", "lifecycle");
