// The host's git against a sandboxed agent playing the attacker, end to end: the real server,
// real bwrap, a real pane whose program plants what it can for the host's git to run, follow or
// block on (a committed nested repository with an fsmonitor, includeIf and sshCommand; drivers
// named by .gitattributes; hooks in its git dir and in a relative hooks path the person's config
// uses; its branch's and HEAD's reflogs replaced by links to a host file; a FIFO for its index),
// then reports. The person diffs, approves and merges through the API: no planted program ever
// runs on the host (each would create a file in a directory the sandbox cannot write), the host
// file stays as it was, and the merge lands. The same holds for the turn snapshot taken when the
// agent is stopped and a revert of its turn. server/core/git/agent-data.test.ts covers each
// vector against the git layer alone.
import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { adminClient } from "./helpers/client";
import { git, makeRepo } from "./helpers/git";
import { startTestServer, type TestServer } from "./helpers/server";
import { waitFor } from "./helpers/wait";

vi.setConfig({ testTimeout: 120_000 });

// Outside /tmp, which the sandbox replaces with an empty one.
const base = mkdtempSync("/var/tmp/yard-agent-git-");
let server: TestServer;
let api: ReturnType<typeof adminClient>;

beforeAll(async () => {
  mkdirSync(path.join(base, "home"));
  server = await startTestServer({ home: path.join(base, "home") });
  api = adminClient(server);
});
afterAll(async () => {
  await server?.dispose();
  rmSync(base, { recursive: true, force: true });
});

const repoIn = (dir: string) => makeRepo("repo-", dir);

// $1: the marks directory (read-only inside); $2: the host file to aim links at. Every planted
// program would touch a file in $1: only the host could, since the sandbox sees $1 read-only.
const ATTACK = String.raw`
M="$1"; VICTIM="$2"
T() { printf "touch %s/%s" "$M" "$1"; }
ID="-c user.name=Agent -c user.email=agent@example.com -c core.hooksPath=/dev/null"
{
git init -q sub && git -C sub $ID commit -q --allow-empty -m inner
printf '[core]\n\tfsmonitor = %s\n' "$(T include)" > "$TMPDIR/evil.cfg"
printf '[core]\n\tfsmonitor = %s\n\tsshCommand = %s\n[includeIf "gitdir:/"]\n\tpath = %s\n' "$(T fsmonitor)" "$(T ssh)" "$TMPDIR/evil.cfg" >> sub/.git/config
printf '* diff=evil filter=evil merge=evil\n' > .gitattributes
for f in sub/.git/config .gitconfig "$HOME/.gitconfig"; do
  git config -f "$f" diff.evil.textconv "$(T textconv)"; git config -f "$f" filter.evil.clean "$(T clean)"
  git config -f "$f" filter.evil.smudge "$(T smudge)"; git config -f "$f" merge.evil.driver "$(T mergedriver)"
done
git config diff.evil.textconv "$(T repoconfig)" 2>/dev/null || echo "repo config is read-only"
GD=$(git rev-parse --absolute-git-dir); CD=$(cd "$(git rev-parse --git-common-dir)" && pwd)
mkdir -p "$GD/hooks" .husky
for h in pre-merge-commit post-merge reference-transaction post-checkout post-commit pre-commit commit-msg; do
  printf '#!/bin/sh\n%s\n' "$(T "hook-$h")" > "$GD/hooks/$h"; cp "$GD/hooks/$h" ".husky/$h"; chmod +x "$GD/hooks/$h" ".husky/$h"
done
echo work > work.txt
git add -A && git $ID commit -q -m planted
for log in logs/refs/heads/main logs/HEAD; do rm -f "$CD/$log"; ln -s "$VICTIM" "$CD/$log" && echo "linked $log"; done
rm -f "$GD/index"; mkfifo "$GD/index" && echo "index is a fifo"
echo planted
} > "$TMPDIR/attack.out" 2>&1
yard task report --status completed --summary planted > "$TMPDIR/report.out" 2>&1
exec sleep 600
`;

