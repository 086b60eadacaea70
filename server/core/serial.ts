// Work queued per key (a task, a CODEX_HOME): each piece runs after everything queued for the same
// key before it, whether that succeeded or failed, so two changes to one thing never interleave.
// A key's entry is dropped once its queue has run dry.

/** Runs `fn` after everything queued under `key` in `queues` before it; its result is the caller's. */
export function inTurn<T>(queues: Map<string, Promise<unknown>>, key: string, fn: () => Promise<T>): Promise<T> {
  const prev = queues.get(key) ?? Promise.resolve();
  const p = prev.then(fn, fn);
  const settled = p.catch(() => {});
  queues.set(key, settled);
  void settled.then(() => {
    if (queues.get(key) === settled) queues.delete(key);
  });
  return p;
}
