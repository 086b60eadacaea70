// The task engine's side of pane transitions (runner.ts onPaneTransition), against a real
// database: a transition takes its place among the task's events when the pane changed, so a
// request that came after it is applied after it.
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Db } from "../../db";
import { EventStore } from "../../stores/events";
import { TaskStore } from "../../stores/tasks";
import { EventJournal } from "../events/journal";
import type { PaneInfo } from "../panes/manager";
import { apply, createEngineState, type EngineState } from "./engine-state";
import { onPaneTransition } from "./runner";
import { openTestDb, PROVIDERS } from "../../../tests/helpers/pg";

let dir: string;
let db: Db;
let eng: EngineState;
let n = 0;

let closeDb: (() => Promise<void>) | undefined;

// On both databases: the embedded SQLite and PostgreSQL (when the run has a cluster).
describe.each(PROVIDERS)("the task runner (%s)", (provider) => {
  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), "yard-runner-"));
    ({ db, close: closeDb } = await openTestDb(provider, dir));
  });
  afterAll(async () => {
    await closeDb?.();
    rmSync(dir, { recursive: true, force: true });
  });
  beforeEach(() => {
    // Only the journal and the store are used by these transitions (a failed task's live pane would be killed).
    eng = createEngineState({
      store: new TaskStore(db),
      journal: new EventJournal(new EventStore(db)),
      panes: { isLive: () => false },
    } as never);
  });

  async function task(state: string, paneId: string) {
    const id = `tsk_runner_${++n}`;
    await db.task.create({ data: { id, title: id, repoPath: dir, agent: "demo", objective: "o", state, paneId } });
    await db.taskRound.create({
      data: { id: `rnd_${id}`, taskId: id, number: 1, state, prompt: "p", paneId, startedAt: new Date() },
    });
    return id;
  }
  const pane = (id: string, taskId: string) => ({ id, taskId }) as PaneInfo;
  const settle = (taskId: string) => eng.chains.get(taskId);
  const stateOf = async (taskId: string) => (await db.task.findUniqueOrThrow({ where: { id: taskId } })).state;

  describe("a pane transition and the requests after it", () => {
    it("a question asked right after the pane went working leaves the task input_required", async () => {
      const id = await task("input_required", "pane_a");
      onPaneTransition(eng, pane("pane_a", id), "working", "done", undefined);
      const asked = apply(eng, id, { type: "asked", messageId: "msg_1", question: "Which port?" });
      await asked;
      await settle(id);
      expect(await stateOf(id)).toBe("input_required");
      const causes = (
        await db.event.findMany({ where: { taskId: id, type: "task.state" }, orderBy: { seq: "asc" } })
      ).map((e) => JSON.parse(e.payload).cause);
      expect(causes).toEqual(["pane_working", "asked"]);
    });

    it("a transition of an old round's pane changes nothing", async () => {
      const id = await task("input_required", "pane_new");
      onPaneTransition(eng, pane("pane_old", id), "working", "done", undefined);
      onPaneTransition(eng, pane("pane_old", id), "exited", "working", undefined);
      await settle(id);
      expect(await stateOf(id)).toBe("input_required");
    });

    it("the task's own pane exiting fails it, with the exit as evidence", async () => {
      const id = await task("working", "pane_x");
      onPaneTransition(eng, { ...pane("pane_x", id), exitCode: 3, signal: null }, "exited", "working", undefined);
      await settle(id);
      const row = await db.task.findUniqueOrThrow({ where: { id } });
      expect(row.state).toBe("failed");
      expect(JSON.parse(row.evidence!)).toMatchObject({ reason: "pane_exited", exitCode: 3, lastLifecycle: "working" });
    });
  });
});
