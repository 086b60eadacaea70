// The worktrees service behind the worktrees page, `yard worktree`, `yard gc` and the board's
// disk budget banner: the inventory (inventory.ts) with each worktree's cached size (sizes.ts),
// the total against the disk budget, and the clean-up (gc.ts, one run at a time).
//
// Sizes are measured in the background, never on a request: every worktree once at start-up and
// then every MEASURE_EVERY_MS, a task's own worktrees again after each change of that task (a turn
// ended, it started, it was finished or cleaned up, it registered a worktree), and all of them
// when asked (`worktrees.measure`). The total is announced as `worktrees.usage` when it crosses
// the budget either way, moves by more than 1%, or the budget changes; boards refetch then.
//
// The budget: the `diskBudget` setting (saved from the page or `yard worktree budget`), else
// YARD_DISK_BUDGET, else none.
import type { SettingStore } from "../../stores/settings";
import type { WorktreeInventoryStore } from "../../stores/worktrees";
import { parseSize } from "../../wire/sizes";
import type { budgetView, GcOutput, listOutput, usageOutput, WorktreeEntry } from "../../wire/worktrees";
import type { z } from "zod";
import type { EventJournal, YardEvent } from "../events/journal";
import { type GcOptions, type LivePane, planGc, runGc } from "./gc";
import { type Inventory, takeInventory } from "./inventory";
import { realpathOrResolveAsync } from "../git/paths";
import { totalOf, WorktreeSizes } from "./sizes";
import type { WalkLimits } from "./walk";

export type Budget = z.infer<typeof budgetView>;
type Usage = z.infer<typeof usageOutput>;

const MEASURE_EVERY_MS = 15 * 60_000;
/** A task's changes come in bursts (a turn ends, its diff is counted): its worktree is measured once after them. */
const TASK_SETTLE_MS = 2000;
const BUDGET_KEY = "diskBudget";
const TASK_EVENTS = new Set(["task.created", "task.started", "task.state", "task.finished", "task.cleanup"]);

/** YARD_DISK_BUDGET as a budget (null: unset). Throws on a value that is not a size. */
export function budgetFromEnv(env: Record<string, string | undefined> = process.env): Budget | null {
  const text = env.YARD_DISK_BUDGET?.trim();
  if (!text) return null;
  const bytes = parseSize(text);
  if (bytes === null)
    throw new Error(`YARD_DISK_BUDGET must be a size such as 20GB or 500MB (got ${JSON.stringify(text)})`);
  return { bytes, text, source: "env" };
}

export interface WorktreesDeps {
  home: string;
  store: WorktreeInventoryStore;
  settings: SettingStore;
  journal: EventJournal;
  /** The board's projects (their repositories are searched for leftovers' owners). */
  projects(): Promise<Array<{ id: string; path: string }>>;
  livePanes(): Promise<LivePane[]>;
  setCleanupError(taskId: string, error: string | null): Promise<void>;
  envBudget: Budget | null;
  limits?: WalkLimits;
  log?: (line: string) => void;
}

export class Worktrees {
  private readonly sizes: WorktreeSizes;
  private timer: NodeJS.Timeout | null = null;
  private unsubscribe: (() => void) | null = null;
  private readonly settle = new Map<string, NodeJS.Timeout>();
  private announced: { total: number; over: boolean; budget: number | null } | null = null;
  private gcChain: Promise<unknown> = Promise.resolve();
  /** Full measurements taking their inventory (before their walks are queued). */
  private listing = 0;

  constructor(private readonly deps: WorktreesDeps) {
    this.sizes = new WorktreeSizes({ limits: deps.limits, log: deps.log });
  }

  /** Measures everything now (in the background), then every MEASURE_EVERY_MS; follows task changes. */
  attach(): void {
    this.unsubscribe = this.deps.journal.subscribe((e) => this.onEvent(e), { type: "task.*" });
    void this.measureAll();
    this.timer = setInterval(() => void this.measureAll(), MEASURE_EVERY_MS);
    this.timer.unref();
  }

  async detach(): Promise<void> {
    this.unsubscribe?.();
    if (this.timer) clearInterval(this.timer);
    for (const t of this.settle.values()) clearTimeout(t);
    this.settle.clear();
    await this.sizes.stop();
  }

  /** Every worktree with its cached size; those not measured yet are queued. */
  async list(): Promise<z.infer<typeof listOutput>> {
    const inv = await this.inventory();
    const unmeasured = inv.items.filter((i) => i.onDisk && !this.sizes.get(i.path)).map((i) => i.path);
    if (unmeasured.length) void this.sizes.measure(unmeasured).then(() => this.announce());
    const worktrees: WorktreeEntry[] = inv.items.map(({ since, onDisk, inRoot, facts, ...i }) => ({
      ...i,
      since: since.toISOString(),
      size: onDisk ? this.sizes.get(i.path) : null,
    }));
    return { ...(await this.usage()), worktrees, root: inv.root };
  }

  /** The total and the budget, from the cache (no walk, no git). */
  async usage(): Promise<Usage> {
    const total = totalOf(this.sizes.all);
    const budget = await this.budget();
    return {
      totalBytes: total.bytes,
      partial: total.truncated || this.measuring,
      measuredAt: total.oldest,
      measuring: this.measuring,
      budget,
      overBudget: budget !== null && total.bytes > budget.bytes,
    };
  }

  private get measuring(): boolean {
    return this.listing > 0 || this.sizes.measuring;
  }

