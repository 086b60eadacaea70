// Worktrees and disk, end to end: the real server and CLI, a real repository with tasks in several
// states (running, awaiting review, merged with its branch kept, finished with its worktree still on
// disk, finished with uncommitted files left in it, discarded with an unmerged branch, one on a
// pre-existing branch) and leftovers (a stray directory, a worktree no task has). `yard worktree
// list` shows each with its status and a size `du` agrees with; `yard gc` removes exactly what its
// dry run listed, never a live task's worktree, not a dirty one without --force, and branches only
// with --branches (merged ones Switchyard created; the others are listed as kept, with why).
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, utimesSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { waitState } from "./helpers/agent-tasks";
import { adminClient } from "./helpers/client";
import { git } from "./helpers/git";
import { scratch } from "./helpers/scratch";
import { type CliResult, startTestServer, type TestServer, yard } from "./helpers/server";
import { waitFor } from "./helpers/wait";

let server: TestServer;
let api: ReturnType<typeof adminClient>;
const dirs = scratch("yard-wt-");
let repo: string;
let projectId: string;

beforeAll(async () => {
  server = await startTestServer();
  api = adminClient(server);
  repo = dirs.repo();
  git(repo, "branch", "feature/existing");
  projectId = (await api.projects.add.mutate({ path: repo })).id;
}, 90_000);
afterAll(async () => {
  await server?.dispose();
  dirs.cleanup();
});

const y = async (args: string[]): Promise<CliResult> => {
  const r = await yard(server, ["--json", ...args]);
  expect(r.code, r.stdout + r.stderr).toBe(0);
  return r;
};
const du = (p: string) => Number(execFileSync("du", ["-sxB1", p], { encoding: "utf8" }).split("\t")[0]);
const branches = () => git(repo, "branch", "--format=%(refname:short)").split("\n").filter(Boolean).sort();
const paths = (list: Array<{ path: string }>) => list.map((x) => x.path).sort();

async function start(title: string, objective: string, extra: Record<string, unknown> = {}) {
  return (await api.tasks.start.mutate({ projectId, agent: "demo", title, objective, ...extra })).task;
}

/** A completed task merged while its worktree was locked: the merge lands, the cleanup fails, the worktree stays. */
async function mergedButLeftOnDisk(title: string) {
  const t = await start(title, `write ${title}.txt ${title}\ncommit add ${title}\nreport completed ${title}`);
  await waitState(api, t.id, "completed");
  git(repo, "worktree", "lock", t.worktreePath!);
  const f = await api.tasks.finish.mutate({ id: t.id, merge: {} });
  expect(f.cleanup.ok).toBe(false);
  git(repo, "worktree", "unlock", t.worktreePath!);
  return t;
}

