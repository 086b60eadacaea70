// Ports held by tasks: a start's block reserved under the start lock (in memory until its task's
// config is recorded, so two starts never pick the same ports), released when the task is finished
// or canceled (and, after a restart, for tasks finished meanwhile), given back to a resumed task
// (its old ports when they are still free); the environment later spawns of a task get from its
// record; the TaskView's `setup` field, and `tasks.ports` (which ports something listens on).
import type { EffectiveConfig, TaskSetupView, TeardownResult } from "../../wire/repo-config";
import { DEFAULT_PORT_RANGE, listening, pickPorts } from "../repo/ports";
import type { TaskSetupRow } from "../../stores/task-setup";
import { type EngineState, json, taskRow } from "./engine-state";

/**
 * What the agent's (and its setup's) environment gets for a task with a config. `checkout`: the
 * board's main checkout, null for a task on a runner (a path on this machine, not there).
 */
export function setupEnv(ports: readonly number[], checkout: string | null): Record<string, string> {
  const env: Record<string, string> = checkout ? { YARD_MAIN_CHECKOUT: checkout } : {};
  if (ports.length) {
    env.PORT = String(ports[0]);
    env.YARD_PORTS = ports.join(",");
  }
  return env;
}

const reservedOf = new WeakMap<EngineState, Set<number>>();
function reserved(eng: EngineState): Set<number> {
  let s = reservedOf.get(eng);
  if (!s) reservedOf.set(eng, (s = new Set()));
  return s;
}

async function held(eng: EngineState): Promise<Set<number>> {
  return new Set([...(await eng.deps.setups!.heldPorts()), ...reserved(eng)]);
}

/** `count` ports no task holds and nothing listens on, reserved until unreserve (the start lock is held). */
export async function reservePorts(eng: EngineState, count: number, prefer: readonly number[] = []): Promise<number[]> {
  const ports = await pickPorts(count, eng.deps.portRange ?? DEFAULT_PORT_RANGE, await held(eng), { prefer });
  for (const p of ports) reserved(eng).add(p);
  return ports;
}

export function unreserve(eng: EngineState, ports: readonly number[]): void {
  for (const p of ports) reserved(eng).delete(p);
}

/** The task's ports go back to the pool (finished or canceled); journaled once. */
export async function releasePorts(eng: EngineState, taskId: string): Promise<void> {
  const store = eng.deps.setups;
  if (!store) return;
  const row = await store.row(taskId);
  if (!row || row.portsReleasedAt || row.ports === "[]") return;
  if (await store.releasePorts(taskId))
    await eng.deps.journal.append("task.ports", { taskId, payload: { ports: json(row.ports, []), released: true } });
}

/** At start-up: tasks finished or canceled while their ports were still recorded as held release them. */
export async function releaseFinishedPorts(eng: EngineState): Promise<void> {
  for (const id of (await eng.deps.setups?.finishedHolding()) ?? []) await releasePorts(eng, id);
}

/**
 * The environment a later spawn of the task's agent gets (a resume, a round in a fresh pane): its
 * recorded ports, taken again (its old ones when they are free) when they were released meanwhile.
 */
export async function storedSetupEnv(eng: EngineState, taskId: string): Promise<Record<string, string>> {
  const row = await eng.deps.setups?.row(taskId);
  if (!row) return {};
  const { repoPath, runner } = await taskRow(eng, taskId);
  let ports = json<number[]>(row.ports, []);
  const config = json<EffectiveConfig | null>(row.config, null);
  if (row.portsReleasedAt && config?.ports) {
    const run = async () => {
      const picked = await reservePorts(eng, config.ports, ports);
      try {
        await eng.deps.setups!.setPorts(taskId, picked);
      } finally {
        unreserve(eng, picked);
      }
      return picked;
    };
    const p = eng.startLock.then(run, run);
    eng.startLock = p.catch(() => {});
    ports = await p;
    await eng.deps.journal.append("task.ports", { taskId, payload: { ports, released: false } });
  }
  return setupEnv(ports, runner ? null : repoPath);
}

function viewOf(row: TaskSetupRow): TaskSetupView | null {
  const config = json<EffectiveConfig | null>(row.config, null);
  if (!config) return null;
  return {
    config,
    ports: json<number[]>(row.ports, []),
    portsReleased: row.portsReleasedAt !== null,
    teardown: json<TeardownResult | null>(row.teardown, null),
  };
}

/** Each task's `setup` view, in one read. */
export async function setupViews(eng: EngineState, taskIds: readonly string[]): Promise<Map<string, TaskSetupView>> {
  const out = new Map<string, TaskSetupView>();
  if (!eng.deps.setups || taskIds.length === 0) return out;
  for (const row of await eng.deps.setups.many(taskIds)) {
    const v = viewOf(row);
    if (v) out.set(row.taskId, v);
  }
  return out;
}

/** `tasks.ports`: the task's ports, each with whether something listens on 127.0.0.1 there (not checked once released). */
export async function taskPorts(
  eng: EngineState,
  taskId: string,
): Promise<{ ports: Array<{ port: number; listening: boolean; url: string }>; released: boolean }> {
  const row = await eng.deps.setups?.row(taskId);
  const ports = row ? json<number[]>(row.ports, []) : [];
  const released = Boolean(row?.portsReleasedAt);
  return {
    ports: await Promise.all(
      ports.map(async (port) => ({
        port,
        listening: released ? false : await listening(port),
        url: `http://127.0.0.1:${port}/`,
      })),
    ),
    released,
  };
}