  /** Measures every worktree again, in the background. */
  measureNow(): { scheduled: boolean } {
    void this.measureAll();
    return { scheduled: true };
  }

  /** Saves the budget setting ("20GB"; null removes it: YARD_DISK_BUDGET applies again). */
  async setBudget(text: string | null): Promise<Usage> {
    await this.deps.settings.set(BUDGET_KEY, text);
    await this.announce();
    return this.usage();
  }

  /** The clean-up (see gc.ts); runs one at a time. */
  gc(opts: GcOptions, by: string): Promise<GcOutput> {
    const run = this.gcChain.then(() => this.gcNow(opts, by));
    this.gcChain = run.catch(() => {});
    return run;
  }

  private async gcNow(opts: GcOptions, by: string): Promise<GcOutput> {
    const inv = await this.inventory();
    const plan = await planGc(inv, opts, { livePanes: this.deps.livePanes, now: Date.now() });
    const bytesOf = (p: string) => this.sizes.get(p)?.bytes ?? null;
    const view = (r: (typeof plan.remove)[number]) => ({
      path: r.item.path,
      kind: r.item.kind,
      task: r.item.task ? { id: r.item.task.id, title: r.item.task.title } : null,
      bytes: bytesOf(r.item.path),
      uncommitted: r.uncommitted,
    });
    if (opts.dryRun) {
      const removed = plan.remove.map(view);
      return {
        dryRun: true,
        removed,
        kept: plan.kept,
        branches: {
          deleted: plan.branches.delete.map((t) => ({ branch: t.branch!, repoPath: t.repoPath, taskId: t.id })),
          kept: plan.branches.kept,
        },
        freedBytes: removed.reduce((n, r) => n + (r.bytes ?? 0), 0),
      };
    }
    const res = await runGc(inv, plan, {
      setCleanupError: this.deps.setCleanupError,
      cleaned: async (taskId, cleanup) => {
        await this.deps.journal.append("task.cleanup", { taskId, payload: cleanup });
      },
    });
    const removed = res.removed.map(view);
    const freedBytes = removed.reduce((n, r) => n + (r.bytes ?? 0), 0);
    this.sizes.forget(removed.map((r) => r.path));
    if (removed.length || res.branches.deleted.length)
      await this.deps.journal.append("worktrees.gc", {
        payload: {
          removed: removed.map((r) => r.path),
          branchesDeleted: res.branches.deleted.map((b) => b.branch),
          kept: plan.kept.length + res.failed.length,
          freedBytes,
          by,
        },
      });
    await this.announce();
    return { dryRun: false, removed, kept: [...plan.kept, ...res.failed], branches: res.branches, freedBytes };
  }

  private inventory(): Promise<Inventory> {
    return takeInventory({
      home: this.deps.home,
      tasks: () => this.deps.store.tasks(),
      extras: () => this.deps.store.extras(),
      repos: this.deps.projects,
    });
  }

  private async budget(): Promise<Budget | null> {
    const text = await this.deps.settings.get(BUDGET_KEY);
    const bytes = typeof text === "string" ? parseSize(text) : null;
    if (typeof text === "string" && bytes !== null) return { bytes, text, source: "setting" };
    return this.deps.envBudget;
  }

  private async measureAll(): Promise<void> {
    try {
      this.listing++;
      let measured: Promise<void>;
      try {
        const inv = await this.inventory();
        const paths = inv.items.filter((i) => i.onDisk).map((i) => i.path);
        const keep = new Set(paths);
        this.sizes.forget([...this.sizes.all.keys()].filter((p) => !keep.has(p)));
        measured = this.sizes.measure(paths);
      } finally {
        this.listing--;
      }
      await measured;
      await this.announce();
    } catch (e) {
      this.deps.log?.(`worktree sizes not measured: ${(e as Error)?.message ?? e}`);
    }
  }

  private onEvent(e: YardEvent): void {
    if (!e.taskId || !(TASK_EVENTS.has(e.type) || e.type === "task.worktree_registered")) return;
    const taskId = e.taskId;
    clearTimeout(this.settle.get(taskId));
    const t = setTimeout(() => {
      this.settle.delete(taskId);
      void this.measureTask(taskId);
    }, TASK_SETTLE_MS);
    t.unref();
    this.settle.set(taskId, t);
  }

  /** Measures one task's worktrees again (a removed one leaves the cache). */
  private async measureTask(taskId: string): Promise<void> {
    try {
      const paths = await Promise.all((await this.deps.store.taskPaths(taskId)).map(realpathOrResolveAsync));
      await this.sizes.measure(paths);
      await this.announce();
    } catch (e) {
      this.deps.log?.(`worktree sizes of ${taskId} not measured: ${(e as Error)?.message ?? e}`);
    }
  }

  /** Journals the total when it crossed the budget, moved by more than 1%, or the budget changed. */
  private async announce(): Promise<void> {
    const u = await this.usage();
    const budget = u.budget?.bytes ?? null;
    const last = this.announced;
    if (
      last &&
      last.over === u.overBudget &&
      last.budget === budget &&
      Math.abs(u.totalBytes - last.total) <= last.total * 0.01
    )
      return;
    this.announced = { total: u.totalBytes, over: u.overBudget, budget };
    await this.deps.journal.append("worktrees.usage", {
      payload: { totalBytes: u.totalBytes, budgetBytes: budget, overBudget: u.overBudget },
    });
  }
}