describe("a sandboxed agent attacking the host's git", () => {
  it("plants programs, links and a FIFO; diff, approval and merge run none of them and write through none", async () => {
    const repo = repoIn(base);
    // The person's repository keeps its hooks in the checkout, as husky sets up.
    git(repo, "config", "core.hooksPath", ".husky");
    const marks = path.join(base, "marks");
    mkdirSync(marks);
    const victim = path.join(base, "victim.txt");
    writeFileSync(victim, "a host file\n");
    const hostLog = path.join(repo, ".git/logs/refs/heads/main");
    const hostLogBefore = readFileSync(hostLog, "utf8");

    const { task } = await api.tasks.start.mutate({
      repoPath: repo,
      objective: "attack the host's git",
      sandbox: true,
      argv: ["sh", "-c", ATTACK, "attack", marks, victim],
    });
    expect(task.sandboxed).toBe(true);
    const done = await api.tasks.wait.query({ id: task.id, until: "terminal", timeoutMs: 60_000 });
    expect(done.tasks[0]).toMatchObject({ state: "completed" });
    const out = await waitFor(
      () => {
        const f = path.join(server.home, "sandbox", task.id, "tmp/attack.out");
        const t = existsSync(f) ? readFileSync(f, "utf8") : "";
        return t.includes("planted") ? t : null;
      },
      { what: "the attack's log" },
    );
    // Inside, every plant took (the links went into the sandbox's own reflogs); the repository's config did not.
    expect(out).toContain("repo config is read-only");
    expect(out).toContain("linked logs/refs/heads/main");
    expect(out).toContain("linked logs/HEAD");
    expect(out).toContain("index is a fifo");

    // The host's reflogs are the real ones, untouched by the agent's links.
    expect(lstatSync(hostLog).isFile()).toBe(true);
    expect(readFileSync(hostLog, "utf8")).toBe(hostLogBefore);

    const diff = await api.tasks.diff.query({ id: task.id });
    expect(diff.files.map((f) => f.path)).toEqual(
      expect.arrayContaining(["sub", "work.txt", ".gitattributes", ".husky/post-merge"]),
    );
    await api.reviews.submit.mutate({ taskId: task.id, verdict: "approve" });
    const finished = await api.tasks.finish.mutate({ id: task.id, merge: {} });
    expect(finished.task.disposition).toBe("merged");

    expect(readdirSync(marks)).toEqual([]);
    expect(readFileSync(victim, "utf8")).toBe("a host file\n");
    expect(readFileSync(path.join(repo, "work.txt"), "utf8")).toBe("work\n");
    expect(existsSync(path.join(repo, ".husky/post-merge"))).toBe(true); // checked out, never run
    expect(existsSync(path.join(repo, ".git/MERGE_HEAD"))).toBe(false);
    expect(lstatSync(hostLog).isFile()).toBe(true);
    expect(readFileSync(hostLog, "utf8").startsWith(hostLogBefore)).toBe(true);
    expect(git(repo, "log", "-1", "--format=%P").split(" ")).toHaveLength(2);
  });

  it("the turn snapshot and a revert to the base run none of them and write through none", async () => {
    const repo = repoIn(base);
    git(repo, "config", "core.hooksPath", ".husky");
    const marks = path.join(base, "marks-turns");
    mkdirSync(marks);
    const victim = path.join(base, "victim-turns.txt");
    writeFileSync(victim, "a host file\n");
    const { task, pane } = await api.tasks.start.mutate({
      repoPath: repo,
      objective: "attack the host's git",
      sandbox: true,
      argv: ["sh", "-c", ATTACK, "attack", marks, victim],
    });
    await api.tasks.wait.query({ id: task.id, until: "terminal", timeoutMs: 60_000 });
    // The agent gone, its worktree is snapshotted (through a private index: its own is a FIFO).
    await api.panes.kill.mutate({ id: pane!.id });
    const [turn] = await waitFor(
      async () => {
        const { turns } = await api.tasks.turns.query({ id: task.id });
        return turns.length ? turns : null;
      },
      { what: "the turn's snapshot" },
    );
    expect(git(repo, "ls-tree", "--name-only", turn!.commit).split("\n")).toEqual(
      expect.arrayContaining(["sub", "work.txt", ".gitattributes", ".husky"]),
    );

    // Back to the base: the checkout of the restored files names the planted drivers, never runs them.
    const reverted = await api.tasks.revertTurn.mutate({ id: task.id, turn: 1 });
    expect(reverted.files.map((f) => f.path)).toEqual(expect.arrayContaining(["work.txt", ".gitattributes"]));
    expect(existsSync(path.join(task.worktreePath!, "work.txt"))).toBe(false);
    expect(readdirSync(marks)).toEqual([]);
    expect(readFileSync(victim, "utf8")).toBe("a host file\n");
  });

  it("Update branch on the planted worktree runs none of them and writes through none", async () => {
    const repo = repoIn(base);
    git(repo, "config", "core.hooksPath", ".husky");
    const marks = path.join(base, "marks-update");
    mkdirSync(marks);
    const victim = path.join(base, "victim-update.txt");
    writeFileSync(victim, "a host file\n");
    const { task, pane } = await api.tasks.start.mutate({
      repoPath: repo,
      objective: "attack the host's git",
      sandbox: true,
      argv: ["sh", "-c", ATTACK, "attack", marks, victim],
    });
    await api.tasks.wait.query({ id: task.id, until: "terminal", timeoutMs: 60_000 });
    await api.panes.kill.mutate({ id: pane!.id });
    // main moves on, touching the file the agent's .gitattributes hands to its merge driver.
    writeFileSync(path.join(repo, "work.txt"), "from main\n");
    git(repo, "add", "work.txt");
    git(repo, "commit", "-qm", "main: work");
    const mainHead = git(repo, "rev-parse", "HEAD");
    const update = () =>
      api.tasks.update.mutate({ id: task.id }).then(
        (r) => r.update.outcome as string,
        (e: { data?: { yard?: { code?: string; details?: unknown } } }) =>
          `${e.data?.yard?.code} ${JSON.stringify(e.data?.yard?.details)}`,
      );
    // The worktree's index is a FIFO: refused before git reads it.
    expect(await update()).toMatch(/^CONFLICT .*"found":"not a file"/);
    // With a real index again (the person's own git rebuilds it), the merge runs: main and the
    // agent both changed work.txt, with no agent left to resolve it, so it is aborted and named;
    // the merge driver the agent's .gitattributes names is never looked up in its configs.
    const wt = task.worktreePath!;
    const gitDir = git(wt, "rev-parse", "--absolute-git-dir");
    rmSync(path.join(gitDir, "index"));
    git(wt, "read-tree", "HEAD");
    expect(await update()).toMatch(/^CONFLICT .*"files":\["work.txt"\].*"aborted":true/);
    expect(readdirSync(marks)).toEqual([]);
    expect(readFileSync(victim, "utf8")).toBe("a host file\n");
    expect(git(repo, "rev-parse", "HEAD")).toBe(mainHead); // the person's checkout is not touched
    expect(git(repo, "status", "--porcelain")).toBe("");
  });
});
