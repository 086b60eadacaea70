// The clean-up (`yard gc`, "Clean up" on the worktrees page): removes leftovers and finished
// tasks' worktrees, and with `branches` the finished tasks' branches Switchyard created that are
// merged into their target. Never a live task's worktree, never one a live pane runs in, never one
// with uncommitted changes (or whose status cannot be read) unless `force`; never a pre-existing
// branch, never an unmerged one (each kept one is listed with why). A dry run is the same plan,
// not carried out: a real run removes exactly what its plan lists, unless git fails on one (then
// it is listed as kept, with the failure).
//
// Removal goes through the git layer's discard and worktree code (discardWorktree for a task's
// worktree and branch, removeWorktree under the repository lock for the others), then what git
// left at the path inside the data dir's worktree folder is removed and its empty repository
// folder with it. A directory git no longer knows as a worktree is removed only inside that
// folder (never following a link); elsewhere it is listed for the person to remove.
import { promises as fsp } from "node:fs";
import path from "node:path";
import type { TaskWorktreeFacts } from "../../stores/worktrees";
import type { GcOutput } from "../../wire/worktrees";
import { branchTips, discardWorktree, findWorktree, isMerged, uncommittedFiles } from "../git";
import { withRepoLock } from "../git/lock";
import { realpathOrResolveAsync, rmdirUpTo } from "../git/paths";
import { inspectRepo } from "../git/repo";
import { removeWorktree } from "../git/worktree";
import type { Inventory, InventoryItem } from "./inventory";

export interface GcOptions {
  olderThanMs?: number;
  branches?: boolean;
  force?: boolean;
  dryRun?: boolean;
  paths?: string[];
}

export interface LivePane {
  id: string;
  cwd: string;
  taskId: string | null;
}

type Kept = GcOutput["kept"][number];
type KeptBranch = GcOutput["branches"]["kept"][number];

export interface GcPlan {
  remove: Array<{ item: InventoryItem; uncommitted: string[] }>;
  kept: Kept[];
  /** Branches to delete (with their task's worktree when that goes in the same run) and those kept. */
  branches: { delete: TaskWorktreeFacts[]; kept: KeptBranch[] };
}

export type Verdict = { remove: true } | { remove: false; reason: string };

/**
 * A leftover changed more recently than this is kept: a task that is starting has its worktree
 * on disk a moment before its row names it (and its agent's pane a moment after that).
 */
const LEFTOVER_GRACE_MS = 5 * 60_000;

/** What is known about a worktree beyond the inventory: a live pane in it, its uncommitted files (null: not read). */
export interface GcFacts {
  pane: string | null;
  uncommitted: string[] | { error: string } | null;
}

/** The clean-up's verdict on one worktree. Pure. */
export function verdict(
  item: Pick<InventoryItem, "status" | "registered" | "inRoot" | "since" | "note">,
  facts: GcFacts,
  opts: Pick<GcOptions, "olderThanMs" | "force">,
  now: number,
): Verdict {
  const keep = (reason: string): Verdict => ({ remove: false, reason });
  if (item.status === "live" || item.status === "missing") return keep(item.note);
  if (!item.registered && !item.inRoot) return keep(item.note);
  const age = now - item.since.getTime();
  if (opts.olderThanMs !== undefined && age < opts.olderThanMs)
    return keep(
      `${item.status === "finished" ? "finished" : "last changed"} ${ago(age)} ago, within --older-than ${ago(opts.olderThanMs)}`,
    );
  if (item.status === "leftover" && age < LEFTOVER_GRACE_MS)
    return keep(`changed ${ago(age)} ago: a task may be starting in it (a leftover is kept ${ago(LEFTOVER_GRACE_MS)})`);
  if (facts.pane) return keep(`pane ${facts.pane} still runs in it`);
  const u = facts.uncommitted;
  if (!opts.force && u && !Array.isArray(u))
    return keep(`its uncommitted changes cannot be read (${u.error}): pass --force to remove it anyway`);
  if (!opts.force && Array.isArray(u) && u.length)
    return keep(`${u.length} uncommitted file${u.length === 1 ? "" : "s"}: pass --force to remove it with them`);
  return { remove: true };
}

