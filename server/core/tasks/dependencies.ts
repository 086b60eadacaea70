// Task dependencies: which tasks a task waits for, the rules for "met" and "stuck", cycle checks,
// and the scheduler that starts a waiting backlog task by itself once every dependency is met.
//
// A dependency is met when it is merged (the default: the dependent's base, resolved when it
// starts, then includes the dependency's work) or, with `completed`, when it completed. A
// dependency that failed, was canceled, rejected or discarded is stuck: its dependents keep
// waiting with that reason and are never started on a base without its work. The scheduler
// reacts to task.state and task.finished events, retries starts the concurrency cap refused when
// any task settles, and sweeps every waiting task once at start-up (so nothing is lost across a
// restart: the rows are the truth, the scheduler keeps no state of its own that matters).
import type { z } from "zod";
import type { waiting } from "../../wire/orchestration";
import { YardError } from "../errors";
import type { EventJournal, YardEvent } from "../events/journal";
import type { AutoStartWhen, DependencyRow, DependencyStore } from "../../stores/dependencies";

export type { AutoStartWhen } from "../../stores/dependencies";
/** Most dependencies one task may have. */
const MAX_DEPENDENCIES = 32;

/** One dependency and whether it is met (or why it never can be), as the wire carries it. */
export type DependencyStatus = Waiting["dependencies"][number];
/** What a task waits for (server/wire/orchestration.ts). */
export type Waiting = z.infer<typeof waiting>;

/** Whether one dependency is met under the rule, or why it is stuck. Pure. */
export function dependencyStatus(
  d: Pick<DependencyRow, "dependsOnId" | "title" | "state" | "disposition">,
  when: AutoStartWhen,
): DependencyStatus {
  const merged = d.disposition === "merged";
  const met = when === "merged" ? merged : d.state === "completed" && d.disposition !== "discarded";
  let stuck: string | null = null;
  if (!met) {
    if (d.disposition === "discarded") stuck = "discarded";
    else if (d.state === "failed" || d.state === "canceled" || d.state === "rejected") stuck = d.state;
  }
  return { id: d.dependsOnId, title: d.title, state: d.state, disposition: d.disposition, met, stuck };
}

/** A task's whole waiting status from its dependency rows. Pure. */
export function waitingStatus(
  deps: Array<Pick<DependencyRow, "dependsOnId" | "title" | "state" | "disposition">>,
  when: AutoStartWhen,
): Waiting {
  const dependencies = deps.map((d) => dependencyStatus(d, when));
  const stuck = dependencies.filter((d) => d.stuck);
  const open = dependencies.filter((d) => !d.met && !d.stuck);
  let reason: string | null = null;
  if (stuck.length)
    reason = `Blocked: ${stuck.map((d) => `${d.id} was ${d.stuck}`).join(", ")}; it will not start on a base without that work (remove the dependency to go on)`;
  else if (open.length) reason = `Waits for ${open.map((d) => d.id).join(", ")} to be ${when}`;
  return { ready: dependencies.every((d) => d.met), dependencies, reason };
}

/**
 * The cycle that adding `taskId → dependsOn` edges would close, as a path of ids starting and
 * ending at taskId; null when there is none. Pure.
 */
export function findCycle(
  edges: Array<{ taskId: string; dependsOnId: string }>,
  taskId: string,
  dependsOn: string[],
): string[] | null {
  const next = new Map<string, string[]>();
  for (const e of edges) next.set(e.taskId, [...(next.get(e.taskId) ?? []), e.dependsOnId]);
  for (const start of dependsOn) {
    if (start === taskId) return [taskId, taskId];
    // Depth-first from the new dependency along "depends on" edges: reaching taskId closes a cycle.
    const stack: Array<{ id: string; path: string[] }> = [{ id: start, path: [taskId, start] }];
    const seen = new Set<string>();
    while (stack.length) {
      const { id, path } = stack.pop()!;
      if (seen.has(id)) continue;
      seen.add(id);
      for (const n of next.get(id) ?? []) {
        if (n === taskId) return [...path, taskId];
        stack.push({ id: n, path: [...path, n] });
      }
    }
  }
  return null;
}

