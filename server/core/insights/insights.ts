// Insights: what a board's history says, as numbers the Insights page charts and `yard insights`
// prints. Pure: it takes the tasks (with their start, finish, rounds and token use) and their
// state changes from the journal, and computes tasks started and merged per day, time from start
// to merge (median, p90), review rounds per finished task, each agent profile's success rate and
// token use, and how long tasks waited on people (in input_required, or completed and waiting
// for a review or a merge). Days are UTC dates.

export interface InsightTask {
  id: string;
  agent: string;
  createdAt: Date;
  finishedAt: Date | null;
  disposition: string | null;
  state: string;
  round: number;
  /** Total tokens the agent used, when its transcript could be read. */
  tokens: number | null;
}

export interface StateChange {
  taskId: string;
  to: string;
  at: Date;
}

export interface Insights {
  from: string;
  to: string;
  perDay: Array<{ day: string; started: number; merged: number }>;
  startToMerge: { merged: number; medianMs: number | null; p90Ms: number | null };
  rounds: { finished: number; mean: number | null; perTask: Array<{ rounds: number; tasks: number }> };
  agents: Array<{
    agent: string;
    started: number;
    finished: number;
    merged: number;
    failed: number;
    /** merged / finished (null: nothing finished). */
    successRate: number | null;
    tokens: number;
    tasksWithTokens: number;
  }>;
  waitingOnPeople: { tasks: number; totalMs: number; medianMs: number | null; p90Ms: number | null };
}

const DAY = 86_400_000;
const WAITING = new Set(["input_required", "completed"]);

const day = (d: Date) => d.toISOString().slice(0, 10);

/** The q-quantile (0..1) of the values, nearest rank; null when there are none. */
export function quantile(values: number[], q: number): number | null {
  if (!values.length) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}

export function computeInsights(
  tasks: InsightTask[],
  changes: StateChange[],
  window: { from: Date; to: Date },
): Insights {
  const inWindow = (d: Date | null) => d !== null && d >= window.from && d <= window.to;
  const started = tasks.filter((t) => inWindow(t.createdAt));
  const merged = tasks.filter((t) => t.disposition === "merged" && inWindow(t.finishedAt));
  const finished = tasks.filter((t) => t.disposition !== null && inWindow(t.finishedAt));

  const perDay: Insights["perDay"] = [];
  for (let d = Date.parse(day(window.from)); d <= window.to.getTime(); d += DAY) {
    const key = day(new Date(d));
    perDay.push({
      day: key,
      started: started.filter((t) => day(t.createdAt) === key).length,
      merged: merged.filter((t) => day(t.finishedAt!) === key).length,
    });
  }

  const toMerge = merged.map((t) => t.finishedAt!.getTime() - t.createdAt.getTime());
  const roundCounts = new Map<number, number>();
  for (const t of finished) roundCounts.set(t.round, (roundCounts.get(t.round) ?? 0) + 1);

  const agents = new Map<string, Insights["agents"][number]>();
  const agentOf = (name: string) => {
    let a = agents.get(name);
    if (!a) {
      a = {
        agent: name,
        started: 0,
        finished: 0,
        merged: 0,
        failed: 0,
        successRate: null,
        tokens: 0,
        tasksWithTokens: 0,
      };
      agents.set(name, a);
    }
    return a;
  };
  for (const t of started) {
    const a = agentOf(t.agent);
    a.started++;
    if (t.tokens !== null) {
      a.tokens += t.tokens;
      a.tasksWithTokens++;
    }
  }
  for (const t of finished) {
    const a = agentOf(t.agent);
    a.finished++;
    if (t.disposition === "merged") a.merged++;
  }
  for (const t of started) if (t.state === "failed") agentOf(t.agent).failed++;
  for (const a of agents.values()) a.successRate = a.finished ? a.merged / a.finished : null;

  // Waiting on people: each stretch a task spent in a waiting state, cut to the window.
  const byTask = new Map<string, StateChange[]>();
  for (const c of [...changes].sort((a, b) => a.at.getTime() - b.at.getTime())) {
    const list = byTask.get(c.taskId) ?? [];
    list.push(c);
    byTask.set(c.taskId, list);
  }
  const waited: number[] = [];
  for (const t of tasks) {
    const list = byTask.get(t.id) ?? [];
    let total = 0;
    for (let i = 0; i < list.length; i++) {
      if (!WAITING.has(list[i]!.to)) continue;
      const start = Math.max(list[i]!.at.getTime(), window.from.getTime());
      const end = Math.min(
        list[i + 1]?.at.getTime() ?? t.finishedAt?.getTime() ?? window.to.getTime(),
        window.to.getTime(),
      );
      if (end > start) total += end - start;
    }
    if (total > 0) waited.push(total);
  }

  return {
    from: window.from.toISOString(),
    to: window.to.toISOString(),
    perDay,
    startToMerge: { merged: merged.length, medianMs: quantile(toMerge, 0.5), p90Ms: quantile(toMerge, 0.9) },
    rounds: {
      finished: finished.length,
      mean: finished.length ? finished.reduce((s, t) => s + t.round, 0) / finished.length : null,
      perTask: [...roundCounts].sort((a, b) => a[0] - b[0]).map(([rounds, n]) => ({ rounds, tasks: n })),
    },
    agents: [...agents.values()].sort((a, b) => b.started - a.started || a.agent.localeCompare(b.agent)),
    waitingOnPeople: {
      tasks: waited.length,
      totalMs: waited.reduce((s, w) => s + w, 0),
      medianMs: quantile(waited, 0.5),
      p90Ms: quantile(waited, 0.9),
    },
  };
}
