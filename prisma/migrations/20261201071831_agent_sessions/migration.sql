-- AlterTable
ALTER TABLE "Task" ADD COLUMN "agentSessionId" TEXT;
ALTER TABLE "Task" ADD COLUMN "agentTranscriptPath" TEXT;

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_Project" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "path" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "defaultTarget" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    "trustAgents" BOOLEAN NOT NULL DEFAULT true
);
INSERT INTO "new_Project" ("createdAt", "defaultTarget", "id", "name", "path", "updatedAt") SELECT "createdAt", "defaultTarget", "id", "name", "path", "updatedAt" FROM "Project";
DROP TABLE "Project";
ALTER TABLE "new_Project" RENAME TO "Project";
CREATE UNIQUE INDEX "Project_path_key" ON "Project"("path");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;