export interface DependencySchedulerDeps {
  store: DependencyStore;
  journal: EventJournal;
  /** Starts a backlog task (the task engine's one start path). */
  startBacklog: (taskId: string) => Promise<unknown>;
}

export class TaskDependencies {
  private unsubscribe: (() => void) | null = null;
  /** Ready tasks whose start the concurrency cap refused: retried when any task settles. */
  private readonly deferred = new Set<string>();
  /** Evaluations run one at a time, so one task is never started twice. */
  private chain: Promise<unknown> = Promise.resolve();

  constructor(private readonly deps: DependencySchedulerDeps) {}

  /**
   * Checks the dependencies a new or backlog task would get: each exists, is in the same
   * repository, and no cycle forms. Throws BAD_PARAMS / NOT_FOUND / CONFLICT; changes nothing.
   */
  async check(taskId: string | null, repoPath: string, dependsOn: string[]): Promise<void> {
    const ids = [...new Set(dependsOn)];
    if (ids.length > MAX_DEPENDENCIES)
      throw new YardError("BAD_PARAMS", `A task may depend on at most ${MAX_DEPENDENCIES} tasks`, {
        count: ids.length,
      });
    const found = await this.deps.store.tasksByIds(ids);
    for (const id of ids) {
      const t = found.get(id);
      if (!t) throw new YardError("NOT_FOUND", `No task ${id} to depend on`, { taskId: id });
      if (t.repoPath !== repoPath)
        throw new YardError(
          "BAD_PARAMS",
          `${id} works on another repository (${t.repoPath}); dependencies must share the repository`,
          { taskId: id, repoPath: t.repoPath },
        );
    }
    if (taskId) {
      const cycle = findCycle(await this.deps.store.edgesInRepo(repoPath), taskId, ids);
      if (cycle) throw new YardError("CONFLICT", `That dependency would make a cycle: ${cycle.join(" → ")}`, { cycle });
    }
  }

  /** The waiting status a task depending on `ids` would have now (before it exists). */
  async preview(ids: string[], when: AutoStartWhen): Promise<Waiting> {
    const found = await this.deps.store.tasksByIds([...new Set(ids)]);
    return waitingStatus(
      [...found.values()].map((t) => ({
        dependsOnId: t.id,
        title: t.title,
        state: t.state,
        disposition: t.disposition,
      })),
      when,
    );
  }

  /** Records the edges (already checked) and the auto-start rule, then starts the task if it is ready. */
  async add(taskId: string, dependsOn: string[], when: AutoStartWhen | null): Promise<void> {
    await this.deps.store.add(taskId, [...new Set(dependsOn)], when);
    await this.deps.journal.append("task.dependencies", {
      taskId,
      payload: { added: [...new Set(dependsOn)], autoStartWhen: when },
    });
  }

  async remove(taskId: string, dependsOnId: string): Promise<boolean> {
    const removed = await this.deps.store.remove(taskId, dependsOnId);
    if (removed) await this.deps.journal.append("task.dependencies", { taskId, payload: { removed: [dependsOnId] } });
    return removed;
  }

  /**
   * `yard task depend ID --on OTHER [--remove]`: adds a dependency to a task that has not started
   * (it then starts by itself once all are met) or removes one. Answers the task's waiting
   * status after the change, and whether the change started it.
   */
  async depend(
    taskId: string,
    on: string,
    opts: { remove: boolean; startWhen?: AutoStartWhen },
  ): Promise<{ id: string; startWhen: AutoStartWhen | null; waiting: Waiting; started: boolean }> {
    const t = (await this.deps.store.tasksByIds([taskId])).get(taskId);
    if (!t) throw new YardError("NOT_FOUND", `No task ${taskId}`, { taskId });
    if (opts.remove) {
      if (!(await this.remove(taskId, on)))
        throw new YardError("NOT_FOUND", `${taskId} does not depend on ${on}`, { taskId, on });
    } else {
      if (t.state !== "backlog")
        throw new YardError(
          "CONFLICT",
          `Only a task that has not started can wait for another; ${taskId} is ${t.state}`,
          { state: t.state },
        );
      await this.check(taskId, t.repoPath, [on]);
      await this.add(taskId, [on], opts.startWhen ?? (await this.deps.store.autoStartWhen(taskId)) ?? "merged");
    }
    this.schedule(taskId);
    await this.idle();
    const after = (await this.deps.store.tasksByIds([taskId])).get(taskId)!;
    return {
      id: taskId,
      startWhen: await this.deps.store.autoStartWhen(taskId),
      waiting: await this.waiting(taskId),
      started: t.state === "backlog" && after.state !== "backlog",
    };
  }

