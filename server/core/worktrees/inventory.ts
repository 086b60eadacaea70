// Every Switchyard worktree, as the worktrees page and the clean-up see it: each task's own
// worktree, the extra worktrees agents registered, and leftovers (directories under the data
// dir's worktree folder, `<home>/worktrees/<repo>-<hash>/<branch>`, that no task has). Each one's
// task and status (live, finished, leftover, missing: server/wire/worktrees.ts), whether git
// still lists it as a worktree of its repository, and the start of its age.
//
// Reads the database (through the inventory store), lstat's paths and runs `git worktree list`
// once per known repository (the projects' and the tasks'); never a walk, never a git status.
// Paths are compared by their real paths. Only directories count as leftovers: a link or a file
// in the worktree folder is not Switchyard's to judge.
import { promises as fsp } from "node:fs";
import path from "node:path";
import type { ExtraWorktreeFacts, TaskWorktreeFacts } from "../../stores/worktrees";
import type { WorktreeEntry } from "../../wire/worktrees";
import { listWorktrees } from "../git";
import { realpathOrResolveAsync } from "../git/paths";

export interface InventoryDeps {
  home: string;
  tasks(): Promise<TaskWorktreeFacts[]>;
  extras(): Promise<ExtraWorktreeFacts[]>;
  /** The board's repositories (a leftover's repository is looked for among them and the tasks'). */
  repos(): Promise<Array<{ id: string; path: string }>>;
}

/** One worktree, with what the clean-up needs beyond what the page shows. */
export interface InventoryItem extends Omit<WorktreeEntry, "size" | "since"> {
  since: Date;
  onDisk: boolean;
  /** Inside the data dir's worktree folder (a directory git no longer knows is removed only there). */
  inRoot: boolean;
  /** The task's row (task and extra worktrees). */
  facts: TaskWorktreeFacts | null;
}

export interface Inventory {
  root: string;
  items: InventoryItem[];
  /** Every started task (their branches are the clean-up's to consider). */
  tasks: TaskWorktreeFacts[];
  /** Worktree path -> repository, for every linked worktree git lists in a known repository. */
  registered: Map<string, string>;
  /** Repository -> every worktree git lists (its main checkout first) and the branch it has checked out. */
  checkedOut: Map<string, Array<{ path: string; branch: string | null }>>;
}

/** `<home>/worktrees`, by its real path when it exists. */
const worktreeRoot = (home: string) => realpathOrResolveAsync(path.join(home, "worktrees"));