/** A duration in its largest whole unit: "45s", "12m", "3h", "8d". */
export function ago(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m`;
  if (s < 86_400) return `${Math.floor(s / 3600)}h`;
  return `${Math.floor(s / 86_400)}d`;
}

const inside = (p: string, dir: string) => p === dir || p.startsWith(dir + path.sep);
const taskRef = (i: InventoryItem) => (i.task ? { id: i.task.id, title: i.task.title } : null);
const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

export async function planGc(
  inv: Inventory,
  opts: GcOptions,
  deps: { livePanes(): Promise<LivePane[]>; now: number },
): Promise<GcPlan> {
  const panes = await deps.livePanes();
  const only = opts.paths ? new Set(await Promise.all(opts.paths.map((p) => realpathOrResolveAsync(p)))) : null;
  const plan: GcPlan = { remove: [], kept: [], branches: { delete: [], kept: [] } };
  for (const item of inv.items) {
    if (item.status === "missing" || (only && !only.has(item.path))) continue;
    let v = verdict(item, { pane: null, uncommitted: null }, opts, deps.now);
    let files: string[] = [];
    if (v.remove) {
      const pane = panes.find((p) => inside(p.cwd, item.path) || (item.task && p.taskId === item.task.id));
      const uncommitted = item.registered
        ? await uncommittedFiles({ worktreePath: item.path }).catch((e: unknown) => ({ error: message(e) }))
        : null;
      if (Array.isArray(uncommitted)) files = uncommitted;
      v = verdict(item, { pane: pane?.id ?? null, uncommitted }, opts, deps.now);
    }
    if (v.remove) plan.remove.push({ item, uncommitted: files.slice(0, 1000) });
    else
      plan.kept.push({
        path: item.path,
        kind: item.kind,
        task: taskRef(item),
        reason: v.reason,
        uncommitted: files.slice(0, 50),
      });
  }
  if (opts.branches) plan.branches = await planBranches(inv, plan, opts, deps.now);
  return plan;
}

/** Finished tasks' branches Switchyard created that still exist: merged ones go, the rest are kept with why. */
async function planBranches(inv: Inventory, plan: GcPlan, opts: GcOptions, now: number): Promise<GcPlan["branches"]> {
  const out: GcPlan["branches"] = { delete: [], kept: [] };
  const removing = new Set(plan.remove.map((r) => r.item.path));
  const byRepo = new Map<string, TaskWorktreeFacts[]>();
  for (const t of inv.tasks)
    if (t.disposition && !t.branchPreexisting && t.branch)
      byRepo.set(t.repoPath, [...(byRepo.get(t.repoPath) ?? []), t]);
  for (const [repo, tasks] of byRepo) {
    const tips = await branchTips(repo, [...new Set(tasks.map((t) => t.branch!))]).catch(() => new Map());
    for (const t of tasks) {
      const branch = t.branch!;
      if (!tips.has(branch)) continue; // deleted already
      const keep = (reason: string) => out.kept.push({ branch, repoPath: repo, taskId: t.id, reason });
      const age = now - (t.finishedAt ?? t.updatedAt).getTime();
      if (opts.olderThanMs !== undefined && age < opts.olderThanMs) {
        keep(`finished ${ago(age)} ago, within --older-than ${ago(opts.olderThanMs)}`);
        continue;
      }
      if (!t.targetBranch) {
        keep("no target branch was recorded (the repository was on a detached HEAD): not known to be merged");
        continue;
      }
      const merged = await isMerged(repo, branch, t.targetBranch).catch((e: unknown) => new Error(message(e)));
      if (merged instanceof Error) {
        keep(`cannot tell whether it is merged into ${t.targetBranch}: ${merged.message}`);
        continue;
      }
      if (!merged) {
        keep(`not merged into ${t.targetBranch}: kept (git branch -D ${branch} deletes it)`);
        continue;
      }
      const own = inv.items.find((i) => i.kind === "task" && i.task?.id === t.id);
      if (own?.registered && !removing.has(own.path)) {
        keep(`its worktree ${own.path} stays`);
        continue;
      }
      const holders = (inv.checkedOut.get(repo) ?? []).filter((w) => w.branch === branch && !removing.has(w.path));
      if (holders.length) {
        keep(`checked out at ${holders.map((h) => h.path).join(", ")}`);
        continue;
      }
      out.delete.push(t);
    }
  }
  return out;
}

export interface GcRunDeps {
  setCleanupError(taskId: string, error: string | null): Promise<void>;
  /** Journals a task's cleanup (task.cleanup). */
  cleaned(taskId: string, cleanup: CleanupFacts): Promise<void>;
}

interface CleanupFacts {
  worktreeRemoved: boolean;
  worktreeMissing: boolean;
  branchDeleted: boolean;
  branchMissing?: boolean;
  error?: string;
}

/** Carries out a plan: the worktrees it lists, then the branches. */
export async function runGc(
  inv: Inventory,
  plan: GcPlan,
  deps: GcRunDeps,
): Promise<{ removed: GcPlan["remove"]; failed: Kept[]; branches: GcOutput["branches"] }> {
  const removed: GcPlan["remove"] = [];
  const failed: Kept[] = [];
  const branches: GcOutput["branches"] = { deleted: [], kept: [...plan.branches.kept] };
  const pending = new Map(plan.branches.delete.map((t) => [t.id, t]));
  const branchDone = (t: TaskWorktreeFacts, res: { branchDeleted: boolean; error?: string }) => {
    pending.delete(t.id);
    if (res.branchDeleted) branches.deleted.push({ branch: t.branch!, repoPath: t.repoPath, taskId: t.id });
    else
      branches.kept.push({
        branch: t.branch!,
        repoPath: t.repoPath,
        taskId: t.id,
        reason: `not deleted: ${res.error ?? "unknown"}`,
      });
  };

  for (const r of plan.remove) {
    const { item } = r;
    try {
      const t = item.kind === "task" ? item.facts : null;
      if (t && item.registered) {
        const withBranch = pending.get(t.id);
        const res = await discardWorktree({
          repoRoot: t.repoPath,
          worktreePath: item.path,
          branch: t.branch!,
          branchPreexisting: t.branchPreexisting,
          deleteBranch: !!withBranch,
        });
        await tidy(item.path, inv.root);
        await deps.setCleanupError(t.id, res.error ?? null);
        await deps.cleaned(t.id, res);
        if (withBranch) branchDone(t, res);
        if (!res.worktreeRemoved && !res.worktreeMissing) throw new Error(res.error ?? "git did not remove it");
      } else if (item.registered && item.repoPath) {
        const repo = await inspectRepo(item.repoPath);
        await withRepoLock(repo.commonDir, () => removeWorktree(repo.root, item.path));
        await tidy(item.path, inv.root);
      } else {
        await tidy(item.path, inv.root);
        if (t) {
          await deps.setCleanupError(t.id, null);
          await deps.cleaned(t.id, { worktreeRemoved: true, worktreeMissing: true, branchDeleted: false });
        }
      }
      if (
        await fsp.lstat(item.path).then(
          () => true,
          () => false,
        )
      )
        throw new Error("it is still on disk");
      removed.push(r);
    } catch (e) {
      failed.push({
        path: item.path,
        kind: item.kind,
        task: taskRef(item),
        reason: `not removed: ${message(e)}`,
        uncommitted: r.uncommitted.slice(0, 50),
      });
    }
  }

  // Branches whose worktree was gone already (or did not go in this run).
  for (const t of pending.values()) {
    try {
      if (await findWorktree(t.repoPath, t.worktreePath)) throw new Error(`its worktree ${t.worktreePath} is back`);
      const res = await discardWorktree({
        repoRoot: t.repoPath,
        worktreePath: t.worktreePath,
        branch: t.branch!,
        branchPreexisting: false,
        deleteBranch: true,
      });
      await deps.cleaned(t.id, res);
      branchDone(t, res);
    } catch (e) {
      branchDone(t, { branchDeleted: false, error: message(e) });
    }
  }
  return { removed, failed, branches };
}

/**
 * What is left at a removed worktree's path inside the worktree folder goes (a directory itself,
 * never through a link), then its repository folder once empty. Outside the folder: nothing.
 */
async function tidy(p: string, root: string): Promise<void> {
  const rel = path.relative(root, p);
  if (!rel || rel.startsWith("..") || path.isAbsolute(rel)) return;
  const st = await fsp.lstat(p).catch(() => null);
  if (st?.isDirectory()) await fsp.rm(p, { recursive: true, force: true });
  else if (st) throw new Error("it is not a directory");
  await rmdirUpTo(path.dirname(p), path.join(root, rel.split(path.sep)[0]!));
}
