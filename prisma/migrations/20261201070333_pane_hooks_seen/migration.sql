-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_Pane" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "argv" TEXT NOT NULL,
    "cwd" TEXT NOT NULL,
    "label" TEXT,
    "parentPaneId" TEXT,
    "rootPaneId" TEXT,
    "relationship" TEXT,
    "taskId" TEXT,
    "agent" TEXT,
    "lifecycle" TEXT NOT NULL,
    "lifecycleSeq" INTEGER NOT NULL DEFAULT 0,
    "doneSeen" BOOLEAN NOT NULL DEFAULT true,
    "hooksSeen" BOOLEAN NOT NULL DEFAULT false,
    "pid" INTEGER,
    "exitCode" INTEGER,
    "signal" INTEGER,
    "cols" INTEGER NOT NULL DEFAULT 120,
    "rows" INTEGER NOT NULL DEFAULT 32,
    "tokenHash" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    "exitedAt" DATETIME,
    "sandboxed" BOOLEAN NOT NULL DEFAULT false
);
INSERT INTO "new_Pane" ("agent", "argv", "cols", "createdAt", "cwd", "doneSeen", "exitCode", "exitedAt", "id", "label", "lifecycle", "lifecycleSeq", "parentPaneId", "pid", "relationship", "rootPaneId", "rows", "sandboxed", "signal", "taskId", "tokenHash", "updatedAt") SELECT "agent", "argv", "cols", "createdAt", "cwd", "doneSeen", "exitCode", "exitedAt", "id", "label", "lifecycle", "lifecycleSeq", "parentPaneId", "pid", "relationship", "rootPaneId", "rows", "sandboxed", "signal", "taskId", "tokenHash", "updatedAt" FROM "Pane";
DROP TABLE "Pane";
ALTER TABLE "new_Pane" RENAME TO "Pane";
CREATE INDEX "Pane_taskId_idx" ON "Pane"("taskId");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;
