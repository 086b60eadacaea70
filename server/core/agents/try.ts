// "Try it" for an agent profile: spawns the profile in a scratch pane (an empty folder under the
// data dir, or a folder the caller names) and reports whether the agent became ready and, if not,
// which start-up dialog it stopped at, with the screen. A trial pane is stopped after TRY_TTL_MS
// (or by panes.kill) and its scratch folder removed when it exits.
import { mkdirSync, rmSync } from "node:fs";
import path from "node:path";
import type { z } from "zod";
import type { trialStatus } from "../../wire/projects";
import { YardError } from "../errors";
import { newId } from "../ids";
import type { PaneInfo, PaneManager } from "../panes/manager";
import type { AgentProfiles } from "./profiles";

const TRY_TTL_MS = 5 * 60_000;

interface Trial {
  paneId: string;
  profileId: string;
  startedAt: number;
  readyAt: number | null;
  scratch: string | null;
  timer: NodeJS.Timeout;
}

/** Did the trial agent get ready, or which start-up dialog does it wait at (server/wire/projects.ts). */
export type TrialStatus = z.infer<typeof trialStatus>;

export class AgentTrials {
  private readonly trials = new Map<string, Trial>();

  constructor(
    private readonly deps: {
      panes: Pick<PaneManager, "spawn" | "attach" | "kill" | "get" | "read">;
      agents: AgentProfiles;
      home: string;
      ttlMs?: number;
    },
  ) {}

  async try(input: { id: string; cwd?: string }): Promise<{ paneId: string }> {
    const profile = await this.deps.agents.get(input.id);
    if (profile.sandbox)
      throw new YardError(
        "BAD_PARAMS",
        `${profile.id} runs in the OS sandbox, which needs a task's worktree: try it with a task (yard task start --agent ${profile.id})`,
        { id: profile.id },
      );
    let scratch: string | null = null;
    let cwd = input.cwd;
    if (!cwd) {
      scratch = path.join(this.deps.home, "scratch", `try-${profile.id}-${newId("agt").slice(3)}`);
      mkdirSync(scratch, { recursive: true, mode: 0o700 });
      cwd = scratch;
    }
    let pane: PaneInfo;
    try {
      pane = await this.deps.panes.spawn({ agent: profile.id, cwd, label: `Try ${profile.id}` });
    } catch (e) {
      if (scratch) rmSync(scratch, { recursive: true, force: true });
      throw e;
    }
    const trial: Trial = {
      paneId: pane.id,
      profileId: profile.id,
      startedAt: Date.parse(pane.createdAt) || Date.now(),
      readyAt: null,
      scratch,
      timer: setTimeout(() => void this.deps.panes.kill(pane.id).catch(() => {}), this.deps.ttlMs ?? TRY_TTL_MS),
    };
    trial.timer.unref();
    this.trials.set(pane.id, trial);
    await this.deps.panes.attach(pane.id, {
      lifecycle: (info) => {
        if (info.lifecycle === "idle" && trial.readyAt === null) trial.readyAt = Date.now();
      },
      exit: () => {
        clearTimeout(trial.timer);
        if (trial.scratch) rmSync(trial.scratch, { recursive: true, force: true });
      },
    });
    return { paneId: pane.id };
  }

  async status(paneId: string): Promise<TrialStatus> {
    const trial = this.trials.get(paneId);
    if (!trial)
      throw new YardError("NOT_FOUND", `No trial pane ${paneId} (trials are kept until the server restarts)`, {
        paneId,
      });
    const info = await this.deps.panes.get(paneId);
    const screen = await this.deps.panes.read(paneId, { mode: "screen" }).then(
      (r) => r.text.replace(/\s+$/, ""),
      () => "",
    );
    if (
      trial.readyAt === null &&
      (info.lifecycle === "idle" || info.lifecycle === "working" || info.lifecycle === "done")
    )
      trial.readyAt = Date.now();
    return {
      paneId,
      profileId: trial.profileId,
      lifecycle: info.lifecycle,
      ready: trial.readyAt !== null,
      readyAfterMs: trial.readyAt === null ? null : trial.readyAt - trial.startedAt,
      dialog: info.dialog,
      exited: !info.live,
      exitCode: info.exitCode,
      screen,
    };
  }
}