describe("worktrees page data, yard worktree list and yard gc", () => {
  const t: Record<string, { id: string; worktreePath: string | null; branch: string | null }> = {};
  let stray: string;
  let orphan: string;

  it("lists every kind of worktree with its task, status and a size du agrees with", async () => {
    t.live = await start("live", "sleep 600000");
    t.review = await start("review", "write r.txt r\ncommit add r\nreport completed r");
    t.merged = await start("merged", "write m.txt m\ncommit add m\nreport completed m");
    t.discarded = await start("discarded", "write d.txt d\ncommit add d\nreport completed d");
    await waitState(api, t.live.id, "working");
    for (const k of ["review", "merged", "discarded"]) await waitState(api, t[k]!.id, "completed");
    t.existing = await start("existing", "write e.txt e\ncommit add e\nreport completed e", {
      branch: "feature/existing",
    });
    await waitState(api, t.existing.id, "completed");
    await api.tasks.finish.mutate({ id: t.merged.id, merge: { keepBranch: true } });
    await api.tasks.finish.mutate({ id: t.discarded.id, discard: {} });
    await api.tasks.finish.mutate({ id: t.existing.id, discard: {} });
    t.fin = await mergedButLeftOnDisk("fin");
    t.dirty = await mergedButLeftOnDisk("dirty");
    writeFileSync(path.join(t.dirty.worktreePath!, "notes.txt"), "not committed\n");

    // Leftovers in the data dir's worktree folder: a stray directory, and a worktree no task has.
    const folder = path.dirname(t.live.worktreePath!);
    stray = path.join(folder, "stray");
    mkdirSync(path.join(stray, "deep/er"), { recursive: true });
    writeFileSync(path.join(stray, "deep/er/blob.bin"), Buffer.alloc(1_500_000, 7));
    orphan = path.join(folder, "orphan");
    git(repo, "worktree", "add", "-q", "-b", "orphan-branch", orphan);
    // Changed an hour ago: a leftover changed in the last minutes is kept (a task may be starting in it).
    const hourAgo = new Date(Date.now() - 3_600_000);
    for (const p of [stray, orphan]) utimesSync(p, hourAgo, hourAgo);

    const r = await y(["worktree", "list", "--fresh"]);
    const list = r.json.worktrees as any[];
    const at = (p: string) => list.find((w) => w.path === p);
    expect(at(t.live.worktreePath!)).toMatchObject({ kind: "task", status: "live", task: { id: t.live.id } });
    expect(at(t.review.worktreePath!)).toMatchObject({ status: "live", note: "its task waits for review" });
    expect(at(t.fin.worktreePath!)).toMatchObject({
      status: "finished",
      registered: true,
      task: { id: t.fin.id, disposition: "merged" },
    });
    expect(at(stray)).toMatchObject({ kind: "leftover", status: "leftover", registered: false, task: null });
    expect(at(orphan)).toMatchObject({ kind: "leftover", registered: true, repoPath: repo });
    // Finished and cleaned up: not on the list.
    for (const k of ["merged", "discarded", "existing"]) expect(at(t[k]!.worktreePath!)).toBeUndefined();
    expect(list).toHaveLength(6);

    expect(at(stray).size).toMatchObject({ bytes: du(stray), files: 1, truncated: false });
    expect(at(stray).size.bytes).toBeGreaterThanOrEqual(1_500_000);
    expect(at(t.fin.worktreePath!).size.bytes).toBe(du(t.fin.worktreePath!));
    expect(r.json.totalBytes).toBe(list.reduce((n, w) => n + w.size.bytes, 0));
    expect(Date.now() - Date.parse(r.json.measuredAt)).toBeLessThan(120_000);
    expect(r.json).toMatchObject({ measuring: false, partial: false, budget: null, overBudget: false });

    const text = await yard(server, ["worktree", "list"]);
    expect(text.stdout).toMatch(/STATUS\s+SIZE\s+AGE\s+TASK\s+KIND\s+PATH/);
    expect(text.stdout).toMatch(/Total \d+(\.\d)? [KMG]?B in 6 worktrees \(measured \d+s ago\)/);
  }, 180_000);

  it("keeps everything that is too recent for --older-than", async () => {
    const r = await y(["gc", "--older-than", "7d", "--dry-run"]);
    expect(r.json.removed).toEqual([]);
    const reasons = (r.json.kept as any[]).filter((k) => /within --older-than 7d/.test(k.reason)).map((k) => k.path);
    expect(reasons.sort()).toEqual([orphan, stray, t.fin.worktreePath!, t.dirty.worktreePath!].sort());
  });

  it("removes exactly what its dry run listed, never a live task's or a dirty one, and no branch without --branches", async () => {
    const before = branches();
    const dry = await y(["gc", "--dry-run"]);
    expect(paths(dry.json.removed)).toEqual([orphan, stray, t.fin.worktreePath!].sort());
    const kept = (p: string) => (dry.json.kept as any[]).find((k) => k.path === p);
    expect(kept(t.live.worktreePath!).reason).toMatch(/working/);
    expect(kept(t.review.worktreePath!).reason).toMatch(/review/);
    expect(kept(t.dirty.worktreePath!)).toMatchObject({
      reason: expect.stringMatching(/1 uncommitted file: pass --force/),
      uncommitted: ["notes.txt"],
    });
    expect(dry.json.branches).toEqual({ deleted: [], kept: [] });
    expect(existsSync(stray)).toBe(true); // a dry run changes nothing

    const real = await y(["gc"]);
    expect(paths(real.json.removed)).toEqual(paths(dry.json.removed));
    expect(paths(real.json.kept)).toEqual(paths(dry.json.kept));
    for (const p of [orphan, stray, t.fin.worktreePath!]) expect(existsSync(p)).toBe(false);
    for (const p of [t.live.worktreePath!, t.review.worktreePath!, t.dirty.worktreePath!])
      expect(existsSync(p)).toBe(true);
    expect(git(repo, "worktree", "list")).not.toMatch(/orphan|fin/);
    expect(branches()).toEqual(before); // no branch goes without --branches (orphan-branch included)
    expect(real.json.freedBytes).toBeGreaterThanOrEqual(1_500_000);
    // The finished task's cleanup is recorded: its failed cleanup is cleared.
    expect((await api.tasks.get.query({ id: t.fin.id })).cleanupError).toBeNull();
    const events = await api.tasks.events.query({ id: t.fin.id });
    expect(events.events.at(-1)).toMatchObject({ type: "task.cleanup", payload: { worktreeRemoved: true } });
    await waitFor(async () => !(await api.worktrees.list.query()).worktrees.some((w) => w.path === stray));
  }, 60_000);

  it("with --branches deletes the merged branches it created, and says why it keeps the others", async () => {
    const dry = await y(["gc", "--branches", "--dry-run"]);
    expect(dry.json.removed).toEqual([]);
    const deleted = (dry.json.branches.deleted as any[]).map((b) => b.branch).sort();
    expect(deleted).toEqual([t.fin.branch, t.merged.branch].sort());
    const keptBranch = (b: string | null) => (dry.json.branches.kept as any[]).find((k) => k.branch === b)?.reason;
    expect(keptBranch(t.discarded.branch)).toMatch(/not merged into main/);
    expect(keptBranch(t.dirty.branch)).toMatch(/its worktree .* stays/);
    expect(keptBranch("feature/existing")).toBeUndefined(); // pre-existing: never the clean-up's
    expect(keptBranch("orphan-branch")).toBeUndefined(); // no task created it

    const real = await y(["gc", "--branches"]);
    expect(real.json.branches).toEqual(dry.json.branches);
    const now = branches();
    for (const b of deleted) expect(now).not.toContain(b);
    for (const b of [t.discarded.branch, t.dirty.branch, "feature/existing", "orphan-branch", "main"])
      expect(now).toContain(b);
  }, 60_000);

  it("refuses a live task's worktree even when named and forced; --force removes a dirty one and lists its files", async () => {
    const named = await api.worktrees.gc.mutate({ force: true, paths: [t.live.worktreePath!] });
    expect(named.removed).toEqual([]);
    expect(named.kept).toEqual([
      expect.objectContaining({ path: t.live.worktreePath, reason: expect.stringMatching(/working/) }),
    ]);

    const forced = await y(["gc", "--force"]);
    expect(forced.json.removed).toEqual([
      expect.objectContaining({
        path: t.dirty.worktreePath,
        uncommitted: ["notes.txt"],
        task: { id: t.dirty.id, title: "dirty" },
      }),
    ]);
    expect(existsSync(t.dirty.worktreePath!)).toBe(false);
    expect(existsSync(t.live.worktreePath!)).toBe(true);
    const list = (await y(["worktree", "list", "--fresh"])).json.worktrees as any[];
    expect(paths(list)).toEqual([t.live.worktreePath!, t.review.worktreePath!].sort());
    await api.tasks.cancel.mutate({ id: t.live.id });
  }, 60_000);

  it("a path a finished task had and a live task works in now is the live task's, never removed", async () => {
    const p = path.join(dirs.tmp(), "shared-wt");
    const first = await start("first", "write x.txt x\ncommit add x\nreport completed x", { path: p });
    await waitState(api, first.id, "completed");
    await api.tasks.finish.mutate({ id: first.id, discard: {} });
    const second = await start("second", "sleep 600000", { path: p });
    await waitState(api, second.id, "working");
    const list = (await api.worktrees.list.query()).worktrees.filter((w) => w.path === second.worktreePath);
    expect(list).toEqual([
      expect.objectContaining({ status: "live", task: expect.objectContaining({ id: second.id }) }),
    ]);
    const dry = await api.worktrees.gc.mutate({ dryRun: true, force: true });
    expect(paths(dry.removed)).not.toContain(second.worktreePath);
    await api.tasks.cancel.mutate({ id: second.id });
  }, 60_000);

  it("the disk budget setting: over or under the total, announced when it crosses", async () => {
    const low = await y(["worktree", "budget", "1KB"]);
    expect(low.json).toMatchObject({ budget: { bytes: 1024, text: "1KB", source: "setting" }, overBudget: true });
    const text = await yard(server, ["worktree", "budget"]);
    expect(text.stdout).toMatch(/Disk budget 1\.0 KB \(setting\); worktrees use .*: over budget/);
    const high = await y(["worktree", "budget", "20GB"]);
    expect(high.json).toMatchObject({ budget: { bytes: 20 * 1024 ** 3 }, overBudget: false });
    expect((await yard(server, ["--json", "worktree", "budget", "lots"])).code).toBe(1);
    const off = await y(["worktree", "budget", "off"]);
    expect(off.json).toMatchObject({ budget: null, overBudget: false });
    const announced = await api.events.list.query({ type: "worktrees.usage" });
    expect(announced.events.some((e) => e.payload.overBudget === true && e.payload.budgetBytes === 1024)).toBe(true);
  });
});
