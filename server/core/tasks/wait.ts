// Waiting on tasks: block until one task (or every task of a context the caller may see) is in
// one of the wanted states, woken by task.* journal events, with a timeout; and the named state
// sets (`settled`, `terminal`, `working`) a wait may ask for.
import { YardError } from "../errors";
import { type EngineState, taskRow } from "./engine-state";
import { TERMINAL_STATES } from "./state";
import { get, list, type TaskView } from "./views";

const WAIT_SETS = {
  settled: [...TERMINAL_STATES, "input_required"],
  terminal: [...TERMINAL_STATES],
  working: ["working"],
} as const;

function resolveUntil(until: string | string[] | undefined): string[] {
  const wanted = (Array.isArray(until) ? until : (until ?? "settled").split(",")).map((s) => s.trim()).filter(Boolean);
  const out = new Set<string>();
  for (const u of wanted) {
    if (u in WAIT_SETS) for (const s of WAIT_SETS[u as keyof typeof WAIT_SETS]) out.add(s);
    else if (
      ["backlog", "pending", "working", "input_required", "completed", "failed", "canceled", "rejected"].includes(u)
    )
      out.add(u);
    else
      throw new YardError(
        "BAD_PARAMS",
        `Unknown state ${JSON.stringify(u)}: use settled, terminal, working or task states`,
        { until: u },
      );
  }
  return [...out];
}

export interface WaitOptions {
  taskId?: string;
  contextId?: string;
  until?: string | string[];
  timeoutMs?: number;
  /** Of a context's tasks, the ones the caller may see (a pane's role scope); the others are neither waited on nor returned. */
  visible?: (tasks: TaskView[]) => Promise<TaskView[]>;
  /** Aborted when the caller went away (its connection closed): the wait ends at once, freeing what it held. */
  signal?: AbortSignal;
}

export async function wait(eng: EngineState, opts: WaitOptions): Promise<TaskView[]> {
  if (!opts.taskId === !opts.contextId)
    throw new YardError("BAD_PARAMS", "Wait for one task (ID) or a context (--context), not both or neither");
  const until = resolveUntil(opts.until);
  const timeoutMs = opts.timeoutMs ?? 10 * 60_000;
  if (opts.taskId) await taskRow(eng, opts.taskId);
  const visible = opts.visible ?? (async (tasks: TaskView[]) => tasks);
  const load = async () =>
    opts.taskId ? [await get(eng, opts.taskId)] : await visible(await list(eng, { contextId: opts.contextId }));
  const done = (tasks: TaskView[]) => tasks.every((t) => until.includes(t.state));
  return new Promise<TaskView[]>((resolve, reject) => {
    let finished = false;
    let checking = false;
    let again = false;
    const finish = (err: Error | null, tasks?: TaskView[]) => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      unsubscribe();
      opts.signal?.removeEventListener("abort", abandoned);
      if (err) reject(err);
      else resolve(tasks!);
    };
    const check = async () => {
      if (checking) return void (again = true);
      checking = true;
      try {
        do {
          again = false;
          const tasks = await load();
          if (done(tasks)) return finish(null, tasks);
        } while (again);
      } catch (e) {
        finish(e as Error);
      } finally {
        checking = false;
      }
    };
    const unsubscribe = eng.deps.journal.subscribe(
      (e) => {
        if (!opts.taskId || e.taskId === opts.taskId) void check();
      },
      { type: "task.*" },
      { otherProcesses: true }, // a task another server process runs is waited for too
    );
    const timer = setTimeout(async () => {
      const tasks = await load().catch(() => []);
      if (done(tasks)) return finish(null, tasks);
      finish(
        new YardError("TIMEOUT", `Timed out after ${timeoutMs} ms waiting for ${until.join("|")}`, {
          timeoutMs,
          until,
          tasks: tasks.map((t) => ({ id: t.id, state: t.state })),
        }),
      );
    }, timeoutMs);
    const abandoned = () => finish(new YardError("TIMEOUT", "The wait ended: its caller went away", { until }));
    if (opts.signal?.aborted) return abandoned();
    opts.signal?.addEventListener("abort", abandoned, { once: true });
    void check();
  });
}
