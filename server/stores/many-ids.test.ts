// Reads that take any number of task ids (the board of a big project): one SQLite statement holds
// at most 32,766 parameters, so a store that sends a longer `in` list in one statement fails the
// whole board. These pass 40,000 ids to each such read, against a real database.
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../db";
import { DependencyStore } from "./dependencies";
import { TaskStore } from "./tasks";
import { openTestDb, PROVIDERS } from "../../tests/helpers/pg";

let dir: string;
let db: Db;
const MANY = Array.from({ length: 40_000 }, (_, i) => `tsk_missing_${i}`);

let closeDb: (() => Promise<void>) | undefined;

// On both databases: the embedded SQLite and PostgreSQL (when the run has a cluster).
describe.each(PROVIDERS)("the task store (%s)", (provider) => {
  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), "yard-many-ids-"));
    ({ db, close: closeDb } = await openTestDb(provider, dir));
    for (const id of ["tsk_a", "tsk_b", "tsk_c"]) {
      await db.task.create({
        data: {
          id,
          title: id,
          repoPath: dir,
          agent: "demo",
          objective: "o",
          state: id === "tsk_c" ? "backlog" : "working",
        },
      });
    }
    await db.taskDependency.createMany({
      data: [
        { taskId: "tsk_c", dependsOnId: "tsk_b" },
        { taskId: "tsk_c", dependsOnId: "tsk_a" },
      ],
    });
    await db.taskRound.create({
      data: {
        id: "rnd_a",
        taskId: "tsk_a",
        number: 1,
        state: "completed",
        prompt: "p",
        result: '{"summary":"s"}',
        startedAt: new Date(),
      },
    });
  });

  afterAll(async () => {
    await closeDb?.();
    rmSync(dir, { recursive: true, force: true });
  });

  describe("reads of many task ids", () => {
    it("dependenciesOfMany returns each task's edges, ordered by dependency id", async () => {
      const deps = await new DependencyStore(db).dependenciesOfMany([...MANY, "tsk_c"]);
      expect([...deps.keys()]).toEqual(["tsk_c"]);
      expect(deps.get("tsk_c")!.map((d) => d.dependsOnId)).toEqual(["tsk_a", "tsk_b"]);
    });

    it("dependenciesOfMany by project: the same edges, only for the tasks asked", async () => {
      await db.project.create({ data: { id: "prj_p", path: dir, name: "p" } });
      await db.task.updateMany({ data: { projectId: "prj_p" } });
      const store = new DependencyStore(db);
      expect(
        (await store.dependenciesOfMany([...MANY, "tsk_c"], "prj_p")).get("tsk_c")!.map((d) => d.dependsOnId),
      ).toEqual(["tsk_a", "tsk_b"]);
      expect((await store.dependenciesOfMany(["tsk_a"], "prj_p")).size).toBe(0);
    });

    it("tasksByIds returns the known ones", async () => {
      const tasks = await new DependencyStore(db).tasksByIds([...MANY, "tsk_a"]);
      expect([...tasks.keys()]).toEqual(["tsk_a"]);
    });

    it("currentRounds returns an entry per task, with the current round's result", async () => {
      const rounds = await new TaskStore(db).currentRounds([...MANY, "tsk_a"].map((id) => ({ id, round: 1 })));
      expect(rounds.size).toBe(MANY.length + 1);
      expect(rounds.get("tsk_a")).toEqual({ result: '{"summary":"s"}', verdict: null, reviewedCommit: null });
      expect(rounds.get(MANY[0]!)).toEqual({ result: null, verdict: null, reviewedCommit: null });
    });
  });
});
