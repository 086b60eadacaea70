// Git between the board's repository and a runner's clone of it, as git bundles over the SSH
// channel (kit-scripts.ts has the runner's end): the board's branches go there before a task's
// worktree is made from its recorded base commit, and the task's branch comes back into the board's
// repository under refs/switchyard/runner/<task> (what review, diff and merge read). What comes
// back was written by an agent: it is fetched with object checks on, and only when it descends
// from the task's base.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { YardError } from "../errors";
import { runGit, validateBranchName } from "../git";
import { gitBundleCommand, gitDropCommand, gitReceiveCommand, gitWorktreeCommand } from "./kit-scripts";
import { exec, type SshTarget, sshArgv, sshFailure } from "./ssh";

export interface RunnerGitTask {
  projectId: string;
  taskId: string;
  branch: string;
  baseSha: string;
}

export class RunnerGit {
  constructor(private readonly opts: { target: SshTarget; where: string; repo: string }) {}

  private async ssh(remote: string[], input?: Buffer): Promise<{ stdout: string; raw: Buffer }> {
    const run = await exec("ssh", sshArgv(this.opts.target, remote), { timeoutMs: 600_000, input, binary: true });
    const failed = sshFailure(run, this.opts.where);
    if (failed) throw failed;
    if (run.code !== 0)
      throw new YardError(
        "GIT_FAILED",
        `${this.opts.where}: git there failed (${run.stderr.trim().split("\n").at(-1) ?? `exit ${run.code}`})`,
      );
    return { stdout: run.stdout, raw: run.raw ?? Buffer.from(run.stdout) };
  }

  /** Sends the board's branches to the runner's clone of the project (refs/board/heads/*). */
  async sync(projectId: string): Promise<void> {
    const dir = mkdtempSync(path.join(os.tmpdir(), "yard-runner-git-"));
    try {
      const file = path.join(dir, "board.bundle");
      await runGit(["bundle", "create", "-q", file, "--branches"], { cwd: this.opts.repo });
      await this.ssh(gitReceiveCommand(projectId), readFileSync(file));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }

  /** The task's worktree on the runner: its branch made at the recorded base commit. Returns its path there. */
  async prepare(t: RunnerGitTask): Promise<{ path: string; head: string }> {
    await validateBranchName(t.branch);
    if (!/^[0-9a-f]{40}$/.test(t.baseSha)) throw new YardError("BAD_PARAMS", "the base must be a full commit id");
    await this.sync(t.projectId);
    const out = await this.ssh(gitWorktreeCommand(t.projectId, t.taskId, t.branch, t.baseSha));
    return JSON.parse(out.stdout) as { path: string; head: string };
  }

  /** Removes a finished task's worktree, branch and snapshot there (what came back stays here). */
  async drop(t: RunnerGitTask): Promise<void> {
    await validateBranchName(t.branch);
    await this.ssh(gitDropCommand(t.projectId, t.taskId, t.branch));
  }

  /**
   * Brings the task's branch back into the board's repository as refs/switchyard/runner/<task>, and
   * a snapshot of its worktree there (uncommitted files too) as refs/switchyard/runner/<task>-worktree;
   * returns both commits, and whether either the branch or the snapshot's files differ from what
   * came back before. Refused when either does not descend from the base (rewritten history is
   * not the task's work).
   */
  async collect(t: RunnerGitTask): Promise<{ commit: string; worktree: string; ref: string; changed: boolean }> {
    await validateBranchName(t.branch);
    const ref = `refs/switchyard/runner/${t.taskId}`;
    const snapRef = `${ref}-worktree`;
    const out = await this.ssh(gitBundleCommand(t.projectId, t.branch, t.baseSha, t.taskId));
    const dir = mkdtempSync(path.join(os.tmpdir(), "yard-runner-git-"));
    const incoming = [`${ref}.incoming`, `${snapRef}.incoming`];
    try {
      const file = path.join(dir, "task.bundle");
      writeFileSync(file, out.raw, { mode: 0o600 });
      // A branch still at its base is left out of the bundle (nothing of it is new): it is the base.
      const heads = await runGit(["bundle", "list-heads", file], { cwd: this.opts.repo, allowFail: true });
      const hasBranch = heads.stdout.split("\n").some((l) => l.endsWith(` refs/heads/${t.branch}`));
      const fetched = await runGit(
        // The file transport only for this bundle of ours (the safe config turns it off for all else).
        [
          "-c",
          "protocol.file.allow=always",
          "-c",
          "transfer.fsckObjects=true",
          "fetch",
          "-q",
          "--no-tags",
          file,
          ...(hasBranch ? [`+refs/heads/${t.branch}:${incoming[0]}`] : []),
          `+refs/switchyard/worktree/${t.taskId}:${incoming[1]}`,
        ],
        { cwd: this.opts.repo, allowFail: true },
      );
      if (fetched.code !== 0)
        throw new YardError(
          "CONFLICT",
          `${this.opts.where}: the task's branch did not come back (${fetched.stderr.trim()})`,
        );
      const [commit, worktree] = await Promise.all(
        incoming.map(async (r, i) =>
          i === 0 && !hasBranch
            ? t.baseSha
            : (await runGit(["rev-parse", "--verify", `${r}^{commit}`], { cwd: this.opts.repo })).stdout.trim(),
        ),
      );
      for (const c of [commit!, worktree!]) {
        const descends = await runGit(["merge-base", "--is-ancestor", t.baseSha, c], {
          cwd: this.opts.repo,
          allowFail: true,
        });
        if (descends.code !== 0)
          throw new YardError(
            "CONFLICT",
            `${this.opts.where}: the task's branch ${t.branch} no longer descends from its base ${t.baseSha.slice(0, 12)}: not taken`,
            { commit: c },
          );
      }
      // A snapshot is a new commit at every collect: its tree says whether the files changed.
      const [before, beforeTree, tree] = await Promise.all(
        [`${ref}^{commit}`, `${snapRef}^{tree}`, `${worktree}^{tree}`].map(async (r) =>
          (await runGit(["rev-parse", "-q", "--verify", r], { cwd: this.opts.repo, allowFail: true })).stdout.trim(),
        ),
      );
      await runGit(["update-ref", ref, commit!], { cwd: this.opts.repo });
      await runGit(["update-ref", snapRef, worktree!], { cwd: this.opts.repo });
      return { commit: commit!, worktree: worktree!, ref, changed: before !== commit || beforeTree !== tree };
    } finally {
      for (const r of incoming)
        await runGit(["update-ref", "-d", r], { cwd: this.opts.repo, allowFail: true }).catch(() => {});
      rmSync(dir, { recursive: true, force: true });
    }
  }
}
