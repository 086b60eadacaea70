// The worktrees service in process, on a real database and a real data dir: the disk budget (the
// setting over YARD_DISK_BUDGET, a bad YARD_DISK_BUDGET refused), the background total against it,
// and the journal's announcement when the total crosses it.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../../db";
import { EventStore } from "../../stores/events";
import { SettingStore } from "../../stores/settings";
import { WorktreeInventoryStore } from "../../stores/worktrees";
import { EventJournal } from "../events/journal";
import { budgetFromEnv, Worktrees } from "./service";
import { openTestDb, PROVIDERS } from "../../../tests/helpers/pg";

let dir: string;
let db: Db;

let closeDb: (() => Promise<void>) | undefined;

// On both databases: the embedded SQLite and PostgreSQL (when the run has a cluster).
describe.each(PROVIDERS)("the worktrees service (%s)", (provider) => {
  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), "yard-wt-service-"));
    ({ db, close: closeDb } = await openTestDb(provider, dir));
  });
  afterAll(async () => {
    await closeDb?.();
    rmSync(dir, { recursive: true, force: true });
  });

  const settled = async (w: Worktrees) => {
    for (let i = 0; i < 400 && (await w.usage()).measuring; i++) await new Promise((r) => setTimeout(r, 25));
    return w.usage();
  };

  describe("YARD_DISK_BUDGET", () => {
    it.each([
      [undefined, null],
      ["", null],
      ["20GB", { bytes: 20 * 1024 ** 3, text: "20GB", source: "env" }],
      [" 500 mb ", { bytes: 500 * 1024 ** 2, text: "500 mb", source: "env" }],
    ])("%j is %j", (v, budget) => expect(budgetFromEnv({ YARD_DISK_BUDGET: v })).toEqual(budget));

    it("refuses a value that is not a size (the server does not start)", () => {
      expect(() => budgetFromEnv({ YARD_DISK_BUDGET: "lots" })).toThrow(/YARD_DISK_BUDGET must be a size such as 20GB/);
    });
  });

  describe("the worktrees service", () => {
    it("measures in the background; the setting wins over the environment's budget; crossing it is announced", async () => {
      const home = path.join(dir, "home");
      const leftover = path.join(home, "worktrees", "repo-12345678", "old-branch");
      mkdirSync(leftover, { recursive: true });
      writeFileSync(path.join(leftover, "blob.bin"), Buffer.alloc(300_000, 1));
      const journal = new EventJournal(new EventStore(db));
      const w = new Worktrees({
        home,
        store: new WorktreeInventoryStore(db),
        settings: new SettingStore(db),
        journal,
        projects: async () => [],
        livePanes: async () => [],
        setCleanupError: async () => {},
        envBudget: { bytes: 1024 ** 3, text: "1GB", source: "env" },
      });
      w.attach();
      try {
        const du = Number(execFileSync("du", ["-sxB1", leftover], { encoding: "utf8" }).split("\t")[0]);
        const first = await settled(w);
        expect(first).toMatchObject({
          totalBytes: du,
          partial: false,
          overBudget: false,
          budget: { bytes: 1024 ** 3, source: "env" },
        });
        expect(first.measuredAt).not.toBeNull();

        const over = await w.setBudget("100KB");
        expect(over).toMatchObject({
          budget: { bytes: 100 * 1024, text: "100KB", source: "setting" },
          overBudget: true,
        });
        const events = await journal.list({ type: "worktrees.usage" });
        expect(events.at(-1)?.payload).toEqual({ totalBytes: du, budgetBytes: 100 * 1024, overBudget: true });

        const back = await w.setBudget(null);
        expect(back).toMatchObject({ budget: { source: "env" }, overBudget: false });
        expect((await journal.list({ type: "worktrees.usage" })).at(-1)?.payload.overBudget).toBe(false);

        // Gone from disk: gone from the total at the next measurement.
        rmSync(leftover, { recursive: true });
        w.measureNow();
        expect((await settled(w)).totalBytes).toBe(0);
        expect((await w.list()).worktrees).toEqual([]);
      } finally {
        await w.detach();
      }
    });
  });
});
