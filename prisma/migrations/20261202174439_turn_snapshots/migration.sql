-- CreateTable
CREATE TABLE "TaskTurn" (
    "taskId" TEXT NOT NULL,
    "number" INTEGER NOT NULL,
    "round" INTEGER NOT NULL,
    "kind" TEXT NOT NULL,
    "revertOf" INTEGER,
    "commit" TEXT NOT NULL,
    "tree" TEXT NOT NULL,
    "files" INTEGER NOT NULL,
    "additions" INTEGER NOT NULL,
    "deletions" INTEGER NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,

    PRIMARY KEY ("taskId", "number"),
    CONSTRAINT "TaskTurn_taskId_fkey" FOREIGN KEY ("taskId") REFERENCES "Task" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