export async function takeInventory(deps: InventoryDeps): Promise<Inventory> {
  const [tasks, extras, projects, root] = await Promise.all([
    deps.tasks(),
    deps.extras(),
    deps.repos(),
    worktreeRoot(deps.home),
  ]);
  const projectOf = new Map(projects.map((p) => [p.path, p.id]));
  const repos = [...new Set([...projects.map((p) => p.path), ...tasks.map((t) => t.repoPath)])];
  const registered = new Map<string, string>();
  const checkedOut = new Map<string, Array<{ path: string; branch: string | null }>>();
  for (const repo of repos) {
    const list = await listWorktrees(repo).catch(() => []); // a repository that is gone lists nothing
    const here: Array<{ path: string; branch: string | null }> = [];
    for (const [i, wt] of list.entries()) {
      const real = await realpathOrResolveAsync(wt.path);
      here.push({ path: real, branch: wt.branch });
      if (i > 0) registered.set(real, repo);
    }
    checkedOut.set(repo, here);
  }
  const inside = (p: string) => p.startsWith(root + path.sep);
  const byId = new Map(tasks.map((t) => [t.id, t]));
  const items: InventoryItem[] = [];
  const seen = new Set<string>();
  /** The branch git has checked out at a path of `repo` (undefined: not a worktree of it). */
  const branchAt = (repo: string, p: string) => checkedOut.get(repo)?.find((w) => w.path === p)?.branch;

  // Unfinished tasks first: a path a live task works in is never a finished task's (an explicit
  // --path used again), whatever order the tasks were created in.
  const ordered = [...tasks.filter((t) => !t.disposition), ...tasks.filter((t) => t.disposition)];
  for (const t of ordered) {
    const p = await realpathOrResolveAsync(t.worktreePath);
    if (seen.has(p)) continue;
    const onDisk = await isDir(p);
    const isRegistered = registered.has(p);
    if (t.disposition && !onDisk) continue; // cleaned up (a record git still has is pruned by its next removal)
    // A finished task's path that git now has on another branch is not its worktree any more (a
    // leftover, when it is in the worktree folder).
    if (t.disposition && isRegistered && branchAt(t.repoPath, p) !== t.branch) continue;
    seen.add(p);
    items.push({
      path: p,
      kind: "task",
      status: t.disposition ? "finished" : onDisk ? "live" : "missing",
      repoPath: t.repoPath,
      projectId: t.projectId,
      branch: t.branch,
      task: { id: t.id, title: t.title, state: t.state, disposition: t.disposition },
      registered: isRegistered,
      since: t.disposition ? (t.finishedAt ?? t.updatedAt) : t.createdAt,
      onDisk,
      inRoot: inside(p),
      facts: t,
      note: taskNote(t, onDisk, isRegistered, inside(p)),
    });
  }
  for (const x of extras) {
    const t = byId.get(x.taskId);
    if (!t) continue;
    const p = await realpathOrResolveAsync(x.path);
    if (seen.has(p)) continue;
    const onDisk = await isDir(p);
    const isRegistered = registered.has(p);
    if (t.disposition && !onDisk) continue;
    seen.add(p);
    items.push({
      path: p,
      kind: "extra",
      status: t.disposition ? "finished" : onDisk ? "live" : "missing",
      repoPath: t.repoPath,
      projectId: t.projectId,
      branch: x.branch,
      task: { id: t.id, title: t.title, state: t.state, disposition: t.disposition },
      registered: isRegistered,
      since: t.disposition ? (t.finishedAt ?? t.updatedAt) : x.createdAt,
      onDisk,
      inRoot: inside(p),
      facts: t,
      note: t.disposition
        ? isRegistered || inside(p)
          ? `registered by its task, which is ${t.disposition}`
          : "not a git worktree any more, outside Switchyard's worktree folder: remove it yourself"
        : onDisk
          ? `registered by its task, which is ${words(t.state)}`
          : "not on disk",
    });
  }
  for (const p of await leftoverDirs(root)) {
    if (seen.has(p)) continue;
    const repo = registered.get(p) ?? null;
    const st = await fsp.lstat(p).catch(() => null);
    items.push({
      path: p,
      kind: "leftover",
      status: "leftover",
      repoPath: repo,
      projectId: repo ? (projectOf.get(repo) ?? null) : null,
      branch: null,
      task: null,
      registered: repo !== null,
      since: st?.mtime ?? new Date(),
      onDisk: true,
      inRoot: true,
      facts: null,
      note: repo ? `no task has it (a worktree of ${repo})` : "no task has it, and no known repository lists it",
    });
  }
  return { root, items, tasks, registered, checkedOut };
}

const words = (state: string) => state.replace(/_/g, " ");

function taskNote(t: TaskWorktreeFacts, onDisk: boolean, registered: boolean, inRoot: boolean): string {
  if (t.disposition) {
    if (!registered && !inRoot)
      return "not a git worktree any more, outside Switchyard's worktree folder: remove it yourself";
    return `its task is ${t.disposition}; the worktree is still on disk${t.cleanupError ? ` (cleanup failed: ${t.cleanupError})` : ""}`;
  }
  if (!onDisk) return "not on disk";
  switch (t.state) {
    case "completed":
      return "its task waits for review";
    case "failed":
    case "canceled":
    case "rejected":
      return `its task is ${t.state} but not finished: discard it to let the clean-up remove this`;
    default:
      return `its task is ${words(t.state)}`;
  }
}

async function isDir(p: string): Promise<boolean> {
  const st = await fsp.lstat(p).catch(() => null);
  return !!st?.isDirectory();
}

/** The directories two levels under the worktree folder (`<repo>-<hash>/<branch>`); links and files are skipped. */
async function leftoverDirs(root: string): Promise<string[]> {
  const out: string[] = [];
  const dirsIn = async (dir: string) => {
    const names = await fsp.readdir(dir).catch(() => [] as string[]);
    const dirs: string[] = [];
    for (const n of names.sort()) if (await isDir(path.join(dir, n))) dirs.push(path.join(dir, n));
    return dirs;
  };
  for (const repoDir of await dirsIn(root)) out.push(...(await dirsIn(repoDir)));
  return out;
}