  /** What a task waits for (the rule defaults to merged for tasks started by hand). */
  async waiting(taskId: string): Promise<Waiting> {
    const when = (await this.deps.store.autoStartWhen(taskId)) ?? "merged";
    return waitingStatus(await this.deps.store.dependenciesOf(taskId), when);
  }

  /** The waiting status of many tasks at once (the board); tasks without dependencies are absent. */
  async waitingMany(
    tasks: Array<{ id: string; autoStartWhen: AutoStartWhen | null }>,
    projectId?: string,
  ): Promise<Map<string, Waiting>> {
    const rows = await this.deps.store.dependenciesOfMany(
      tasks.map((t) => t.id),
      projectId,
    );
    const out = new Map<string, Waiting>();
    for (const t of tasks) {
      const deps = rows.get(t.id);
      if (deps?.length) out.set(t.id, waitingStatus(deps, t.autoStartWhen ?? "merged"));
    }
    return out;
  }

  /** Follows the journal; sweeps every waiting task once (call after the engine recovered). */
  async attach(): Promise<void> {
    this.unsubscribe = this.deps.journal.subscribe((e) => this.onEvent(e));
    for (const t of await this.deps.store.autoStartBacklog()) this.schedule(t.id);
    await this.idle();
  }

  detach(): void {
    this.unsubscribe?.();
    this.unsubscribe = null;
  }

  /** Resolves when every evaluation queued so far has run (tests, shutdown). */
  idle(): Promise<void> {
    return this.chain.then(() => undefined);
  }

  /** Evaluates one task now (after its dependencies changed). */
  schedule(taskId: string): void {
    const run = () => this.evaluate(taskId).catch(() => {});
    this.chain = this.chain.then(run, run);
  }

  private onEvent(e: YardEvent): void {
    if (!e.taskId) return;
    if (e.type === "task.state" || e.type === "task.finished") {
      const taskId = e.taskId;
      const run = async () => {
        for (const id of await this.deps.store.waitingDependents(taskId)) await this.evaluate(id);
        // A task settled: the cap may have room for a start it refused before.
        for (const id of [...this.deferred]) await this.evaluate(id);
      };
      this.chain = this.chain.then(run, run).catch(() => {});
    }
  }

  private async evaluate(taskId: string): Promise<void> {
    const when = await this.deps.store.autoStartWhen(taskId);
    const t = (await this.deps.store.tasksByIds([taskId])).get(taskId);
    if (!when || !t || t.state !== "backlog") {
      this.deferred.delete(taskId);
      return;
    }
    const w = waitingStatus(await this.deps.store.dependenciesOf(taskId), when);
    if (!w.ready) return;
    try {
      await this.deps.startBacklog(taskId);
      this.deferred.delete(taskId);
      await this.deps.journal.append("task.auto_started", {
        taskId,
        payload: { dependencies: w.dependencies.map((d) => d.id), when },
      });
    } catch (e) {
      if (e instanceof YardError && e.code === "RATE_LIMITED") {
        this.deferred.add(taskId);
        return;
      }
      this.deferred.delete(taskId);
      const err =
        e instanceof YardError ? { code: e.code, message: e.message } : { code: "INTERNAL", message: String(e) };
      await this.deps.journal.append("task.auto_start_failed", { taskId, payload: err });
    }
  }
}
